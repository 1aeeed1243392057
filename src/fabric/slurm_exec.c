// SPDX-License-Identifier: MIT
/* Slurm's commands (slurm.h): sinfo and scontrol spawned without a shell
 * (every value one argv element), their output captured, each bounded. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/fail.h"
#include "slurm.h"

/* The child's stdin /dev/null, stdout and stderr the pipe's end w. */
static int spawn(char *const argv[], int r, int w, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int ret;

	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		return -ret;
	ret = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
					       0);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, w, 1);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, w, 2);
	if (!ret)
		ret = posix_spawn_file_actions_addclose(&fa, r);
	if (!ret)
		ret = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -ret;
}

/* All of fd into out (cut to len, the rest read and dropped) until EOF,
 * for at most timeout_ms: 0 or -ETIMEDOUT. */
static int slurp(int fd, char *out, size_t len, int timeout_ms)
{
	uint64_t end = ig_now_ns() + (uint64_t)timeout_ms * 1000000u;
	size_t at = 0;
	char drop[512];

	for (;;) {
		uint64_t now = ig_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t k;

		if (now >= end)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)((end - now) / 1000000u) + 1) < 0 &&
		    errno != EINTR)
			return -errno;
		if (!p.revents)
			continue;
		if (at + 1 < len)
			k = read(fd, out + at, len - at - 1);
		else
			k = read(fd, drop, sizeof(drop));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		if (at + 1 < len)
			at += (size_t)k;
		out[at] = '\0';
	}
}

int ig_slurm_exec(char *const argv[], char *out, size_t len, int timeout_ms)
{
	int fd[2], st, ret;
	pid_t pid;

	if (len)
		out[0] = '\0';
	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	ret = spawn(argv, fd[0], fd[1], &pid);
	close(fd[1]);
	if (!ret)
		ret = slurp(fd[0], out, len, timeout_ms);
	close(fd[0]);
	if (ret == -ETIMEDOUT)
		kill(pid, SIGKILL);
	if (ret && ret != -ETIMEDOUT)
		return ret;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret)
		return ret;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The line of a command's output that says what went wrong, for a
 * one-line error: Slurm's tools end with their "fatal:" line, else the
 * last "error" line, else the first line (scontrol ping: "... is DOWN"). */
static const char *useful_line(char *out)
{
	char *line = NULL, *err = NULL, *fatal = NULL, *save = NULL;

	for (char *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!line)
			line = l;
		if (strstr(l, "fatal"))
			fatal = l;
		else if (strstr(l, "error"))
			err = l;
	}
	line = fatal ? fatal : err ? err : line;
	return line ? line : "(no output)";
}

/* "exit 1: its line", "not on PATH", "timed out after 30 s" ... */
static void failure(char *buf, size_t len, int ret, char *out)
{
	if (ret == -ENOENT)
		snprintf(buf, len, "not on PATH (Debian: slurm-client)");
	else if (ret == -ETIMEDOUT)
		snprintf(buf, len, "no answer in %d s",
			 IG_SLURM_TIMEOUT_MS / 1000);
	else if (ret < 0)
		snprintf(buf, len, "%s", strerror(-ret));
	else
		snprintf(buf, len, "exit %d: %s", ret, useful_line(out));
}

int ig_slurm_check(bool need_job, char *err, size_t errlen)
{
	const char *opt = need_job ? "--drain" : "--resume";
	char *const ping[] = { "scontrol", "ping", NULL };
	char *const ver[] = { "sinfo", "--version", NULL };
	char out[1024], why[512];
	int ret;

	if (need_job && !getenv("SLURM_JOB_ID"))
		return ig_fail(-ENOTSUP, err, errlen,
			       "--drain needs Slurm: SLURM_JOB_ID is not set "
			       "(run ibgap-fabric under srun or in an sbatch "
			       "job)");
	ret = ig_slurm_exec(ping, out, sizeof(out), IG_SLURM_TIMEOUT_MS);
	if (ret) {
		failure(why, sizeof(why), ret, out);
		return ig_fail(-ENOTSUP, err, errlen,
			       "%s needs Slurm: scontrol ping: %s", opt, why);
	}
	ret = ig_slurm_exec(ver, out, sizeof(out), IG_SLURM_TIMEOUT_MS);
	if (!ret)
		return 0;
	failure(why, sizeof(why), ret, out);
	return ig_fail(-ENOTSUP, err, errlen,
		       "%s needs Slurm: sinfo --version: %s", opt, why);
}

/* The node's line of sinfo into n: 0, or -EIO with why. */
static int query(const char *node, struct ig_slurm_node *n, char *why,
		 size_t len)
{
	char *const argv[] = {
		"sinfo", "-h",	       "-N", "--all",
		"-n",	 (char *)node, "-o", IG_SLURM_SINFO_FMT,
		NULL,
	};
	char out[4096], err[256];
	size_t got;
	int ret = ig_slurm_exec(argv, out, sizeof(out), IG_SLURM_TIMEOUT_MS);

	if (ret) {
		failure(err, sizeof(err), ret, out);
		return ig_fail(-EIO, why, len, "sinfo -n %s: %s", node, err);
	}
	if (ig_slurm_parse(out, n, 1, &got, err, sizeof(err)))
		return ig_fail(-EIO, why, len, "sinfo -n %s: %s", node, err);
	if (got && !strcmp(n->name, node))
		return 0;
	return ig_fail(-EIO, why, len,
		       "sinfo -n %s: no such Slurm node (its rank's "
		       "SLURMD_NODENAME, else its short host name)",
		       node);
}

/* scontrol update NodeName=node State=state [Reason=reason]: 0, or -EIO
 * with why. */
static int update(const char *node, const char *state, const char *reason,
		  char *why, size_t len)
{
	char nn[IG_SLURM_NAME + 16], st[32], rs[IG_SLURM_REASON + 16];
	char *const argv[] = { "scontrol", "update",	       nn,
			       st,	   reason ? rs : NULL, NULL };
	char out[1024], err[512];
	int ret;

	snprintf(nn, sizeof(nn), "NodeName=%s", node);
	snprintf(st, sizeof(st), "State=%s", state);
	snprintf(rs, sizeof(rs), "Reason=%s", reason ? reason : "");
	ret = ig_slurm_exec(argv, out, sizeof(out), IG_SLURM_TIMEOUT_MS);
	if (!ret)
		return 0;
	failure(err, sizeof(err), ret, out);
	return ig_fail(-EIO, why, len, "scontrol update %s %s: %s", nn, st,
		       err);
}

static bool done_before(const struct ig_slurm_out *o, const char *node)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->d[i].node, node))
			return true;
	return false;
}

/* d->node drained (or its ibgap reason updated) unless someone else's
 * reason is on it. */
static void drain_one(struct ig_slurm_done *d, const char *why)
{
	struct ig_slurm_node n;

	d->ok = !query(d->node, &n, d->why, sizeof(d->why));
	if (!d->ok)
		return;
	d->act = ig_slurm_drain_act(&n);
	snprintf(d->state, sizeof(d->state), "%s", n.state);
	if (d->act == IG_SLURM_LEAVE) {
		snprintf(d->reason, sizeof(d->reason), "%s", n.reason);
		return;
	}
	ig_slurm_reason(d->reason, sizeof(d->reason), why);
	d->ok = !update(d->node, "DRAIN", d->reason, d->why, sizeof(d->why));
}

int ig_slurm_drain(const struct ig_slurm_want *want, size_t n,
		   struct ig_slurm_out *out, FILE *log)
{
	*out = (struct ig_slurm_out){ .d = calloc(n ? n : 1, sizeof(*out->d)) };
	if (!out->d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct ig_slurm_done *d = &out->d[out->n];

		if (done_before(out, want[i].node))
			continue;
		out->n++;
		snprintf(d->node, sizeof(d->node), "%s", want[i].node);
		drain_one(d, want[i].why);
		if (d->ok)
			continue;
		out->failed++;
		fprintf(log, "ibgap-fabric: --drain %s: %s\n", d->node, d->why);
	}
	return 0;
}

/* The number of lines of s, at least 1. */
static size_t lines(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* sinfo of every node into *nodes (allocated), *n of them: 0, -ENOMEM,
 * or -EIO after one line to log (also when its output fills
 * IG_SLURM_LIST_MAX: a cut list is not acted on). */
#define IG_SLURM_LIST_MAX (16u << 20) /* 100,000 nodes of 160 bytes */
static int list_all(struct ig_slurm_node **nodes, size_t *n, FILE *log)
{
	char *const argv[] = { "sinfo", "-h", "-N",
			       "--all", "-o", IG_SLURM_SINFO_FMT,
			       NULL };
	size_t len = IG_SLURM_LIST_MAX;
	char *out = malloc(len), why[512];
	int ret = -ENOMEM;

	if (out)
		ret = ig_slurm_exec(argv, out, len, IG_SLURM_TIMEOUT_MS);
	if (ret > 0 || (ret < 0 && ret != -ENOMEM)) {
		failure(why, sizeof(why), ret, out);
		fprintf(log, "ibgap-fabric: --resume: sinfo: %s\n", why);
		ret = -EIO;
	}
	if (!ret && strlen(out) == len - 1) {
		fprintf(log,
			"ibgap-fabric: --resume: sinfo's list is over %zu "
			"MB: cut, nothing resumed\n",
			len >> 20);
		ret = -EIO;
	}
	if (!ret && !(*nodes = calloc(lines(out), sizeof(**nodes))))
		ret = -ENOMEM;
	if (!ret &&
	    ig_slurm_parse(out, *nodes, lines(out), n, why, sizeof(why))) {
		fprintf(log, "ibgap-fabric: --resume: %s\n", why);
		ret = -EIO;
	}
	free(out);
	return ret;
}

int ig_slurm_resume(struct ig_slurm_out *out, FILE *log)
{
	struct ig_slurm_node *nodes = NULL;
	size_t n = 0;
	int ret = list_all(&nodes, &n, log);

	*out = (struct ig_slurm_out){ 0 };
	if (!ret && !(out->d = calloc(n ? n : 1, sizeof(*out->d))))
		ret = -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++) {
		enum ig_slurm_act act = ig_slurm_resume_act(&nodes[i]);
		struct ig_slurm_done *d = &out->d[out->n];

		if (act == IG_SLURM_NONE)
			continue;
		out->n++;
		*d = (struct ig_slurm_done){ .act = act, .ok = true };
		snprintf(d->node, sizeof(d->node), "%s", nodes[i].name);
		snprintf(d->state, sizeof(d->state), "%s", nodes[i].state);
		snprintf(d->reason, sizeof(d->reason), "%s", nodes[i].reason);
		if (act != IG_SLURM_RESUME ||
		    !update(d->node, "RESUME", NULL, d->why, sizeof(d->why)))
			continue;
		d->ok = false;
		out->failed++;
		fprintf(log, "ibgap-fabric: --resume %s: %s\n", d->node,
			d->why);
	}
	free(nodes);
	return ret;
}

void ig_slurm_out_free(struct ig_slurm_out *o)
{
	free(o->d);
	*o = (struct ig_slurm_out){ 0 };
}
