#!/usr/bin/env bash
# experiment: rs_lat ibgap default vs --window 512K, alternating; full lat_us
set -u
IBGAP=${IBGAP:?}
ROUNDS=${ROUNDS:-30}
N=${N:-20000}
ulimit -l unlimited
T=$(mktemp -d)
P=21000
"$IBGAP" server -p $P --timeout 60 >"$T/srv.log" 2>&1 &
SPID=$!
sleep 2
run() { timeout 120 "$IBGAP" client "$IG_RDMA_ADDR" -p $P -t rs_lat -s 64 -n $N --warmup 0 --timeout 60 "$@" --format json > "$T/x.json" 2>"$T/x.err" && jq -c '[.results[0].lat_us, .results[0].window_snd?, .results[0].window_rcv?]' "$T/x.json" || echo "NA $(head -c 200 $T/x.err)"; }
A() { run; }
W() { run --window 512K; }
for ((r=1;r<=ROUNDS;r++)); do
  if ((r%2)); then o="A W"; else o="W A"; fi
  for v in $o; do echo "$r $v $($v)"; done
done
jq . "$T/x.json" | head -80 >&2
kill $SPID
