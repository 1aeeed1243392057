#!/usr/bin/env bash
# The per-tool functions are called by name (measure, trap):
# shellcheck disable=SC2317
# SPDX-License-Identifier: MIT
#
# verbs_vs_perftest.guest.sh - the measuring half of verbs_vs_perftest.sh.
# It runs where an RDMA device exists (IG_RDMA_DEV, IG_RDMA_ADDR), which on
# the build machines means inside the Soft-RoCE guest of tests/rxe/rxe-run:
#
#   tests/rxe/rxe-run bash bench/verbs_vs_perftest.guest.sh [options]
#
# Normally verbs_vs_perftest.sh calls it and saves what it prints.  In every
# round, alternating which tool goes first (odd rounds ibgap first, even
# rounds perftest first):
#
#   write_bw vs ib_write_bw   same size, iterations, tx depth, CQ moderation,
#                             no warm-up on either side; ibgap's bw_gbps vs
#                             perftest's "BW average" with --report_gbits
#                             (both 10^9 bit/s)
#   send_lat vs ib_send_lat   same size and iterations, no warm-up; ibgap p50
#                             vs perftest t_typical (its median), plus min
#                             and mean (perftest's t_avg drops the two
#                             largest samples; ibgap's mean keeps all).
#                             20,000 round trips by default, perftest with
#                             -r 2: perftest posts its receive queue
#                             (rx_depth) once and re-posts a receive only
#                             while rcnt + rx_depth <= iters, so its last
#                             rx_depth round trips skip ibv_post_recv on
#                             both sides.  Its default rx_depth is 512 for
#                             RC and, for UD, min(iters, 16000): 80% of a
#                             UD run of 20,000, all of one of 16,000 or
#                             less.  ibgap re-posts every receive; with
#                             -r 2 perftest re-posts all but the last 2
#                             (docs/lab/2026-12-02-latency-rx-depth.md,
#                             docs/lab/2026-12-03-ud-rs-latency.md)
#   send_bw vs ib_send_bw     (-T send_bw) as write_bw, with two-sided
#                             RC sends (the receiver posts the receives)
#   read_bw vs ib_read_bw     (-T read_bw) as write_bw, with both tools'
#                             default read depth: the device's
#                             max_qp_rd_atom (ibgap --outs 0, perftest -o)
#   read_lat vs ib_read_lat   (-T read_lat) as send_lat; both report the
#                             whole read, not half of it
#   ud_send_bw vs ib_send_bw -c UD   (-T ud_bw) as write_bw at --ud-size
#                             (the path MTU at most); ibgap's figure is
#                             what its receiver got
#   ud_send_lat vs ib_send_lat -c UD (-T ud_lat) as send_lat
#
# Besides the figures it records, per run, the client's wall/user/system
# seconds and the rxe port counters (packets, duplicate requests, retries).
# Everything goes to a TSV under -o (default $TMPDIR or /tmp, the only
# writable place in the guest); with --emit the TSV and the raw outputs are
# also printed between "@@begin NAME" and "@@end" lines, so that the host
# can save them.  Exit 0 when every run gave its figure, 1 when some did
# not, 2 on a usage or set-up error, 77 without an RDMA device.
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"

SELF=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
IBGAP=$HERE/../build/ibgap
ROUNDS=5
BW_SIZE=64K
UD_SIZE=1024
BW_ITERS=2000
TX_DEPTH=128
CQ_MOD=16
LAT_SIZE=2
LAT_ITERS=20000
QP_TIMEOUT=17
OUTDIR=${TMPDIR:-/tmp}
BASE_PORT=19500
STAMP=
TESTS=bw,lat
IBGAP_BW_EXTRA=
PT_BW_EXTRA=
IBGAP_LAT_EXTRA=
PT_LAT_EXTRA=
LAT_PIN=
PIN=
PIN_CLI=()
PIN_SRV=()
PT_CLI_WRAP=()
EMIT=0
CHECK=0
RUN_TIMEOUT=600

usage() {
	cat <<EOF
usage: $SELF [options]
  -r, --rounds N        rounds; each runs all four tools once (default $ROUNDS)
  -s, --size BYTES      write_bw message size, K/M = powers of 2 (default
                        $BW_SIZE)
  -n, --iters N         write_bw messages = perftest -n (default $BW_ITERS)
  -t, --tx-depth N      both tools' send queue depth for write_bw (default
                        $TX_DEPTH)
  -Q, --cq-mod N        both tools' CQ moderation for write_bw (default
                        $CQ_MOD)
  -m, --lat-size BYTES  send_lat message size (default $LAT_SIZE)
  -N, --lat-iters N     latency round trips = perftest -n (default
                        $LAT_ITERS; below 20 x 512 perftest's last 512,
                        which post no receive, weigh on its median)
  -u, --qp-timeout N    perftest -u (QP ACK timeout 4.096 us * 2^N); 0 keeps
                        perftest's own default of 14 (default $QP_TIMEOUT, the
                        value rdma_cm gives ibgap's RoCE QPs on Linux 6.1)
  -o, --outdir DIR      where the TSV and raw outputs go (default $OUTDIR)
  -p, --base-port P     ibgap's control port P; perftest uses ports from
                        P+100 on, a new one for every run (default
                        $BASE_PORT)
  -b, --ibgap PATH      ibgap binary (default $IBGAP)
  -T, --tests LIST      comma list of bw (write_bw), lat (send_lat),
                        send_bw, read_bw, read_lat, ud_bw (ud_send_bw),
                        ud_lat (ud_send_lat) (default $TESTS)
      --ud-size BYTES   ud_bw's message size, at most the path MTU
                        (default $UD_SIZE, rxe's on a 1500-byte netdev)
      --ibgap-bw-extra ARGS, --perftest-bw-extra ARGS,
      --ibgap-lat-extra ARGS, --perftest-lat-extra ARGS
                        more options (split at spaces) for one tool's runs,
                        for experiments: e.g. --perftest-bw-extra '-l 32'
      --lat-pin CPU     pin both tools' send_lat clients to CPU (ibgap
                        --cpu CPU, perftest under taskset -c CPU; the
                        servers stay free): a pinned ibgap reads the TSC
                        even where /proc/cpuinfo hides its invariance
                        (docs/design.md, "Clock")
      --pin C:S         every run of both tools with its client on CPU C and
                        its server on CPU S (taskset -c; ibgap's server
                        process for the whole run): the two ends of a test
                        share this one machine's CPUs, and pinning them
                        raised ibgap's send_bw by 1-6% and left
                        perftest's as it was
                        (docs/lab/2026-12-07-send-bw-placement.md)
      --stamp STAMP     name the files verbs_vs_perftest-STAMP.* (default:
                        the current time)
      --emit            also print the TSV and raw outputs for the host
      --check           only check the options (used by the host wrapper)
  -h, --help            this text
EOF
}

# "64K" -> 65536; powers of 2 like ibgap's and perftest's sizes.
to_bytes() {
	local v=$1 n m=1

	case $v in
	*[kK]) m=1024 ;;
	*[mM]) m=$((1024 * 1024)) ;;
	esac
	n=${v%[kKmM]}
	[[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || return 1
	echo $((n * m))
}

# want_int NAME VALUE MIN MAX
want_int() {
	if [[ ! $2 =~ ^[0-9]+$ ]] || (($2 < $3 || $2 > $4)); then
		die "$1 wants an integer in $3..$4, not '$2'"
	fi
}

parse_args() {
	while (($#)); do
		case $1 in
		--emit | --check | -h | --help) ;;
		-*) (($# >= 2)) || die "option $1 needs a value" ;;
		esac
		case $1 in
		-r | --rounds) ROUNDS=$2 ; shift ;;
		-s | --size) BW_SIZE=$2 ; shift ;;
		-n | --iters) BW_ITERS=$2 ; shift ;;
		-t | --tx-depth) TX_DEPTH=$2 ; shift ;;
		-Q | --cq-mod) CQ_MOD=$2 ; shift ;;
		-m | --lat-size) LAT_SIZE=$2 ; shift ;;
		-N | --lat-iters) LAT_ITERS=$2 ; shift ;;
		-u | --qp-timeout) QP_TIMEOUT=$2 ; shift ;;
		-o | --outdir) OUTDIR=$2 ; shift ;;
		-p | --base-port) BASE_PORT=$2 ; shift ;;
		-b | --ibgap) IBGAP=$2 ; shift ;;
		-T | --tests) TESTS=$2 ; shift ;;
		--ud-size) UD_SIZE=$2 ; shift ;;
		--ibgap-bw-extra) IBGAP_BW_EXTRA=$2 ; shift ;;
		--perftest-bw-extra) PT_BW_EXTRA=$2 ; shift ;;
		--ibgap-lat-extra) IBGAP_LAT_EXTRA=$2 ; shift ;;
		--perftest-lat-extra) PT_LAT_EXTRA=$2 ; shift ;;
		--lat-pin) LAT_PIN=$2 ; shift ;;
		--pin) PIN=$2 ; shift ;;
		--stamp) STAMP=$2 ; shift ;;
		--emit) EMIT=1 ;;
		--check) CHECK=1 ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; die "unknown argument '$1'" ;;
		esac
		shift
	done
	want_int "-r" "$ROUNDS" 1 1000
	BW_BYTES=$(to_bytes "$BW_SIZE") || die "bad -s size '$BW_SIZE'"
	UD_BYTES=$(to_bytes "$UD_SIZE") || die "bad --ud-size '$UD_SIZE'"
	((UD_BYTES >= 1 && UD_BYTES <= 4096)) ||
		die "--ud-size $UD_SIZE: a UD message is one packet: 1 to 4096"
	LAT_BYTES=$(to_bytes "$LAT_SIZE") || die "bad -m size '$LAT_SIZE'"
	((BW_BYTES <= 8388608)) ||
		die "-s $BW_SIZE is above perftest's 8 MiB maximum"
	((LAT_BYTES <= 8388608)) ||
		die "-m $LAT_SIZE is above perftest's 8 MiB maximum"
	# perftest wants at least 5 iterations; ibgap caps at 10^9.
	want_int "-n" "$BW_ITERS" 5 1000000000
	want_int "-N" "$LAT_ITERS" 5 1000000000
	[[ -z $LAT_PIN ]] || want_int "--lat-pin" "$LAT_PIN" 0 4095
	if [[ -n $PIN ]]; then
		pin_set "$PIN"
		[[ -z $LAT_PIN ]] || die "--pin and --lat-pin: give one of them"
	fi
	want_int "-t" "$TX_DEPTH" 1 8192
	want_int "-Q" "$CQ_MOD" 1 "$TX_DEPTH"
	want_int "-u" "$QP_TIMEOUT" 0 31
	want_int "-p" "$BASE_PORT" 1024 $((65535 - 100 - PORTS_A_ROUND * ROUNDS))
	check_tests
	[[ -z $STAMP || $STAMP =~ ^[A-Za-z0-9._-]+$ ]] ||
		die "--stamp wants letters, digits, '.', '_' or '-', not" \
		    "'$STAMP'"
	[[ -x $IBGAP ]] || die "no ibgap binary at '$IBGAP' (build it:" \
		"cmake -S . -B build && cmake --build build, or pass -b)"
}

# The tests -T names: ibgap's test, perftest's tool, and the first of the
# four perftest ports each round gives it (a fresh one per attempt).
declare -A T_IBGAP=([bw]=write_bw [lat]=send_lat [read_bw]=read_bw
	[read_lat]=read_lat [ud_bw]=ud_send_bw [ud_lat]=ud_send_lat
	[send_bw]=send_bw)
declare -A T_PT=([bw]=ib_write_bw [lat]=ib_send_lat [read_bw]=ib_read_bw
	[read_lat]=ib_read_lat [ud_bw]=ib_send_bw [ud_lat]=ib_send_lat
	[send_bw]=ib_send_bw)
declare -A T_PORT=([bw]=0 [lat]=4 [read_bw]=8 [read_lat]=12 [ud_bw]=16
	[ud_lat]=20 [send_bw]=24)
PORTS_A_ROUND=28
# perftest's options for a test beyond the common ones
# (-r 2 on the send latency tests: the header says why; -I 0 and ibgap's
# --inline 0: no inline sends on either side, the same work on any
# device, where by default perftest sends inline on the HCAs it knows and
# not on others, rxe among them, and ibgap on every device that takes it)
declare -A T_PT_ARGS=([ud_bw]="-c UD" [ud_lat]="-c UD -r 2 -I 0"
	[lat]="-r 2 -I 0")
declare -A T_IB_ARGS=([ud_lat]="--inline 0" [lat]="--inline 0")

# -T: known names, each once.
check_tests() {
	local t seen=,

	[[ -n $TESTS ]] || die "-T wants a list of tests"
	for t in ${TESTS//,/ }; do
		[[ -n ${T_IBGAP[$t]:-} ]] ||
			die "-T: unknown test '$t' in '$TESTS': allowed bw," \
			    "lat, send_bw, read_bw, read_lat, ud_bw, ud_lat"
		[[ $seen != *,$t,* ]] || die "-T: '$t' twice in '$TESTS'"
		seen+=$t,
	done
}

# A bandwidth test's message size: --ud-size for UD, else -s.
bw_bytes() {
	if [[ $1 == ud_bw ]]; then echo "$UD_BYTES"; else echo "$BW_BYTES"; fi
}

# bw or lat: how a test of -T is measured and reported.
kind() {
	case $1 in
	bw | send_bw | read_bw | ud_bw) echo bw ;;
	*) echo lat ;;
	esac
}

need_tools() {
	local t missing=()

	for t in "${T_PT[@]}" jq ss timeout awk; do
		command -v "$t" >/dev/null 2>&1 || missing+=("$t")
	done
	((${#missing[@]} == 0)) ||
		die "missing ${missing[*]} (Debian packages perftest, jq," \
		    "iproute2, coreutils, gawk or mawk)"
}

# ---- helpers --------------------------------------------------------------

HWC=

# CPU ticks (USER_HZ) of every ksoftirqd thread, summed.
ksoftirqd_ticks() {
	local d c t=0 st

	for d in /proc/[0-9]*; do
		read -r c 2>/dev/null <"$d/comm" || continue
		[[ $c == ksoftirqd/* ]] || continue
		read -r -a st 2>/dev/null <"$d/stat" || continue
		# utime, stime: fields 14, 15 (comm has no spaces here)
		t=$((t + st[13] + st[14]))
	done
	echo "$t"
}

# Prints "sent_pkts duplicate_request completer_retry_err softirq ksoftirqd":
# the rxe port's counters (NA where the device has no such counter, e.g. a
# real HCA), the host's softirq ticks (/proc/stat) and ksoftirqd's ticks.
counters() {
	local f v out=() cpu

	for f in sent_pkts duplicate_request completer_retry_err; do
		v=NA
		[[ -n $HWC && -r $HWC/$f ]] && v=$(<"$HWC/$f")
		out+=("$v")
	done
	read -r -a cpu </proc/stat
	out+=("${cpu[7]}" "$(ksoftirqd_ticks)")
	echo "${out[*]}"
}

# delta "A1 B1 C1" "A2 B2 C2" -> "dA dB dC" (NA stays NA)
delta() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) {
			d = (x[i] == "NA" || y[i] == "NA") ? "NA" : y[i] - x[i]
			printf "%s%s", d, (i < n ? " " : "\n")
		} }'
}

# wait_listen NAME PORT PID LOG: until PORT listens (at most 30 s; bash and
# every process start take about a second in the emulated guest).
wait_listen() {
	local i

	for ((i = 0; i < 300; i++)); do
		port_listening "$2" && return 0
		kill -0 "$3" 2>/dev/null || {
			echo "  $1 server exited at start: $(tail -3 "$4")" >&2
			return 1
		}
		sleep 0.1
	done
	echo "  $1 server is not listening on port $2 after 30 s" >&2
	return 1
}

# timed TAG CMD...: runs CMD with output in $RAW/TAG.{out,err}, its wall,
# user and system seconds in $RAW/TAG.time.  Returns CMD's status.
timed() {
	local tag=$1 rc=0 TIMEFORMAT='%R %U %S' t0

	shift
	echo "$*" >"$RAW/$tag.cmd"
	t0=${EPOCHREALTIME/,/.}
	{ time timeout "$RUN_TIMEOUT" "$@" >"$RAW/$tag.out" \
		2>"$RAW/$tag.err" || rc=$?; } 2>"$RAW/$tag.time"
	# when the client ran, on the guest's clock (the host's time): the
	# host wrapper matches it with the host's steal time; bash's clock,
	# not date(1): a process start costs the emulated guest
	echo "$t0 ${EPOCHREALTIME/,/.}" >"$RAW/$tag.span"
	return "$rc"
}

# ---- one run of each tool -------------------------------------------------
# Each prints its figures on one line (first the compared one), or fails.

IBGAP_PID=

start_ibgap() {
	port_listening "$BASE_PORT" &&
		die "port $BASE_PORT is already in use; pick another -p"
	timeout $((RUN_TIMEOUT * 8 * ROUNDS)) "${PIN_SRV[@]}" "$IBGAP" server \
		-p "$BASE_PORT" \
		>"$RAW/server_ibgap.log" 2>&1 &
	IBGAP_PID=$!
	wait_listen ibgap "$BASE_PORT" "$IBGAP_PID" \
		"$RAW/server_ibgap.log" || die "cannot start the ibgap server"
}

stop_ibgap() {
	[[ -n $IBGAP_PID ]] || return 0
	kill "$IBGAP_PID" 2>/dev/null
	wait "$IBGAP_PID" 2>/dev/null
	IBGAP_PID=
}

# ibgap_run TAG TEST ARGS...
ibgap_run() {
	local tag=$1 test=$2

	shift 2
	timed "$tag" "${PIN_CLI[@]}" "$IBGAP" client -p "$BASE_PORT" -t "$test" \
		--warmup 0 --format json "$@" "$IG_RDMA_ADDR" || {
		echo "  $tag: ibgap exited $?: $(tail -2 "$RAW/$tag.err")" >&2
		return 1
	}
}

# ibgap_bw TAG PORT TEST: prints "bw_gbps seconds".
ibgap_bw() {
	# shellcheck disable=SC2086 # extra options are split on purpose
	ibgap_run "$1" "${T_IBGAP[$3]}" -s "$(bw_bytes "$3")" -n "$BW_ITERS" \
		--tx-depth "$TX_DEPTH" --cq-mod "$CQ_MOD" $IBGAP_BW_EXTRA ||
		return 1
	[[ $3 == ud_bw ]] && echo "  $1: $(jq -r '.results[0] |
		"sent \(.sent), received \(.iterations), lost \(.lost)"' \
		"$RAW/$1.out")" >&2
	jq -er '.results[0] | "\(.bw_gbps) \(.seconds)"' "$RAW/$1.out"
}

# ibgap_lat TAG PORT TEST: prints "p50 min mean p99" in us (half round
# trip; read_lat: the whole read).
ibgap_lat() {
	local pin=()

	[[ -n $LAT_PIN ]] && pin=(--cpu "$LAT_PIN")
	# shellcheck disable=SC2086 # extra options are split on purpose
	ibgap_run "$1" "${T_IBGAP[$3]}" -s "$LAT_BYTES" -n "$LAT_ITERS" "${pin[@]}" \
		${T_IB_ARGS[$3]:-} $IBGAP_LAT_EXTRA || return 1
	echo "  $1: clock $(jq -r '.results[0] |
		"\(.clock) \(.clock_ghz) \(.warning // "")"' "$RAW/$1.out")" >&2
	jq -er '.results[0].lat_us | "\(.p50) \(.min) \(.mean) \(.p99)"' \
		"$RAW/$1.out"
}

# perftest_run TAG PORT TOOL ARGS...: server, then client (retried while the
# server does not accept yet); the client's output is $RAW/TAG.out.
perftest_run() {
	local tag=$1 port=$2 tool=$3 spid i rc

	shift 3
	port_listening "$port" && {
		echo "  $tag: port $port is in use" >&2
		return 1
	}
	timeout "$RUN_TIMEOUT" "${PIN_SRV[@]}" "$tool" "$@" -p "$port" \
		>"$RAW/$tag.server" 2>&1 &
	spid=$!
	wait_listen "$tool" "$port" "$spid" "$RAW/$tag.server" || {
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		return 1
	}
	for ((i = 0; i < 10; i++)); do
		rc=0
		timed "$tag" "${PT_CLI_WRAP[@]}" "${PIN_CLI[@]}" "$tool" "$@" -p "$port" \
			"$IG_RDMA_ADDR" || rc=$?
		((rc == 0)) && break
		grep -q "Couldn't connect" "$RAW/$tag.out" "$RAW/$tag.err" ||
			break
		sleep 0.5
	done
	# The server ends by itself once the client is done.
	for ((i = 0; i < 100; i++)); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	((rc == 0)) || {
		echo "  $tag: $tool exited $rc: $(tail -2 "$RAW/$tag.err")" >&2
		return 1
	}
}

PT_COMMON=()
PT_TRIES=3

# perftest converts its rdtsc cycles with a CPU clock it samples against
# gettimeofday() at the end of the run; in a busy emulated guest that
# sampling sometimes fails (r^2 < 0.9): ib_write_bw then says "Can't
# produce a report", ib_send_lat prints inf.  Such a run is repeated, up to
# PT_TRIES times (the attempts are recorded).
# pt_retry TAG PORT FN-TO-PARSE TOOL ARGS...: uses PORT..PORT+PT_TRIES-1
pt_retry() {
	local tag=$1 port=$2 parse=$3 i out f

	shift 3
	for ((i = 1; i <= PT_TRIES; i++)); do
		echo "$i" >"$RAW/$tag.attempts"
		# a fresh port for every attempt: no TIME_WAIT clash;
		# ib_read_bw exits 1 on a failed calibration, ib_write_bw 0
		if perftest_run "$tag" $((port + i - 1)) "$@" &&
			out=$("$parse" "$RAW/$tag.out"); then
			echo "$out"
			return 0
		fi
		grep -q -e "Can't produce a report" -e "r^2" -e ' inf ' \
			"$RAW/$tag.out" "$RAW/$tag.err" || return 1
		echo "  $tag: perftest's clock calibration failed" \
		     "(attempt $i of $PT_TRIES)" >&2
		for f in out err server time; do
			mv "$RAW/$tag.$f" "$RAW/$tag.try$i.$f" 2>/dev/null
		done
	done
	return 1
}

# The "BW average" column in MB/sec, perftest's MiB (2^20 bytes) per
# second, converted to 10^9 bit/s; and the interval it implies.  (With
# --report_gbits perftest divides by 125000000, i.e. 10^9 bit/s too, but
# prints only 2 decimals above 0.1 Gb/s: too coarse at 0.1-0.3 Gb/s.)
parse_pt_bw() {
	# "#bytes #iterations BW peak BW average MsgRate"
	awk -v b="${BW_NOW:-$BW_BYTES}" -v n="$BW_ITERS" '
		$1 == b && $2 == n && NF >= 5 && $4 + 0 > 0 &&
		$4 !~ /inf|nan/ {
			g = $4 * 1048576 * 8 / 1e9
			printf "%.6f %.6f\n", g, b * n * 8 / (g * 1e9); ok = 1
			exit }
		END { exit !ok }' "$1"
}

# #bytes #iter t_min t_max t_typical t_avg t_stdev 99% 99.9%
parse_pt_lat() {
	awk -v b="$LAT_BYTES" -v n="$LAT_ITERS" '
		$1 == b && $2 == n && NF >= 9 && $5 !~ /inf|nan/ {
			print $5, $3, $6, $8; ok = 1; exit }
		END { exit !ok }' "$1"
}

# perftest_bw TAG PORT TEST: prints "bw_gbps seconds"; seconds = bytes * 8
# / bw, perftest's interval.
perftest_bw() {
	local BW_NOW

	BW_NOW=$(bw_bytes "$3") # parse_pt_bw's size
	local args=(-s "$BW_NOW" -n "$BW_ITERS" -t "$TX_DEPTH" -Q "$CQ_MOD")

	# shellcheck disable=SC2086 # extra options are split on purpose
	pt_retry "$1" "$2" parse_pt_bw "${T_PT[$3]}" "${PT_COMMON[@]}" \
		"${args[@]}" ${T_PT_ARGS[$3]:-} $PT_BW_EXTRA
}

# perftest_lat TAG PORT TEST: prints "t_typical t_min t_avg p99" in us
# (half round trip; ib_read_lat: the whole read).
perftest_lat() {
	local PT_CLI_WRAP=()

	[[ -n $LAT_PIN ]] && PT_CLI_WRAP=(taskset -c "$LAT_PIN")
	# shellcheck disable=SC2086 # extra options are split on purpose
	pt_retry "$1" "$2" parse_pt_lat "${T_PT[$3]}" "${PT_COMMON[@]}" \
		-s "$LAT_BYTES" -n "$LAT_ITERS" ${T_PT_ARGS[$3]:-} $PT_LAT_EXTRA
}

# ---- bookkeeping ------------------------------------------------------------

FAILED=0

# measure ROUND TEST TOOL FN PORT METRIC:UNIT...: runs FN, records its
# figures (NA when it failed) and the run's time and counters; sets FIRST
# to the first figure.
measure() {
	local round=$1 test=$2 tool=$3 fn=$4 port=$5 tag vals c0 c1 d mu i=0
	local t v

	shift 5
	tag=r${round}_${test}_$tool
	c0=$(counters)
	if ! vals=$("$fn" "$tag" "$port" "$test") || [[ -z $vals ]]; then
		echo "  round $round: $tool $test gave no figure (see $tag.*)" >&2
		FAILED=1
		vals=
	fi
	c1=$(counters)
	ATTEMPTS=$(cat "$RAW/$tag.attempts" 2>/dev/null) || ATTEMPTS=1
	read -r -a v <<<"$vals"
	FIRST=${v[0]:-NA}
	for mu in "$@"; do
		record "$round" "$test" "$tool" "${mu%%:*}" "${v[i]:-NA}" \
			"${mu#*:}"
		((i++))
	done
	read -r -a t <<<"$(cat "$RAW/$tag.span" 2>/dev/null)"
	record "$round" "$test" "$tool" start "${t[0]:-NA}" s
	record "$round" "$test" "$tool" end "${t[1]:-NA}" s
	read -r -a t <<<"$(cat "$RAW/$tag.time" 2>/dev/null)"
	record "$round" "$test" "$tool" wall "${t[0]:-NA}" s
	record "$round" "$test" "$tool" user "${t[1]:-NA}" s
	record "$round" "$test" "$tool" sys "${t[2]:-NA}" s
	read -r -a d <<<"$(delta "$c0" "$c1")"
	record "$round" "$test" "$tool" pkts "${d[0]}" packets
	record "$round" "$test" "$tool" dup_req "${d[1]}" packets
	record "$round" "$test" "$tool" retries "${d[2]}" events
	record "$round" "$test" "$tool" softirq "$(ticks_s "${d[3]}")" s
	record "$round" "$test" "$tool" ksoftirqd "$(ticks_s "${d[4]}")" s
	record "$round" "$test" "$tool" attempts "${ATTEMPTS:-1}" x
}

# ticks_s TICKS -> seconds (USER_HZ ticks)
ticks_s() {
	awk -v t="$1" -v hz="$HZ" 'BEGIN {
		if (t == "NA") print "NA"; else printf "%.2f\n", t / hz }'
}

# pair ROUND FIRST TEST: both tools' run of TEST, FIRST's first; sets A
# (ibgap's figure) and B (perftest's).  perftest's ports: PORTS_A_ROUND a
# round, from P+100, four for each test (T_PORT).
pair() {
	local r=$1 first=$2 tst=$3 k port
	local -a m

	k=$(kind "$tst")
	port=$((BASE_PORT + 100 + PORTS_A_ROUND * (r - 1) + T_PORT[$tst]))
	m=(gbps:Gb/s seconds:s)
	[[ $k == lat ]] && m=(p50:us min:us mean:us p99:us)
	if [[ $first == perftest ]]; then
		measure "$r" "$tst" perftest "perftest_$k" "$port" "${m[@]}"
		B=$FIRST
	fi
	measure "$r" "$tst" ibgap "ibgap_$k" "$port" "${m[@]}"
	A=$FIRST
	if [[ $first == ibgap ]]; then
		measure "$r" "$tst" perftest "perftest_$k" "$port" "${m[@]}"
		B=$FIRST
	fi
}

# value TEST TOOL METRIC ROUND -> that figure of the TSV
value() {
	awk -F'\t' -v r="$4" -v t="$1" -v o="$2" -v m="$3" \
		'$1 == r && $2 == t && $3 == o && $4 == m { print $5 }' "$TSV"
}

one_round() {
	local r=$1 first=ibgap t n=0

	((r % 2)) || first=perftest
	record "$r" host guest loadavg1 "$(cut -d' ' -f1 /proc/loadavg)" x
	printf 'round %d (%s first):' "$r" "$first"
	for t in ${TESTS//,/ }; do
		((n++)) && printf '        '
		pair "$r" "$first" "$t"
		record "$r" "$t" ratio ibgap/perftest "$(ratio "$A" "$B")" x
		"round_$(kind "$t")" "$r" "$t"
	done
}

# round_bw ROUND TEST: the round's line for a bandwidth test.
round_bw() {
	printf ' %s ibgap %s perftest %s Gb/s (ratio %s);' "${T_IBGAP[$2]}" \
		"$(fmt 4 "$A")" "$(fmt 4 "$B")" "$(ratio "$A" "$B")"
	printf ' user %s/%s s, ksoftirqd %s/%s s, retries %s/%s\n' \
		"$(value "$2" ibgap user "$1")" \
		"$(value "$2" perftest user "$1")" \
		"$(value "$2" ibgap ksoftirqd "$1")" \
		"$(value "$2" perftest ksoftirqd "$1")" \
		"$(value "$2" ibgap retries "$1")" \
		"$(value "$2" perftest retries "$1")"
}

# round_lat ROUND TEST: the round's line for a latency test.
round_lat() {
	printf ' %s p50/typical ibgap %s perftest %s us' "${T_IBGAP[$2]}" \
		"$(fmt 2 "$A")" "$(fmt 2 "$B")"
	printf ' (ratio %s); min %s/%s, mean %s/%s us\n' \
		"$(ratio "$A" "$B")" \
		"$(fmt 2 "$(value "$2" ibgap min "$1")")" \
		"$(fmt 2 "$(value "$2" perftest min "$1")")" \
		"$(fmt 1 "$(value "$2" ibgap mean "$1")")" \
		"$(fmt 1 "$(value "$2" perftest mean "$1")")"
}

summary() {
	local t

	echo
	echo "medians over $ROUNDS rounds:"
	for t in ${TESTS//,/ }; do
		"summary_$(kind "$t")" "$t"
	done
}

# summary_bw TEST
summary_bw() {
	local t=$1 bi bp

	bi=$(column "$t" ibgap gbps | median)
	bp=$(column "$t" perftest gbps | median)
	printf '  %s %s B x %s: ibgap %s Gb/s, perftest %s Gb/s\n' \
		"${T_IBGAP[$t]}" "$(bw_bytes "$t")" "$BW_ITERS" "$bi" "$bp"
	printf '    median of per-round ibgap/perftest: %s (range %s;' \
		"$(column "$t" ratio ibgap/perftest | median)" \
		"$(column "$t" ratio ibgap/perftest | spread)"
	printf ' ratio of medians %s; >= 1 is the target)\n' \
		"$(ratio "$bi" "$bp")"
	printf '    retransmission events (completer retries): ibgap %s,' \
		"$(column "$t" ibgap retries | median)"
	printf ' perftest %s; duplicate requests ibgap %s, perftest %s\n' \
		"$(column "$t" perftest retries | median)" \
		"$(column "$t" ibgap dup_req | median)" \
		"$(column "$t" perftest dup_req | median)"
	printf '    client user time ibgap %s s, perftest %s s;' \
		"$(column "$t" ibgap user | median)" \
		"$(column "$t" perftest user | median)"
	printf ' ksoftirqd time ibgap %s s, perftest %s s\n' \
		"$(column "$t" ibgap ksoftirqd | median)" \
		"$(column "$t" perftest ksoftirqd | median)"
}

# summary_lat TEST
summary_lat() {
	local t=$1 li lp

	li=$(column "$t" ibgap p50 | median)
	lp=$(column "$t" perftest p50 | median)
	printf '  %s %s B x %s: p50 ibgap %s us, t_typical' \
		"${T_IBGAP[$t]}" "$LAT_BYTES" "$LAT_ITERS" "$li"
	printf ' perftest %s us\n' "$lp"
	printf '    median of per-round ibgap/perftest: %s (range %s;' \
		"$(column "$t" ratio ibgap/perftest | median)" \
		"$(column "$t" ratio ibgap/perftest | spread)"
	printf ' ratio of medians %s; <= 1 is the target)\n' \
		"$(ratio "$li" "$lp")"
	printf '    min: ibgap %s, perftest %s us; mean: ibgap %s,' \
		"$(column "$t" ibgap min | median)" \
		"$(column "$t" perftest min | median)" \
		"$(column "$t" ibgap mean | median)"
	printf ' perftest t_avg %s us\n' \
		"$(column "$t" perftest mean | median)"
	printf '    perftest attempts (clock calibration retries): %s\n' \
		"$(column "$t" perftest attempts | paste -sd' ')"
}

# Prints the TSV and every raw file between @@begin/@@end lines.
emit() {
	local f

	echo "@@begin ${TSV##*/}"
	cat "$TSV"
	echo "@@end"
	echo "@@begin ${RAW##*/}.raw.txt"
	for f in "$RAW"/*; do
		echo "==> ${f##*/} <=="
		cat "$f"
	done
	echo "@@end"
}

header() {
	local cs=NA pv

	[[ -r /sys/devices/system/clocksource/clocksource0/current_clocksource ]] &&
		cs=$(</sys/devices/system/clocksource/clocksource0/current_clocksource)
	pv=$(dpkg-query -W -f '${Version}' perftest 2>/dev/null) || pv=unknown
	echo "verbs_vs_perftest on $IG_RDMA_DEV ($IG_RDMA_ADDR)," \
	     "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "kernel $(uname -r); cpus $(nproc); clocksource $cs;" \
	     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "ibgap $("$IBGAP" version 2>/dev/null | head -1) ($IBGAP);" \
	     "perftest $pv ($(ib_write_bw -V 2>&1 | head -1))"
	echo "$ROUNDS rounds, alternating (odd rounds ibgap first);" \
	     "no warm-up on either side"
	echo "write_bw (and send_bw, read_bw): $BW_BYTES B x $BW_ITERS, tx depth $TX_DEPTH," \
	     "CQ moderation $CQ_MOD; perftest -u ${PT_TIMEOUT_TXT};" \
	     "extra: ibgap '$IBGAP_BW_EXTRA' perftest '$PT_BW_EXTRA'"
	echo "tests: $TESTS (read_bw, read_lat: both tools' default read" \
	     "depth, the device's max_qp_rd_atom; ud_bw: $UD_BYTES B, perftest" \
	     "-c UD)"
	echo "send_lat (and read_lat): $LAT_BYTES B x $LAT_ITERS; ibgap defaults otherwise" \
	     "(tx depth 128, cq-mod 16), --inline 0 on send_lat and ud_send_lat; perftest -u" \
	     "${PT_TIMEOUT_TXT}, -r 2 -I 0 on send_lat and ud_send_lat; extra: ibgap '$IBGAP_LAT_EXTRA' perftest" \
	     "'$PT_LAT_EXTRA'"
	if [[ -n $PIN ]]; then
		echo "pinned: every client on CPU ${PIN%%:*}, every server on CPU" \
		     "${PIN#*:} (--pin $PIN)"
	else
		echo "pinned: no (--pin not given)"
	fi
	echo "figures: $TSV; raw outputs: $RAW/"
	echo
}

main() {
	local r stamp dev_port=1

	parse_args "$@"
	if ((CHECK)); then
		echo "rounds=$ROUNDS"
		exit 0
	fi
	if [[ -z ${IG_RDMA_DEV:-} || -z ${IG_RDMA_ADDR:-} ]]; then
		echo "$SELF: skipped: IG_RDMA_DEV/IG_RDMA_ADDR unset (run" \
		     "under tests/rxe/rxe-run, or use verbs_vs_perftest.sh)" >&2
		exit 77
	fi
	need_tools
	HZ=$(getconf CLK_TCK) || HZ=100
	ulimit -l unlimited 2>/dev/null
	HWC=/sys/class/infiniband/$IG_RDMA_DEV/ports/$dev_port/hw_counters
	[[ -d $HWC ]] || HWC=
	# -x 1: rxe's IPv4-mapped GID (RoCE v2), the one rdma_cm picks too.
	# No -F: with it a failed CPU-clock calibration would give a bogus
	# figure instead of perftest's "Can't produce a report".
	PT_COMMON=(-d "$IG_RDMA_DEV" -x 1)
	PT_TIMEOUT_TXT="default (14)"
	if ((QP_TIMEOUT)); then
		PT_COMMON+=(-u "$QP_TIMEOUT")
		PT_TIMEOUT_TXT=$QP_TIMEOUT
	fi
	mkdir -p "$OUTDIR" || die "cannot create -o directory '$OUTDIR'"
	stamp=${STAMP:-$(date +%Y%m%d-%H%M%S)}
	RAW=$OUTDIR/verbs_vs_perftest-$stamp
	TSV=$OUTDIR/verbs_vs_perftest-$stamp.tsv
	mkdir -p "$RAW" || die "cannot create '$RAW'"
	printf 'round\ttest\ttool\tmetric\tvalue\tunit\n' >"$TSV"

	header
	trap stop_ibgap EXIT
	trap 'exit 130' INT TERM
	start_ibgap
	for ((r = 1; r <= ROUNDS; r++)); do
		one_round "$r"
	done
	stop_ibgap
	summary
	echo "guest load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	((EMIT)) && emit
	if ((FAILED)); then
		echo "$SELF: some runs failed (NA in $TSV)" >&2
		exit 1
	fi
	exit 0
}

main "$@"
