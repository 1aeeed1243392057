#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# zerocopy.sh - tcp_bw's sender copying vs MSG_ZEROCOPY (--zerocopy both),
# on loopback (127.0.0.1) only, next to iperf3 without and with -Z (its
# zero-copy is sendfile, not MSG_ZEROCOPY: a reference for what avoiding
# the copy gives on this host, not the same mechanism).
#
#   bash bench/zerocopy.sh [ROUNDS [SECONDS [SIZE]]]   (5, 3, 64K)
#
# Each round runs, in turn: ibgap copying, ibgap zero-copy (one client run
# with --zerocopy both), iperf3, iperf3 -Z.  Per run: Gb/s, the sending
# process's CPU seconds per GB (user + sys of the client process: ibgap's
# proc_user_s + proc_sys_s, iperf3's cpu_utilization_percent.host_total),
# and for ibgap the whole host's s/GB and the copied share of the
# zero-copy sends.  Prints one line per run and the medians; asserts
# nothing about the figures (a shared, noisy machine); exits 1 when a run
# failed.
set -u -o pipefail
ROUNDS=${1:-5}
DUR=${2:-3}
SIZE=${3:-64K}
HERE=$(cd "$(dirname "$0")" && pwd)
IBGAP=${IBGAP:-$HERE/../build/ibgap}
PORT=18790
IPORT=18791
OUT=$(mktemp -d /tmp/zerocopy.XXXXXX)
trap 'kill $SPID $IPID 2>/dev/null; wait 2>/dev/null' EXIT

"$IBGAP" server -p $PORT >"$OUT/server.log" 2>&1 &
SPID=$!
iperf3 -s -p $IPORT >"$OUT/iperf3.log" 2>&1 &
IPID=$!
sleep 1

for ((r = 1; r <= ROUNDS; r++)); do
	"$IBGAP" client 127.0.0.1 -p $PORT -t tcp_bw -s "$SIZE" -D "$DUR" \
		--warmup 0.5 --zerocopy both --format json >"$OUT/ibgap.$r.json" ||
		exit 1
	iperf3 -c 127.0.0.1 -p $IPORT -l "$SIZE" -t "$DUR" -O 1 -J \
		>"$OUT/iperf3.$r.json" || exit 1
	iperf3 -c 127.0.0.1 -p $IPORT -l "$SIZE" -t "$DUR" -O 1 -J -Z \
		>"$OUT/iperf3z.$r.json" || exit 1
done

python3 - "$OUT" "$ROUNDS" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
def add(tool, gbps, proc, host=None, copied=None):
    rows.setdefault(tool, []).append((gbps, proc, host, copied))
    print("%-14s %7.2f Gb/s  sender process %.3f s/GB%s%s" % (
        tool, gbps, proc,
        "" if host is None else "  host %.3f s/GB" % host,
        "" if copied is None else "  copied %s" % copied))
for r in range(1, rounds + 1):
    print("round %d" % r)
    d = json.load(open("%s/ibgap.%d.json" % (out, r)))
    for x in d["results"]:
        c = x["cpu"]["client"]
        gb = x["bytes"] / 1e9
        tool = "ibgap zerocopy" if x.get("zerocopy") else "ibgap copy"
        z = x.get("zerocopy_stats")
        add(tool, x["bw_gbps"], (c["proc_user_s"] + c["proc_sys_s"]) / gb,
            c["us_per_kib"] * (1e9 / 1024) / 1e6,
            None if not z else "%d/%d" % (z["copied"], z["sends"]))
    for name, f in (("iperf3", "iperf3"), ("iperf3 -Z", "iperf3z")):
        d = json.load(open("%s/%s.%d.json" % (out, f, r)))
        e = d["end"]
        secs = e["sum_sent"]["seconds"]
        gb = e["sum_received"]["bytes"] / 1e9
        cpu = e["cpu_utilization_percent"]["host_total"] / 100 * secs
        add(name, e["sum_received"]["bits_per_second"] / 1e9, cpu / gb)
print("medians over %d rounds" % rounds)
med = {}
for tool, v in rows.items():
    med[tool] = [statistics.median(x[i] for x in v) if v[0][i] is not None
                 else None for i in range(3)]
    print("%-14s %7.2f Gb/s  sender process %.3f s/GB%s" % (
        tool, med[tool][0], med[tool][1],
        "" if med[tool][2] is None else "  host %.3f s/GB" % med[tool][2]))
def ratio(a, b, i):
    return med[a][i] / med[b][i]
print("zero-copy/copy: ibgap Gb/s %.2f, process s/GB %.2f, host s/GB %.2f;"
      " iperf3 -Z/plain: Gb/s %.2f, process s/GB %.2f" % (
      ratio("ibgap zerocopy", "ibgap copy", 0),
      ratio("ibgap zerocopy", "ibgap copy", 1),
      ratio("ibgap zerocopy", "ibgap copy", 2),
      ratio("iperf3 -Z", "iperf3", 0), ratio("iperf3 -Z", "iperf3", 1)))
print("ibgap copy / iperf3 (Gb/s): %.2f" % ratio("ibgap copy", "iperf3", 0))
PY
