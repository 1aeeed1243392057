#!/bin/bash
# pin.sh ROUNDS: send_bw 64 KiB x 2000 (tx 128, cq-mod 16), ibgap and
# ib_send_bw (-u 17), each unpinned (F) and pinned (P: servers on CPU 1,
# clients on CPU 0), the four runs of a round in a rotating order.
R=${1:-8}
IB=/work/main/build/ibgap
ADDR=${IG_RDMA_ADDR:-10.233.0.1}
taskset -c 1 $IB server -p 19601 >/tmp/srvP.log 2>&1 &
$IB server -p 19600 >/tmp/srvF.log 2>&1 &
sleep 2
port=19700
run() { # tool mode
	local wc= ws= sp=19600
	[[ $2 == P ]] && { wc="taskset -c 0"; ws="taskset -c 1"; sp=19601; }
	if [[ $1 == ib ]]; then
		$wc $IB client -p $sp -t send_bw -s 65536 -n 2000 --tx-depth 128 --cq-mod 16 --warmup 0 --format json $ADDR >/tmp/ib.json 2>/tmp/ib.err || { echo NA; return; }
		jq -r '.results[0].bw_gbps' /tmp/ib.json
	else
		port=$((port+1))
		$ws ib_send_bw -s 65536 -n 2000 -t 128 -Q 16 -u 17 -p $port >/tmp/pts.out 2>&1 & local spid=$!; sleep 1.5
		$wc ib_send_bw -s 65536 -n 2000 -t 128 -Q 16 -u 17 -p $port $ADDR >/tmp/pt.out 2>&1; wait $spid
		awk '$1==65536 && $2==2000 {printf "%.6f\n", $4*1048576*8/1e9; ok=1} END{if(!ok)print "NA"}' /tmp/pt.out
	fi
}
runs=(ib:F pt:F ib:P pt:P)
for ((r = 1; r <= R; r++)); do
	for ((i = 0; i < 4; i++)); do
		k=${runs[(i + r) % 4]}
		echo "$r ${k%:*} ${k#*:} $(run ${k%:*} ${k#*:})"
	done
done
kill %1 %2
