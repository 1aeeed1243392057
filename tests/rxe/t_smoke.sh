#!/bin/bash
# t_smoke.sh: prove that rxe-run gives real verbs.
#   tests/rxe/rxe-run bash tests/rxe/t_smoke.sh [PATH_TO_IBGAP]
# Checks: ibv_devices lists $IG_RDMA_DEV, its port is PORT_ACTIVE, and a
# perftest ib_write_bw server/client pair completes over $IG_RDMA_ADDR.
# The ibgap argument is not used.  Exit 0 pass, 1 fail, 77 skipped.
set -euo pipefail

if [[ -z ${IG_RDMA_DEV:-} ]]; then
	echo "t_smoke: skipped: IG_RDMA_DEV unset (run under tests/rxe/rxe-run)" >&2
	exit 77
fi
: "${IG_RDMA_ADDR:?t_smoke: IG_RDMA_DEV is set but IG_RDMA_ADDR is not}"

fail()
{
	echo "t_smoke: FAIL: $*" >&2
	exit 1
}

for tool in ibv_devices ibv_devinfo ib_write_bw; do
	command -v "$tool" >/dev/null ||
		fail "$tool not found (Debian packages ibverbs-utils, perftest)"
done

out=$(ibv_devices 2>&1) || fail "ibv_devices exited $?: $out"
grep -qw -- "$IG_RDMA_DEV" <<<"$out" ||
	fail "ibv_devices does not list $IG_RDMA_DEV; it printed: $out"
echo "t_smoke: ibv_devices lists $IG_RDMA_DEV"

out=$(ibv_devinfo -d "$IG_RDMA_DEV" 2>&1) ||
	fail "ibv_devinfo -d $IG_RDMA_DEV exited $?: $out"
grep -q PORT_ACTIVE <<<"$out" ||
	fail "ibv_devinfo -d $IG_RDMA_DEV shows no PORT_ACTIVE port: $out"
echo "t_smoke: $IG_RDMA_DEV port is PORT_ACTIVE"

# GID index 1 is rxe's IPv4-mapped GID (RoCE v2).  200 x 64 KiB keeps the
# run short under emulation (about 20-30 MB/s in a TCG guest).
tmp=$(mktemp -d)
srv_pid=
cleanup()
{
	[[ -n $srv_pid ]] && kill "$srv_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
bw=(ib_write_bw -d "$IG_RDMA_DEV" -x 1 -n 200 -s 65536)

# Run one server/client pair on TCP port $1; set cli_rc and srv_rc.
bw_pair()
{
	local port=$1

	timeout 120 "${bw[@]}" -p "$port" >"$tmp/server.log" 2>&1 &
	srv_pid=$!
	# The server needs a moment to listen; a refused client is retried.
	for _ in $(seq 20); do
		sleep 0.5
		cli_rc=0
		timeout 120 "${bw[@]}" -p "$port" "$IG_RDMA_ADDR" \
			>"$tmp/client.log" 2>&1 || cli_rc=$?
		[[ $cli_rc == 0 ]] && break
		grep -q "Couldn't connect" "$tmp/client.log" || break
	done
	# A failed client can leave the server waiting: do not wait 120 s.
	[[ $cli_rc == 0 ]] || kill "$srv_pid" 2>/dev/null || :
	srv_rc=0
	wait "$srv_pid" || srv_rc=$?
	srv_pid=
}

# perftest calibrates its cycle counter against gettimeofday and gives
# up ("Correlation coefficient r^2: ... < 0.9") when the clocks jitter, as
# they do in an emulated CPU on a busy host.  That, and only that, is
# retried.  A port of our own so that runs on a shared host do not collide.
port=$((20000 + $$ % 10000))
for attempt in 1 2 3; do
	bw_pair $((port + attempt))
	[[ $cli_rc == 0 && $srv_rc == 0 ]] && break
	grep -qs "Correlation coefficient" "$tmp/client.log" "$tmp/server.log" ||
		break
	echo "t_smoke: perftest clock calibration failed, attempt $attempt of 3"
done
[[ $cli_rc == 0 ]] ||
	fail "ib_write_bw client to $IG_RDMA_ADDR exited $cli_rc: $(cat "$tmp/client.log")"
[[ $srv_rc == 0 ]] ||
	fail "ib_write_bw server exited $srv_rc: $(cat "$tmp/server.log")"

# The result line: bytes, iterations, peak and average MB/s, Mpps.
re='^[[:space:]]*65536[[:space:]]+200([[:space:]]+[0-9.]+){3}'
line=$(grep -E "$re" "$tmp/client.log") ||
	fail "ib_write_bw printed no bandwidth line: $(cat "$tmp/client.log")"
echo "t_smoke: ib_write_bw 65536 B x 200 over $IG_RDMA_DEV: $line"
echo "t_smoke: 3 passed, 0 failed"
