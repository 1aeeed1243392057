#!/bin/bash
# runs each named test with an xtrace stamped by EPOCHREALTIME (to its own
# fd); prints the test's time, its time by command name and its slowest
# traced commands
IB=$1; shift
for t in "$@"; do
	s=$EPOCHREALTIME
	exec 9>/tmp/x-$t.trace
	bash -c 'PS4='"'"'+${EPOCHREALTIME} ${BASH_SOURCE##*/}:${LINENO} '"'"'; BASH_XTRACEFD=9; set -x; . "$0" "$@"' /work/main/tests/rxe/$t.sh "$IB" >/tmp/x-$t.out 2>&1
	echo "== $t rc=$? $(echo "$EPOCHREALTIME - $s" | bc) s"
	exec 9>&-
	grep -a '^+*[0-9]*\.[0-9]* ' /tmp/x-$t.trace | sed 's/^+*//' | awk 'NR>1 {printf "%.3f %s\n", $1-pt, pl} {pt=$1; $1=""; pl=substr($0,1,160)}' >/tmp/x-$t.d
	awk '{c=$3; if (c=="timeout") c=c" "$6" "$7; n[c]++; s[c]+=$1} END {for (c in s) printf "%7.2f s %4d x %s\n", s[c], n[c], c}' /tmp/x-$t.d | sort -rn | head -${N:-8}
done
