#!/bin/bash
# t_fabric_rails.sh: ibgap-fabric --rails, two ranks in one Soft-RoCE
# guest (mpirun -np 2) with two rails: rxe-run's device (its veth pair,
# IG_RDMA_ADDR) and a second rxe device the test makes on a veth pair of
# its own (10.234.0.1/24).  The ranks list their rails in opposite orders
# (mpirun's MPMD syntax, "-np 1 ... : -np 1 ..."), so pairing by index
# would cross them: the pairs must be by subnet.  The second rail's TCP is
# shaped (tc prio, tbf and a u32 filter on TCP to its address; both ranks
# are on this host, so their traffic to it goes through lo): each pair is
# measured on both rails, and the shaped rail, not the other, is flagged
# as node:device with TCP low.  Also: a device that is none exits 2 in
# one line naming the devices found (--rails with --device: the unit
# test test_fabric_rails, no guest needed).
#   tests/rxe/rxe-run bash tests/rxe/t_fabric_rails.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV, not in rxe-run's QEMU
# guest, no ibgap-fabric or mpirun, or no way to make the second rxe
# device here).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_fabric_rails 300 "$@"
# It shapes lo and makes a veth pair and an rxe device: only in
# rxe-run's QEMU guest, never on the machine itself (a real HCA's host).
if [[ ${IG_RXE_GUEST:-} != 1 ]]; then
	echo "t_fabric_rails: skipped: it shapes lo and makes a second rxe" \
		"device, which it does only in rxe-run's QEMU guest" \
		"(IG_RXE_MODE=qemu)" >&2
	exit 77
fi
FABRIC=${IBGAP%/*}/ibgap-fabric
if [[ ! -x $FABRIC ]] || ! command -v mpirun >/dev/null; then
	echo "t_fabric_rails: skipped: no $FABRIC or no mpirun" >&2
	exit 77
fi
rx_mpi_prep
T0=$(rx_now)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
DEV2=igr_rxe1
NET2=igr_veth0
ADDR2=10.234.0.1
MPI=(mpirun --allow-run-as-root --oversubscribe)

rail2_down()
{
	tc qdisc del dev lo root 2>/dev/null
	rdma link delete "$DEV2" 2>/dev/null
	ip link delete "$NET2" 2>/dev/null
}

# The second rail: a veth pair, its address, an rxe device, ACTIVE.
rail2_up()
{
	local i

	ip link add "$NET2" type veth peer name igr_veth1 &&
		ip addr add "$ADDR2/24" dev "$NET2" &&
		ip link set "$NET2" up && ip link set igr_veth1 up &&
		rdma link add "$DEV2" type rxe netdev "$NET2" || return 1
	for i in $(seq 50); do
		[[ $(cat "/sys/class/infiniband/$DEV2/ports/1/state" \
			2>/dev/null) == *ACTIVE* ]] && return 0
		sleep 0.1
	done
	return 1
}

# TCP to the second rail's address through a 20 Mbit/s token bucket (lo:
# both ranks are here); RoCE (UDP) and the first rail pass unshaped.
shape_rail2()
{
	tc qdisc add dev lo root handle 1: prio &&
		tc qdisc add dev lo parent 1:3 handle 30: tbf rate 20mbit \
			burst 256k latency 200ms &&
		tc filter add dev lo parent 1: protocol ip u32 \
			match ip protocol 6 0xff match ip dst "$ADDR2/32" \
			flowid 1:3
}

if ! rail2_up; then
	rail2_down
	echo "t_fabric_rails: skipped: cannot make $DEV2 on $NET2" \
		"(veth, rdma link add)" >&2
	exit 77
fi
trap 'rail2_down; rx_cleanup' EXIT
shape_rail2 || die "cannot shape TCP to $ADDR2 on lo (tc prio/tbf/u32)"

# Bad input first: exit 2, one line of ibgap-fabric's (mpirun adds its own).
rx_run 60 badrail "${MPI[@]}" -np 2 "$FABRIC" --rails mlx5_9 -D 0.2
expect_rc 2 "--rails mlx5_9"
grep '^ibgap-fabric:' "$TMP/badrail.err" >"$TMP/badrail.line"
expect_one_line "$TMP/badrail.line" "--rails mlx5_9" &&
	expect_grep "$TMP/badrail.line" "$IG_RDMA_DEV" "--rails mlx5_9" &&
	expect_grep "$TMP/badrail.line" "$DEV2" "--rails mlx5_9"

# --bw-tol 0.5: the emulated verbs figures of one rail vary by up to half
# from run to run (docs/rails.md); the shaped TCP is 1% of the other.
OUT=$TMP/rails.json
COMMON=(-t write_bw,tcp_bw -s 16K -D 0.5 --warmup 0.1 --timeout 20
	--bw-tol 0.5 --format json -o "$OUT")
rx_run 240 fabric "${MPI[@]}" \
	-np 1 "$FABRIC" --rails "$IG_RDMA_DEV,$DEV2" "${COMMON[@]}" : \
	-np 1 "$FABRIC" --rails "$DEV2,$IG_RDMA_DEV" "${COMMON[@]}"
check "ibgap-fabric --rails -np 2 exits 0 (exit $RC, $ELAPSED s)" \
	test "$RC" = 0
[[ $RC == 0 ]] || rx_log "stderr: $(head -c 3000 "$TMP/fabric.err")"
rx_jq "$OUT" "the rails" '
	chk([.nodes[] | [.rails[].device]] ==
		[[$dev, $dev2], [$dev2, $dev]];
	    "announced rails \([.nodes[] | [.rails[].device]] | tojson)"),
	chk(([.pairs[] | "\(.test) \(.rails.a)>\(.rails.b)"] | sort) ==
		(["tcp_bw \($dev)>\($dev)", "tcp_bw \($dev2)>\($dev2)",
		  "write_bw \($dev)>\($dev)", "write_bw \($dev2)>\($dev2)"]
		 | sort);
	    "measured \([.pairs[] | "\(.test) \(.rails.a)>\(.rails.b)"])"),
	(.pairs[] | select(.rails.paired_by != "subnet") |
		"\(.test) on \(.rails.a) paired by \(.rails.paired_by)"),
	(.pairs[] | select(.ok != true) |
		"\(.test) on \(.rails.a) failed: \(.error)"),
	(.pairs[] | select(.test == "tcp_bw") |
		select(.flagged != (.rails.a == $dev2)) |
		"tcp_bw on \(.rails.a): \(.bw_gbps) Gb/s, flagged \(.flagged)"),
	(.nodes[] | .rails[] | select(.device == $dev2) |
		select(.flagged != true or (.why | test("TCP low") | not)) |
		"\(.name) not flagged TCP low: \(.why // "ok")"),
	(.nodes[] | .rails[] | select(.device == $dev) |
		select(.flagged and (.why | test("TCP low"))) |
		"\(.name) flagged TCP low too"),
	(.nodes[] | .rails[] | select(.device == $dev2) |
		select(.name | endswith(":" + $dev2) | not) |
		"rail name \(.name), want node:\($dev2)")' --arg dev2 "$DEV2"
rx_log "wall time: the --rails run $ELAPSED s, the test $(rx_since "$T0") s"
# IG_FAB_RAILS_TEXT=1: the same run once more, its text on stderr (for
# docs/fabric.md's example).
if [[ -n ${IG_FAB_RAILS_TEXT:-} ]]; then
	TXT=("${COMMON[@]:0:12}")
	rx_run 240 text "${MPI[@]}" \
		-np 1 "$FABRIC" --rails "$IG_RDMA_DEV,$DEV2" "${TXT[@]}" : \
		-np 1 "$FABRIC" --rails "$DEV2,$IG_RDMA_DEV" "${TXT[@]}"
	cat "$TMP/text.out" >&2
fi
rx_done
