// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/topo.c, topo_path.c and blame.c: the readers on
 * the committed samples of tests/data/topology/ (a two-level fat tree of
 * 16 nodes as ibnetdiscover prints it and as Slurm's topology.conf), the
 * bad files and the line each error names, the paths and hop distances,
 * and the blame on made-up pair results: a throttled uplink, a throttled
 * node, a bad leaf, a bad spine, and the groups without a topology.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "fabric/blame.h"
#include "fabric/fab.h"
#include "fabric/topo.h"
#include "testdata.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int parse_text(const char *text, struct ig_topo *t, char *err,
		      size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = ig_topo_parse(f, "mem", t, err, errlen);
	fclose(f);
	return ret;
}

static void read_sample(const char *rel, struct ig_topo *t)
{
	char path[512], err[256] = "";
	int ret;

	data_path(path, sizeof(path), rel);
	ret = ig_topo_read(path, t, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s: %d %s", rel, ret, err);
}

static unsigned int count_kind(const struct ig_topo *t, enum ig_topo_kind k)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < t->nv; i++)
		n += t->v[i].kind == k;
	return n;
}

static int vx(const struct ig_topo *t, enum ig_topo_kind k, const char *name)
{
	int v = ig_topo_vertex(t, k, name);

	ck_assert_msg(v >= 0, "no vertex '%s'", name);
	return v;
}

/* The link between two named switches, or -1. */
static int link_of(const struct ig_topo *t, const char *x, const char *y)
{
	unsigned int a = (unsigned int)vx(t, IG_TOPO_SWITCH, x);
	unsigned int b = (unsigned int)vx(t, IG_TOPO_SWITCH, y);

	for (unsigned int i = 0; i < t->nl; i++)
		if ((t->l[i].a == a && t->l[i].b == b) ||
		    (t->l[i].a == b && t->l[i].b == a))
			return (int)i;
	return -1;
}

/* The path between hosts x and y: its length, hops, the spine it takes */
static int path(const struct ig_topo *t, const char *x, const char *y,
		unsigned int *hops, unsigned int *links)
{
	struct ig_topo_bfs b;
	int vxa = vx(t, IG_TOPO_HOST, x), vxb = vx(t, IG_TOPO_HOST, y), n;

	ck_assert_int_eq(ig_topo_bfs_init(&b, t), 0);
	ig_topo_bfs_from(&b, (unsigned int)vxa);
	n = ig_topo_bfs_path(&b, (unsigned int)vxb, links, IG_TOPO_PATH_MAX);
	ck_assert_int_ge(n, 0);
	*hops = ig_topo_hops(t, links, (unsigned int)n);
	ig_topo_bfs_free(&b);
	return n;
}

/* The fat tree: 2 spines, 4 leaves, 16 hosts, 8 + 16 links. */
static void check_fattree(const struct ig_topo *t)
{
	unsigned int links[IG_TOPO_PATH_MAX], hops;
	int sp1 = vx(t, IG_TOPO_SWITCH, "spine1");

	ck_assert_uint_eq(count_kind(t, IG_TOPO_SWITCH), 6);
	ck_assert_uint_eq(count_kind(t, IG_TOPO_HOST), 16);
	ck_assert_uint_eq(t->nl, 24);
	for (unsigned int l = 1; l <= 4; l++) {
		char leaf[16];

		snprintf(leaf, sizeof(leaf), "leaf%u", l);
		ck_assert_int_ge(link_of(t, leaf, "spine1"), 0);
		ck_assert_int_ge(link_of(t, leaf, "spine2"), 0);
	}
	ck_assert_int_eq(link_of(t, "leaf1", "leaf2"), -1);
	vx(t, IG_TOPO_HOST, "n16");
	ck_assert_int_eq(path(t, "n01", "n02", &hops, links), 2);
	ck_assert_uint_eq(hops, 0);
	ck_assert_int_eq(path(t, "n01", "n16", &hops, links), 4);
	ck_assert_uint_eq(hops, 2);
	/* of the two spines, the first: links[1] is leaf1-spine1 */
	ck_assert((int)t->l[links[1]].a == sp1 || (int)t->l[links[1]].b == sp1);
}

/* The same tree in both formats. */
static const struct {
	const char *file;
	enum ig_topo_format format;
} samples[] = {
	{ "topology/fattree.ibnet", IG_TOPO_IBNET },
	{ "topology/fattree.conf", IG_TOPO_SLURM },
};

START_TEST(test_fattree)
{
	struct ig_topo t;

	read_sample(samples[_i].file, &t);
	ck_assert_int_eq(t.format, samples[_i].format);
	check_fattree(&t);
	ig_topo_free(&t);
}
END_TEST

/* The two readers give the same hop distance for every pair. */
START_TEST(test_same_hops)
{
	struct ig_topo a, b;
	unsigned int pa[120], pb[120];
	int place_a[16], place_b[16], ha[120], hb[120];
	size_t k = 0;

	read_sample("topology/fattree.ibnet", &a);
	read_sample("topology/fattree.conf", &b);
	for (unsigned int r = 0; r < 16; r++) {
		char host[32];

		snprintf(host, sizeof(host), "n%02u.cluster.example", r + 1);
		place_a[r] = ig_topo_place(&a, host, "10.1.0.1");
		place_b[r] = ig_topo_place(&b, host, NULL);
		ck_assert_int_ge(place_a[r], 0);
		ck_assert_int_ge(place_b[r], 0);
		for (unsigned int s = r + 1; s < 16; s++, k++) {
			pa[k] = r;
			pb[k] = s;
		}
	}
	ck_assert_int_eq(ig_topo_pair_hops(&a, place_a, pa, pb, k, ha), 0);
	ck_assert_int_eq(ig_topo_pair_hops(&b, place_b, pa, pb, k, hb), 0);
	for (size_t i = 0; i < k; i++) {
		int want = pa[i] / 4 == pb[i] / 4 ? 0 : 2;

		ck_assert_int_eq(ha[i], want);
		ck_assert_int_eq(hb[i], want);
	}
	ig_topo_free(&a);
	ig_topo_free(&b);
}
END_TEST

START_TEST(test_hostlist)
{
	static const char *const want[] = { "n1",    "n2",    "n3",
					    "n7",    "m08x1", "m08x2",
					    "m10x2", "z",     "10.0.0.2" };
	struct ig_topo t;
	char err[256] = "";
	int v;

	ck_assert_int_eq(parse_text("# a comment\n"
				    "SwitchName=s Nodes=n[1-3,7],m[08-10]x[1-2]"
				    " # trailing comment\n"
				    "  SwitchName=u Nodes=z,10.0.0.[1-2]\n",
				    &t, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(count_kind(&t, IG_TOPO_HOST), 4 + 6 + 1 + 2);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		vx(&t, IG_TOPO_HOST, want[i]);
	ck_assert_int_eq(ig_topo_vertex(&t, IG_TOPO_HOST, "n4"), -1);
	/* by address when the file names addresses, else by short name */
	v = ig_topo_place(&t, "h1", "10.0.0.2");
	ck_assert_int_eq(v, vx(&t, IG_TOPO_HOST, "10.0.0.2"));
	ck_assert_int_eq(ig_topo_place(&t, "n7.x.y", "192.0.2.1"),
			 vx(&t, IG_TOPO_HOST, "n7"));
	ck_assert_int_eq(ig_topo_place(&t, "n8", "192.0.2.1"), -1);
	ck_assert_int_eq(ig_topo_place(&t, "10.0.0.1", NULL), -1);
	ig_topo_free(&t);
}
END_TEST

/* Two switches with one description are named by their GUIDs; two
 * cables between them are one link; a host's two CAs are one host. */
START_TEST(test_ibnet_names)
{
	static const char text[] =
		"Switch 36 \"S-a\" # \"MSB7800\" enhanced port 0 lid 1 lmc 0\n"
		"[1] \"S-b\"[1] # \"MSB7800\" lid 2 4xEDR\n"
		"[2] \"S-b\"[2] # \"MSB7800\" lid 2 4xEDR\n"
		"[3] \"H-1\"[1](11) # \"h1 HCA-1\" lid 3 4xEDR\n"
		"[4] \"H-2\"[1](21) # \"h1 HCA-2\" lid 4 4xEDR\n"
		"\nSwitch 36 \"S-b\" # \"MSB7800\" enhanced port 0 lid 2 lmc 0\n"
		"[1] \"S-a\"[1] # \"MSB7800\" lid 1 4xEDR\n"
		"[2] \"S-a\"[2] # \"MSB7800\" lid 1 4xEDR\n"
		"[5] \"H-3\"[1](31) # \"h2.example.org\" lid 5 4xEDR\n"
		"\nCa 2 \"H-3\" # \"h2.example.org\"\n"
		"[1](31) \"S-b\"[5] # lid 5 lmc 0 \"MSB7800\" lid 2 4xEDR\n";
	struct ig_topo t;
	char err[256] = "";

	ck_assert_int_eq(parse_text(text, &t, err, sizeof(err)), 0);
	ck_assert_int_eq(t.format, IG_TOPO_IBNET);
	ck_assert_uint_eq(count_kind(&t, IG_TOPO_SWITCH), 2);
	ck_assert_uint_eq(count_kind(&t, IG_TOPO_HOST), 2);
	ck_assert_int_ge(link_of(&t, "S-a", "S-b"), 0);
	ck_assert_uint_eq(t.nl, 3); /* a-b, a-h1, b-h2 */
	ck_assert_int_eq(ig_topo_place(&t, "h2", NULL),
			 vx(&t, IG_TOPO_HOST, "h2.example.org"));
	ig_topo_free(&t);
}
END_TEST

/* ---- bad files: the line and what is wrong ---- */

static const struct {
	const char *text;
	const char *where; /* "mem:LINE:" */
	const char *what;
} bad_cases[] = {
	{ "SwitchName=a Nodes=n[3-1]\n", "mem:1:", "LO <= HI" },
	{ "SwitchName=a Nodes=n[1-x]\n", "mem:1:", "numbers" },
	{ "\n# x\nNodes=n1\n", "mem:3:", "neither" },
	{ "SwitchName=a Foo=b\n", "mem:1:", "unknown key" },
	{ "SwitchName=a\nSwitchName=a\n", "mem:2:", "second SwitchName" },
	{ "SwitchName=a\nNodes=b\n", "mem:2:", "start with SwitchName" },
	{ "SwitchName=a Nodes=n[1-2000000]\n", "mem:1:", "2^20" },
	{ "SwitchName=s[1-2]\n", "mem:1:", "one name" },
	{ "[1] \"S-1\"[2]\n", "mem:1:", "outside a Switch" },
	{ "Switch 36 \"S-1\" # \"x\"\nbogus line\n", "mem:2:", "not a line" },
	{ "Switch 36 S-1 # \"x\"\n", "mem:1:", "TYPE NPORTS" },
	{ "Ca 2 \"H-1\" # \"n1 HCA-1\"\n[1](2) \"S-1\" # x\n",
	  "mem:2:", "[PEERPORT]" },
	{ "# nothing\n\n", "mem:", "empty" },
};

START_TEST(test_bad_text)
{
	struct ig_topo t;
	char err[256] = "";
	int ret = parse_text(bad_cases[_i].text, &t, err, sizeof(err));

	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(err, bad_cases[_i].where) &&
			      strstr(err, bad_cases[_i].what),
		      "case %d: %s", _i, err);
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_ptr_null(t.v);
}
END_TEST

static const struct {
	const char *file;
	const char *where;
	const char *what;
} bad_files[] = {
	{ "topology/bad-bracket.conf", "bad-bracket.conf:4:", "unterminated" },
	{ "topology/bad-switch.conf", "bad-switch.conf:1:", "'leaf3'" },
	{ "topology/bad-port.ibnet", "bad-port.ibnet:5:", "port line" },
};

START_TEST(test_bad_files)
{
	struct ig_topo t;
	char path[512], err[256] = "";

	data_path(path, sizeof(path), bad_files[_i].file);
	ck_assert_int_eq(ig_topo_read(path, &t, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, bad_files[_i].where) &&
			      strstr(err, bad_files[_i].what),
		      "%s: %s", bad_files[_i].file, err);
}
END_TEST

/* Every prefix of the samples (a file cut anywhere): read, or one line
 * naming the line; never a crash. */
START_TEST(test_truncated)
{
	char path[512], buf[16384], err[256];
	FILE *f;
	size_t len;

	data_path(path, sizeof(path), samples[_i].file);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	ck_assert_uint_lt(len, sizeof(buf) - 1);
	for (size_t cut = 1; cut <= len; cut += 7) {
		struct ig_topo t;
		char save = buf[cut];
		int ret;

		buf[cut] = '\0';
		err[0] = '\0';
		ret = parse_text(buf, &t, err, sizeof(err));
		buf[cut] = save;
		if (ret)
			ck_assert_msg(ret == -EINVAL &&
					      !strncmp(err, "topology mem", 12),
				      "cut %zu: %d %s", cut, ret, err);
		else
			ig_topo_free(&t);
	}
}
END_TEST

START_TEST(test_missing_file)
{
	struct ig_topo t;
	char err[256] = "";

	ck_assert_int_eq(ig_topo_read("/nonexistent/topo.conf", &t, err,
				      sizeof(err)),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/topo.conf"));
}
END_TEST

/* ---- blame ---- */

/* A tree of 3 leaves of 4 nodes under one spine (the test). */
static const char tree3[] = "SwitchName=spine Switches=leaf[1-3]\n"
			    "SwitchName=leaf1 Nodes=n[01-04]\n"
			    "SwitchName=leaf2 Nodes=n[05-08]\n"
			    "SwitchName=leaf3 Nodes=n[09-12]\n";

typedef bool (*low_fn)(unsigned int a, unsigned int b);

/* Every pair of n ranks, low as fn says (ratio 0.3, else 1). */
static size_t all_pairs(unsigned int n, low_fn fn, struct ig_blame_pair *p)
{
	size_t k = 0;

	for (unsigned int a = 0; a < n; a++)
		for (unsigned int b = a + 1; b < n; b++, k++)
			p[k] = (struct ig_blame_pair){ .a = a,
						       .b = b,
						       .low = fn(a, b),
						       .ratio = fn(a, b) ? 0.3
									 : 1 };
	return k;
}

static void place_all(const struct ig_topo *t, unsigned int n, int *place)
{
	for (unsigned int r = 0; r < n; r++) {
		char host[16];

		snprintf(host, sizeof(host), "n%02u", r + 1);
		place[r] = ig_topo_place(t, host, NULL);
		ck_assert_int_ge(place[r], 0);
	}
}

static bool in_leaf2(unsigned int r)
{
	return r >= 4 && r < 8;
}

static bool uplink2(unsigned int a, unsigned int b)
{
	return in_leaf2(a) != in_leaf2(b);
}

static bool node5(unsigned int a, unsigned int b)
{
	return a == 5 || b == 5;
}

static bool leaf2_bad(unsigned int a, unsigned int b)
{
	return in_leaf2(a) || in_leaf2(b);
}

static bool cross4(unsigned int a, unsigned int b)
{
	return a / 4 != b / 4;
}

static void blame_tree(const char *text, unsigned int n, low_fn fn,
		       struct ig_topo *t, struct ig_blame *b)
{
	struct ig_blame_pair p[256];
	int place[32];
	char err[256];
	size_t k = all_pairs(n, fn, p);

	ck_assert_int_eq(parse_text(text, t, err, sizeof(err)), 0);
	place_all(t, n, place);
	ck_assert_int_eq(ig_blame_topo(t, place, n, p, k, b), 0);
}

START_TEST(test_blame_uplink)
{
	struct ig_topo t;
	struct ig_blame b;

	blame_tree(tree3, 12, uplink2, &t, &b);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_LINK);
	ck_assert_int_eq((int)b.items[0].what.id,
			 link_of(&t, "leaf2", "spine"));
	ck_assert_uint_eq(b.items[0].k, 32);
	ck_assert_uint_eq(b.items[0].n, 32);
	ck_assert_double_eq_tol(b.items[0].ratio, 0.3, 1e-9);
	/* the pairs inside leaf2: 6, none low */
	ck_assert_int_eq(b.items[0].leaf, vx(&t, IG_TOPO_SWITCH, "leaf2"));
	ck_assert_uint_eq(b.items[0].nin, 6);
	ck_assert_uint_eq(b.items[0].kin, 0);
	ck_assert_uint_eq(b.items[0].nalso, 0);
	ck_assert_uint_eq(b.nlow, 32);
	ck_assert_uint_eq(b.nexpl, 32);
	for (unsigned int r = 0; r < 12; r++)
		ck_assert_int_eq(b.explained[r], true);
	ig_blame_free(&b);
	ig_topo_free(&t);
}
END_TEST

static bool uplink2_noise(unsigned int a, unsigned int b)
{
	return uplink2(a, b) || (a == 0 && b == 8);
}

/* leaf2's uplink and one pair between leaf1 and leaf3 low by chance:
 * leaf1's and leaf3's uplinks then have 17 of 32 pairs low, but off
 * leaf2's uplink the spine has 1 of 16: the link, not the spine. */
START_TEST(test_blame_uplink_noise)
{
	struct ig_topo t;
	struct ig_blame b;

	blame_tree(tree3, 12, uplink2_noise, &t, &b);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_LINK);
	ck_assert_int_eq((int)b.items[0].what.id,
			 link_of(&t, "leaf2", "spine"));
	ck_assert_uint_eq(b.items[0].k, 32);
	ck_assert_uint_eq(b.nlow, 33);
	ck_assert_uint_eq(b.nexpl, 32);
	ig_blame_free(&b);
	ig_topo_free(&t);
}
END_TEST

/* A throttled node is the node, not its leaf's link; a bad leaf (the
 * pairs inside it low too) is the switch. */
static const struct {
	low_fn fn;
	enum ig_blame_kind kind;
	const char *name; /* the switch; NULL: node 5 */
	unsigned int k, kin, nin;
} one_cases[] = {
	{ node5, IG_BLAME_NODE, NULL, 11, 0, 0 },
	{ leaf2_bad, IG_BLAME_SWITCH, "leaf2", 38, 6, 6 },
};

START_TEST(test_blame_one)
{
	struct ig_topo t;
	struct ig_blame b;
	int id = 5;

	blame_tree(tree3, 12, one_cases[_i].fn, &t, &b);
	if (one_cases[_i].name)
		id = vx(&t, IG_TOPO_SWITCH, one_cases[_i].name);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, one_cases[_i].kind);
	ck_assert_int_eq((int)b.items[0].what.id, id);
	ck_assert_uint_eq(b.items[0].k, one_cases[_i].k);
	ck_assert_uint_eq(b.items[0].kin, one_cases[_i].kin);
	ck_assert_uint_eq(b.items[0].nin, one_cases[_i].nin);
	ck_assert_uint_eq(b.items[0].nalso, 0);
	/* a node's low pairs are its own, not explained by a link; a bad
	 * leaf explains every low pair, of every node */
	for (unsigned int r = 0; r < 12; r++)
		ck_assert_int_eq(b.explained[r],
				 one_cases[_i].kind == IG_BLAME_SWITCH);
	ig_blame_free(&b);
	ig_topo_free(&t);
}
END_TEST

/* Every pair across leaves low in the fat tree: they all take spine1
 * (the path chosen), whose four links are all low: the spine. */
START_TEST(test_blame_spine)
{
	struct ig_topo t;
	struct ig_blame b;
	struct ig_blame_pair p[120];
	int place[16];
	size_t k = all_pairs(16, cross4, p);

	read_sample("topology/fattree.ibnet", &t);
	place_all(&t, 16, place);
	ck_assert_int_eq(ig_blame_topo(&t, place, 16, p, k, &b), 0);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_SWITCH);
	ck_assert_int_eq((int)b.items[0].what.id,
			 vx(&t, IG_TOPO_SWITCH, "spine1"));
	ck_assert_uint_eq(b.items[0].k, 96);
	ig_blame_free(&b);
	ig_topo_free(&t);
}
END_TEST

/* Two leaves: the pairs cannot tell one uplink from the other. */
START_TEST(test_blame_twins)
{
	static const char tree2[] = "SwitchName=spine Switches=leaf[1-2]\n"
				    "SwitchName=leaf1 Nodes=n[01-04]\n"
				    "SwitchName=leaf2 Nodes=n[05-08]\n";
	struct ig_topo t;
	struct ig_blame b;

	blame_tree(tree2, 8, uplink2, &t, &b);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_LINK);
	ck_assert_int_eq((int)b.items[0].what.id,
			 link_of(&t, "leaf1", "spine"));
	ck_assert_uint_eq(b.items[0].nalso, 2); /* leaf2-spine, spine */
	ck_assert_int_eq(b.items[0].also[0].kind, IG_BLAME_LINK);
	ck_assert_int_eq((int)b.items[0].also[0].id,
			 link_of(&t, "leaf2", "spine"));
	ck_assert_int_eq(b.items[0].also[1].kind, IG_BLAME_SWITCH);
	ig_blame_free(&b);
	ig_topo_free(&t);
}
END_TEST

/* Without a topology: the group behind the cut. */
START_TEST(test_groups_cut)
{
	struct ig_blame_pair p[66];
	struct ig_blame b;
	size_t k = all_pairs(12, uplink2, p);

	ck_assert_int_eq(ig_blame_groups(12, p, k, &b), 0);
	ck_assert_uint_eq(b.nitems, 1);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_GROUP);
	ck_assert_uint_eq(b.items[0].what.id, 1);
	ck_assert_uint_eq(b.items[0].k, 32);
	ck_assert_uint_eq(b.items[0].n, 32);
	ck_assert_uint_eq(b.items[0].nin, 6);
	for (unsigned int r = 0; r < 12; r++) {
		ck_assert_uint_eq(b.group[r], in_leaf2(r) ? 1 : 0);
		ck_assert_int_eq(b.explained[r], true);
	}
	ig_blame_free(&b);
}
END_TEST

/* A bad node is no group: it stays the node verdict's. */
START_TEST(test_groups_node)
{
	struct ig_blame_pair p[66];
	struct ig_blame b;
	size_t k = all_pairs(12, node5, p);

	ck_assert_int_eq(ig_blame_groups(12, p, k, &b), 0);
	ck_assert_uint_eq(b.nitems, 0);
	ck_assert_uint_eq(b.nlow, 11);
	ck_assert_uint_eq(b.nexpl, 0);
	for (unsigned int r = 0; r < 12; r++)
		ck_assert_uint_eq(b.group[r], 0);
	ig_blame_free(&b);
}
END_TEST

/* The measurements as pairs: one per unordered pair, low when any is. */
START_TEST(test_blame_pairs)
{
	struct ig_fab_meas m[3] = {
		{ .a = 2,
		  .b = 1,
		  .test = IG_TEST_TCP_BW,
		  .ok = true,
		  .bw_gbps = 2 },
		{ .a = 1,
		  .b = 2,
		  .test = IG_TEST_TCP_LAT,
		  .ok = true,
		  .lat_p50_us = 40,
		  .flagged = true },
		{ .a = 0,
		  .b = 1,
		  .test = IG_TEST_TCP_BW,
		  .ok = false,
		  .flagged = true },
	};
	double med[IG_TEST_COUNT] = { 0 };
	struct ig_blame_pair *p;

	med[IG_TEST_TCP_BW] = 4;
	med[IG_TEST_TCP_LAT] = 10;
	ck_assert_int_eq(ig_blame_pairs(m, 3, med, &p), 2);
	ck_assert_uint_eq(p[0].a, 0);
	ck_assert_uint_eq(p[0].b, 1);
	ck_assert(p[0].low);
	ck_assert_double_eq(p[0].ratio, 0);
	ck_assert_uint_eq(p[1].a, 1);
	ck_assert_uint_eq(p[1].b, 2);
	ck_assert(p[1].low);
	ck_assert_double_eq_tol(p[1].ratio, 0.25, 1e-12);
	free(p);
}
END_TEST

/* ---- a larger fat tree: 32 leaves of 32 nodes, 4 spines ---- */

#define BIG_LEAVES 32
#define BIG_PER 32
#define BIG_N (BIG_LEAVES * BIG_PER)

static unsigned int big_leaf(unsigned int r)
{
	return r / BIG_PER;
}

/* leaf 4's uplink (to spine1, which the paths take) and node 300 bad */
static bool big_low(unsigned int a, unsigned int b)
{
	return (big_leaf(a) == 4) != (big_leaf(b) == 4) || a == 300 || b == 300;
}

START_TEST(test_blame_big)
{
	char text[4096];
	size_t o = 0, k = 0;
	struct ig_blame_pair *p = malloc(sizeof(*p) * BIG_N * (BIG_N - 1) / 2);
	int place[BIG_N];
	struct ig_topo t;
	struct ig_blame b;

	ck_assert_ptr_nonnull(p);
	for (unsigned int s = 1; s <= 4; s++)
		o += (size_t)snprintf(
			text + o, sizeof(text) - o,
			"SwitchName=spine%u Switches=leaf[1-%u]\n", s,
			BIG_LEAVES);
	for (unsigned int l = 0; l < BIG_LEAVES; l++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "SwitchName=leaf%u Nodes=n[%04u-%04u]\n",
				      l + 1, l * BIG_PER + 1,
				      (l + 1) * BIG_PER);
	ck_assert_uint_lt(o, sizeof(text));
	ck_assert_int_eq(parse_text(text, &t, text, sizeof(text)), 0);
	for (unsigned int r = 0; r < BIG_N; r++) {
		char host[16];

		snprintf(host, sizeof(host), "n%04u", r + 1);
		place[r] = ig_topo_place(&t, host, NULL);
		for (unsigned int q = r + 1; q < BIG_N; q++, k++)
			p[k] = (struct ig_blame_pair){ .a = r,
						       .b = q,
						       .low = big_low(r, q),
						       .ratio = big_low(r, q)
									? 0.2
									: 1 };
	}
	ck_assert_int_eq(ig_blame_topo(&t, place, BIG_N, p, k, &b), 0);
	ck_assert_uint_eq(b.nitems, 2);
	ck_assert_int_eq(b.items[0].what.kind, IG_BLAME_LINK);
	ck_assert_int_eq((int)b.items[0].what.id,
			 link_of(&t, "leaf5", "spine1"));
	ck_assert_uint_eq(b.items[0].k, BIG_PER * (BIG_N - BIG_PER));
	ck_assert_int_eq(b.items[1].what.kind, IG_BLAME_NODE);
	ck_assert_uint_eq(b.items[1].what.id, 300);
	ck_assert_uint_eq(b.nexpl, b.nlow);
	ig_blame_free(&b);
	ig_topo_free(&t);
	free(p);
}
END_TEST

/* ---- in the run's report (fab_blame.c) ---- */

/* Twelve nodes, every pair once with tcp_bw, the ones across leaf2's
 * uplink at 0.3 Gb/s, the others at 1; judged as the run judges. */
struct run12 {
	struct ig_fab_opts o;
	struct ig_fab_info info[12];
	struct ig_fab_meas m[66];
	struct ig_fab_node nodes[12];
	unsigned int order[12], outlier[12];
	struct ig_fab_run r;
	struct ig_topo t;
};

static void run12w(struct run12 *x, bool topo, const char *host11, FILE *warn)
{
	struct ig_blame_pair p[66];
	size_t k = all_pairs(12, uplink2, p);
	char err[256];

	memset(x, 0, sizeof(*x));
	x->o.tol = (struct ig_fab_tol){ .bw = 0.9, .lat = 2 };
	x->o.topology = "tree3.conf";
	for (unsigned int i = 0; i < 12; i++)
		snprintf(x->info[i].host, sizeof(x->info[i].host),
			 "n%02u.example", i + 1);
	if (host11)
		snprintf(x->info[11].host, sizeof(x->info[11].host), "%s",
			 host11);
	for (size_t i = 0; i < k; i++)
		x->m[i] = (struct ig_fab_meas){ .a = p[i].a,
						.b = p[i].b,
						.test = IG_TEST_TCP_BW,
						.ok = true,
						.bw_gbps = p[i].ratio };
	x->r = (struct ig_fab_run){ .o = &x->o,
				    .n = 12,
				    .info = x->info,
				    .m = x->m,
				    .k = k,
				    .nodes = x->nodes,
				    .order = x->order,
				    .outlier = x->outlier,
				    .judged = true };
	ig_fab_judge_pairs(x->m, k, &x->o.tol, x->r.medians);
	ig_fab_judge_nodes(x->m, k, x->r.medians, x->nodes, 12);
	ig_fab_rank_nodes(x->nodes, 12, x->order);
	/* the node verdict alone flags leaf2's four: 8 of 11 low */
	for (unsigned int i = 0; i < 12; i++)
		ck_assert_int_eq(x->nodes[i].flagged, in_leaf2(i));
	if (topo)
		ck_assert_int_eq(parse_text(tree3, &x->t, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_fab_blame(&x->r, topo ? &x->t : NULL, warn), 0);
}

static void run12(struct run12 *x, bool topo)
{
	run12w(x, topo, NULL, NULL);
}

static void text_of(const struct ig_fab_run *r, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	ck_assert_ptr_nonnull(f);
	ig_fab_blame_text(f, r);
	fclose(f);
}

static const struct {
	bool topo;
	const char *line;
} report_cases[] = {
	{ true, "  link spine\u2014leaf2: 32 of 32 pairs across it low, "
		"median 0.30 x the fabric's; inside leaf2: 0 of 6 low\n" },
	{ false, "  pairs between {n05.example,n06.example,n07.example,"
		 "n08.example} and the rest are low: a shared link between "
		 "them (32 of 32 low, median 0.30 x the fabric's; inside: 0 "
		 "of 6 low)\n" },
};

/* The uplink named, leaf2's nodes no longer flagged, in the text and
 * the JSON ("blamed" before "nodes"). */
START_TEST(test_report)
{
	struct run12 x;
	char text[4096] = "";
	json_object *d, *blamed, *items;
	const char *s;

	run12(&x, report_cases[_i].topo);
	for (unsigned int i = 0; i < 12; i++)
		ck_assert_int_eq(x.nodes[i].flagged, false);
	text_of(&x.r, text, sizeof(text));
	ck_assert_msg(strstr(text, report_cases[_i].line), "%s", text);
	ck_assert_msg(strstr(text, "not flagged (their low pairs are "
				   "explained above): n05.example "
				   "n06.example n07.example n08.example\n"),
		      "%s", text);
	d = ig_fab_doc(&x.r);
	ck_assert_ptr_nonnull(d);
	s = json_object_to_json_string(d);
	ck_assert_ptr_nonnull(strstr(s, "\"blamed\""));
	ck_assert(strstr(s, "\"blamed\"") < strstr(s, "\"nodes\""));
	ck_assert(json_object_object_get_ex(d, "blamed", &blamed));
	items = ig_json_get_array(blamed, "items");
	ck_assert_ptr_nonnull(items);
	ck_assert_uint_eq(json_object_array_length(items), 1);
	json_object_put(d);
	ig_fab_blame_free(&x.r);
	ig_topo_free(&x.t);
}
END_TEST

/* A rank the topology does not name: one warning line, "unplaced". */
START_TEST(test_unplaced)
{
	struct run12 x;
	char warn[512] = "";
	FILE *f = fmemopen(warn, sizeof(warn), "w");
	json_object *d, *blamed;
	const char *s;

	ck_assert_ptr_nonnull(f);
	run12w(&x, true, "zz.example", f);
	fclose(f);
	ck_assert_str_eq(warn, "ibgap-fabric: rank 11 (zz.example, ) is not in "
			       "the topology: unplaced, its pairs can blame "
			       "the node alone\n");
	d = ig_fab_doc(&x.r);
	ck_assert(json_object_object_get_ex(d, "blamed", &blamed));
	s = json_object_to_json_string(ig_json_get_array(blamed, "unplaced"));
	ck_assert_str_eq(s, "[ 11 ]");
	json_object_put(d);
	ig_fab_blame_free(&x.r);
	ig_topo_free(&x.t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fabric_topo");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_fattree, 0, ARRAY_SIZE(samples));
	tcase_add_test(tc, test_same_hops);
	tcase_add_test(tc, test_hostlist);
	tcase_add_test(tc, test_ibnet_names);
	tcase_add_loop_test(tc, test_bad_text, 0, ARRAY_SIZE(bad_cases));
	tcase_add_loop_test(tc, test_bad_files, 0, ARRAY_SIZE(bad_files));
	tcase_add_test(tc, test_missing_file);
	tcase_add_loop_test(tc, test_truncated, 0, ARRAY_SIZE(samples));
	tcase_add_test(tc, test_blame_uplink);
	tcase_add_test(tc, test_blame_uplink_noise);
	tcase_add_loop_test(tc, test_blame_one, 0, ARRAY_SIZE(one_cases));
	tcase_add_test(tc, test_blame_spine);
	tcase_add_test(tc, test_blame_twins);
	tcase_add_test(tc, test_groups_cut);
	tcase_add_test(tc, test_groups_node);
	tcase_add_test(tc, test_blame_pairs);
	tcase_add_test(tc, test_blame_big);
	tcase_add_loop_test(tc, test_report, 0, ARRAY_SIZE(report_cases));
	tcase_add_test(tc, test_unplaced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
