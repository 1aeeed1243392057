#!/bin/bash
# t_verbs_errors.sh: verbs failures a user meets end the client with exit
# 1 and one clear line, and leave the server serving:
#   --device nosuchdev, an --ib-port the device does not have, a too-low
#   RLIMIT_MEMLOCK, a server address with no RDMA device (127.0.0.1);
#   after each, a new client is served at once (the client tells the
#   server why it gave up) and a normal send_lat runs;
#   the server killed (SIGKILL) during write_bw: the client exits non-zero
#   within its --timeout + 5 s with one line;
#   the client killed during send_bw: a new client is then served.
#   tests/rxe/rxe-run bash tests/rxe/t_verbs_errors.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  75-100 s in QEMU.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_verbs_errors 300 "$@"
# The session timeout is the client's --timeout: the failing clients use
# 5 s, so that a server which waits it out (busy for ~5 s) stands out from
# one that ends the session on the client's ERROR (free within FREED s;
# the grace covers its teardown when the next client comes very fast).
FTIMEOUT=5
FREED=2

# setup_fail TAG WHAT CMD...: CMD (an ibgap client) must fail in set-up
# with exit 1 and one line on stderr ($TMP/TAG.err, for the caller to
# grep).  Right after it, with nothing started in between (a process
# start costs up to 1 s in QEMU), a normal send_lat must be served.
setup_fail()
{
	local tag=$1 what=$2

	shift 2
	rx_run 30 "$tag" "$@"
	T_FAIL=$(rx_now)
	FAIL_RC=$RC
	served_after "$what" "$tag"
	RC=$FAIL_RC
	expect_rc 1 "$what"
	expect_one_line "$TMP/$tag.err" "$what"
}

# served_after WHAT TAG: a send_lat, retried while the server is busy,
# right after a client that failed at T_FAIL (rx_now); then the checks.
served_after()
{
	local what=$1 tag=after_$2 freed took

	rx_served $((FTIMEOUT + 5)) "$tag" -t send_lat -n 50 --warmup 0 \
		--timeout 10 --format json
	took=$(rx_since "$T_FAIL")
	# seconds from the failure to the start of the try that was served
	freed=$(((TRY_T0 - T_FAIL) / 10000))
	freed=$(printf '%d.%02d' $((freed / 100)) $((freed % 100)))
	if [[ $RC != 0 ]]; then
		fail "$what: then no send_lat served within $((FTIMEOUT + 5)) s" \
			"(exit $RC, $TRIES tries): $(cat "$TMP/$tag.err")"
		return
	fi
	pass "$what: then send_lat served (done $took s after the failure," \
		"$TRIES tries)"
	rx_jq "$TMP/$tag.out" "$what: then send_lat" \
		'doc(["send_lat"]), (.results[] | verbs_ok($dev; 50; 0))'
	if ((TRIES == 1)) || rx_le "$freed" "$FREED"; then
		pass "$what: the server took the next client $freed s after" \
			"the failure"
	else
		fail "$what: the next client was told busy $((TRIES - 1))" \
			"times and only served $freed s after the failure: the" \
			"server kept the failed session (until --timeout" \
			"$FTIMEOUT?) instead of ending it on the client's ERROR"
	fi
	check "$what: server alive" rx_server_alive
}

CL=(client "$IG_RDMA_ADDR")
OPTS=(-n 50 --warmup 0 --timeout "$FTIMEOUT" --format json)
rx_start_server --timeout 3
CL+=(-p "$SRV_PORT")

# 1. a device that does not exist: name it and the one that owns the route
what="--device nosuchdev"
setup_fail nodev "$what" "$IBGAP" "${CL[@]}" -t send_lat --device nosuchdev \
	"${OPTS[@]}"
expect_grep "$TMP/nodev.err" nosuchdev "$what"
expect_grep "$TMP/nodev.err" "$IG_RDMA_DEV" "$what"

# 2. a port the device does not have
nports=$(find "/sys/class/infiniband/$IG_RDMA_DEV/ports" -mindepth 1 \
	-maxdepth 1 | wc -l)
bad=$((nports + 1))
what="--ib-port $bad ($IG_RDMA_DEV has $nports)"
setup_fail badport "$what" "$IBGAP" "${CL[@]}" -t send_lat --ib-port "$bad" \
	"${OPTS[@]}"
expect_grep "$TMP/badport.err" "--ib-port $bad" "$what"
expect_grep "$TMP/badport.err" "$IG_RDMA_DEV" "$what"

# 3. RLIMIT_MEMLOCK 64 KiB, write_bw -s 1M registers 2 MiB.  Root has
# CAP_IPC_LOCK, which lifts the limit for ib_umem_get: try root first,
# then the same as nobody (setpriv drops the capability).
memlock_case()
{
	local tag=$1 what=$2 err=''

	shift 2
	rx_run 30 "$tag" "$@"
	T_FAIL=$(rx_now)
	if [[ $RC == 0 ]]; then
		rx_log "note: $what: registered 2 MiB under a 64 KiB" \
			"RLIMIT_MEMLOCK (CAP_IPC_LOCK?): limit not enforced"
		return 1
	fi
	IFS= read -r -d '' err <"$TMP/$tag.err"
	if [[ $err != *RLIMIT_MEMLOCK* &&
		$err == *[Pp]ermission\ denied* ]]; then
		rx_log "note: $what: cannot run ibgap there: $err"
		return 1
	fi
	FAIL_RC=$RC
	served_after "$what" "$tag"
	RC=$FAIL_RC
	expect_rc 1 "$what"
	expect_one_line "$TMP/$tag.err" "$what"
	expect_grep "$TMP/$tag.err" RLIMIT_MEMLOCK "$what"
	expect_grep "$TMP/$tag.err" "64 KiB" "$what"
	return 0
}
# -n 2: as root the test runs, and 1 MiB writes are slow in QEMU.
memcmd=("$IBGAP" "${CL[@]}" -t write_bw -s 1M -n 2 --warmup 0 \
	--timeout "$FTIMEOUT" --format json)
what="write_bw -s 1M under ulimit -l 64"
if ! memlock_case memlock "$what" bash -c 'ulimit -l 64 && exec "$@"' \
	memlock "${memcmd[@]}"; then
	if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
		memlock_case memlock_nobody "$what as uid 65534" \
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all bash -c 'ulimit -l 64 && exec "$@"' \
			memlock "${memcmd[@]}" ||
			rx_log "note: RLIMIT_MEMLOCK failure not provoked"
	else
		rx_log "note: RLIMIT_MEMLOCK failure not provoked (not root," \
			"or no setpriv)"
	fi
fi

# 4. an address with no RDMA device behind it: the control connection to
# 127.0.0.1 works, rdma_cm cannot reach it
what="send_lat to 127.0.0.1"
setup_fail lo "$what" "$IBGAP" client 127.0.0.1 -p "$SRV_PORT" -t send_lat \
	"${OPTS[@]}"
expect_grep "$TMP/lo.err" 127.0.0.1 "$what"
if grep -qiE 'RDMA|device' "$TMP/lo.err"; then
	pass "$what: the line says the address has no RDMA device"
else
	fail "$what: the line does not say that no RDMA device serves" \
		"127.0.0.1: $(cat "$TMP/lo.err")"
fi

# 5. the server killed in the middle of write_bw
CT=3
what="write_bw -D 20 --timeout $CT, server killed (SIGKILL)"
rx_start_server --timeout 3
rx_bg srvkill "$IBGAP" client "$IG_RDMA_ADDR" -p "$SRV_PORT" -t write_bw \
	-D 20 --warmup 0.2 --timeout "$CT" --format json
rx_wait_srv "session started" 1 10 ||
	fail "$what: no session started: $(cat "$TMP/srvkill.err")"
sleep 2
kill -KILL "$SRV_PID"
rx_wait_bg $((CT + 10))
if [[ $RC == 124 ]]; then
	fail "$what: client still running $ELAPSED s after the kill"
elif [[ $RC == 0 ]]; then
	fail "$what: client exited 0 after $ELAPSED s; want non-zero"
elif rx_le "$ELAPSED" $((CT + 5)); then
	pass "$what: client exit $RC after $ELAPSED s"
else
	fail "$what: client exit $RC after $ELAPSED s; want <= $((CT + 5)) s"
fi
expect_one_line "$TMP/srvkill.err" "$what: client stderr"

# 6. the client killed in the middle of send_bw
what="send_bw -D 20, client killed (SIGKILL)"
rx_start_server --timeout 3
rx_bg victim "$IBGAP" client "$IG_RDMA_ADDR" -p "$SRV_PORT" -t send_bw \
	-D 20 --warmup 0.2 --timeout 3 --format json
rx_wait_srv "session started" 1 10 ||
	fail "$what: no session started: $(cat "$TMP/victim.err")"
sleep 2
st=$(rx_pstate "$BG_PID")
if [[ -z $st || $st == Z ]]; then
	fail "$what: the client ended before the kill: $(cat "$TMP/victim.err")"
else
	# no "Killed" notice from bash for its timeout(1) parent
	disown "$BG_TPID"
	kill -KILL "$BG_PID"
	rx_wait_bg 5
	t_kill=$(rx_now)
	rx_served 8 after_victim -t send_lat -n 50 --warmup 0 --timeout 10 \
		--format json
	took=$(rx_since "$t_kill")
	if [[ $RC == 0 ]]; then
		pass "$what: new client served $took s after the kill ($TRIES tries)"
		rx_jq "$TMP/after_victim.out" "$what: then send_lat" \
			'doc(["send_lat"]), (.results[] | verbs_ok($dev; 50; 0))'
	else
		fail "$what: no client served within 8 s of the kill (exit" \
			"$RC): $(cat "$TMP/after_victim.err")"
	fi
	check "$what: server alive" rx_server_alive
fi
rx_done
