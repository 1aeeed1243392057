// SPDX-License-Identifier: MIT
/* Slurm's pure part (slurm.h): sinfo's output read, what --drain and
 * --resume do with a node, and the outcome for the report. */
#include <errno.h>
#include <string.h>

#include "common/fail.h"
#include "common/json.h"
#include "slurm.h"

/* s[0..n) into dst (cut to len), without the spaces at either end. */
static void copy_trim(char *dst, size_t len, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* One line "NODE|STATE|REASON" (the reason may hold '|'); 0 or -EINVAL. */
static int parse_line(const char *s, size_t n, struct ig_slurm_node *node)
{
	const char *bar1 = memchr(s, '|', n), *bar2;

	if (!bar1)
		return -EINVAL;
	bar2 = memchr(bar1 + 1, '|', n - (size_t)(bar1 + 1 - s));
	if (!bar2)
		return -EINVAL;
	copy_trim(node->name, sizeof(node->name), s, (size_t)(bar1 - s));
	copy_trim(node->state, sizeof(node->state), bar1 + 1,
		  (size_t)(bar2 - bar1 - 1));
	copy_trim(node->reason, sizeof(node->reason), bar2 + 1,
		  n - (size_t)(bar2 + 1 - s));
	if (!strcmp(node->reason, "none"))
		node->reason[0] = '\0';
	return node->name[0] && node->state[0] ? 0 : -EINVAL;
}

static bool seen(const struct ig_slurm_node *nodes, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(nodes[i].name, name))
			return true;
	return false;
}

int ig_slurm_parse(const char *out, struct ig_slurm_node *nodes, size_t max,
		   size_t *n, char *err, size_t errlen)
{
	size_t line = 0;

	*n = 0;
	for (const char *s = out; *s;) {
		const char *end = strchrnul(s, '\n');
		size_t len = (size_t)(end - s);
		struct ig_slurm_node node;

		line++;
		if (len && strspn(s, " \t\r") < len) {
			if (parse_line(s, len, &node))
				return ig_fail(-EINVAL, err, errlen,
					       "sinfo's line %zu is not "
					       "NODE|STATE|REASON: '%.*s'",
					       line, (int)(len > 80 ? 80 : len),
					       s);
			if (seen(nodes, *n, node.name))
				goto next;
			if (*n >= max)
				return ig_fail(
					-ENOSPC, err, errlen,
					"sinfo lists more than %zu nodes", max);
			nodes[(*n)++] = node;
		}
	next:
		s = *end ? end + 1 : end;
	}
	return 0;
}

bool ig_slurm_ours(const char *reason)
{
	return !strncmp(reason, IG_SLURM_TAG, strlen(IG_SLURM_TAG));
}

enum ig_slurm_act ig_slurm_drain_act(const struct ig_slurm_node *n)
{
	if (!n->reason[0])
		return IG_SLURM_DRAIN;
	return ig_slurm_ours(n->reason) ? IG_SLURM_UPDATE : IG_SLURM_LEAVE;
}

enum ig_slurm_act ig_slurm_resume_act(const struct ig_slurm_node *n)
{
	if (!n->reason[0])
		return IG_SLURM_NONE;
	return ig_slurm_ours(n->reason) ? IG_SLURM_RESUME : IG_SLURM_LEAVE;
}

/* The length of s[0..n) without a last UTF-8 character cut short. */
static size_t whole_chars(const char *s, size_t n)
{
	size_t p = n, want;
	unsigned char lead;

	while (p && ((unsigned char)s[p - 1] & 0xc0) == 0x80 && n - p < 3)
		p--;
	if (!p)
		return n;
	lead = (unsigned char)s[p - 1];
	if (lead < 0xc0)
		return n;
	want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return n - (p - 1) < want ? p - 1 : n;
}

void ig_slurm_reason(char *out, size_t len, const char *why)
{
	bool cut = strlen(IG_SLURM_TAG) + 1 + strlen(why) >= len;
	size_t n;

	if (!len)
		return;
	snprintf(out, len, "%s %s", IG_SLURM_TAG, why);
	n = strlen(out);
	if (cut) {
		n = whole_chars(out, n);
		out[n] = '\0';
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = ' ';
}

static json_object *done_json(const struct ig_slurm_done *d, bool why)
{
	json_object *o = json_object_new_object();

	ig_json_add_str(o, "node", d->node);
	ig_json_add_str(o, "reason", d->reason);
	if (d->state[0])
		ig_json_add_str(o, "state", d->state);
	if (why)
		ig_json_add_str(o, "why",
				d->ok ? "a reason not ibgap's: left as it is"
				      : d->why);
	return o;
}

void ig_slurm_drain_json(json_object *doc, const struct ig_slurm_out *o)
{
	json_object *yes = json_object_new_array();
	json_object *no = json_object_new_array();

	for (size_t i = 0; i < o->n; i++) {
		const struct ig_slurm_done *d = &o->d[i];
		bool done = d->ok && (d->act == IG_SLURM_DRAIN ||
				      d->act == IG_SLURM_UPDATE);
		json_object *e = done_json(d, !done);

		if (done)
			json_object_object_add(
				e, "updated",
				json_object_new_boolean(d->act ==
							IG_SLURM_UPDATE));
		json_object_array_add(done ? yes : no, e);
	}
	ig_json_add(doc, "drained", yes);
	ig_json_add(doc, "not_drained", no);
}

/* One line of the outcome: what, the node, the reason, the error. */
static void done_text(FILE *f, const struct ig_slurm_done *d)
{
	static const char *const what[] = {
		[IG_SLURM_NONE] = "in service", [IG_SLURM_DRAIN] = "drained",
		[IG_SLURM_UPDATE] = "updated",	[IG_SLURM_LEAVE] = "left",
		[IG_SLURM_RESUME] = "resumed",
	};

	if (!d->ok) {
		fprintf(f, "  FAILED   %-20s %s\n", d->node, d->why);
		return;
	}
	if (d->act == IG_SLURM_LEAVE)
		fprintf(f, "  left     %-20s %s, a reason not ibgap's: '%s'\n",
			d->node, d->state, d->reason);
	else
		fprintf(f, "  %-8s %-20s '%s'\n", what[d->act], d->node,
			d->reason);
}

void ig_slurm_drain_text(FILE *f, const struct ig_slurm_out *o)
{
	fprintf(f, "\nslurm --drain: %zu flagged node(s)%s\n", o->n,
		o->failed ? ", some scontrol calls FAILED" : "");
	for (size_t i = 0; i < o->n; i++)
		done_text(f, &o->d[i]);
}

void ig_slurm_resume_text(FILE *f, const struct ig_slurm_out *o)
{
	size_t resumed = 0, left = 0;

	for (size_t i = 0; i < o->n; i++) {
		resumed += o->d[i].ok && o->d[i].act == IG_SLURM_RESUME;
		left += o->d[i].act == IG_SLURM_LEAVE;
	}
	fprintf(f,
		"ibgap-fabric --resume: %zu node(s) resumed, %zu drained or "
		"down with someone else's reason left, %u failed\n",
		resumed, left, o->failed);
	for (size_t i = 0; i < o->n; i++)
		if (o->d[i].act != IG_SLURM_NONE)
			done_text(f, &o->d[i]);
}
