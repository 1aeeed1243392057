#!/bin/bash
# t_cluster_selftest.sh: the test kit tests/fabric/cluster.sh.inc works.
# - fc_up 4: four namespaces, each with its own address in one subnet;
# - fc_mpirun 4 runs rank r in node r+1 (namespace, host name, address),
#   and an MPI program's ranks talk to each other across the namespaces;
# - fc_slow 3 makes node 3 slow whether it sends or receives (iperf3),
#   and only node 3; fc_clear 3 makes it fast again; fc_delay where the
#   kernel has netem;
# - fc_down (also from the EXIT trap, after exit or SIGTERM) leaves no
#   namespace, link, process or file behind; fc_up removes what a
#   SIGKILLed test left.
# Skipped (77) without root, ip netns, mpirun, iperf3 or jq.
#   bash tests/fabric/t_cluster_selftest.sh /abs/path/to/ibgap
# (ibgap itself is not run: the argument is what ig_init wants.)
# "check ... && pass || fail": pass never fails.
# shellcheck disable=SC2015
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 1
# shellcheck source=tests/integ/lib.sh.inc
source "$here/../integ/lib.sh.inc" || exit 1
# shellcheck source=tests/fabric/cluster.sh.inc
source "$here/cluster.sh.inc" || exit 1
# shellcheck disable=SC2034 # ig_init's watchdog
IG_LIMIT=${IG_LIMIT_FABRIC:-120}
ig_init fabric_cluster "$@"
T0=$EPOCHREALTIME
for tool in iperf3 jq; do
	command -v "$tool" >/dev/null || fc_skip "$tool is not installed"
done

# Seconds since T0, two decimals.
since()
{
	local us=$((${EPOCHREALTIME/[.,]/} - ${1/[.,]/}))

	printf '%d.%02d' $((us / 1000000)) $((us % 1000000 / 10000))
}

# ---------------------------------------------------------------- fc_up
t=$EPOCHREALTIME
fc_up 4 fabric_cluster
pass "fc_up 4 in $(since "$t") s"
PREFIX=$FC_PREFIX
AGENT_DIR=$FC_DIR
STATE=$FC_STATE
check "4 namespaces, 4 addresses" \
	test "${#FC_NS[@]}" = 4 -a "${#FC_ADDRS[@]}" = 4
check "FC_NODES names them" test "$FC_NODES" = "$(IFS=,; echo "${FC_NS[*]}")"
check "FC_HOSTS lists the addresses" \
	test "$FC_HOSTS" = "$(IFS=,; echo "${FC_ADDRS[*]}")"
[[ $FC_SUBNET =~ ^10\.([0-9]+)\.([0-9]+)\.0/24$ &&
	$FC_SUBNET != 10.233.0.0/24 ]] &&
	pass "subnet $FC_SUBNET" || fail "subnet '$FC_SUBNET'"
for ((i = 0; i < 4; i++)); do
	[[ ${FC_ADDRS[i]} == "${FC_SUBNET%.0/24}.$((i + 1))" ]] ||
		fail "node $((i + 1)) has address '${FC_ADDRS[i]}'"
	ip netns list | grep -qE "^${FC_NS[i]}( |\$)" ||
		fail "namespace ${FC_NS[i]} not listed by ip netns"
done
ip -4 -o addr show dev "$FC_BRIDGE" | grep -qF " $FC_BRIDGE_ADDR/24 " &&
	pass "bridge $FC_BRIDGE has $FC_BRIDGE_ADDR" ||
	fail "bridge $FC_BRIDGE: $(ip -4 -o addr show dev "$FC_BRIDGE" 2>&1)"

# ------------------------------------------------ fc_mpirun: placement
# shellcheck disable=SC2016 # expanded by each rank's shell
RANK_CMD='echo "$OMPI_COMM_WORLD_RANK $(ip netns identify) $(hostname)" \
	"$(ip -4 -o addr show dev eth0 | awk "{ print \$4 }")"'
t=$EPOCHREALTIME
RC=0
fc_mpirun 4 sh -c "$RANK_CMD" >"$TMP/where.out" 2>"$TMP/where.err" || RC=$?
MPIRUN_S=$(since "$t")
expect_rc 0 "fc_mpirun 4 sh -c ... ($MPIRUN_S s)"
check "4 lines from 4 ranks" test "$(wc -l <"$TMP/where.out")" = 4
for ((r = 0; r < 4; r++)); do
	want="$r ${FC_NS[r]} ${FC_NS[r]} ${FC_ADDRS[r]}/24"
	if grep -qxF "$want" "$TMP/where.out"; then
		pass "rank $r: namespace, host name and address of node $((r + 1))"
	else
		fail "no line '$want' in: $(cat "$TMP/where.out")"
	fi
done
check "4 distinct namespaces" \
	test "$(awk '{ print $2 }' "$TMP/where.out" | sort -u | wc -l)" = 4
check "4 distinct addresses" \
	test "$(awk '{ print $4 }' "$TMP/where.out" | sort -u | wc -l)" = 4

# ------------------------------------ fc_mpirun: MPI across namespaces
if command -v mpicc >/dev/null; then
	cat >"$TMP/ring.c" <<'EOF'
/* Each rank sends 1 MiB to the next over a ring; all sum their ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size, sum = 0, len, bad = 0, i;
	char name[MPI_MAX_PROCESSOR_NAME];
	const int n = 1 << 20;
	unsigned char *out = malloc(n), *in = malloc(n);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(name, &len);
	memset(out, rank, n);
	MPI_Sendrecv(out, n, MPI_BYTE, (rank + 1) % size, 0, in, n, MPI_BYTE,
		     (rank + size - 1) % size, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		bad += in[i] != (rank + size - 1) % size;
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d on %s sum %d bad %d\n", rank, size, name, sum,
	       bad);
	MPI_Finalize();
	return 0;
}
EOF
	if mpicc -O1 -o "$TMP/ring" "$TMP/ring.c" 2>"$TMP/mpicc.err"; then
		t=$EPOCHREALTIME
		RC=0
		fc_mpirun 4 "$TMP/ring" >"$TMP/ring.out" 2>"$TMP/ring.err" ||
			RC=$?
		RING_S=$(since "$t")
		expect_rc 0 "fc_mpirun 4 ring ($RING_S s)"
		for ((r = 0; r < 4; r++)); do
			want="rank $r of 4 on ${FC_NS[r]} sum 6 bad 0"
			grep -qxF "$want" "$TMP/ring.out" &&
				pass "MPI: $want" ||
				fail "no line '$want' in: $(cat "$TMP/ring.out")"
		done
	else
		fail "mpicc failed: $(head -c 2000 "$TMP/mpicc.err")"
	fi
else
	ig_log "not checked: MPI traffic (no mpicc: libopenmpi-dev)"
fi

# ------------------------------------------------------------- fc_slow
# iperf3 servers on nodes 1, 3 and 4 (fresh namespaces: port 5201 free).
for n in 1 3 4; do
	fc_exec "$n" iperf3 -s -p 5201 -B "${FC_ADDRS[n - 1]}" \
		>"$TMP/iperf3-s$n.log" 2>&1 &
	SERVER[n]=$!
	ig_track "${SERVER[n]}"
	disown "${SERVER[n]}"
done
for n in 1 3 4; do
	for ((i = 0; i < 50; i++)); do
		ip netns exec "${FC_NS[n - 1]}" ss -Hltn 'sport = :5201' |
			grep -q . && break
		sleep 0.1
	done
done

# bw FROM TO SIZE: bits/s of SIZE (iperf3 -n) sent from node FROM to
# node TO's server.  The fast links get 16 MiB: 1 MiB there takes a few
# ms, and one stall of a loaded CPU made it look 8 x slower.
bw()
{
	local out

	out=$(fc_exec "$1" timeout 30 iperf3 -c "${FC_ADDRS[$2 - 1]}" \
		-p 5201 -n "$3" -J 2>>"$TMP/iperf3-c.err")
	jq -r '.end.sum_received.bits_per_second // 0 | floor' \
		<<<"$out" 2>/dev/null || echo 0
}

# The slow node must stay under its rate + 50 % (tbf's bound, robust);
# the others must be RATIO x faster (a ratio within one run: on a loaded
# 2-CPU machine a fast link fell to 86 Mbit/s, 8.6 x the slow one).
RATE_MBIT=10
RATIO=5
t=$EPOCHREALTIME
fc_slow 3 ${RATE_MBIT}mbit
FAST=$(bw 2 1 16M)
SLOW_TX=$(bw 3 1 1M)
SLOW_RX=$(bw 1 3 1M)
OTHER=$(bw 4 1 16M)
SHAPE_S=$(since "$t")
ig_log "bits/s with node 3 at ${RATE_MBIT}mbit: 2->1 $FAST, 3->1 $SLOW_TX," \
	"1->3 $SLOW_RX, 4->1 $OTHER ($SHAPE_S s)"
max=$((RATE_MBIT * 1500000))	# the rate + 50 %
for v in SLOW_TX SLOW_RX; do
	if ((${!v} > 0 && ${!v} <= max)); then
		pass "node 3 slow ($v ${!v} bit/s <= $max)"
	else
		fail "node 3 not slow: $v ${!v} bit/s, want 0 < it <= $max"
	fi
	if ((${!v} > 0 && FAST >= RATIO * ${!v})); then
		pass "node 3 ($v) >= $RATIO x slower than node 2 -> 1 ($FAST)"
	else
		fail "node 2 -> 1 $FAST bit/s is not $RATIO x node 3's $v ${!v}"
	fi
done
((OTHER >= RATIO * SLOW_TX && OTHER > 0)) &&
	pass "node 4 unaffected ($OTHER bit/s)" ||
	fail "node 4 -> 1 $OTHER bit/s: slowed by node 3's shaping?"
fc_clear 3
CLEARED=$(bw 3 1 16M)
((CLEARED >= RATIO * SLOW_TX && CLEARED > 0)) &&
	pass "fc_clear 3: node 3 fast again ($CLEARED bit/s)" ||
	fail "fc_clear 3: node 3 -> 1 $CLEARED bit/s, slow was $SLOW_TX"

# ------------------------------------------------------------ fc_delay
# connect_us FROM TO: microseconds of a TCP connect (one round trip).
connect_us()
{
	# shellcheck disable=SC2016 # for that bash
	fc_exec "$1" bash -c 's=${EPOCHREALTIME/[.,]/}
		exec 3<>"/dev/tcp/$0/5201" || exit 1
		echo $((${EPOCHREALTIME/[.,]/} - s))' "${FC_ADDRS[$2 - 1]}" ||
		echo -1
}

if fc_have_netem; then
	fc_delay 4 100
	D4=$(connect_us 2 4)
	D1=$(connect_us 2 1)
	((D4 >= 190000 && D4 < 2000000)) &&
		pass "fc_delay 4 100: connect to node 4 in $D4 us" ||
		fail "fc_delay 4 100: connect to node 4 in $D4 us, want >= 200 ms"
	((D1 >= 0 && D1 < 50000)) &&
		pass "connect to node 1 in $D1 us" ||
		fail "connect to node 1 in $D1 us: delayed too?"
	fc_clear 4
else
	ig_log "not checked: fc_delay (this kernel has no netem qdisc)"
fi

# -------------------------------------------------------------- fc_down
fc_down
fc_down || fail "a second fc_down failed"
# gone PREFIX: no namespace or link whose name starts with PREFIX.
gone()
{
	! ip netns list | grep -q "^$1" && ! ip -o link show | grep -q ": $1"
}
check "no namespace or link $PREFIX* left" gone "$PREFIX"
check "state file $STATE removed" test ! -e "$STATE"
check "agent dir $AGENT_DIR removed" test ! -e "$AGENT_DIR"
for n in 1 3 4; do
	st=$(awk '{ print $3 }' "/proc/${SERVER[n]}/stat" 2>/dev/null)
	[[ -z $st || $st == Z ]] ||
		fail "iperf3 server on node $n (pid ${SERVER[n]}) still runs"
done
pass "fc_down killed the iperf3 servers"

# ----------------------------------- teardown from the traps of others
# A test with an EXIT trap of its own exits with 3 after fc_up: its trap
# still runs, its cluster is gone, the status stays 3.
cat >"$TMP/exit.sh" <<EOF
source "$here/cluster.sh.inc"
trap 'echo own-trap-ran >"$TMP/exit.trap"' EXIT
fc_up 2 sub 2>/dev/null
echo "\$FC_PREFIX" >"$TMP/exit.prefix"
exit 3
EOF
RC=0
# shellcheck disable=SC2034 # expect_rc reads it
bash "$TMP/exit.sh" || RC=$?
expect_rc 3 "exit after fc_up keeps the status"
check "the test's own EXIT trap ran too" test -s "$TMP/exit.trap"
sub=$(cat "$TMP/exit.prefix" 2>/dev/null)
[[ -n $sub ]] && gone "$sub" &&
	pass "exit: cluster $sub removed" ||
	fail "exit: cluster '$sub' left: $(ip netns list | grep "^${sub:-none}")"

# SIGTERM while a process runs in a node: that process and the cluster go.
cat >"$TMP/term.sh" <<EOF
source "$here/cluster.sh.inc"
fc_up 2 sub 2>/dev/null
echo "\$FC_PREFIX" >"$TMP/term.prefix"
fc_exec 2 sleep 60 &
echo \$! >"$TMP/term.sleep"
wait
EOF
bash "$TMP/term.sh" 2>"$TMP/term.err" &
TERM_PID=$!
ig_track "$TERM_PID"
for ((i = 0; i < 100; i++)); do
	[[ -s $TMP/term.sleep ]] && break
	sleep 0.05
done
sleep 0.2
kill -TERM "$TERM_PID"
ig_wait_pid "$TERM_PID" 10
expect_rc 143 "SIGTERM after fc_up"
sub=$(cat "$TMP/term.prefix" 2>/dev/null)
spid=$(cat "$TMP/term.sleep" 2>/dev/null)
[[ -n $sub ]] && gone "$sub" &&
	pass "SIGTERM: cluster $sub removed" ||
	fail "SIGTERM: cluster '$sub' left: $(ip netns list | grep "^${sub:-none}")"
[[ -n $spid && ! -d /proc/$spid ]] &&
	pass "SIGTERM: the process in node 2 was killed" ||
	fail "SIGTERM: the process in node 2 (pid '$spid') still runs"

# SIGKILL leaves the cluster behind: the next fc_up removes it.
cat >"$TMP/kill.sh" <<EOF
source "$here/cluster.sh.inc"
fc_up 2 sub 2>/dev/null
echo "\$FC_PREFIX" >"$TMP/kill.prefix"
kill -KILL \$\$
EOF
{ bash "$TMP/kill.sh"; } 2>/dev/null
sub=$(cat "$TMP/kill.prefix" 2>/dev/null)
if [[ -n $sub ]] && ip netns list | grep -q "^$sub"; then
	fc_up 1 sweep 2>"$TMP/sweep.log"
	gone "$sub" &&
		pass "fc_up removed the cluster $sub of a SIGKILLed test" ||
		fail "cluster $sub of a SIGKILLed test still there after fc_up"
	fc_down
else
	fail "SIGKILL: no cluster '$sub' left to sweep (test broken?)"
fi

ig_log "fabric_cluster took $(since "$T0") s (fc_mpirun 4:" \
	"$MPIRUN_S s; ring: ${RING_S:-n/a} s; shaping checks: $SHAPE_S s)"
ig_done
