#!/bin/bash
# ab-client.sh OLD NEW: alternating client runs of each build against its
# own server; prints each run's wall time
ADDR=10.233.0.1
$1 server -B "$ADDR" -p 19998 >/tmp/srv-old.log 2>&1 &
$2 server -B "$ADDR" -p 19999 >/tmp/srv-new.log 2>&1 &
sleep 2
for r in 1 2 3 4 5; do
	for v in old new; do
		if [[ $v == old ]]; then b=$1 p=19998; else b=$2 p=19999; fi
		s=$EPOCHREALTIME
		$b client "$ADDR" -p $p -t write_bw -n 300 --warmup 0 >/dev/null 2>&1 || echo "FAILED $v"
		echo "$v $(echo "$EPOCHREALTIME - $s" | bc)"
	done
done | awk '{print; s[$1]+=$2; n[$1]++} END {for (v in s) printf "mean %s %.3f s\n", v, s[v]/n[v]}'
