#!/bin/bash
# t_two_hosts.sh: the comparison across two hosts.  rxe-run --two boots
# two QEMU guests joined by one virtual wire, each with its own rxe device
# on its own NIC; this script runs on both.  Guest B serves (ibgap server
# -B on its wire address); guest A runs the client against it: every test
# of TWO_TESTS and TWO_LAT_TESTS (the default comparison's six, read and
# rsockets; the latency tests with fewer round trips) with small -n and -s,
# then write_bw -R and write_bw --bidir.  Functional checks only (latency
# across emulated guests means nothing): every result there with exit 0,
# iterations as asked and bytes = iterations x size, and each side named
# by its own host: device.client is A's device with A's GID, device.server
# B's with B's (a local GID or device reported for the remote side, which
# one rxe device for both ends cannot show).
#   tests/rxe/rxe-run --two bash tests/rxe/t_two_hosts.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (not under rxe-run --two).  About 50-75
# s with the two boots (docs/softroce.md, "Two hosts").
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"

# The tests that run across the wire (-t): the default six, RDMA read and
# rsockets; UD runs on its own below (its messages fit the path MTU, and
# it counts what arrived: sent = received + lost).  IG_TWO_TESTS overrides the list.
TWO_TESTS=${IG_TWO_TESTS:-tcp_bw,send_bw,write_bw,read_bw,rs_bw}
# the latency tests apart, with fewer round trips: RC ping-pong between
# the two guests takes about 22 ms a half round trip (QEMU's socket
# wire), so 200 of them cost 9 s a test
TWO_LAT_TESTS=${IG_TWO_LAT_TESTS:-tcp_lat,send_lat,write_lat,read_lat,rs_lat}
TWO_LAT_N=50
# Messages per test (-n) and their size (-s: above the 1024-byte path
# MTU, so every message crosses the wire as several packets).
TWO_N=200
TWO_SIZE=4096

# The results of A's runs, whatever tests they hold: transport, counts,
# arithmetic; for verbs, each side's device and GID its own host's; the
# bytes B's receiving loops counted (rx_bytes: TCP exactly, send_bw
# within the 128 requests that may be in flight, docs/design.md "Reverse").
# $n: -n; the IPv4-mapped GID of each host's wire address is the GID
# rdma_cm picks for it (RoCE v2).
TWO_JQ='
def xport: if startswith("tcp_") then "tcp"
	   elif startswith("rs_") then "rsockets" else "verbs" end;
def side($s; $dev; $addr):
	device_side($s; $dev),
	(.device[$s].gid as $g |
	 chk($g == "::ffff:" + $addr;
	     pre + "device.\($s).gid \($g | tojson), want ::ffff:\($addr), the \($s) host GID"));
(.results[] | (.test | xport) as $x |
 result_checks($x; 0),
 (if has("lost") then
	chk(.sent == $n and .sent == .iterations + .lost;
	    pre + "sent \(.sent | tojson), received \(.iterations), lost \(.lost | tojson): want \($n) sent, received + lost")
  else
	chk(.iterations == $n; pre + "iterations \(.iterations | tojson), want \($n)")
  end),
 chk(.size == $size; pre + "size \(.size | tojson), want \($size)"),
 (if .test == "tcp_bw" then
	chk(.rx_bytes == .bytes; pre + "rx_bytes \(.rx_bytes | tojson), bytes \(.bytes)")
  elif .test == "send_bw" then
	chk(.rx_bytes > 0 and ((.rx_bytes - .bytes) | absv) <= 128 * .size;
	    pre + "rx_bytes \(.rx_bytes | tojson), bytes \(.bytes) (more than 128 messages apart)")
  else empty end),
 if $x == "verbs" then
	if (.device | type) != "object" then pre + "no device object"
	else side("client"; $dev; $addr), side("server"; $peer_dev; $peer_addr)
	end
 elif $x == "tcp" then
	chk(has("device") | not; pre + "a TCP result names an RDMA device")
 else empty end)
'

# Every test asked for, and no other.
TESTS_JQ='
, ([.results[].test] | sort) as $got |
  ($want | split(",") | sort) as $w |
  chk($got == $w; "tests \($got | tojson), want \($w | tojson)")'

# two_jq FILE WHAT [FILTER [jq options]]: TWO_JQ (and FILTER) on FILE.
two_jq()
{
	rx_jq "$1" "$2" "$TWO_JQ ${3:-}" --argjson n "$TWO_N" \
		--argjson size "$TWO_SIZE" --arg addr "$IG_RDMA_ADDR" \
		--arg peer_dev "$IG_PEER_DEV" --arg peer_addr "$IG_PEER_ADDR" \
		"${@:4}"
}

# two_client TAG ARGS...: ibgap client of guest A against B's server.
two_client()
{
	local tag=$1

	shift
	rx_run 240 "$tag" "$IBGAP" client "$IG_PEER_ADDR" -p "$SRV_PORT" \
		-n "$TWO_N" -s "$TWO_SIZE" --warmup 0 --format json "$@"
	expect_client_ok "$tag" "client $IG_PEER_ADDR $*"
}

# Guest A: the client runs and their checks; the verdict to B.
run_a()
{
	rx_two_wait_server
	two_client cmp -t "$TWO_TESTS" &&
		two_jq "$TMP/cmp.out" "-t $TWO_TESTS" "$TESTS_JQ" \
			--arg want "$TWO_TESTS"
	TWO_N=$TWO_LAT_N two_client lat -t "$TWO_LAT_TESTS" &&
		TWO_N=$TWO_LAT_N two_jq "$TMP/lat.out" "-t $TWO_LAT_TESTS" \
			"$TESTS_JQ" --arg want "$TWO_LAT_TESTS"
	[[ -s $TMP/cmp.out ]] && rx_log "the sides: $(jq -r '
		[.results[] | select(.transport == "verbs")][0].device |
		"client \(.client.device) \(.client.gid)," +
		" server \(.server.device) \(.server.gid)"' "$TMP/cmp.out")"
	two_client rev -t write_bw -R &&
		two_jq "$TMP/rev.out" "write_bw -R" '
		, (.results[] | chk(.direction == "reverse";
		      pre + "direction \(.direction | tojson), want reverse"))'
	# UD: one packet a message (the path MTU), the server's address
	# handle made from A's first datagram; a lossy count (sent = received
	# + lost)
	TWO_SIZE=1024 two_client ud -t ud_send_bw,ud_send_lat &&
		TWO_SIZE=1024 two_jq "$TMP/ud.out" "ud_send_bw,ud_send_lat"
	two_client bidir -t write_bw --bidir &&
		two_jq "$TMP/bidir.out" "write_bw --bidir" '
		, (.results[] | chk(.bidir.reverse_bytes > 0 and .bidir.reverse_gbps > 0;
		      pre + "no server -> client traffic: \(.bidir | tojson)"))'
	rx_two_done
}

rx_init t_two_hosts 300 "$@"
if [[ -z ${IG_TWO_ROLE:-} || ! -d ${IG_TWO_DIR:-} || -z ${IG_PEER_ADDR:-} ]]; then
	rx_log "skipped: needs two hosts (run it under tests/rxe/rxe-run --two)"
	exit 77
fi
case $IG_TWO_ROLE in
a) run_a ;;
b) rx_two_serve -B "$IG_RDMA_ADDR" --timeout 10 ;;
*) die "IG_TWO_ROLE=$IG_TWO_ROLE: expected a or b" ;;
esac
