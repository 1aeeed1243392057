#!/bin/bash
# rx.sh ROUNDS: tcp_bw 128 KiB, 3 s, client CPU 0, server CPU 1: ibgap's
# receiver read modes (RXMODE 0 as is, 1 fill the 256 KiB chunk, 2 MSG_WAITALL
# 256 KiB, 3 fill 128 KiB pieces) and qperf, rotating
R=${1:-5}
B=/work/labtmp/qp/srcB/build/ibgap
for m in 0 1 3; do RXMODE=$m taskset -c 1 $B server -p $((19970 + m)) >/dev/null 2>&1 & done
taskset -c 1 qperf -lp 19985 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	Q) taskset -c 0 qperf 127.0.0.1 -lp 19985 -t 3 -m 131072 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	*) taskset -c 0 $B client 127.0.0.1 -p $((19970 + $1)) -t tcp_bw -s 131072 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	esac; }
order=(0 1 3 Q)
for ((r = 1; r <= R; r++)); do
	for ((k = 0; k < 4; k++)); do t=${order[(k + r) % 4]}; echo "$r $t x $(run $t)"; done
done
kill $(jobs -p)
