#!/bin/bash
# t_verbs_tests.sh: the four verbs tests (send_bw, write_bw, send_lat,
# write_lat) run over a real rxe device and give a complete, consistent
# JSON report naming the device, in iteration (-n) and duration (-D)
# modes and with the verbs options (--tx-depth, --cq-mod, --inline, -s,
# -P); tcp_bw and tcp_lat to the same address in the same run, too.
#   tests/rxe/rxe-run bash tests/rxe/t_verbs_tests.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  About 60 s in the
# QEMU guest, where verbs move ~0.1 Gb/s: counts stay in the hundreds.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_verbs_tests 300 "$@"
rx_start_server --timeout 10

ALL='["send_lat","write_lat","send_bw","write_bw"]'
# --timeout only bounds a stall; the guest's speed varies with the load
# of the host, so it is generous.
C=(--timeout 10 --format json)

# run TAG WHAT JQ-FILTER client-args...: one client run, then the checks;
# the client-args come after C, so they may override it.
run()
{
	local tag=$1 what=$2 filter=$3

	shift 3
	rx_client 90 "$tag" "${C[@]}" "$@"
	expect_client_ok "$tag" "$what" &&
		rx_jq "$TMP/$tag.out" "$what" "$filter"
}

# inline_is N: both sides' fact "inline" is N (docs/design.md, "Inline
# sends"), in a jq filter over one result.
inline_is()
{
	echo "chk(.device.client.inline == $1 and .device.server.inline == $1;
	  pre + \"inline client \(.device.client.inline) server \(.device.server.inline), want $1\")"
}

# 1. iteration mode: exact counts, every field, the device; without
# --inline, perftest's inline threshold on the latency tests, none on
# the bandwidth tests (rxe takes 236 bytes)
run all_n "-t (4 verbs tests) -n 300" \
	"doc($ALL), (.results[] | verbs_ok(\$dev; 300; 0),
	 chk(.streams == 1; pre + \"streams \(.streams)\"),
	 chk(.size == (if (.test | endswith(\"_lat\")) then 2 else 65536 end);
	     pre + \"size \(.size), want the default (2 lat, 64K bw)\"),
	 ({send_lat: 236, write_lat: 220, send_bw: 0, write_bw: 0}[.test]
	  as \$want | chk(.device.client.inline == \$want and
			  .device.server.inline == \$want;
	  pre + \"inline client \(.device.client.inline) server \(.device.server.inline), want \(\$want)\")))" \
	-t send_lat,write_lat,send_bw,write_bw -n 300 --warmup 0.2

# 2. duration mode
run all_d "-t (4 verbs tests) -D 0.5" \
	"doc($ALL), (.results[] | verbs_ok(\$dev; 0; 0.5))" \
	-t send_lat,write_lat,send_bw,write_bw -D 0.5 --warmup 0.2

# 3. a small send queue, a completion every 4th send; --inline 0: none,
# latency tests too
run txdepth "--tx-depth 16 --cq-mod 4 --inline 0" \
	"doc([\"send_bw\",\"write_bw\",\"send_lat\"]),
	 (.results[] | verbs_ok(\$dev; 300; 0), $(inline_is 0))" \
	-t send_bw,write_bw,send_lat -n 300 --warmup 0 --tx-depth 16 --cq-mod 4 \
	--inline 0

# 4. inline sends: 32-byte messages under a 64-byte inline threshold
run inline "--inline 64 -s 32" \
	"doc($ALL), (.results[] | verbs_ok(\$dev; 300; 0),
	 chk(.size == 32; pre + \"size \(.size), want 32\"), $(inline_is 64))" \
	-t send_lat,write_lat,send_bw,write_bw -n 300 -s 32 --inline 64 \
	--warmup 0

# 5. write_bw at the size extremes: 1 byte, 1 MiB.  With --cq-mod 16 the
# first completion of 1 MiB writes comes after 16 MiB, 2-6 s at the
# guest's 3-8 MB/s: a longer --timeout, or it counts as a stall.
run write_1 "write_bw -s 1" \
	"doc([\"write_bw\"]), (.results[] | verbs_ok(\$dev; 300; 0),
	 chk(.size == 1 and .bytes == 300; pre + \"size \(.size) bytes \(.bytes)\"))" \
	-t write_bw -n 300 -s 1 --warmup 0
run write_1m "write_bw -s 1M" \
	"doc([\"write_bw\"]), (.results[] | verbs_ok(\$dev; 20; 0),
	 chk(.size == 1048576 and .bytes == 20971520;
	     pre + \"size \(.size) bytes \(.bytes), want 1048576 and 20971520\"))" \
	-t write_bw -n 20 -s 1M --warmup 0 --timeout 30

# 6. two QPs: -n counts per stream, the result sums both
run streams "-P 2 write_bw,send_bw -n 300" \
	"doc([\"write_bw\",\"send_bw\"]), (.results[] | verbs_ok(\$dev; 600; 0),
	 chk(.streams == 2; pre + \"streams \(.streams), want 2\"))" \
	-t write_bw,send_bw -n 300 -s 16K -P 2 --warmup 0

# 7. TCP over the same address, in the same run; it names no RDMA device
run tcp "tcp_bw,tcp_lat to $IG_RDMA_ADDR" \
	"doc([\"tcp_bw\",\"tcp_lat\"]), (.results[] | result_checks(\"tcp\"; 0),
	 chk(.iterations == 300; pre + \"iterations \(.iterations), want 300\"),
	 chk(has(\"device\") | not; pre + \"a TCP result names an RDMA device\"))" \
	-t tcp_bw,tcp_lat -n 300 --warmup 0

check "server alive after all runs" rx_server_alive
rx_done
