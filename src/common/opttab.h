/* SPDX-License-Identifier: MIT */
#ifndef IG_OPTTAB_H
#define IG_OPTTAB_H

/*
 * A command's options as one declarative table: each row names the
 * option, its short letter, the kind of its argument, the field it fills,
 * the allowed range and its help.  ig_opt_parse() walks the table with
 * getopt_long() (built from it), ig_opt_usage() prints the option lines
 * of --help, and every range error is one line made from the row:
 *   "-p: '70000' is not a port from 1 to 65535"
 * Pure: no I/O besides the FILE that ig_opt_usage() is given.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ig_opt_kind {
	IG_OPT_FLAG,   /* no argument: the field (any width) becomes 1, or 0
			* when clear */
	IG_OPT_UINT,   /* a whole number from lo to hi, any width */
	IG_OPT_DOUBLE, /* a number from lo to hi, a double */
	IG_OPT_SIZE,   /* a byte count, K/M/G = powers of two, lo to hi */
	IG_OPT_SECS,   /* seconds (10, 0.5), lo to hi s, stored / unit ns */
	IG_OPT_STRING, /* the argument itself, a const char * */
	IG_OPT_ENUM,   /* one of names[]: its index, any width */
	IG_OPT_LIST,   /* comma-separated values: a callback parses them */
	IG_OPT_ROWS,   /* no option: rows[0..nrows) stand in its place (the
			* transports' rows, src/transports/), and may be
			* IG_OPT_ROWS themselves */
};

/* The field of a row: where (an index into the parse's obj[]), at which
 * offset, how wide. */
#define IG_OPT_AT(type, member) \
	.off = offsetof(type, member), .size = sizeof(((type *)0)->member)

struct ig_optparse;

struct ig_opt {
	const char *name; /* long name, without "--" */
	char letter;	  /* short option, or 0 */
	enum ig_opt_kind kind;
	bool optional; /* the argument may be left out (the call sees NULL) */
	bool clear;    /* FLAG: sets 0 ("--no-retest") */
	unsigned int obj;   /* index into ig_optparse.obj[] */
	size_t off, size;   /* the field (IG_OPT_AT) */
	double lo, hi;	    /* UINT, DOUBLE, SIZE, SECS: the range */
	unsigned long unit; /* SECS: ns per stored unit (1 = ns, 1000000 = ms) */
	const char *what;   /* "a port": the noun of a range error */
	const char *const *names; /* ENUM: NULL-terminated */
	/* parses the argument instead of the kind's store (it may call
	 * ig_opt_value()); 0 or -EINVAL with one line in err */
	int (*call)(struct ig_optparse *ps, const struct ig_opt *r,
		    const char *arg, char *err, size_t errlen);
	/* a row that is another table's row (ref), with its own help if
	 * help is set: options two commands share, typed once */
	const struct ig_opt *ref;
	const struct ig_opt *rows; /* ROWS: the rows it stands for */
	size_t nrows;
	const char *arg;  /* the argument's name in --help: "PORT" */
	const char *help; /* NULL: left out of --help */
};

/* A command's rows, its IG_OPT_ROWS' rows counted */
#define IG_OPT_MAX_ROWS 64
#define IG_OPT_MAX_OBJ 5

struct ig_optparse {
	const struct ig_opt *rows;
	size_t nrows;
	void *obj[IG_OPT_MAX_OBJ]; /* the structs the rows' fields are in */
	int argc;
	char **argv; /* a call with an optional argument may take the next
		      * word, argv[optind], and step past it */
	/* a word a call looked at and left for the positionals, or NULL */
	const char *held;
	const char *positional[8]; /* the words that are no option */
	unsigned int npositional;
	/* the rows given, in order (refs resolved; one given twice is here
	 * twice, up to IG_OPT_MAX_ROWS) */
	const struct ig_opt *given[IG_OPT_MAX_ROWS];
	unsigned int ngiven;
};

/* A row as used: ref resolved (help from r when r has one). */
const struct ig_opt *ig_opt_row(const struct ig_opt *r);
/* The option as error lines name it: "-p" or "--format". */
const char *ig_opt_label(const struct ig_opt *r, char *buf, size_t len);

/*
 * Parses argv[1..argc) against ps->rows (ps->obj set by the caller):
 * every option's field filled, the other words in ps->positional (at most
 * 8, more is -EINVAL).  Returns 0, 1 when -h or --help was given, or
 * -EINVAL with one line in err naming the option, the value and what is
 * allowed.
 */
int ig_opt_parse(struct ig_optparse *ps, int argc, char **argv, char *err,
		 size_t errlen);

/* arg as row r's kind asks, range checked: its value (SECS: ns; ENUM:
 * the index).  0 or -EINVAL with one line in err. */
int ig_opt_value(const struct ig_opt *r, const char *arg, double *v, char *err,
		 size_t errlen);
/* Stores v into r's field (its width) in obj. */
void ig_opt_store(const struct ig_opt *r, void *obj, double v);
/* A call for a row whose value is checked by its kind and range but kept
 * as text: the argument into the const char * field. */
int ig_opt_keep_text(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen);

/* The option of long name name was given (ig_opt_parse filled ps). */
bool ig_opt_given(const struct ig_optparse *ps, const char *name);
/* Option name given without option other, the only one it acts with
 * (--tolerance without --baseline): -EINVAL with one line in err, else
 * 0. */
int ig_opt_needs(const struct ig_optparse *ps, const char *name,
		 const char *other, char *err, size_t errlen);
/* The first of rows[0..n) (IG_OPT_ROWS' rows too) that was given, or
 * NULL. */
const struct ig_opt *ig_opt_given_of(const struct ig_optparse *ps,
				     const struct ig_opt *rows, size_t n);
/* A list value's items ("4K,,8K", ",tcp_bw"): none may be empty.  0, or
 * -EINVAL with one line in err naming row r's option and arg. */
int ig_opt_list_check(const struct ig_opt *r, const char *arg, char *err,
		      size_t errlen);

/* Rows rows[0..n) with IG_OPT_ROWS' rows in their place, into out[];
 * returns how many (when more than max, only the first max are written). */
size_t ig_opt_flatten(const struct ig_opt *rows, size_t n,
		      const struct ig_opt **out, size_t max);

/* The option lines of --help, one per row with help, wrapped at 79
 * columns, the help from column 26. */
void ig_opt_usage(FILE *f, const struct ig_opt *rows, size_t nrows);

#endif
