#!/bin/bash
# rsab.sh ROUNDS (in the guest, through tests/rxe/rxe-run): rs_bw 64 KiB x
# 400, --window 512K, as bench/rs_vs_rstream.sh runs it, client CPU 0,
# server CPU 1: ibgap before (O) and after (N) the filled 128 KiB reads,
# alternating
R=${1:-12}
O=/work/labtmp/qp/old/build/ibgap N=/work/main/build/ibgap
ulimit -l unlimited
taskset -c 1 $O server -p 19950 --timeout 60 >/tmp/o.log 2>&1 &
taskset -c 1 $N server -p 19951 --timeout 60 >/tmp/n.log 2>&1 &
sleep 2
run() { local b=$O p=19950; [[ $1 == N ]] && b=$N p=19951
	timeout 120 taskset -c 0 $b client "$IG_RDMA_ADDR" -p $p -t rs_bw -s 65536 -n 400 --window 512K --warmup 0.2 --timeout 60 --format json | jq -r '.results[0].bw_gbps'; }
for ((r = 1; r <= R; r++)); do
	if ((r % 2)); then a=O b=N; else a=N b=O; fi
	echo "rs $r $a $(run $a)"; echo "rs $r $b $(run $b)"
done
kill $(jobs -p)
