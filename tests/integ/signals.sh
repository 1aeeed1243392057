#!/bin/bash
# signals.sh: SIGINT on the client mid-test stops it cleanly with the
# partial result marked partial (exit 130) and the server goes on serving;
# SIGTERM on the server ends the running session and the server exits 0;
# its client says that the server stopped (not the broken pipe or reset it
# saw) and exits 1, and the server's log says that it ended the session
# itself, in one line naming the client once (not that the client closed
# the control connection, the client's address twice).
#   bash tests/integ/signals.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init signals "$@"
IG_SRV_WAITABLE=1 ig_start_server --timeout 3

# 1. SIGINT during a 10 s tcp_bw, with tcp_lat still to come.
ig_bg int client -p "$SRV_PORT" -t tcp_bw,tcp_lat -D 10 --warmup 0.1 \
	--format json 127.0.0.1
sleep 1.5
kill -INT "$BG_PID"
ig_wait_pid "$BG_PID" 5
expect_rc 130 "client after SIGINT (stopped in $ELAPSED s)"
ig_json_check "$TMP/int.out" <<'PY'
r = d["results"]
check(len(r) == 1, "one result (tcp_lat did not run), got %d" % len(r))
check(r[0]["test"] == "tcp_bw", "the interrupted test is tcp_bw")
check(r[0].get("partial") is True, "the result is marked partial")
check(0.5 < r[0]["seconds"] < 5, "seconds %.3f: measured until SIGINT"
      % r[0]["seconds"])
check(r[0]["iterations"] > 0 and r[0]["bw_gbps"] > 0, "figures present")
check("SIGINT" in d.get("note", ""), "the note says SIGINT")
PY
check "server still serving after the client's SIGINT" ig_server_alive
ig_client 30 after -t tcp_lat -D 0.3 --warmup 0.1 --format json
expect_client_ok after "a client after the interrupted one"

# 2. SIGTERM on the server during a session.
ig_bg long client -p "$SRV_PORT" -t tcp_bw -D 10 --warmup 0.1 127.0.0.1
LONG_PID=$BG_PID
sleep 1.5
kill -TERM "$SRV_PID"
ig_wait_pid "$SRV_PID" 6
expect_rc 0 "server after SIGTERM mid-session (exited in $ELAPSED s)"
ig_wait_pid "$LONG_PID" 8
expect_rc 1 "the client of the ended session"
expect_one_line "$TMP/long.err" "client whose server was stopped"
expect_grep "$TMP/long.err" \
	"tcp_bw: the server at 127.0.0.1:$SRV_PORT stopped (SIGTERM) during" \
	"client whose server was stopped"
# the server's lines after its "signal: stopping": the stopped session's
sed -n '/signal: stopping$/,$p' "$SRV_LOG" | tail -n +2 >"$TMP/end.log"
expect_one_line "$TMP/end.log" "the server's log on the stopped session"
expect_grep "$TMP/end.log" \
	": the server was stopped (SIGTERM) and ended this session" \
	"the server's log"
check "the server's line names the client once: $(cat "$TMP/end.log")" \
	test "$(grep -o '127\.0\.0\.1' "$TMP/end.log" | wc -l)" = 1
ig_done
