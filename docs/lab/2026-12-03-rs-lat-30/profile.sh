#!/usr/bin/env bash
set -u
ulimit -l unlimited
T=/tmp/p3; mkdir -p $T
"$IBGAP" server -p 21000 --timeout 60 >"$T/srv.log" 2>&1 &
SP=$!
sleep 2
"$IBGAP" client "$IG_RDMA_ADDR" -p 21000 -t rs_lat -s 64 -n 250000 --warmup 0 --timeout 60 --format json > "$T/x.json" & CP=$!
sleep 6
perf record -a -e cpu-clock -F 1000 -o $T/ig.data -- sleep 3 2>/dev/null >/dev/null
wait $CP
echo "ibgap mean $(jq .results[0].lat_us.mean $T/x.json)"
perf report -i $T/ig.data --stdio --sort dso,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | head -40
rstream -p 21001 -S 64 -C 1 -I 250000 -T n -f ip > $T/rs.srv 2>&1 & RS=$!
sleep 1
rstream -s "$IG_RDMA_ADDR" -p 21001 -S 64 -C 1 -I 250000 -T n -f ip > $T/rs.cli 2>&1 & RC=$!
sleep 4
perf record -a -e cpu-clock -F 1000 -o $T/rs.data -- sleep 3 2>/dev/null >/dev/null
wait $RC $RS
echo "rstream $(tail -1 $T/rs.cli)"
perf report -i $T/rs.data --stdio --sort dso,sym 2>/dev/null | grep -v "^#" | grep -v "^$" | head -40
kill $SP
