#!/bin/bash
# fresh.sh N: in a Soft-RoCE guest, N runs of
# bench/verbs_vs_perftest.guest.sh -r 4 -T read_lat (each starts its own
# ibgap server; odd rounds run ibgap first, even rounds perftest first),
# each run's TSV after a line "@@ RUN".
cd "$(dirname "$0")/../../.." || exit 1
for i in $(seq "$1"); do
	bash bench/verbs_vs_perftest.guest.sh -r 4 -T read_lat \
		-b "$PWD/build/ibgap" -o /tmp --stamp "f$i" >/dev/null \
		2>"/tmp/f$i.err"
	echo "@@ $i"
	cat "/tmp/verbs_vs_perftest-f$i.tsv"
done
