#!/bin/bash
# t_bidir.sh: --bidir over a real rxe device: send_bw and write_bw move
# data both ways at once (the client->server figure, the server->client
# one and their sum are reported and positive); tcp_bw likewise on the
# same address; and the latency tests, whose QPs now have separate send
# and receive CQs, still run.
#   tests/rxe/rxe-run bash tests/rxe/t_bidir.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_bidir 300 "$@"
rx_start_server --timeout 10

BIDIR_JQ='
.results[] | pre as $p |
if (.bidir | type) != "object" then $p + "no bidir object"
else
	chk(.bidir.forward_gbps == .bw_gbps;
	    $p + "bidir.forward_gbps \(.bidir.forward_gbps) != bw_gbps \(.bw_gbps)"),
	chk((.bidir.reverse_gbps | num) and .bidir.reverse_gbps > 0;
	    $p + "reverse_gbps \(.bidir.reverse_gbps | tojson), want > 0"),
	chk(.bidir.reverse_bytes > 0 and .bidir.reverse_seconds > 0;
	    $p + "reverse bytes/seconds \(.bidir.reverse_bytes)/\(.bidir.reverse_seconds)"),
	chk(close(.bidir.total_gbps; .bidir.forward_gbps + .bidir.reverse_gbps; 1e-9);
	    $p + "total_gbps is not forward + reverse"),
	chk(close(.bidir.reverse_gbps;
		  .bidir.reverse_bytes * 8 / .bidir.reverse_seconds / 1e9; 1e-6);
	    $p + "reverse_gbps is not reverse_bytes*8/reverse_seconds/1e9"),
	chk(.iterations > 0 and .bw_gbps > 0; $p + "no forward traffic")
end
'

for t in send_bw write_bw tcp_bw; do
	rx_client 120 "$t" -t "$t" -D 0.5 --warmup 0.1 --bidir --format json
	expect_client_ok "$t" "$t --bidir" &&
		rx_jq "$TMP/$t.out" "$t --bidir" "$BIDIR_JQ"
done
rx_client 120 p2 -t send_bw -P 2 -n 300 --warmup 0 --bidir --format json
expect_client_ok p2 "send_bw -P 2 -n 300 --bidir" &&
	rx_jq "$TMP/p2.out" "send_bw -P 2 --bidir" \
		"($BIDIR_JQ), (.results[] | chk(.iterations == 600; pre + \"iterations \(.iterations), want 600\"))"

# latency: both CQs polled; --bidir beside a _bw test leaves a ping-pong
# as it is (--bidir with latency tests alone is refused, exit 2)
rx_client 120 lat -t send_bw,send_lat,write_lat -n 300 --warmup 0.1 --bidir \
	--format json
expect_client_ok lat "send_lat,write_lat beside send_bw --bidir" &&
	rx_jq "$TMP/lat.out" "latency tests" '
	([.results[] | select(.test | endswith("_lat"))] | length) as $n |
	chk($n == 2; "\($n) latency results, want 2"),
	(.results[] | select(.test | endswith("_lat")) | pre as $p |
	chk(.iterations == 300; $p + "iterations \(.iterations), want 300"),
	chk(has("bidir") | not; $p + "a ping-pong reports bidir"),
	chk(.lat_us.p50 > 0; $p + "no p50"))'
rx_client 30 latonly -t send_lat,write_lat -n 300 --bidir
expect_rc 2 "--bidir with latency tests alone"
expect_grep "$TMP/latonly.err" "--bidir: no bandwidth test in -t" \
	"--bidir with latency tests alone"
rx_done
