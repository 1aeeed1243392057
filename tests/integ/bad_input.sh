#!/bin/bash
# bad_input.sh: a bad option value (or server address) exits 2 with
# exactly one line on stderr that names the option and the value as
# typed; nothing on stdout.  A client
# to a port where nothing listens exits 1 with one line within 5 s.
#   bash tests/integ/bad_input.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init bad_input "$@"

# usage_error VALUE NAMES ARGS...: NAMES = '|'-separated spellings of the
# option, one of which the line must contain (empty = do not check).
usage_error()
{
	local value=$1 names=$2 what line ok=1
	local edge='(^|[^0-9A-Za-z])' end='([^0-9A-Za-z]|$)' opt

	shift 2
	what="ibgap $*"
	ig_run 10 usage "$@"
	[[ $RC == 2 ]] || { ok=0; fail "$what: exit code $RC, expected 2"; }
	# read and matched in bash: ~100 cases, each process costs a few ms
	ig_slurp "$TMP/usage.err"
	line=${IG_TEXT%$'\n'}
	if [[ $IG_LINES != 1 ]]; then
		ok=0
		fail "$what: want exactly one line on stderr, got:" \
			"$(head -c 1000 "$TMP/usage.err")"
	fi
	# the value as a whole token, e.g. "'0'" or " 0 ", not "10" (the
	# quoted part of the pattern is matched as it is)
	if ! [[ $line =~ $edge"$value"$end ]]; then
		ok=0
		fail "$what: stderr does not name the value '$value': $line"
	fi
	opt="(^|[^A-Za-z])($names)"
	if [[ -n $names ]] && ! [[ $line =~ $opt ]]; then
		ok=0
		fail "$what: stderr does not name the option ($names): $line"
	fi
	if [[ -s $TMP/usage.out ]]; then
		ok=0
		fail "$what: printed on stdout: $(head -c 500 "$TMP/usage.out")"
	fi
	((ok)) && pass "$what: exit 2, one line: $line"
}

# Each bad client option twice: "client HOST OPTS" (the documented order,
# 'ibgap client HOST [options]') and "client OPTS HOST".
bad_client()
{
	local value=$1 names=$2

	shift 2
	usage_error "$value" "$names" client 127.0.0.1 "$@"
	usage_error "$value" "$names" client "$@" 127.0.0.1
}

bad_client 12Q '-s|--size|size' -s 12Q
bad_client 2G '-s|--size|size' -s 2G
bad_client foo '-t|--tests' -t foo
bad_client 70000 '-p|--port' -p 70000
bad_client abc '-D|--duration' -D abc
bad_client 0 '-D|--duration' -D 0
bad_client 0 '-n|--iterations' -n 0
bad_client 0 '-P|--streams|streams' -P 0
bad_client 1000 '-P|--streams|streams' -P 1000
bad_client xml '--format' --format xml
bad_client 0 '--timeout' --timeout 0
bad_client 5G '--window|window' --window 5G
bad_client 1x2 '--warmup' --warmup 1x2
bad_client --bogus '' --bogus
# only the client sends zero-copy: with -R the server is the sender
bad_client -R '--zerocopy' --zerocopy -R
bad_client -R '--zerocopy' --zerocopy both -R
usage_error frobnicate '' frobnicate
# a server address in a bad form (common/hostport.h): exit 2 naming it
for v in '[::1' '[::1]x' 'host:' 'host:99999' '[name]:1'; do
	usage_error "$v" 'HOST' client -t tcp_lat "$v"
	usage_error "$v" 'HOST' doctor "$v"
	usage_error "$v" '--also' client 127.0.0.1 --also "$v"
done
# the files written at the end are checked before the first test: exit 2
# at once, not after the run
bad_client out.jpg '--plot' --plot out.jpg
bad_client /nonexistent/dir/x.svg '--plot' --plot /nonexistent/dir/x.svg
bad_client /tmp '-o|--output' -o /tmp
bad_client /nonexistent/x.json '--save-baseline' \
	--save-baseline /nonexistent/x.json
# which is wrong, and how to write it
bad_client 1023 '--cpu' --cpu 1023
expect_grep "$TMP/usage.err" "is not a CPU this host lets ibgap run on: allowed" \
	"--cpu 1023 names the CPUs allowed"
usage_error --reverse=1 '--reverse' client 127.0.0.1 --reverse=1
expect_grep "$TMP/usage.err" "--reverse takes no value" "--reverse=1"
usage_error -p '-p' client 127.0.0.1 -p
expect_grep "$TMP/usage.err" "'-p' lacks its value PORT" "-p without a value"
usage_error --strams '' client 127.0.0.1 --strams 2
expect_grep "$TMP/usage.err" "did you mean --streams?" "--strams"
bad_client 1,2,x '-P' -P 1,2,x
expect_grep "$TMP/usage.err" "from 1 to 64 (in the list '1,2,x')" "-P 1,2,x"
bad_client 99999999999999999999 '-s' -s 99999999999999999999
expect_grep "$TMP/usage.err" "is out of range: allowed 1 to 64M" "-s 1e20"
bad_client 64KB '-s' -s 64KB
expect_grep "$TMP/usage.err" "write 64K (K, M and G are powers of two" "64KB"
bad_client 64KiB '-s' -s 64KiB
expect_grep "$TMP/usage.err" "write 64K (K, M and G are powers of two" "64KiB"
bad_client 3:100 '-s' -s 3:100
expect_grep "$TMP/usage.err" "never reaches 100: a sweep doubles from SMALL, so end it at 96 or 192" \
	"-s 3:100"
# an option that would do nothing in this run is refused
bad_client -D '-n' -n 100 -D 1
bad_client tcp_lat '--bidir' --bidir -t tcp_lat
bad_client --tolerance '--baseline' --tolerance 10
bad_client --events 'verbs' --events -t tcp_bw
bad_client --gid-index 'verbs' --gid-index 1 -t tcp_bw,tcp_lat
bad_client tcp_bw,tcp_bw '-t' -t tcp_bw,tcp_bw
bad_client tcp_bw,,tcp_lat '-t' -t tcp_bw,,tcp_lat
bad_client 1,,2 '-P' -P 1,,2
usage_error '[::1]:5000' '-p' client '[::1]:5000' -p 5001
usage_error 'h:5000' '-p' doctor -p 5001 'h:5000'
usage_error 'name:1' '--also' client 127.0.0.1 --also name:1
usage_error '[::1]:5' '-B|bind' server -B '[::1]:5'
usage_error '[::1' '-B|bind' server -B '[::1'
usage_error 0 '-p|--port' server -p 0
usage_error abc '-p|--port' server -p abc
usage_error 0 '--timeout' server --timeout 0
usage_error --bogus '' server --bogus

# Nothing listens: exit 1, one line, within 5 s.
port=
for _ in $(seq 20); do
	p=$(ig_random_port)
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		port=$p
		break
	fi
done
[[ -n $port ]] || die "found no closed port in 20 tries"
ig_run 10 refused client -p "$port" -t tcp_lat -n 10 127.0.0.1
expect_rc 1 "client to closed port $port"
expect_one_line "$TMP/refused.err" "client to closed port $port"
expect_grep "$TMP/refused.err" "$port" "client to closed port"
if awk -v e="$ELAPSED" 'BEGIN { exit !(e <= 5) }'; then
	pass "client to closed port gave up in $ELAPSED s"
else
	fail "client to closed port took $ELAPSED s, want <= 5"
fi
ig_done
