#!/bin/bash
# p4.sh ROUNDS: loopback tcp_bw 128K with 4 streams, 3 s: ibgap before (O)
# and after (N) the filled 128 KiB reads, and iperf3 -P 4 (I), rotating
R=${1:-5}
O=/work/labtmp/qp/old/build/ibgap N=/work/main/build/ibgap
$O server -p 19950 >/dev/null 2>&1 & $N server -p 19951 >/dev/null 2>&1 &
iperf3 -s -p 19953 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	O) $O client 127.0.0.1 -p 19950 -t tcp_bw -s 131072 -P 4 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	N) $N client 127.0.0.1 -p 19951 -t tcp_bw -s 131072 -P 4 -D 3 --warmup 1 --format json | jq -r '.results[0].bw_gbps' ;;
	I) iperf3 -c 127.0.0.1 -p 19953 -l 131072 -P 4 -t 3 -O 1 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	esac; }
order=(O N I)
for ((r = 1; r <= R; r++)); do
	for ((k = 0; k < 3; k++)); do t=${order[(k + r) % 3]}; echo "131072 $r $t $(run $t)"; done
done
kill $(jobs -p)
