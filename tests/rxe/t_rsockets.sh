#!/bin/bash
# t_rsockets.sh: rs_bw and rs_lat (the socket transport over librdmacm's
# rsockets) on a real rxe device: rs_bw moves exactly -n x -s bytes and
# the server confirms receiving them (rx_bytes), also with -P 2 (each
# stream its -n) and with -R and --window (the requested buffer reported
# back); rs_lat gives its percentiles; no TCP_INFO over rsockets; a
# server stopped in the middle of rs_bw is noticed within the timeout.
#   tests/rxe/rxe-run bash tests/rxe/t_rsockets.sh /abs/path/to/ibgap
# In the TCG guest: about 32 s (67 s with the guest's boot, host busy).
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_rsockets 240 "$@"
rx_start_server --timeout 10

# rs_bw in -n mode: N messages of 64 KiB in all, every byte confirmed
rs_bw_ok()
{
	echo "result_checks(\"rsockets\"; 0),
	chk(.iterations == $1; pre + \"iterations \(.iterations), want $1\"),
	chk(.bytes == $1 * 65536; pre + \"bytes \(.bytes), want $1 x 65536\"),
	chk(.rx_bytes == .bytes; pre + \"rx_bytes \(.rx_bytes | tojson) != bytes \(.bytes)\"),
	chk(.tcp_info == null; pre + \"tcp_info over rsockets: \(.tcp_info | tojson)\")"
}

rx_client 90 bw -t rs_bw -n 200 -s 64K --warmup 0 --format json
expect_client_ok bw "rs_bw -n 200 -s 64K" &&
	rx_jq "$TMP/bw.out" "rs_bw" \
		"doc([\"rs_bw\"]), (.results[] | $(rs_bw_ok 200))"

rx_client 90 p2 -t rs_bw -P 2 -n 100 -s 64K --warmup 0 --format json
expect_client_ok p2 "rs_bw -P 2 -n 100" &&
	rx_jq "$TMP/p2.out" "rs_bw -P 2" "
	.results[] | $(rs_bw_ok 200),
	chk(.streams == 2; pre + \"streams \(.streams), want 2\")"

rx_client 90 rev -t rs_bw -R --window 256K -n 100 -s 64K --warmup 0 \
	--format json
expect_client_ok rev "rs_bw -R --window 256K -n 100" &&
	rx_jq "$TMP/rev.out" "rs_bw -R --window 256K" "
	.results[] | $(rs_bw_ok 100),
	chk(.direction == \"reverse\"; pre + \"direction \(.direction | tojson)\"),
	chk(.window.requested == 262144 and .window.snd >= 262144 and
	    .window.rcv >= 262144; pre + \"window \(.window | tojson)\")"

rx_client 90 lat -t rs_lat -n 300 --warmup 0 --format json
expect_client_ok lat "rs_lat -n 300" &&
	rx_jq "$TMP/lat.out" "rs_lat" '
	doc(["rs_lat"]), (.results[] | result_checks("rsockets"; 0),
	chk(.iterations == 300; pre + "iterations \(.iterations), want 300"))'
rx_log "rs_bw -n 200: $(jq -r '.results[0].bw_gbps' "$TMP/bw.out" 2>/dev/null) Gb/s," \
	"rs_lat p50 $(jq -r '.results[0].lat_us.p50' "$TMP/lat.out" 2>/dev/null) us (TCG: no hardware meaning)"

# A stalled peer is an error within the timeout: the server stopped in
# the middle of rs_bw, the client says so in one line (an rpoll() whose
# timeout expired once left later ones deaf to theirs: sock_calls.h)
rx_bg stall "$IBGAP" client "$IG_RDMA_ADDR" -p "$SRV_PORT" -t rs_bw -D 30 \
	--warmup 0.2 --timeout 5
sleep 6
kill -STOP "$SRV_PID"
rx_wait_bg 30
kill -CONT "$SRV_PID"
expect_rc 1 "rs_bw with the server stopped (after $ELAPSED s)"
expect_one_line "$TMP/stall.err" "rs_bw with the server stopped"
check "rs_bw with the server stopped: failed within 12 s (took $ELAPSED s)" \
	rx_le "$ELAPSED" 12
check "server still running" rx_server_alive
rx_done
