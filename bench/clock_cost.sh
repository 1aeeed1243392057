#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# clock_cost.sh [--guest] [N] - cost of one read of the CPU counter
# (lfence;rdtsc) and of clock_gettime(CLOCK_MONOTONIC), here and, with
# --guest, inside the Soft-RoCE guest (tests/rxe/rxe-run), N reads per run
# (default 200000; the guest's clock_gettime is a system call: use fewer).
# Prints the guest's clocksource too.  docs/lab/2026-11-30-performance.md
# ("The latency clock") has the figures.
set -eu -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
guest=0
if [[ ${1:-} == --guest ]]; then
	guest=1
	shift
fi
n=${1:-200000}
[[ $n =~ ^[1-9][0-9]*$ ]] || {
	echo "clock_cost.sh: N must be a positive integer, not '$n'" >&2
	exit 2
}
# Not under /tmp: the guest sees the host's files except /tmp and /run.
bin=$ROOT/build/clock_cost
cc -O2 -std=c11 -D_GNU_SOURCE -I"$ROOT/src" -o "$bin" "$HERE/clock_cost.c"
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
if ((guest)); then
	"$ROOT/tests/rxe/rxe-run" bash -c "echo guest clocksource \$(cat $cs);
		$bin $n"
else
	echo "host clocksource $(cat $cs)"
	"$bin" "$n"
fi
