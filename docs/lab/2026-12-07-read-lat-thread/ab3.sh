#!/bin/bash
# ab3.sh ROUNDS IBGAP [VARIANTS]: read_lat 2 B x 20000, client CPU 0, server CPU 1;
# variants: ig (ibgap), new (ib_read_lat), old (ib_read_lat --use_old_post_send),
# order rotating each round; prints "variant round min p50 mean"
R=${1:-10} IB=$2 V=${3:-"ig new old"}
port=18000
taskset -c 1 "$IB" server -p 17999 >/tmp/igsrv.log 2>&1 &
igp=$!
sleep 1
pt() { # variant round
	local x=()
	[[ $1 == old ]] && x=(--use_old_post_send)
	port=$((port + 1))
	taskset -c 1 ib_read_lat -d "$IG_RDMA_DEV" -x 1 -s 2 -n 20000 "${x[@]}" -p $port >/tmp/srv.$port 2>&1 &
	local sp=$!
	sleep 0.5
	for i in 1 2 3 4 5 6 7 8 9 10; do
		taskset -c 0 ib_read_lat -d "$IG_RDMA_DEV" -x 1 -s 2 -n 20000 "${x[@]}" -p $port "$IG_RDMA_ADDR" >/tmp/cli.$port 2>&1 && break
		sleep 0.3
	done
	wait $sp
	awk -v v=$1 -v r=$2 '$1 == 2 && $2 == 20000 {print v, r, $3, $5, $6}' /tmp/cli.$port
}
ig() {
	local b=IGBIN_$1
	b=${!b:-$IB}
	local e=IGENV_$1
	env ${!e:-IG_NONE=1} taskset -c 0 "$b" client -p 17999 -t read_lat -s 2 -n 20000 --warmup 0 --cpu 0 \
		--format json $IG_EXTRA "$IG_RDMA_ADDR" >/tmp/ig.json 2>/tmp/ig.err || { tail -2 /tmp/ig.err; return; }
	jq -r --arg v "$1" --arg r "$2" '.results[0] | "\($v) \($r) \(.lat_us.min) \(.lat_us.p50) \(.lat_us.mean) \(.clock)"' /tmp/ig.json
}
rl() {
	port=$((port + 1))
	taskset -c 1 /work/labtmp/rl/rl -s $port >/tmp/rls.$port 2>&1 &
	local sp=$!
	sleep 0.3
	for i in 1 2 3 4 5 6 7 8 9 10; do
		local e=RLENV_$1
		env ${!e:-RL_NONE=1} taskset -c 0 /work/labtmp/rl/rl "$IG_RDMA_ADDR" $port 20000 ${RLPOLL:-1} >/tmp/rlc.$port 2>&1 && break
		sleep 0.3
	done
	wait $sp
	awk -v v=$1 -v r=$2 '$1 == "min" {print v, r, $2, $4, $4}' /tmp/rlc.$port
}
set -- $V
n=$#
for r in $(seq $R); do
	for ((k = 0; k < n; k++)); do
		i=$(( (k + r) % n + 1 ))
		v=${!i}
		case $v in rl*) rl $v $r ;; ig*) x=IGX_$v; IG_EXTRA=${!x:-} ig $v $r ;; *) pt $v $r ;; esac
	done
done
kill $igp
