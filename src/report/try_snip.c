// SPDX-License-Identifier: MIT
/* The snippets a person can keep for the fixes that helped: a sysctl.d
 * file, a TuneD profile's sections, the commands; printed, never written
 * into the system (docs/design.md, "Trials"). */
#include <stdio.h>

#include "try.h"

/* TuneD's net plugin option for an ethtool change ("features", "ring",
 * "coalesce", "channels"), or NULL. */
static const char *tuned_net(enum ig_tune_kind k)
{
	switch (k) {
	case IG_TUNE_FEATURE:
		return "features";
	case IG_TUNE_RING:
		return "ring";
	case IG_TUNE_COALESCE:
		return "coalesce";
	case IG_TUNE_CHANNELS:
		return "channels";
	default:
		return NULL;
	}
}

/* The helped changes that part prints: 0 sysctl.d and TuneD's [sysctl],
 * 1 TuneD's [net], 2 the commands (all but sysctls). */
static bool in_part(const struct ig_tune_change *c, int part)
{
	if (part == 0)
		return c->kind == IG_TUNE_SYSCTL;
	if (part == 1)
		return tuned_net(c->kind) != NULL;
	return c->kind != IG_TUNE_SYSCTL;
}

/* Prints part's lines under head (nothing when it has none). */
static void snip(FILE *f, const struct ig_try_doc *d, int part,
		 const char *head)
{
	char cmd[IG_TUNE_CMD_LEN];

	for (size_t i = 0; i < d->n; i++) {
		const struct ig_try_item *t = &d->t[i];
		const char *side = ig_try_side_name(t->side);

		for (unsigned int j = 0; ig_try_helped(t) && j < t->n; j++) {
			const struct ig_tune_change *c = &t->c[j];

			if (!in_part(c, part))
				continue;
			fputs(head, f);
			head = "";
			if (part == 0)
				fprintf(f, "  # %s\n  %s = %s\n", side, c->name,
					c->to);
			else if (part == 1)
				fprintf(f,
					"  # %s\n  [net_%s]\n  type=net\n"
					"  devices=%s\n  %s=%s %s\n",
					side, c->dev, c->dev,
					tuned_net(c->kind), c->name, c->to);
			ig_tune_cmd(c, false, cmd, sizeof(cmd));
			if (part == 2)
				fprintf(f, "  %s    # %s\n", cmd, side);
		}
	}
}

void ig_try_print_snippets(FILE *f, const struct ig_try_doc *d)
{
	size_t helped = 0;

	for (size_t i = 0; i < d->n; i++)
		helped += ig_try_helped(&d->t[i]);
	if (!helped)
		return;
	fputs("\nto keep the fixes that helped (printed only: nothing was "
	      "written into the system's configuration)\n",
	      f);
	snip(f, d, 0, "/etc/sysctl.d/90-ibgap.conf:\n");
	snip(f, d, 0, "TuneD profile (tuned.conf), [sysctl]:\n");
	snip(f, d, 1,
	     "TuneD profile (tuned.conf), a net plugin section per "
	     "change (ethtool's syntax):\n");
	snip(f, d, 2,
	     "commands (ethtool, ip, tc, sysfs; not kept across a "
	     "reboot):\n");
}
