#!/bin/bash
# try.sh: ibgap doctor --try between two network namespaces this test makes
# (a veth pair; the client in A sends tcp_bw to the server in B, started
# with --allow-try and --auth-file).  Causes planted: on A's egress a tbf
# shaper of 200mbit (qdisc.shaper: tcp_bw), and on A the congestion
# control reno (a harmless setting: sock.cc's trial, bbr, must come out "no
# effect" on tcp_bw: behind the shaper its change was once -0.09% with
# intervals apart, under the 2% a verdict needs).  GRO is off on a veth by default, and a veth has one
# queue without RPS (offload.gro.off, queues.single, rps.off on both sides,
# tried too: the server's through the server).  Last, without the shaper
# (which would mask it: one trial at a time), a small tcp_rmem on the
# receiver, B (sock.tcp_rmem.small, the bandwidth-delay product from the
# veth's 10 Gb/s; its trial, made by the server, must help);
# net.core.rmem_max is read-only inside a namespace.
#   - the plan (--dry-run) lists every change and its reverse, changes
#     nothing;
#   - --try on the findings whose changes stay in the namespaces ranks A's
#     shaper first, as "helps" on tcp_bw, the harmless one "no effect",
#     the server's trials made and put back by the server; every value the trials may touch
#     (net.* sysctls of the namespace, ethtool -k/-g/-c/-l, the MTU, the
#     qdiscs, rps_cpus) is the same before and after, on both sides;
#   - a server without --allow-try: its side's trials "not allowed by the
#     server", this side's still run;
#   - the same snapshot after SIGTERM in the middle of a trial (exit 143);
#   - after SIGKILL in the middle, a pending journal that 'ibgap doctor
#     --undo' puts back (and, at the default path, that every command
#     names on stderr);
#   - bad input (an unknown id, --keep without --try, a journal that is not
#     ibgap's, --try as nobody) is exit 2 with one line, nothing changed.
# Only findings whose changes stay inside the namespaces are tried
# (net.core.* sysctls, IRQs and the governor are the host's).  Needs root,
# ip, tc, ethtool and sysctl (77 otherwise).  About 42 s (5 runs of -D 0.3 per measurement).
#
# The test runs in a mount namespace of its own (unshare -m, mounts
# from the host propagate in, none out) with a tmpfs on /var/lib/ibgap:
# the journal it leaves pending at the default path for a few seconds is
# seen by no other process on this host, such as the tests and the
# Soft-RoCE guests running beside it, whose every ibgap command would
# warn of it.  The host keeps an empty /var/lib/ibgap (mode 700, as
# ibgap makes it).
if [[ -z ${IG_TRY_MNTNS:-} && $(id -u) == 0 ]] &&
	command -v unshare >/dev/null && command -v mount >/dev/null; then
	if ! [[ -d /var/lib/ibgap ]] && ! mkdir -m 700 /var/lib/ibgap; then
		echo "try.sh: cannot make /var/lib/ibgap" >&2
		exit 1
	fi
	# fd 9: the host's mount namespace, to look from (IG_TRY_MNTNS)
	exec 9</proc/self/ns/mnt
	# shellcheck disable=SC2016 # $0 and $@ are the inner bash's
	exec env IG_TRY_MNTNS=/proc/$$/fd/9 unshare -m --propagation slave \
		bash -c 'mount -t tmpfs -o mode=700 ibgap-try /var/lib/ibgap &&
			exec bash "$0" "$@"' "$0" "$@"
fi
source "$(dirname "$0")/lib.sh.inc"
IG_LIMIT=${IG_LIMIT_TRY:-240}
ig_init try "$@"

if [[ $(id -u) != 0 ]]; then
	ig_log "skipped: needs root (it makes network namespaces and changes settings inside them)"
	exit 77
fi
for t in ip tc ethtool sysctl; do
	command -v $t >/dev/null && continue
	ig_log "skipped: $t is not installed"
	exit 77
done

NA=igtry$$a
NB=igtry$$b
SUB=10.$((200 + $$ % 50)).$(($$ % 250)).
ADDR=${SUB}2
cleanup()
{
	# a journal of ours left at the default path: its changes were in
	# the namespace, which goes now
	[[ ${J3:-} == /var/lib/ibgap/try.journal ]] && rm -f "$J3"
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	ig_cleanup
}
trap cleanup EXIT

ip netns add "$NA" && ip netns add "$NB" || die "cannot make namespaces"
ip link add va netns "$NA" type veth peer vb netns "$NB" ||
	die "cannot make a veth pair"
ip -n "$NA" addr add "${SUB}1/24" dev va
ip -n "$NB" addr add "${SUB}2/24" dev vb
for n in "$NA" "$NB"; do
	ip -n "$n" link set lo up
done
ip -n "$NA" link set va up
ip -n "$NB" link set vb up

A() { ip netns exec "$NA" "$@"; }
B() { ip netns exec "$NB" "$@"; }

# the causes, on the client's side
A tc qdisc add dev va root tbf rate 200mbit burst 64kb latency 50ms ||
	die "cannot add the tbf shaper"
A sysctl -qw net.ipv4.tcp_congestion_control=reno || die "cannot set reno"

# every value a trial may touch in namespace $1 (device $2)
snapshot()
{
	ip netns exec "$1" sh -c "
		sysctl -a 2>/dev/null | grep '^net\.' |
			grep -v -e nf_conntrack_count -e '^net.core.netdev_rss_key' \
				-e '^net.ipv4.tcp_fastopen_key'
		for o in -k -g -c -l; do ethtool \$o $2 2>&1; done
		ip -o link show dev $2 | grep -o 'mtu [0-9]*'
		tc qdisc show dev $2
		cat /sys/class/net/$2/queues/rx-*/rps_cpus 2>/dev/null"
}
same()
{
	local tag=$1

	snapshot "$NA" va >"$TMP/$tag.a"
	snapshot "$NB" vb >"$TMP/$tag.b"
	if cmp -s "$TMP/before.a" "$TMP/$tag.a" &&
		cmp -s "$TMP/before.b" "$TMP/$tag.b"; then
		pass "$tag: every value is as before, on both sides"
	else
		fail "$tag: values changed: $(diff "$TMP/before.a" "$TMP/$tag.a"; diff "$TMP/before.b" "$TMP/$tag.b")"
	fi
}

# the server in namespace B, started as the loopback tests start theirs
REAL=$IBGAP
ig_ns_wrap "$NA" "$TMP/in-a"
ig_ns_wrap "$NB" "$TMP/in-b"
ig_new_key "$TMP/key"
# a server that does not allow trials (its port: OPEN), then the one that
# does (PORT)
IBGAP=$TMP/in-b IG_SRV_BIND=$ADDR ig_start_server
OPEN=$SRV_PORT
IBGAP=$TMP/in-b IG_SRV_BIND=$ADDR ig_start_server --allow-try \
	--auth-file "$TMP/key" --journal "$TMP/server.journal"
IBGAP=$REAL
PORT=$SRV_PORT

snapshot "$NA" va >"$TMP/before.a"
snapshot "$NB" vb >"$TMP/before.b"
grep -q tbf "$TMP/before.a" || die "the snapshot does not show the shaper"

# in namespace A, with a bound
T() { timeout -k 2 "$1" "$TMP/in-a" "${@:2}"; }
# 5 runs: a veth's tcp_bw at tens of Gb/s on a busy machine spreads
# widely, and with 3 runs the interval is t = 4.3 standard errors wide
RUNOPTS=(-p "$PORT" --auth-file "$TMP/key" --repeat 5 -D 0.3 --warmup 0.05)

# ---- the plan ----
RC=0
T 30 doctor "$ADDR" -p "$PORT" --auth-file "$TMP/key" --try --dry-run \
	--format json \
	>"$TMP/plan.json" 2>"$TMP/plan.err" || RC=$?
expect_rc 0 "--dry-run"
same "after --dry-run"
# the ids whose changes stay in the namespaces, of those planted
IDS=$(python3 - "$TMP/plan.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def host_wide(c):
    return c["kind"] in ("irq", "governor") or (
        c["kind"] == "sysctl" and c["name"].startswith("net.core."))
ids, bad = [], set()
for t in d["trials"]:
    if any(host_wide(c) for c in t["changes"]):
        bad.add(t["id"])
    elif t["changes"] and t["id"] not in ids:
        ids.append(t["id"])
# the planted causes, and GRO (on both sides: the server's through it)
want = ("qdisc.shaper", "sock.cc", "offload.gro.off")
print(",".join(i for i in ids if i not in bad and i in want))
EOF
)
ig_log "ids tried: $IDS"
check "the plan has the shaper's trial" grep -q qdisc.shaper <<<"$IDS"
check "the plan has the congestion control's trial" grep -q sock.cc <<<"$IDS"
check "the plan reverses each change" python3 -c "
import json, sys
d = json.load(open('$TMP/plan.json'))
sys.exit(not all(c.get('revert') for t in d['trials'] for c in t['changes']
                 if t['side'] == 'local'))"
check "the plan has the server's trials" python3 -c "
import json, sys
d = json.load(open('$TMP/plan.json'))
sys.exit(not [t for t in d['trials']
              if t['changes'] and t['side'] == 'remote'])"

# ---- bad input: exit 2, one line, nothing changed ----
bad()
{
	local what=$1

	shift
	RC=0
	T 20 doctor "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || RC=$?
	expect_rc 2 "$what"
	expect_one_line "$TMP/bad.err" "$what"
}
bad "an unknown id" "$ADDR" -p "$OPEN" --try qdisc.shaper,no.such.id \
	--journal "$TMP/j0"
check "the unknown id is named with the ids found" \
	grep -q "'no.such.id'.*qdisc.shaper" "$TMP/bad.err"
bad "--keep without --try" "$ADDR" -p "$OPEN" --keep
echo "not a journal" >"$TMP/notj"
bad "--undo of a file that is not ibgap's" --undo --journal "$TMP/notj"
check "the file that is not ibgap's stays" test -s "$TMP/notj"
bad "--try with a file that is not ibgap's at --journal" "$ADDR" -p "$OPEN" \
	--try qdisc.shaper --journal "$TMP/notj"
# --try without the privilege to change this host: exit 2, one line of
# ours naming the side (the doctor's unprivileged nftables query adds a
# line of libnftables' own, "Operation not permitted (you must be root)")
if command -v setpriv >/dev/null; then
	RC=0
	timeout -k 2 30 ip netns exec "$NA" setpriv --reuid 65534 \
		--regid 65534 --clear-groups "$IBGAP" doctor "$ADDR" -p "$OPEN" \
		--try qdisc.shaper --journal "$TMP/jn" >"$TMP/np.out" \
		2>"$TMP/np.err" || RC=$?
	expect_rc 2 "--try as nobody"
	grep '^ibgap' "$TMP/np.err" >"$TMP/np.ours"
	expect_one_line "$TMP/np.ours" "--try as nobody"
	expect_grep "$TMP/np.ours" "this host needs root or CAP_NET_ADMIN" \
		"--try as nobody names the side"
else
	ig_log "setpriv is not installed: --try without root is not checked"
fi
same "after bad input"

# ---- a normal run ----
t0=$(date +%s)
RC=0
T 150 doctor "$ADDR" "${RUNOPTS[@]}" --try "$IDS" --journal "$TMP/j1" \
	--format json -o "$TMP/try.json" >"$TMP/try.out" 2>"$TMP/try.err" ||
	RC=$?
expect_rc 0 "--try $IDS"
ig_log "the run took $(($(date +%s) - t0)) s"
same "after --try"
check "the journal is gone after the run" test ! -e "$TMP/j1"
check "the server's journal is gone after the run" \
	test ! -e "$TMP/server.journal"
ig_json_check "$TMP/try.json" <<'EOF'
ran = [t for t in d["trials"] if "verdict" in t]
check(d["schema"] == "ibgap-try/1", "schema")
check(ran and (ran[0]["id"], ran[0]["side"]) == ("qdisc.shaper", "local"),
      "this side's shaper ranks first: %s"
      % [(t["id"], t["side"]) for t in ran])
sh = [t for t in ran if t["id"] == "qdisc.shaper" and t["side"] == "local"]
check(sh and sh[0]["verdict"] == "helps",
      "this side's shaper helps tcp_bw: %s" % (sh and sh[0]["verdict"]))
check(sh and sh[0]["change_pct"]["tcp_bw"]["pct"] > 100,
      "removing a 200mbit shaper more than doubles tcp_bw: %s"
      % (sh and sh[0]["change_pct"]["tcp_bw"]))
rs = [t for t in ran if t["side"] == "remote"]
check(rs and all(c["restored"] for t in rs for c in t["changes"]),
      "the server's trials ran and were put back: %s" % rs)
cc = [t for t in ran if t["id"] == "sock.cc" and t["side"] == "local"]
check(cc and cc[0]["verdict"] == "no effect",
      "the congestion control makes no difference: %s %s"
      % (cc and cc[0]["verdict"], cc and cc[0]["change_pct"]["tcp_bw"]))
pcts = [t["change_pct"]["tcp_bw"]["pct"] for t in ran]
check(pcts == sorted(pcts, reverse=True), "ranked by effect: %s" % pcts)
made = [c for t in d["trials"] for c in t["changes"] if "restored" in c]
check(made and all(c["restored"] for c in made),
      "every change made was restored: %s" % made)
check(not [t for t in d["not_tried"] if "not allowed" in t["reason"]],
      "the --allow-try server allowed its side: %s" % d["not_tried"])
check(d["ceiling"] is None and "RDMA" in d["ceiling_absent"],
      "no verbs ceiling on veth, and why: %s" % d.get("ceiling_absent"))
check(d["combined"] and d["combined"]["verdict"] == "helps",
      "the fixes that helped, together, help")
EOF

# ---- a server without --allow-try ----
RC=0
T 60 doctor "$ADDR" -p "$OPEN" --repeat 2 -D 0.3 --warmup 0.1 \
	--try qdisc.shaper,rps.off --journal "$TMP/j4" --format json \
	-o "$TMP/open.json" \
	>"$TMP/open.out" 2>"$TMP/open.err" || RC=$?
expect_rc 0 "--try against a server without --allow-try"
ig_json_check "$TMP/open.json" <<'EOF'
nt = [t for t in d["not_tried"] if t["side"] == "remote"]
check(nt and nt[0]["reason"].startswith("not allowed by the server: "),
      "the server's side is not allowed: %s" % nt)
check([t for t in d["trials"] if t["side"] == "local" and "verdict" in t],
      "this side's trial ran")
EOF
same "after --try against a server without --allow-try"

# ---- SIGTERM, SIGKILL in the middle of a trial ----
# the shaper's trial deleted it: that is the middle of a trial.  Starts
# the trial (tag $1, journal $2), waits for that; BG_PID is ibgap.
mid()
{
	IBGAP=$TMP/in-a ig_bg "$1" doctor "$ADDR" -p "$PORT" \
		--auth-file "$TMP/key" --repeat 2 -D 1 --warmup 0.1 --try qdisc.shaper --journal "$2"
	for _ in $(seq 200); do
		A tc qdisc show dev va | grep -q tbf || return 0
		sleep 0.05
	done
	fail "$1: the shaper's trial never began: $(cat "$TMP/$1.err")"
	return 1
}
if mid term "$TMP/j2"; then
	kill -TERM "$BG_PID"
	ig_wait_pid "$BG_PID" 20
	expect_rc 143 "SIGTERM in the middle of a trial"
	check "SIGTERM: the note says so" grep -q "interrupted (SIGTERM)" \
		"$TMP/term.out"
	same "after SIGTERM"
	check "SIGTERM: no journal left" test ! -e "$TMP/j2"
fi
# at the default path (when none is pending there) every command warns
J3=$TMP/j3
DEF=/var/lib/ibgap/try.journal
[[ -e $DEF ]] || J3=$DEF
if mid kill "$J3"; then
	kill -KILL "$BG_PID"
	ig_wait_pid "$BG_PID" 10
	check "SIGKILL: the shaper is still gone" \
		bash -c "! ip netns exec $NA tc qdisc show dev va | grep -q tbf"
	check "SIGKILL: the journal is pending" test -s "$J3"
	if [[ $J3 == "$DEF" && -e ${IG_TRY_MNTNS:-} ]]; then
		check "the pending journal is not seen outside this test" \
			nsenter --mount="$IG_TRY_MNTNS" test ! -e "$DEF"
	fi
	if [[ $J3 == "$DEF" ]]; then
		RC=0
		T 10 version >"$TMP/ver.out" 2>"$TMP/ver.err" || RC=$?
		expect_one_line "$TMP/ver.err" "ibgap version with a pending journal"
		expect_grep "$TMP/ver.err" "run 'ibgap doctor --undo'" \
			"the pending journal's warning"
	else
		ig_log "a journal is pending at $DEF already: the warning is not checked"
	fi
	RC=0
	T 20 doctor --undo --journal "$J3" >"$TMP/undo.out" \
		2>"$TMP/undo.err" || RC=$?
	expect_rc 0 "--undo after SIGKILL"
	expect_no_grep "$TMP/undo.err" "were not put back" \
		"--undo itself does not warn"
	same "after SIGKILL and --undo"
	check "--undo removed the journal" test ! -e "$J3"
fi

# ---- a small receive buffer on the server's side, without the shaper ----
# (behind the shaper it would change nothing: one trial at a time).  5
# runs a side, as the first trial: with 3, CI's load once gave +219%
# with an interval of [-3, +752] ("no effect"; fresh clone of 919d2d6).
# 4 KiB at most: with 16 KiB the CPUs CI's load left were the limit as
# much as the buffer (+16%, [-13, +50]: fresh clone of 9258e88).
A tc qdisc del dev va root || die "cannot remove the shaper"
B sysctl -qw net.ipv4.tcp_rmem="4096 4096 4096" || die "cannot set tcp_rmem"
RMEM_B=$(B sysctl -n net.ipv4.tcp_rmem)
RC=0
T 90 doctor "$ADDR" -p "$PORT" --auth-file "$TMP/key" --repeat 5 -D 0.3 \
	--warmup 0.05 --try sock.tcp_rmem.small --journal "$TMP/j5" \
	--format json -o "$TMP/rmem.json" >"$TMP/rmem.out" \
	2>"$TMP/rmem.err" || RC=$?
expect_rc 0 "--try sock.tcp_rmem.small"
ig_json_check "$TMP/rmem.json" <<'EOF'
t = [t for t in d["trials"] if t["id"] == "sock.tcp_rmem.small"
     and t["side"] == "remote"]
check(t, "the server's small tcp_rmem is named and tried: %s"
      % [(t["id"], t["side"]) for t in d["trials"]])
check(t and t[0].get("verdict") == "helps",
      "a larger tcp_rmem on the receiver helps tcp_bw: %s"
      % str(t and (t[0].get("verdict"), t[0].get("change_pct"))))
check(t and all(c["restored"] for c in t[0]["changes"]),
      "the server put tcp_rmem back")
EOF
ig_log "the small tcp_rmem's trial: $(python3 -c "
import json
d = json.load(open('$TMP/rmem.json'))
for t in d['trials']:
    if t['id'] == 'sock.tcp_rmem.small' and 'verdict' in t:
        print(t['verdict'], json.dumps(t['change_pct']['tcp_bw']))
" 2>&1)"
check "the server's tcp_rmem is as planted" \
	test "$(B sysctl -n net.ipv4.tcp_rmem)" == "$RMEM_B"

ig_done
