#!/bin/bash
# fabric_man.sh: ibgap-fabric's man page (docs/man/ibgap-fabric.1.scd) and
# `ibgap-fabric --help` list the same long options: every option of the
# help text has an item under OPTIONS, and the page lists none that the
# help text does not.  --help runs without mpirun (a singleton rank).
#   bash tests/lint/fabric_man.sh /abs/path/to/ibgap-fabric [PAGE.scd]
set -u
FABRIC=${1:?usage: fabric_man.sh IBGAP-FABRIC [PAGE.scd]}
PAGE=${2:-$(dirname "${BASH_SOURCE[0]}")/../../docs/man/ibgap-fabric.1.scd}

h=$(timeout 60 "$FABRIC" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
	grep -oE -- '--[a-z][a-z-]*' | sort -u) ||
	{ echo "FAIL: $FABRIC --help failed"; exit 1; }
m=$(awk '$0 == "# OPTIONS" { on = 1; next } /^# / { on = 0 }
	on && /^\*-/ { print }' "$PAGE" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
if [[ -z $h || -z $m ]]; then
	echo "FAIL: no options found (help: ${h:-none}; man: ${m:-none})"
	exit 1
fi
only_help=$(comm -23 <(echo "$h") <(echo "$m"))
only_man=$(comm -13 <(echo "$h") <(echo "$m"))
fails=0
if [[ -n $only_help ]]; then
	echo "FAIL: ibgap-fabric --help lists what $PAGE lacks:" $only_help
	fails=1
fi
if [[ -n $only_man ]]; then
	echo "FAIL: $PAGE lists what ibgap-fabric --help lacks:" $only_man
	fails=1
fi
((fails)) || echo "ok: $(wc -l <<<"$h") options in both"
exit $fails
