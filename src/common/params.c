// SPDX-License-Identifier: MIT
/* Test parameters: names, defaults, parsing of option values, validation. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fail.h"
#include "params.h"

/* The row of test t and its transport's index in tt, or NULL. */
static const struct ig_test_def *find(const struct ig_tests *tt, enum ig_test t,
				      enum ig_xport_id *x)
{
	for (int i = 0; i < IG_XPORT_COUNT; i++) {
		const struct ig_xport_tests *xt = tt->xp[i];

		for (unsigned int j = 0; xt && j < xt->n; j++)
			if (xt->rows[j].id == t) {
				*x = (enum ig_xport_id)i;
				return &xt->rows[j];
			}
	}
	*x = IG_XPORT_COUNT;
	return NULL;
}

const struct ig_test_def *ig_test_row(const struct ig_tests *tt, enum ig_test t)
{
	enum ig_xport_id x;

	return find(tt, t, &x);
}

const char *ig_test_name(const struct ig_tests *tt, enum ig_test t)
{
	const struct ig_test_def *d = ig_test_row(tt, t);

	return d ? d->name : "unknown";
}

enum ig_xport_id ig_test_xport(const struct ig_tests *tt, enum ig_test t)
{
	enum ig_xport_id x;

	find(tt, t, &x);
	return x;
}

const char *ig_test_transport(const struct ig_tests *tt, enum ig_test t)
{
	enum ig_xport_id x = ig_test_xport(tt, t);

	return x < IG_XPORT_COUNT ? tt->xp[x]->name : "unknown";
}

bool ig_test_one_sided(const struct ig_tests *tt, enum ig_test t)
{
	const struct ig_test_def *d = ig_test_row(tt, t);

	return d && d->one_sided;
}

unsigned int ig_test_lat_div(const struct ig_tests *tt, enum ig_test t)
{
	const struct ig_test_def *d = ig_test_row(tt, t);

	return d ? d->lat_div : 2;
}

enum ig_pattern ig_test_pattern(const struct ig_tests *tt, enum ig_test t)
{
	const struct ig_test_def *d = ig_test_row(tt, t);

	return d ? d->pattern : IG_PATTERN_BW;
}

int ig_test_parse(const struct ig_tests *tt, const char *name)
{
	for (int i = 0; i < IG_TEST_COUNT; i++)
		if (!strcmp(name, ig_test_name(tt, i)))
			return i;
	return -EINVAL;
}

void ig_test_names(const struct ig_tests *tt, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < IG_TEST_COUNT && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      ig_test_name(tt, i));
}

void ig_local_opts_default(struct ig_local_opts *l)
{
	*l = (struct ig_local_opts){ .verbs.gid_index = -1, .cpu = -1 };
}

void ig_params_default(struct ig_params *p)
{
	*p = (struct ig_params){
		.test = IG_TEST_TCP_BW,
		.size = 65536,
		.iterations = 0,
		.duration_ns = 2 * IG_NSEC_PER_SEC,
		.warmup_ns = IG_NSEC_PER_SEC / 2,
		.streams = 1,
		.sock.window = 0,
		.timeout_ms = IG_DEFAULT_TIMEOUT_MS,
		.verbs.tx_depth = 128,
		.verbs.cq_mod = 16,
		.verbs.inline_size = 0,
		.verbs.inline_auto = 1,
	};
}

const char *ig_params_completion(const struct ig_tests *tt,
				 const struct ig_params *p)
{
	const struct ig_test_def *d = ig_test_row(tt, p->test);

	if (!d || d->wait == IG_WAIT_BLOCK)
		return NULL;
	return p->verbs.events && d->wait == IG_WAIT_EVENTS ? "events" : "poll";
}

void ig_params_set_test(const struct ig_tests *tt, struct ig_params *p,
			enum ig_test t)
{
	const struct ig_test_def *d = ig_test_row(tt, t);

	p->test = t;
	if (ig_test_pattern(tt, t) == IG_PATTERN_LAT) {
		p->bidir = 0;
		p->reverse = 0;
	}
	/* UD loses messages: one direction at a time has a delivered
	 * count (docs/design.md, "ud_send_bw") */
	if (d && d->lossy)
		p->bidir = 0;
}

/* A field's value and the values allowed for it, both ends included. */
struct range {
	uint64_t v, lo, hi;
	const char *what; /* its name in the error line */
};

/* Checks r[0..n) in order; the first value out of range fails. */
static int check_ranges(const struct range *r, size_t n, char *err,
			size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].v < r[i].lo || r[i].v > r[i].hi)
			return ig_fail(-EINVAL, err, errlen,
				       "%s %" PRIu64
				       " is out of range: allowed %" PRIu64
				       " to %" PRIu64,
				       r[i].what, r[i].v, r[i].lo, r[i].hi);
	return 0;
}

static int check_mode(const struct ig_params *p, char *err, size_t errlen)
{
	const struct range r[] = {
		{ p->iterations, 0, IG_MAX_ITERATIONS, "iterations" },
		{ p->duration_ns, 0, IG_MAX_DURATION_S * IG_NSEC_PER_SEC,
		  "duration (ns)" },
	};

	if (p->iterations && p->duration_ns) {
		snprintf(err, errlen,
			 "iterations %" PRIu64 " and duration "
			 "%" PRIu64 " ns are both set: choose one",
			 p->iterations, p->duration_ns);
		return -EINVAL;
	}
	if (!p->iterations && !p->duration_ns) {
		snprintf(err, errlen,
			 "neither iterations nor duration is set: give one");
		return -EINVAL;
	}
	return check_ranges(r, sizeof(r) / sizeof(r[0]), err, errlen);
}

static int check_memory(const struct ig_test_def *d, const struct ig_params *p,
			char *err, size_t errlen)
{
	/* each stream holds at most tx_depth buffers of size bytes on verbs,
	 * and one buffer on TCP; count both ends' worst case on one host */
	uint64_t per =
		p->size * (uint64_t)(p->verbs.tx_depth ? p->verbs.tx_depth : 1);
	uint64_t total = per * p->streams;

	if (d->one_buffer)
		total = p->size * p->streams;
	if (total > IG_MAX_TOTAL_MEM) {
		snprintf(err, errlen,
			 "buffer memory %" PRIu64 " bytes (size x streams%s) "
			 "exceeds the cap of %llu bytes",
			 total, d->one_buffer ? "" : " x tx-depth",
			 IG_MAX_TOTAL_MEM);
		return -EINVAL;
	}
	return 0;
}

/* The fields with a range of their own, in the order they are reported. */
static int check_fields(const struct ig_test_def *d, const struct ig_params *p,
			char *err, size_t errlen)
{
	const struct range r[] = {
		/* ud_send_bw: 0 is the path MTU (without -s) */
		{ p->size, d->lossy ? 0 : 1, IG_MAX_SIZE, "size" },
		{ p->streams, 1, IG_MAX_STREAMS, "streams" },
		{ p->warmup_ns, 0, IG_MAX_WARMUP_S * IG_NSEC_PER_SEC,
		  "warmup (ns)" },
		{ p->sock.window, 0, IG_MAX_WINDOW, "window" },
		{ p->timeout_ms, 100, IG_MAX_TIMEOUT_MS, "timeout (ms)" },
		{ p->verbs.tx_depth, 1, IG_MAX_TX_DEPTH, "tx-depth" },
		{ p->verbs.cq_mod, 1, p->verbs.tx_depth, "cq-mod" },
		{ p->verbs.inline_size, 0, 1024, "inline" },
		{ p->verbs.inline_auto, 0, 1, "inline_auto" },
		{ p->bidir, 0, 1, "bidir" },
		{ p->verbs.events, 0, 1, "events" },
		{ p->reverse, 0, 1, "reverse" },
		{ p->verbs.outs, 0, IG_MAX_OUTS, "outs" },
		{ p->verbs.oob, 0, 1, "oob" },
	};

	return check_ranges(r, sizeof(r) / sizeof(r[0]), err, errlen);
}

/* --bidir and -R: bandwidth tests only, and not both. */
static int check_direction(const struct ig_test_def *d,
			   const struct ig_params *p, char *err, size_t errlen)
{
	const char *what = p->bidir ? "bidir" : "reverse";

	if (p->bidir && p->reverse)
		return ig_fail(-EINVAL, err, errlen,
			       "bidir 1 and reverse 1 are both set: choose "
			       "one (bidir measures both directions)");
	if ((p->bidir || p->reverse) && d->pattern != IG_PATTERN_BW)
		return ig_fail(-EINVAL, err, errlen,
			       "%s 1 is for bandwidth tests, not %s", what,
			       d->name);
	return 0;
}

const char *ig_params_direction(const struct ig_tests *tt,
				const struct ig_params *p)
{
	if (ig_test_pattern(tt, p->test) != IG_PATTERN_BW)
		return NULL;
	if (p->bidir)
		return "bidir";
	return p->reverse ? "reverse" : "forward";
}

int ig_params_check(const struct ig_tests *tt, const struct ig_params *p,
		    char *err, size_t errlen)
{
	const struct ig_test_def *d = ig_test_row(tt, p->test);
	int ret;

	if ((unsigned int)p->test >= IG_TEST_COUNT || !d) {
		snprintf(err, errlen, "test %u is unknown: allowed 0 to %u",
			 (unsigned int)p->test, IG_TEST_COUNT - 1);
		return -EINVAL;
	}
	ret = check_fields(d, p, err, errlen);
	if (ret)
		return ret;
	ret = check_direction(d, p, err, errlen);
	if (ret)
		return ret;
	ret = check_mode(p, err, errlen);
	if (ret)
		return ret;
	return check_memory(d, p, err, errlen);
}

/* The decimal number s starts with (a digit first: no sign, no space);
 * *end points past it. */
static int leading_u64(const char *s, unsigned long long *v, char **end)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno == ERANGE ? -ERANGE : 0;
}

int ig_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int ret = leading_u64(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int ig_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;
	int ret = leading_u64(s, &v, &end);

	if (ret)
		return ret;
	switch (toupper((unsigned char)*end)) {
	case '\0':
		break;
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift && end[1])
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int ig_parse_seconds(const char *s, uint64_t *out_ns)
{
	char *end;
	double v;

	if (!s || !*s || strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || *end)
		return -EINVAL;
	if (v > 1e9)
		return -ERANGE;
	*out_ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

void ig_size_str(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		unsigned int shift = 30 - 10 * i;
		uint64_t unit = 1ull << shift;

		if (size && size % unit == 0) {
			snprintf(buf, len, "%" PRIu64 "%c", size >> shift,
				 units[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, size);
}

const char *ig_str_safe(const char *s, char *buf, size_t len, size_t max)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len && i < max; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?'
								    : s[i];
	buf[i] = '\0';
	return buf;
}
