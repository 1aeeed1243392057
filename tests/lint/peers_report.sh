#!/bin/bash
# peers_report.sh: bench/peers --report on made-up saved runs, one of each
# kind of row: ratios oriented so that above 1 is better for ibgap
# (bandwidth ibgap/peer, latency peer/ibgap), the median and its 95%
# order-statistic interval (min-max with its coverage below 6 rounds),
# failed rounds counted, a comparison nobody ran shown as missing, the
# ratio at equal steal from verbs_vs_perftest.sh --report (inverted for
# latency), the run's date, commit and machine, a quick run labelled, and
# the page outside the markers left alone.  Every expected figure was
# worked out by hand (comments).  No guest, no ibgap.
#   bash tests/lint/peers_report.sh
# The backquotes in single quotes are the page's Markdown:
# shellcheck disable=SC2016
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PEERS=$SRC/bench/peers
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
RUNS=$DIR/runs
mkdir -p "$RUNS"
fails=0
hz=$(getconf CLK_TCK)
HEAD=$'round\ttest\ttool\tmetric\tvalue\tunit'

# ---- made-up runs -----------------------------------------------------------
# tcp_bw, 9 rounds, iperf3 10 Gb/s, ibgap 10 x ratio: ratios 1.30 0.90
# 1.10 1.00 0.80 1.20 1.05 0.95 1.15, sorted 0.80 0.90 0.95 1.00 [1.05]
# 1.10 1.15 1.20 1.30.  9 rounds: x(2)..x(8) covers 1 - 2 x 10/512 =
# 96.1% (x(3)..x(7): 82%): 0.900-1.200.
# tcp_bw_P4, round 3's ibgap figure NA: 8 ratios 2.0 1.0 1.5 1.25 0.5 1.1
# 0.9 1.2, median (1.1 + 1.2) / 2 = 1.15; x(2)..x(7) covers only 93.0%,
# so x(1)..x(8) (99.2%): 0.500-2.000, "8 (1 failed)".
# tcp_lat, 5 rounds, ibgap p50 2 us, sockperf 2 x 1.5 .. 1.9: peer/ibgap
# 1.5 1.6 1.7 1.8 1.9, median 1.700; 5 rounds: min-max covers 1 - 2/32 =
# 93.75%: "1.500-1.900 (min-max: 94% only)".
# qperf_lat (means), 3 rounds, ibgap mean 4 us, qperf 5, 6, 4: 1.25 1.5
# 1.0, median 1.250, min-max covers 75%.  qperf_bw: qperf never ran.
awk -v head="$HEAD" 'BEGIN {
	print head
	split("1.30 0.90 1.10 1.00 0.80 1.20 1.05 0.95 1.15", bw, " ")
	split("2.0 1.0 NA 1.5 1.25 0.5 1.1 0.9 1.2", p4, " ")
	for (r = 1; r <= 9; r++) {
		printf "%d\tbw\tibgap\tgbps\t%.6f\tGb/s\n", r, 10 * bw[r]
		printf "%d\tbw\tiperf3\tgbps\t10\tGb/s\n", r
		printf "%d\tbw_P4\tibgap\tgbps\t%s\tGb/s\n", r,
			p4[r] == "NA" ? "NA" : sprintf("%.6f", 10 * p4[r])
		printf "%d\tbw_P4\tiperf3\tgbps\t10\tGb/s\n", r
	}
	for (r = 1; r <= 5; r++) {
		printf "%d\tlat\tibgap\tp50\t2\tus\n", r
		printf "%d\tlat\tibgap\tmean\t4\tus\n", r
		printf "%d\tlat\tsockperf\tp50\t%.6f\tus\n", r, 2 * (1.4 + r / 10)
	}
	split("5 6 4", q, " ")
	for (r = 1; r <= 3; r++)
		printf "%d\tlat\tqperf\tmean\t%s\tus\n", r, q[r]
}' >"$RUNS/tcp_vs_peers-20260101-000000.tsv"

# Verbs, with this host's steal time (as tests/lint/bench_report.sh): 10 s
# runs, steal of ibgap's and perftest's run per round a[r], b[r] CPUs,
# d = a - b = 0 0.2 0 -0.2 0.3 0.01 0.05.
# write_bw ("bw"), 7 rounds: ratio 1.02 exp(-d) = 1.020 0.835 1.020 1.246
# 0.756 1.010 0.970; median 1.010; 7 rounds: min-max covers 98.4%:
# 0.756-1.246; at equal steal the fit finds 1.020.
# send_lat ("lat"), rounds 1-5: ibgap/perftest = 0.8 exp(d), so
# peer/ibgap = 1.25 exp(-d) = 1.250 1.023 1.250 1.527 0.926: median
# 1.250, min-max 0.926-1.527 (94% only); at equal steal 1/0.8 = 1.250.
# send_bw: perftest gave no figure in any of 3 rounds.  read_bw: one
# round, 1.5: no interval, no fit (no spans).  read_lat, 5 rounds of
# ibgap 9 us against perftest 10 (1.111), neither tool losing any steal:
# no steal difference, the ratio as measured.  ud_*: not run.
awk -v hz="$hz" -v tsv="$RUNS/verbs_vs_perftest-20260101-000100.tsv" \
    -v steal="$RUNS/verbs_vs_perftest-20260101-000100.steal" -v head="$HEAD" '
function run(r, test, tool, c) {
	printf "%d\t%s\t%s\tstart\t%.6f\ts\n", r, test, tool, t > tsv
	printf "%.6f %d\n", t, ticks > steal
	t += 10; ticks += c * hz * 10
	printf "%d\t%s\t%s\tend\t%.6f\ts\n", r, test, tool, t > tsv
	printf "%.6f %d\n", t, ticks > steal
	t += 2
}
BEGIN {
	print head > tsv
	split("0 0.2 0.1 0 0.3 0.02 0.05", a, " ")
	split("0 0 0.1 0.2 0 0.01 0", b, " ")
	t = 1000; ticks = 5000
	printf "%.6f %d\n", t - 1, ticks > steal
	for (r = 1; r <= 7; r++) {
		d = a[r] - b[r]; w = 1.02 * exp(-d)
		run(r, "bw", "ibgap", a[r]); run(r, "bw", "perftest", b[r])
		printf "%d\tbw\tibgap\tgbps\t%.6f\tGb/s\n", r, w > tsv
		printf "%d\tbw\tperftest\tgbps\t1\tGb/s\n", r > tsv
		printf "%d\tbw\tratio\tibgap/perftest\t%.3f\tx\n", r, w > tsv
		if (r > 5) continue
		l = 0.8 * exp(d)
		run(r, "lat", "ibgap", a[r]); run(r, "lat", "perftest", b[r])
		printf "%d\tlat\tibgap\tp50\t%.6f\tus\n", r, 10 * l > tsv
		printf "%d\tlat\tperftest\tp50\t10\tus\n", r > tsv
		printf "%d\tlat\tratio\tibgap/perftest\t%.3f\tx\n", r, l > tsv
		if (r > 3) continue
		printf "%d\tsend_bw\tibgap\tgbps\t1\tGb/s\n", r > tsv
		printf "%d\tsend_bw\tperftest\tgbps\tNA\tGb/s\n", r > tsv
	}
	for (r = 1; r <= 5; r++) {
		run(r, "read_lat", "ibgap", 0); run(r, "read_lat", "perftest", 0)
		printf "%d\tread_lat\tibgap\tp50\t9\tus\n", r > tsv
		printf "%d\tread_lat\tperftest\tp50\t10\tus\n", r > tsv
		printf "%d\tread_lat\tratio\tibgap/perftest\t0.900\tx\n", r > tsv
	}
	printf "1\tread_bw\tibgap\tgbps\t1.5\tGb/s\n" > tsv
	printf "1\tread_bw\tperftest\tgbps\t1\tGb/s\n" > tsv
}'

# rs_bw, 4 rounds: 0.1/0.2 0.1/0.1 0.3/0.2 0.1/0.25 = 0.5 1.0 1.5 0.4,
# median (0.5 + 1.0) / 2 = 0.750, min-max covers 1 - 2/16 = 87.5%.
# rs_lat, 2 rounds, ibgap mean 100 us, rstream 150 and 170: 1.5 1.7,
# median 1.600, min-max covers 50%.
{
	echo "$HEAD"
	printf '%s\trs_bw\t%s\tgbps\t%s\tGb/s\n' 1 ibgap 0.1 1 rstream 0.2 \
		2 ibgap 0.1 2 rstream 0.1 3 ibgap 0.3 3 rstream 0.2 \
		4 ibgap 0.1 4 rstream 0.25
	printf '%s\trs_lat\t%s\tmean\t%s\tus\n' 1 ibgap 100 1 rstream 150 \
		2 ibgap 100 2 rstream 170
} >"$RUNS/rs_vs_rstream-20260101-000100.tsv"

cat >"$RUNS/peers-20260101-000000.meta" <<'EOF'
date=2026-01-01 00:00 UTC
commit=abc1234
tree=clean
ibgap=ibgap 0.1.0 (git abc1234)
cpu=Made-up CPU @ 1.00GHz
hypervisor=KVM
nproc=2
kernel=6.1.0-test
rounds=9
mode=full
only=all
pin=0:1
guest_kernel=6.1.0-guest
guest_cpus=2
guest_clocksource=hpet
host_s=100
guest_s=200
EOF

# ---- checks -------------------------------------------------------------------

out=
expect() {
	if [[ $out == *"$1"* ]]; then
		echo "ok: $2"
	else
		echo "FAIL: $2: no '$1' in:"
		echo "$out"
		fails=$((fails + 1))
	fi
}

# count_is N PATTERN WHAT: N lines of $out match the grep PATTERN
count_is() {
	local c

	c=$(grep -c -- "$2" <<<"$out")
	if [[ $c == "$1" ]]; then
		echo "ok: $3"
	else
		echo "FAIL: $3: $c lines match '$2', not $1"
		fails=$((fails + 1))
	fi
}

reject() {
	if [[ $out != *"$1"* ]]; then
		echo "ok: $2"
	else
		echo "FAIL: $2: '$1' in:"
		echo "$out"
		fails=$((fails + 1))
	fi
}

page=$DIR/page.md
printf '# Title\n\nhand-written before\n\n%s\nold table\n%s\n\nhand-written after\n' \
	'<!-- peers:begin: written by bench/peers --report, do not edit by hand -->' \
	'<!-- peers:end -->' >"$page"
msg=$(bash "$PEERS" --report "$RUNS" --out "$page" 2>&1)
rc=$?
[[ $rc == 0 ]] || { echo "FAIL: --report exited $rc: $msg"; exit 1; }
out=$(<"$page")

expect '| tcp_bw | `tcp_bw 128 KiB, 1 stream` | `iperf3 -l 128K (receiver)` | ibgap/peer | 1.050 | 0.900-1.200 | 9 | not recorded |' \
	"tcp_bw: median 1.050, x(2)..x(8) of 9 rounds"
expect '| ibgap/peer | 1.150 | 0.500-2.000 | 8 (1 failed) | not recorded |' \
	"tcp_bw_P4: a failed round counted, 8 rounds: min-max"
expect '| peer/ibgap | 1.700 | 1.500-1.900 (min-max: 94% only) | 5 |' \
	"tcp_lat: sockperf/ibgap, 5 rounds: min-max and its 94%"
expect '| qperf_bw | `tcp_bw 128 KiB, 1 stream` | `qperf tcp_bw -m 131072` | ibgap/peer | **missing: not measured** |' \
	"qperf_bw: never run, shown as missing"
expect '| peer/ibgap | 1.250 | 1.000-1.500 (min-max: 75% only) | 3 |' \
	"qperf_lat: qperf mean / ibgap mean"
expect '| write_bw | `write_bw 64 KiB` | `ib_write_bw` | ibgap/peer | 1.010 | 0.756-1.246 | 7 | 1.020 (1.0' \
	"write_bw: median, min-max at 98%, ratio at equal steal 1.020"
expect ', 7 rounds) |' "write_bw: the fit's rounds"
expect '| send_lat | `send_lat 2 B, p50` | `ib_send_lat -r 2, t_typical (median)` | peer/ibgap | 1.250 | 0.926-1.527 (min-max: 94% only) | 5 | 1.250 (1.2' \
	"send_lat: perftest/ibgap, at equal steal 1/0.8"
expect '| send_bw | `send_bw 64 KiB` | `ib_send_bw` | ibgap/peer | **missing: every run failed** | | 0 (3 failed) |' \
	"send_bw: every perftest run failed"
expect '| ibgap/peer | 1.500 | - | 1 | no fit (needs 5 rounds and steal samples) |' \
	"read_bw: one round, no interval, no fit"
expect '| peer/ibgap | 1.111 | 1.111-1.111 (min-max: 94% only) | 5 | no steal difference in 5 rounds: as measured |' \
	"read_lat: no steal in any round, so nothing to fit"
for k in ud_send_bw ud_send_lat; do
	expect "| $k | " "$k has its row"
done
count_is 3 'missing: not measured' \
	"three rows missing (qperf_bw, ud_send_bw, ud_send_lat)"
count_is 14 '^| [A-Za-z_0-9]* | `' "14 rows"
expect '| rs_bw | `rs_bw 64 KiB, --window 512K, one way` | `rstream -S 65536 -C N: N out, then N back; both directions'"'"' bytes` | ibgap/peer | 0.750 | 0.400-1.500 (min-max: 88% only) | 4 | not recorded |' \
	"rs_bw: ibgap/rstream"
expect '| peer/ibgap | 1.600 | 1.500-1.700 (min-max: 50% only) | 2 | not recorded |' \
	"rs_lat: rstream/ibgap means"
expect '2026-01-01 00:00 UTC, commit abc1234 (clean tree; ibgap 0.1.0 (git abc1234))' \
	"the run's date and commit"
expect 'Machine: Made-up CPU @ 1.00GHz, 2 CPUs (hypervisor KVM), kernel 6.1.0-test' \
	"the machine"
expect '2 CPUs, kernel 6.1.0-guest, clocksource hpet' "the guest"
expect 'clocksource hpet. Pinned (--pin 0:1): every client in the guest on CPU 0, every server on CPU 1.' \
	"the guest's pinning"
reject 'Not pinned' "a pinned run is not said to be unpinned"
reject 'Quick smoke run' "a full run is not labelled quick"
expect $'# Title\n\nhand-written before\n\n<!-- peers:begin' \
	"the text before the markers kept"
expect $'<!-- peers:end -->\n\nhand-written after' \
	"the text after the markers kept"
reject 'old table' "the old table replaced"

# Written again, the page has one table, not two.
bash "$PEERS" --report "$RUNS" --out "$page" >/dev/null 2>&1
out=$(<"$page")
count_is 1 '^| tcp_bw |' "regenerated in place, one table"

# A quick run in the directory: the table says so.
sed -e 's/^mode=full/mode=quick/' -e '/^pin=/d' "$RUNS/peers-20260101-000000.meta" \
	>"$RUNS/peers-20260101-010000.meta"
bash "$PEERS" --report "$RUNS" --out "$DIR/new.md" >/dev/null 2>&1
out=$(cat "$DIR/new.md" 2>/dev/null)
expect '**Quick smoke run**' "a quick run is labelled"
expect 'clocksource hpet. Not pinned.' "a run without pin= (older, or --pin not given) is unpinned"
expect '<!-- peers:end -->' "a new --out file gets the table with its markers"

# Refusals: no markers, no directory.
echo "no markers" >"$DIR/plain.md"
msg=$(bash "$PEERS" --report "$RUNS" --out "$DIR/plain.md" 2>&1)
rc=$?
if [[ $rc == 2 && $msg == *"plain.md: want one line"* &&
      $(<"$DIR/plain.md") == "no markers" ]]; then
	echo "ok: a page without markers: exit 2, left alone"
else
	echo "FAIL: a page without markers: exit $rc: $msg"
	fails=$((fails + 1))
fi
msg=$(bash "$PEERS" --report "$DIR/none" --out "$DIR/x.md" 2>&1)
rc=$?
if [[ $rc == 2 && $msg == *"none: no such directory"* ]]; then
	echo "ok: a missing directory: exit 2 and its name"
else
	echo "FAIL: a missing directory: exit $rc: $msg"
	fails=$((fails + 1))
fi
((fails == 0)) || exit 1
echo "peers_report: all checks passed"
