#!/bin/bash
# stop_signals.sh: a signal that stops a run, sent as a terminal sends it
# (to the process group of the job): the run ends early with the partial
# table and the exit status of the signal.
#   - Ctrl-C (SIGINT) on 'ibgap' alone: the partial table, exit 130; also
#     when it was started as a script's background job (SIGINT ignored on
#     entry, as a shell without job control starts one).
#   - SIGTERM (timeout, systemd, kill) does the same as SIGINT on
#     'ibgap client' and 'ibgap' alone: the partial table, a note naming
#     SIGTERM, exit 143.
#   bash tests/integ/stop_signals.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init stop_signals "$@"

# ig_group TAG ibgap-args...: ibgap as a job of its own process group, as
# a shell with job control starts one; GRP = its pid and group id.
ig_group()
{
	local tag=$1

	shift
	set -m
	"$IBGAP" "$@" >"$TMP/$tag.out" 2>"$TMP/$tag.err" &
	GRP=$!
	set +m
	ig_track "$GRP"
}

# expect_partial TAG WHAT: TAG's table has a tcp_bw row and a partial line.
expect_partial()
{
	if grep -qE '^tcp_bw[[:space:]]+tcp[[:space:]]' "$TMP/$1.out"; then
		pass "$2: the table has the tcp_bw row"
	else
		fail "$2: no tcp_bw row on stdout: $(head -c 2000 "$TMP/$1.out")"
	fi
	expect_grep "$TMP/$1.out" "partial:" "$2: the partial line"
}

# 1. 'ibgap' alone (tcp_bw then tcp_lat, 2.5 s each): Ctrl-C after 2 s.
ig_group local
sleep 2
kill -INT -- "-$GRP"
ig_wait_pid "$GRP" 10
expect_rc 130 "ibgap alone after SIGINT to its group ($ELAPSED s)"
expect_partial local "ibgap alone, SIGINT"

# 2. The same as a script's background job: SIGINT ignored on entry.
bash -c 'trap "" INT; exec "$0" >"$1" 2>"$2"' "$IBGAP" \
	"$TMP/bg.out" "$TMP/bg.err" &
BG=$!
ig_track "$BG"
sleep 2
kill -INT "$BG"
ig_wait_pid "$BG" 10
expect_rc 130 "ibgap alone as a background job, after SIGINT ($ELAPSED s)"
expect_partial bg "ibgap alone as a background job, SIGINT"

# 3. SIGTERM to 'ibgap client' during a 10 s tcp_bw, tcp_lat still to come.
IG_SRV_WAITABLE=1 ig_start_server
ig_group term client -p "$SRV_PORT" -t tcp_bw,tcp_lat -D 10 --warmup 0.1 \
	127.0.0.1
sleep 1.5
kill -TERM -- "-$GRP"
ig_wait_pid "$GRP" 10
expect_rc 143 "ibgap client after SIGTERM to its group ($ELAPSED s)"
expect_partial term "ibgap client, SIGTERM"
expect_grep "$TMP/term.out" "interrupted (SIGTERM)" "ibgap client, SIGTERM"
expect_no_grep "$TMP/term.out" "tcp_lat" "ibgap client, SIGTERM"
check "the server still serves after the client's SIGTERM" ig_server_alive

# 4. SIGTERM to 'ibgap' alone.
ig_group lterm
sleep 2
kill -TERM -- "-$GRP"
ig_wait_pid "$GRP" 10
expect_rc 143 "ibgap alone after SIGTERM to its group ($ELAPSED s)"
expect_partial lterm "ibgap alone, SIGTERM"
ig_done
