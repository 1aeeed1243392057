#!/bin/bash
# ab.sh ROUNDS A B [ARGS]: send_bw runs of two ibgap builds against their own
# servers, alternating (odd rounds A first); unpinned
R=$1 A=$2 B=$3; shift 3
ADDR=${IG_RDMA_ADDR:-10.233.0.1}
$A server -p 19600 >/tmp/sA.log 2>&1 &
$B server -p 19601 >/tmp/sB.log 2>&1 &
sleep 2
one() { $1 client -p $2 -t send_bw -s 65536 -n 2000 --tx-depth 128 --cq-mod 16 --warmup 0 --format json "${@:3}" $ADDR >/tmp/o.json 2>/tmp/o.err && jq -r '.results[0].bw_gbps' /tmp/o.json || echo NA; }
for ((r = 1; r <= R; r++)); do
	if ((r % 2)); then
		echo "$r A $(one $A 19600 "$@")"; echo "$r B $(one $B 19601 "$@")"
	else
		echo "$r B $(one $B 19601 "$@")"; echo "$r A $(one $A 19600 "$@")"
	fi
done
kill %1 %2
