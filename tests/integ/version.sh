#!/bin/bash
# version.sh: 'ibgap version' prints four lines: ibgap's version and the
# git revision it was built from (the source tree's HEAD when the tree is
# a git checkout), then the rdma-core, json-c and OpenSSL versions it runs
# with, each as the installed packages say when dpkg knows them.
#   bash tests/integ/version.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init version "$@"

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ig_run 10 v version
expect_rc 0 "ibgap version"
mapfile -t L <"$TMP/v.out"
check "four lines" test "${#L[@]}" -eq 4
check "line 1 names ibgap and its git revision: '${L[0]}'" \
	grep -qE '^ibgap [0-9]+\.[0-9]+\.[0-9]+ \(git [^ ]+\)$' "$TMP/v.out"
if head=$(git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null) &&
	[[ $IBGAP == "$SRC"/* ]]; then
	expect_grep "$TMP/v.out" "(git $head" "the revision is HEAD ($head)"
else
	ig_log "not checking the revision: $IBGAP is not built from $SRC's git tree"
fi
# dpkg's upstream version: 44.0-2 -> 44.0, 0.16-2 -> 0.16, 3.0.11-1~deb12u2 -> 3.0.11
pkgver() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null | sed 's/^[0-9]*://; s/-[^-]*$//'; }
want() {
	local label=$1 pkg=$2 line=$3 v

	v=$(pkgver "$pkg")
	if [[ -z $v ]]; then
		ig_log "not comparing $label with dpkg: $pkg is not known to dpkg"
		check "$label is named: '$line'" test -n "$line"
		return
	fi
	check "$label is $v, as dpkg says of $pkg: '$line'" \
		grep -qF "$v" <<<"$line"
}
check "line 2 is rdma-core: '${L[1]}'" grep -q '^rdma-core [0-9]' <<<"${L[1]}"
want "rdma-core" libibverbs1 "${L[1]}"
check "line 3 is json-c: '${L[2]}'" grep -q '^json-c [0-9]' <<<"${L[2]}"
want "json-c" "$(dpkg-query -W -f '${Package}\n' 'libjson-c[0-9]*' 2>/dev/null | head -1)" "${L[2]}"
check "line 4 is OpenSSL: '${L[3]}'" grep -q '^OpenSSL [0-9]' <<<"${L[3]}"
want "OpenSSL" libssl3 "${L[3]}"
ig_run 10 vv --version
check "--version prints the same" cmp -s "$TMP/v.out" "$TMP/vv.out"
ig_done
