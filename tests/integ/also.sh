#!/bin/bash
# also.sh: --also ADDR runs the tcp tests a second time against another
# address of the same server, as the column tcp@ADDR in text, JSON and CSV
# and in baselines; where nothing listens at ADDR that column fails with
# its reason and the rest of the report stands (exit 1, as a failed test);
# a bad ADDR is exit 2 with one line.  Loopback only: 127.0.0.1 and
# 127.0.0.2 (every 127/8 address is this host's, on lo).
#   bash tests/integ/also.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
IG_LIMIT=${IG_LIMIT:-90}
ig_init also "$@"
RUN=(-t tcp_bw,tcp_lat -D 0.3 --warmup 0.1 --also 127.0.0.2)

# 1. a server on the default bind (every address) answers on both
IG_SRV_BIND= ig_start_server
ig_client 30 txt "${RUN[@]}"
expect_client_ok txt "--also 127.0.0.2, text"
for t in tcp_bw tcp_lat; do
	check "text: a $t row on tcp" \
		grep -qE "^$t +tcp +[0-9]+K? +1 +[0-9.]+ +[0-9.]+" "$TMP/txt.out"
	check "text: a $t row on tcp@127.0.0.2" \
		grep -qE "^$t +tcp@127\.0\.0\.2 +[0-9]+K? +1 +[0-9.]+ +[0-9.]+" \
		"$TMP/txt.out"
done
expect_no_grep "$TMP/txt.out" "failed" "text of a good --also"

ig_client 30 json "${RUN[@]}" --format json --save-baseline "$TMP/base.json"
expect_client_ok json "--also 127.0.0.2, JSON"
ig_json_check "$TMP/json.out" "--also 127.0.0.2 JSON" <<'PY'
res = d["results"]
got = [(r.get("test"), r.get("transport")) for r in res]
want = [("tcp_bw", "tcp"), ("tcp_lat", "tcp"),
        ("tcp_bw", "tcp@127.0.0.2"), ("tcp_lat", "tcp@127.0.0.2")]
check(got == want, "results %r, want %r" % (got, want))
for r in res:
    check(r.get("iterations", 0) > 0 and r.get("bw_gbps", 0) > 0,
          "%s on %s: no figures: %r" % (r.get("test"), r.get("transport"), r))
    check("error" not in r, "an error in a good run: %r" % r)
    if r.get("test") == "tcp_lat":
        check(r.get("lat_us", {}).get("p50", 0) > 0, "no p50: %r" % r)
PY

ig_client 30 csv "${RUN[@]}" --format csv
expect_client_ok csv "--also 127.0.0.2, CSV"
check "CSV: four rows, test and transport" python3 - "$TMP/csv.out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], [r for r in rows[1:5]]
got = [(r[0], r[1]) for r in body]
want = [("tcp_bw", "tcp"), ("tcp_lat", "tcp"),
        ("tcp_bw", "tcp@127.0.0.2"), ("tcp_lat", "tcp@127.0.0.2")]
ok = got == want and all(len(r) == len(head) for r in body)
ok = ok and all(float(r[head.index("bw_gbps")]) > 0 for r in body)
if not ok:
    print(rows[:6])
sys.exit(0 if ok else 1)
PY

# the baseline round-trips: tcp@127.0.0.2 results are keys of their own
ig_run 10 diff diff "$TMP/base.json" "$TMP/base.json"
expect_rc 0 "diff of the --also baseline with itself"
expect_grep "$TMP/diff.out" "tcp_bw@127.0.0.2 64K streams 1 bw_gbps" \
	"diff: the tcp@ADDR column's own line"
expect_grep "$TMP/diff.out" "tcp_bw 64K streams 1 bw_gbps" \
	"diff: the tcp column's line"
expect_grep "$TMP/diff.out" "0 results only in the old run, 0 only in the new" \
	"diff: every result paired"
# (a loaded machine can make a p99 worse by more than any tolerance: the
# check is the pairing, so exit 1, a regression, is no failure here)
ig_client 30 again "${RUN[@]}" --baseline "$TMP/base.json" --tolerance 1000
check "--also with --baseline of an --also run: exit 0 or 1 ($RC)" \
	test "$RC" -le 1
expect_grep "$TMP/again.err" "tcp_lat@127.0.0.2 2 streams 1 lat_us.p50" \
	"--baseline: the tcp@ADDR column compared"
expect_grep "$TMP/again.err" \
	"0 results only in the old run, 0 only in the new" \
	"--baseline: every result paired"
kill -TERM "$SRV_PID"

# 2. a server bound to 127.0.0.1 alone: nothing listens at 127.0.0.2
IG_SRV_BIND=127.0.0.1 ig_start_server
ig_client 30 ftxt "${RUN[@]}"
expect_rc 1 "--also where nothing listens"
for t in tcp_bw tcp_lat; do
	check "text: $t on tcp stands" \
		grep -qE "^$t +tcp +[0-9]+K? +1 +[0-9.]+ +[0-9.]+" "$TMP/ftxt.out"
	check "text: $t on tcp@127.0.0.2 failed with the reason" \
		grep -qE "^$t +tcp@127\.0\.0\.2 +[0-9]+K? +1  failed: cannot connect to 127\.0\.0\.2 port [0-9]+: Connection refused" \
		"$TMP/ftxt.out"
done
expect_grep "$TMP/ftxt.err" "ibgap: tcp@127.0.0.2: cannot connect" \
	"stderr names the column"

ig_client 30 fjson "${RUN[@]}" --format json
expect_rc 1 "--also where nothing listens, JSON"
ig_json_check "$TMP/fjson.out" "--also failed JSON" <<'PY'
res = d["results"]
check(len(res) == 4, "%d results, want 4" % len(res))
for r in res[:2]:
    check(r.get("transport") == "tcp" and r.get("bw_gbps", 0) > 0,
          "the tcp column does not stand: %r" % r)
for r in res[2:]:
    check(r.get("transport") == "tcp@127.0.0.2", "transport %r" % r)
    check("Connection refused" in r.get("error", ""), "no reason: %r" % r)
    check("bw_gbps" not in r, "figures in a failed result: %r" % r)
PY

ig_client 30 fcsv "${RUN[@]}" --format csv
expect_rc 1 "--also where nothing listens, CSV"
check "CSV: the failed column's rows carry the reason" python3 - \
	"$TMP/fcsv.out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], rows[1:5]
w = head.index("warning")
ok = all(len(r) == len(head) for r in body)
ok = ok and [r[1] for r in body] == ["tcp", "tcp"] + ["tcp@127.0.0.2"] * 2
ok = ok and all(r[w].startswith("failed: cannot connect") and
                r[head.index("bw_gbps")] == "" for r in body[2:])
ok = ok and all(float(r[head.index("bw_gbps")]) > 0 for r in body[:2])
if not ok:
    print(rows[:6])
sys.exit(0 if ok else 1)
PY
check "server still running" ig_server_alive

# 3. bad values: exit 2, one line naming the value
ig_client 10 bad --also not-an-address
expect_rc 2 "--also not-an-address"
expect_one_line "$TMP/bad.err" "--also not-an-address"
expect_grep "$TMP/bad.err" "'not-an-address'" "the bad ADDR is named"
ig_client 10 notcp -t write_bw --also 127.0.0.2
expect_rc 2 "--also without a tcp test"
expect_one_line "$TMP/notcp.err" "--also without a tcp test"
ig_done
