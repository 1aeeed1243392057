#!/bin/bash
# t_try.sh: ibgap doctor --try on a real rxe device: the path to
# IG_RDMA_ADDR has an RDMA device, so the baseline has its verbs ceiling
# (write_bw over the same port), measured once every change is back, and
# the combined line compares with it.  The trial is run.streams, which
# touches no setting.
#   tests/rxe/rxe-run bash tests/rxe/t_try.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
# jq programs in single quotes: their $names are jq's
# shellcheck disable=SC2016
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_try 300 "$@"

rx_start_server
rx_run 240 try "$IBGAP" doctor "$IG_RDMA_ADDR" -p "$SRV_PORT" \
	--try run.streams --repeat 2 -D 0.3 --warmup 0.1 \
	--journal "$TMP/journal" --format json
expect_rc 0 "doctor --try run.streams"
check "a report on stdout" test -s "$TMP/try.out"
rx_jq "$TMP/try.out" "--try on $IG_RDMA_DEV" '
	chk(.schema == "ibgap-try/1"; "schema \(.schema | tojson)"),
	chk(.ceiling != null; "no ceiling: \(.ceiling_absent | tojson)"),
	chk((.ceiling.mean // 0) > 0; "ceiling \(.ceiling | tojson)"),
	chk(.ceiling.test == "write_bw"; "ceiling test \(.ceiling.test | tojson)"),
	chk((.baseline.tcp_bw.mean // 0) > 0; "baseline \(.baseline | tojson)"),
	chk([.trials[] | select(.id == "run.streams" and .verdict != null)]
	    | length == 1; "run.streams not judged: \(.trials | tojson)")'
rx_log "tcp_bw and the ceiling (Gb/s): $(jq -c \
	'{tcp_bw: .baseline.tcp_bw.mean, write_bw: .ceiling.mean}' \
	"$TMP/try.out" 2>&1)"
check "no journal left" test ! -e "$TMP/journal"
check "server alive after the trials" rx_server_alive
rx_done
