#!/bin/bash
# reverse.sh: -R over loopback: the server sends and the client receives.
# tcp_bw -R reports direction "reverse", its figures are the server's
# (bytes = iterations x size, -n counts the server's messages) and the
# client's own receivers counted exactly those bytes (rx_bytes); a
# forward run says "forward" and the server's receivers' count; latency
# tests in the same list ignore -R; -R with --bidir or with latency tests
# only is a bad option; and a server older than -R (it echoes no
# direction in READY: a fake one here) makes the client fail with one
# line instead of measuring the other direction.
#   bash tests/integ/reverse.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init reverse "$@"
ig_start_server --timeout 5

ig_client 30 dur -t tcp_bw,tcp_lat -D 0.5 --warmup 0.1 -R --format json
expect_client_ok dur "tcp_bw,tcp_lat -R"
ig_json_check "$TMP/dur.out" "-R -D 0.5" <<'PY'
bw, lat = d["results"]
check(bw.get("direction") == "reverse", "direction %r" % bw.get("direction"))
check(bw["bytes"] > 0 and bw["bw_gbps"] > 0, "no bytes moved: %r" % bw)
check(bw["bytes"] == bw["iterations"] * bw["size"], "bytes != iterations x size")
check(bw.get("rx_bytes") == bw["bytes"],
      "client received %r, server sent %r" % (bw.get("rx_bytes"), bw["bytes"]))
check(0.25 < bw["seconds"] < 5, "seconds %r for -D 0.5" % bw["seconds"])
check("bidir" not in bw, "reverse run reports bidir")
check("direction" not in lat, "tcp_lat has a direction")
check(lat["iterations"] > 0, "tcp_lat did not run")
check("us_per_tr" in lat["cpu"]["client"] and
      "us_per_kib" not in lat["cpu"]["client"], "tcp_lat cpu: %r" % lat["cpu"])
check("us_per_kib" in bw["cpu"]["client"] and
      "us_per_tr" not in bw["cpu"]["client"], "tcp_bw cpu: %r" % bw["cpu"])
PY

ig_client 30 iters -t tcp_bw -n 3000 -P 2 --warmup 0 -R --format json
expect_client_ok iters "tcp_bw -n 3000 -P 2 -R"
ig_json_check "$TMP/iters.out" "-R -n 3000 -P 2" <<'PY'
r = d["results"][0]
check(r["iterations"] == 6000, "iterations %d, want 6000" % r["iterations"])
check(r.get("rx_bytes") == 6000 * 65536, "rx_bytes %r" % r.get("rx_bytes"))
check([s["iterations"] for s in r["per_stream"]] == [3000, 3000],
      "per_stream %r" % r["per_stream"])
PY

ig_client 30 fwd -t tcp_bw -n 2000 --warmup 0 --format json
expect_client_ok fwd "tcp_bw forward"
ig_json_check "$TMP/fwd.out" "forward -n 2000" <<'PY'
r = d["results"][0]
check(r.get("direction") == "forward", "direction %r" % r.get("direction"))
check(r.get("rx_bytes") == 2000 * 65536, "server's rx_bytes %r" % r.get("rx_bytes"))
PY

ig_client 30 csv -t tcp_bw -D 0.2 --warmup 0 -R --format csv
expect_client_ok csv "-R --format csv"
check "CSV says direction reverse" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if rows[0]["direction"] == "reverse" else 1)' "$TMP/csv.out"
ig_client 30 text -t tcp_bw -D 0.2 --warmup 0 -R
expect_client_ok text "-R text"
expect_grep "$TMP/text.out" "direction: tcp_bw: reverse (server -> client)" \
	"text names the direction"

for bad in "-R --bidir" "--bidir --reverse" "-R -t send_lat" \
	"-R -t tcp_lat,write_lat"; do
	# shellcheck disable=SC2086
	ig_client 10 bad $bad
	expect_rc 2 "client $bad"
	expect_one_line "$TMP/bad.err" "client $bad"
done
expect_grep "$TMP/bad.err" "tcp_lat,write_lat" \
	"-R with latency tests only names them"
check "server alive after the -R runs" ig_server_alive

# An old server: HELLO -> WELCOME, SETUP -> XPORT, takes the data
# connection, READY without "direction".  The client must refuse it.
python3 - "$TMP/old.port" >"$TMP/old.log" 2>&1 <<'PY' &
import sys, igwire as w
c, d, setup = w.fake_setup(sys.argv[1], 10)
print("setup reverse=%r" % setup.get("reverse"))
c.sendall(w.msg(w.READY, {"window_rcv": 0, "window_snd": 0}))
t, b = w.recv_msg(c)
print("after READY: type %r %r" % (t, b))
PY
OLD_PID=$!
ig_track "$OLD_PID"
ig_fake_port "$TMP/old.port"
ig_run 20 old client -p "$FAKE_PORT" -t tcp_bw -D 0.2 -R 127.0.0.1
expect_rc 1 "-R against a server older than -R"
expect_one_line "$TMP/old.err" "-R against an old server"
expect_grep "$TMP/old.err" "older than -R" \
	"the line says the server is older than -R"
wait "$OLD_PID"
check "the old server saw reverse=1, then the client's ERROR" \
	grep -q "after READY: type 4" "$TMP/old.log"
ig_done
