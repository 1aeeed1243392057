#!/bin/bash
# server_quits.sh: a server that ends the session on the control connection
# alone, in the middle of the measured interval, while its data connection
# stays open and unread (so the client's send blocks), is noticed at once:
# the client stops within a few seconds, not at the end of its -D 20 nor
# at its 10 s send timeout, exits 1 and says why in one line.  Two ways:
# the server closes the control connection (as a stopped server does), or
# sends ERROR and keeps it open (as a server whose side failed does).
# And two where the data connection breaks while the client's 1 MiB send
# blocks (a send that has queued part of its message: it returns short,
# which is no stall when the connection broke):
#   reset: the data connection is reset, the control connection stays
#     open and silent: the client says 'Connection reset by peer' (before:
#     'send stalled for 10000 ms', after 0.5 s), within the same 6 s;
#   late: the same reset, then 30 ms later ERROR {stopped: SIGTERM} and
#     the control connection closed, as a stopped server's ERROR that
#     comes after the reset: the client says that the server stopped.
# The server is a stand-in (tests/integ/igwire.py) that speaks the
# protocol of docs/design.md up to BEGIN.
#   bash tests/integ/server_quits.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init server_quits "$@"

# fake MODE: serves one tcp_bw session, then at BEGIN stops reading its
# stream and closes the control connection (MODE close), sends ERROR
# (MODE error), or resets the data connection (reset, late: then ERROR
# {stopped} and the control connection closed); writes its port to $TMP/MODE.port, its steps to
# $TMP/MODE.log.
fake()
{
	python3 - "$1" "$TMP/$1.port" >"$TMP/$1.log" 2>&1 <<'PY' &
import socket, struct, sys, threading, time, igwire as w
mode = sys.argv[1]
c, d, setup = w.fake_setup(sys.argv[2])
got, reading = [0], threading.Event()
reading.set()
def reader():
    while reading.is_set():
        n = len(d.recv(1 << 20))
        if not n:
            return
        got[0] += n
threading.Thread(target=reader, daemon=True).start()
c.sendall(w.msg(w.READY, {"window_rcv": 0, "window_snd": 0,
                          "direction": "forward"}))
t, sync = w.recv_msg(c)
print("got %s %r" % (t, sync), flush=True)
while got[0] < sync["rx_bytes"][0]:
    time.sleep(0.01)
c.sendall(w.msg(w.SYNCED, {}))
t, b = w.recv_msg(c)
print("got %s (BEGIN is 10)" % t, flush=True)
reading.clear()
time.sleep(0.5)  # the client's send buffer fills; its send blocks
if mode == "close":
    c.shutdown(socket.SHUT_RDWR); c.close()
elif mode == "error":
    c.sendall(w.msg(w.ERROR, {"message": "fake server: out of disk"}))
else:  # reset, late: closed with SO_LINGER 0, a reset
    d.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    d.close()
if mode == "late":
    time.sleep(0.03)
    c.sendall(w.msg(w.ERROR, {"message": "fake server: stopped",
                              "stopped": "SIGTERM"}))
    c.shutdown(socket.SHUT_RDWR); c.close()
print("%s done" % mode, flush=True)
time.sleep(15)
PY
	FAKE_PID=$!
	ig_track "$FAKE_PID"
	ig_fake_port "$TMP/$1.port"
}

for mode in close error reset late; do
	fake $mode
	ig_run 30 $mode client -p "$FAKE_PORT" -t tcp_bw -D 20 -s 1M \
		--warmup 0.2 --timeout 10 127.0.0.1
	expect_rc 1 "$mode: client whose server ended the session mid-test"
	expect_one_line "$TMP/$mode.err" "$mode: the client's error"
	check "$mode: the server got to BEGIN and did it ($(tr '\n' ' ' \
		<"$TMP/$mode.log"))" grep -q "^$mode done" "$TMP/$mode.log"
	# before: the client noticed at its 10 s send timeout
	check "$mode: the client stopped within 6 s of its start ($ELAPSED s)" \
		awk -v e="$ELAPSED" 'BEGIN { exit !(e < 6) }'
	kill "$FAKE_PID" 2>/dev/null
done
expect_grep "$TMP/close.err" "closed the control connection" \
	"close: the line says the server closed the control connection"
expect_grep "$TMP/error.err" "gave up: fake server: out of disk" \
	"error: the line gives the server's reason"
expect_grep "$TMP/reset.err" "send failed: Connection reset by peer" \
	"reset: the line says the data connection was reset"
expect_grep "$TMP/late.err" \
	"tcp_bw: the server at 127.0.0.1:$FAKE_PORT stopped (SIGTERM) during" \
	"late: the line says that the server stopped"
ig_done
