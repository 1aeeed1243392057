// SPDX-License-Identifier: MIT
#include "usage.h"

const char ig_usage_main[] =
	"usage: ibgap [options]            compare verbs and TCP on this machine\n"
	"       ibgap server [options]     serve clients (default port 18515)\n"
	"       ibgap client HOST [options]\n"
	"       ibgap diff OLD.json NEW.json [--tolerance PCT]\n"
	"       ibgap doctor [HOST] [options]   why TCP is slower than verbs\n"
	"       ibgap version\n"
	"'ibgap COMMAND --help' lists the options of server, client, diff\n"
	"and doctor; ibgap alone takes the client's, but -p, --also and\n"
	"--auth-file.\n";

const char ig_usage_diff[] =
	"usage: ibgap diff OLD.json NEW.json [--tolerance PCT]\n"
	"Compares two saved JSON reports (--format json or --save-baseline).\n"
	"Results are matched by test, size, streams and window; bw_gbps and\n"
	"msg_rate are worse when lower, lat_us.p50 and lat_us.p99 when higher\n"
	"(each compared when both runs have it).  Changes of either host's\n"
	"fingerprint (kernel, rdma-core, firmware, driver, link, PCIe) are\n"
	"listed.\n";

const char ig_usage_diff_exit[] =
	"Exit status: 0 no regression, 1 one or more regressions, 2 bad\n"
	"option, 3 a file unreadable or not an ibgap report, or nothing\n"
	"compared, or results of OLD missing from NEW.\n";
