// SPDX-License-Identifier: MIT
/*
 * The journal of changes made to this host (journal.h): JSON lines, each
 * written and fsync'ed before the change it records is made.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fail.h"
#include "common/file.h"
#include "common/json.h"
#include "journal.h"

#define SCHEMA "ibgap-journal/1"
#define MAX_JOURNAL (16u << 20)

/* Appends o as one line (one write) and syncs it; takes o. */
static int put_line(int fd, json_object *o)
{
	char *line = NULL;
	int n = -1, ret = 0;

	if (o)
		n = asprintf(&line, "%s\n",
			     json_object_to_json_string_ext(
				     o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	if (n < 0)
		return -ENOMEM;
	errno = 0;
	if (write(fd, line, (size_t)n) != n || fsync(fd))
		ret = errno ? -errno : -EIO;
	free(line);
	return ret;
}

static void sync_dir(const char *path)
{
	char d[4096];
	int fd;

	snprintf(d, sizeof(d), "%s", path);
	fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int head_line(int fd)
{
	json_object *o = json_object_new_object();
	char t[32];
	time_t now = time(NULL);
	struct tm tm;

	strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	if (!o || ig_json_add_str(o, "schema", SCHEMA) ||
	    ig_json_add_int(o, "pid", (int)getpid()) ||
	    ig_json_add_str(o, "started", t)) {
		json_object_put(o);
		return -ENOMEM;
	}
	return put_line(fd, o);
}

/* Creates path exclusively: fd or -errno. */
static int create(const char *path)
{
	int fd;

	if (!strncmp(path, IG_JOURNAL_DIR "/", strlen(IG_JOURNAL_DIR) + 1) &&
	    mkdir(IG_JOURNAL_DIR, 0700) && errno != EEXIST)
		return -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
		  0600);
	return fd < 0 ? -errno : fd;
}

/* Room for one more change. */
static int grow(struct ig_journal *j)
{
	size_t cap = j->cap ? 2 * j->cap : 8;
	struct ig_tune_change *c;
	bool *r;

	if (j->n < j->cap)
		return 0;
	c = realloc(j->c, cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	j->c = c;
	r = realloc(j->reverted, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	j->reverted = r;
	j->cap = cap;
	return 0;
}

/* One line of the file: the head (n < 0 before it), a set or a
 * reverted.  0, or -EINVAL when it is not one of those. */
static int parse_line(struct ig_journal *j, const char *line, bool *head,
		      int *pid, char *err, size_t len)
{
	json_object *o = json_tokener_parse(line);
	const char *op = NULL;
	int i = -1, ret = -EINVAL;

	if (!o)
		return -EINVAL;
	if (!*head) {
		ret = ig_json_get_str(o, "schema", &op) || strcmp(op, SCHEMA) ||
				      ig_json_get_int(o, "pid", pid)
			      ? -EINVAL
			      : 0;
		*head = !ret;
	} else if (!ig_json_get_str(o, "op", &op) && !strcmp(op, "set") &&
		   !ig_json_get_int(o, "i", &i) && (size_t)i == j->n &&
		   !grow(j)) {
		ret = ig_tune_from_json(o, &j->c[j->n], err, len);
		if (!ret)
			j->reverted[j->n++] = false;
	} else if (op && !strcmp(op, "reverted") &&
		   !ig_json_get_int(o, "i", &i) && i >= 0 && (size_t)i < j->n) {
		j->reverted[i] = true;
		ret = 0;
	}
	json_object_put(o);
	return ret;
}

static void unload(struct ig_journal *j)
{
	free(j->c);
	free(j->reverted);
	j->c = NULL;
	j->reverted = NULL;
	j->n = j->cap = 0;
}

/* The journal at path into j (its changes and which are back); *pid: its
 * writer; *end: the size of its whole lines.  -ENOENT, or -EINVAL with
 * one line in err. */
static int load(const char *path, struct ig_journal *j, int *pid, off_t *end,
		char *err, size_t len)
{
	char *buf, *line, *next, e[256] = "";
	bool head = false;
	size_t n;
	int ret = ig_file_read(path, MAX_JOURNAL, &buf, &n);

	if (ret)
		return ig_fail(ret, err, len, "journal %s: %s", path,
			       strerror(-ret));
	for (line = buf; !ret && line < buf + n; line = next) {
		next = strchr(line, '\n');
		if (!next) /* a torn last line: its change was never made */
			break;
		*next++ = 0;
		*end = next - buf;
		ret = parse_line(j, line, &head, pid, e, sizeof(e));
	}
	free(buf);
	if (!n) /* created, then a crash before its first line */
		return 0;
	if (ret || !head) {
		unload(j);
		return ig_fail(
			-EINVAL, err, len,
			"%s is not an ibgap journal (schema " SCHEMA
			"): %s; remove it or name another with --journal",
			path, *e ? e : "bad line");
	}
	return 0;
}

static size_t pending_count(const struct ig_journal *j)
{
	size_t p = 0;

	for (size_t i = 0; i < j->n; i++)
		p += !j->reverted[i];
	return p;
}

int ig_journal_pending(const char *path)
{
	struct ig_journal j = { .fd = -1 };
	char e[512];
	off_t end;
	int pid = 0, ret = load(path, &j, &pid, &end, e, sizeof(e));

	if (!ret)
		ret = pending_count(&j) > 0;
	unload(&j);
	return ret == -ENOENT ? 0 : ret;
}

int ig_journal_open(struct ig_journal *j, const char *path, const char *root,
		    char *err, size_t len)
{
	int ret, fd;

	*j = (struct ig_journal){ .fd = -1, .root = root };
	snprintf(j->path, sizeof(j->path), "%s", path);
	fd = create(path);
	if (fd == -EEXIST) {
		ret = ig_journal_pending(path);
		if (ret < 0)
			return ig_fail(
				-EINVAL, err, len,
				"%s exists and is not an ibgap journal; remove it or name another with --journal",
				path);
		if (ret)
			return ig_fail(
				-EEXIST, err, len,
				"a journal of changes not put back is pending at %s: run `ibgap doctor --undo` first",
				path);
		unlink(path); /* all put back: a left-over */
		fd = create(path);
	}
	if (fd < 0)
		return ig_fail(fd, err, len, "creating the journal %s: %s",
			       path, strerror(-fd));
	j->fd = fd;
	ret = head_line(fd);
	sync_dir(path);
	if (ret) {
		ig_journal_forget(j);
		return ig_fail(ret, err, len, "writing the journal %s: %s",
			       path, strerror(-ret));
	}
	return 0;
}

static int put_reverted(struct ig_journal *j, size_t i)
{
	json_object *o = json_object_new_object();

	if (!o || ig_json_add_str(o, "op", "reverted") ||
	    ig_json_add_int(o, "i", (int)i)) {
		json_object_put(o);
		return -ENOMEM;
	}
	return put_line(j->fd, o);
}

static int put_set(struct ig_journal *j, const struct ig_tune_change *c)
{
	json_object *o = ig_tune_to_json(c);

	if (!o || ig_json_add_str(o, "op", "set") ||
	    ig_json_add_int(o, "i", (int)j->n)) {
		json_object_put(o);
		return -ENOMEM;
	}
	return put_line(j->fd, o);
}

int ig_journal_apply(struct ig_journal *j, struct ig_tune_change *c, char *err,
		     size_t len)
{
	int ret = ig_tune_check(c, err, len);

	if (ret)
		return ret;
	ret = ig_tune_read(j->root, c, c->from, sizeof(c->from));
	if (ret)
		return ig_fail(ret, err, len,
			       "reading %s %s%s%s before changing it: %s",
			       ig_tune_kind_name(c->kind), c->dev,
			       *c->dev ? " " : "", c->name, strerror(-ret));
	ret = grow(j);
	if (!ret)
		ret = put_set(j, c);
	if (ret)
		return ig_fail(ret, err, len, "writing the journal %s: %s",
			       j->path, strerror(-ret));
	j->c[j->n] = *c;
	j->reverted[j->n++] = false;
	ret = ig_tune_apply(j->root, c, err, len);
	if (ret) {
		j->reverted[j->n - 1] = true;
		put_reverted(j, j->n - 1);
		return ret;
	}
	j->c[j->n - 1] = *c;
	return 0;
}

int ig_journal_revert(struct ig_journal *j, size_t i, char *err, size_t len)
{
	int ret;

	if (i >= j->n)
		return ig_fail(-EINVAL, err, len,
			       "journal %s: no change %zu (it holds %zu)",
			       j->path, i, j->n);
	if (j->reverted[i])
		return 0;
	ret = ig_tune_revert(j->root, &j->c[i], err, len);
	if (ret)
		return ret;
	j->reverted[i] = true;
	if (j->fd >= 0 && put_reverted(j, i))
		fprintf(stderr,
			"ibgap: journal %s: recording change %zu as put back failed: %s\n",
			j->path, i, strerror(errno));
	return 0;
}

/* Removes the file when every change is back. */
static void remove_if_done(struct ig_journal *j)
{
	if (pending_count(j) || !*j->path)
		return;
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	unlink(j->path);
	sync_dir(j->path);
	j->path[0] = 0;
}

/* Every change not yet back, newest first; with out, one line each put
 * back there. */
static int revert_every(struct ig_journal *j, FILE *out, char *err, size_t len)
{
	char e[512], cmd[IG_TUNE_CMD_LEN];
	int first = 0, ret;

	for (size_t i = j->n; i-- > 0;) {
		if (j->reverted[i])
			continue;
		ret = ig_journal_revert(j, i, e, sizeof(e));
		ig_tune_cmd(&j->c[i], true, cmd, sizeof(cmd));
		if (!ret && out)
			fprintf(out, "put back: %s\n", cmd);
		if (!ret)
			continue;
		fprintf(stderr, "ibgap: %s\n", e);
		if (!first) {
			first = ret;
			snprintf(err, len, "%s", e);
		}
	}
	remove_if_done(j);
	return first;
}

int ig_journal_revert_all(struct ig_journal *j, char *err, size_t len)
{
	return revert_every(j, NULL, err, len);
}

void ig_journal_forget(struct ig_journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		j->reverted[i] = true;
	remove_if_done(j);
}

void ig_journal_close(struct ig_journal *j)
{
	remove_if_done(j);
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	unload(j);
}

/* The process that wrote the journal still runs (not this one). */
static bool alive(int pid)
{
	return pid > 0 && pid != getpid() && (!kill(pid, 0) || errno == EPERM);
}

int ig_journal_undo(const char *path, const char *root, FILE *out, char *err,
		    size_t len)
{
	struct ig_journal j = { .fd = -1, .root = root };
	off_t end = 0;
	int pid = 0, ret = load(path, &j, &pid, &end, err, len);

	if (ret)
		return ret;
	snprintf(j.path, sizeof(j.path), "%s", path);
	if (pending_count(&j) && alive(pid)) {
		unload(&j);
		return ig_fail(
			-EBUSY, err, len,
			"journal %s belongs to ibgap process %d, which still runs: let it put its changes back",
			path, pid);
	}
	j.fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (j.fd >= 0 && ftruncate(j.fd, end)) /* a torn last line goes */
		ret = -errno;
	if (ret)
		ig_fail(ret, err, len,
			"journal %s: cutting its torn last line: %s", path,
			strerror(-ret));
	else
		ret = revert_every(&j, out, err, len);
	ig_journal_close(&j);
	return ret;
}
