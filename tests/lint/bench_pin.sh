#!/bin/bash
# bench_pin.sh: the benchmarks' --pin C:S, parsed without a guest: a good
# value is taken, a bad one refused with exit 2 and one line naming it.
#   bash tests/lint/bench_pin.sh
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fails=0

# refuse WHAT WANT-IN-MESSAGE CMD...: exit 2, one line holding WANT
refuse() {
	local what=$1 want=$2 out rc=0

	shift 2
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	if ((rc == 2)) && [[ $out == *"$want"* ]] &&
		(($(wc -l <<<"$out") == 1)); then
		echo "ok: $what"
	else
		echo "FAIL: $what: exit $rc, want 2 and one line with '$want':"
		echo "$out"
		fails=$((fails + 1))
	fi
}

G=$SRC/bench/verbs_vs_perftest.guest.sh
if out=$(bash "$G" -b "$(type -P true)" --pin 0:1 --check 2>&1) && [[ $out == rounds=5 ]]; then
	echo "ok: verbs_vs_perftest.guest.sh --pin 0:1 taken"
else
	echo "FAIL: verbs_vs_perftest.guest.sh --pin 0:1: $out"
	fails=$((fails + 1))
fi
refuse "guest script: --pin without a server CPU" "--pin '0': want CLIENT:SERVER" \
	bash "$G" -b "$(type -P true)" --pin 0 --check
refuse "guest script: a CPU that is not a number" "server CPU wants an integer in 0..4095, not 'x'" \
	bash "$G" -b "$(type -P true)" --pin 0:x --check
refuse "guest script: --pin with --lat-pin" "--pin and --lat-pin: give one of them" \
	bash "$G" -b "$(type -P true)" --pin 0:1 --lat-pin 0 --check
refuse "rs_vs_rstream.sh: a bad --pin" "--pin '1-2': want CLIENT:SERVER" \
	bash "$SRC/bench/rs_vs_rstream.sh" --pin 1-2 3
refuse "peers: a bad --pin" "--pin ':1': want CLIENT:SERVER" \
	bash "$SRC/bench/peers" --pin :1
((fails == 0)) && echo "bench_pin: all checks passed"
exit $((fails > 0))
