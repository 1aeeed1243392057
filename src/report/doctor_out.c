// SPDX-License-Identifier: MIT
/* The doctor's document: this host and the server, as JSON or text. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "doctor/doctor.h"
#include "doctor/remote.h"
#include "report.h"
#include "host/sysinfo.h"

#define IG_DR_SCHEMA "ibgap-doctor/1"

static json_object *local_json(const struct ig_dr_report *r)
{
	json_object *o = ig_dr_report_to_json(r);
	struct ig_sysinfo si;

	if (!o)
		return NULL;
	ig_sysinfo_get(&si);
	json_object_object_add(o, "role", json_object_new_string("local"));
	json_object_object_add(o, "host", ig_sysinfo_to_json(&si));
	json_object_object_add(o, "fixture",
			       json_object_new_boolean(r->fixture));
	json_object_object_add(o, "rtt_us", json_object_new_double(r->rtt_us));
	return o;
}

static json_object *remote_json(const struct ig_dr_remote *rm, const char *host,
				const char *port)
{
	json_object *o = rm->ok ? ig_dr_report_to_json(&rm->r)
				: json_object_new_object();
	char where[320];

	if (!o)
		return NULL;
	snprintf(where, sizeof(where), "%s port %s", host, port);
	json_object_object_add(o, "role", json_object_new_string("remote"));
	json_object_object_add(o, "address", json_object_new_string(where));
	if (rm->ok)
		json_object_object_add(o, "host",
				       ig_sysinfo_to_json(&rm->host));
	else
		json_object_object_add(o, "error",
				       json_object_new_string(rm->err));
	return o;
}

static int write_json(FILE *f, const struct ig_dr_report *local,
		      const struct ig_dr_remote *rm, const char *host,
		      const char *port)
{
	json_object *root = json_object_new_object();
	json_object *hosts = json_object_new_array();
	const char *s;
	int ret = 0;

	json_object_object_add(root, "schema",
			       json_object_new_string(IG_DR_SCHEMA));
	json_object_array_add(hosts, local_json(local));
	if (rm)
		json_object_array_add(hosts, remote_json(rm, host, port));
	json_object_object_add(root, "hosts", hosts);
	s = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s || fputs(s, f) < 0 || fputc('\n', f) < 0)
		ret = -EIO;
	json_object_put(root);
	return ret;
}

static void write_text(FILE *f, const struct ig_dr_report *local,
		       const struct ig_dr_remote *rm, const char *host,
		       const char *port)
{
	struct ig_sysinfo si;
	char title[640];

	ig_sysinfo_get(&si);
	snprintf(title, sizeof(title), "this host: %s (kernel %s)%s",
		 si.hostname, si.kernel,
		 local->fixture ? ", fixture tree" : "");
	ig_dr_report_print(f, title, local);
	if (!rm)
		return;
	fputc('\n', f);
	if (!rm->ok) {
		fprintf(f, "== %s port %s: not examined: %s ==\n", host, port,
			rm->err);
		return;
	}
	snprintf(title, sizeof(title),
		 "%s port %s: %s (kernel %s), the "
		 "server's view",
		 host, port, rm->host.hostname, rm->host.kernel);
	ig_dr_report_print(f, title, &rm->r);
}

int ig_report_doctor(FILE *f, bool json, const struct ig_dr_report *local,
		     const struct ig_dr_remote *rm, const char *host,
		     const char *port)
{
	int ret = 0;

	if (json)
		ret = write_json(f, local, rm, host, port);
	else
		write_text(f, local, rm, host, port);
	if (!ret && fflush(f))
		ret = -errno;
	if (ret)
		fprintf(stderr, "ibgap doctor: writing the report failed: %s\n",
			strerror(-ret));
	return ret;
}
