#!/usr/bin/env bash
set -u
ulimit -l unlimited
T=/tmp/p4; mkdir -p $T
"$IBGAP" server -p 21000 --timeout 60 >"$T/srv.log" 2>&1 &
SP=$!
sleep 2
EV=sched:sched_switch,sched:sched_wakeup,irq:softirq_entry,timer:hrtimer_expire_entry,irq_vectors:local_timer_entry,syscalls:sys_enter_write
win() { # tag
  perf stat -a -e $EV -o $T/$1.stat -- sleep 3 >/dev/null 2>&1
  perf record -a -e sched:sched_switch -o $T/$1.data -- sleep 2 >/dev/null 2>&1
  echo "== $1"; grep -E "sched|irq|timer|sys_enter" $T/$1.stat | awk '{print $1, $2}'
  perf script -i $T/$1.data -F comm,tid,event,trace 2>/dev/null | awk '{c[$1" "$2]++} END {for (k in c) print c[k], k}' | sort -rn | head -8
}
for k in 1 2; do
"$IBGAP" client "$IG_RDMA_ADDR" -p 21000 -t rs_lat -s 64 -n 300000 --warmup 0 --timeout 60 --format json > "$T/x.json" & CP=$!
sleep 5
win ig$k
wait $CP
echo "ibgap mean $(jq .results[0].lat_us.mean $T/x.json)"
rstream -p 21001 -S 64 -C 1 -I 300000 -T n -f ip > $T/rs.srv 2>&1 & RS=$!
sleep 1
rstream -s "$IG_RDMA_ADDR" -p 21001 -S 64 -C 1 -I 300000 -T n -f ip > $T/rs.cli 2>&1 & RC=$!
sleep 4
win rs$k
wait $RC $RS
echo "rstream $(tail -1 $T/rs.cli)"
done
kill $SP
