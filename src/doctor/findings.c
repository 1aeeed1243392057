// SPDX-License-Identifier: MIT
/* The findings list of one doctor run, and the failed reads beside it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

static const char *const sev_names[] = {
	[IG_DR_SEV_INFO] = "info",
	[IG_DR_SEV_WARN] = "warn",
	[IG_DR_SEV_CRIT] = "crit",
};

const char *ig_dr_sev_name(enum ig_dr_sev s)
{
	return s <= IG_DR_SEV_CRIT ? sev_names[s] : "?";
}

/* Grows an array of n elements of size sz to hold one more. */
static int grow(void **v, size_t n, size_t *cap, size_t sz)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	nv = realloc(*v, nc * sz);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

struct ig_dr_finding *ig_dr_add(struct ig_dr *d, enum ig_dr_sev sev,
				const char *id, const char *fmt, ...)
{
	struct ig_dr_report *r = d->r;
	struct ig_dr_finding *f;
	va_list ap;

	if (grow((void **)&r->f, r->n, &r->cap, sizeof(*r->f))) {
		d->nomem = -ENOMEM;
		return NULL;
	}
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	snprintf(f->id, sizeof(f->id), "%s", id);
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof(f->what), fmt, ap);
	va_end(ap);
	return f;
}

void ig_dr_fix(struct ig_dr_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vsnprintf(f->fix, sizeof(f->fix), fmt, ap);
	va_end(ap);
}

void ig_dr_ev(struct ig_dr_finding *f, const char *source, const char *fmt, ...)
{
	struct ig_dr_evidence *e;
	va_list ap;

	if (!f || f->nev >= IG_DR_MAX_EV)
		return;
	e = &f->ev[f->nev++];
	snprintf(e->source, sizeof(e->source), "%s", source);
	va_start(ap, fmt);
	vsnprintf(e->value, sizeof(e->value), fmt, ap);
	va_end(ap);
}

void ig_dr_read_err(struct ig_dr *d, const char *source, int err)
{
	struct ig_dr_report *r = d->r;
	struct ig_dr_read_err *e;

	/* one entry per source: a file read twice fails once */
	for (size_t i = 0; i < r->nerr; i++)
		if (!strcmp(r->err[i].source, source))
			return;
	if (grow((void **)&r->err, r->nerr, &r->errcap, sizeof(*r->err))) {
		d->nomem = -ENOMEM;
		return;
	}
	e = &r->err[r->nerr++];
	snprintf(e->source, sizeof(e->source), "%s", source);
	snprintf(e->error, sizeof(e->error), "%s", strerror(err));
}

void ig_dr_not_examined(struct ig_dr *d, const char *layer, const char *fmt,
			...)
{
	struct ig_dr_report *r = d->r;
	struct ig_dr_not_examined e = { 0 };
	va_list ap;

	snprintf(e.layer, sizeof(e.layer), "%s", layer);
	va_start(ap, fmt);
	vsnprintf(e.reason, sizeof(e.reason), fmt, ap);
	va_end(ap);
	/* the same layer unseen for the same reason (two paths) once */
	for (size_t i = 0; i < r->nne; i++)
		if (!strcmp(r->ne[i].layer, e.layer) &&
		    !strcmp(r->ne[i].reason, e.reason))
			return;
	if (grow((void **)&r->ne, r->nne, &r->necap, sizeof(*r->ne))) {
		d->nomem = -ENOMEM;
		return;
	}
	r->ne[r->nne++] = e;
}

/* Most severe first; equal severities keep the order the checks ran in
 * (insertion sort: stable, and the lists are short). */
void ig_dr_sort(struct ig_dr_report *r)
{
	for (size_t i = 1; i < r->n; i++) {
		struct ig_dr_finding t = r->f[i];
		size_t j = i;

		for (; j > 0 && r->f[j - 1].sev < t.sev; j--)
			r->f[j] = r->f[j - 1];
		r->f[j] = t;
	}
}

void ig_dr_report_free(struct ig_dr_report *r)
{
	if (!r)
		return;
	free(r->f);
	free(r->err);
	free(r->ne);
	memset(r, 0, sizeof(*r));
}
