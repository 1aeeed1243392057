#!/bin/bash
# t_doctor.sh: on a real rxe device, "ibgap doctor" maps the address to
# its netdev and the RDMA device behind it, on both ends:
#   IG_RDMA_ADDR -> veth0 (the netdev holding the address) -> IG_RDMA_DEV
#   port 1, kind "roce" (found through the GID table's gid_attrs/ndevs),
# in the client's own view and in the server's (DOCTOR/FINDINGS); the
# device is reported as software (rdma.soft); with no HOST the doctor
# finds the same netdev and device by itself.
#   tests/rxe/rxe-run bash tests/rxe/t_doctor.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).  About 20 s in QEMU.
# jq programs in single quotes: their $names are jq's
# shellcheck disable=SC2016
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_doctor 180 "$@"

# The netdev that holds IG_RDMA_ADDR (veth0 in the guest, ig_veth0 in
# modprobe mode), from iproute2 rather than from ibgap.
NETDEV=
while read -r _ dev fam addr _; do
	[[ $fam == inet && ${addr%/*} == "$IG_RDMA_ADDR" ]] && NETDEV=$dev
done <<<"$(ip -o -4 addr show)" # (no /dev/fd for <(...) in the guest)
[[ -n $NETDEV ]] || die "no netdev holds $IG_RDMA_ADDR: $(ip -o -4 addr show)"
rx_log "expecting $IG_RDMA_ADDR -> $NETDEV -> $IG_RDMA_DEV port 1"

# path_ok ROLE: the host object of ROLE maps the address as expected.
JQ_PATH='
def path_ok($role; $nd; $addr):
	(.hosts[] | select(.role == $role)) as $h |
	($h.paths[0] // {}) as $p |
	chk($p.address == $addr; "\($role): address \($p.address | tojson), want \($addr)"),
	chk($p.netdev == $nd; "\($role): netdev \($p.netdev | tojson), want \($nd)"),
	chk($p.kind == "roce"; "\($role): kind \($p.kind | tojson), want roce"),
	chk($p.rdma.device == $dev; "\($role): rdma.device \($p.rdma.device | tojson), want \($dev)"),
	chk($p.rdma.port == 1; "\($role): rdma.port \($p.rdma.port | tojson), want 1"),
	chk($p.rdma.link_layer == "Ethernet"; "\($role): link_layer \($p.rdma.link_layer | tojson)"),
	chk([$h.findings[].id] | index(["rdma.soft"]) != null;
	    "\($role): no rdma.soft finding in \([$h.findings[].id] | tojson)"),
	chk([$h.findings[] | select(.severity == "crit")] == [];
	    "\($role): crit findings \([$h.findings[] | select(.severity == "crit") | .id] | tojson)");
'

rx_start_server
rx_run 120 both "$IBGAP" doctor "$IG_RDMA_ADDR" -p "$SRV_PORT" \
	--format json
expect_rc 0 "doctor $IG_RDMA_ADDR -p PORT"
rx_jq "$TMP/both.out" "doctor $IG_RDMA_ADDR (both ends)" \
	"$JQ_PATH"'
	chk(.schema == "ibgap-doctor/1"; "schema \(.schema | tojson)"),
	chk([.hosts[].role] == ["local", "remote"]; "roles \([.hosts[].role] | tojson)"),
	chk((.hosts[1].error // null) == null; "remote error \(.hosts[1].error | tojson)"),
	path_ok("local"; $nd; $addr), path_ok("remote"; $nd; $addr),
	# the client gave one of its own addresses: TCP loops through lo
	chk([.hosts[0].findings[].id] | index(["route.local"]) != null;
	    "local: no route.local finding"),
	chk(.hosts[1].paths[0].route_type == "local";
	    "remote: route_type \(.hosts[1].paths[0].route_type | tojson)")' \
	--arg nd "$NETDEV" --arg addr "$IG_RDMA_ADDR"
check "server alive after the doctor" rx_server_alive

# no HOST: every RDMA netdev of this host, ours among them
rx_run 120 alone "$IBGAP" doctor --format json
expect_rc 0 "doctor (no HOST)"
rx_jq "$TMP/alone.out" "doctor (no HOST)" '
	[.hosts[0].paths[] | select(.netdev == $nd)] as $p |
	chk(($p | length) == 1; "no path for \($nd) in \(.hosts[0].paths | tojson)"),
	chk($p[0].rdma.device == $dev and $p[0].rdma.port == 1 and
	    $p[0].kind == "roce";
	    "\($nd) maps to \($p[0].rdma | tojson), want \($dev) port 1")' \
	--arg nd "$NETDEV"
rx_done
