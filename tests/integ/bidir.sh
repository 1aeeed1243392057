#!/bin/bash
# bidir.sh: tcp_bw --bidir over loopback moves data both ways at once:
# the result has a bidir object whose figures are positive and add up,
# -n counts the client->server direction only, and --bidir is refused for
# nothing else (latency tests ignore it: a ping-pong is both ways).
#   bash tests/integ/bidir.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init bidir "$@"
ig_start_server --timeout 5

ig_client 30 dur -t tcp_bw,tcp_lat -D 0.5 --warmup 0.1 --bidir --format json
expect_client_ok dur "tcp_bw,tcp_lat --bidir"
ig_json_check "$TMP/dur.out" "--bidir -D 0.5" <<'PY'
bw, lat = d["results"]
b = bw.get("bidir")
check(isinstance(b, dict), "tcp_bw has no bidir object")
if isinstance(b, dict):
    check(b["forward_gbps"] == bw["bw_gbps"], "forward_gbps != bw_gbps")
    check(b["reverse_gbps"] > 0, "reverse_gbps %r" % b["reverse_gbps"])
    check(close(b["total_gbps"], b["forward_gbps"] + b["reverse_gbps"],
                1e-9), "total is not forward + reverse")
    check(close(b["reverse_gbps"], b["reverse_bytes"] * 8 /
                b["reverse_seconds"] / 1e9, 1e-6),
          "reverse_gbps is not its bytes over its seconds")
    check(0.25 < b["reverse_seconds"] < 5,
          "reverse_seconds %r for -D 0.5" % b["reverse_seconds"])
check("bidir" not in lat, "tcp_lat reports bidir")
PY

ig_client 30 iters -t tcp_bw -n 3000 -P 2 --warmup 0 --bidir --format json
expect_client_ok iters "tcp_bw -n 3000 -P 2 --bidir"
ig_json_check "$TMP/iters.out" "--bidir -n 3000 -P 2" <<'PY'
r = d["results"][0]
check(r["iterations"] == 6000, "iterations %d, want 6000" % r["iterations"])
check(r["bidir"]["reverse_bytes"] > 0, "no server->client data")
PY
check "server alive after the --bidir runs" ig_server_alive
ig_client 30 after -t tcp_bw -D 0.3 --warmup 0.1 --format json
expect_client_ok after "a plain run after --bidir ones"
# CSV and text show the reverse direction too (old code: forward only)
ig_client 30 csv -t tcp_bw -D 0.3 --warmup 0.1 --bidir --format csv
expect_client_ok csv "tcp_bw --bidir --format csv" &&
	check "CSV: reverse_gbps of the bidir row" python3 - "$TMP/csv.out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
r = rows[0] if rows else {}
ok = r.get("direction") == "bidir" and float(r.get("reverse_gbps") or 0) > 0
ok = ok and int(r.get("reverse_bytes") or 0) > 0
if not ok:
    print(rows)
sys.exit(0 if ok else 1)
PY
ig_client 30 text -t tcp_bw -D 0.3 --warmup 0.1 --bidir
expect_client_ok text "tcp_bw --bidir, text" &&
	check "text: the row ends with the reverse Gb/s" \
		grep -qE '^tcp_bw .*  reverse [0-9.]+ Gb/s' "$TMP/text.out"

ig_done
