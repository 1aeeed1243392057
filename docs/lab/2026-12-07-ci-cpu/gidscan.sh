#!/bin/bash
IB=$1
d=/sys/class/infiniband/rxe0/ports/1/gids
ls $d | wc -l
s=$EPOCHREALTIME; for i in 1 2 3 4; do cat $d/* >/dev/null 2>&1; done; echo "cat gids/* x4: $(echo "$EPOCHREALTIME - $s" | bc) s"
s=$EPOCHREALTIME; for i in 1 2 3 4; do grep -c . $d/* >/dev/null 2>&1; done; echo "grep gids/* x4: $(echo "$EPOCHREALTIME - $s" | bc) s"
ADDR=10.233.0.1
$IB server -B "$ADDR" -p 19999 >/tmp/srv.log 2>&1 &
sleep 1.5
for i in 1 2 3; do s=$EPOCHREALTIME; $IB client "$ADDR" -p 19999 -t write_bw -n 300 --warmup 0 >/dev/null 2>&1; echo "write_bw: $(echo "$EPOCHREALTIME - $s" | bc) s"; done
strace -f -c -o /tmp/sc.txt $IB client "$ADDR" -p 19999 -t write_bw -n 300 --warmup 0 >/dev/null 2>&1; head -12 /tmp/sc.txt
