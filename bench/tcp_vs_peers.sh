#!/usr/bin/env bash
# The per-tool functions are called by name (measure, trap):
# shellcheck disable=SC2317
# SPDX-License-Identifier: MIT
#
# tcp_vs_peers.sh - ibgap's TCP tests next to the usual reference tools, on
# loopback (127.0.0.1) only:
#
#   tcp_bw  vs iperf3     one stream, same write size, same duration,
#                         iperf3's receiver figure (end.sum_received)
#   tcp_lat vs sockperf   TCP ping-pong, same message size and duration,
#                         both one-way latency (RTT/2), p50 compared
#   (--qperf)             qperf tcp_bw / tcp_lat as a third reference
#   (-R)                  tcp_bw reversed in both tools (ibgap -R, iperf3
#                         -R: the server sends, the client receives)
#   (-P 1,4)              tcp_bw with each number of streams in turn (ibgap
#                         -P N, iperf3 -P N; test "bw" for 1, "bw_PN" else)
#   (-T bw or lat)        only the bandwidth or the latency tests
#
# Every server is started once and left running through all rounds; within a
# round the tools alternate (ibgap, peer).  Every figure goes to a TSV; the
# raw output of every run is kept beside it.  It is a benchmark on a shared,
# noisy machine: it asserts nothing about the figures and exits 0 unless a
# tool failed to start or to produce a figure (1), or on a usage/set-up
# error (2).
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"

SELF=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
IBGAP=$HERE/../build/ibgap
ROUNDS=5
DUR=5
WARMUP=1
BW_SIZE=128K
LAT_SIZE=14
OUTDIR=/tmp
BASE_PORT=18710
WITH_QPERF=0
REVERSE=0
R_ARGS=()
STREAMS=1
TESTS=bw,lat

usage() {
	cat <<EOF
usage: $SELF [options]
  -r, --rounds N       rounds, each runs every tool once (default $ROUNDS)
  -D, --duration SECS  measured seconds of every run, integer (default $DUR)
  -w, --warmup SECS    excluded warm-up of ibgap (--warmup) and iperf3 (-O),
                       integer: iperf3 3.12 reads -O with atoi, so -O 0.5
                       would mean no warm-up at all (default $WARMUP)
  -s, --bw-size BYTES  write size of tcp_bw / iperf3 -l / qperf -m, K/M =
                       powers of 2 (default $BW_SIZE = iperf3's TCP default)
  -m, --lat-size BYTES message size of tcp_lat / sockperf -m / qperf -m
                       (default $LAT_SIZE = sockperf's minimum and default)
  -o, --outdir DIR     where the TSV and raw outputs go (default $OUTDIR)
  -p, --base-port P    ports P (ibgap), P+1 (iperf3), P+2 (sockperf),
                       P+3/P+4 (qperf) (default $BASE_PORT)
  -b, --ibgap PATH     ibgap binary (default $IBGAP)
      --qperf          also run qperf tcp_bw and tcp_lat
  -R, --reverse        tcp_bw server -> client in both tools (ibgap -R,
                       iperf3 -R); qperf has no reverse, so not with --qperf
  -P, --streams LIST   tcp_bw's stream counts, each run in every round
                       (ibgap -P N, iperf3 -P N; qperf only at 1): test
                       "bw" in the TSV for 1, "bw_PN" for N (default
                       $STREAMS)
  -T, --tests LIST     bw, lat or bw,lat (default $TESTS)
  -h, --help           this text
EOF
}

# "128K" -> 131072; powers of 2 like ibgap, iperf3 and qperf's K.
to_bytes() {
	local v=$1 n m=1

	case $v in
	*[kK]) m=1024 ;;
	*[mM]) m=$((1024 * 1024)) ;;
	*[gG]) m=$((1024 * 1024 * 1024)) ;;
	esac
	n=${v%[kKmMgG]}
	[[ $n =~ ^[0-9]+$ && $n -gt 0 ]] || return 1
	echo $((n * m))
}

parse_args() {
	while (($#)); do
		case $1 in
		--qperf | -R | --reverse | -h | --help) ;;
		-*) (($# >= 2)) || die "option $1 needs a value" ;;
		esac
		case $1 in
		-r | --rounds) ROUNDS=${2-} ; shift ;;
		-D | --duration) DUR=${2-} ; shift ;;
		-w | --warmup) WARMUP=${2-} ; shift ;;
		-s | --bw-size) BW_SIZE=${2-} ; shift ;;
		-m | --lat-size) LAT_SIZE=${2-} ; shift ;;
		-o | --outdir) OUTDIR=${2-} ; shift ;;
		-p | --base-port) BASE_PORT=${2-} ; shift ;;
		-b | --ibgap) IBGAP=${2-} ; shift ;;
		-P | --streams) STREAMS=${2-} ; shift ;;
		-T | --tests) TESTS=${2-} ; shift ;;
		--qperf) WITH_QPERF=1 ;;
		-R | --reverse) REVERSE=1 ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; die "unknown argument '$1'" ;;
		esac
		shift
	done
	[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -ge 1 ]] ||
		die "-r wants a round count >= 1, not '$ROUNDS'"
	[[ $DUR =~ ^[0-9]+$ && $DUR -ge 1 ]] ||
		die "-D wants whole seconds >= 1 (iperf3/sockperf -t are" \
		    "integers), not '$DUR'"
	[[ $WARMUP =~ ^[0-9]+$ ]] ||
		die "-w wants whole seconds (iperf3 -O is an integer), not" \
		    "'$WARMUP'"
	BW_BYTES=$(to_bytes "$BW_SIZE") || die "bad -s size '$BW_SIZE'"
	LAT_BYTES=$(to_bytes "$LAT_SIZE") || die "bad -m size '$LAT_SIZE'"
	((LAT_BYTES >= 14)) ||
		die "-m $LAT_SIZE is below sockperf's 14-byte minimum"
	[[ $BASE_PORT =~ ^[0-9]+$ && $BASE_PORT -ge 1024 &&
	   $BASE_PORT -le 65530 ]] ||
		die "-p wants a base port in 1024..65530, not '$BASE_PORT'"
	((REVERSE && WITH_QPERF)) &&
		die "-R and --qperf: qperf's tcp_bw has no reverse direction"
	((REVERSE)) && R_ARGS=(-R)
	check_lists
	[[ -x $IBGAP ]] || die "no ibgap binary at '$IBGAP' (build it:" \
		"cmake -S . -B build && cmake --build build, or pass -b)"
}

# -P: stream counts 1..128, each once; -T: bw and/or lat.
check_lists() {
	local n t seen=,

	[[ $STREAMS =~ ^[0-9]+(,[0-9]+)*$ ]] ||
		die "-P wants a comma list of stream counts, not '$STREAMS'"
	for n in ${STREAMS//,/ }; do
		((n >= 1 && n <= 128)) ||
			die "-P: $n streams: allowed 1 to 128"
		[[ $seen != *,$n,* ]] || die "-P: $n twice in '$STREAMS'"
		seen+=$n,
	done
	case $TESTS in
	bw | lat | bw,lat | lat,bw) ;;
	*) die "-T wants bw, lat or bw,lat, not '$TESTS'" ;;
	esac
}

# has_test bw|lat: whether -T asks for it
has_test() {
	[[ ,$TESTS, == *,$1,* ]]
}

# bw_test N: the TSV's test name of tcp_bw with N streams
bw_test() {
	if (($1 == 1)); then echo bw; else echo "bw_P$1"; fi
}

# Installs the Debian packages of missing tools when root, else says which.
need_tools() {
	local missing=() t

	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || missing+=("$t")
	done
	((${#missing[@]})) || return 0
	if ((EUID != 0)); then
		die "missing ${missing[*]}: run as root, or" \
		    "'apt-get install ${missing[*]}'"
	fi
	echo "installing ${missing[*]} with apt-get" >&2
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q "${missing[@]}"; } >&2 ||
		die "apt-get install ${missing[*]} failed"
	for t in "${missing[@]}"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "$t still missing after apt-get install"
	done
}

# ---- servers -------------------------------------------------------------

SERVER_PIDS=()

stop_servers() {
	local pid

	for pid in "${SERVER_PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "${SERVER_PIDS[@]}"; do
		wait "$pid" 2>/dev/null
	done
	SERVER_PIDS=()
}

# start_server NAME PORT LOG CMD...: background CMD, wait until it listens.
start_server() {
	local name=$1 port=$2 log=$3 pid i

	shift 3
	port_listening "$port" &&
		die "port $port (for $name) is already in use; pick another -p"
	"$@" >"$log" 2>&1 &
	pid=$!
	SERVER_PIDS+=("$pid")
	for ((i = 0; i < 50; i++)); do
		port_listening "$port" && return 0
		kill -0 "$pid" 2>/dev/null ||
			die "$name server exited at start: $(tail -3 "$log")"
		sleep 0.1
	done
	die "$name server is not listening on port $port after 5 s" \
	    "(log $log)"
}

start_servers() {
	local p=$BASE_PORT

	start_server ibgap "$p" "$RAW/server_ibgap.log" \
		"$IBGAP" server -p "$p"
	start_server iperf3 $((p + 1)) "$RAW/server_iperf3.log" \
		iperf3 -s -B 127.0.0.1 -p $((p + 1))
	start_server sockperf $((p + 2)) "$RAW/server_sockperf.log" \
		sockperf server --tcp -i 127.0.0.1 -p $((p + 2))
	if ((WITH_QPERF)); then
		start_server qperf $((p + 3)) "$RAW/server_qperf.log" \
			qperf -lp $((p + 3))
	fi
}

# ---- one run of each tool: prints the figure(s), or fails ----------------

FAILED=0

# run_tool TAG CMD...: output to $RAW/TAG.out; 1 if CMD failed.
run_tool() {
	local tag=$1

	shift
	echo "$*" >"$RAW/$tag.cmd"
	if ! "$@" >"$RAW/$tag.out" 2>"$RAW/$tag.err"; then
		echo "  $tag failed: $* (see $RAW/$tag.err)" >&2
		return 1
	fi
}

# Prints "bw_gbps" of an ibgap tcp_bw run.
ibgap_bw() {
	local tag=$1

	# HOST after the options: `client HOST -p ...` is refused by this
	# build's getopt string ("+..." stops at the first non-option).
	run_tool "$tag" "$IBGAP" client -p "$BASE_PORT" -t tcp_bw \
		-s "$BW_BYTES" -P "$NSTREAMS" -D "$DUR" --warmup "$WARMUP" \
		--format json "${R_ARGS[@]}" 127.0.0.1 || return 1
	if ((REVERSE)) && ! jq -e '.results[0].direction == "reverse"' \
		"$RAW/$tag.out" >/dev/null; then
		echo "  $tag: ibgap's result does not say direction" \
		     "reverse" >&2
		return 1
	fi
	jq -er '.results[0].bw_gbps' "$RAW/$tag.out"
}

# Prints "p50 mean p99" (us, one way) of an ibgap tcp_lat run.
ibgap_lat() {
	local tag=$1

	run_tool "$tag" "$IBGAP" client -p "$BASE_PORT" -t tcp_lat \
		-s "$LAT_BYTES" -D "$DUR" --warmup "$WARMUP" --format json \
		127.0.0.1 || return 1
	jq -er '.results[0].lat_us | "\(.p50) \(.mean) \(.p99)"' \
		"$RAW/$tag.out"
}

# Prints the receiver's Gb/s of an iperf3 run (end.sum_received).
iperf3_bw() {
	local tag=$1

	run_tool "$tag" iperf3 -c 127.0.0.1 -p $((BASE_PORT + 1)) \
		-l "$BW_BYTES" -P "$NSTREAMS" -t "$DUR" -O "$WARMUP" -J \
		"${R_ARGS[@]}" || return 1
	jq -er '.end.sum_received.bits_per_second / 1e9' "$RAW/$tag.out"
}

# Prints "p50 avg p99" (us, one way = RTT/2) of a sockperf ping-pong run.
sockperf_lat() {
	local tag=$1 out

	run_tool "$tag" sockperf ping-pong --tcp -i 127.0.0.1 \
		-p $((BASE_PORT + 2)) -m "$LAT_BYTES" -t "$DUR" || return 1
	out=$(sed 's/\x1b\[[0-9;]*m//g' "$RAW/$tag.out" "$RAW/$tag.err")
	# "Summary: Latency is" (not "Round trip is"): one-way figures
	grep -q 'Summary: Latency is' <<<"$out" || return 1
	awk '/percentile 50\.000 =/ { p50 = $NF }
	     /percentile 99\.000 =/ { p99 = $NF }
	     /avg-latency=/ { sub(/.*avg-latency=/, ""); sub(/ .*/, "");
			      avg = $0 }
	     END { if (p50 == "" || avg == "" || p99 == "") exit 1
		   print p50, avg, p99 }' <<<"$out"
}

# qperf prints "bw = 15868624896 bits/sec" / "latency = 3797.3 ns" with
# -uu -ub; scale whatever unit it picked to Gb/s or us.
qperf_val() {
	awk -v key="$2" -v want="$3" '
	     $1 == key && $2 == "=" {
		u = $4; v = $3 + 0
		if (want == "gbps") {
			f["bits/sec"] = 1e-9; f["Kb/sec"] = 1e-6
			f["Mb/sec"] = 1e-3; f["Gb/sec"] = 1
		} else {
			f["ns"] = 1e-3; f["us"] = 1; f["ms"] = 1e3
			f["sec"] = 1e6
		}
		if (!(u in f)) exit 1
		printf "%.6g\n", v * f[u]; ok = 1
	     }
	     END { exit !ok }' "$1"
}

qperf_bw() {
	run_tool "$1" qperf 127.0.0.1 -lp $((BASE_PORT + 3)) \
		-ip $((BASE_PORT + 4)) -t "$DUR" -m "$BW_BYTES" -uu -ub -e 6 \
		tcp_bw || return 1
	qperf_val "$RAW/$1.out" bw gbps
}

qperf_lat() {
	run_tool "$1" qperf 127.0.0.1 -lp $((BASE_PORT + 3)) \
		-ip $((BASE_PORT + 4)) -t "$DUR" -m "$LAT_BYTES" -uu -e 6 \
		tcp_lat || return 1
	qperf_val "$RAW/$1.out" latency us
}

# ---- bookkeeping ---------------------------------------------------------

# measure ROUND TEST TOOL FN METRIC:UNIT...: runs FN, records each value
# (NA when it failed), sets FIRST to the first value.
measure() {
	local round=$1 test=$2 tool=$3 fn=$4 vals i=0 mu v

	shift 4
	if ! vals=$("$fn" "r${round}_${test}_$tool") || [[ -z $vals ]]; then
		echo "  round $round: $tool $test gave no figure" >&2
		FAILED=1
		vals=""
	fi
	read -r -a v <<<"$vals"
	FIRST=${v[0]:-NA}
	for mu in "$@"; do
		record "$round" "$test" "$tool" "${mu%%:*}" "${v[i]:-NA}" \
			"${mu#*:}"
		((i++))
	done
}

# round_bw ROUND N: tcp_bw with N streams in both tools (and qperf at 1).
round_bw() {
	local r=$1 t a b c NSTREAMS=$2

	t=$(bw_test "$2")
	measure "$r" "$t" ibgap ibgap_bw gbps:Gb/s
	a=$FIRST
	measure "$r" "$t" iperf3 iperf3_bw gbps:Gb/s
	b=$FIRST
	record "$r" "$t" ratio ibgap/iperf3 "$(ratio "$a" "$b")" x
	printf '  tcp_bw x%s: ibgap %s iperf3 %s Gb/s (ratio %s)' "$2" \
		"$(fmt 2 "$a")" "$(fmt 2 "$b")" "$(ratio "$a" "$b")"
	if ((WITH_QPERF && $2 == 1)); then
		measure "$r" bw qperf qperf_bw gbps:Gb/s
		c=$FIRST
		printf '; qperf %s Gb/s' "$(fmt 2 "$c")"
	fi
	echo
}

# round_lat ROUND: tcp_lat, sockperf (and qperf).
round_lat() {
	local r=$1 la lb lc

	measure "$r" lat ibgap ibgap_lat p50:us mean:us p99:us
	la=$FIRST
	measure "$r" lat sockperf sockperf_lat p50:us mean:us p99:us
	lb=$FIRST
	record "$r" lat ratio ibgap/sockperf "$(ratio "$la" "$lb")" x
	printf '  tcp_lat p50: ibgap %s sockperf %s us (ratio %s)' \
		"$(fmt 3 "$la")" "$(fmt 3 "$lb")" "$(ratio "$la" "$lb")"
	if ((WITH_QPERF)); then
		measure "$r" lat qperf qperf_lat mean:us
		lc=$FIRST
		printf '; qperf mean %s us' "$(fmt 3 "$lc")"
	fi
	echo
}

one_round() {
	local r=$1 n load

	load=$(cut -d' ' -f1 /proc/loadavg)
	record "$r" host host loadavg1 "$load" x
	echo "round $r (load $load):"
	if has_test bw; then
		for n in ${STREAMS//,/ }; do
			round_bw "$r" "$n"
		done
	fi
	has_test lat && round_lat "$r"
	return 0
}

summary_bw() {
	local t bw_i bw_p

	t=$(bw_test "$1")
	bw_i=$(column "$t" ibgap gbps | median)
	bw_p=$(column "$t" iperf3 gbps | median)
	printf '  tcp_bw  %s B x%s:  ibgap %s Gb/s, iperf3 %s Gb/s\n' \
		"$BW_BYTES" "$1" "$bw_i" "$bw_p"
	printf '          median of per-round ibgap/iperf3: %s' \
		"$(column "$t" ratio ibgap/iperf3 | median)"
	printf ' (ratio of medians %s; >= 1 is good)\n' \
		"$(ratio "$bw_i" "$bw_p")"
}

summary_lat() {
	local la_i la_s

	la_i=$(column lat ibgap p50 | median)
	la_s=$(column lat sockperf p50 | median)
	printf '  tcp_lat %s B:  p50 ibgap %s us, sockperf %s us' \
		"$LAT_BYTES" "$la_i" "$la_s"
	printf ' (means: ibgap %s, sockperf %s)\n' \
		"$(column lat ibgap mean | median)" \
		"$(column lat sockperf mean | median)"
	printf '          median of per-round ibgap/sockperf p50: %s' \
		"$(column lat ratio ibgap/sockperf | median)"
	printf ' (ratio of medians %s; <= 1 is good)\n' \
		"$(ratio "$la_i" "$la_s")"
}

summary() {
	local n

	echo
	echo "medians over $ROUNDS rounds:"
	if has_test bw; then
		for n in ${STREAMS//,/ }; do
			summary_bw "$n"
		done
	fi
	has_test lat && summary_lat
	((WITH_QPERF)) || return 0
	printf '  qperf:'
	has_test bw && printf ' tcp_bw %s Gb/s' "$(column bw qperf gbps | median)"
	has_test lat && printf ' tcp_lat mean %s us' \
		"$(column lat qperf mean | median)"
	echo
}

main() {
	local stamp r tools=(iperf3 sockperf jq ss)

	parse_args "$@"
	((WITH_QPERF)) && tools+=(qperf)
	need_tools "${tools[@]}"
	mkdir -p "$OUTDIR" || die "cannot create -o directory '$OUTDIR'"
	stamp=$(date +%Y%m%d-%H%M%S)
	RAW=$OUTDIR/tcp_vs_peers-$stamp
	TSV=$OUTDIR/tcp_vs_peers-$stamp.tsv
	mkdir -p "$RAW" || die "cannot create '$RAW'"
	printf 'round\ttest\ttool\tmetric\tvalue\tunit\n' >"$TSV"

	echo "tcp_vs_peers on 127.0.0.1, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "cpus: $(nproc); load average at start: $(cut -d' ' -f1-3 \
		/proc/loadavg); kernel $(uname -r)"
	echo "$ROUNDS rounds; $DUR s per run, warm-up $WARMUP s;" \
	     "tests $TESTS; tcp_bw $BW_BYTES B writes, streams $STREAMS;" \
	     "tcp_lat $LAT_BYTES B messages;" \
	     "tcp_bw direction: $( ((REVERSE)) && echo "reverse (-R)" ||
				   echo forward)"
	echo "ibgap $IBGAP; $(iperf3 --version | head -1);" \
	     "sockperf $(sockperf --version 2>&1 | grep -o '[0-9][0-9.]*' |
			 head -1)"
	echo "figures: $TSV; raw outputs: $RAW/"
	echo

	trap stop_servers EXIT
	trap 'exit 130' INT TERM
	start_servers
	for ((r = 1; r <= ROUNDS; r++)); do
		one_round "$r"
	done
	summary
	echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	if ((FAILED)); then
		echo "$SELF: some runs failed (NA in $TSV)" >&2
		exit 1
	fi
	exit 0
}

main "$@"
