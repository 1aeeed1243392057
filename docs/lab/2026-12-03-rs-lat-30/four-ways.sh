#!/usr/bin/env bash
# experiment: rs_lat ibgap default / --window 512K / rstream default / rstream -B 64K
set -u
IBGAP=${IBGAP:?}
ROUNDS=${ROUNDS:-12}
N=20000
ulimit -l unlimited
T=$(mktemp -d)
P=21000; RP=21001
"$IBGAP" server -p $P --timeout 60 >"$T/srv.log" 2>&1 &
SPID=$!
sleep 2
A() { timeout 120 "$IBGAP" client "$IG_RDMA_ADDR" -p $P -t rs_lat -s 64 -n $N --warmup 0 --timeout 60 --format json > "$T/a.json" 2>"$T/a.err" && jq -r '.results[0].lat_us | "\(.mean) \(.p50) \(.min)"' "$T/a.json" || echo "NA $(head -c 200 $T/a.err)"; }
W() { timeout 120 "$IBGAP" client "$IG_RDMA_ADDR" -p $P -t rs_lat -s 64 -n $N --warmup 0 --timeout 60 --window 512K --format json > "$T/w.json" 2>"$T/w.err" && jq -r '.results[0].lat_us | "\(.mean) \(.p50) \(.min)"' "$T/w.json" || echo "NA $(head -c 200 $T/w.err)"; }
rst() { timeout 120 rstream -p $RP -S 64 -C 1 -I $N -T n -f ip "$@" >"$T/rs.srv" 2>&1 & local rp=$!; sleep 1
  timeout 120 rstream -s "$IG_RDMA_ADDR" -p $RP -S 64 -C 1 -I $N -T n -f ip "$@" > "$T/rs.cli" 2>&1; awk '$1=="custom"{print $8}' "$T/rs.cli"; wait $rp; }
R() { rst; }
S() { rst -B 65536; }
for ((r=1;r<=ROUNDS;r++)); do
  case $((r%4)) in 1) o="A W R S";; 2) o="R S A W";; 3) o="W A S R";; 0) o="S R W A";; esac
  for v in $o; do echo "$r $v $($v)"; done
done
kill $SPID
