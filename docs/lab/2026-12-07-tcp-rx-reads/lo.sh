#!/bin/bash
# lo.sh ROUNDS: bytes through lo per wall second while each tool runs (3 s), vs the tool's own figure
R=${1:-3}
IB=/work/main/build/ibgap
$IB server -p 19981 >/dev/null 2>&1 &
iperf3 -s -p 19983 >/dev/null 2>&1 &
qperf -lp 19985 >/dev/null 2>&1 &
sleep 1
lob() { cat /sys/class/net/lo/statistics/rx_bytes; }
run() {
	case $1 in
	ib) $IB client 127.0.0.1 -p 19981 -t tcp_bw -s 131072 -D 3 --warmup 0 --format json | jq -r '.results[0].bw_gbps' ;;
	ip) iperf3 -c 127.0.0.1 -p 19983 -l 131072 -t 3 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	qp) qperf 127.0.0.1 -lp 19985 -t 3 -m 131072 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	esac; }
for ((r = 1; r <= R; r++)); do
	for t in ib ip qp; do
		b0=$(lob); t0=$(date +%s.%N)
		v=$(run $t)
		b1=$(lob); t1=$(date +%s.%N)
		echo "$r $t own=$v lo_bytes_gbit=$(echo "($b1-$b0)*8/1000000000" | bc -l | cut -c1-6) wall=$(echo "$t1-$t0" | bc | cut -c1-5)"
	done
done
kill $(jobs -p)
