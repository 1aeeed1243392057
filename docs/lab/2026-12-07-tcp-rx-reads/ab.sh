#!/bin/bash
# ab.sh ROUNDS: tcp_bw 128 KiB on loopback, 3 s, rotating: ibgap (A), ibgap
# with a 128 KiB receive chunk (B), qperf (Q), iperf3 (I)
R=${1:-6}
A=/work/main/build/ibgap B=/work/labtmp/qp/srcB/build/ibgap
$A server -p 19981 >/dev/null 2>&1 &
$B server -p 19982 >/dev/null 2>&1 &
iperf3 -s -p 19983 >/dev/null 2>&1 &
qperf -lp 19985 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	A) $A client 127.0.0.1 -p 19981 -t tcp_bw -s 131072 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	B) $B client 127.0.0.1 -p 19982 -t tcp_bw -s 131072 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	I) iperf3 -c 127.0.0.1 -p 19983 -l 131072 -t 3 -O 1 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	Q) qperf 127.0.0.1 -lp 19985 -t 3 -m 131072 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	esac; }
order=(A B Q I)
for ((r = 1; r <= R; r++)); do
	for ((k = 0; k < 4; k++)); do t=${order[(k + r) % 4]}; echo "$r $t x $(run $t)"; done
done
kill $(jobs -p)
