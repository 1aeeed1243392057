#!/bin/bash
# t_reverse.sh: -R over a real rxe device: the server sends, the client
# receives.  write_bw and send_bw (and tcp_bw on the same address) report
# direction "reverse", positive figures computed by the server (bytes =
# iterations x size; -n counts the server's messages per stream), and for
# send_bw the client's own receive completions counted the bytes the
# server sent (rx_bytes, within the 128 requests the send queue may still
# hold when a count is read; tcp_bw exactly, as both ends confirm; a
# write's receiver sees no completion, so write_bw has none); a latency
# test in the same list ignores -R.
#   tests/rxe/rxe-run bash tests/rxe/t_reverse.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_reverse 300 "$@"
rx_start_server --timeout 10

REV_JQ='
.results[] | select(.test | test("_bw$")) | pre as $p |
chk(.direction == "reverse"; $p + "direction \(.direction | tojson)"),
chk(.iterations > 0 and .bw_gbps > 0 and .bytes > 0; $p + "no traffic"),
chk(.bytes == .iterations * .size; $p + "bytes != iterations x size"),
chk(has("bidir") | not; $p + "a reverse run reports bidir")
'

for t in write_bw send_bw tcp_bw; do
	rx_client 120 "$t" -t "$t" -D 0.5 --warmup 0.1 -R --format json
	expect_client_ok "$t" "$t -R" &&
		rx_jq "$TMP/$t.out" "$t -R" "$REV_JQ"
done
rx_jq "$TMP/write_bw.out" "write_bw -R: no rx_bytes" \
	'.results[] | chk(has("rx_bytes") | not; pre + "write_bw has rx_bytes")'
rx_jq "$TMP/tcp_bw.out" "tcp_bw -R: the client received every byte" \
	'.results[] | chk(.rx_bytes == .bytes; pre + "rx_bytes \(.rx_bytes), bytes \(.bytes)")'

rx_client 120 n -t send_bw,write_bw,send_lat -P 2 -n 300 --warmup 0 -R \
	--format json
expect_client_ok n "send_bw,write_bw,send_lat -P 2 -n 300 -R" &&
	rx_jq "$TMP/n.out" "-R -n 300 -P 2" "($REV_JQ),"'
	(.results[] | select(.test | test("_bw$")) | pre as $p |
	 chk(.iterations == 600; $p + "iterations \(.iterations), want 600")),
	(.results[] | select(.test == "send_bw") |
	 chk(.rx_bytes > 0 and ((.rx_bytes - .bytes) | absv) <= 128 * .size;
	     pre + "client received \(.rx_bytes), server sent \(.bytes)")),
	(.results[] | select(.test == "send_lat") | pre as $p |
	 chk(.iterations == 600; $p + "iterations \(.iterations), want 600"),
	 chk(has("direction") | not; $p + "a ping-pong has a direction"),
	 chk(.cpu.client | has("us_per_tr"); $p + "no us_per_tr"))'
check "server alive after the -R runs" rx_server_alive
rx_done
