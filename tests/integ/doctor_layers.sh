#!/bin/bash
# The doctor sees the layers between the socket and the netdev on the
# server's side (issue 23 item 0): two network namespaces joined by a veth
# pair that this test makes (and deletes on exit); in B a server, a tbf
# shaper on B's veth and an nftables input chain with a 'ct state' rule.
# `ibgap doctor ADDR_B` run in A must name qdisc.shaper, filter.rules and
# filter.conntrack among the remote host's findings (qdisc.shaper with its
# trial: delete the root qdisc), and none of them before they are planted.
# A server run as nobody lists the filter as not examined.
# Root required (exit 77 otherwise), with ip, tc and nft.
source "$(dirname "$0")/lib.sh.inc"

if [[ $(id -u) != 0 ]]; then
	echo "doctor_layers: skipped: needs root to make network namespaces" >&2
	exit 77
fi
for tool in ip tc nft; do
	command -v $tool >/dev/null && continue
	echo "doctor_layers: skipped: $tool is not installed" >&2
	exit 77
done
ig_init doctor_layers "$@"
BIN=$IBGAP
NS_A=igdl-a-$$
NS_B=igdl-b-$$
IF_A=igdla$$
IF_B=igdlb$$
ADDR_A=10.233.7.1
ADDR_B=10.233.7.2

ns_cleanup()
{
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
}
trap 'ig_cleanup; ns_cleanup' EXIT

ip netns add "$NS_A" || die "ip netns add $NS_A failed"
ip netns add "$NS_B" || die "ip netns add $NS_B failed"
ip link add "$IF_A" netns "$NS_A" type veth peer name "$IF_B" \
	netns "$NS_B" || die "cannot make the veth pair"
ip -n "$NS_A" addr add $ADDR_A/24 dev "$IF_A"
ip -n "$NS_B" addr add $ADDR_B/24 dev "$IF_B"
for ns in "$NS_A" "$NS_B"; do
	ip -n "$ns" link set lo up
done
ip -n "$NS_A" link set "$IF_A" up
ip -n "$NS_B" link set "$IF_B" up || die "cannot bring the veth pair up"

# ibgap in a namespace: a wrapper, so that the library's helpers run it
# there (ip netns exec execs: the pid is ibgap's)
wrap()
{
	printf '#!/bin/sh\nexec ip netns exec %s %s "$BIN" "$@"\n' "$1" \
		"${2:-}" >"$TMP/in-$1"
	chmod +x "$TMP/in-$1"
	echo "$TMP/in-$1"
}
export BIN

# plant: a tbf shaper on B's veth, an input chain with a ct state rule
plant()
{
	ip netns exec "$NS_B" tc qdisc add dev "$IF_B" root tbf rate 500mbit \
		burst 64k latency 100ms || die "tc qdisc add tbf failed"
	ip netns exec "$NS_B" nft -f - <<EOF || die "nft -f failed"
table inet igdl {
	chain input {
		type filter hook input priority 0;
		ct state established,related accept
	}
}
EOF
}

# doctor TAG: the doctor in A against a server in B; its JSON in TAG.out
doctor()
{
	IBGAP=$(wrap "$NS_A")
	ig_run 30 "$1" doctor "$ADDR_B" -p "$SRV_PORT" --format json
	expect_rc 0 "doctor $ADDR_B ($1)"
}

server_in_b()
{
	IBGAP=$(wrap "$NS_B" "${1:-}")
	IG_SRV_BIND=$ADDR_B ig_start_server
}

remote_ids='r = d["hosts"][1]
rid = [f["id"] for f in r.get("findings", [])]
lid = [f["id"] for f in d["hosts"][0]["findings"]]
layers = ("qdisc.shaper", "filter.rules", "filter.conntrack")'

# first without them (the namespace is new: no conntrack entry either;
# entries outlive the rules that made them)
server_in_b
doctor clean
ig_json_check "$TMP/clean.out" "remote doctor, no shaper, no filter" <<PY
$remote_ids
for i in layers:
    check(i not in rid, "the remote host names %s with none planted: %r" % (i, rid))
PY

plant
doctor planted
ig_json_check "$TMP/planted.out" "remote doctor, shaper and filter" <<PY
$remote_ids
for i in layers:
    check(i in rid, "the remote host does not name %s: %r" % (i, rid))
    check(i not in lid, "this host names %s: %r" % (i, lid))
sh = [f for f in r.get("findings", []) if f["id"] == "qdisc.shaper"]
if sh:
    ch = sh[0].get("trial", {}).get("changes", [])
    check(len(ch) == 1 and ch[0]["kind"] == "qdisc" and
          ch[0]["dev"] == "$IF_B" and ch[0]["name"] == "root" and
          ch[0]["to"] == "" and
          ch[0].get("cmd") == "tc qdisc del dev $IF_B root",
          "qdisc.shaper's trial %r" % sh[0].get("trial"))
    check("tbf" in sh[0]["evidence"][0]["value"], "evidence %r" % sh[0]["evidence"])
fr = [f for f in r.get("findings", []) if f["id"] == "filter.rules"]
if fr:
    check("not_tried" in fr[0].get("trial", {}), "filter.rules' trial %r" % fr[0].get("trial"))
check(not any(n["layer"] == "filter" for n in r.get("not_examined", [])),
      "a root server could not examine the filter: %r" % r.get("not_examined"))
PY

# the server as nobody: no CAP_NET_ADMIN, the filter not examined
kill -KILL "$SRV_PID" 2>/dev/null
if command -v setpriv >/dev/null; then
	server_in_b "setpriv --reuid=65534 --regid=65534 --clear-groups"
	doctor unprivileged
	ig_json_check "$TMP/unprivileged.out" "remote doctor as nobody" <<'PY'
r = d["hosts"][1]
ne = [n for n in r.get("not_examined", []) if n["layer"] == "filter"]
check(ne and "CAP_NET_ADMIN" in ne[0]["reason"],
      "no 'filter' not examined for want of CAP_NET_ADMIN: %r" %
      r.get("not_examined"))
PY
else
	ig_log "the unprivileged server is not tried: no setpriv"
fi
ig_done
