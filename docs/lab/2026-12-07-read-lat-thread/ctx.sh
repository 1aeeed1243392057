ks=$(pgrep -x ksoftirqd/0)
for v in "" RL_THREAD=1 "RL_THREAD=1 RL_EXIT=1" "" RL_THREAD=1; do
	p=$((RANDOM % 1000 + 19000))
	taskset -c 1 /work/labtmp/rl/rl -s $p & sleep 0.3
	a=$(grep ctxt /proc/$ks/status | awk '{s += $2} END {print s}')
	env $v taskset -c 0 /work/labtmp/rl/rl "$IG_RDMA_ADDR" $p 20000 1 2>&1 | tr '\n' ' '
	b=$(grep ctxt /proc/$ks/status | awk '{s += $2} END {print s}')
	echo " [$v] ksoftirqd/0 switches $((b - a))"
	wait
done
grep -E "^(softirq|ctxt)" /proc/stat | cut -c1-80
