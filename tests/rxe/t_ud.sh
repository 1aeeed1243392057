#!/bin/bash
# t_ud.sh: UD send over a real rxe device (RDMA_PS_UDP, address handles
# from rdma_cm and the client's first datagram).
#   - -s 8K -t ud_send_bw on rxe's 1024-byte path MTU: exit 2, one line
#     naming the MTU, the device and port; the server then serves at once;
#   - ud_send_bw -D without -s: size = the MTU (1024), a positive delivered rate,
#     sent = iterations (received) + lost, rx_bytes = bytes, loss_rate =
#     lost / sent;
#   - ud_send_bw -n 300 -P 2 (and -R): the sender's count is exactly 600,
#     received + lost = 600; the text row says "lost N of 600";
#   - ud_send_lat -n 300: 300 round trips with percentiles, and both
#     sides' inline threshold 188 bytes (perftest's, ibgap's default).
#   tests/rxe/rxe-run bash tests/rxe/t_ud.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_ud 180 "$@"
rx_start_server --timeout 10

# What every ud_send_bw result must satisfy; $n: the sender's count
# (0: any).
UD_BW_JQ='
def ud_bw($n):
	pre as $p |
	chk((.sent | posint) and (.lost | num) and .lost >= 0 and .lost == (.lost | floor);
	    $p + "sent \(.sent | tojson), lost \(.lost | tojson)"),
	chk(.sent == .iterations + .lost;
	    $p + "sent \(.sent) != received \(.iterations) + lost \(.lost)"),
	chk(.rx_bytes == .bytes; $p + "rx_bytes \(.rx_bytes), bytes \(.bytes)"),
	chk(.loss_rate | num; $p + "loss_rate \(.loss_rate | tojson)"),
	chk(((.loss_rate - (.lost / .sent)) | absv) < 1e-9;
	    $p + "loss_rate \(.loss_rate), lost / sent = \(.lost / .sent)"),
	(if $n > 0 then chk(.sent == $n; $p + "sent \(.sent), want \($n)")
	 else empty end);
'

rx_client 60 mtu -t ud_send_bw -s 8K -n 100 --timeout 5
expect_rc 2 "ud_send_bw -s 8K over a 1024-byte MTU"
expect_one_line "$TMP/mtu.err" "ud_send_bw -s 8K"
expect_grep "$TMP/mtu.err" "-s 8192 is more than the path MTU (1024 bytes on $IG_RDMA_DEV port 1)" \
	"ud_send_bw -s 8K"

rx_served 30 bw -t ud_send_bw -D 0.5 --warmup 0.1 --format json
expect_client_ok bw "ud_send_bw -D 0.5" &&
	rx_jq "$TMP/bw.out" "ud_send_bw -D 0.5" "$UD_BW_JQ"'
	doc(["ud_send_bw"]),
	(.results[] | verbs_ok($dev; 0; 0.5), ud_bw(0),
	 chk(.size == 1024; pre + "size \(.size), want the path MTU 1024"))' &&
	rx_log "ud_send_bw -D 0.5 (-s the MTU): $(jq -r '.results[0] |
	"sent \(.sent), received \(.iterations), lost \(.lost) (loss_rate \(.loss_rate)), \(.bw_gbps) Gb/s delivered over \(.seconds) s"' \
		"$TMP/bw.out")"

rx_client 60 n -t ud_send_bw -s 512 -n 300 -P 2 --warmup 0
expect_client_ok n "ud_send_bw -n 300 -P 2 (text)" &&
	expect_grep "$TMP/n.out" " of 600 (" "ud_send_bw -n 300 -P 2: lost N of 600"

rx_client 60 rev -t ud_send_bw,ud_send_lat -s 512 -n 300 -P 2 --warmup 0 -R \
	--format json
expect_client_ok rev "ud_send_bw,ud_send_lat -n 300 -P 2 -R" &&
	rx_jq "$TMP/rev.out" "ud_send_bw,ud_send_lat -R" "$UD_BW_JQ"'
	doc(["ud_send_bw", "ud_send_lat"]),
	(.results[] | select(.test == "ud_send_bw") | ud_bw(600),
	 chk(.direction == "reverse"; pre + "direction \(.direction | tojson)")),
	(.results[] | select(.test == "ud_send_lat") | verbs_ok($dev; 600; 0),
	 chk(has("lost") | not; pre + "a ping-pong reports lost"),
	 chk(.device.client.inline == 188 and .device.server.inline == 188;
	     pre + "inline \(.device.client.inline) \(.device.server.inline), want 188 (the UD default)"))'
check "server alive after the UD runs" rx_server_alive
rx_done
