#!/bin/bash
# The runs of docs/lab/2026-12-03-fabric-quiet.md, in the namespace
# cluster of tests/fabric/cluster.sh.inc (root):
#   bash quiet.sh MODE NEW_FABRIC [OLD_FABRIC]
# rounds: 12 ranks, -t tcp_bw -D 0.3, old and new twice each: mpirun's
#         wall time and the report's round_overhead_ms
# idle:   3 ranks, bisection -D 2: the CPU ticks of the resting rank 2
# exit:   6 ranks: mpirun's wall time of runs that exit 0 and 2, with
#         Open MPI's default SIGKILL timeout and with 0
# OLD_FABRIC: a build without src/fabric/mpi_quiet.c, named
# ibgap-fabric (the comm the idle mode looks for; default
# /tmp/spin/ibgap-fabric).
mode=$1
shift
old=${2:-/tmp/spin/ibgap-fabric}
here=/work/main/tests/fabric
# shellcheck source=tests/integ/lib.sh.inc
source "$here/../integ/lib.sh.inc" || exit 1
# shellcheck source=tests/fabric/cluster.sh.inc
source "$here/cluster.sh.inc" || exit 1
# shellcheck disable=SC2034 # ig_init's watchdog
IG_LIMIT=280
ig_init quiet "$1"
new=$IBGAP

# t CMD...: CMD's wall time, quietly
t()
{
	local s e

	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$(echo "$e - $s" | bc) $*" | cut -c1-150
}

rounds()
{
	local bin s

	fc_up 12 quietr
	for bin in "$old" "$new" "$old" "$new"; do
		s=$(date +%s.%N)
		fc_mpirun 12 "$bin" -t tcp_bw -D 0.3 --warmup 0.05 --timeout 5 \
			--no-retest --bw-tol 0.5 --format json -o "$TMP/o.json" \
			>"$TMP/o.out" 2>"$TMP/o.err"
		echo "$bin wall $(echo "$(date +%s.%N) - $s" | bc)"
		jq -c '[.rounds_done, .round_overhead_ms]' "$TMP/o.json"
	done
}

idle()
{
	local bin pid c rc

	fc_up 3 quieti
	for bin in "$old" "$new" "$old" "$new"; do
		fc_mpirun 3 "$bin" -D 2 --warmup 0.05 --timeout 5 -t tcp_bw \
			--pattern bisection >/dev/null 2>&1 &
		pid=$!
		c=$(fc_proc_cpu "${FC_NS[2]}" ibgap-fabric "$pid")
		rc=0
		wait "$pid" || rc=$?
		echo "$bin rc=$rc rank 2's ticks=$c"
	done
}

exits()
{
	fc_up 6 quiete
	t fc_mpirun 6 "$new" -t tcp_lat -D 0.05 --warmup 0.01 \
		--pattern ring --rounds 1 --no-retest
	t fc_mpirun 6 "$new" --pattern mesh
	t fc_mpirun 6 sh -c 'exit 2'
	t fc_mpirun 6 sh -c 'exit 0'
	FC_MPIRUN_ARGS=(--mca odls_base_sigkill_timeout 0)
	t fc_mpirun 6 sh -c 'exit 2'
	t fc_mpirun 6 "$new" --pattern mesh
}

case $mode in
rounds) rounds ;;
idle) idle ;;
exit) exits ;;
*) echo "quiet.sh: mode '$mode': allowed rounds, idle, exit" >&2 ;;
esac
fc_down
