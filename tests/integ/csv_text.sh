#!/bin/bash
# csv_text.sh: the CSV and text reports, and -o FILE.
#   bash tests/integ/csv_text.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init csv_text "$@"
ig_start_server
RUN=(-t tcp_bw,tcp_lat -D 0.5 --warmup 0.1)

# CSV: a header and one row per test, every row as wide as the header.
ig_client 30 csv "${RUN[@]}" --format csv
expect_client_ok csv "--format csv"
rc=0
out=$(python3 - "$TMP/csv.out" <<'PY' 2>&1
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = []
if len(rows) != 3:
    bad.append("want a header and 2 rows, got %d lines" % len(rows))
else:
    hdr = rows[0]
    if hdr[:2] != ["test", "transport"]:
        bad.append("header starts %r, want ['test', 'transport']" % hdr[:2])
    for r in rows[1:]:
        if len(r) != len(hdr):
            bad.append("row %r has %d fields, the header %d" %
                       (r[:1], len(r), len(hdr)))
    if [r[0] for r in rows[1:]] != ["tcp_bw", "tcp_lat"]:
        bad.append("tests %r, want tcp_bw, tcp_lat" %
                   [r[0] for r in rows[1:]])
    for r in rows[1:]:
        rec = dict(zip(hdr, r))
        for k in ("iterations", "seconds", "bw_gbps", "msg_rate"):
            try:
                if not float(rec.get(k, "")) > 0:
                    bad.append("%s: %s = %r, want > 0" % (r[0], k, rec[k]))
            except ValueError:
                bad.append("%s: %s = %r, not a number" %
                           (r[0], k, rec.get(k)))
        if rec.get("transport") != "tcp":
            bad.append("%s: transport %r" % (r[0], rec.get("transport")))
for b in bad:
    print(b)
if bad:
    print("the CSV was:\n" + open(sys.argv[1]).read())
sys.exit(1 if bad else 0)
PY
) || rc=$?
if [[ $rc == 0 ]]; then
	pass "CSV: header + 2 rows of equal width"
else
	fail "CSV report: $out"
fi

# Text: the units line and one row per test.
ig_client 30 text "${RUN[@]}"
expect_client_ok text "--format text (default)"
expect_grep "$TMP/text.out" "Gb/s = 10^9 bit/s" "text report units line"
for t in tcp_bw tcp_lat; do
	if grep -qE "^${t}[[:space:]]+tcp[[:space:]]" "$TMP/text.out"; then
		pass "text report has a $t row"
	else
		fail "text report has no '$t tcp ...' row:" \
			"$(cat "$TMP/text.out")"
	fi
done

# -o FILE: the report goes to FILE, nothing to stdout.
for fmt in json text; do
	f=$TMP/report.$fmt
	ig_client 30 out_$fmt "${RUN[@]}" --format $fmt -o "$f"
	expect_client_ok out_$fmt "--format $fmt -o FILE"
	if [[ -s $TMP/out_$fmt.out ]]; then
		fail "-o FILE --format $fmt: stdout not empty:" \
			"$(head -c 500 "$TMP/out_$fmt.out")"
	else
		pass "-o FILE --format $fmt: stdout empty"
	fi
	[[ -s $f ]] || fail "-o FILE --format $fmt: $f missing or empty"
done
ig_json_check "$TMP/report.json" "-o FILE --format json" <<'PY'
check(d.get("schema") == "ibgap/1", "schema %r" % d.get("schema"))
check([r.get("test") for r in d.get("results", [])] == ["tcp_bw", "tcp_lat"],
      "results %r" % d.get("results"))
PY
expect_grep "$TMP/report.text" "Gb/s = 10^9 bit/s" "-o FILE text report"

# -o into a directory that does not exist: exit 2 before the run (a bad
# option value), one line naming it.
ig_client 30 out_bad -t tcp_lat -n 10 -o "$TMP/no/such/dir/r.txt"
expect_rc 2 "-o into a missing directory"
expect_one_line "$TMP/out_bad.err" "-o into a missing directory"
expect_grep "$TMP/out_bad.err" "$TMP/no/such/dir/r.txt" \
	"-o into a missing directory"

check "server still running" ig_server_alive
ig_done
