#!/bin/bash
# t_read.sh: RC RDMA read over a real rxe device.
#   read_bw -n 300: exactly 300 reads of 64K per stream (bytes = iterations
#   x size), no rx_bytes (the side read from sees no completion), and
#   "outs" = the most both ends allow (ibv_devinfo's max_qp_rd_atom and
#   max_qp_init_rd_atom, the least) by default;
#   read_lat -n 300: percentiles up to p99, the same "outs";
#   read_bw -R --outs 1 (the server reads, one read in flight), -P 2:
#   direction "reverse", 2 x 100 reads, "outs" 1;
#   read_bw --bidir --events: completion "events", both directions move;
#   --outs above the devices' maximum: exit 1 with one line naming the
#   value and the maximum; the server serves the next client (-R) at once.
#   tests/rxe/rxe-run bash tests/rxe/t_read.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  28 s in the QEMU guest
# (plain build, a loaded host); CI runs it in the ASan build (.ci/run).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_read 300 "$@"
rx_start_server --timeout 10

# The device's read depth: the least of its two attributes, at most 255.
MAX=$(ibv_devinfo -v -d "$IG_RDMA_DEV" | awk '
	$1 == "max_qp_rd_atom:" || $1 == "max_qp_init_rd_atom:" {
		if (m == "" || $2 < m) m = $2 }
	END { if (m > 255) m = 255; print m }')
[[ $MAX =~ ^[0-9]+$ && $MAX -gt 0 ]] ||
	die "no max_qp_rd_atom in ibv_devinfo -v -d $IG_RDMA_DEV: '$MAX'"
rx_log "$IG_RDMA_DEV: $MAX RDMA reads in flight at most"

rx_client 120 fwd -t read_bw,read_lat -n 300 --warmup 0 --format json
expect_client_ok fwd "read_bw,read_lat -n 300" &&
	rx_jq "$TMP/fwd.out" "read_bw,read_lat -n 300" '
	doc(["read_bw", "read_lat"]),
	(.results[] | pre as $p |
	 result_checks("verbs"; 0),
	 chk(.iterations == 300; $p + "iterations \(.iterations), want 300"),
	 chk(.outs == '"$MAX"'; $p + "outs \(.outs | tojson), want '"$MAX"'"),
	 chk(has("rx_bytes") | not; $p + "rx_bytes on a read")),
	(.results[] | select(.test == "read_bw") | pre as $p |
	 chk(.bytes == 300 * 65536; $p + "bytes \(.bytes), want 300 x 64K"),
	 chk(.direction == "forward"; $p + "direction \(.direction)")),
	(.results[] | select(.test == "read_lat") |
	 chk(.lat_us.p99 | num; pre + "no p99"))'

if ((MAX < 255)); then
	BAD=$((MAX + 1))
	rx_client 60 bad -t read_bw --outs "$BAD" -n 10 --warmup 0
	expect_rc 1 "--outs $BAD (maximum $MAX)"
	expect_one_line "$TMP/bad.err" "--outs $BAD" &&
		expect_grep "$TMP/bad.err" "--outs $BAD" "--outs $BAD" &&
		expect_grep "$TMP/bad.err" "at most $MAX" "--outs $BAD"
else
	rx_log "the device allows 255 reads: no --outs above it to refuse"
fi

# served right after the refusal: the server serves on
rx_served 30 rev -t read_bw -R --outs 1 -P 2 -n 100 --warmup 0 \
	--format json
expect_client_ok rev "read_bw -R --outs 1 -P 2 -n 100" &&
	rx_jq "$TMP/rev.out" "read_bw -R --outs 1 -P 2" '
	doc(["read_bw"]), (.results[] | pre as $p |
	 result_checks("verbs"; 0),
	 chk(.direction == "reverse"; $p + "direction \(.direction)"),
	 chk(.iterations == 200; $p + "iterations \(.iterations), want 200"),
	 chk(.outs == 1; $p + "outs \(.outs | tojson), want 1"))'

rx_client 120 ev -t read_bw --bidir --events -D 0.5 --warmup 0.1 \
	--format json
expect_client_ok ev "read_bw --bidir --events" &&
	rx_jq "$TMP/ev.out" "read_bw --bidir --events" '
	.results[] | pre as $p |
	chk(.completion == "events"; $p + "completion \(.completion)"),
	chk(.direction == "bidir"; $p + "direction \(.direction)"),
	chk(.iterations > 0; $p + "nothing read"),
	chk(.bidir.reverse_bytes > 0; $p + "the server read nothing")'

# what each run measured, for the log (one jq: a process start costs
# about a second in the guest)
rx_log "$(jq -r 'input_filename as $f | .results[] | "\($f | sub(".*/"; "")):" +
	" \(.test) outs \(.outs): " + if .lat_us then
	"p50 \(.lat_us.p50) us, p99 \(.lat_us.p99) us" else
	"\(.bw_gbps) Gb/s, \(.iterations) reads" end' \
	"$TMP/fwd.out" "$TMP/rev.out" "$TMP/ev.out" 2>&1 | tr '\n' ';')"
check "server alive after the read runs" rx_server_alive
rx_done
