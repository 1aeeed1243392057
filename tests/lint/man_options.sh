#!/bin/bash
# man_options.sh: the man page (docs/man/ibgap.1.scd) and `ibgap COMMAND
# --help` list the same options, command by command: every option of the
# help text has its item in the man page's section for that command, and
# the man page lists none that the help text does not.
#   bash tests/lint/man_options.sh /abs/path/to/ibgap [docs/man/ibgap.1.scd]
set -u
IBGAP=${1:?usage: man_options.sh IBGAP [PAGE.scd]}
PAGE=${2:-$(dirname "${BASH_SOURCE[0]}")/../../docs/man/ibgap.1.scd}
fails=0

# The long options that start a line of `ibgap CMD --help`.
help_opts() {
	"$IBGAP" "$1" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
		grep -oE -- '--[a-z][a-z-]*' | sort -u
}

# The long options of the man page's items in section "# TITLE".
man_opts() {
	awk -v t="# $1" '$0 == t { on = 1; next } /^# / { on = 0 }
		on && /^\*-/ { print }' "$PAGE" |
		grep -oE -- '--[a-z][a-z-]*' | sort -u
}

for cmd in client server doctor; do
	title="$(tr a-z A-Z <<<"$cmd") OPTIONS"
	h=$(help_opts "$cmd") || { echo "FAIL: $IBGAP $cmd --help failed"; exit 1; }
	m=$(man_opts "$title")
	if [[ -z $h || -z $m ]]; then
		echo "FAIL: $cmd: no options found (help: ${h:-none}; man section '$title': ${m:-none})"
		fails=$((fails + 1))
		continue
	fi
	only_help=$(comm -23 <(echo "$h") <(echo "$m"))
	only_man=$(comm -13 <(echo "$h") <(echo "$m"))
	if [[ -n $only_help ]]; then
		echo "FAIL: $cmd --help lists what $PAGE's '$title' lacks:" $only_help
		fails=$((fails + 1))
	fi
	if [[ -n $only_man ]]; then
		echo "FAIL: $PAGE's '$title' lists what $cmd --help lacks:" $only_man
		fails=$((fails + 1))
	fi
	((fails)) || echo "ok: $cmd: $(wc -l <<<"$h") options in both"
done
# the subcommands of `ibgap --help` each have their item under COMMANDS
for c in $("$IBGAP" --help | grep -oE '^ *(usage:)? *ibgap [a-z]+' | awk '{print $NF}' | sort -u); do
	if awk '$0 == "# COMMANDS" { on = 1; next } /^# / { on = 0 } on' "$PAGE" |
		grep -qE "^\*$c\*"; then
		echo "ok: command $c has its item"
	else
		echo "FAIL: command $c of 'ibgap --help' has no item under COMMANDS in $PAGE"
		fails=$((fails + 1))
	fi
done
exit $((fails > 0))
