#!/bin/bash
# ab.sh OLD NEW ROUNDS TESTS: in a Soft-RoCE guest (tests/rxe/rxe-run),
# ROUNDS rounds; each runs bench/verbs_vs_perftest.guest.sh -r 1 -T TESTS
# once with the ibgap binary OLD and once with NEW (the order alternates)
# and prints each run's TSV after a line "@@ old|new ROUND".
OLD=$1 NEW=$2 R=$3 T=$4
cd "$(dirname "$0")/../../.." || exit 1
for r in $(seq "$R"); do
	if ((r % 2)); then order="old new"; else order="new old"; fi
	for v in $order; do
		b=$OLD
		[[ $v == new ]] && b=$NEW
		bash bench/verbs_vs_perftest.guest.sh -r 1 -T "$T" -b "$b" \
			-o /tmp --stamp "$v-$r" >/dev/null 2>&1
		echo "@@ $v $r"
		cat "/tmp/verbs_vs_perftest-$v-$r.tsv"
	done
done
