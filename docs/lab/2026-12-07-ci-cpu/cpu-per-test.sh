#!/bin/bash
# cpu-per-test.sh BUILD_DIR [ctest -R regex]: each host test alone, its
# wall time and the machine's busy CPU seconds over it (/proc/stat)
cd "$1" || exit 1
busy() { awk '/^cpu /{print ($2+$3+$4+$7+$8)/100}' /proc/stat; }
ctest -N -LE '^(rdma|twohost)$' ${2:+-R "$2"} | sed -n 's/^ *Test *#[0-9]*: //p' | while read -r t; do
	b0=$(busy); s=$EPOCHREALTIME
	ctest -R "^${t}\$" >/dev/null 2>&1 </dev/null; rc=$?
	printf '%7.1f %6.1f %s rc=%s\n' "$(echo "$(busy) - $b0" | bc)" "$(echo "$EPOCHREALTIME - $s" | bc)" "$t" "$rc"
done
