#!/bin/bash
# t_two_rails.sh: --rails across two hosts with two wires.  rxe-run --two
# with IG_RXE_WIRES=2 boots two QEMU guests joined by two virtual wires
# (eth0: 10.233.1.0/24, eth1: 10.233.2.0/24), each guest with an rxe
# device on each (A: rxe_a, rxe_a2; B: rxe_b, rxe_b2); this script runs on
# both.  Guest B serves on every address; guest A:
#  - bad input: --rails mlx5_9 (exit 2, one line naming A's devices),
#    --rails with --device (exit 2, one line);
#  - shapes the TCP of its second wire (tc prio + tbf on eth1, TCP only:
#    RoCE's UDP passes), then runs --rails rxe_a2,rxe_a --rails-mode
#    together: the rails listed against their index order, so that only
#    the pairing by subnet gives rxe_a2 its peer rxe_b2; each rail
#    measured alone and all at once; rxe_a2 flagged "TCP low alone";
#  - the local run, ibgap --rails --rails-cpu 0,0: each rail against a
#    server of its own, its threads on CPU 0;
#  - a garbled and a truncated VERBS_EP from a raw client: refused with
#    one line each, the server serves on;
#  - a rail without an IPv4 address (eth1's flushed), each and together:
#    TCP "no IPoIB address", its verbs (RC write and read, UD) connected
#    without rdma_cm, the other rail measured, exit 0.
# The text reports of these runs are unit/test_rails' (real ones in
# docs/rails.md).  About 70 s with the two boots on a quiet machine, 130 s
# beside CI's host tests.
#   IG_RXE_WIRES=2 tests/rxe/rxe-run --two bash tests/rxe/t_two_rails.sh \
#       /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (not under rxe-run --two with two wires).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
# igwire.py, the raw protocol of bad_ep's client
INTEG_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../integ" && pwd)

# Each measurement: 0.5 s after a warm-up (a rail's first verbs run in a
# fresh guest is slow without one), 16 KiB messages.
RAILS_ARGS=(-t write_bw,tcp_bw -s 16K -D 0.3 --warmup 0.2)

bad_input()
{
	rx_run 20 badrail "$IBGAP" client "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--rails mlx5_9
	expect_rc 2 "--rails mlx5_9" &&
		expect_one_line "$TMP/badrail.err" "--rails mlx5_9" &&
		expect_grep "$TMP/badrail.err" "found $IG_RDMA_DEV, $IG_RDMA_DEV2" \
			"--rails mlx5_9"
	rx_run 20 raildev "$IBGAP" client "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--rails --device "$IG_RDMA_DEV"
	expect_rc 2 "--rails --device" &&
		expect_one_line "$TMP/raildev.err" "--rails --device"
}

# TCP on eth1 (the second rail) through a 20 Mbit/s token bucket; the
# rest (RoCE v2 is UDP) through prio's default band.
shape_rail2()
{
	tc qdisc add dev eth1 root handle 1: prio &&
		tc qdisc add dev eth1 parent 1:3 handle 30: tbf rate 20mbit \
			burst 16k latency 200ms &&
		tc filter add dev eth1 parent 1: protocol ip u32 \
			match ip protocol 6 0xff flowid 1:3 ||
		die "cannot shape eth1's TCP (tc prio/tbf/u32)"
}

RAILS_JQ='
def rail($d): [.rails[] | select(.device == $d)][0];
chk([.rails[].device] == [$dev2, $dev];
    "rails \([.rails[].device] | tojson), want [\($dev2), \($dev)] (the list order)"),
chk([.rails[].server.device] == [$peer2, $peer];
    "peers \([.rails[].server.device] | tojson), want [\($peer2), \($peer)] (by subnet)"),
chk(all(.rails[]; .paired_by == "subnet"); "paired_by \([.rails[].paired_by] | tojson)"),
chk(all(.rails[]; .verbs_gbps > 0 and .tcp_gbps > 0);
    "figures \([.rails[] | [.verbs_gbps, .tcp_gbps]] | tojson)"),
chk(rail($dev2).tcp_gbps < 0.5 * rail($dev).tcp_gbps;
    "shaped rail tcp \(rail($dev2).tcp_gbps), other \(rail($dev).tcp_gbps)"),
chk(rail($dev2).flags | index(["tcp_low"]);
    "\($dev2) flags \(rail($dev2).flags | tojson), want tcp_low (\(rail($dev2).why))"),
# TCP low alone, and the doctor, unless the emulation made its verbs low
# too (then the unit tests cover the rest; the log says so)
(if rail($dev2).flags | index(["verbs_low"]) then empty else
 chk(rail($dev2).flags | index(["tcp_low_alone"]);
     "\($dev2) flags \(rail($dev2).flags | tojson), want tcp_low_alone (\(rail($dev2).why))"),
 chk([rail($dev2).findings[]?.id] | index(["qdisc.shaper"]);
     "\($dev2) findings \([rail($dev2).findings[]?.id] | tojson), want qdisc.shaper (the tbf)"),
 chk(([rail($dev2).findings[]?.id] | index(["offload.tso.off"])) == null;
     "\($dev2) findings \([rail($dev2).findings[]?.id] | tojson): offload.tso.off holds on every rail")
 end),
chk(rail($dev).flags | index(["tcp_low"]) | not;
    "\($dev) flags \(rail($dev).flags | tojson)"),
chk([.results[].rail] | sort == ([$dev, $dev, $dev2, $dev2] | sort);
    "results rails \([.results[].rail] | tojson)"),
chk(.rails_together.tcp.each_gbps > 0 and .rails_together.tcp.together_gbps > 0
    and .rails_together.verbs.together_gbps > 0;
    "rails_together \(.rails_together | tojson)"),
chk(all(.rails[]; .verbs_together_gbps > 0 and .tcp_together_gbps > 0);
    "together per rail \([.rails[] | [.verbs_together_gbps, .tcp_together_gbps]] | tojson)")
'

rails_json()
{
	rx_run 120 rails "$IBGAP" client "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--rails "$IG_RDMA_DEV2,$IG_RDMA_DEV" --rails-mode together \
		"${RAILS_ARGS[@]}" --format json
}

# A rail without an IPv4 address (eth1's taken away): paired by index,
# "no IPoIB address" for TCP, its verbs (RC write, read, send and UD)
# connected without rdma_cm (VERBS_EP over the control connection to
# HOST, the link-local RoCE v2 GID), the other rail measured; exit 0.
NOADDR_TESTS=write_bw,read_bw,ud_send_lat,tcp_bw
NOADDR_JQ='
def rail($d): [.rails[] | select(.device == $d)][0];
def res($d): [.results[] | select(.rail == $d)];
chk(rail($dev2).tcp == "no IPoIB address" and
    rail($dev2).paired_by == "index" and
    rail($dev2).server.device == $peer2;
    "\(rail($dev2) | {tcp, paired_by, server: .server.device})"),
chk(rail($dev2).no_address == "client" and
    rail($dev2).verbs_connect == "out-of-band" and
    (rail($dev2).gid | startswith("fe80:")) and rail($dev2).gid_index >= 0;
    "\(rail($dev2) | {no_address, verbs_connect, gid, gid_index})"),
chk(rail($dev2).error == null and rail($dev2).verbs_gbps > 0;
    "\(rail($dev2) | {error, verbs_gbps})"),
chk([res($dev2)[] | .test] == ["write_bw", "read_bw", "ud_send_lat"]
    and all(res($dev2)[]; .error == null);
    "\($dev2) results \([res($dev2)[] | {test, error}] | tojson)"),
chk(rail($dev).verbs_gbps > 0 and rail($dev).tcp_gbps > 0 and
    rail($dev).verbs_connect == null;
    "\($dev) \(rail($dev) | [.verbs_gbps, .tcp_gbps, .verbs_connect])")'

# A garbled and a truncated VERBS_EP (a raw client, tests/integ/igwire.py,
# after SETUP with oob 1): each refused with one line naming what is
# wrong, and the server serves on (the runs after this one).
BAD_EP_PY='
import json, sys, time
from igwire import session, hdr, msg, recv_msg, SETUP, ERROR, WELCOME, VERBS_EP
host, port = sys.argv[1], int(sys.argv[2])
setup = {"test": "write_bw", "size": 1024, "iterations": 0,
         "duration_ns": 300000000, "warmup_ns": 0, "streams": 1,
         "window": 0, "timeout_ms": 3000, "tx_depth": 128, "cq_mod": 1,
         "inline_size": 0, "bidir": 0, "oob": 1}
ep = {"qpn": 0, "psn": 1, "lid": 0, "gid": "fe80::1", "gid_index": 0}
bad = {"garbled": msg(VERBS_EP, {"eps": [ep], "device": "rxe_b2",
                                 "port": 1, "mtu": 1024, "rd_atom": 0}),
       "truncated": hdr(1, VERBS_EP, 9) + b"{\"eps\":[{"}
want = {"garbled": "VERBS_EP: \x27qpn\x27", "truncated": "not a JSON object"}
for name in ("garbled", "truncated"):
    # the server may still be ending the last session (a loaded host)
    for tries in range(50):
        s, typ, b = session(port, host=host)
        if typ == WELCOME or "another session" not in str(b):
            break
        s.close()
        time.sleep(0.2)
    assert typ == WELCOME, (typ, b)
    s.sendall(msg(SETUP, setup) + bad[name])
    typ, b = recv_msg(s, 10)
    m = (b or {}).get("message", "")
    print(name, typ, m)
    assert typ == ERROR and want[name] in m and "\n" not in m, (typ, b)
'

bad_ep()
{
	# 90 s: the script bounds itself (50 tries of a session while the
	# server ends the last one, 10 s a reply); fec5824's CI, beside the
	# host tests, passed 30 s with no line from it
	rx_run 90 badep env PYTHONPATH="$INTEG_DIR" \
		PYTHONDONTWRITEBYTECODE=1 python3 -c "$BAD_EP_PY" \
		"$IG_PEER_ADDR" "$SRV_PORT"
	if [[ $RC == 0 ]]; then
		pass "VERBS_EP garbled and truncated: refused, one line each:" \
			"$(tr '\n' ';' <"$TMP/badep.out")"
	else
		fail "VERBS_EP garbled/truncated: exit $RC: $(head -c 1500 \
			"$TMP/badep.out") $(head -c 1500 "$TMP/badep.err")"
	fi
}

no_address()
{
	bad_ep
	ip -4 addr flush dev eth1 || die "cannot take eth1's address away"
	rx_run 60 noaddr "$IBGAP" client "$IG_PEER_ADDR" -p "$SRV_PORT" \
		--rails --rails-mode together -t "$NOADDR_TESTS" -s 1K -D 0.2 \
		--warmup 0.1 --format json
	expect_client_ok noaddr "--rails, $IG_RDMA_DEV2 without an address" &&
		rx_jq "$TMP/noaddr.out" "--rails, no address" "$NOADDR_JQ" \
			--arg dev2 "$IG_RDMA_DEV2" \
			--arg peer2 "$IG_PEER_DEV2"
	[[ -s $TMP/noaddr.out ]] && rx_log "no address: $(jq -c '[.rails[] |
		{device, verbs_gbps, tcp, verbs_connect, gid, gid_index}],
		[.results[] | select(.rail == $d) | {test, bw_gbps, lat_us}]' \
		--arg d "$IG_RDMA_DEV2" "$TMP/noaddr.out")"
	# (the text report of such a rail: unit/test_rails; a real one in
	# docs/rails.md)
}

run_a()
{
	rx_two_wait_server
	bad_input
	shape_rail2
	rails_json
	# The emulated guests' figures can differ by half from one run to
	# the next: when that noise flags the shaped rail's verbs (the
	# shaping holds TCP alone), "TCP low alone" cannot be checked; when
	# the other rail's TCP came out no faster than the shaped one's (a
	# 0.3 s run that lost a segment waits out a retransmit timeout: seen
	# once beside CI's host tests, 0.0205 against 0.0175 Gb/s), the
	# shaper cannot show.  Either way: one more run, whose figures the
	# checks then hold to.
	if [[ $RC == 0 ]] && jq -e --arg dev "$IG_RDMA_DEV" \
		--arg dev2 "$IG_RDMA_DEV2" '
		def rail($d): [.rails[] | select(.device == $d)][0];
		(rail($dev2).flags | index(["verbs_low"])) or
		rail($dev2).tcp_gbps >= 0.5 * rail($dev).tcp_gbps' \
		"$TMP/rails.out" >/dev/null; then
		rx_log "a rail's figure came out low (emulation noise: verbs" \
			"$(jq -c '[.rails[] | .verbs_gbps]' "$TMP/rails.out"), tcp" \
			"$(jq -c '[.rails[] | .tcp_gbps]' "$TMP/rails.out")):" \
			"once more"
		rails_json
	fi
	expect_client_ok rails "--rails $IG_RDMA_DEV2,$IG_RDMA_DEV" &&
		rx_jq "$TMP/rails.out" "--rails" "$RAILS_JQ" \
			--arg dev2 "$IG_RDMA_DEV2" --arg peer "$IG_PEER_DEV" \
			--arg peer2 "$IG_PEER_DEV2"
	[[ -s $TMP/rails.out ]] && rx_log "figures: $(jq -c '[.rails[] |
		{device, verbs_gbps, tcp_gbps, verbs_together_gbps,
		 tcp_together_gbps, flags}], .rails_together' \
		"$TMP/rails.out")"
	# (the text of such a run: unit/test_rails; a real one in
	# docs/rails.md)
	# The local run: each of A's rails against a server of its own
	# (client and server on the rail's one rxe device).
	rx_run 120 local "$IBGAP" --rails --rails-cpu 0,0 "${RAILS_ARGS[@]}" \
		--format json
	expect_client_ok local "ibgap --rails (local run)" &&
		rx_jq "$TMP/local.out" "ibgap --rails" '
		chk([.rails[] | [.device, .server.device]] ==
		    [[$dev, $dev], [$dev2, $dev2]];
		    "local rails \([.rails[] | [.device, .server.device]] | tojson)"),
		chk(all(.rails[]; .verbs_gbps > 0 and .tcp_gbps > 0);
		    "local figures \([.rails[] | [.verbs_gbps, .tcp_gbps]] | tojson)"),
		chk(all(.rails[]; .cpu == 0); "--rails-cpu 0,0: \([.rails[].cpu] | tojson)")' \
			--arg dev2 "$IG_RDMA_DEV2"
	no_address
	rx_two_done
}

rx_init t_two_rails 240 "$@"
if [[ -z ${IG_TWO_ROLE:-} || ! -d ${IG_TWO_DIR:-} || -z ${IG_RDMA_DEV2:-} ]]; then
	rx_log "skipped: needs two hosts and two wires (run it under" \
		"IG_RXE_WIRES=2 tests/rxe/rxe-run --two)"
	exit 77
fi
case $IG_TWO_ROLE in
a) run_a ;;
b) rx_two_serve --timeout 10 ;; # every address: both rails
*) die "IG_TWO_ROLE=$IG_TWO_ROLE: expected a or b" ;;
esac
