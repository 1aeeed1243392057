#!/usr/bin/env bash
# cleanup runs from the trap; the awk programs are single-quoted on purpose
# shellcheck disable=SC2317,SC2016
# SPDX-License-Identifier: MIT
#
# ud_vs_perftest.guest.sh - UD send, ibgap next to perftest on one RDMA
# device, in alternating rounds (odd rounds ibgap first):
#
#   ud_send_bw  vs ib_send_bw -c UD   1024 B (rxe's path MTU) x 2000, tx
#                                     depth 128, CQ moderation 16, no
#                                     warm-up; ibgap's delivered bw_gbps
#                                     (and its sent/lost) vs perftest's
#                                     "BW average" (MiB/s, converted to
#                                     10^9 bit/s)
#   ud_send_lat vs ib_send_lat -c UD  2 B x 1000; ibgap p50 vs perftest
#                                     t_typical, half round trip
#
#   tests/rxe/rxe-run bash bench/ud_vs_perftest.guest.sh IBGAP [ROUNDS]
#
# A stop-gap beside verbs_vs_perftest.guest.sh, whose -T list is being made
# table-driven (issue 13, read_bw): once that lands, these two pairs are
# two more rows of its table (ibgap test, perftest tool with "-c UD") and
# this script goes.  Prints one line per run and a ratio per round; the
# raw perftest outputs follow.  Exit 0, 1 when a run gave no figure, 77
# without an RDMA device.  Soft-RoCE under TCG says nothing about hardware.
set -u -o pipefail

IBGAP=${1:?usage: ud_vs_perftest.guest.sh IBGAP [ROUNDS]}
ROUNDS=${2:-3}
if [[ -z ${IG_RDMA_DEV:-} || -z ${IG_RDMA_ADDR:-} ]]; then
	echo "ud_vs_perftest: skipped: IG_RDMA_DEV/IG_RDMA_ADDR unset (run" \
	     "under tests/rxe/rxe-run)" >&2
	exit 77
fi
T=$(mktemp -d)
PORT=19500
FAILED=0
SRV=

cleanup() {
	[[ -n $SRV ]] && kill "$SRV" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
ulimit -l unlimited 2>/dev/null

ig() { # TEST JQ ARGS...: one ibgap client run; prints JQ of its result
	local test=$1 q=$2

	shift 2
	"$IBGAP" client "$IG_RDMA_ADDR" -p 19400 -t "$test" --warmup 0 \
		--format json "$@" >"$T/ig.json" 2>"$T/ig.err" &&
		jq -er ".results[0] | $q" "$T/ig.json" && return 0
	echo "ibgap $test failed: $(cat "$T/ig.err")" >&2
	echo NA
}

pt() { # AWK TOOL ARGS...: server and client, retried on a failed clock
	local prog=$1 tool=$2 j sp

	shift 2
	for _ in 1 2 3; do
		PORT=$((PORT + 1))
		timeout 120 "$tool" -d "$IG_RDMA_DEV" -x 1 -c UD "$@" \
			-p "$PORT" >"$T/pt.srv" 2>&1 &
		sp=$!
		for ((j = 0; j < 50; j++)); do
			ss -ltn | grep -q ":$PORT " && break
			sleep 0.1
		done
		timeout 120 "$tool" -d "$IG_RDMA_DEV" -x 1 -c UD "$@" \
			-p "$PORT" "$IG_RDMA_ADDR" >"$T/pt.out" 2>&1
		wait "$sp"
		grep -q -e "Can't produce" -e ' inf ' "$T/pt.out" || break
	done
	cat "$T/pt.out" >>"$T/pt.all"
	awk "$prog" "$T/pt.out" | grep . && return 0
	echo "$tool failed: $(tail -3 "$T/pt.out")" >&2
	echo NA
}

ig_bw() { ig ud_send_bw '"\(.bw_gbps) \(.sent) \(.lost)"' -s 1024 -n 2000 \
	--tx-depth 128 --cq-mod 16; }
ig_lat() { ig ud_send_lat '"\(.lat_us.p50)"' -s 2 -n 1000; }
pt_bw() { pt '$1 == 1024 && $2 == 2000 && NF >= 5 {
	printf "%.6f\n", $4 * 1048576 * 8 / 1e9 }' ib_send_bw -s 1024 \
	-n 2000 -t 128 -Q 16; }
pt_lat() { pt '$1 == 2 && $2 == 1000 && NF >= 9 { print $5 }' \
	ib_send_lat -s 2 -n 1000; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {
	if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "NA" }'; }

"$IBGAP" server -p 19400 >"$T/srv.log" 2>&1 &
SRV=$!
sleep 2
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then
		b=$(ig_bw); pb=$(pt_bw); l=$(ig_lat); pl=$(pt_lat)
	else
		pb=$(pt_bw); b=$(ig_bw); pl=$(pt_lat); l=$(ig_lat)
	fi
	read -r gb sent lost <<<"$b"
	[[ "$b $pb $l $pl" == *NA* ]] && FAILED=1
	echo "round $r ($( ((r % 2)) && echo ibgap || echo perftest) first):" \
	     "ud_send_bw $gb Gb/s (sent $sent, lost $lost), ib_send_bw -c UD" \
	     "$pb Gb/s, ratio $(ratio "$gb" "$pb");" \
	     "ud_send_lat p50 $l us, ib_send_lat -c UD t_typical $pl us," \
	     "ratio $(ratio "$l" "$pl")"
done
echo "---- perftest outputs"
cat "$T/pt.all"
exit "$FAILED"
