// SPDX-License-Identifier: MIT
#include "usage.h"

const char ig_usage_main[] =
	"usage: ibgap                      compare on this machine (loopback)\n"
	"       ibgap server [options]     serve clients (default port 18515)\n"
	"       ibgap client HOST [options]\n"
	"       ibgap version\n"
	"'ibgap client --help' and 'ibgap server --help' list the options.\n";

const char ig_usage_client[] =
	"usage: ibgap client HOST [options]\n"
	"  -p, --port PORT        server's control port (default 18515)\n"
	"  -t, --tests LIST       comma list of tcp_bw, tcp_lat, send_bw,\n"
	"                         write_bw, send_lat, write_lat\n"
	"                         (default tcp_bw,tcp_lat)\n"
	"  -s, --size BYTES       message size, K/M/G suffixes = powers of 2\n"
	"                         (default 64K for bandwidth, 2 for latency)\n"
	"  -D, --duration SECS    measured interval (default 2)\n"
	"  -n, --iterations N     messages (or round trips) per stream,\n"
	"                         instead of -D\n"
	"      --warmup SECS      excluded warm-up before measuring (0.5)\n"
	"  -P, --streams N        TCP connections / QPs (default 1)\n"
	"      --window BYTES     SO_SNDBUF/SO_RCVBUF of TCP streams\n"
	"      --tx-depth N       verbs send queue depth (default 128)\n"
	"      --cq-mod N         verbs: signal every Nth send (default 16)\n"
	"      --inline BYTES     verbs inline threshold (default 0)\n"
	"      --device NAME      verbs: use this RDMA device (must own the\n"
	"                         address of HOST's route)\n"
	"      --ib-port N        verbs: HCA port (default: rdma_cm's choice)\n"
	"      --gid-index N      verbs: source GID index (default: rdma_cm's)\n"
	"      --cpu N            pin test threads to CPU N (default: a CPU\n"
	"                         local to the HCA for verbs)\n"
	"      --timeout SECS     deadline of every control read (10)\n"
	"      --format FMT       text, json or csv (default text)\n"
	"  -o, --output FILE      write the report to FILE\n";

const char ig_usage_server[] =
	"usage: ibgap server [options]\n"
	"  -p, --port PORT        control port (default 18515)\n"
	"  -B, --bind ADDR        listen on ADDR only (default: all)\n"
	"      --once             exit after one session\n"
	"      --timeout SECS     deadline of every control read (10)\n";
