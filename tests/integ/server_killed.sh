#!/bin/bash
# server_killed.sh: a client whose server dies (SIGKILL) or stalls (SIGSTOP)
# in the middle of a test exits non-zero within its --timeout (2 s) + 3 s,
# with one line on stderr; a stall is reported as a timeout.  The last
# case repeats the tcp_bw stall with --timeout 3: a send that blocks for the
# timeout and then returns a short count must count as a stall, not as
# progress, or the client only gives up after two or three timeouts.
#   bash tests/integ/server_killed.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init server_killed "$@"
# scenario SIGNAL TEST [TIMEOUT]: the client must end within TIMEOUT + 3 s
scenario()
{
	local sig=$1 t=$2 TIMEOUT=${3:-2} tag=${1}_$2_${3:-2} what LIMIT

	LIMIT=$((TIMEOUT + 3))
	what="$t --timeout $TIMEOUT, server got SIG$sig"
	ig_start_server
	ig_bg "$tag" client -p "$SRV_PORT" -t "$t" -D 10 --warmup 0.1 \
		--timeout "$TIMEOUT" 127.0.0.1
	local cl=$BG_PID
	for _ in $(seq 100); do
		grep -q "session started" "$SRV_LOG" && break
		sleep 0.05
	done
	if ! grep -q "session started" "$SRV_LOG"; then
		fail "$what: no session started: $(cat "$TMP/$tag.err")"
		return
	fi
	sleep 1
	kill -"$sig" "$SRV_PID"
	ig_wait_pid "$cl" "$((LIMIT + 5))"
	if [[ $RC == 124 ]]; then
		fail "$what: client still running $ELAPSED s after the signal"
		kill -KILL "$cl" 2>/dev/null
	elif [[ $RC == 0 ]]; then
		fail "$what: client exited 0 after $ELAPSED s; want non-zero"
	elif awk -v e="$ELAPSED" -v l=$LIMIT 'BEGIN { exit !(e <= l) }'; then
		pass "$what: client exit $RC after $ELAPSED s"
	else
		fail "$what: client exit $RC after $ELAPSED s; want <= $LIMIT s"
	fi
	expect_one_line "$TMP/$tag.err" "$what: client stderr"
	if [[ $sig == STOP ]]; then
		if grep -qiE 'time|stall|no reply' "$TMP/$tag.err"; then
			pass "$what: the message names the timeout"
		else
			fail "$what: the message does not mention a" \
				"timeout or stall: $(cat "$TMP/$tag.err")"
		fi
	fi
	kill -CONT "$SRV_PID" 2>/dev/null
	kill -KILL "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" 2>/dev/null
}

for t in tcp_bw tcp_lat; do
	scenario KILL $t
	scenario STOP $t
done
scenario STOP tcp_bw 3
ig_done
