// SPDX-License-Identifier: MIT
/*
 * The tune layer on the live system, in a network namespace of its own
 * (never the host's settings): a child unshares its network and mount
 * namespaces, mounts a sysfs of its namespace, makes a veth pair va/vb
 * with a tbf on va, then
 *   1. snapshots every knob ig_tune_read() sees (the namespace's sysctls,
 *      va's features, rings, coalescing, channels, RPS/XPS, MTU, qdiscs);
 *   2. changes each knob veth lets change, reads the new value back,
 *      reverts it and reads the old one back (a sysctl's host value, read
 *      through a file opened before the unshare, must not move);
 *   3. deletes the tbf and puts it back: `tc qdisc show` is the same;
 *   4. has a grandchild journal and apply several changes, SIGKILLs it,
 *      finds the journal pending (open: -EEXIST), undoes it: the snapshot
 *      is the one of step 1 and the journal is gone.
 * The parent checks that the host's sysctls did not change.  Not root, or
 * no unshare or veth: exit 77 with one line saying why.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune/journal.h"
#include "tune/tune.h"

#define SKIP 77

static const char *const sysctls[] = {
	"net.core.rmem_max",	       "net.core.wmem_max",
	"net.core.rmem_default",       "net.core.wmem_default",
	"net.core.netdev_max_backlog", "net.core.busy_poll",
	"net.core.busy_read",	       "net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",	       "net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_mtu_probing",
};
#define NSYS (sizeof(sysctls) / sizeof(sysctls[0]))

/* The knobs of the snapshot: each read with its return code. */
struct knob {
	struct ig_tune_change c;
	int rc;
	char val[IG_TUNE_VAL_LEN];
};

#define MAX_KNOBS 64

struct snap {
	struct knob k[MAX_KNOBS];
	size_t n;
};

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tune_live: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void skip(const char *why)
{
	printf("tune_live: skipped: %s\n", why);
	exit(SKIP);
}

static void add(struct snap *s, enum ig_tune_kind kind, const char *dev,
		const char *name)
{
	struct ig_tune_change *c = &s->k[s->n++].c;

	*c = (struct ig_tune_change){ .kind = kind };
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	snprintf(c->name, sizeof(c->name), "%s", name);
}

/* The list of knobs a namespace with va has. */
static void knobs(struct snap *s)
{
	static const char *const feat[] = { "gro", "gso",     "tso",	"lro",
					    "sg",  "rx-csum", "tx-csum" };
	static const char *const coal[] = { "adaptive-rx", "rx-usecs",
					    "rx-frames", "tx-usecs",
					    "tx-frames" };
	static const char *const chan[] = { "combined", "rx", "tx" };

	s->n = 0;
	for (size_t i = 0; i < NSYS; i++)
		add(s, IG_TUNE_SYSCTL, "", sysctls[i]);
	for (size_t i = 0; i < sizeof(feat) / sizeof(feat[0]); i++)
		add(s, IG_TUNE_FEATURE, "va", feat[i]);
	add(s, IG_TUNE_RING, "va", "rx");
	add(s, IG_TUNE_RING, "va", "tx");
	for (size_t i = 0; i < sizeof(coal) / sizeof(coal[0]); i++)
		add(s, IG_TUNE_COALESCE, "va", coal[i]);
	for (size_t i = 0; i < sizeof(chan) / sizeof(chan[0]); i++)
		add(s, IG_TUNE_CHANNELS, "va", chan[i]);
	add(s, IG_TUNE_RPS, "va", "rx-0");
	add(s, IG_TUNE_XPS, "va", "tx-0");
	add(s, IG_TUNE_MTU, "va", "");
	add(s, IG_TUNE_QDISC, "va", "root");
	add(s, IG_TUNE_QDISC, "va", "ingress");
}

static void take(struct snap *s)
{
	memset(s, 0, sizeof(*s));
	knobs(s);
	for (size_t i = 0; i < s->n; i++)
		s->k[i].rc = ig_tune_read(NULL, &s->k[i].c, s->k[i].val,
					  sizeof(s->k[i].val));
}

static void same(const struct snap *a, const struct snap *b, const char *when)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->k[i].rc != b->k[i].rc ||
		    strcmp(a->k[i].val, b->k[i].val))
			fail("%s: %s %s %s was \"%s\" (%d), is \"%s\" (%d)",
			     when, ig_tune_kind_name(a->k[i].c.kind),
			     a->k[i].c.dev, a->k[i].c.name, a->k[i].val,
			     a->k[i].rc, b->k[i].val, b->k[i].rc);
}

/* A value other than cur for c's knob. */
static void other(const struct ig_tune_change *c, const char *cur, char *to,
		  size_t len)
{
	unsigned long v = strtoul(cur, NULL, 10);

	if (c->kind == IG_TUNE_SYSCTL && strstr(c->name, "tcp_") &&
	    strstr(c->name, "mem"))
		snprintf(to, len, "%s",
			 strcmp(cur, "4096 65536 1048576")
				 ? "4096 65536 1048576"
				 : "4096 131072 2097152");
	else if (strstr(c->name, "congestion"))
		snprintf(to, len, "%s", strcmp(cur, "reno") ? "reno" : "cubic");
	else if (strstr(c->name, "mtu_probing"))
		snprintf(to, len, "%lu", (v + 1) % 3);
	else if (c->kind == IG_TUNE_SYSCTL)
		snprintf(to, len, "%lu", v + 4096);
	else if (c->kind == IG_TUNE_FEATURE || !strcmp(c->name, "adaptive-rx"))
		snprintf(to, len, "%s", strcmp(cur, "on") ? "on" : "off");
	else if (c->kind == IG_TUNE_RPS || c->kind == IG_TUNE_XPS)
		snprintf(to, len, "%s",
			 strspn(cur, "0,") == strlen(cur) ? "1" : "0");
	else if (c->kind == IG_TUNE_MTU)
		snprintf(to, len, "%s", v == 9000 ? "1500" : "9000");
	else if (c->kind == IG_TUNE_QDISC && !strcmp(c->name, "ingress"))
		snprintf(to, len, "%s",
			 *cur ? ""
			      : "kind=ingress handle=ffff: parent=ingress");
	else if (c->kind == IG_TUNE_QDISC)
		snprintf(to, len, "%s", "");
	else
		snprintf(to, len, "%lu", v > 1 ? v / 2 : v + 1);
}

/* A sysctl the namespace lets change: on 6.18 net.core.{r,w}mem_* are
 * the namespace's own but read-only (0444) outside the initial one. */
static bool sysctl_writable(const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "/proc/sys/%s", name);
	for (char *d = p + 10; (d = strchr(d, '.'));)
		*d = '/';
	return !access(p, W_OK);
}

/* Knobs whose change veth and a namespace must take. */
static bool must_apply(const struct ig_tune_change *c)
{
	return (c->kind == IG_TUNE_SYSCTL && sysctl_writable(c->name)) ||
	       c->kind == IG_TUNE_RPS || c->kind == IG_TUNE_XPS ||
	       c->kind == IG_TUNE_MTU || c->kind == IG_TUNE_QDISC ||
	       (c->kind == IG_TUNE_FEATURE && !strcmp(c->name, "gro"));
}

/* The host's value of each sysctl, through files opened before the
 * unshare (a sysctl file stays bound to the namespace it was opened in). */
struct host_sys {
	int fd[NSYS];
	char val[NSYS][128];
};

static void host_read(struct host_sys *h, char val[NSYS][128])
{
	for (size_t i = 0; i < NSYS; i++) {
		ssize_t n = h->fd[i] < 0 ? 0 : pread(h->fd[i], val[i], 127, 0);

		val[i][n > 0 ? n : 0] = 0;
	}
}

static void host_open(struct host_sys *h)
{
	char p[128];

	for (size_t i = 0; i < NSYS; i++) {
		snprintf(p, sizeof(p), "/proc/sys/%s", sysctls[i]);
		for (char *d = p + 10; (d = strchr(d, '.'));)
			*d = '/';
		h->fd[i] = open(p, O_RDONLY | O_CLOEXEC);
	}
	host_read(h, h->val);
}

static void host_same(struct host_sys *h, const char *when)
{
	char now[NSYS][128];

	host_read(h, now);
	for (size_t i = 0; i < NSYS; i++)
		if (strcmp(now[i], h->val[i]))
			fail("%s: the host's %s changed from %s to %s", when,
			     sysctls[i], h->val[i], now[i]);
}

/* One knob changed, read back, reverted, read back; 1 when the change
 * was made, 0 when the driver refused it (and nothing changed). */
static int try_one(struct knob *k, struct host_sys *h)
{
	struct ig_tune_change c = k->c;
	char err[512], v[IG_TUNE_VAL_LEN];
	int ret;

	other(&c, k->val, c.to, sizeof(c.to));
	ret = ig_tune_apply(NULL, &c, err, sizeof(err));
	if (ret && must_apply(&c))
		fail("apply %s %s %s=%s: %s", ig_tune_kind_name(c.kind), c.dev,
		     c.name, c.to, err);
	if (!ret) {
		if (strcmp(c.from, k->val))
			fail("%s %s: from \"%s\", read \"%s\"", c.dev, c.name,
			     c.from, k->val);
		if (ig_tune_read(NULL, &c, v, sizeof(v)) || strcmp(v, c.to))
			fail("%s %s %s: set \"%s\", reads \"%s\"",
			     ig_tune_kind_name(c.kind), c.dev, c.name, c.to, v);
		host_same(h, c.name);
		if (ig_tune_revert(NULL, &c, err, sizeof(err)))
			fail("revert %s %s: %s", c.dev, c.name, err);
	} else {
		printf("tune_live: refused (as veth may): %s\n", err);
	}
	if (ig_tune_read(NULL, &c, v, sizeof(v)) || strcmp(v, k->val))
		fail("%s %s %s: was \"%s\", after %s \"%s\"",
		     ig_tune_kind_name(c.kind), c.dev, c.name, k->val,
		     ret ? "a refused change" : "the revert", v);
	return !ret;
}

/* The output of cmd. */
static void output(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(buf, 1, len - 1, p) : 0;

	buf[n] = 0;
	if (!p || pclose(p))
		fail("%s: failed", cmd);
}

/* A namespace of this process's own, with its sysfs, va/vb and a tbf. */
static void setup(void)
{
	if (unshare(CLONE_NEWNET | CLONE_NEWNS))
		skip("unshare(CLONE_NEWNET | CLONE_NEWNS) failed");
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL))
		skip("no sysfs of the namespace's own could be mounted");
	if (system("ip link add va type veth peer name vb && "
		   "ip link set va up && ip link set vb up"))
		skip("no veth pair (ip link add ... type veth)");
	if (system("tc qdisc add dev va root tbf rate 100mbit burst 32kbit "
		   "latency 400ms"))
		fail("tc qdisc add dev va root tbf: failed");
}

/* Step 3: the tbf deleted and put back, by the layer and by the tc line
 * of its revert. */
static void qdisc_exact(void)
{
	struct ig_tune_change c = {
		.kind = IG_TUNE_QDISC, .dev = "va", .name = "root", .to = ""
	};
	char before[2048], after[2048], cmd[1024], err[512];

	output("tc qdisc show dev va", before, sizeof(before));
	if (!strstr(before, "tbf"))
		fail("no tbf planted on va: %s", before);
	if (ig_tune_apply(NULL, &c, err, sizeof(err)))
		fail("deleting the tbf: %s", err);
	output("tc qdisc show dev va", after, sizeof(after));
	if (strstr(after, "tbf"))
		fail("the tbf is still there: %s", after);
	ig_tune_cmd(&c, true, cmd, sizeof(cmd));
	printf("tune_live: the revert as a command: %s\n", cmd);
	if (system(cmd))
		fail("%s: failed", cmd);
	output("tc qdisc show dev va", after, sizeof(after));
	if (strcmp(before, after))
		fail("after `%s`: %s, before: %s", cmd, after, before);
	if (ig_tune_revert(NULL, &c, err, sizeof(err)))
		fail("putting the tbf back: %s", err);
	output("tc qdisc show dev va", after, sizeof(after));
	if (strcmp(before, after))
		fail("tbf put back: %s, before: %s", after, before);
	printf("tune_live: %s", after);
}

/* The grandchild of step 4: journals and applies changes, says so on fd,
 * waits to be killed. */
static void journal_and_wait(const char *path, int fd)
{
	static const struct ig_tune_change ch[] = {
		{ .kind = IG_TUNE_SYSCTL,
		  .name = "net.ipv4.tcp_congestion_control",
		  .to = "reno" },
		{ .kind = IG_TUNE_SYSCTL,
		  .name = "net.ipv4.tcp_rmem",
		  .to = "4096 8192 16384" },
		{ .kind = IG_TUNE_FEATURE,
		  .dev = "va",
		  .name = "gro",
		  .to = "on" },
		{ .kind = IG_TUNE_FEATURE,
		  .dev = "va",
		  .name = "tso",
		  .to = "off" },
		{ .kind = IG_TUNE_MTU, .dev = "va", .to = "9000" },
		{ .kind = IG_TUNE_RPS, .dev = "va", .name = "rx-0", .to = "1" },
		{ .kind = IG_TUNE_QDISC, .dev = "va", .name = "root", .to = "" },
		{ .kind = IG_TUNE_QDISC,
		  .dev = "va",
		  .name = "ingress",
		  .to = "kind=ingress handle=ffff: parent=ingress" },
	};
	struct ig_journal j;
	char err[512];

	if (ig_journal_open(&j, path, NULL, err, sizeof(err)))
		fail("grandchild: %s", err);
	for (size_t i = 0; i < sizeof(ch) / sizeof(ch[0]); i++) {
		struct ig_tune_change c = ch[i];

		if (ig_journal_apply(&j, &c, err, sizeof(err)))
			fail("grandchild: %s", err);
	}
	if (write(fd, "x", 1) != 1)
		fail("grandchild: write to the pipe");
	pause();
	_exit(0);
}

/* Step 4. */
static void killed_then_undone(const struct snap *before)
{
	char dir[] = "/tmp/ibgap-tune-live.XXXXXX", path[64], err[512], x;
	struct snap mid, after;
	struct ig_journal j;
	int fd[2];
	pid_t p;

	if (!mkdtemp(dir) || pipe(fd))
		fail("mkdtemp or pipe: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/try.journal", dir);
	p = fork();
	if (!p)
		journal_and_wait(path, fd[1]);
	close(fd[1]);
	if (p < 0 || read(fd[0], &x, 1) != 1)
		fail("the grandchild did not apply its changes");
	take(&mid);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	if (!memcmp(mid.k, before->k, sizeof(mid.k)))
		fail("the grandchild's changes are not seen");
	if (ig_journal_pending(path) != 1)
		fail("%s is not pending after SIGKILL", path);
	if (ig_journal_open(&j, path, NULL, err, sizeof(err)) != -EEXIST)
		fail("ig_journal_open of a pending journal is not -EEXIST");
	printf("tune_live: open refused: %s\n", err);
	if (ig_journal_undo(path, NULL, stdout, err, sizeof(err)))
		fail("undo: %s", err);
	take(&after);
	same(before, &after, "after SIGKILL and undo");
	if (!access(path, F_OK))
		fail("%s is still there after the undo", path);
	rmdir(dir);
}

static int child(struct host_sys *h)
{
	struct snap before, after;
	int applied = 0, tried = 0;

	setup();
	take(&before);
	for (size_t i = 0; i < before.n; i++) {
		printf("tune_live: %s %s %s = \"%s\" (%d)\n",
		       ig_tune_kind_name(before.k[i].c.kind), before.k[i].c.dev,
		       before.k[i].c.name, before.k[i].val, before.k[i].rc);
		if (before.k[i].rc)
			continue;
		tried++;
		applied += try_one(&before.k[i], h);
	}
	take(&after);
	same(&before, &after, "after each change and its revert");
	printf("tune_live: %d of %d knobs changed and put back\n", applied,
	       tried);
	qdisc_exact();
	killed_then_undone(&before);
	host_same(h, "the end");
	return 0;
}

int main(void)
{
	struct host_sys h;
	int st;
	pid_t p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid())
		skip("needs root (a network namespace of its own)");
	host_open(&h);
	p = fork();
	if (p < 0)
		fail("fork: %s", strerror(errno));
	if (!p)
		exit(child(&h));
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st))
		fail("the child did not exit");
	if (WEXITSTATUS(st))
		return WEXITSTATUS(st);
	host_same(&h, "after the child");
	printf("tune_live: ok\n");
	return 0;
}
