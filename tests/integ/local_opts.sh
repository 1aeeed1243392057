#!/bin/bash
# local_opts.sh: 'ibgap' alone takes the client's test options ('ibgap -D
# 0.3', the local run against a server of its own); a HOST word, -p,
# --also and --auth-file (which name a server elsewhere) and bad values are
# exit 2 with one line; '--help' lists the options.
#   bash tests/integ/local_opts.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init local_opts "$@"

ig_run 30 lat -t tcp_lat -D 0.3 --warmup 0.1 --format json
expect_rc 0 "ibgap -t tcp_lat -D 0.3 --warmup 0.1 --format json"
ig_json_check "$TMP/lat.out" "ibgap -t tcp_lat -D 0.3" <<'PY'
r = d["results"]
check([x["test"] for x in r] == ["tcp_lat"], "tests %r" % [x["test"] for x in r])
check(0.2 < r[0]["seconds"] < 1.5, "seconds %.3f: -D 0.3" % r[0]["seconds"])
PY

# bad: exit 2, one line naming the value, nothing on stdout
bad()
{
	local what=$1

	shift
	ig_run 10 bad "$@"
	expect_rc 2 "ibgap $*"
	expect_one_line "$TMP/bad.err" "ibgap $*" &&
		expect_grep "$TMP/bad.err" "$what" "ibgap $*"
	check "ibgap $*: nothing on stdout" test ! -s "$TMP/bad.out"
}
bad "-p: the local run" -D 0.3 -p 5000
bad "--also: the local run" -D 0.3 --also 127.0.0.2
bad "--auth-file: the local run" --auth-file /etc/hostname
bad "'127.0.0.1': the local run" -D 0.3 127.0.0.1
bad "-D" -D 0
bad "unknown command 'clinet'" clinet

ig_run 10 help -D 0.3 --help
expect_rc 0 "ibgap -D 0.3 --help"
expect_grep "$TMP/help.out" "usage: ibgap [options]" "ibgap -D 0.3 --help"
expect_grep "$TMP/help.out" "--duration" "ibgap -D 0.3 --help"
ig_run 10 mainhelp --help
expect_grep "$TMP/mainhelp.out" "ibgap [options]" "ibgap --help"
ig_done
