#!/bin/bash
# t_package.sh: the Debian packages, built from the committed tree
# (scripts/package), install with apt-get (so a missing Depends fails),
# work installed, and go away on purge:
# - ibgap's Depends has no MPI; ibgap-fabric's has it;
# - `ibgap version` names this tree's revision; `man -w ibgap` finds the
#   page; the completion is where bash-completion loads it;
# - the units pass `systemd-analyze verify`; the postinst made the
#   server's secret (/etc/ibgap/auth.key, mode 600, 64 hex digits);
# - the installed `ibgap` runs its loopback comparison (exit 0);
# - purge removes the binary, the units and the secret.
# Root only (it installs packages): run by .ci/run, not by ctest.
#   bash tests/pkg/t_package.sh
set -uo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fails=0
ok() { echo "t_package: ok: $*"; }
bad() { echo "t_package: FAIL: $*"; fails=$((fails + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

[[ $(id -u) == 0 ]] || { echo "t_package: skipped: not root"; exit 77; }
DEBS=$(mktemp -d)
trap 'apt-get purge -y -q ibgap ibgap-fabric >/dev/null 2>&1; rm -rf "$DEBS"' EXIT
# IG_PKG_DEBS: a folder of packages scripts/package built from this tree
# already (.ci/run's prebuild); else they are built here
if [[ -n ${IG_PKG_DEBS:-} ]] && ls "$IG_PKG_DEBS"/ibgap_*.deb >/dev/null 2>&1; then
	cp "$IG_PKG_DEBS"/*.deb "$DEBS"/ && ok "the packages built beforehand ($IG_PKG_DEBS)"
else
	"$SRC/scripts/package" -o "$DEBS" || { echo "t_package: FAIL: scripts/package"; exit 1; }
fi
main=$(ls "$DEBS"/ibgap_*.deb) && fab=$(ls "$DEBS"/ibgap-fabric_*.deb) ||
	{ echo "t_package: FAIL: no ibgap_*.deb or ibgap-fabric_*.deb in $DEBS"; exit 1; }
dep=$(dpkg-deb -f "$main" Depends)
check "ibgap's Depends has no MPI: $dep" bash -c "! grep -qi mpi <<<'$dep'"
check "ibgap's Depends has rdma-core's libraries" grep -q libibverbs1 <<<"$dep"
check "ibgap-fabric's Depends has MPI" grep -qi mpi <<<"$(dpkg-deb -f "$fab" Depends)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "$main" "$fab" >"$DEBS/install.log" 2>&1 ||
	{ tail -20 "$DEBS/install.log"; echo "t_package: FAIL: apt-get install"; exit 1; }
ok "apt-get install ./ibgap_*.deb ./ibgap-fabric_*.deb"

check "ibgap is /usr/bin/ibgap" test "$(command -v ibgap)" = /usr/bin/ibgap
rev=$(git -C "$SRC" rev-parse --short=12 HEAD)
check "ibgap version names $rev" grep -q "(git $rev" <<<"$(ibgap version)"
check "man -w ibgap finds the page" test -n "$(man -w ibgap 2>/dev/null)"
check "the page has the client's options" grep -q -- '--baseline' <<<"$(MANWIDTH=200 man ibgap 2>/dev/null)"
check "completion installed" test -r /usr/share/bash-completion/completions/ibgap
check "ibgap-fabric installed" test -x /usr/bin/ibgap-fabric
check "man -w ibgap-fabric finds its page" test -n "$(man -w ibgap-fabric 2>/dev/null)"
for u in ibgap-server.service ibgap-server@18516.service; do
	out=$(systemd-analyze verify "$u" 2>&1)
	if [[ -z $out ]]; then ok "systemd-analyze verify $u"; else bad "systemd-analyze verify $u: $out"; fi
done
check "unit not enabled" bash -c "! systemctl is-enabled ibgap-server.service 2>/dev/null | grep -qx enabled"
key=/etc/ibgap/auth.key
check "postinst made $key, mode 600" test "$(stat -c %a "$key" 2>/dev/null)" = 600
check "$key holds 64 hex digits" grep -qxE '[0-9a-f]{64}' "$key"
out=$(cd /tmp && timeout 120 ibgap 2>&1)
rc=$?
check "the installed ibgap's loopback comparison (exit $rc)" test "$rc" = 0
check "it printed tcp_bw" grep -q '^tcp_bw' <<<"$out"
apt-get purge -y -q ibgap ibgap-fabric >/dev/null 2>&1
check "purge removed /usr/bin/ibgap" test ! -e /usr/bin/ibgap
check "purge removed the units" test ! -e /lib/systemd/system/ibgap-server.service
check "purge removed the secret" test ! -e "$key"
((fails)) && { echo "t_package: $fails check(s) failed"; exit 1; }
echo "t_package: all checks passed"
