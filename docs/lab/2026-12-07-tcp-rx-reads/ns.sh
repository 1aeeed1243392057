#!/bin/bash
# ns.sh ROUNDS: kernel TCP counters (nstat) around each tool's 3 s tcp_bw run on loopback
R=${1:-2}
IB=/work/main/build/ibgap
$IB server -p 19981 >/dev/null 2>&1 &
iperf3 -s -p 19983 >/dev/null 2>&1 &
qperf -lp 19985 >/dev/null 2>&1 &
sleep 1
run() {
	case $1 in
	ib) $IB client 127.0.0.1 -p 19981 -t tcp_bw -s 131072 -D 3 --warmup 0 --format json | jq -r '.results[0].bw_gbps' ;;
	ip) iperf3 -c 127.0.0.1 -p 19983 -l 131072 -t 3 -J | jq -r '.end.sum_received.bits_per_second/1e9' ;;
	qp) qperf 127.0.0.1 -lp 19985 -t 3 -m 131072 -uu -ub tcp_bw | awk '/bw *=/ {print $3/1e9}' ;;
	esac; }
for ((r = 1; r <= R; r++)); do
	for t in ib ip qp; do
		nstat -n
		v=$(run $t)
		echo "$r $t $v $(nstat | grep -E 'Retrans|Drop|Prune|Collapse|RcvQ|Backlog|Loss|TLP|Timeout|OFO|Ofo|SACK|Reorder|DelayedACK|Quick|Squeeze|TCPAutoCorking|TCPWant|ZeroWindow|Window' | awk '{printf "%s=%s ", $1, $2}')"
	done
done
kill $(jobs -p)
