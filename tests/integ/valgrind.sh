#!/bin/bash
# valgrind.sh: memcheck finds no error and no definite leak in the server
# and in the client over loopback: a tcp_bw + tcp_lat run, and failed
# sessions (garbage on the control port and a client killed mid-test for
# the server; a server killed mid-test and a port nobody listens on for
# the client), and the --auth-file handshake, accepted and refused, on both
# ends.  Skipped (77) without valgrind, or for an ASan build.
#   bash tests/integ/valgrind.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
# memcheck runs the binaries 20-50 times slower and is CPU-bound: 42 s
# alone, and past the default 55 s watchdog beside a loaded host part
# (seen twice on 2 CPUs at load 10-14); the watchdog is for a hang.
IG_LIMIT=180
ig_init valgrind "$@"

if ! command -v valgrind >/dev/null; then
	ig_log "skipped: valgrind is not installed (scripts/setup-deps)"
	exit 77
fi
if grep -qa __asan_init "$IBGAP"; then
	ig_log "skipped: $IBGAP is built with AddressSanitizer," \
		"which cannot run under valgrind"
	exit 77
fi
REAL=$IBGAP

# Every run of $IBGAP below (ig_start_server, ig_client, ig_bg) goes
# through memcheck, one log per run: $TMP/vg.TAG.PID.log, TAG from VG_TAG.
# Exit 99 = memcheck found an error or a definite leak.
cat >"$TMP/vg-ibgap" <<EOF
#!/bin/bash
exec valgrind -q --error-exitcode=99 --leak-check=full \\
	--errors-for-leak-kinds=definite --show-leak-kinds=definite \\
	--log-file="$TMP/vg.\${VG_TAG:-run}.%p.log" "$REAL" "\$@"
EOF
chmod +x "$TMP/vg-ibgap"
IBGAP=$TMP/vg-ibgap
export VG_TAG

# vg_clean TAG RC WHAT: the run's exit code is not 99 and its memcheck
# logs (-q: only errors) are empty.
vg_clean()
{
	local tag=$1 rc=$2 what=$3 f bad=0

	for f in "$TMP"/vg."$tag".*.log; do
		[[ -s $f ]] || continue
		bad=1
		fail "$what: memcheck reported (exit $rc):"$'\n'"$(head -c \
			8000 "$f")"
	done
	if [[ $rc == 99 ]]; then
		((bad)) || fail "$what: valgrind exit 99 but an empty log"
	elif ((!bad)); then
		pass "$what: no memcheck error, no definite leak (exit $rc)"
	fi
}

# garbage MODE: one connection that is not a well-behaved client.
garbage()
{
	timeout 10 python3 - "$SRV_PORT" "$1" <<'PY'
import sys
from igwire import connect, hdr, msg, HELLO, SETUP, SYNC
port, mode = int(sys.argv[1]), sys.argv[2]

hello = msg(HELLO, {"sysinfo": {"hostname": "x", "kernel": "y", "version": "0"}})
setup = {"test": "tcp_bw", "size": 65536, "iterations": 0,
         "duration_ns": 300000000, "warmup_ns": 0, "streams": 1, "window": 0,
         "timeout_ms": 5000, "tx_depth": 128, "cq_mod": 16, "inline_size": 0}
data = {
    "notjson": hdr(1, HELLO, 5) + b"hello",
    "huge": hdr(1, HELLO, 0xFFFFFFFF),
    "half": hello[:20],
    "nohello": msg(SETUP, setup),
    # past the client's own checks: parameters the server must refuse
    "badsetup": hello + msg(SETUP, dict(setup, streams=100000)),
    "shortsetup": hello + msg(SETUP, {"test": "tcp_bw"}),
    "hellojunk": hello + msg(SYNC, {"rx_bytes": "x"}),
}[mode]
s = connect(port)
s.sendall(data)
if mode == "half":
    s.close()
    sys.exit(0)
s.settimeout(8)
while s.recv(4096):
    pass
PY
}

# 1. The server under memcheck: garbage, a good client (also under
# memcheck), a client killed mid-test, then SIGTERM.
VG_TAG=server IG_SRV_WAITABLE=1 ig_start_server --timeout 10
VG_TAG=
for mode in notjson huge half nohello badsetup shortsetup hellojunk; do
	garbage $mode || fail "garbage '$mode' connection: exit $?"
done
check "server alive after garbage connections" ig_server_alive

VG_TAG=client
ig_client 40 ok -t tcp_bw,tcp_lat -D 0.3 --warmup 0.1 --timeout 20 \
	--format json
expect_client_ok ok "tcp_bw + tcp_lat under memcheck"
vg_clean client "$RC" "client, tcp_bw + tcp_lat"
ig_json_check "$TMP/ok.out" "client report" <<'EOF'
check([r["test"] for r in d["results"]] == ["tcp_bw", "tcp_lat"],
      "results %r" % [r.get("test") for r in d["results"]])
EOF

# a plain client killed in the middle of a test
n_started=$(grep -c "session started" "$SRV_LOG")
( exec "$REAL" client -p "$SRV_PORT" -t tcp_bw -D 20 --warmup 0.1 \
	--timeout 20 127.0.0.1 ) >"$TMP/victim.out" 2>"$TMP/victim.err" &
victim=$!
ig_track $victim
disown $victim
for _ in $(seq 100); do
	(($(grep -c "session started" "$SRV_LOG") >= n_started + 1)) && break
	sleep 0.1
done
sleep 1.5
n_lines=$(wc -l <"$SRV_LOG")
kill -KILL $victim
# the server logs one line when it notices
for _ in $(seq 100); do
	(($(wc -l <"$SRV_LOG") > n_lines)) && break
	sleep 0.1
done
check "server alive after a client killed mid-test" ig_server_alive
kill -TERM "$SRV_PID"
ig_wait_pid "$SRV_PID" 20
expect_rc 0 "server under memcheck after SIGTERM"
vg_clean server "$RC" "server: garbage, a run, a killed client"

# 2. The client under memcheck, failing: its server killed mid-test (a
# plain server), and a port where nothing listens.
IBGAP=$REAL ig_start_server --timeout 10
VG_TAG=orphan ig_bg orphan client -p "$SRV_PORT" -t tcp_bw -D 20 \
	--warmup 0.1 --timeout 3 127.0.0.1
orphan=$BG_PID
for _ in $(seq 100); do
	grep -q "session started" "$SRV_LOG" && break
	sleep 0.1
done
sleep 1.5
kill -KILL "$SRV_PID"
ig_wait_pid "$orphan" 20
if [[ $RC != 0 && $RC != 124 ]]; then
	pass "client whose server died: exit $RC"
else
	fail "client whose server died: exit $RC, want an error:" \
		"$(head -c 2000 "$TMP/orphan.err")"
fi
vg_clean orphan "$RC" "client whose server was killed mid-test"

port=$SRV_PORT
VG_TAG=refused
ig_run 20 refused client -p "$port" -t tcp_bw -D 0.3 127.0.0.1
if [[ $RC != 0 && $RC != 124 ]]; then
	pass "client, nothing listening: exit $RC"
else
	fail "client, nothing listening: exit $RC, want an error"
fi
vg_clean refused "$RC" "client, connection refused"

# 3. --auth-file on both ends under memcheck: the same secret, no secret,
# another secret (the secrets are wiped and freed on every path).
printf 'a secret for memcheck, 0123456789\n' >"$TMP/key"
printf 'not the same secret, 0123456789\n' >"$TMP/other"
chmod 600 "$TMP/key" "$TMP/other"
VG_TAG=authsrv IG_SRV_WAITABLE=1 ig_start_server --timeout 10 \
	--auth-file "$TMP/key"
for k in key none other; do
	VG_TAG=auth_$k
	args=(--auth-file "$TMP/$k")
	[[ $k == none ]] && args=()
	ig_client 40 "auth_$k" -t tcp_lat -n 100 --warmup 0 "${args[@]}"
	if [[ ($k == key && $RC == 0) || ($k != key && $RC == 1) ]]; then
		pass "client, --auth-file $k: exit $RC"
	else
		fail "client, --auth-file $k: exit $RC:" \
			"$(head -c 2000 "$TMP/auth_$k.err")"
	fi
	vg_clean "auth_$k" "$RC" "client, --auth-file $k"
done
VG_TAG=
kill -TERM "$SRV_PID"
ig_wait_pid "$SRV_PID" 20
expect_rc 0 "server --auth-file under memcheck after SIGTERM"
vg_clean authsrv "$RC" "server --auth-file: a client with the secret, two refused"
ig_done
