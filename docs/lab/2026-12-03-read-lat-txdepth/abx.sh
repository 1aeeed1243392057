#!/bin/bash
# abx.sh IBGAP ROUNDS TEST "OPTS": in a Soft-RoCE guest (tests/rxe/rxe-run),
# ROUNDS rounds; each runs bench/verbs_vs_perftest.guest.sh -r 1 -T TEST
# once with ibgap's defaults (old) and once with --ibgap-lat-extra OPTS
# (new), the order alternating, and prints each run's TSV after a line
# "@@ old|new ROUND" (the ratios: ../2026-12-03-verbs-inline/sum.py).
B=$1 R=$2 T=$3 X=$4
cd "$(dirname "$0")/../../.." || exit 1
for r in $(seq "$R"); do
	if ((r % 2)); then order="old new"; else order="new old"; fi
	for v in $order; do
		x=()
		[[ $v == new ]] && x=(--ibgap-lat-extra "$X")
		bash bench/verbs_vs_perftest.guest.sh -r 1 -T "$T" -b "$B" \
			-o /tmp --stamp "$v-$r" "${x[@]}" >/dev/null \
			2>"/tmp/abx-$v-$r.err"
		grep -q "gave no figure" "/tmp/abx-$v-$r.err" &&
			tail -5 "/tmp/abx-$v-$r.err" >&2
		echo "@@ $v $r"
		cat "/tmp/verbs_vs_perftest-$v-$r.tsv"
	done
done
