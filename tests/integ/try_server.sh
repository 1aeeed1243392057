#!/bin/bash
# try_server.sh: the server's side of a trial (docs/design.md, "Trials on
# the server's host").  The server runs in a network namespace this test
# makes, and so does the raw client (tests/integ/igwire.py) that sends it
# TRY and UNTRY over that namespace's loopback; the setting tried is
# net.ipv4.tcp_rmem and tcp_wmem of that namespace, never the host's.
#   (a) --allow-try without --auth-file, --journal without --allow-try,
#       a --journal file that is not a journal: exit 2, one line;
#   (b) a server without --allow-try, or with it but as nobody (no
#       CAP_NET_ADMIN): TRIED {refused}, nothing changed, the session goes
#       on (UNTRY answered, BYE ends it cleanly);
#   (c) no key or another key against an --allow-try server: refused at
#       the handshake, a TRY in place of the proof too;
#   (d) an authenticated TRY changes the namespace's values, UNTRY puts
#       them back; a TRY whose second change fails puts the first back;
#       --keep (UNTRY keep) leaves them;
#   (e) the client SIGKILLed after TRY, a client that says BYE without
#       UNTRY, one that goes silent past --timeout, the server's SIGTERM:
#       the server puts everything back and (but the last) serves on; a
#       server SIGKILLed with a change made puts it back when it starts
#       again on its journal;
#   (f) a TRY of an unknown sysctl or a path-like netdev: refused, one
#       line, nothing changed; an MTU of lo, which carries the control
#       connection, refused, of a veth made and put back;
#   (g) every value touched, in the namespace and on the host, the same
#       at the end as at the start.
# Needs root and ip netns (else 77, saying why).
#   bash tests/integ/try_server.sh /abs/path/to/ibgap
IG_LIMIT=${IG_LIMIT:-240}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init try_server "$@"

if [[ $EUID != 0 ]]; then
	ig_log "skipped: needs root (a network namespace of its own, whose" \
		"settings the server changes)"
	exit 77
fi
NS=igtry.$$
if ! ip netns add "$NS" 2>"$TMP/netns.err"; then
	ig_log "skipped: ip netns add failed: $(head -1 "$TMP/netns.err")"
	exit 77
fi
trap 'ig_cleanup; ip netns del "$NS" 2>/dev/null' EXIT
ip -n "$NS" link set lo up || die "cannot bring up lo in $NS"
ip -n "$NS" link add igd0 mtu 1500 type veth peer name igd1 mtu 1500 ||
	die "cannot add a veth pair in $NS"
REAL=$IBGAP
# the server in the namespace: ip netns exec execs, so SRV_PID is ibgap's
cat >"$TMP/nsibgap" <<EOF
#!/bin/sh
exec ip netns exec $NS $REAL "\$@"
EOF
chmod +x "$TMP/nsibgap"
printf '%s\n' "correct horse battery staple 42" >"$TMP/key"
printf '%s\n' "another secret of the right size" >"$TMP/other"
chmod 600 "$TMP/key" "$TMP/other"

# The values this test may touch, in the namespace and on the host.
KNOBS="net/ipv4/tcp_rmem net/ipv4/tcp_wmem"
nsval() { ip netns exec "$NS" cat "/proc/sys/$1" | tr -s '\t ' '  '; }
snapshot()
{
	local k

	for k in $KNOBS; do
		echo "ns $k: $(nsval "$k")"
		echo "host $k: $(tr -s '\t ' '  ' <"/proc/sys/$k")"
	done
	echo "host net/core/rmem_max: $(cat /proc/sys/net/core/rmem_max)"
	ip -n "$NS" -o link show | sed 's/ qlen.*//'
}
snapshot >"$TMP/before"
RMEM0=$(nsval net/ipv4/tcp_rmem)
HOST_RMEM0=$(tr -s '\t ' '  ' </proc/sys/net/ipv4/tcp_rmem)
WMEM0=$(nsval net/ipv4/tcp_wmem)
# values that differ from the namespace's own
RMEM1="4096 65536 1048576"
WMEM1="4096 32768 2097152"
[[ $RMEM0 != "$RMEM1" && $WMEM0 != "$WMEM1" ]] ||
	die "the namespace already has the values to try: $RMEM0 / $WMEM0"
RMEM_TRY='{"kind":"sysctl","dev":"","name":"net.ipv4.tcp_rmem","to":"'$RMEM1'"}'
WMEM_TRY='{"kind":"sysctl","dev":"","name":"net.ipv4.tcp_wmem","to":"'$WMEM1'"}'

# The raw client: trycli.py PORT KEYFILE|- STEP...; one line per answer
# on stdout ("SESSION type body", "TRIED body", "UNTRIED body", "EOF").
cat >"$TMP/trycli.py" <<'PY'
import json, sys, time
from igwire import session, msg, recv_msg, WELCOME, ERROR, TRY, TRIED, \
    UNTRY, UNTRIED, BYE

NAMES = {WELCOME: "WELCOME", ERROR: "ERROR", TRIED: "TRIED",
         UNTRIED: "UNTRIED"}
port, keyfile, steps = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
key = None if keyfile == "-" else open(keyfile, "rb").read().rstrip(b"\r\n")
if steps and steps[0] == "try-first":
    # a TRY in place of the handshake's proof
    import socket
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    from igwire import HELLO
    s.sendall(msg(HELLO, {"sysinfo": {"hostname": "x", "kernel": "k",
                                      "version": "0.1.0"}}))
    recv_msg(s)
    s.sendall(msg(TRY, {"changes": json.loads(steps[1])}))
    typ, b = recv_msg(s)
    print("SESSION", NAMES.get(typ, typ), json.dumps(b), flush=True)
    sys.exit(0)
s, typ, b = session(port, key)
print("SESSION", NAMES.get(typ, typ), json.dumps(b), flush=True)
if typ != WELCOME:
    sys.exit(0)
s.settimeout(60)
i = 0
while i < len(steps):
    st = steps[i]
    if st == "try":
        s.sendall(msg(TRY, {"changes": json.loads(steps[i + 1])}))
        i += 1
    elif st in ("untry", "keep"):
        s.sendall(msg(UNTRY, {"keep": st == "keep"}))
    elif st == "bye":
        s.sendall(msg(BYE, {}))
        break
    elif st == "hang":
        time.sleep(300)
    elif st == "waitfile":
        # until the test has looked at the namespace and made the file
        import os
        for _ in range(600):
            if os.path.exists(steps[i + 1]):
                break
            time.sleep(0.05)
        i += 1
    elif st == "silent":
        # until the server gives up on us (its --timeout)
        t0 = time.monotonic()
        typ, b = recv_msg(s)
        print("EOF" if typ is None else "GOT %s" % typ,
              "%.1f" % (time.monotonic() - t0), flush=True)
        break
    if st in ("try", "untry", "keep"):
        typ, b = recv_msg(s)
        print(NAMES.get(typ, typ), json.dumps(b), flush=True)
    i += 1
PY

# cli TAG KEY STEP...: the raw client in the namespace; $TMP/TAG.out
cli()
{
	local tag=$1

	shift
	RC=0
	timeout -k 2 60 ip netns exec "$NS" env PYTHONPATH="$PYTHONPATH" \
		python3 "$TMP/trycli.py" "$SRV_PORT" "$@" >"$TMP/$tag.out" \
		2>"$TMP/$tag.err" || RC=$?
	[[ $RC == 0 ]] || fail "client $tag: exit $RC: $(cat "$TMP/$tag.err")"
}

# answer TAG WORD PYTHON-CONDITION WHAT: the line of TAG's output that
# starts with WORD, its JSON body as b, passes the condition.
answer()
{
	local tag=$1 word=$2 cond=$3 what=$4 line

	line=$(grep -m1 "^$word " "$TMP/$tag.out")
	if python3 -c "import json, sys
b = json.loads(sys.argv[1].split(' ', 1)[1] if sys.argv[1].startswith('$word ') else 'null')
sys.exit(0 if ($cond) else 1)" "$line" 2>/dev/null; then
		pass "$what: $line"
	else
		fail "$what: '$word' answer is '$line':" \
			"$(cat "$TMP/$tag.out" "$TMP/$tag.err")"
	fi
}

# expect_val KNOB WANT WHAT
expect_val()
{
	local got

	got=$(nsval "$1")
	if [[ $got == "$2" ]]; then
		pass "$3: $1 = $got"
	else
		fail "$3: $1 = '$got', want '$2'"
	fi
}

# poll_val KNOB WANT SECS: true once the namespace's KNOB is WANT
poll_val()
{
	for _ in $(seq $(($3 * 10))); do
		[[ $(nsval "$1") == "$2" ]] && return 0
		sleep 0.1
	done
	return 1
}

# hang_client TAG WHAT: a client that TRYs tcp_rmem and then says nothing,
# in the background (HANG_PID), once its change is made
hang_client()
{
	ip netns exec "$NS" env PYTHONPATH="$PYTHONPATH" python3 \
		"$TMP/trycli.py" "$SRV_PORT" "$TMP/key" try "[$RMEM_TRY]" hang \
		>"$TMP/$1.out" 2>"$TMP/$1.err" &
	HANG_PID=$!
	ig_track $HANG_PID
	poll_val net/ipv4/tcp_rmem "$RMEM1" 10 ||
		fail "the TRY before $2 was not made: $(cat "$TMP/$1.err")"
}

# (a) usage errors
IBGAP=$REAL
ig_run 10 noauth server -p "$(ig_random_port)" --allow-try
expect_rc 2 "--allow-try without --auth-file"
expect_one_line "$TMP/noauth.err" "--allow-try without --auth-file"
expect_grep "$TMP/noauth.err" "--allow-try needs --auth-file" \
	"--allow-try without --auth-file"
ig_run 10 nojournal server -p "$(ig_random_port)" --auth-file "$TMP/key" \
	--journal "$TMP/j"
expect_rc 2 "--journal without --allow-try"
expect_one_line "$TMP/nojournal.err" "--journal without --allow-try"
expect_grep "$TMP/nojournal.err" "'$TMP/j'" "--journal without --allow-try"
echo "not a journal" >"$TMP/notj"
ig_run 10 notj server -B 127.0.0.1 -p "$(ig_random_port)" --auth-file \
	"$TMP/key" --allow-try --journal "$TMP/notj"
expect_rc 2 "--journal that is not a journal"
expect_one_line "$TMP/notj.err" "--journal that is not a journal"
expect_grep "$TMP/notj.err" "'$TMP/notj' is not an ibgap journal" \
	"--journal that is not a journal"

IBGAP=$TMP/nsibgap
# (b) a server without --allow-try
ig_start_server
cli plain - try "[$RMEM_TRY]" untry bye
answer plain TRIED "'without --allow-try' in b.get('refused', '')" \
	"TRY to a server without --allow-try refused"
answer plain UNTRIED "b == {'restored': 0, 'errors': []}" \
	"the session goes on after the refusal"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after a refused TRY"
check "the session ended by BYE after the refusal" \
	log_wait "$SRV_LOG" "session ended"
expect_grep "$SRV_LOG" "TRY refused: the server was started without" \
	"server log"
ig_client 30 tcp_after -t tcp_lat -n 200 --warmup 0
expect_client_ok tcp_after "a tcp_lat test after the refused TRY"
kill -KILL "$SRV_PID"

# an --allow-try server without the capability (uid nobody): refused,
# naming it, nothing changed
mkdir "$TMP/nob" && cp "$TMP/key" "$TMP/nob/key" &&
	chown -R nobody:nogroup "$TMP/nob" && chmod 711 "$TMP" ||
	die "cannot make nobody's files"
cat >"$TMP/nsnobody" <<EOF
#!/bin/sh
exec ip netns exec $NS setpriv --reuid=nobody --regid=nogroup --clear-groups \
	$REAL "\$@"
EOF
chmod +x "$TMP/nsnobody"
IBGAP=$TMP/nsnobody
ig_start_server --auth-file "$TMP/nob/key" --allow-try --journal "$TMP/nob/j"
cli nocap "$TMP/key" try "[$RMEM_TRY]" untry bye
answer nocap TRIED "'lacks CAP_NET_ADMIN' in b.get('refused', '')" \
	"TRY to an unprivileged --allow-try server refused"
answer nocap UNTRIED "b == {'restored': 0, 'errors': []}" \
	"the unprivileged server's session goes on"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after the unprivileged server's refusal"
kill -KILL "$SRV_PID"
IBGAP=$TMP/nsibgap

# (c)..(g) on an --allow-try server
IG_SRV_WAITABLE=1 ig_start_server --auth-file "$TMP/key" --allow-try \
	--journal "$TMP/server.journal" --timeout 3
cli nokey - try "[$RMEM_TRY]"
grep -q "^SESSION None " "$TMP/nokey.out" &&
	pass "client without a key: closed, no session" ||
	fail "client without a key got: $(cat "$TMP/nokey.out")"
check "server log: refused: client has no key" \
	log_wait "$SRV_LOG" "refused: client has no key"
cli wrongkey "$TMP/other" try "[$RMEM_TRY]"
grep -q "^SESSION ERROR .*authentication failed" "$TMP/wrongkey.out" &&
	pass "client with another key: refused" ||
	fail "client with another key got: $(cat "$TMP/wrongkey.out")"
cli tryfirst - try-first "[$RMEM_TRY]"
grep -q "^SESSION ERROR .*expected AUTH_REPLY, got TRY" "$TMP/tryfirst.out" &&
	pass "TRY in place of the proof: refused" ||
	fail "TRY in place of the proof got: $(cat "$TMP/tryfirst.out")"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after the refused clients"
if grep -q "tried:" "$SRV_LOG"; then
	fail "the server changed something for a refused client"
fi

# (d) TRY, UNTRY
cli d "$TMP/key" try "[$RMEM_TRY,$WMEM_TRY]" waitfile "$TMP/d.go" untry \
	bye &
dpid=$!
poll_val net/ipv4/tcp_rmem "$RMEM1" 10 &&
	pass "TRY made: tcp_rmem = $RMEM1 in the namespace" ||
	fail "tcp_rmem never became $RMEM1: $(nsval net/ipv4/tcp_rmem)"
expect_val net/ipv4/tcp_wmem "$WMEM1" "TRY made"
host=$(tr -s '\t ' '  ' </proc/sys/net/ipv4/tcp_rmem)
[[ $host == "$HOST_RMEM0" ]] &&
	pass "meanwhile the host's own tcp_rmem is untouched: $host" ||
	fail "the host's tcp_rmem is $host, was $HOST_RMEM0"
touch "$TMP/d.go"
wait $dpid
answer d TRIED "[c['from'] for c in b['changes']] == ['$RMEM0', '$WMEM0']" \
	"TRIED names the old values"
answer d UNTRIED "b == {'restored': 2, 'errors': []}" "UNTRY put both back"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after UNTRY"
expect_val net/ipv4/tcp_wmem "$WMEM0" "after UNTRY"
[[ ! -e $TMP/server.journal ]] && pass "journal removed after UNTRY" ||
	fail "journal left after UNTRY: $(cat "$TMP/server.journal")"
expect_grep "$SRV_LOG" "tried: " "server log"
expect_grep "$SRV_LOG" "put back: " "server log"

# a TRY whose second change fails: the first is put back
BAD_DEV='{"kind":"feature","dev":"igtrynodev0","name":"gro","to":"off"}'
cli half "$TMP/key" try "[$RMEM_TRY,$BAD_DEV]" untry bye
answer half TRIED "'error' in b and '\\n' not in b['error']" \
	"a change that fails: TRIED {error}"
answer half UNTRIED "b['errors'] == []" "the session goes on after the error"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after a TRY whose second change failed"

# (f) changes the tune layer does not know
for bad in '{"kind":"sysctl","dev":"","name":"net.ipv4.no_such","to":"1"}' \
	'{"kind":"sysctl","dev":"","name":"../../../etc/passwd","to":"1"}' \
	'{"kind":"feature","dev":"../x","name":"gro","to":"off"}' \
	'{"kind":"shell","dev":"","name":"rm","to":"-rf"}'; do
	cli bad "$TMP/key" try "[$RMEM_TRY,$bad]" untry bye
	answer bad TRIED "'refused' in b and '\\n' not in b['refused']" \
		"TRY with $bad refused"
	answer bad UNTRIED "b == {'restored': 0, 'errors': []}" \
		"nothing made for $bad"
	expect_val net/ipv4/tcp_rmem "$RMEM0" "after the TRY with $bad"
done

# an MTU (down and up): not made on lo, which carries the control
# connection (an error of this TRY, not a refusal of the side: the
# session's other trials go on); made and put back on a veth of the
# namespace
cli mtulo "$TMP/key" try '[{"kind":"mtu","dev":"lo","name":"","to":"9000"}]' \
	untry bye
answer mtulo TRIED "'runs over it' in b.get('error', '')" \
	"MTU of the control connection's netdev not made"
cli mtu "$TMP/key" try '[{"kind":"mtu","dev":"igd0","name":"","to":"1400"}]' \
	waitfile "$TMP/mtu.go" untry bye &
mpid=$!
for _ in $(seq 100); do
	ip -n "$NS" link show igd0 | grep -q "mtu 1400" && break
	sleep 0.1
done
ip -n "$NS" link show igd0 | grep -q "mtu 1400" &&
	pass "TRY made: igd0's MTU 1400" ||
	fail "igd0's MTU never became 1400: $(ip -n "$NS" link show igd0)"
touch "$TMP/mtu.go"
wait $mpid
answer mtu UNTRIED "b == {'restored': 1, 'errors': []}" "MTU put back"
ip -n "$NS" link show igd0 | grep -q "mtu 1500" &&
	pass "igd0's MTU 1500 again" ||
	fail "igd0 after UNTRY: $(ip -n "$NS" link show igd0)"

# (e) the client SIGKILLed after TRY
hang_client kill "the client's SIGKILL"
kill -KILL $HANG_PID
if poll_val net/ipv4/tcp_rmem "$RMEM0" 10; then
	pass "client SIGKILLed: the server put tcp_rmem back"
else
	fail "client SIGKILLed: tcp_rmem is still $(nsval net/ipv4/tcp_rmem)"
fi

# BYE without UNTRY
cli bye "$TMP/key" try "[$RMEM_TRY]" bye
answer bye TRIED "len(b.get('changes', [])) == 1" "TRY before BYE"
poll_val net/ipv4/tcp_rmem "$RMEM0" 5 &&
	pass "BYE without UNTRY: put back" ||
	fail "BYE without UNTRY: tcp_rmem is $(nsval net/ipv4/tcp_rmem)"

# a client silent after its TRY: the server's --timeout (3 s) ends it
cli silent "$TMP/key" try "[$RMEM_TRY]" silent
grep -q "^EOF" "$TMP/silent.out" &&
	pass "silent client: the server closed ($(grep ^EOF "$TMP/silent.out"))" ||
	fail "silent client: $(cat "$TMP/silent.out")"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after the silent client's timeout"

# UNTRY keep leaves the change; the test puts it back itself
cli keep "$TMP/key" try "[$RMEM_TRY]" keep bye
answer keep UNTRIED "b == {'restored': 0, 'errors': []}" "UNTRY keep"
expect_val net/ipv4/tcp_rmem "$RMEM1" "kept at the client's word"
ip netns exec "$NS" sh -c "echo '$RMEM0' >/proc/sys/net/ipv4/tcp_rmem"
expect_grep "$SRV_LOG" "kept at the client's word" "server log"

# the server serves on: a session after all of the above
cli after "$TMP/key" try "[$WMEM_TRY]" untry bye
answer after UNTRIED "b == {'restored': 1, 'errors': []}" \
	"a session after the others"
check "server alive" ig_server_alive

# the server's SIGTERM during a session with a change made
hang_client term "the server's SIGTERM"
n=$(grep -c "put back: " "$SRV_LOG")
kill -TERM "$SRV_PID"
ig_wait_pid "$SRV_PID" 15
expect_rc 0 "server after SIGTERM"
expect_val net/ipv4/tcp_rmem "$RMEM0" "after the server's SIGTERM"
(($(grep -c "put back: " "$SRV_LOG") == n + 1)) &&
	pass "server log: one put-back line after SIGTERM" ||
	fail "server log after SIGTERM: $(tail -5 "$SRV_LOG")"
kill -KILL $HANG_PID 2>/dev/null

# a server SIGKILLed with a change made; started again on its journal
IG_SRV_WAITABLE=1 ig_start_server --auth-file "$TMP/key" --allow-try \
	--journal "$TMP/server.journal"
hang_client skill "the server's SIGKILL"
kill -KILL "$SRV_PID"
ig_wait_pid "$SRV_PID" 5
expect_val net/ipv4/tcp_rmem "$RMEM1" "the server SIGKILLed: its change stays"
[[ -s $TMP/server.journal ]] && pass "the journal is pending" ||
	fail "no pending journal after the server's SIGKILL"
ig_start_server --auth-file "$TMP/key" --allow-try \
	--journal "$TMP/server.journal"
expect_val net/ipv4/tcp_rmem "$RMEM0" "the server started on its pending journal"
expect_grep "$SRV_LOG" "of an earlier run" "server log at start"
[[ ! -e $TMP/server.journal ]] && pass "journal removed after the start" ||
	fail "journal left after the start: $(cat "$TMP/server.journal")"

# (g) nothing left changed
snapshot >"$TMP/after"
if diff "$TMP/before" "$TMP/after" >"$TMP/snap.diff"; then
	pass "every value touched is as before ($(wc -l <"$TMP/before") lines)"
else
	fail "values changed:"$'\n'"$(cat "$TMP/snap.diff")"
fi
((IG_FAILS)) && ig_dump_logs
ig_done
