#!/usr/bin/env bash
# In the guest: rs_lat's mean half round trip of ibgap build A, ibgap
# build B (or rstream again, B=rstream: the control) and rstream, 20,000
# round trips of 64 bytes each, ROUNDS rounds in the rotating orders ABR,
# BRA, RAB.  One line per round: round, A, B, rstream (us; NA: failed).
#   A=... B=... ROUNDS=N tests/rxe/rxe-run bash three-way.sh
set -u
ROUNDS=${ROUNDS:-30}
N=20000
ulimit -l unlimited
T=$(mktemp -d)
"$A" server -p 21000 --timeout 60 >"$T/sa.log" 2>&1 &
PA=$!
PB=
if [[ $B != rstream ]]; then
	"$B" server -p 21002 --timeout 60 >"$T/sb.log" 2>&1 &
	PB=$!
fi
sleep 2

run() {
	if timeout 120 "$1" client "$IG_RDMA_ADDR" -p "$2" -t rs_lat -s 64 \
		-n "$N" --warmup 0 --timeout 60 --format json >"$T/x.json" \
		2>"$T/x.err"; then
		jq -r '.results[0].lat_us.mean' "$T/x.json"
	else
		echo NA
	fi
}

rst() {
	local rp

	timeout 120 rstream -p 21005 -S 64 -C 1 -I "$N" -T n -f ip \
		>"$T/rs.srv" 2>&1 &
	rp=$!
	sleep 1
	if timeout 120 rstream -s "$IG_RDMA_ADDR" -p 21005 -S 64 -C 1 \
		-I "$N" -T n -f ip >"$T/rs" 2>&1; then
		awk '$1 == "custom" && $8 + 0 > 0 { print $8 }' "$T/rs"
	else
		echo NA
	fi
	wait "$rp" 2>/dev/null
}

one_a() { run "$A" 21000; }
one_b() { if [[ $B == rstream ]]; then rst; else run "$B" 21002; fi; }

for ((r = 1; r <= ROUNDS; r++)); do
	case $((r % 3)) in
	1) a=$(one_a); b=$(one_b); c=$(rst) ;;
	2) b=$(one_b); c=$(rst); a=$(one_a) ;;
	0) c=$(rst); a=$(one_a); b=$(one_b) ;;
	esac
	echo "$r $a $b $c"
done
# shellcheck disable=SC2086 # PB is empty for the control
kill "$PA" $PB
