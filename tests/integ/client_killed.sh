#!/bin/bash
# client_killed.sh: a client killed (SIGKILL) in the middle of a test frees
# the server: a new client is served within the server's timeout (2 s),
# for tcp_bw and tcp_lat.
#   bash tests/integ/client_killed.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init client_killed "$@"
TIMEOUT=2
ig_start_server --timeout $TIMEOUT

n=0
for t in tcp_bw tcp_lat; do
	n=$((n + 1))
	ig_bg victim_$t client -p "$SRV_PORT" -t $t -D 5 --warmup 0.1 \
		--timeout $TIMEOUT 127.0.0.1
	victim=$BG_PID
	for _ in $(seq 100); do
		(($(grep -c "session started" "$SRV_LOG") >= n)) && break
		sleep 0.05
	done
	sleep 1
	ig_wait_pid "$victim" 0.01
	if [[ $RC != 124 ]]; then
		fail "$t: the -D 5 client ended (exit $RC) before the kill:" \
			"$(cat "$TMP/victim_$t.err")"
		continue
	fi
	kill -KILL "$victim"
	wait "$victim" 2>/dev/null
	killed=$(date +%s.%N)

	# Retry while the server still reports busy, up to timeout + 3 s.
	ok=0
	for try in $(seq 50); do
		ig_client 15 after_$t -t $t -n 200 --warmup 0 --format json
		if [[ $RC == 0 ]]; then
			ok=1
			break
		fi
		grep -qi busy "$TMP/after_$t.err" || break
		awk -v a="$killed" -v b="$(date +%s.%N)" -v l=$((TIMEOUT + 3)) \
			'BEGIN { exit !(b - a < l) }' || break
		sleep 0.2
	done
	took=$(awk -v a="$killed" -v b="$(date +%s.%N)" \
		'BEGIN { printf "%.2f", b - a }')
	if ((ok)); then
		pass "$t: new client served $took s after the kill ($try tries)"
	else
		fail "$t: no client served within $((TIMEOUT + 3)) s of the" \
			"kill (last exit $RC): $(cat "$TMP/after_$t.err")"
	fi
	check "$t: server alive after the kill" ig_server_alive
done
ig_done
