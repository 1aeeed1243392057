#!/bin/bash
# doctor_fixtures.sh: tests/data/doctor/mkfixtures.sh reproduces the
# committed fixture trees exactly: it writes them into a temporary folder,
# which must hold the same files, symlinks (same targets) and contents as
# tests/data/doctor/.  Names every file that differs.
#   bash tests/lint/doctor_fixtures.sh [tests/data/doctor]
set -u
DATA=${1:-$(dirname "${BASH_SOURCE[0]}")/../data/doctor}
DATA=$(cd "$DATA" && pwd) || exit 1
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

if ! bash "$DATA/mkfixtures.sh" "$TMP" >"$TMP.log" 2>&1; then
	echo "FAIL: $DATA/mkfixtures.sh $TMP failed:"
	cat "$TMP.log"
	rm -f "$TMP.log"
	exit 1
fi
rm -f "$TMP.log"

# One line per entry: its kind and, for a symlink, its target.
listing()
{
	(cd "$1" && find . -mindepth 1 ! -name mkfixtures.sh \
		-printf '%y %p %l\n' | LC_ALL=C sort)
}

fails=0
while read -r line; do
	echo "FAIL: differs from what mkfixtures.sh writes: $line"
	fails=1
done < <(LC_ALL=C comm -3 <(listing "$DATA") <(listing "$TMP") |
	sed -e 's/^\t/only written by mkfixtures.sh: /' \
		-e '/^only written/!s/^/only committed: /')
# the contents: one diff over both trees (a cmp per file took 20 s of a
# loaded CI machine); its "Files A and B differ" lines name the files
while read -r f; do
	echo "FAIL: $f: committed content differs from mkfixtures.sh's"
	diff -u "$DATA/$f" "$TMP/$f" | head -20
	fails=1
done < <(LC_ALL=C diff -rq --no-dereference -x mkfixtures.sh "$DATA" "$TMP" |
	sed -n "s|^Files $DATA/\(.*\) and $TMP/.* differ\$|\1|p")
((fails)) && exit 1
echo "ok: mkfixtures.sh reproduces $(cd "$TMP" && find . -type f | wc -l) files of tests/data/doctor"
