#!/bin/bash
# rx3.sh ROUNDS SIZE [SECS]: tcp_bw SIZE on loopback, client CPU 0, server CPU 1:
# ibgap receiver variants V0 as is (256 KiB reads), V1 fill the 256 KiB chunk,
# V7 64 KiB reads, V8 fill a 128 KiB chunk; and qperf (Q), rotating
R=${1:-6} S=${2:-131072} D=${3:-3}
B=/work/labtmp/qp/srcB/build/ibgap
RXMODE=0 taskset -c 1 $B server -p 19960 >/dev/null 2>&1 &
RXMODE=1 taskset -c 1 $B server -p 19961 >/dev/null 2>&1 &
RXMODE=0 RXCHUNK=65536 taskset -c 1 $B server -p 19967 >/dev/null 2>&1 &
RXMODE=1 RXCHUNK=131072 taskset -c 1 $B server -p 19968 >/dev/null 2>&1 &
taskset -c 1 qperf -lp 19985 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	Q) taskset -c 0 qperf 127.0.0.1 -lp 19985 -t $D -m $S -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	*) taskset -c 0 $B client 127.0.0.1 -p $((19960 + $1)) -t tcp_bw -s $S -D $D --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	esac; }
order=(0 1 7 8 Q)
for ((r = 1; r <= R; r++)); do
	for ((k = 0; k < 5; k++)); do t=${order[(k + r) % 5]}; echo "$r $t x $(run $t)"; done
done
kill $(jobs -p)
