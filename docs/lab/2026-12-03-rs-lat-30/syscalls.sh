#!/usr/bin/env bash
set -u
ulimit -l unlimited
T=/tmp/rspoll; mkdir -p $T
"$IBGAP" server -p 21000 --timeout 60 >"$T/srv.log" 2>&1 &
SP=$!
sleep 2
for N in 20000 60000; do
perf stat -e syscalls:sys_enter_poll,syscalls:sys_enter_clock_gettime,syscalls:sys_enter_write -p $SP -o $T/ps.txt & PP=$!
perf stat -e syscalls:sys_enter_poll,syscalls:sys_enter_clock_gettime,syscalls:sys_enter_write,syscalls:sys_enter_openat -o $T/pc.txt "$IBGAP" client "$IG_RDMA_ADDR" -p 21000 -t rs_lat -s 64 -n $N --warmup 0 --timeout 60 --format json > "$T/x.json"
kill -INT $PP; wait $PP
echo "N=$N mean $(jq .results[0].lat_us.mean $T/x.json)"
grep sys_enter $T/ps.txt | sed 's/^/server /'
grep sys_enter $T/pc.txt | sed 's/^/client /'
done
kill $SP
