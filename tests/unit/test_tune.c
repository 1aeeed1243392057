// SPDX-License-Identifier: MIT
/*
 * Unit tests for the tune layer's pure parts (tune.h): the closed list of
 * knobs and their value shapes, the commands a person would type, the
 * JSON codec; and the journal (journal.h) on files written here, with a
 * root prefix whose /proc/sys files stand for the sysctls.
 */
#include <check.h>
#include <errno.h>
#include <linux/pkt_sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune/journal.h"
#include "tune/tune.h"
#include "testmain.h"

static struct ig_tune_change chg(enum ig_tune_kind k, const char *dev,
				 const char *name, const char *to,
				 const char *from)
{
	struct ig_tune_change c = { .kind = k };

	snprintf(c.dev, sizeof(c.dev), "%s", dev);
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.to, sizeof(c.to), "%s", to);
	snprintf(c.from, sizeof(c.from), "%s", from);
	return c;
}

START_TEST(test_kind_names)
{
	enum ig_tune_kind k;

	for (int i = 0; i < IG_TUNE_KIND_MAX; i++) {
		const char *n = ig_tune_kind_name((enum ig_tune_kind)i);

		ck_assert_ptr_nonnull(n);
		ck_assert_int_eq(ig_tune_kind_parse(n, &k), 0);
		ck_assert_int_eq(k, i);
	}
	ck_assert_ptr_null(ig_tune_kind_name(IG_TUNE_KIND_MAX));
	ck_assert_str_eq(ig_tune_kind_name(IG_TUNE_IPOIB_MODE), "ipoib_mode");
	ck_assert_int_eq(ig_tune_kind_parse("route", &k), -EINVAL);
	ck_assert_int_eq(ig_tune_kind_parse("", &k), -EINVAL);
}
END_TEST

START_TEST(test_check_accepts)
{
	const struct ig_tune_change ok[] = {
		chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_rmem",
		    "4096 131072 6291456", "4096 87380 6291456"),
		chg(IG_TUNE_SYSCTL, "", "net.core.rmem_max", "67108864", ""),
		chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_congestion_control",
		    "bbr", "cubic"),
		chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_mtu_probing", "1", "0"),
		chg(IG_TUNE_FEATURE, "va", "gro", "on", "off"),
		chg(IG_TUNE_FEATURE, "eth0", "tso", "off",
		    "tx-tcp-segmentation=on tx-tcp6-segmentation=off"),
		chg(IG_TUNE_RING, "ib0", "rx", "4096", "1024"),
		chg(IG_TUNE_COALESCE, "va", "adaptive-rx", "on", "off"),
		chg(IG_TUNE_COALESCE, "va", "rx-usecs", "8", "3"),
		chg(IG_TUNE_CHANNELS, "va", "combined", "4", "1"),
		chg(IG_TUNE_RPS, "va", "rx-0", "f", "0"),
		chg(IG_TUNE_XPS, "va", "tx-3", "00000000,0000000f", ""),
		chg(IG_TUNE_IRQ, "", "45", "0-3", "0-7,9"),
		chg(IG_TUNE_GOVERNOR, "", "all", "performance",
		    "cpu0=powersave cpu1=performance"),
		chg(IG_TUNE_GOVERNOR, "", "cpu3", "performance", "schedutil"),
		chg(IG_TUNE_MTU, "va", "", "9000", "1500"),
		chg(IG_TUNE_IPOIB_MODE, "ib0.8001", "", "datagram",
		    "connected"),
		chg(IG_TUNE_QDISC, "va", "root", "",
		    "kind=tbf handle=8001: parent=root opts=0400"),
		chg(IG_TUNE_QDISC, "va", "ingress",
		    "kind=ingress handle=ffff: parent=ingress", ""),
	};
	char err[256];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(!ig_tune_check(&ok[i], err, sizeof(err)),
			      "change %zu refused: %s", i, err);
}
END_TEST

/* Each refused with -EINVAL and a line that names the bad part. */
START_TEST(test_check_refuses)
{
	const struct {
		struct ig_tune_change c;
		const char *named;
	} bad[] = {
		{ chg(IG_TUNE_SYSCTL, "", "kernel.panic", "1", ""),
		  "\"kernel.panic\"" },
		{ chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_rmem", "4096 131072",
		      ""),
		  "\"4096 131072\"" },
		{ chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_rmem",
		      "4096  131072 6291456", ""),
		  "three numbers" },
		{ chg(IG_TUNE_SYSCTL, "eth0", "net.core.rmem_max", "1", ""),
		  "\"eth0\"" },
		{ chg(IG_TUNE_SYSCTL, "", "net.core.rmem_max", "1; reboot", ""),
		  "\"1; reboot\"" },
		{ chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_mtu_probing", "3", ""),
		  "0, 1 or 2" },
		{ chg(IG_TUNE_FEATURE, "va", "rx-gro", "on", ""),
		  "\"rx-gro\"" },
		{ chg(IG_TUNE_FEATURE, "va", "gro", "yes", ""), "\"yes\"" },
		{ chg(IG_TUNE_FEATURE, "va", "tso", "on", "rx-gro=on"),
		  "\"rx-gro=on\"" },
		{ chg(IG_TUNE_FEATURE, "../x", "gro", "on", ""), "\"../x\"" },
		{ chg(IG_TUNE_FEATURE, "", "gro", "on", ""), "netdev \"\"" },
		{ chg(IG_TUNE_FEATURE, "..", "gro", "on", ""), "\"..\"" },
		{ chg(IG_TUNE_FEATURE, "abcdefghijklmnop", "gro", "on", ""),
		  "\"abcdefghijklmnop\"" },
		{ chg(IG_TUNE_RING, "va", "rx-mini", "1", ""), "\"rx-mini\"" },
		{ chg(IG_TUNE_RING, "va", "rx", "-1", ""), "\"-1\"" },
		{ chg(IG_TUNE_RING, "va", "rx", "4294967296", ""),
		  "\"4294967296\"" },
		{ chg(IG_TUNE_CHANNELS, "va", "other", "1", ""), "\"other\"" },
		{ chg(IG_TUNE_RPS, "va", "tx-0", "f", ""), "\"tx-0\"" },
		{ chg(IG_TUNE_RPS, "va", "rx-0", "g", ""), "\"g\"" },
		{ chg(IG_TUNE_XPS, "va", "tx-", "f", ""), "\"tx-\"" },
		{ chg(IG_TUNE_IRQ, "", "45/../1", "0", ""), "\"45/../1\"" },
		{ chg(IG_TUNE_IRQ, "", "45", "0 1", ""), "\"0 1\"" },
		{ chg(IG_TUNE_GOVERNOR, "", "cpux", "performance", ""),
		  "\"cpux\"" },
		{ chg(IG_TUNE_GOVERNOR, "", "all", "Perf/1", ""),
		  "\"Perf/1\"" },
		{ chg(IG_TUNE_MTU, "va", "", "67", ""), "\"67\"" },
		{ chg(IG_TUNE_MTU, "va", "x", "1500", ""), "\"x\"" },
		{ chg(IG_TUNE_IPOIB_MODE, "ib0", "", "cm", ""), "\"cm\"" },
		{ chg(IG_TUNE_QDISC, "va", "egress", "", ""), "\"egress\"" },
		{ chg(IG_TUNE_QDISC, "va", "root", "tbf rate 1mbit", ""),
		  "\"tbf rate 1mbit\"" },
		{ chg(IG_TUNE_QDISC, "va", "root",
		      "kind=tbf handle=8001: parent=root opts=0g", ""),
		  "opts=0g" },
		{ chg(IG_TUNE_QDISC, "va", "root", "",
		      "kind=ingress handle=ffff: parent=ingress"),
		  "another place than root" },
		{ chg(IG_TUNE_GOVERNOR, "", "cpu1", "performance",
		      "cpu0=powersave"),
		  "\"cpu0=powersave\"" },
		{ chg((enum ig_tune_kind)99, "", "x", "1", ""), "kind 99" },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ck_assert_msg(ig_tune_check(&bad[i].c, err, sizeof(err)) ==
				      -EINVAL,
			      "change %zu accepted", i);
		ck_assert_msg(strstr(err, bad[i].named) && !strchr(err, '\n'),
			      "change %zu: \"%s\" does not name %s", i, err,
			      bad[i].named);
	}
}
END_TEST

START_TEST(test_down_up)
{
	struct ig_tune_change m = chg(IG_TUNE_MTU, "va", "", "9000", ""),
			      i = chg(IG_TUNE_IPOIB_MODE, "ib0", "",
				      "connected", ""),
			      g = chg(IG_TUNE_FEATURE, "va", "gro", "on", "");

	ck_assert(ig_tune_down_up(&m));
	ck_assert(ig_tune_down_up(&i));
	ck_assert(!ig_tune_down_up(&g));
}
END_TEST

START_TEST(test_cmd)
{
	const struct {
		struct ig_tune_change c;
		const char *set, *revert;
	} t[] = {
		{ chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_rmem",
		      "4096 131072 6291456", "4096 87380 6291456"),
		  "sysctl -w net.ipv4.tcp_rmem='4096 131072 6291456'",
		  "sysctl -w net.ipv4.tcp_rmem='4096 87380 6291456'" },
		{ chg(IG_TUNE_SYSCTL, "", "net.core.rmem_max", "67108864",
		      "212992"),
		  "sysctl -w net.core.rmem_max=67108864",
		  "sysctl -w net.core.rmem_max=212992" },
		{ chg(IG_TUNE_FEATURE, "va", "gro", "on", "off"),
		  "ethtool -K va gro on", "ethtool -K va gro off" },
		{ chg(IG_TUNE_FEATURE, "va", "tso", "off",
		      "tx-tcp-segmentation=on tx-tcp6-segmentation=off"),
		  "ethtool -K va tso off",
		  "ethtool -K va tx-tcp-segmentation on tx-tcp6-segmentation off" },
		{ chg(IG_TUNE_RING, "va", "rx", "4096", "256"),
		  "ethtool -G va rx 4096", "ethtool -G va rx 256" },
		{ chg(IG_TUNE_COALESCE, "va", "adaptive-rx", "on", "off"),
		  "ethtool -C va adaptive-rx on",
		  "ethtool -C va adaptive-rx off" },
		{ chg(IG_TUNE_CHANNELS, "va", "combined", "4", "1"),
		  "ethtool -L va combined 4", "ethtool -L va combined 1" },
		{ chg(IG_TUNE_RPS, "va", "rx-0", "f", "0"),
		  "echo f > /sys/class/net/va/queues/rx-0/rps_cpus",
		  "echo 0 > /sys/class/net/va/queues/rx-0/rps_cpus" },
		{ chg(IG_TUNE_XPS, "va", "tx-1", "3", "0"),
		  "echo 3 > /sys/class/net/va/queues/tx-1/xps_cpus",
		  "echo 0 > /sys/class/net/va/queues/tx-1/xps_cpus" },
		{ chg(IG_TUNE_IRQ, "", "45", "0-3", "0-7"),
		  "echo 0-3 > /proc/irq/45/smp_affinity_list",
		  "echo 0-7 > /proc/irq/45/smp_affinity_list" },
		{ chg(IG_TUNE_GOVERNOR, "", "all", "performance",
		      "cpu0=powersave cpu1=schedutil"),
		  "cpupower frequency-set -g performance",
		  "cpupower -c 0 frequency-set -g powersave; cpupower -c 1 frequency-set -g schedutil" },
		{ chg(IG_TUNE_GOVERNOR, "", "all", "performance",
		      "cpu0-3=powersave cpu4=schedutil"),
		  "cpupower frequency-set -g performance",
		  "cpupower -c 0-3 frequency-set -g powersave; cpupower -c 4 frequency-set -g schedutil" },
		{ chg(IG_TUNE_GOVERNOR, "", "cpu2", "performance", "powersave"),
		  "cpupower -c 2 frequency-set -g performance",
		  "cpupower -c 2 frequency-set -g powersave" },
		{ chg(IG_TUNE_MTU, "va", "", "9000", "1500"),
		  "ip link set dev va mtu 9000",
		  "ip link set dev va mtu 1500" },
		{ chg(IG_TUNE_IPOIB_MODE, "ib0", "", "datagram", "connected"),
		  "echo datagram > /sys/class/net/ib0/mode",
		  "echo connected > /sys/class/net/ib0/mode" },
		{ chg(IG_TUNE_QDISC, "va", "ingress", "",
		      "kind=ingress handle=ffff: parent=ingress"),
		  "tc qdisc del dev va ingress",
		  "tc qdisc add dev va ingress" },
	};
	char buf[1024];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ig_tune_cmd(&t[i].c, false, buf, sizeof(buf));
		ck_assert_str_eq(buf, t[i].set);
		ig_tune_cmd(&t[i].c, true, buf, sizeof(buf));
		ck_assert_str_eq(buf, t[i].revert);
	}
}
END_TEST

/* A tbf's TCA_OPTIONS as the kernel dumps it: TCA_TBF_PARMS. */
static void tbf_saved(char *val, size_t len, __u32 rate, __u32 limit,
		      __u32 buffer)
{
	struct {
		__u16 nla_len, nla_type;
		struct tc_tbf_qopt q;
	} a = { .nla_len = sizeof(a),
		.nla_type = TCA_TBF_PARMS,
		.q = { .rate = { .rate = rate,
				 .linklayer = TC_LINKLAYER_ETHERNET },
		       .limit = limit,
		       .buffer = buffer,
		       .mtu = 1514 } };
	const unsigned char *p = (const unsigned char *)&a;
	size_t n = (size_t)snprintf(val, len,
				    "kind=tbf handle=8001: parent=root opts=");

	for (size_t i = 0; i < sizeof(a); i++)
		n += (size_t)snprintf(val + n, len - n, "%02x", p[i]);
}

/* The tc line of a saved tbf: its rate, limit and burst back in tc's
 * units (the burst through the kernel's ticks, to within 1%). */
START_TEST(test_cmd_tbf)
{
	struct ig_tune_change c = chg(IG_TUNE_QDISC, "va", "root", "", "");
	const char *want = "tc qdisc add dev va root handle 8001: tbf rate "
			   "100000000bit burst ";
	char buf[1024], err[256];
	unsigned long burst, limit;
	FILE *f = fopen("/proc/net/psched", "r");
	unsigned int t2us = 1, us2t = 1;
	char *p;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%x %x", &t2us, &us2t), 2);
	fclose(f);
	/* 4096 bytes at 12.5 MB/s: 327680 ns, in the kernel's ticks */
	tbf_saved(c.from, sizeof(c.from), 12500000, 5004096,
		  (__u32)(327680ull * t2us / us2t / 1000));
	ck_assert_msg(!ig_tune_check(&c, err, sizeof(err)), "%s", err);
	ig_tune_cmd(&c, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "tc qdisc del dev va root");
	ig_tune_cmd(&c, true, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, want, strlen(want)), "%s", buf);
	burst = strtoul(buf + strlen(want), &p, 10);
	ck_assert_msg(burst > 4055 && burst < 4137, "burst in %s", buf);
	ck_assert_int_eq(sscanf(p, "b limit %lub", &limit), 1);
	ck_assert_uint_eq(limit, 5004096);
}
END_TEST

START_TEST(test_json_round_trip)
{
	struct ig_tune_change c = chg(IG_TUNE_SYSCTL, "", "net.ipv4.tcp_wmem",
				      "4096 16384 4194304",
				      "4096 16384 1048576"),
			      d;
	json_object *o = ig_tune_to_json(&c), *v;
	char err[256];

	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "cmd", &v));
	ck_assert_str_eq(json_object_get_string(v),
			 "sysctl -w net.ipv4.tcp_wmem='4096 16384 4194304'");
	ck_assert(json_object_object_get_ex(o, "revert", &v));
	ck_assert_str_eq(json_object_get_string(v),
			 "sysctl -w net.ipv4.tcp_wmem='4096 16384 1048576'");
	ck_assert_int_eq(ig_tune_from_json(o, &d, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(&c, &d, sizeof(c)), 0);
	json_object_put(o);

	/* not yet applied: no "from", no "revert" */
	c = chg(IG_TUNE_FEATURE, "va", "gro", "off", "");
	o = ig_tune_to_json(&c);
	ck_assert(!json_object_object_get_ex(o, "from", &v));
	ck_assert(!json_object_object_get_ex(o, "revert", &v));
	ck_assert_int_eq(ig_tune_from_json(o, &d, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(&c, &d, sizeof(c)), 0);
	json_object_put(o);
}
END_TEST

START_TEST(test_json_refused)
{
	static const char *const bad[] = {
		"[]",
		"{\"dev\":\"va\",\"name\":\"gro\",\"to\":\"on\"}",
		"{\"kind\":\"route\",\"name\":\"x\",\"to\":\"1\"}",
		"{\"kind\":\"feature\",\"dev\":\"va\",\"name\":\"gro\"}",
		"{\"kind\":\"feature\",\"dev\":7,\"name\":\"gro\",\"to\":\"on\"}",
		"{\"kind\":\"feature\",\"dev\":\"va\",\"name\":\"gro\",\"to\":\"maybe\"}",
		"{\"kind\":\"sysctl\",\"name\":\"vm.swappiness\",\"to\":\"1\"}",
		"{\"kind\":\"feature\",\"dev\":\"a-name-that-is-longer-than-32-bytes\",\"name\":\"gro\",\"to\":\"on\"}",
	};
	struct ig_tune_change c;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *o = json_tokener_parse(bad[i]);

		ck_assert_ptr_nonnull(o);
		err[0] = 0;
		ck_assert_msg(ig_tune_from_json(o, &c, err, sizeof(err)) ==
				      -EINVAL,
			      "%s accepted", bad[i]);
		ck_assert_msg(*err && !strchr(err, '\n'), "%s: \"%s\"", bad[i],
			      err);
		json_object_put(o);
	}
}
END_TEST

/* Root may; a process of another uid without capabilities may not. */
START_TEST(test_allowed)
{
	struct ig_tune_change n = chg(IG_TUNE_QDISC, "va", "root", "", ""),
			      g = chg(IG_TUNE_GOVERNOR, "", "all",
				      "performance", "");
	int st;
	pid_t p;

	if (geteuid())
		return; /* the child below needs root to drop it */
	ck_assert_int_eq(ig_tune_allowed(&n), 0);
	ck_assert_int_eq(ig_tune_allowed(&g), 0);
	p = fork();
	ck_assert_int_ge(p, 0);
	if (!p) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(ig_tune_allowed(&n) == -EPERM &&
				      ig_tune_allowed(&g) == -EPERM
			      ? 0
			      : 1);
	}
	ck_assert_int_eq(waitpid(p, &st, 0), p);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}
END_TEST

/* A root prefix with two sysctl files, and a journal path in it. */
static char root[64], jpath[128];

static void put_file(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void file_is(const char *rel, const char *text)
{
	char p[256], buf[256] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	ck_assert_str_eq(buf, text);
}

/* mkdir -p of root/rel. */
static void mkdirs(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void root_setup(void)
{
	snprintf(root, sizeof(root), "/tmp/ibgap-test-tune.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	mkdirs("proc/sys/net/core");
	put_file("proc/sys/net/core/rmem_max", "212992\n");
	put_file("proc/sys/net/core/wmem_max", "4096\n");
	snprintf(jpath, sizeof(jpath), "%s/try.journal", root);
}

static void root_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_journal_cycle)
{
	struct ig_tune_change a = chg(IG_TUNE_SYSCTL, "", "net.core.rmem_max",
				      "1000", ""),
			      b = chg(IG_TUNE_SYSCTL, "", "net.core.wmem_max",
				      "2000", "");
	struct ig_journal j, k;
	char err[512];

	ck_assert_int_eq(ig_journal_pending(jpath), 0);
	ck_assert_int_eq(ig_journal_open(&j, jpath, root, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_journal_apply(&j, &a, err, sizeof(err)), 0);
	ck_assert_str_eq(a.from, "212992");
	ck_assert_int_eq(ig_journal_apply(&j, &b, err, sizeof(err)), 0);
	ck_assert_uint_eq(j.n, 2);
	file_is("proc/sys/net/core/rmem_max", "1000");
	file_is("proc/sys/net/core/wmem_max", "2000");
	ck_assert_int_eq(ig_journal_pending(jpath), 1);
	ck_assert_int_eq(ig_journal_open(&k, jpath, root, err, sizeof(err)),
			 -EEXIST);
	ck_assert_msg(strstr(err, jpath) && strstr(err, "--undo"), "%s", err);
	ck_assert_int_eq(ig_journal_revert(&j, 1, err, sizeof(err)), 0);
	file_is("proc/sys/net/core/wmem_max", "4096");
	ck_assert_int_eq(ig_journal_pending(jpath), 1);
	ck_assert_int_eq(ig_journal_revert_all(&j, err, sizeof(err)), 0);
	file_is("proc/sys/net/core/rmem_max", "212992");
	ck_assert_int_eq(access(jpath, F_OK), -1);
	ig_journal_close(&j);
}
END_TEST

/* The pid of a process that has ended. */
static int dead_pid(void)
{
	pid_t p = fork();

	ck_assert_int_ge(p, 0);
	if (!p)
		_exit(0);
	ck_assert_int_eq(waitpid(p, NULL, 0), p);
	return (int)p;
}

static void put_journal(int pid, const char *rest)
{
	char head[128], all[2048];

	snprintf(
		head, sizeof(head),
		"{\"schema\":\"ibgap-journal/1\",\"pid\":%d,\"started\":\"x\"}\n",
		pid);
	snprintf(all, sizeof(all), "%s%s", head, rest);
	put_file("try.journal", all);
}

#define SET0                                                                 \
	"{\"op\":\"set\",\"i\":0,\"kind\":\"sysctl\",\"dev\":\"\",\"name\":" \
	"\"net.core.rmem_max\",\"to\":\"1000\",\"from\":\"212992\"}\n"
#define SET1                                                                 \
	"{\"op\":\"set\",\"i\":1,\"kind\":\"sysctl\",\"dev\":\"\",\"name\":" \
	"\"net.core.wmem_max\",\"to\":\"2000\",\"from\":\"4096\"}\n"

START_TEST(test_journal_undo)
{
	char err[512], out[512] = "";
	FILE *f = fmemopen(out, sizeof(out), "w");

	put_file("proc/sys/net/core/rmem_max", "1000\n");
	put_file("proc/sys/net/core/wmem_max", "2000\n");
	/* change 1 was put back (its file says otherwise: undo must not
	 * touch it); the torn last line was never made */
	put_journal(dead_pid(), SET0 SET1 "{\"op\":\"reverted\",\"i\":1}\n"
					  "{\"op\":\"set\",\"i\":2,\"ki");
	ck_assert_int_eq(ig_journal_pending(jpath), 1);
	ck_assert_int_eq(ig_journal_undo(jpath, root, f, err, sizeof(err)), 0);
	fclose(f);
	ck_assert_str_eq(out, "put back: sysctl -w net.core.rmem_max=212992\n");
	file_is("proc/sys/net/core/rmem_max", "212992");
	file_is("proc/sys/net/core/wmem_max", "2000");
	ck_assert_int_eq(access(jpath, F_OK), -1);
	ck_assert_int_eq(ig_journal_pending(jpath), 0);
	ck_assert_int_eq(ig_journal_undo(jpath, root, stdout, err, sizeof(err)),
			 -ENOENT);
}
END_TEST

START_TEST(test_journal_live_owner)
{
	char err[512];

	put_file("proc/sys/net/core/rmem_max", "1000\n");
	put_journal(1, SET0);
	ck_assert_int_eq(ig_journal_undo(jpath, root, stdout, err, sizeof(err)),
			 -EBUSY);
	ck_assert_msg(strstr(err, jpath), "%s", err);
	file_is("proc/sys/net/core/rmem_max", "1000");
	ck_assert_int_eq(ig_journal_pending(jpath), 1);
}
END_TEST

/* Not ours: -EINVAL and one line naming the file, and nothing written. */
START_TEST(test_journal_foreign)
{
	static const char *const foreign[] = {
		"hello\n",
		"{\"schema\":\"other/1\",\"pid\":2}\n",
		"{\"schema\":\"ibgap-journal/1\",\"pid\":2}\n" SET0
		"{\"op\":\"set\",\"i\":1,\"kind\":\"sysctl\",\"name\":"
		"\"kernel.core_pattern\",\"to\":\"x\",\"from\":\"|/bin/sh\"}\n",
	};
	struct ig_journal j;
	char err[512];

	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		put_file("proc/sys/net/core/rmem_max", "1000\n");
		put_file("try.journal", foreign[i]);
		ck_assert_int_eq(ig_journal_pending(jpath), -EINVAL);
		err[0] = 0;
		ck_assert_int_eq(ig_journal_undo(jpath, root, stdout, err,
						 sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, jpath) && !strchr(err, '\n'), "%s",
			      err);
		ck_assert_int_eq(ig_journal_open(&j, jpath, root, err,
						 sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, jpath), "%s", err);
		file_is("proc/sys/net/core/rmem_max", "1000");
		ck_assert_int_eq(access(jpath, F_OK), 0);
	}
}
END_TEST

#define GOV(n) "sys/devices/system/cpu/cpu" #n "/cpufreq/scaling_governor"

/* "all" of two cpus that differ, and a third cpu folder without
 * cpufreq: read as pairs, set both, put each back. */
START_TEST(test_governor_all)
{
	struct ig_tune_change c =
		chg(IG_TUNE_GOVERNOR, "", "all", "performance", "");
	char err[512], v[IG_TUNE_VAL_LEN];

	mkdirs("sys/devices/system/cpu/cpu0/cpufreq");
	mkdirs("sys/devices/system/cpu/cpu1/cpufreq");
	mkdirs("sys/devices/system/cpu/cpu2/cpufreq");
	mkdirs("sys/devices/system/cpu/cpu3");
	mkdirs("sys/devices/system/cpu/cpu4/cpufreq");
	mkdirs("sys/devices/system/cpu/cpufreq");
	put_file(GOV(0), "powersave\n");
	put_file(GOV(1), "schedutil\n");
	put_file(GOV(2), "schedutil\n");
	put_file(GOV(4), "schedutil\n");
	ck_assert_int_eq(ig_tune_read(root, &c, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "cpu0=powersave cpu1-2=schedutil cpu4=schedutil");
	ck_assert_int_eq(ig_tune_apply(root, &c, err, sizeof(err)), 0);
	ck_assert_str_eq(c.from,
			 "cpu0=powersave cpu1-2=schedutil cpu4=schedutil");
	ck_assert_int_eq(ig_tune_check(&c, err, sizeof(err)), 0);
	file_is(GOV(0), "performance");
	file_is(GOV(2), "performance");
	file_is(GOV(4), "performance");
	ck_assert_int_eq(ig_tune_read(root, &c, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "performance");
	ck_assert_int_eq(ig_tune_revert(root, &c, err, sizeof(err)), 0);
	file_is(GOV(0), "powersave");
	file_is(GOV(1), "schedutil");
	file_is(GOV(2), "schedutil");
	file_is(GOV(4), "schedutil");
	/* one governor everywhere (cpu3 has none): one name */
	put_file(GOV(0), "schedutil\n");
	ck_assert_int_eq(ig_tune_read(root, &c, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "schedutil");
}
END_TEST

/* An IRQ's affinity; a knob this root lacks is -ENOENT, and applying it
 * fails with one line and leaves nothing. */
START_TEST(test_irq)
{
	struct ig_tune_change c = chg(IG_TUNE_IRQ, "", "45", "0-1", ""),
			      d = chg(IG_TUNE_IRQ, "", "46", "0", "");
	char err[512], v[64];

	mkdirs("proc/irq/45");
	put_file("proc/irq/45/smp_affinity_list", "0-3\n");
	ck_assert_int_eq(ig_tune_apply(root, &c, err, sizeof(err)), 0);
	ck_assert_str_eq(c.from, "0-3");
	file_is("proc/irq/45/smp_affinity_list", "0-1");
	ck_assert_int_eq(ig_tune_revert(root, &c, err, sizeof(err)), 0);
	file_is("proc/irq/45/smp_affinity_list", "0-3");
	ck_assert_int_eq(ig_tune_read(root, &d, v, sizeof(v)), -ENOENT);
	err[0] = 0;
	ck_assert_int_eq(ig_tune_apply(root, &d, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "irq 46"), "%s", err);
	ck_assert_str_eq(d.from, "");
	d = chg(IG_TUNE_IRQ, "", "46", "0", "");
	ck_assert_int_eq(ig_tune_revert(root, &d, err, sizeof(err)), -EINVAL);
}
END_TEST

/* An old value that could not be put back stops the change before it
 * is made. */
START_TEST(test_apply_unsaveable)
{
	struct ig_tune_change c =
		chg(IG_TUNE_SYSCTL, "", "net.core.rmem_max", "1000", "");
	char err[512];

	put_file("proc/sys/net/core/rmem_max", "12 34\n");
	ck_assert_int_eq(ig_tune_apply(root, &c, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "\"12 34\""), "%s", err);
	ck_assert_str_eq(c.from, "");
	file_is("proc/sys/net/core/rmem_max", "12 34");
}
END_TEST

static Suite *tune_suite(void)
{
	Suite *s = suite_create("tune");
	TCase *tc = tcase_create("knobs");
	TCase *tj = tcase_create("journal");

	tcase_add_test(tc, test_kind_names);
	tcase_add_test(tc, test_check_accepts);
	tcase_add_test(tc, test_check_refuses);
	tcase_add_test(tc, test_down_up);
	tcase_add_test(tc, test_cmd);
	tcase_add_test(tc, test_cmd_tbf);
	tcase_add_test(tc, test_json_round_trip);
	tcase_add_test(tc, test_json_refused);
	tcase_add_test(tc, test_allowed);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tj, root_setup, root_teardown);
	tcase_add_test(tj, test_journal_cycle);
	tcase_add_test(tj, test_journal_undo);
	tcase_add_test(tj, test_journal_live_owner);
	tcase_add_test(tj, test_journal_foreign);
	tcase_add_test(tj, test_governor_all);
	tcase_add_test(tj, test_irq);
	tcase_add_test(tj, test_apply_unsaveable);
	suite_add_tcase(s, tj);
	return s;
}

int main(void)
{
	return run_suite(tune_suite());
}
