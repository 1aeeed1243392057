#!/bin/bash
# completion.sh: dist/completion/ibgap completes what the binary offers:
# the commands, `ibgap client --<TAB>` every option of `client --help`,
# `-t` the test names (and after a comma), `--format` the formats, and
# `server --<TAB>` the server's options only.  Needs bash-completion (77
# when it is not installed).
#   bash tests/lint/completion.sh /abs/path/to/ibgap
set -u
IBGAP=${1:?usage: completion.sh IBGAP}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BC=/usr/share/bash-completion/bash_completion
[[ -r $BC ]] || { echo "skipped: $BC not installed (apt-get install bash-completion)"; exit 77; }
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
ln -s "$IBGAP" "$BIN/ibgap"
PATH=$BIN:$PATH
# shellcheck disable=SC1090
source "$BC"
# shellcheck disable=SC1091
source "$SRC/dist/completion/ibgap"
fails=0

# comp LINE: COMPREPLY for the cursor at the end of LINE.
comp() {
	COMP_LINE=$1
	COMP_POINT=${#1}
	read -ra COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ibgap ibgap "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

has() { # has WHAT LINE WORD...
	local what=$1 line=$2 out w
	shift 2
	out=$(comp "$line")
	for w in "$@"; do
		if ! grep -qxF -- "$w" <<<"$out"; then
			echo "FAIL: $what: '$line<TAB>' does not offer $w (offers: $(echo $out))"
			fails=$((fails + 1))
			return
		fi
	done
	echo "ok: $what"
}

lacks() { # lacks WHAT LINE WORD
	if grep -qxF -- "$3" <<<"$(comp "$2")"; then
		echo "FAIL: $1: '$2<TAB>' offers $3"
		fails=$((fails + 1))
	else
		echo "ok: $1"
	fi
}

has "commands" "ibgap " server client diff doctor version
has "client options" "ibgap client --" $("$IBGAP" client --help |
	grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+')
has "client's --w" "ibgap client --w" --window --warmup
lacks "server options are the server's" "ibgap server --" --window
has "server options" "ibgap server --" --bind --once --auth-file \
	--allow-try --journal
has "test names" "ibgap client h -t " tcp_bw tcp_lat send_bw write_bw all
has "test names after a comma" "ibgap client h -t tcp_bw,s" tcp_bw,send_bw tcp_bw,send_lat
has "formats" "ibgap client h --format " text json csv
has "doctor formats" "ibgap doctor --format " text json
lacks "doctor has no csv" "ibgap doctor --format " csv
exit $((fails > 0))
