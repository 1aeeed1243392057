// SPDX-License-Identifier: MIT
/*
 * `ibgap version`: this build's version and git revision, and the
 * versions of the libraries it runs with (the ones loaded now, which may
 * differ from the ones it was built against).
 */
#include <stdio.h>

#include <json-c/json.h>
#include <openssl/crypto.h>

#include "commands.h"
#include "gitrev.h"
#include "host/fingerprint.h"
#include "host/sysinfo.h"

int ig_cmd_version(int argc, char **argv)
{
	struct ig_fingerprint fp;

	ig_fingerprint_collect("/", NULL, 0, &fp);
	printf("ibgap %s (git %s)\n", IG_VERSION, IG_GIT_REV);
	printf("rdma-core %s\n", fp.rdma_core[0] ? fp.rdma_core : "unknown");
	printf("json-c %s\n", json_c_version());
	printf("%s\n", OpenSSL_version(OPENSSL_VERSION));
	return 0;
}
