#!/bin/bash
# try_ctrl.sh: ibgap doctor HOST --try --ctrl ADDR between two network
# namespaces this test makes, joined by two veth pairs: va/vb carries the
# data (HOST is vb's address), ca/cb the control connection (ADDR is cb's).
#   - the measurements run over va/vb, not ca/cb (the byte counters of the
#     two links);
#   - the server's doctor examined HOST's path (its trials name vb, not
#     cb), and its trial is made and put back;
#   - without --ctrl the same run measures over the control's link;
#   - --ctrl without --try is exit 2 with one line.
# Needs root, ip and ethtool (77 otherwise).  About 15 s.
source "$(dirname "$0")/lib.sh.inc"
IG_LIMIT=${IG_LIMIT_TRY:-120}
ig_init try_ctrl "$@"

if [[ $(id -u) != 0 ]]; then
	ig_log "skipped: needs root (it makes network namespaces)"
	exit 77
fi
for t in ip ethtool; do
	command -v $t >/dev/null && continue
	ig_log "skipped: $t is not installed"
	exit 77
done

NA=igtc$$a
NB=igtc$$b
SUB=10.$((200 + $$ % 50)).$(($$ % 250)).
DATA=${SUB}2
CTRL=${SUB}130
cleanup()
{
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	ig_cleanup
}
trap cleanup EXIT

ip netns add "$NA" && ip netns add "$NB" || die "cannot make namespaces"
ip link add va netns "$NA" type veth peer vb netns "$NB" &&
	ip link add ca netns "$NA" type veth peer cb netns "$NB" ||
	die "cannot make the veth pairs"
ip -n "$NA" addr add "${SUB}1/25" dev va
ip -n "$NB" addr add "$DATA/25" dev vb
ip -n "$NA" addr add "${SUB}129/25" dev ca
ip -n "$NB" addr add "$CTRL/25" dev cb
for n in "$NA" "$NB"; do
	ip -n "$n" link set lo up
done
ip -n "$NA" link set va up
ip -n "$NA" link set ca up
ip -n "$NB" link set vb up
ip -n "$NB" link set cb up

REAL=$IBGAP
ig_ns_wrap "$NA" "$TMP/in-a"
ig_ns_wrap "$NB" "$TMP/in-b"
ig_new_key "$TMP/key"
# the server on every address of B (the control's and the data's)
IBGAP=$TMP/in-b IG_SRV_BIND=0.0.0.0 ig_start_server --allow-try \
	--auth-file "$TMP/key" --journal "$TMP/server.journal"
IBGAP=$REAL
PORT=$SRV_PORT

rx() { ip netns exec "$NB" cat "/sys/class/net/$1/statistics/rx_bytes"; }
T() { timeout -k 2 "$1" "$TMP/in-a" "${@:2}"; }
RUNOPTS=(-p "$PORT" --auth-file "$TMP/key" --repeat 2 -D 0.3 --warmup 0.1
	--format json)
gro_b() { ip netns exec "$NB" ethtool -k vb | grep generic-receive; }
GRO0=$(gro_b)

# ---- with --ctrl: the data over va/vb ----
v0=$(rx vb) c0=$(rx cb)
RC=0
T 90 doctor "$DATA" --ctrl "$CTRL" "${RUNOPTS[@]}" --try offload.gro.off \
	-o "$TMP/ctrl.json" 2>"$TMP/ctrl.err" || RC=$?
expect_rc 0 "--try --ctrl"
v1=$(rx vb) c1=$(rx cb)
ig_log "received by B: data link $((v1 - v0)) bytes, control link $((c1 - c0))"
check "the measurements ran over the data link (10x the control's)" \
	test $((v1 - v0)) -gt $((10 * (c1 - c0)))
check "the server's trial is vb's (HOST's path), made and put back" \
	python3 -c "
import json, sys
d = json.load(open('$TMP/ctrl.json'))
t = [t for t in d['trials'] if t['side'] == 'remote'
     and t['id'] == 'offload.gro.off']
ok = t and t[0]['changes'] and all(c['dev'] == 'vb' and c['restored']
                                    for c in t[0]['changes'])
sys.exit(not ok)"
check "GRO of vb is as before" test "$(gro_b)" == "$GRO0"

# ---- without --ctrl, to the control's address: the data over ca/cb ----
v0=$(rx vb) c0=$(rx cb)
RC=0
T 90 doctor "$CTRL" "${RUNOPTS[@]}" --try run.streams \
	-o "$TMP/plain.json" 2>"$TMP/plain.err" || RC=$?
expect_rc 0 "--try without --ctrl"
v1=$(rx vb) c1=$(rx cb)
check "without --ctrl the measurements ran over the control's link" \
	test $((c1 - c0)) -gt $((10 * (v1 - v0)))

# ---- bad input ----
RC=0
T 20 doctor "$DATA" -p "$PORT" --ctrl "$CTRL" >"$TMP/bad.out" \
	2>"$TMP/bad.err" || RC=$?
expect_rc 2 "--ctrl without --try"
expect_one_line "$TMP/bad.err" "--ctrl without --try"
check "the line names --ctrl" grep -q -- --ctrl "$TMP/bad.err"

ig_done
