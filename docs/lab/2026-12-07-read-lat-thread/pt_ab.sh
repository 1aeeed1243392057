#!/bin/bash
# pt_ab.sh ROUNDS [TOOL]: ib_read_lat (or TOOL) new post vs --use_old_post_send, alternating,
# client CPU 0, server CPU 1; prints "variant round t_min t_typical t_avg"
R=${1:-10} T=${2:-ib_read_lat}
port=18000
run() { # variant
	local x=()
	[[ $1 == old ]] && x=(--use_old_post_send)
	port=$((port + 1))
	taskset -c 1 $T -d "$IG_RDMA_DEV" -x 1 -s 2 -n 20000 "${x[@]}" -p $port >/tmp/srv.$port 2>&1 &
	local sp=$!
	sleep 0.5
	for i in 1 2 3 4 5 6 7 8 9 10; do
		taskset -c 0 $T -d "$IG_RDMA_DEV" -x 1 -s 2 -n 20000 "${x[@]}" -p $port "$IG_RDMA_ADDR" >/tmp/cli.$port 2>&1 && break
		sleep 0.3
	done
	wait $sp
	awk -v v=$1 -v r=$2 '$1 == 2 && $2 == 20000 {print v, r, $3, $5, $6}' /tmp/cli.$port
}
for r in $(seq $R); do
	if ((r % 2)); then o="new old"; else o="old new"; fi
	for v in $o; do run $v $r; done
done
