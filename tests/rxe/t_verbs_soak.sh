#!/bin/bash
# t_verbs_soak.sh: one server serves 50 sequential verbs sessions (the four
# tests in turn, -n 50) without leaking: its open file descriptors do not
# grow from session 5 to the last, its VmRSS grows by at most 10% + 2
# MiB (not compared in an ASan build, whose LeakSanitizer looks at the
# server's exit instead), afterwards it holds no RDMA objects (rdma
# resource show), and it exits on SIGTERM.  In an ASan build 10 sessions
# (each of the four tests twice or more): LeakSanitizer names a leak of any one
# session, the descriptors are compared from session 5 to 10, and each
# session costs about 2 s of the CI's ASan guest (docs/design.md, "CI").
#   tests/rxe/rxe-run bash tests/rxe/t_verbs_soak.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  60-190 s in QEMU
# (50 sessions take 40-125 s, depending on the load of the host).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_verbs_soak 400 "$@"
rx_start_server --timeout 10
rx_log "server pid $SRV_PID ($(<"/proc/$SRV_PID/comm"))"
# ASan keeps freed memory in quarantine: its VmRSS says nothing of leaks
# (LeakSanitizer does, when the server exits below).
asan=
[[ $(<"/proc/$SRV_PID/maps") == *libasan* ]] && asan=1
SESSIONS=50
[[ -n $asan ]] && SESSIONS=10

# Waits until the server has logged N ended sessions and its handler
# thread is gone (Threads back to 1), so that the session's resources are
# released before we look.
settle()
{
	local n=$1 i

	for ((i = 0; i < 100; i++)); do
		status_field Threads
		(($(rx_srv_count "session ended") >= n)) && [[ $FIELD == 1 ]] &&
			return 0
		sleep 0.1
	done
	rx_log "note: after session $n: $(rx_srv_count "session ended")" \
		"sessions ended, $FIELD threads"
}

# status_field NAME: FIELD = the number after "NAME:" in the server's
# /proc/PID/status (bash only: a process start costs ~0.5 s in QEMU).
status_field()
{
	local k v rest

	FIELD=
	while read -r k v rest; do
		[[ $k == "$1:" ]] && { FIELD=$v; return 0; }
	done <"/proc/$SRV_PID/status"
}

# USAGE = "FDS RSS_KIB" of the server.
usage_now()
{
	local fds=("/proc/$SRV_PID/fd"/*)

	status_field VmRSS
	USAGE="${#fds[@]} $FIELD"
}

tests=(send_bw write_bw send_lat write_lat)
failed=0
outs=()
t0=$(rx_now)
for ((i = 1; i <= SESSIONS; i++)); do
	t=${tests[(i - 1) % 4]}
	rx_client 60 s$i -t "$t" -n 50 --warmup 0 --timeout 10 --format json
	if [[ $RC != 0 ]]; then
		failed=$((failed + 1))
		fail "session $i ($t): exit $RC: $(cat "$TMP/s$i.err")"
		((failed >= 3)) && die "3 sessions failed; giving up"
		continue
	fi
	outs+=("$TMP/s$i.out")
	if ((i == 5)); then
		settle 5
		usage_now
		read -r fd5 rss5 <<<"$USAGE"
		rx_log "after session 5: $fd5 fds, VmRSS $rss5 KiB"
	fi
done
settle $SESSIONS
usage_now
read -r fd_end rss_end <<<"$USAGE"
rx_log "after session $SESSIONS: $fd_end fds, VmRSS $rss_end KiB" \
	"($SESSIONS sessions in $(rx_since "$t0") s)"
((failed == 0)) && pass "$SESSIONS sessions served"
# One jq for all reports (jq costs ~1 s to start in QEMU): one verbs
# result of 50 iterations each, complete and consistent.
if ((${#outs[@]})); then
	cat "${outs[@]}" >"$TMP/all.json"
	rx_jq "$TMP/all.json" "the ${#outs[@]} session reports" \
		'doc([.results[0].test]), (.results[] | verbs_ok($dev; 50; 0))'
fi

if [[ -z ${fd5:-} || -z $fd_end ]]; then
	fail "could not read the server's fds/VmRSS"
elif ((fd_end > fd5)); then
	fail "open fds grew from $fd5 (session 5) to $fd_end (session" \
		"$SESSIONS): $(ls -l "/proc/$SRV_PID/fd" 2>&1)"
else
	pass "open fds: $fd5 after session 5, $fd_end after session $SESSIONS"
fi
if [[ -n $asan ]]; then
	rx_log "ASan build: VmRSS not compared ($rss5 -> $rss_end KiB)"
elif [[ -n ${rss5:-} && -n $rss_end ]]; then
	lim=$((rss5 + rss5 / 10 + 2048))
	if ((rss_end > lim)); then
		fail "VmRSS grew from $rss5 KiB to $rss_end KiB (limit $lim KiB" \
			"= +10% + 2 MiB)"
	else
		pass "VmRSS: $rss5 KiB after session 5, $rss_end KiB after" \
			"session $SESSIONS (limit $lim KiB)"
	fi
fi

# RDMA objects the server holds once idle: none.  rdma resource show
# names the thread that created an object ("pid TID comm ibgap"): the
# server's when that thread is one of the server's, or is gone (the
# session threads end; no other ibgap runs here by now).
if command -v rdma >/dev/null; then
	for res in qp cq mr pd cm_id; do
		out=$(rdma resource show "$res" 2>&1) || {
			rx_log "note: rdma resource show $res failed: $out"
			continue
		}
		held=()
		while IFS= read -r line; do
			[[ "$line " =~ \ pid\ ([0-9]+)\ comm\ ibgap\  ]] || continue
			tid=${BASH_REMATCH[1]}
			if [[ -e /proc/$SRV_PID/task/$tid || ! -e /proc/$tid ]]; then
				held+=("$line")
			fi
		done <<<"$out"
		if ((${#held[@]})); then
			fail "the idle server still holds ${#held[@]} $res:" \
				"$(printf '\n  %s' "${held[@]}")"
		else
			pass "the idle server holds no $res"
		fi
	done
else
	rx_log "note: no rdma tool (iproute2): RDMA objects not counted"
fi
check "server alive" rx_server_alive
# SIGTERM: the server exits 0 at once (an ASan build's LeakSanitizer then
# reports into its log, which rx_done scans)
kill -TERM "$SRV_PID"
for ((i = 0; i < 100; i++)); do
	st=$(rx_pstate "$SRV_PID")
	[[ -z $st || $st == Z ]] && break
	sleep 0.1
done
st=$(rx_pstate "$SRV_PID")
[[ -z $st || $st == Z ]] && pass "server ended on SIGTERM" ||
	fail "server still runs 10 s after SIGTERM"
rx_done
