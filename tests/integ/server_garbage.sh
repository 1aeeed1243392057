#!/bin/bash
# server_garbage.sh: the server survives what is not an ibgap client
# (random bytes, silence, an oversized or truncated header, another protocol
# version, an unknown type, a body that is not JSON), answers a version
# mismatch with an ERROR naming both versions, and a silent connection never
# holds the session.
#   bash tests/integ/server_garbage.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init server_garbage "$@"

# wire.py PORT MODE: one connection doing MODE; prints what happened as one
# line and exits 0 when the server behaved, 1 (with the reason) when not.
cat >"$TMP/wire.py" <<'PY'
import os, re, sys
from igwire import connect, hdr, parse_msgs, read_until_eof, HELLO, ERROR

port, mode = int(sys.argv[1]), sys.argv[2]
arg = float(sys.argv[3]) if len(sys.argv) > 3 else 0

def done(ok, msg):
    print(msg)
    sys.exit(0 if ok else 1)

s = connect(port)
# Send, then expect the server to close within `limit` seconds.
sends = {
    "random": (os.urandom(1024), 5),
    "huge": (hdr(1, HELLO, 0xFFFFFFFF) + b"{", 5),
    "badtype": (hdr(1, 99, 2) + b"{}", 5),
    "notjson": (hdr(1, HELLO, 5) + b"hello", 5),
    "halfhdr": (b"IBGP\x00", 5),
}
if mode == "random":
    while sends[mode][0][:4] == b"IBGP":
        sends[mode] = (os.urandom(1024), 5)
if mode in sends:
    buf, limit = sends[mode]
    s.sendall(buf)
    data, t = read_until_eof(s, limit)
    if t is None:
        done(False, "%s: server kept the connection open %d s" % (mode, limit))
    done(True, "%s: server closed after %.2f s, sent %d bytes" %
         (mode, t, len(data)))
if mode == "version2":
    s.sendall(hdr(2, HELLO, 2) + b"{}")
    data, t = read_until_eof(s, 5)
    msgs = parse_msgs(data)
    if not msgs:
        done(False, "version2: no reply message (got %r, closed %s)" %
             (data[:200], t))
    ver, typ, body = msgs[0]
    text = str(body.get("message", ""))
    # drop the peer address, whose digits would match anything
    bare = re.sub(r"\[[^]]*\](:\d+)?|\d+\.\d+\.\d+\.\d+(:\d+)?", " ",
                  text)
    nums = re.findall(r"\d+", bare)
    why = []
    if ver != 1:
        why.append("reply header version %d, want 1" % ver)
    if typ != ERROR:
        why.append("reply type %d, want %d (ERROR)" % (typ, ERROR))
    if "2" not in nums or "1" not in nums:
        why.append("message does not name versions 2 and 1: %r" % text)
    if t is None:
        why.append("server did not close the connection within 5 s")
    done(not why, "; ".join(why) or "version2: ERROR %r" % text)
if mode == "silent":
    # arg = seconds to hold; report when the server dropped us
    print("open", flush=True)
    data, t = read_until_eof(s, arg)
    if t is None:
        done(True, "silent: still open after %.1f s" % arg)
    done(True, "silent: closed by the server after %.2f s (%d bytes)" %
         (t, len(data)))
done(False, "unknown mode " + mode)
PY

wire()
{
	local mode=$1 out rc=0

	shift
	out=$(timeout 15 python3 "$TMP/wire.py" "$SRV_PORT" "$mode" "$@" \
		2>&1) || rc=$?
	if [[ $rc == 0 ]]; then
		pass "$out"
	else
		fail "$mode (rc $rc): $out"
	fi
	check "server alive after '$mode'" ig_server_alive
}

# Part 1: a server with --timeout 1 fed garbage.
IG_SRV_WAITABLE=1 ig_start_server --timeout 1
for mode in random huge badtype notjson halfhdr version2; do
	wire "$mode"
done

# A silent connection is dropped after about the 1 s timeout.
out=$(timeout 15 python3 "$TMP/wire.py" "$SRV_PORT" silent 6 2>&1)
if [[ $out =~ closed\ by\ the\ server\ after\ ([0-9.]+) ]] &&
   awk -v t="${BASH_REMATCH[1]}" 'BEGIN { exit !(t >= 0.5 && t <= 4) }'; then
	pass "silent connection, --timeout 1: $out"
else
	fail "silent connection with --timeout 1 not dropped in 0.5..4 s: $out"
fi
check "server alive after a silent connection" ig_server_alive

ig_client 30 after -t tcp_bw,tcp_lat -D 0.3 --warmup 0.1 --format json
expect_client_ok after "client after the garbage"
check "server alive after the garbage and a client" ig_server_alive
kill -TERM "$SRV_PID"
ig_wait_pid "$SRV_PID" 10
expect_rc 0 "server after SIGTERM"

# Part 2: while a silent connection is open (timeout 5 s, not yet expired),
# a client is served: the silent one never holds the session.
ig_start_server --timeout 5
timeout 20 python3 "$TMP/wire.py" "$SRV_PORT" silent 4 >"$TMP/silent.out" \
	2>&1 &
sil=$!
ig_track $sil
for _ in $(seq 50); do
	grep -q open "$TMP/silent.out" && break
	sleep 0.1
done
grep -q open "$TMP/silent.out" || die "silent connection did not open:" \
	"$(cat "$TMP/silent.out")"
ig_client 20 beside -t tcp_lat -n 200 --warmup 0 --format json
expect_client_ok beside "client while a silent connection is open"
wait $sil
expect_grep "$TMP/silent.out" "still open after" \
	"the silent connection outlived the client's session"
check "server alive at the end" ig_server_alive
ig_done
