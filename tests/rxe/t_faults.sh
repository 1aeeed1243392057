#!/bin/bash
# t_faults.sh: the fault-injection matrix (tests/faults.sh.inc) for verbs
# on Soft-RoCE: write_bw killed or stalled at every phase after connect
# (the HELLO, before any transport: integ/faults has it) on either side,
# send_bw and send_lat in their measured interval.  The survivor says one
# line within the timeout, the client exits 1, the server serves the next
# client.  A stalled (SIGSTOPped) peer keeps its queue pairs: the kernel
# still answers RDMA writes for it, so the survivor must notice on the
# control connection or by its completion-queue stall check.  The matrix
# runs in two lanes at once (two servers, separate files).
#   tests/rxe/rxe-run bash tests/rxe/t_faults.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
source "$(dirname "${BASH_SOURCE[0]}")/../faults.sh.inc"
rx_init t_faults 480 "$@"

FM_START=rx_start_server
FM_HOST=$IG_RDMA_ADDR
FM_TIMEOUT=3
FM_SLACK=5
FM_NEXT="-t send_lat -n 50 --warmup 0 --timeout 10"

# lane ID CMD...: CMD (matrices) in the background, in a subshell of its
# own (FM_LANE names its files); its checks and failures are added to
# ours by lanes_wait.  The cases mostly wait (a timeout, a process start
# in the emulated guest), so two lanes take about half the time.
LANES=()
lane()
{
	local id=$1

	shift
	(
		FM_LANE=$id.
		FM_SERVER_PID=
		"$@"
		echo "$RX_CHECKS $RX_FAILS" >"$TMP/lane.$id"
		# this lane's servers and clients (the parent never saw them)
		for pid in "${RX_PIDS[@]}"; do
			kill -CONT "$pid" 2>/dev/null
			kill -KILL "$pid" 2>/dev/null
		done
	) &
	LANES+=("$id:$!")
}

lanes_wait()
{
	local l checks fails

	for l in "${LANES[@]}"; do
		wait "${l#*:}"
		read -r checks fails 2>/dev/null <"$TMP/lane.${l%%:*}" || {
			fail "lane ${l%%:*} ended without its counts"
			continue
		}
		RX_CHECKS=$((RX_CHECKS + checks))
		RX_FAILS=$((RX_FAILS + fails))
	done
}

# connect (HELLO) comes before any transport: integ/faults covers it
lane a fm_matrix write_bw "params setup warmup"
lane b eval 'fm_matrix write_bw "measure result";' \
	'fm_matrix send_bw measure; fm_matrix send_lat measure'
lanes_wait
rx_done
