#!/usr/bin/env bash
# The per-tool functions are called by name (round):
# shellcheck disable=SC2317
# SPDX-License-Identifier: MIT
#
# rs_vs_rstream.sh - ibgap's rs_bw next to rdma-core's rstream (package
# rdmacm-utils) on the same RDMA device, alternating, ROUNDS rounds, in one
# run of tests/rxe/rxe-run (one guest boot when the machine has no RDMA
# NIC).  In odd rounds ibgap runs first, in even ones rstream.
#
#   bash bench/rs_vs_rstream.sh [ROUNDS [COUNT [SIZE_BYTES]]]   (3, 400, 65536)
#   bash bench/rs_vs_rstream.sh --lat [ROUNDS [ITERS [SIZE_BYTES]]] (3, 20000, 64)
#
# rstream custom test: `rstream -s ADDR -S SIZE -C COUNT` sends COUNT
# messages, then the server sends COUNT back (nonblocking, spinning); its
# figure here = 2 x COUNT x SIZE x 8 / its elapsed time (it prints Gb/sec
# with two decimals only), each direction in turn, with
# 512 KiB socket buffers.  ibgap: `rs_bw -s SIZE -n COUNT --window 512K`,
# one direction, delivery confirmed (docs/design.md, "Metric
# definitions").  Prints per round both figures and ibgap/rstream; asserts
# nothing about them.  Soft-RoCE under TCG says nothing about hardware:
# only the ratio within a round means anything, and little.
#
# --lat: ibgap's rs_lat next to rstream's ping-pong, `rstream -S SIZE -C 1
# -I ITERS -T n`: one message each way per iteration, non-blocking calls
# retried at once (rstream's default, named), which is how ibgap's rs
# streams wait too (rpoll(..., 0) between non-blocking calls).  rstream's
# figure is its usec/xfer, elapsed / (ITERS x 2): the mean half round
# trip, no warm-up; so ibgap's is its mean (lat_us.mean, half round trip,
# --warmup 0, -n ITERS).  20,000 round trips: on a fresh rsocket ibgap's
# first two or three take 0.05-0.6 ms each, where rstream has its untimed
# 16-byte sync exchange; over 1,000 round trips that added 0.5-0.75 us to
# ibgap's mean, over 20,000 a few hundredths
# (docs/lab/2026-12-03-ud-rs-latency.md).  64 B: the first size of
# rstream's own latency table and rsockets' default inline size, which
# both tools keep (rstream sets RDMA_INLINE only in its built-in tests).
# rstream's 512 KiB buffers are not matched here: with and without
# --window 512K ibgap's mean was the same over 30 rounds
# (docs/lab/2026-12-03-rs-lat-30.md).  Columns: round,
# ibgap_rs_lat_mean_us, rstream_us, ratio (ibgap/rstream: <= 1 is good).
#
# --pin C:S (before --lat): every client of both tools on CPU C, every
# server on CPU S (taskset -c), as verbs_vs_perftest.guest.sh --pin does:
# both ends share this machine's CPUs, and where the scheduler puts them is
# not what the row compares (docs/lab/2026-12-07-send-bw-placement.md).
# Exit 1 when a run failed, 77 when rxe-run has no device.
set -u -o pipefail
SELF=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
# shellcheck source=bench/lib.sh.inc
source "$HERE/lib.sh.inc"
MODE=bw
PIN=
PIN_CLI=()
PIN_SRV=()
if [[ ${1:-} == --pin ]]; then
	PIN=${2:-}
	shift 2 || die "--pin wants CLIENT:SERVER CPUs, e.g. 0:1"
	pin_set "$PIN"
fi
if [[ ${1:-} == --lat ]]; then
	MODE=lat
	shift
fi
ROUNDS=${1:-3}
if [[ $MODE == lat ]]; then
	COUNT=${2:-20000}
	SIZE=${3:-64}
	MODE_ARGS=(--lat)
else
	COUNT=${2:-400}
	SIZE=${3:-65536}
	MODE_ARGS=()
fi

if [[ -z ${IG_RDMA_DEV:-} ]]; then
	IBGAP=${IBGAP:-$ROOT/build/ibgap}
	command -v rstream >/dev/null ||
		{ echo "$SELF: rstream not found (Debian: rdmacm-utils)" >&2; exit 2; }
	exec env IBGAP="$IBGAP" "$ROOT/tests/rxe/rxe-run" bash "$0" \
		${PIN:+--pin "$PIN"} "${MODE_ARGS[@]}" "$ROUNDS" "$COUNT" "$SIZE"
fi

IBGAP=${IBGAP:?}
ulimit -l unlimited 2>/dev/null
TMP=$(mktemp -d)
PORT=$((20000 + $$ % 10000))
RPORT=$((PORT + 1))
SPID=
trap 'kill $SPID 2>/dev/null; rm -rf "$TMP"' EXIT
"${PIN_SRV[@]}" "$IBGAP" server -p $PORT --timeout 60 >"$TMP/server.log" 2>&1 &
SPID=$!
sleep 2
fail=0

# Each round runs both tools, ibgap first in odd rounds and rstream first
# in even ones (as bench/verbs_vs_perftest.sh does), so that neither always
# runs right after the other.  A run sets ig or rst (NA when it failed).

# ig_lat R / rst_lat R: one run of --lat.
ig_lat() {
	local r=$1

	if timeout 120 "${PIN_CLI[@]}" "$IBGAP" client "$IG_RDMA_ADDR" -p "$PORT" -t rs_lat \
		-s "$SIZE" -n "$COUNT" --warmup 0 --timeout 60 \
		--format json >"$TMP/ig.$r.json" 2>"$TMP/ig.$r.err"; then
		ig=$(jq -r '.results[0].lat_us.mean' "$TMP/ig.$r.json")
		echo "# round $r ibgap rs_lat: $(jq -c '.results[0].lat_us |
			{min, p50, mean, p99}' "$TMP/ig.$r.json")" >&2
	else
		fail=1
		echo "$SELF: round $r: ibgap: $(cat "$TMP/ig.$r.err")" >&2
	fi
}

rst_lat() {
	local r=$1 rpid

	timeout 120 "${PIN_SRV[@]}" rstream -p "$RPORT" -S "$SIZE" -C 1 -I "$COUNT" -T n \
		-f ip >"$TMP/rs.srv.$r" 2>&1 &
	rpid=$!
	sleep 1
	if timeout 120 "${PIN_CLI[@]}" rstream -s "$IG_RDMA_ADDR" -p "$RPORT" -S "$SIZE" -C 1 \
		-I "$COUNT" -T n -f ip >"$TMP/rs.$r" 2>&1; then
		# name bytes xfers iters total time Gb/sec usec/xfer
		rst=$(awk '$1 == "custom" && $8 + 0 > 0 { print $8 }' \
			"$TMP/rs.$r")
		[[ -n $rst ]] || rst=NA
		echo "# round $r rstream: $(grep -E '^(name|custom)' "$TMP/rs.$r" |
			tr -s ' ' | paste -sd '|')" >&2
	else
		fail=1
		echo "$SELF: round $r: rstream: $(cat "$TMP/rs.$r")" >&2
	fi
	wait "$rpid" 2>/dev/null
}

# round R IBGAP_FN RSTREAM_FN: both runs in this round's order; prints its
# table line.
round() {
	local r=$1

	ig=NA rst=NA
	if ((r % 2)); then
		"$2" "$r"
		"$3" "$r"
	else
		"$3" "$r"
		"$2" "$r"
	fi
	printf '%s\t%s\t%s\t%s\n' "$r" "$ig" "$rst" "$(awk -v a="$ig" \
		-v b="$rst" 'BEGIN { if (a == "NA" || b == "NA" || b + 0 == 0)
			print "NA"; else printf "%.3f\n", a / b }')"
}

if [[ $MODE == lat ]]; then
	printf 'round\tibgap_rs_lat_mean_us\trstream_us\tratio\n'
	for ((r = 1; r <= ROUNDS; r++)); do
		round "$r" ig_lat rst_lat
	done
	exit $fail
fi
# ig_bw R / rst_bw R: one run of rs_bw.
ig_bw() {
	local r=$1

	if timeout 120 "${PIN_CLI[@]}" "$IBGAP" client "$IG_RDMA_ADDR" -p "$PORT" -t rs_bw \
		-s "$SIZE" -n "$COUNT" --window 512K --warmup 0.2 --timeout 60 \
		--format json >"$TMP/ig.$r.json" 2>"$TMP/ig.$r.err"; then
		ig=$(jq -r '.results[0].bw_gbps' "$TMP/ig.$r.json")
	else
		fail=1
		echo "$SELF: round $r: ibgap: $(cat "$TMP/ig.$r.err")" >&2
	fi
}

rst_bw() {
	local r=$1 rpid

	timeout 120 "${PIN_SRV[@]}" rstream -p "$RPORT" -S "$SIZE" -C "$COUNT" -f ip \
		>"$TMP/rs.srv.$r" 2>&1 &
	rpid=$!
	sleep 1
	if timeout 120 "${PIN_CLI[@]}" rstream -s "$IG_RDMA_ADDR" -p "$RPORT" -S "$SIZE" \
		-C "$COUNT" -f ip >"$TMP/rs.$r" 2>&1; then
		# name bytes xfers iters total time Gb/sec usec/xfer: its
		# Gb/sec has 2 decimals (0.05 under TCG), so from its time (10 ms
		# steps over seconds) and the 2 x COUNT x SIZE bytes it moved
		rst=$(awk -v b=$((2 * COUNT * SIZE)) '$1 == "custom" {
			t = $6; sub(/s$/, "", t)
			if (t + 0 > 0) printf "%.6g\n", b * 8 / t / 1e9 }' "$TMP/rs.$r")
		[[ -n $rst ]] || rst=NA
		echo "# round $r rstream: $(grep -E '^(name|custom)' "$TMP/rs.$r" |
			tr -s ' ' | paste -sd '|')" >&2
	else
		fail=1
		echo "$SELF: round $r: rstream: $(cat "$TMP/rs.$r")" >&2
	fi
	wait "$rpid" 2>/dev/null
}

printf 'round\tibgap_rs_bw_gbps\trstream_gbps\tratio\n'
for ((r = 1; r <= ROUNDS; r++)); do
	round "$r" ig_bw rst_bw
done
exit $fail
