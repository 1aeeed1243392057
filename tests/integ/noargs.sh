#!/bin/bash
# noargs.sh: 'ibgap' alone runs the default comparison against a server of
# its own on loopback: exit 0 within 30 s, a table with tcp_bw and tcp_lat
# rows, and one line on stderr saying that TCP runs alone and why (no
# active RDMA port with an IP address), with the hint to create one.
#   bash tests/integ/noargs.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init noargs "$@"

ig_run 30 noargs
expect_client_ok noargs "ibgap (no arguments), $ELAPSED s"
expect_grep "$TMP/noargs.out" "Gb/s = 10^9 bit/s" "table units line"
for t in tcp_bw tcp_lat; do
	if grep -qE "^${t}[[:space:]]+tcp[[:space:]]" "$TMP/noargs.out"; then
		pass "table has a $t row"
	else
		fail "table has no '$t tcp ...' row: $(cat "$TMP/noargs.out")"
	fi
done
expect_one_line "$TMP/noargs.err" "stderr of 'ibgap'"
if grep -q TCP "$TMP/noargs.err" && grep -qiE 'alone|only' "$TMP/noargs.err"
then
	pass "the note says TCP runs alone"
else
	fail "stderr does not say that TCP runs alone: $(cat "$TMP/noargs.err")"
fi
if compgen -G "/sys/class/infiniband/*" >/dev/null; then
	ig_log "not checking the reason: this host has an RDMA device"
else
	expect_grep "$TMP/noargs.err" "no active RDMA port with an IP address" \
		"the reason"
	expect_grep "$TMP/noargs.err" "rdma link add rxe0 type rxe" "the hint"
fi
ig_done
