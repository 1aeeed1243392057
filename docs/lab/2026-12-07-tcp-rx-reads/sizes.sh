#!/bin/bash
# sizes.sh ROUNDS "SIZES" [PIN]: loopback tcp_bw, 3 s (1 s warm-up where the
# tool has one), rotating: ibgap before (O, 256 KiB reads taking what is
# there) and after (N, 128 KiB pieces filled), qperf (Q), iperf3 (I).
# PIN=1: every client on CPU 0, every server on CPU 1.
R=${1:-5} SIZES=${2:-"8192 65536 131072 1048576"} PIN=${3:-0}
O=/work/labtmp/qp/old/build/ibgap N=/work/main/build/ibgap
c=() s=()
[[ $PIN == 1 ]] && c=(taskset -c 0) s=(taskset -c 1)
"${s[@]}" $O server -p 19950 >/dev/null 2>&1 &
"${s[@]}" $N server -p 19951 >/dev/null 2>&1 &
"${s[@]}" qperf -lp 19952 >/dev/null 2>&1 &
"${s[@]}" iperf3 -s -p 19953 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	O) "${c[@]}" $O client 127.0.0.1 -p 19950 -t tcp_bw -s $2 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	N) "${c[@]}" $N client 127.0.0.1 -p 19951 -t tcp_bw -s $2 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	Q) "${c[@]}" qperf 127.0.0.1 -lp 19952 -t 3 -m $2 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	I) "${c[@]}" iperf3 -c 127.0.0.1 -p 19953 -l $2 -t 3 -O 1 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	esac; }
order=(O N Q I)
for S in $SIZES; do
	for ((r = 1; r <= R; r++)); do
		for ((k = 0; k < 4; k++)); do t=${order[(k + r) % 4]}; echo "$S $r $t $(run $t $S)"; done
	done
done
kill $(jobs -p)
