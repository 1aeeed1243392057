#!/bin/bash
# rsockets_nodev.sh: rs_bw and rs_lat on a host without an RDMA device
# fail with one line saying why (no crash, no hang), and the server keeps
# serving.  With an RDMA device rdma_cm serves 127.0.0.1 too, so the test
# is skipped there: tests/rxe/t_rsockets.sh runs rs_bw/rs_lat on one.
#   bash tests/integ/rsockets_nodev.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init rsockets_nodev "$@"

if compgen -G '/sys/class/infiniband/*' >/dev/null; then
	ig_log "SKIP: this host has an RDMA device ($(ls /sys/class/infiniband |
		tr '\n' ' ')): rsockets can work here; t_rsockets.sh covers it"
	exit 77
fi
ig_start_server --timeout 3

# The reason: the server's rsocket() (no rdma_cm device), or a build
# without <rdma/rsocket.h>.
why_ok()
{
	grep -qE 'rsockets data socket for 127\.0\.0\.1: .*(rdma link show)|built without the rsockets transport' "$1"
}

for args in "-t rs_bw -D 0.3" "-t rs_lat -n 100" \
	"-t rs_bw -P 2 --window 256K -R -D 0.3" "-t rs_bw --bidir -D 0.3"; do
	tag=$(echo "$args" | tr -c 'a-zA-Z0-9\n' _)
	# shellcheck disable=SC2086
	ig_client 20 "$tag" $args
	expect_rc 1 "$args without an RDMA device"
	expect_one_line "$TMP/$tag.err" "$args: the reason"
	check "$args: the reason names rsockets and the address" \
		why_ok "$TMP/$tag.err"
	check "$args: failed within 5 s (took $ELAPSED s)" \
		awk -v e="$ELAPSED" 'BEGIN { exit !(e < 5) }'
	check "server still running after $args" ig_server_alive
done

# --zerocopy is tcp_bw's: with rs tests only it is bad input (exit 2)
ig_client 10 zc -t rs_bw --zerocopy
expect_rc 2 "--zerocopy with rs_bw alone"
expect_one_line "$TMP/zc.err" "--zerocopy with rs_bw alone"

# and the same server still serves a TCP client
ig_client 30 tcp -t tcp_bw,tcp_lat -D 0.3 --warmup 0.1
expect_client_ok tcp "tcp_bw, tcp_lat after the rs failures"
ig_done
