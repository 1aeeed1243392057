#!/bin/bash
# t_compare.sh: the comparison over a real rxe device.  Without -t the
# client runs the six tests (write_bw, send_bw, tcp_bw, send_lat,
# write_lat, tcp_lat) at every -s size, and the report's "comparison"
# pairs each verbs result with the TCP result of the same size: the
# ratios and the added latency agree with the results themselves, N1/2 is
# given for the three bandwidth tests.  Then --also 127.0.0.1 gives tcp_bw
# a second column over the guest's loopback, and 'ibgap' alone finds the
# rxe port and compares on it against a server of its own.
#   tests/rxe/rxe-run bash tests/rxe/t_compare.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  About 2-4 minutes in
# the QEMU guest (12 short runs, then 6 runs of 2 s).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_compare 420 "$@"
rx_start_server --timeout 10

# The checks of the sweep's report; every string yielded is a failure.
# $V[...] / $T[...] below: the verbs and TCP results a pair names.
CMP_JQ='
def sizes: [4096, 65536];
def tests: ["write_bw", "send_bw", "tcp_bw", "send_lat", "write_lat",
	    "tcp_lat"];
def pairings: {"write_bw": "tcp_bw", "send_bw": "tcp_bw",
	       "send_lat": "tcp_lat", "write_lat": "tcp_lat"};
. as $d |
def res($t; $s; $n): [$d.results[] | select(.test == $t and .size == $s and
					      .streams == $n)];

chk(.schema == "ibgap/1"; "schema \(.schema | tojson)"),
chk(has("note") | not; "a note on a host with an RDMA device: \(.note)"),
# every test at every size, once
([.results[] | "\(.test)@\(.size)"] | sort) as $got |
([tests[] as $t | sizes[] as $s | "\($t)@\($s)"] | sort) as $want |
chk($got == $want; "results \($got | tojson), want \($want | tojson)"),
# the verbs results name the device
(.results[] | select(.transport == "verbs") |
 chk(.device.client.device == $dev;
     pre + "size \(.size): device.client.device \(.device.client.device | tojson), want \($dev)")),
(.results[] | select(.transport == "tcp") |
 chk(has("device") | not; pre + "a TCP result names an RDMA device")),
if (.comparison | type) != "object" then "no comparison object"
else
	.comparison as $c |
	chk(($c.pairs | length) == 8;
	    "\($c.pairs | length) pairs, want 8 (4 pairings x 2 sizes): \([$c.pairs[] | "\(.verbs_test)/\(.tcp_test)@\(.size)"] | tojson)"),
	([$c.pairs[] | "\(.verbs_test)/\(.tcp_test)@\(.size)"] | sort) as $gp |
	([pairings | to_entries[] as $e | sizes[] as $s |
	  "\($e.key)/\($e.value)@\($s)"] | sort) as $wp |
	chk($gp == $wp; "pairs \($gp | tojson), want \($wp | tojson)"),
	($c.pairs[] | . as $p |
	 "pair \(.verbs_test)/\(.tcp_test) \(.size): " as $pp |
	 res(.verbs_test; .size; .streams) as $V |
	 res(.tcp_test; .size; .streams) as $T |
	 if ($V | length) != 1 or ($T | length) != 1 then
		$pp + "\($V | length) verbs and \($T | length) tcp results match it, want 1 and 1"
	 elif (.verbs_test | endswith("_bw")) then
		($V[0].bw_gbps) as $v | ($T[0].bw_gbps) as $t |
		if ($p.bw_gbps | type) != "object" then $pp + "no bw_gbps object"
		else
			chk(($v > 0) and close($p.bw_gbps.ratio; $t / $v; 1e-9);
			    $pp + "bw_gbps.ratio \($p.bw_gbps.ratio), tcp/verbs of the results \($t)/\($v) = \(if $v > 0 then $t / $v else null end)"),
			chk(close($p.bw_gbps.verbs; $v; 1e-9) and
			    close($p.bw_gbps.tcp; $t; 1e-9);
			    $pp + "bw_gbps \($p.bw_gbps | tojson), the results \($v) \($t)"),
			chk(close($p.msg_rate.ratio; $T[0].msg_rate / $V[0].msg_rate; 1e-9);
			    $pp + "msg_rate.ratio \($p.msg_rate.ratio), results \($T[0].msg_rate)/\($V[0].msg_rate)"),
			chk(has("lat_us") | not; $pp + "a bandwidth pair carries lat_us")
		end
	 else
		($V[0].lat_us.p50) as $v | ($T[0].lat_us.p50) as $t |
		if (($v | num) and ($t | num)) | not then
			$pp + "the results have no lat_us.p50 (verbs \($v), tcp \($t))"
		elif ($p.lat_us.p50 | type) != "object" then
			$pp + "no lat_us.p50 object: \($p | tojson)"
		else
			chk((($p.lat_us.p50.added - ($t - $v)) | absv) <= 1e-6;
			    $pp + "lat_us.p50.added \($p.lat_us.p50.added), tcp p50 - verbs p50 of the results \($t) - \($v) = \($t - $v)"),
			chk((($p.lat_us.p50.verbs - $v) | absv) <= 1e-6 and
			    (($p.lat_us.p50.tcp - $t) | absv) <= 1e-6;
			    $pp + "lat_us.p50 \($p.lat_us.p50 | tojson), the results \($v) \($t)"),
			chk(has("bw_gbps") | not; $pp + "a latency pair carries bw_gbps")
		end
	 end),
	# N1/2 of each bandwidth test, at one of the sizes
	(("write_bw", "send_bw", "tcp_bw") as $t |
	 [$c.n_half[]? | select(.test == $t)] as $h |
	 if ($h | length) != 1 then
		"n_half: \($h | length) entries for \($t), want 1: \($c.n_half | tojson)"
	 else
		chk(any(sizes[]; . == $h[0].size);
		    "n_half \($t): size \($h[0].size | tojson) is not a size of the sweep"),
		([$d.results[] | select(.test == $t)] | max_by(.bw_gbps)) as $pk |
		([$d.results[] | select(.test == $t and
					.bw_gbps >= $pk.bw_gbps / 2) | .size] |
		 min) as $n |
		chk($h[0].size == $n and $h[0].peak_size == $pk.size;
		    "n_half \($t): size \($h[0].size) peak_size \($h[0].peak_size), the results give \($n) and \($pk.size)")
	 end),
	chk([$c.n_half[]? | select(.test | endswith("_lat"))] == [];
	    "n_half has latency tests: \($c.n_half | tojson)"),
	# crossings: the smallest size where tcp/verbs reaches the threshold
	(("write_bw", "send_bw") as $vt | (0.5, 0.9) as $th |
	 [$c.crossings[]? | select(.verbs_test == $vt and .threshold == $th)] as $x |
	 ([$c.pairs[] | select(.verbs_test == $vt and .bw_gbps.ratio >= $th) |
	   .size] | min) as $want |
	 if ($x | length) != 1 then
		"crossings: \($x | length) entries for \($vt) at \($th), want 1"
	 else
		chk($x[0].size == $want;
		    "crossing \($vt) \($th): size \($x[0].size | tojson), the pairs give \($want | tojson)")
	 end)
end
'

# 1. the sweep without -t: the six tests at two sizes, and the comparison
rx_client 240 cmp -s 4K,64K -D 0.3 --warmup 0.1 --timeout 10 --format json
expect_client_ok cmp "client -s 4K,64K (no -t)" &&
	rx_jq "$TMP/cmp.out" "the comparison of -s 4K,64K" "$CMP_JQ"
check "server alive after the sweep" rx_server_alive

# 2. --also 127.0.0.1: the tcp test again over the guest's loopback, one
#    more column (tcp@127.0.0.1) beside the rxe netdev's; the comparison
#    pairs write_bw with the tcp of the RDMA address only
rx_client 120 also -t tcp_bw,write_bw -D 0.3 --warmup 0.1 --timeout 10 \
	--also 127.0.0.1 --format json
expect_client_ok also "client -t tcp_bw,write_bw --also 127.0.0.1" &&
	rx_jq "$TMP/also.out" "--also 127.0.0.1" '
	([.results[] | "\(.test)/\(.transport)"] | sort) as $got |
	chk($got == ["tcp_bw/tcp", "tcp_bw/tcp@127.0.0.1", "write_bw/verbs"];
	    "results \($got | tojson)"),
	(.results[] | select(.transport == "tcp@127.0.0.1") |
	 chk(.bw_gbps > 0 and (has("error") | not);
	     "tcp@127.0.0.1: bw \(.bw_gbps | tojson), error \(.error | tojson)")),
	([.comparison.pairs[]? | select(.verbs_test == "write_bw")] as $p |
	 chk(($p | length) == 1 and $p[0].tcp_test == "tcp_bw";
	     "write_bw pairs \($p | tojson)"))'

# 3. ibgap alone: it finds this device and compares on it
rx_run 200 alone "$IBGAP"
expect_rc 0 "ibgap alone (in $ELAPSED s)"
expect_grep "$TMP/alone.err" "comparing verbs and TCP on $IG_RDMA_DEV" \
	"ibgap alone: stderr"
expect_grep "$TMP/alone.out" "verbs next to TCP" "ibgap alone: stdout"
rx_done
