// SPDX-License-Identifier: MIT
/* A command's option table: getopt_long()'s table, the values, the range
 * errors and the lines of --help, all from the rows (opttab.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fail.h"
#include "opttab.h"
#include "params.h"

#define HELP_COL 25
#define WIDTH 79

const struct ig_opt *ig_opt_row(const struct ig_opt *r)
{
	return r->ref ? r->ref : r;
}

const char *ig_opt_label(const struct ig_opt *r, char *buf, size_t len)
{
	r = ig_opt_row(r);
	if (r->letter)
		snprintf(buf, len, "-%c", r->letter);
	else
		snprintf(buf, len, "--%s", r->name);
	return buf;
}

static const char *num_str(const struct ig_opt *r, double v, char *buf,
			   size_t len)
{
	if (r->kind == IG_OPT_SIZE)
		ig_size_str((uint64_t)v, buf, len);
	else
		snprintf(buf, len, "%.15g", v);
	return buf;
}

/* "-p: '0' is not a port from 1 to 65535" */
static int range_fail(const struct ig_opt *r, const char *arg, char *err,
		      size_t errlen)
{
	char opt[40], lo[32], hi[32];
	const char *what = r->what;

	if (!what)
		what = r->kind == IG_OPT_UINT ? "a whole number" : "a number";
	return ig_fail(-EINVAL, err, errlen, "%s: '%s' is not %s from %s to %s",
		       ig_opt_label(r, opt, sizeof(opt)), arg, what,
		       num_str(r, r->lo, lo, sizeof(lo)),
		       num_str(r, r->hi, hi, sizeof(hi)));
}

static int out_of_range(const struct ig_opt *r, const char *arg, char *err,
			size_t errlen)
{
	char opt[40], lo[32], hi[32];

	if (r->kind == IG_OPT_SECS)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is out of range: allowed %g to %g "
			       "seconds",
			       ig_opt_label(r, opt, sizeof(opt)), arg, r->lo,
			       r->hi);
	return ig_fail(-EINVAL, err, errlen,
		       "%s: '%s' is out of range: allowed %s to %s",
		       ig_opt_label(r, opt, sizeof(opt)), arg,
		       num_str(r, r->lo, lo, sizeof(lo)),
		       num_str(r, r->hi, hi, sizeof(hi)));
}

static int enum_value(const struct ig_opt *r, const char *arg, double *v,
		      char *err, size_t errlen)
{
	char opt[40], names[256] = "";
	size_t len = 0;

	for (unsigned int i = 0; r->names[i]; i++) {
		if (!strcmp(arg, r->names[i])) {
			*v = i;
			return 0;
		}
		len += (size_t)snprintf(
			names + len,
			len < sizeof(names) ? sizeof(names) - len : 0, "%s%s",
			i ? ", " : "", r->names[i]);
	}
	return ig_fail(-EINVAL, err, errlen, "%s: '%s' is not %s: allowed %s",
		       ig_opt_label(r, opt, sizeof(opt)), arg,
		       r->what ? r->what : "a choice", names);
}

/* A byte count with a unit ig_parse_size() does not take ("64KB",
 * "64KiB", "1mb"): the line says how to write it. */
static int size_hint(const struct ig_opt *r, const char *arg, char *err,
		     size_t errlen)
{
	size_t n = strspn(arg, "0123456789");
	const char *u = arg + n;
	char opt[40];

	if (!n || !*u || !strchr("KMGkmg", *u) ||
	    (strcasecmp(u + 1, "B") && strcasecmp(u + 1, "iB")))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a byte count: use digits with "
			       "an optional K, M or G suffix (powers of two)",
			       ig_opt_label(r, opt, sizeof(opt)), arg);
	return ig_fail(-EINVAL, err, errlen,
		       "%s: '%s' is not a byte count: write %.*s%c (K, M and G "
		       "are powers of two: K means KiB, 1024 bytes)",
		       ig_opt_label(r, opt, sizeof(opt)), arg, (int)n, arg,
		       toupper((unsigned char)*u));
}

/* SIZE and SECS: their words, then the range (lo, hi in their units); a
 * number too large for 64 bits is out of range too. */
static int unit_value(const struct ig_opt *r, const char *arg, double *v,
		      char *err, size_t errlen)
{
	double scale = r->kind == IG_OPT_SECS ? 1e9 : 1;
	char opt[40];
	uint64_t x;
	int ret = r->kind == IG_OPT_SIZE ? ig_parse_size(arg, &x)
					 : ig_parse_seconds(arg, &x);

	if (ret == -ERANGE)
		return out_of_range(r, arg, err, errlen);
	if (ret && r->kind == IG_OPT_SIZE)
		return size_hint(r, arg, err, errlen);
	if (ret)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a number of seconds (e.g. 10 "
			       "or 0.5)",
			       ig_opt_label(r, opt, sizeof(opt)), arg);
	if ((double)x < llround(r->lo * scale) ||
	    (double)x > llround(r->hi * scale))
		return out_of_range(r, arg, err, errlen);
	*v = (double)x;
	return 0;
}

int ig_opt_value(const struct ig_opt *r, const char *arg, double *v, char *err,
		 size_t errlen)
{
	uint64_t x;
	char *end;

	r = ig_opt_row(r);
	switch (r->kind) {
	case IG_OPT_UINT:
		if (ig_parse_u64(arg, &x) || (double)x < r->lo ||
		    (double)x > r->hi)
			return range_fail(r, arg, err, errlen);
		*v = (double)x;
		return 0;
	case IG_OPT_DOUBLE:
		*v = strtod(arg, &end);
		if (end == arg || *end || !(*v >= r->lo && *v <= r->hi))
			return range_fail(r, arg, err, errlen);
		return 0;
	case IG_OPT_SIZE:
	case IG_OPT_SECS:
		return unit_value(r, arg, v, err, errlen);
	case IG_OPT_ENUM:
		return enum_value(r, arg, v, err, errlen);
	default:
		*v = 1; /* a flag */
		return 0;
	}
}

void ig_opt_store(const struct ig_opt *r, void *obj, double v)
{
	char *at = (char *)obj + ig_opt_row(r)->off;
	uint64_t u = (uint64_t)v;

	switch (ig_opt_row(r)->size) {
	case 1:
		*(uint8_t *)at = (uint8_t)u;
		break;
	case 2:
		*(uint16_t *)at = (uint16_t)u;
		break;
	case 4:
		*(uint32_t *)at = (uint32_t)u;
		break;
	default:
		if (ig_opt_row(r)->kind == IG_OPT_DOUBLE)
			*(double *)at = v;
		else
			*(uint64_t *)at = u;
	}
}

int ig_opt_keep_text(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	double v;

	r = ig_opt_row(r);
	if (r->kind != IG_OPT_STRING && ig_opt_value(r, arg, &v, err, errlen))
		return -EINVAL;
	memcpy((char *)ps->obj[r->obj] + r->off, &arg, sizeof(arg));
	return 0;
}

/* Row r (as written in the table, maybe a ref) given with arg. */
static int apply(struct ig_optparse *ps, const struct ig_opt *row,
		 const char *arg, char *err, size_t errlen)
{
	const struct ig_opt *r = ig_opt_row(row);
	double v;

	if (r->call)
		return r->call(ps, row, arg, err, errlen);
	if (r->kind == IG_OPT_STRING || r->kind == IG_OPT_LIST)
		return ig_opt_keep_text(ps, r, arg, err, errlen);
	if (ig_opt_value(r, arg, &v, err, errlen))
		return -EINVAL;
	if (r->kind == IG_OPT_FLAG)
		v = !r->clear;
	if (r->kind == IG_OPT_SECS)
		v = floor(v / (double)(r->unit ? r->unit : 1));
	ig_opt_store(r, ps->obj[r->obj], v);
	return 0;
}

size_t ig_opt_flatten(const struct ig_opt *rows, size_t n,
		      const struct ig_opt **out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t room = k < max ? max - k : 0;

		if (rows[i].kind == IG_OPT_ROWS)
			k += ig_opt_flatten(rows[i].rows, rows[i].nrows,
					    out + max - room, room);
		else if (room)
			out[k++] = &rows[i];
		else
			k++;
	}
	return k;
}

/* getopt_long()'s table and optstring from the rows flat[0..nflat): a
 * row's code is its letter, or 256 + its index. */
static void build(const struct ig_opt *const *flat, size_t nflat,
		  struct option *lo, char *shorts, size_t slen)
{
	size_t n = 0;

	n += (size_t)snprintf(shorts, slen, "h");
	for (size_t i = 0; i < nflat; i++) {
		const struct ig_opt *r = ig_opt_row(flat[i]);
		int has = r->kind == IG_OPT_FLAG ? no_argument
			  : r->optional		 ? optional_argument
						 : required_argument;

		lo[i] = (struct option){ .name = r->name,
					 .has_arg = has,
					 .val = r->letter ? r->letter
							  : 256 + (int)i };
		if (r->letter && n + 3 < slen)
			n += (size_t)snprintf(shorts + n, slen - n, "%c%s",
					      r->letter,
					      has == no_argument ? "" : ":");
	}
	lo[nflat] = (struct option){ .name = "help", .val = 'h' };
	lo[nflat + 1] = (struct option){ 0 };
}

static const struct ig_opt *find(const struct ig_opt *const *flat, size_t nflat,
				 int c)
{
	if (c >= 256 && (size_t)(c - 256) < nflat)
		return flat[c - 256];
	for (size_t i = 0; i < nflat; i++)
		if (ig_opt_row(flat[i])->letter == c)
			return flat[i];
	return NULL;
}

/* The Levenshtein distance of a[0..la) and b; names longer than
 * NAME_MAX_LEN are far from everything. */
#define NAME_MAX_LEN 32
static size_t distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), row[NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* The long name nearest to name[0..len), when it is near: an edit or two
 * (one for a name of 3 letters or fewer), or every name that begins with
 * it (an abbreviation getopt found ambiguous), into buf: 1 (near), 2
 * (names it begins) or 0 (none). */
static int nearest(const struct ig_opt *const *flat, size_t nflat,
		   const char *name, size_t len, char *buf, size_t blen)
{
	size_t best = len <= 3 ? 2 : 3, at = 0; /* one more than near */
	const char *pick = NULL;

	buf[0] = 0;
	for (size_t i = 0; i < nflat && len; i++) {
		const char *n = ig_opt_row(flat[i])->name;

		if (!strncmp(n, name, len) && at < blen)
			at += (size_t)snprintf(buf + at, blen - at, "%s--%s",
					       at ? " or " : "", n);
	}
	if (at)
		return 2;
	for (size_t i = 0; i < nflat; i++) {
		const char *n = ig_opt_row(flat[i])->name;
		size_t d = distance(name, len, n);

		if (d < best) {
			best = d;
			pick = n;
		}
	}
	if (pick)
		snprintf(buf, blen, "--%s", pick);
	return pick ? 1 : 0;
}

/* An option getopt_long() does not know: word w ("--flg=1", or the
 * letter opt of "-x"), with the nearest name when there is one. */
static int unknown_option(const struct ig_opt *const *flat, size_t nflat,
			  const char *w, int opt, char *err, size_t errlen)
{
	char near[128];
	int k;

	if (strncmp(w, "--", 2))
		return ig_fail(-EINVAL, err, errlen,
			       "option '-%c' is unknown: see --help", opt);
	k = nearest(flat, nflat, w + 2, strcspn(w + 2, "="), near,
		    sizeof(near));
	if (k)
		return ig_fail(-EINVAL, err, errlen,
			       "option '%s' is %s: did you mean %s? (see "
			       "--help)",
			       w, k == 2 ? "ambiguous" : "unknown", near);
	return ig_fail(-EINVAL, err, errlen,
		       "option '%s' is unknown: see --help", w);
}

/*
 * getopt_long() returned '?' or ':' for option opt (optopt: a row's code,
 * or 0 for an unknown long option), typed in word w: a row that is a flag
 * was given a value ("--reverse=1"), another lacks its value, anything
 * else is unknown.
 */
static int bad_option(const struct ig_opt *const *flat, size_t nflat,
		      char **argv, int opt, char *err, size_t errlen)
{
	const char *w = optind > 0 ? argv[optind - 1] : "";
	const struct ig_opt *r = opt ? find(flat, nflat, opt) : NULL;
	bool lng = !strncmp(w, "--", 2);
	char label[48];

	if (!r)
		return unknown_option(flat, nflat, lng ? w : "", opt, err,
				      errlen);
	r = ig_opt_row(r);
	if (lng || !r->letter)
		snprintf(label, sizeof(label), "--%s", r->name);
	else
		snprintf(label, sizeof(label), "-%c", r->letter);
	if (r->kind == IG_OPT_FLAG)
		return ig_fail(-EINVAL, err, errlen,
			       "option '%s': %s takes no value: give %s alone",
			       w, label, label);
	return ig_fail(-EINVAL, err, errlen,
		       "option '%s' lacks its value%s%s: see --help", label,
		       r->arg ? " " : "", r->arg ? r->arg : "");
}

static int positionals(struct ig_optparse *ps, int argc, char **argv, char *err,
		       size_t errlen)
{
	const size_t max = sizeof(ps->positional) / sizeof(ps->positional[0]);

	for (ps->npositional = 0; optind < argc; optind++) {
		if (ps->npositional == max)
			return ig_fail(-EINVAL, err, errlen,
				       "'%s': more than %zu words that are no "
				       "option",
				       argv[optind], max);
		ps->positional[ps->npositional++] = argv[optind];
	}
	return 0;
}

int ig_opt_parse(struct ig_optparse *ps, int argc, char **argv, char *err,
		 size_t errlen)
{
	const struct ig_opt *flat[IG_OPT_MAX_ROWS];
	struct option lo[IG_OPT_MAX_ROWS + 2];
	char shorts[3 * IG_OPT_MAX_ROWS + 4];
	const struct ig_opt *r;
	size_t nflat =
		ig_opt_flatten(ps->rows, ps->nrows, flat, IG_OPT_MAX_ROWS);
	int c;

	if (nflat > IG_OPT_MAX_ROWS)
		return ig_fail(-EINVAL, err, errlen,
			       "option table of %zu rows: at most %d", nflat,
			       IG_OPT_MAX_ROWS);
	build(flat, nflat, lo, shorts, sizeof(shorts));
	ps->argc = argc;
	ps->argv = argv;
	ps->held = NULL;
	ps->ngiven = 0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == 'h')
			return 1;
		r = c == '?' || c == ':' ? NULL : find(flat, nflat, c);
		if (!r)
			return bad_option(flat, nflat, argv, optopt, err,
					  errlen);
		if (apply(ps, r, optarg, err, errlen))
			return -EINVAL;
		if (ps->ngiven < IG_OPT_MAX_ROWS)
			ps->given[ps->ngiven++] = ig_opt_row(r);
	}
	return positionals(ps, argc, argv, err, errlen);
}

bool ig_opt_given(const struct ig_optparse *ps, const char *name)
{
	for (unsigned int i = 0; i < ps->ngiven; i++)
		if (!strcmp(ps->given[i]->name, name))
			return true;
	return false;
}

int ig_opt_needs(const struct ig_optparse *ps, const char *name,
		 const char *other, char *err, size_t errlen)
{
	if (!ig_opt_given(ps, name) || ig_opt_given(ps, other))
		return 0;
	return ig_fail(-EINVAL, err, errlen,
		       "--%s does nothing without --%s: add --%s or leave "
		       "--%s out",
		       name, other, other, name);
}

const struct ig_opt *ig_opt_given_of(const struct ig_optparse *ps,
				     const struct ig_opt *rows, size_t n)
{
	const struct ig_opt *flat[IG_OPT_MAX_ROWS];
	size_t nflat = ig_opt_flatten(rows, n, flat, IG_OPT_MAX_ROWS);

	for (unsigned int i = 0; i < ps->ngiven; i++)
		for (size_t j = 0; j < nflat && j < IG_OPT_MAX_ROWS; j++)
			if (ps->given[i] == ig_opt_row(flat[j]))
				return ps->given[i];
	return NULL;
}

int ig_opt_list_check(const struct ig_opt *r, const char *arg, char *err,
		      size_t errlen)
{
	size_t n = strlen(arg);
	char opt[40];

	if (!n || (arg[0] != ',' && arg[n - 1] != ',' && !strstr(arg, ",,")))
		return 0;
	return ig_fail(-EINVAL, err, errlen,
		       "%s: '%s' has an empty item: separate the values by "
		       "one comma",
		       ig_opt_label(r, opt, sizeof(opt)), arg);
}

/* "  -p, --port PORT" */
static int head(FILE *f, const struct ig_opt *r)
{
	if (r->letter)
		return fprintf(f, "  -%c, --%s%s%s", r->letter, r->name,
			       r->arg ? " " : "", r->arg ? r->arg : "");
	return fprintf(f, "      --%s%s%s", r->name, r->arg ? " " : "",
		       r->arg ? r->arg : "");
}

/* The help words from column col, wrapped at WIDTH. */
static void wrap(FILE *f, const char *s, int col)
{
	bool first = true;
	int at = col;

	while (*s) {
		size_t w = strcspn(s, " ");

		if (!first && at + 1 + (int)w > WIDTH) {
			at = fprintf(f, "\n%*s", HELP_COL, "") - 1;
		} else if (!first) {
			fputc(' ', f);
			at++;
		}
		at += fprintf(f, "%.*s", (int)w, s);
		first = false;
		s += w;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

void ig_opt_usage(FILE *f, const struct ig_opt *rows, size_t nrows)
{
	const struct ig_opt *flat[IG_OPT_MAX_ROWS];
	size_t n = ig_opt_flatten(rows, nrows, flat, IG_OPT_MAX_ROWS);

	if (n > IG_OPT_MAX_ROWS)
		n = IG_OPT_MAX_ROWS;
	for (size_t i = 0; i < n; i++) {
		const struct ig_opt *r = ig_opt_row(flat[i]);
		const char *help = flat[i]->help ? flat[i]->help : r->help;
		int col;

		if (!help)
			continue;
		col = head(f, r);
		if (col < HELP_COL - 1)
			col += fprintf(f, "%*s", HELP_COL - col, "");
		else
			col += fprintf(f, "  ");
		wrap(f, help, col);
	}
}
