#!/bin/bash
# progress.sh: a client run whose stderr is a terminal shows a progress
# line (plan position, time elapsed, an estimate of what is left), rewritten
# in place and cleared at the end; with stderr not a terminal, none.
#   bash tests/integ/progress.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init progress "$@"
command -v script >/dev/null || {
	ig_log "SKIP: no script(1) to give the client a terminal"
	exit 77
}
ig_start_server

topts=(-t tcp_bw,tcp_lat -s 4K,64K -D 0.3 --warmup 0.1)
args=(client -p "$SRV_PORT" "${topts[@]}" 127.0.0.1)
# stderr on a pseudo-terminal (script(1)), stdout to a file
SHELL=/bin/bash timeout -k 2 60 script -qfec \
	"$(printf '%q ' "$IBGAP" "${args[@]}") 2>&1 >$TMP/tty.out" \
	"$TMP/tty.log" </dev/null >/dev/null 2>&1
RC=$?
expect_rc 0 "the client with stderr on a terminal"
expect_grep "$TMP/tty.log" "[1/4] tcp_bw 4K" "the progress line's position"
expect_grep "$TMP/tty.log" "[4/4] tcp_lat 64K" "the last position"
re='\[[234]/4\] [a-z_]+ [0-9A-Z]+  [0-9]+:[0-9]{2} elapsed, '
if grep -aqE "${re}about [0-9]+:[0-9]{2} left" "$TMP/tty.log"; then
	pass "the progress line has the time elapsed and an estimate"
else
	fail "no 'M:SS elapsed, about M:SS left' in: $(cat -v "$TMP/tty.log")"
fi
# after the last progress line, the line is cleared (script(1) may add a
# trailer of its own after that)
if python3 -c '
import sys
t = open(sys.argv[1], "rb").read()
i = t.rfind(b" elapsed")
sys.exit(not (i >= 0 and t.find(b"\r\x1b[K", i) > i))' "$TMP/tty.log"; then
	pass "the progress line is cleared at the end"
else
	fail "the progress line is not cleared: $(tail -c 200 "$TMP/tty.log" |
		cat -v)"
fi
expect_grep "$TMP/tty.out" "tcp_lat" "the table on stdout"

ig_client 60 notty "${topts[@]}"
expect_client_ok notty "the client with stderr not a terminal"
expect_no_grep "$TMP/notty.err" "elapsed" "no progress line off a terminal"
ig_done
