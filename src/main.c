// SPDX-License-Identifier: MIT
/* ibgap: the subcommand table. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "tune/journal.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	{ "server", ig_cmd_server },   { "client", ig_cmd_client },
	{ "version", ig_cmd_version }, { "--version", ig_cmd_version },
	{ "help", ig_cmd_help },       { "--help", ig_cmd_help },
	{ "-h", ig_cmd_help },	       { "diff", ig_cmd_diff },
	{ "doctor", ig_cmd_doctor },
};

/* A trial's changes left made (SIGKILL, a power cut) are said at every
 * start, but by the command that puts them back. */
static void pending_journal(int argc, char **argv)
{
	for (int i = 2; argc > 1 && !strcmp(argv[1], "doctor") && i < argc; i++)
		if (!strcmp(argv[i], "--undo"))
			return;
	if (ig_journal_pending(IG_JOURNAL_DEFAULT) == 1)
		fprintf(stderr, "ibgap: a trial's changes were not put back "
				"(" IG_JOURNAL_DEFAULT "): run 'ibgap doctor "
				"--undo'\n");
}

int main(int argc, char **argv)
{
	pending_journal(argc, argv);
	if (argc < 2)
		return ig_cmd_local(argc, argv);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(*subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	/* "ibgap -D 0.3": the local run with the client's options */
	if (argv[1][0] == '-')
		return ig_cmd_local(argc, argv);
	fprintf(stderr,
		"ibgap: unknown command '%s': allowed server, client, "
		"diff, doctor, version, help\n",
		argv[1]);
	return 2;
}
