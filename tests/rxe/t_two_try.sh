#!/bin/bash
# t_two_try.sh: ibgap doctor HOST --try across two hosts on Soft-RoCE,
# with the verbs ceiling.  rxe-run --two boots two guests joined by one
# virtual wire, each with its rxe device on its eth0 (TCP and RoCE cross
# the same netdev, the real path); this script runs on both.  Guest B
# serves with --allow-try --auth-file; guest A runs the doctor against it.
# Planted: GRO off on B's netdev (offload.gro.off, tried by the server
# through TRY/UNTRY), MTU 1280 on A's (eth.mtu.standard: the NIC says 100
# Gb/s, and its MTU is 1500 or below on both sides).  Checked:
#   - the plan (--dry-run) lists the server's GRO trial, and the MTU
#     finding of both sides as not tried: the change takes the netdev down
#     and up under the control connection (ibgap has no --ctrl yet);
#   - --try: exit 0, schema ibgap-try/1; the baseline tcp_bw and tcp_lat;
#     the ceiling write_bw (verbs over rxe) a number > 0; the GRO trial made
#     on B from 'off' to 'on', measured (before, after, change in % with
#     its interval), judged helps / no effect / hurts, put back
#     (restored: true, B's log says so); the gap to verbs closed by the
#     fixes that helped (gap_closed_pct) whenever some helped and the
#     ceiling is above the baseline; TSO, fixed off by this virtio NIC,
#     tried and failed with the driver's error, nothing of it left made;
#   - every value a trial may touch (net.* sysctls, ethtool -k/-g/-c/-l,
#     the MTU, the qdiscs, rps_cpus of the netdev) the same before and
#     after on both hosts, no journal left on either.
# Why two guests, not one with two network namespaces: in one guest, TCP
# to the rxe device's own address goes through lo, not the netdev whose
# settings are tried; and rxe devices in network namespaces pass no data
# on kernel 6.1 (shared/docs/softroce-vm.md).
# The verdict's direction is not asserted: on an emulated NIC and CPU
# tcp_bw spreads over a factor of 2 and more between runs.
#   tests/rxe/rxe-run --two bash tests/rxe/t_two_try.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (not under rxe-run --two).  32-61 s with
# the two boots (the --try run itself 14-18 s).
# jq programs in single quotes: their $names are jq's
# shellcheck disable=SC2016
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"

# Each measurement: 2 runs of 0.5 s (the emulated guests' tcp_bw is a few
# hundred Mb/s and spreads widely: the intervals are wide, the run short).
TRY_OPTS=(--repeat 2 -D 0.5 --warmup 0.1)
PLANT_MTU=1280

# The netdev that holds IG_RDMA_ADDR (eth0 in the guests).
netdev_of_addr()
{
	local dev fam addr

	while read -r _ dev fam addr _; do
		[[ $fam == inet && ${addr%/*} == "$IG_RDMA_ADDR" ]] && ND=$dev
	done <<<"$(ip -o -4 addr show)"
	[[ -n $ND ]] || die "no netdev holds $IG_RDMA_ADDR: $(ip -o -4 addr show)"
}

# Every value a trial may touch on this host's netdev ND (a process start
# costs 0.5-1 s in the guest: seven of them).
snapshot()
{
	local line f v

	while IFS= read -r line; do
		case $line in
		net.netfilter.nf_conntrack_count* | net.core.netdev_rss_key* | \
			net.ipv4.tcp_fastopen_key*) ;;
		net.*) echo "$line" ;;
		esac
	done <<<"$(sysctl -a 2>/dev/null)"
	for o in -k -g -c -l; do
		ethtool "$o" "$ND" 2>&1
	done
	ip -o link show dev "$ND"
	tc qdisc show dev "$ND"
	for f in /sys/class/net/"$ND"/queues/rx-*/rps_cpus; do
		read -r v <"$f"
		echo "$f $v"
	done
}

# put FILE NAME: FILE into the shared directory as NAME, whole at once.
put()
{
	cp "$1" "$IG_TWO_DIR/$2.tmp" && mv "$IG_TWO_DIR/$2.tmp" "$IG_TWO_DIR/$2"
}

# wait_for NAME SECS: the shared file NAME exists (false after SECS, or
# at once when the other guest failed).
wait_for()
{
	local i

	for ((i = 0; i < $2 * 10; i++)); do
		[[ -e $IG_TWO_DIR/$1 ]] && return 0
		[[ -e $IG_TWO_DIR/failed ]] && return 1
		sleep 0.1
	done
	return 1
}

# B's fatal errors (the lib's die, also in rx_start_server) tell A, which
# would otherwise wait for B's server in vain.
b_on_die()
{
	eval "lib_$(declare -f die)"
	die()
	{
		: >"$IG_TWO_DIR/failed"
		lib_die "$@"
	}
}

# Guest B: GRO off planted, the snapshot, the server that allows trials;
# after A's run the snapshot again, the journal gone, the log of the
# trial; then the server ended.
serve_b()
{
	ethtool -K "$ND" gro off || die "cannot plant GRO off on $ND"
	snapshot >"$TMP/before.b"
	grep -q '^generic-receive-offload: off' "$TMP/before.b" ||
		die "the snapshot does not show GRO off"
	put "$TMP/before.b" before.b
	head -c 32 /dev/urandom | base64 >"$TMP/key"
	chmod 600 "$TMP/key"
	put "$TMP/key" key
	rx_start_server -B "$IG_RDMA_ADDR" --timeout 10 --allow-try \
		--auth-file "$TMP/key" --journal "$TMP/server.journal"
	echo "$SRV_PORT" >"$TMP/port"
	put "$TMP/port" port
	rx_log "serving on $IG_RDMA_ADDR port $SRV_PORT with --allow-try"
	while ! wait_for tried 1 && rx_server_alive; do :; done
	snapshot >"$TMP/after.b"
	put "$TMP/after.b" after.b
	check "B: the server's journal is gone after the run" \
		test ! -e "$TMP/server.journal"
	expect_grep "$SRV_LOG" "tried: ethtool -K $ND gro on (was 'off')" \
		"B: the server made the GRO trial"
	expect_grep "$SRV_LOG" "put back: ethtool -K $ND gro off" \
		"B: the server put GRO back"
	while ! wait_for "done" 1 && rx_server_alive; do :; done
	rx_server_alive || fail "B: the server died: $(tail -n 5 "$SRV_LOG")"
	rx_stop_server "B: the server"
	[[ $(<"$IG_TWO_DIR/done") == ok ]] || rx_dump_logs
	# B's verdict to A before A ends (then rxe-run stops B)
	rx_scan_sanitizers
	echo "$RX_FAILS" >"$TMP/result"
	put "$TMP/result" result.b
	rx_done
}

# same WHAT BEFORE AFTER: the two snapshots are identical.
same()
{
	if cmp -s "$2" "$3"; then
		pass "$1: every value as before"
	else
		fail "$1: values changed: $(diff "$2" "$3" | head -c 3000)"
	fi
}

# The plan: the ids to try (GRO, and TSO when the NIC has it off), the MTU
# finding not tried on either side.
plan_a()
{
	rx_run 60 plan "$IBGAP" doctor "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--auth-file "$TMP/key" --try --dry-run --format json
	expect_rc 0 "--try --dry-run" &&
		check "--try --dry-run printed its plan" test -s "$TMP/plan.out" &&
		rx_jq "$TMP/plan.out" "the plan" '
		def nt($s): [.not_tried[] | select(.id == "eth.mtu.standard" and .side == $s)];
		chk(.dry_run == true; "dry_run \(.dry_run | tojson)"),
		chk([.trials[] | select(.id == "offload.gro.off" and .side == "remote")] | length == 1;
		    "no server-side offload.gro.off trial: \([.trials[] | [.id, .side]] | tojson)"),
		(("local", "remote") as $s |
		 chk(nt($s) | length == 1 and (.[0].reason | test("control connection runs over the interface being changed.*--ctrl"));
		     "eth.mtu.standard (\($s)) not listed as not tried for the control connection: \(nt($s) | tojson)"))'
	IDS=offload.gro.off,eth.mtu.standard
	jq -e '[.trials[] | select(.id == "offload.tso.off")] != []' \
		"$TMP/plan.out" >/dev/null && IDS+=,offload.tso.off
	rx_log "ids tried: $IDS"
}

# The --try run's document.
TRY_JQ='
def known: . == "helps" or . == "no effect" or . == "hurts";
def pos: type == "number" and . > 0;
def gro: [.trials[] | select(.id == "offload.gro.off" and .side == "remote")];
chk(.schema == "ibgap-try/1"; "schema \(.schema | tojson)"),
chk(.dry_run == false and .repeat == 2; "dry_run \(.dry_run), repeat \(.repeat)"),
chk((.note // null) == null; "note: \(.note)"),
chk((.baseline.tcp_bw.mean | pos) and (.baseline.tcp_lat.mean | pos);
    "baseline \(.baseline | tojson)"),
chk(.ceiling.test == "write_bw" and (.ceiling.mean | pos) and .ceiling.runs == 2;
    "the verbs ceiling: \(.ceiling | tojson), \(.ceiling_absent // "")"),
(gro as $g |
 if ($g | length) != 1 then "offload.gro.off (server): \($g | tojson)"
 else $g[0] as $t |
	chk($t.verdict | known; "GRO verdict \($t.verdict | tojson)"),
	chk(($t.before.tcp_bw.mean | pos) and ($t.after.tcp_bw.mean | pos) and
	    ($t.change_pct.tcp_bw.pct | type) == "number" and
	    ($t.change_pct.tcp_bw.ci_low <= $t.change_pct.tcp_bw.ci_high) and
	    ($t.change_pct.tcp_lat.verdict | known);
	    "GRO figures \($t | {before, after, change_pct} | tojson)"),
	chk($t.changes | length == 1 and .[0].kind == "feature" and
	    .[0].dev == $nd and .[0].name == "gro" and .[0].to == "on" and
	    .[0].from == "off" and .[0].restored == true and .[0].kept == false;
	    "GRO change \($t.changes | tojson), want gro off -> on, restored")
 end),
([.trials[] | select(.id == "offload.tso.off")] as $tso |
 chk($tso | all(.[]; (.error | type == "string" and test("tso")) and
		    ([.changes[] | select(.restored == false)] == []));
     "TSO (fixed off by the NIC): \($tso | tojson)")),
chk([.trials[].changes[] | select(has("restored") and .restored != true)] == [];
    "a change not restored: \([.trials[] | select(any(.changes[]; .restored == false))] | tojson)"),
chk([.not_tried[] | select(.id == "eth.mtu.standard")] | length == 2 and
    all(.reason | test("--ctrl"));
    "the MTU finding not tried on both sides: \(.not_tried | tojson)"),
(if .combined == null then empty
 else
	chk(.combined.changes | all(.restored == true);
	    "the fixes together not restored: \(.combined | tojson)"),
	(if .ceiling.mean > .baseline.tcp_bw.mean then
		chk(.combined.gap_closed_pct | type == "number";
		    "fixes helped and the ceiling is above tcp_bw, but no gap_closed_pct: \(.combined | tojson)")
	 else empty end)
 end)
'

# Guest A: the plan, the run, the checks, the snapshots of both sides.
run_a()
{
	local verdict=ok t0 nb

	wait_for port 180 ||
		die "guest B's server did not start within 180 s (or B failed: its log is above)"
	read -r SRV_PORT <"$IG_TWO_DIR/port"
	cp "$IG_TWO_DIR/key" "$TMP/key" && chmod 600 "$TMP/key"
	ip link set "$ND" mtu "$PLANT_MTU" || die "cannot plant MTU $PLANT_MTU"
	snapshot >"$TMP/before.a"
	grep -q "mtu $PLANT_MTU " "$TMP/before.a" ||
		die "the snapshot does not show MTU $PLANT_MTU"
	plan_a
	t0=$(rx_now)
	rx_run 240 try "$IBGAP" doctor "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--auth-file "$TMP/key" --try "$IDS" "${TRY_OPTS[@]}" \
		--journal "$TMP/journal" --format json -o "$TMP/try.json"
	rx_log "--try took $(rx_since "$t0") s"
	: >"$TMP/tried"
	put "$TMP/tried" tried
	expect_rc 0 "--try $IDS" &&
		check "--try wrote its report" test -s "$TMP/try.json" &&
		rx_jq "$TMP/try.json" "--try $IDS" "$TRY_JQ" --arg nd "$ND"
	[[ -s $TMP/try.json ]] && rx_log "$(jq -c '{baseline: (.baseline |
		map_values(.mean)), ceiling: .ceiling.mean, trials: [.trials[] |
		[.id, .side, .change_pct.tcp_bw.pct, .verdict, .error]],
		combined: .combined.gap_closed_pct}' "$TMP/try.json")"
	check "A: the journal is gone after the run" test ! -e "$TMP/journal"
	snapshot >"$TMP/after.a"
	same "A (this host)" "$TMP/before.a" "$TMP/after.a"
	if wait_for after.b 60; then
		same "B (the server)" "$IG_TWO_DIR/before.b" "$IG_TWO_DIR/after.b"
	else
		fail "B's snapshot after the run did not come within 60 s"
	fi
	((RX_FAILS)) && verdict=fail
	echo "$verdict" >"$IG_TWO_DIR/done"
	if wait_for result.b 30; then
		read -r nb <"$IG_TWO_DIR/result.b"
		if [[ $nb == 0 ]]; then
			pass "B's checks passed"
		else
			fail "B: $nb check(s) failed (its log is above)"
		fi
	else
		fail "B did not finish its checks within 30 s (its log is above)"
	fi
	rx_done
}

rx_init t_two_try 300 "$@"
if [[ -z ${IG_TWO_ROLE:-} || ! -d ${IG_TWO_DIR:-} || -z ${IG_PEER_ADDR:-} ]]; then
	rx_log "skipped: needs two hosts (run it under tests/rxe/rxe-run --two)"
	exit 77
fi
for tool in ethtool tc sysctl ip; do
	command -v "$tool" >/dev/null && continue
	rx_log "skipped: $tool is not installed (the guest runs the host's," \
		"through the chroot: Debian packages ethtool, iproute2, procps)"
	exit 77
done
ND=
netdev_of_addr
case $IG_TWO_ROLE in
a) run_a ;;
b)
	b_on_die
	serve_b
	;;
*) die "IG_TWO_ROLE=$IG_TWO_ROLE: expected a or b" ;;
esac
