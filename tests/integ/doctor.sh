#!/bin/bash
# doctor.sh: "ibgap doctor" on this host exits 0 with one valid JSON
# document; against a running "ibgap server" it carries the server's
# findings too (DOCTOR/FINDINGS on the control channel, and the server goes
# on serving); with --root it reads a fixture tree; a server that is not
# there is reported, this host's findings printed all the same, and the
# exit is 1 with one line on stderr saying so; bad options exit 2 with one
# line.
#   bash tests/integ/doctor.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init doctor "$@"
DATA=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/doctor" && pwd)

# The checks every host object must pass (python, d = the document).
host_checks()
{
	cat <<'PY'
SEV = ("info", "warn", "crit")
def check_host(h, role):
    p = "host %s: " % role
    check(h.get("role") == role, p + "role %r" % h.get("role"))
    for k in ("paths", "findings", "read_errors"):
        check(isinstance(h.get(k), list), p + "no %s array" % k)
    hi = h.get("host") or {}
    check(isinstance(hi.get("hostname"), str) and hi.get("hostname"),
          p + "no host.hostname")
    rank = [SEV.index(f.get("severity")) if f.get("severity") in SEV
            else -1 for f in h.get("findings") or []]
    check(-1 not in rank, p + "a severity outside %r" % (SEV,))
    check(rank == sorted(rank, reverse=True),
          p + "findings not sorted crit, warn, info: %r" % rank)
    for f in h.get("findings") or []:
        for k in ("id", "what", "fix"):
            check(isinstance(f.get(k), str), p + "finding %r: %s" % (f, k))
        ev = f.get("evidence")
        check(isinstance(ev, list) and all(
            isinstance(e.get("source"), str) and isinstance(e.get("value"),
            str) for e in ev), p + "finding %s: bad evidence %r" %
            (f.get("id"), ev))
    for e in h.get("read_errors") or []:
        check(e.get("source") and e.get("error"), p + "bad read error %r" % e)
def ids(h):
    return sorted(f["id"] for f in h.get("findings", []))
check(d.get("schema") == "ibgap-doctor/1", "schema %r" % d.get("schema"))
hosts = d.get("hosts") or []
PY
}

# 1. this host alone
ig_run 30 local doctor --format json
expect_rc 0 "doctor --format json"
check "doctor --format json: nothing on stderr" test ! -s "$TMP/local.err"
ig_json_check "$TMP/local.out" "doctor --format json" <<PY
$(host_checks)
check(len(hosts) == 1, "%d host objects, want 1" % len(hosts))
check_host(hosts[0], "local")
check(hosts[0].get("fixture") is False, "fixture %r" % hosts[0].get("fixture"))
PY
ig_run 30 text doctor
expect_rc 0 "doctor (text)"
expect_grep "$TMP/text.out" "== this host: " "doctor (text)"
expect_grep "$TMP/text.out" "summary: " "doctor (text)"

# 2. against a server: both hosts' findings; 127.0.0.1 is loopback on
#    both ends, so both say route.loopback
ig_start_server
ig_run 30 remote doctor 127.0.0.1 -p "$SRV_PORT" --format json --window 1M
expect_rc 0 "doctor 127.0.0.1 -p PORT"
ig_json_check "$TMP/remote.out" "doctor 127.0.0.1 -p PORT" <<PY
$(host_checks)
check(len(hosts) == 2, "%d host objects, want 2" % len(hosts))
if len(hosts) == 2:
    check_host(hosts[0], "local")
    check_host(hosts[1], "remote")
    check("error" not in hosts[1], "remote error: %r" % hosts[1].get("error"))
    for h in hosts:
        pa = h.get("paths") or [{}]
        check(pa[0].get("address") == "127.0.0.1" and
              pa[0].get("netdev") == "lo" and pa[0].get("kind") == "loopback",
              "%s path %r" % (h.get("role"), pa[0]))
        check("route.loopback" in ids(h), "%s: no route.loopback in %r" %
              (h.get("role"), ids(h)))
    check(hosts[1]["paths"][0].get("route_type") == "local",
          "the server examines its own address: %r" % hosts[1]["paths"][0])
PY
ig_run 30 remote_text doctor 127.0.0.1 -p "$SRV_PORT"
expect_rc 0 "doctor 127.0.0.1 (text)"
expect_grep "$TMP/remote_text.out" "the server's view" "doctor (text)"
check "server alive after two doctor sessions" ig_server_alive
expect_grep "$SRV_LOG" "doctor findings sent" "server log"
# the server still runs tests after a doctor session
ig_client 30 after -t tcp_lat -n 100 --warmup 0
expect_client_ok after "client after the doctor sessions"

# 3. a fixture tree through the command line; nothing listens on the
#    closed port: the remote part is reported, the local one still runs
closed=
for _ in $(seq 20); do
	p=$(ig_random_port)
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		closed=$p
		break
	fi
done
[[ -n $closed ]] || die "found no closed port in 20 tries"
ig_run 30 fixture doctor 127.0.0.1 -p "$closed" --timeout 2 --format json \
	--root "$DATA/pcie_gen3x8_200g"
expect_rc 1 "doctor --root pcie_gen3x8_200g, no server on port $closed"
expect_one_line "$TMP/fixture.err" "doctor, no server"
expect_grep "$TMP/fixture.err" "127.0.0.1 port $closed was not examined" \
	"doctor, no server"
ig_json_check "$TMP/fixture.out" "doctor --root pcie_gen3x8_200g" <<PY
$(host_checks)
check(len(hosts) == 2, "%d host objects, want 2" % len(hosts))
check_host(hosts[0], "local")
check(hosts[0].get("fixture") is True, "fixture %r" % hosts[0].get("fixture"))
check(ids(hosts[0]) == ["route.loopback", "sock.busy_poll.off", "sock.cc"],
      "127.0.0.1 in the fixture: %r" % ids(hosts[0]))
r = hosts[1] if len(hosts) > 1 else {}
check("$closed" in (r.get("error") or ""), "remote error %r" % r.get("error"))
PY
# the live host, 127.0.0.2 (local through lo's 127.0.0.1/8, an address
# of no netdev) with no server there: the text says why in plain words
ig_run 30 nosrv doctor 127.0.0.2 -p "$closed" --timeout 2
expect_rc 1 "doctor 127.0.0.2, no server there"
expect_one_line "$TMP/nosrv.err" "doctor 127.0.0.2, no server there"
expect_grep "$TMP/nosrv.err" "127.0.0.2 port $closed was not examined" \
	"doctor 127.0.0.2, no server there"
expect_grep "$TMP/nosrv.out" "not examined: cannot connect" \
	"doctor 127.0.0.2 (text)"
expect_no_grep "$TMP/nosrv.out" "addr_owner(" "doctor 127.0.0.2 (text)"
expect_grep "$TMP/nosrv.out" "== this host: " "doctor 127.0.0.2 (text)"
# no HOST: every RDMA netdev of the fixture
ig_run 30 fixture_all doctor --format json --root "$DATA/pcie_gen3x8_200g"
expect_rc 0 "doctor --root pcie_gen3x8_200g (no HOST)"
ig_json_check "$TMP/fixture_all.out" "doctor --root (no HOST)" <<'PY'
h = d["hosts"][0]
got = [(f["severity"], f["id"]) for f in h["findings"]]
check(got[:2] == [("crit", "pcie.ceiling"), ("warn", "pcie.downtrained")],
      "findings %r" % got)
p = h["paths"]
check(len(p) == 1 and p[0]["netdev"] == "ib0" and
      p[0]["rdma"] == {"device": "mlx5_0", "port": 1,
                       "link_layer": "InfiniBand", "rate_gbps": 200.0},
      "paths %r" % p)
PY

# 4. bad options: exit 2, one line naming the option and the value
bad()
{
	local value=$1 opt=$2

	shift 2
	ig_run 10 bad "$@"
	[[ $RC == 2 ]] || fail "ibgap $*: exit code $RC, expected 2"
	expect_one_line "$TMP/bad.err" "ibgap $*" || return
	expect_grep "$TMP/bad.err" "$value" "ibgap $*"
	[[ -z $opt ]] || expect_grep "$TMP/bad.err" "$opt" "ibgap $*"
	check "ibgap $*: nothing on stdout" test ! -s "$TMP/bad.out"
}
bad xml --format doctor --format xml
bad csv --format doctor --format csv
bad 70000 -p doctor 127.0.0.1 -p 70000
bad 5G --window doctor --window 5G
bad 0 --timeout doctor --timeout 0
bad /nonexistent-ibgap --root doctor --root /nonexistent-ibgap
bad --bogus "" doctor --bogus
bad b.example "" doctor a.example b.example
ig_run 10 help doctor --help
expect_rc 0 "doctor --help"
expect_grep "$TMP/help.out" "usage: ibgap doctor" "doctor --help"
ig_done
