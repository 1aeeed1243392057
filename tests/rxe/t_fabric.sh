#!/bin/bash
# t_fabric.sh: ibgap-fabric with verbs, two ranks on the Soft-RoCE device
# (mpirun -np 2 on one host): each rank finds the active RDMA port and
# serves on its netdev's address, and the pair's write_bw and send_lat
# run through verbs next to tcp_bw and tcp_lat, every one measured.
#   tests/rxe/rxe-run bash tests/rxe/t_fabric.sh /abs/path/to/ibgap
# (ibgap-fabric is taken from beside ibgap.)  Exit 0 pass, 1 fail, 77
# skipped (no IG_RDMA_DEV, or ibgap-fabric or mpirun missing).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_fabric 300 "$@"
FABRIC=${IBGAP%/*}/ibgap-fabric
if [[ ! -x $FABRIC ]] || ! command -v mpirun >/dev/null; then
	echo "t_fabric: skipped: no $FABRIC or no mpirun (build with MPI:" \
		"apt-get install libopenmpi-dev)" >&2
	exit 77
fi
rx_mpi_prep
# ASan builds: no LeakSanitizer for ibgap-fabric.  Open MPI leaves
# thousands of allocations at exit; suppressing them needs whole stacks
# (its libraries have no frame pointers) and its plugins kept loaded,
# which made the runs here 2-3 times slower.  The fabric's own code is
# leak-checked by its unit tests (test_fabric_*); ASan's other checks stay.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
OUT=$TMP/fabric.json

rx_run 240 fabric mpirun --allow-run-as-root --oversubscribe -np 2 \
	"$FABRIC" -D 0.5 --warmup 0.1 --timeout 20 --format json -o "$OUT"
check "ibgap-fabric -np 2 exits 0 (exit $RC, $ELAPSED s)" test "$RC" = 0
[[ $RC == 0 ]] || rx_log "stderr: $(head -c 3000 "$TMP/fabric.err")"
rx_jq "$OUT" "the run" '
	if .schema != "ibgap-fabric/1" then "schema \(.schema)" else empty end,
	(.nodes[] | select(.rdma != true) |
		"rank \(.rank) found no RDMA port: \(.addr_from)"),
	(.nodes[] | select(.addr != env.IG_RDMA_ADDR) |
		"rank \(.rank) serves on \(.addr), not \(env.IG_RDMA_ADDR)"),
	([.pairs[] | .test] | sort | if . != ["send_lat", "tcp_bw", "tcp_lat",
		"write_bw"] then "tests \(.)" else empty end),
	(.pairs[] | select(.ok != true) | "\(.test) failed: \(.error)"),
	(.pairs[] | select(.test | endswith("_bw")) | select(.bw_gbps <= 0) |
		"\(.test): \(.bw_gbps) Gb/s"),
	(.pairs[] | select(.test | endswith("_lat")) |
		select(.lat_us.p50 <= 0) | "\(.test): p50 \(.lat_us.p50) us")'
rx_done
