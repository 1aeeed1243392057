#!/bin/bash
# once.sh: 'ibgap server --once' serves one client session and exits 0; a
# connection that is not a session (garbage) does not count.
#   bash tests/integ/once.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init once "$@"
IG_SRV_WAITABLE=1 ig_start_server --once --timeout 2

# Not a session: bad magic, then the server must still be there.
python3 - "$SRV_PORT" <<'PY' || fail "could not send garbage to the server"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(b"GET / HTTP/1.0\r\n\r\n")
s.settimeout(5)
try:
    s.recv(100)
except OSError:
    pass
PY
sleep 0.3
check "--once server still running after a non-ibgap connection" \
	ig_server_alive

ig_client 30 one -t tcp_bw,tcp_lat -D 0.3 --warmup 0.1 --format json
expect_client_ok one "the one client of a --once server"
ig_wait_pid "$SRV_PID" 10
if [[ $RC == 124 ]]; then
	fail "--once server still running 10 s after its session"
else
	expect_rc 0 "--once server after one session (exited in $ELAPSED s)"
fi
# It left the port: a second client is refused.
ig_client 10 two -t tcp_lat -n 10
expect_rc 1 "a client after the --once server has gone"
ig_done
