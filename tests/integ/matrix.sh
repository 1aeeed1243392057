#!/bin/bash
# matrix.sh: -P and --window lists (the streams x window matrix) of tcp_bw
# over loopback: 2 streams x 2 windows give 4 results in the plan's order
# with their streams and windows in JSON, text and CSV; a matrix baseline
# pairs with a matrix run; bad lists exit 2 with one line.
#   bash tests/integ/matrix.sh /abs/path/to/ibgap
IG_LIMIT=${IG_LIMIT:-90}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init matrix "$@"
ig_start_server

M=(-t tcp_bw -P 1,2 --window 64K,256K -D 0.2 --warmup 0.05)

# 1. JSON: 4 results, sizes outer, then streams, then windows; each with
# its streams, the window requested and what the kernel gave
ig_client 60 json "${M[@]}" --format json --save-baseline "$TMP/base.json"
expect_client_ok json "-P 1,2 --window 64K,256K --format json" &&
	ig_json_check "$TMP/json.out" "matrix JSON" <<'PY'
res = d.get("results") or []
got = [(r.get("streams"), (r.get("window") or {}).get("requested"))
       for r in res]
want = [(1, 65536), (1, 262144), (2, 65536), (2, 262144)]
check(got == want, "(streams, window.requested) %r, want %r" % (got, want))
for r in res:
    p = "streams %r window %r: " % (r.get("streams"), r.get("window"))
    check(r.get("test") == "tcp_bw" and r.get("size") == 65536,
          p + "test %r size %r" % (r.get("test"), r.get("size")))
    w = r.get("window") or {}
    req = w.get("requested") or 0
    # Linux reports twice the request, unless wmem_max/rmem_max capped it
    # (then the result says so)
    for k in ("snd", "rcv"):
        v = w.get(k)
        check(isinstance(v, int) and v > 0, p + "window.%s %r" % (k, v))
        if isinstance(v, int) and v < 2 * req:
            check("capped" in (r.get("warning") or ""),
                  p + "window.%s %d < 2 x %d without a warning" % (k, v, req))
    check(r.get("bw_gbps", 0) > 0, p + "bw_gbps %r" % r.get("bw_gbps"))
    ps = r.get("per_stream") or []
    if r.get("streams") == 2:
        check(len(ps) == 2 and all(s.get("iterations", 0) > 0 for s in ps),
              p + "per_stream %r" % ps)
PY

# 2. text: one row per combination with a window column, then the table
# of streams down, windows across
ig_client 60 text "${M[@]}" --baseline "$TMP/base.json" --tolerance 1000
expect_client_ok text "-P 1,2 --window 64K,256K, text, --baseline" &&
	python3 - "$TMP/text.out" <<'PY' >"$TMP/text.check" 2>&1
import re, sys
lines = open(sys.argv[1]).read().split("\n")
bad = []
head = [l for l in lines if l.startswith("test ")]
if len(head) != 1 or head[0].split()[:5] != ["test", "transport", "size",
                                             "streams", "window"]:
    bad.append("header %r, want test transport size streams window ..." %
               head)
rows = [l.split()[:5] for l in lines if re.match(r"tcp_bw +tcp ", l)]
want = [["tcp_bw", "tcp", "64K", s, w] for s in ("1", "2")
        for w in ("64K", "256K")]
if rows != want:
    bad.append("rows %r, want %r" % (rows, want))
i = lines.index("tcp_bw 64K, Gb/s: streams down, window across") \
    if "tcp_bw 64K, Gb/s: streams down, window across" in lines else -1
if i < 0:
    bad.append("no line 'tcp_bw 64K, Gb/s: streams down, window across'")
else:
    m = [l.split() for l in lines[i + 1:i + 4]]
    if m[0] != ["streams", "64K", "256K"]:
        bad.append("matrix header %r" % m[0])
    for k, s in ((1, "1"), (2, "2")):
        if len(m[k]) != 3 or m[k][0] != s or \
                not all(float(x) > 0 for x in m[k][1:]):
            bad.append("matrix row for %s streams: %r" % (s, m[k]))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
if [[ $? == 0 ]]; then
	pass "text: 4 rows with streams and window, the 2 x 2 table"
else
	fail "text report: $(cat "$TMP/text.check")"$'\n'"$(cat "$TMP/text.out")"
fi
# the baseline of the same matrix: every combination paired, by window
n=$(grep -c "^tcp_bw 64K streams [12] window \(64K\|256K\) bw_gbps" \
	"$TMP/text.err")
if [[ $n == 4 ]] && ! grep -q "^tcp_bw .* only in the" "$TMP/text.err"; then
	pass "--baseline of a matrix: 4 pairs, none alone"
else
	fail "--baseline of a matrix: $n pairs:" "$(cat "$TMP/text.err")"
fi

# 3. CSV: window_requested per row
ig_client 60 csv -t tcp_bw -P 2 --window 64K,128K -D 0.1 --warmup 0.05 \
	--format csv
expect_client_ok csv "--window 64K,128K --format csv" &&
	python3 - "$TMP/csv.out" <<'PY' >"$TMP/csv.check" 2>&1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["streams"], r["window_requested"]) for r in rows]
want = [("2", "65536"), ("2", "131072")]
ok = got == want and all(int(r["window_snd"]) > 0 for r in rows)
print("ok" if ok else "(streams, window_requested) %r, want %r; %r" %
      (got, want, rows))
sys.exit(0 if ok else 1)
PY
if [[ $? == 0 ]]; then
	pass "CSV: streams and window_requested per row"
else
	fail "CSV: $(cat "$TMP/csv.check")"
fi

# 4. bad lists: exit 2, one line naming the value and what is allowed
bad()
{
	local value=$1 allowed=$2

	shift 2
	ig_client 10 bad "$@"
	expect_rc 2 "$*"
	expect_one_line "$TMP/bad.err" "$*"
	expect_grep "$TMP/bad.err" "$value" "$*"
	expect_grep "$TMP/bad.err" "$allowed" "$*"
}
bad "'0'" "1 to 64" -P 0,2
bad "'x'" "byte count" --window 1K,x
bad "'2'" "each value once" -P 2,4,2
bad "324 combinations" "at most 256" -s 1:64M -P 1,2,4,8 --window 1K,2K,4K
check "server alive after the bad lists" ig_server_alive
ig_done
