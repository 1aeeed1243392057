#!/bin/bash
# qp.sh ROUNDS: tcp_bw on loopback, 128 KiB writes, 3 s runs: ibgap, iperf3,
# qperf, each unpinned (F) and pinned (P: client CPU 0, server CPU 1)
R=${1:-4}
IB=/work/main/build/ibgap
$IB server -p 19981 >/dev/null 2>&1 & taskset -c 1 $IB server -p 19982 >/dev/null 2>&1 &
iperf3 -s -p 19983 >/dev/null 2>&1 & taskset -c 1 iperf3 -s -p 19984 >/dev/null 2>&1 &
qperf -lp 19985 >/dev/null 2>&1 & taskset -c 1 qperf -lp 19986 >/dev/null 2>&1 &
sleep 1
run() { local w=() o=0; [[ $2 == P ]] && { w=(taskset -c 0); o=1; }
	case $1 in
	ib) "${w[@]}" $IB client 127.0.0.1 -p $((19981+o)) -t tcp_bw -s 131072 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	ip) "${w[@]}" iperf3 -c 127.0.0.1 -p $((19983+o)) -l 131072 -t 3 -O 1 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	qp) "${w[@]}" qperf 127.0.0.1 -lp $((19985+o)) -t 3 -m 131072 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	esac; }
for ((r = 1; r <= R; r++)); do
	for m in F P; do for t in ib ip qp; do echo "$r $t $m $(run $t $m)"; done; done
done
kill $(jobs -p)
