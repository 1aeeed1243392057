#!/bin/bash
# openmetrics.sh: --format openmetrics, read back by a real parser (the
# Python prometheus_client's OpenMetrics parser, Debian's
# python3-prometheus-client; 77 without it):
# - a tcp_bw + tcp_lat run with -o parses; its bandwidth and p50 are the
#   figures of the JSON baseline saved by the same run (--save-baseline);
#   CPU has a client and a server sample per result; no ibgap_regression
#   without --baseline;
# - against a baseline made 100x faster: exit 1, and the report is still
#   written, with ibgap_regression 1 (and ibgap_baseline_incomplete 0);
# - tcp_bw alone against a baseline of tcp_bw (made 100x slower) and
#   tcp_lat: exit 3, ibgap_regression 0 and ibgap_baseline_incomplete 1;
# - -o is written whole or not at all: no temporary file is left, and a
#   failed run (no server) leaves the previous report as it was.
#   bash tests/integ/openmetrics.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init openmetrics "$@"

# Debian's python3, which has it (ig_init put it first in PATH)
PY=python3
if ! $PY -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
	ig_log "skipped: $PY has no prometheus_client (apt-get install python3-prometheus-client)"
	exit 77
fi
ig_start_server
OM=$TMP/ibgap.prom

# om_check FILE <<'EOF' ... EOF: the snippet on stdin runs with fams =
# {name: family} parsed from FILE, b = the baseline JSON (if any), and
# check(cond, msg); a parse error fails.
om_check() {
	local f=$1 what=$2 out rc=0

	out=$($PY -c '
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
fails = []
def check(c, m):
    if not c: fails.append(m)
try:
    fams = {f.name: f for f in parse(open(sys.argv[1]).read())}
except Exception as e:
    print("the OpenMetrics parser refused it: %s" % e); sys.exit(1)
b = json.load(open(sys.argv[2])) if sys.argv[2] != "-" else None
exec(sys.stdin.read())
for m in fails: print(m)
sys.exit(1 if fails else 0)' "$f" "${3:--}" 2>&1) || rc=$?
	if [[ $rc == 0 ]]; then pass "$what"; else fail "$what: $out"; fi
}

ig_client 60 run1 -t tcp_bw,tcp_lat -D 0.3 --warmup 0 --format openmetrics \
	-o "$OM" --save-baseline "$TMP/base.json"
expect_client_ok run1 "openmetrics run"
om_check "$OM" "parses; figures as the saved JSON" "$TMP/base.json" <<'PYEOF'
res = {r["test"]: r for r in b["results"]}
bw = fams["ibgap_bandwidth_gbps"].samples
check(len(bw) == 1, "one bandwidth sample, not %d" % len(bw))
s = bw[0]
check(s.labels["test"] == "tcp_bw" and s.labels["transport"] == "tcp", str(s.labels))
check(s.labels["size"] == "65536" and s.labels["streams"] == "1", str(s.labels))
check(s.labels["peer"] == "127.0.0.1", "peer %r" % s.labels.get("peer"))
check(abs(s.value - res["tcp_bw"]["bw_gbps"]) <= 1e-6 * s.value,
      "bandwidth %g, JSON %g" % (s.value, res["tcp_bw"]["bw_gbps"]))
lat = fams["ibgap_latency_us"]
check(lat.type == "summary", "latency is a %s" % lat.type)
q = {x.labels["quantile"]: x.value for x in lat.samples if x.name == "ibgap_latency_us"}
check(abs(q.get("0.5", -1) - res["tcp_lat"]["lat_us"]["p50"]) < 1e-6,
      "p50 %s, JSON %s" % (q.get("0.5"), res["tcp_lat"]["lat_us"]["p50"]))
check(q.get("0") <= q.get("0.5") <= q.get("0.99") <= q.get("1"), "quantiles out of order: %s" % q)
cnt = [x.value for x in lat.samples if x.name == "ibgap_latency_us_count"]
check(cnt and cnt[0] == res["tcp_lat"]["iterations"], "count %s, JSON %s" % (cnt, res["tcp_lat"]["iterations"]))
cpu = fams["ibgap_cpu_percent"].samples
check(sorted(x.labels["side"] for x in cpu) == ["client", "client", "server", "server"],
      "cpu sides %s" % [x.labels["side"] for x in cpu])
check("ibgap_regression" not in fams, "a regression sample without --baseline")
PYEOF
left=$(find "$TMP" -maxdepth 1 -name 'ibgap.prom.*' | wc -l)
check "no temporary file left beside -o ($left)" test "$left" = 0

# scaled SRC DST FACTOR: the baseline SRC with its bandwidths and message
# rates times FACTOR, into DST
scaled()
{
	$PY - "$@" <<'PYEOF' || die "cannot write $2"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for k in ("bw_gbps", "msg_rate"):
        if k in r: r[k] *= float(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PYEOF
}

# a baseline 100x faster: a regression
scaled "$TMP/base.json" "$TMP/fast.json" 100
ig_client 60 run2 -t tcp_bw -D 0.3 --warmup 0 --format openmetrics \
	-o "$OM" --baseline "$TMP/fast.json"
expect_rc 1 "run against a 100x faster baseline"
om_check "$OM" "the report is written, with ibgap_regression 1" <<'PYEOF'
r = fams.get("ibgap_regression")
check(r is not None, "no ibgap_regression family")
if r:
    check([x.value for x in r.samples] == [1], "regression samples %s" % r.samples)
    check(r.samples[0].labels["baseline"].endswith("fast.json"), str(r.samples[0].labels))
i = fams.get("ibgap_baseline_incomplete")
check(i is not None and [x.value for x in i.samples] == [0],
      "incomplete samples %s" % (i.samples if i else None))
PYEOF

# tcp_bw alone against a baseline of tcp_bw, 100x slower (bandwidth and
# message rate), and tcp_lat:
# no regression, but the baseline's tcp_lat is not compared
scaled "$TMP/base.json" "$TMP/slow.json" 0.01
ig_client 60 run4 -t tcp_bw -D 0.3 --warmup 0 --format openmetrics \
	-o "$OM" --baseline "$TMP/slow.json"
expect_rc 3 "tcp_bw alone against a baseline that also has tcp_lat"
om_check "$OM" "ibgap_regression 0, ibgap_baseline_incomplete 1" <<'PYEOF'
for name, want in (("ibgap_regression", 0), ("ibgap_baseline_incomplete", 1)):
    f = fams.get(name)
    check(f is not None and [x.value for x in f.samples] == [want],
          "%s samples %s, want [%d]" % (name, f.samples if f else None, want))
    if f:
        check(f.samples[0].labels["baseline"].endswith("slow.json"), str(f.samples[0].labels))
PYEOF

# a failed run keeps the previous report
cp "$OM" "$TMP/before.prom"
ig_run 30 run3 client -p 1 -t tcp_bw -D 0.3 --format openmetrics -o "$OM" 127.0.0.1
check "a run with no server fails (exit $RC)" test "$RC" = 1
check "and leaves the previous report as it was" cmp -s "$OM" "$TMP/before.prom"
left=$(find "$TMP" -maxdepth 1 -name 'ibgap.prom.*' | wc -l)
check "no temporary file left after the failed run ($left)" test "$left" = 0
ig_done
