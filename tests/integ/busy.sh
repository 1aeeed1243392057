#!/bin/bash
# busy.sh: one session at a time.  While a client runs a 3 s test a second
# client is told "busy" (exit 1, one line); after the first ends a third
# client is served.
#   bash tests/integ/busy.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init busy "$@"
ig_start_server

ig_bg long client -p "$SRV_PORT" -t tcp_bw -D 3 --warmup 0.1 --format json \
	127.0.0.1
long=$BG_PID
# wait until the server has started the long session
for _ in $(seq 100); do
	grep -q "session started" "$SRV_LOG" && break
	sleep 0.05
done
grep -q "session started" "$SRV_LOG" ||
	die "the first client's session did not start: $(cat "$TMP/long.err")"

ig_client 10 second -t tcp_lat -n 100 --warmup 0
expect_rc 1 "second client while a session runs"
expect_one_line "$TMP/second.err" "second client while a session runs"
if grep -qi busy "$TMP/second.err"; then
	pass "second client's message says busy"
else
	fail "second client's message does not say busy:" \
		"$(cat "$TMP/second.err")"
fi
if ig_wait_pid "$long" 0.01 && [[ $RC == 124 ]]; then
	pass "the busy answer came while the first client still ran"
else
	fail "the first client ended (exit $RC) before the busy check; the" \
		"check proved nothing"
fi

ig_wait_pid "$long" 20
expect_rc 0 "first client (-D 3)" ||
	ig_log "first client stderr: $(cat "$TMP/long.err")"
ig_json_check "$TMP/long.out" "first client's report" <<'PY'
r = d["results"][0]
check(r["test"] == "tcp_bw" and r["iterations"] > 0, "result %r" % r)
check(1.5 <= r["seconds"] <= 9, "seconds %r for -D 3" % r["seconds"])
PY

ig_client 20 third -t tcp_lat -n 100 --warmup 0 --format json
expect_client_ok third "third client after the first ended"
check "server alive" ig_server_alive
ig_done
