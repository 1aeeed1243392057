#!/bin/bash
# bench_report.sh: bench/verbs_vs_perftest.sh --report on a made-up run
# whose ratios follow ratio = 1.02 x exp(-(ibgap's steal - perftest's)):
# the report must flag the disturbed rounds, give the median of the
# undisturbed ones, and find 1.02 and the slope -1 again.  No guest, no
# ibgap: the report only reads the saved files.
#   bash tests/lint/bench_report.sh
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fails=0
hz=$(getconf CLK_TCK)

# round: steal of ibgap's run and of perftest's run, in CPUs; each run
# lasts 10 s, the steal file samples the ticks at every start and end.
awk -v hz="$hz" -v tsv="$DIR/r.tsv" -v steal="$DIR/r.steal" 'BEGIN {
	split("0 0.2 0.1 0 0.3 0.02 0.05", a, " ")
	split("0 0 0.1 0.2 0 0.01 0", b, " ")
	t = 1000; ticks = 5000
	printf "%.6f %d\n", t - 1, ticks > steal
	for (r = 1; r <= 7; r++) {
		c[1] = a[r]; c[2] = b[r]
		for (k = 1; k <= 2; k++) {
			tool = k == 1 ? "ibgap" : "perftest"
			printf "%d\tbw\t%s\tstart\t%.6f\ts\n", r, tool, t > tsv
			printf "%.6f %d\n", t, ticks > steal
			t += 10; ticks += c[k] * hz * 10
			printf "%d\tbw\t%s\tend\t%.6f\ts\n", r, tool, t > tsv
			printf "%.6f %d\n", t, ticks > steal
			t += 2
		}
		printf "%d\tbw\tratio\tibgap/perftest\t%.3f\tx\n", r,
			1.02 * exp(-(c[1] - c[2])) > tsv
	}
}'
out=$(bash "$SRC/bench/verbs_vs_perftest.sh" --report "$DIR/r.tsv" 2>&1)
rc=$?

expect() {
	if [[ $out == *"$1"* ]]; then
		echo "ok: $2"
	else
		echo "FAIL: $2: no '$1' in:"
		echo "$out"
		fails=$((fails + 1))
	fi
}

[[ $rc == 0 ]] || { echo "FAIL: --report exited $rc: $out"; exit 1; }
expect "round 2 bw: ibgap 0.200 perftest 0.000 ratio 0.835  (disturbed)" \
	"a round with 0.2 CPU stolen is disturbed"
expect $'round 7 bw: ibgap 0.050 perftest 0.000 ratio 0.970\n' \
	"0.05 CPU is not above --steal-max"
expect "median ratio of the 3 undisturbed rounds 1.01 (range 0.970..1.020)" \
	"the median of rounds 1, 6 and 7"
expect "ratio at equal steal 1.020 (95% interval 1.02" \
	"the fit finds 1.02 at equal steal"
expect "over 7 rounds, slope -1.00 per CPU" "the fit finds the slope"

bash "$SRC/bench/verbs_vs_perftest.sh" --report "$DIR/none.tsv" \
	>"$DIR/err" 2>&1
rc=$?
if [[ $rc == 2 && $(<"$DIR/err") == *"none.tsv: want a saved .tsv"* ]]; then
	echo "ok: a missing file: exit 2 and its name"
else
	echo "FAIL: a missing file: exit $rc: $(<"$DIR/err")"
	fails=$((fails + 1))
fi
((fails == 0)) || exit 1
echo "bench_report: all checks passed"
