#!/bin/bash
# baseline.sh: "ibgap diff" on real JSON reports over loopback: a report
# against itself passes, a copy with bw_gbps halved is a regression that
# names the metric, a missing file and bad options have their own exit
# codes (0 ok, 1 regression, 2 usage, 3 unreadable or invalid file, or a
# comparison that checked less than the old report holds); an
# interrupted run is not saved as a baseline, and one marked partial warns.
#   bash tests/integ/baseline.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init baseline "$@"
ig_start_server

not_grep()
{
	! grep -q "$1" "$2"
}

A=$TMP/a.json
A2=$TMP/a2.json
B=$TMP/b.json

# 1. two real runs
for f in "$A" "$A2"; do
	ig_client 30 run -t tcp_bw,tcp_lat -D 0.5 --warmup 0.1 --format json \
		-o "$f"
	expect_client_ok run "tcp_bw,tcp_lat --format json -o ${f##*/}" ||
		die "no report to compare"
done
ig_json_check "$A" "report a.json" <<'PY'
check(d.get("schema") == "ibgap/1", "schema %r" % d.get("schema"))
got = [r.get("test") for r in d.get("results", [])]
check(got == ["tcp_bw", "tcp_lat"], "tests %r" % got)
PY

# 2. a report against itself: no regression, every metric compared
ig_run 10 same diff "$A" "$A"
expect_rc 0 "diff a a"
expect_no_grep "$TMP/same.out" "REGRESSION" "diff a a"
expect_grep "$TMP/same.out" "tcp_bw 64K streams 1 bw_gbps" "diff a a"
expect_grep "$TMP/same.out" "tcp_lat 2 streams 1 lat_us.p99" "diff a a"
expect_grep "$TMP/same.out" "summary: 6 metrics compared, 0 worse than 5%" \
	"diff a a"
check "diff a a: stderr empty" test ! -s "$TMP/same.err"

# 3. two real runs: the results pair up (noise may or may not exceed 5%)
ig_run 10 two diff "$A" "$A2" --tolerance 1000
check "diff a a2 --tolerance 1000: exit 0 or 1 (got $RC)" \
	test "$RC" = 0 -o "$RC" = 1
expect_grep "$TMP/two.out" "summary: 6 metrics compared" "diff a a2"
check "diff a a2: every result paired" \
	not_grep " only in the \(old\|new\) run$" "$TMP/two.out"

# 4. bw_gbps halved: a regression naming the metric and the test
python3 - "$A" "$B" <<'PY' || die "cannot write the halved copy"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    r["bw_gbps"] = r["bw_gbps"] / 2
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
ig_run 10 halved diff "$A" "$B"
expect_rc 1 "diff a b (bw_gbps halved)"
expect_grep "$TMP/halved.out" "bw_gbps" "diff a b"
expect_grep "$TMP/halved.out" "(-50.0%) REGRESSION" "diff a b"
if ! grep -q "^tcp_bw 64K streams 1 bw_gbps .* (-50.0%) REGRESSION$" \
	"$TMP/halved.out"; then
	fail "diff a b: no tcp_bw bw_gbps REGRESSION line in:"$'\n'"$(cat \
		"$TMP/halved.out")"
else
	pass "diff a b: tcp_bw bw_gbps REGRESSION line"
fi
expect_grep "$TMP/halved.out" "msg_rate" "diff a b: msg_rate still compared"
ig_run 10 halved_tol diff "$A" "$B" --tolerance 60
expect_rc 0 "diff a b --tolerance 60"
ig_run 10 improved diff "$B" "$A"
expect_rc 0 "diff b a (bandwidth doubled)"

# 5. files that cannot be compared: exit 3, one line naming the file
ig_run 10 missing diff "$A" "$TMP/missing.json"
expect_rc 3 "diff a missing.json"
expect_one_line "$TMP/missing.err" "diff a missing.json"
expect_grep "$TMP/missing.err" "missing.json" "diff a missing.json"
printf 'not json\n' >"$TMP/garbage.json"
ig_run 10 garbage diff "$TMP/garbage.json" "$A"
expect_rc 3 "diff garbage.json a"
expect_one_line "$TMP/garbage.err" "diff garbage.json a"
expect_grep "$TMP/garbage.err" "garbage.json: not JSON" "diff garbage.json a"

# 6. an interrupted run is no baseline: --save-baseline does not write it
# (exit 130, one line says so); a report marked partial warns when used
ig_bg int client -p "$SRV_PORT" -t tcp_bw,tcp_lat -D 10 --warmup 0.1 \
	--save-baseline "$TMP/int.json" 127.0.0.1
sleep 1.5
kill -INT "$BG_PID"
ig_wait_pid "$BG_PID" 5
expect_rc 130 "--save-baseline, SIGINT"
check "--save-baseline of an interrupted run: no file" \
	test ! -e "$TMP/int.json"
expect_grep "$TMP/int.err" \
	"--save-baseline: the run was interrupted: '$TMP/int.json' is not written" \
	"--save-baseline, SIGINT"
python3 - "$A" "$TMP/partial.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["partial"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
ig_run 10 diffpart diff "$TMP/partial.json" "$A"
expect_grep "$TMP/diffpart.err" \
	"warning: OLD '$TMP/partial.json' is of an interrupted run" \
	"diff, OLD partial"
ig_client 30 usepart -t tcp_lat -n 100 --warmup 0 \
	--baseline "$TMP/partial.json"
expect_grep "$TMP/usepart.err" \
	"--baseline: warning: '$TMP/partial.json' is of an interrupted run" \
	"--baseline partial.json"
ig_run 10 diffwhole diff "$A" "$A"
expect_no_grep "$TMP/diffwhole.err" "interrupted" "diff, whole runs"

# 7. usage errors: exit 2, one line naming the option or value
ig_run 10 one diff "$A"
expect_rc 2 "diff with one file"
expect_one_line "$TMP/one.err" "diff with one file"
ig_run 10 badtol diff "$A" "$A" --tolerance abc
expect_rc 2 "diff --tolerance abc"
expect_one_line "$TMP/badtol.err" "diff --tolerance abc"
expect_grep "$TMP/badtol.err" "'abc'" "diff --tolerance abc"
ig_run 10 badopt diff --bogus "$A" "$A"
expect_rc 2 "diff --bogus"
expect_grep "$TMP/badopt.err" "--bogus" "diff --bogus"
ig_run 10 help diff --help
expect_rc 0 "diff --help"
expect_grep "$TMP/help.out" "--tolerance PCT" "diff --help"

# 7. a gate that compares nothing, or less than its baseline, is not ok:
# exit 3 and a "not ok" line (old code: "0 metrics compared ... ok", exit 0)
ig_client 30 other -t tcp_bw -s 4K -D 0.3 --warmup 0.1 --baseline "$A"
expect_rc 3 "--baseline a.json at another size"
expect_grep "$TMP/other.err" ": NOTHING COMPARED" "--baseline, other size"
expect_grep "$TMP/other.err" "not ok: no metric of the old run was compared" \
	"--baseline, other size"
python3 - "$A" "$TMP/empty.json" <<'PY' || die "cannot write empty.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = []
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
ig_run 10 empty diff "$A" "$TMP/empty.json"
expect_rc 3 "diff a empty.json (no results)"
expect_grep "$TMP/empty.out" "summary: 0 metrics compared" \
	"diff a empty.json"
expect_grep "$TMP/empty.out" ": NOTHING COMPARED" "diff a empty.json"
ig_client 30 fewer -t tcp_bw -D 0.3 --warmup 0.1 --baseline "$A" \
	--tolerance 1000
expect_rc 3 "--baseline a.json, tcp_lat not run"
expect_grep "$TMP/fewer.err" "tcp_lat 2 streams 1 only in the old run" \
	"--baseline, tcp_lat not run"
expect_grep "$TMP/fewer.err" ": INCOMPLETE" "--baseline, tcp_lat not run"
expect_grep "$TMP/fewer.err" "not ok: the new run lacks 1 result and 0 metrics of" \
	"--baseline, tcp_lat not run"

ig_done
