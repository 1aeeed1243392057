#!/bin/bash
# t_fabric.sh: ibgap-fabric on a cluster of six network namespaces (one
# MPI rank each, tests/fabric/cluster.sh.inc), TCP only (no RDMA there):
# - bad options: exit 2 and the one line, printed once (rank 0);
# - pairs: every pair once in 5 rounds of 3, the JSON says so, each
#   measurement ok; the file of -o is there after the run;
# - node 3 made slow (tbf) and node 2 delayed (netem): exactly those two
#   flagged, node 3 for its bandwidth, node 2 for its latency, both "TCP
#   low alone", and the text names them first; the flagged measurements
#   were measured again;
# - ring --rounds 2, bisection and incast: the pairs each pattern makes;
# - --save-baseline, then --baseline of a run with node 3 slow: exit 1
#   and a regression line naming node 3; --plot writes an SVG.
# Skipped (77) without root, ip netns, mpirun or jq.
#   bash tests/fabric/t_fabric.sh /abs/path/to/ibgap-fabric
# shellcheck disable=SC2015 # "cond && pass || fail": pass never fails
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 1
# shellcheck source=tests/integ/lib.sh.inc
source "$here/../integ/lib.sh.inc" || exit 1
# shellcheck source=tests/fabric/cluster.sh.inc
source "$here/cluster.sh.inc" || exit 1
# shellcheck disable=SC2034 # ig_init's watchdog
IG_LIMIT=${IG_LIMIT_FABRIC:-280}
ig_init fabric "$@"
FABRIC=$IBGAP
command -v jq >/dev/null || fc_skip "jq is not installed"
# Open MPI's own allocations are not ours to judge (ASan builds)
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
QUICK=(-D 0.5 --warmup 0.1 --timeout 5)

fc_up 6 fabric

# fab RC_WANT TAG ARGS...: ibgap-fabric on the six nodes; RC, TAG.out/.err
fab()
{
	local want=$1 tag=$2

	shift 2
	RC=0
	fc_mpirun 6 "$FABRIC" "$@" >"$TMP/$tag.out" 2>"$TMP/$tag.err" ||
		RC=$?
	expect_rc "$want" "$tag: ibgap-fabric $*" ||
		ig_log "stderr: $(head -c 3000 "$TMP/$tag.err")"
}

# jqc FILE FILTER: the filter's output (compact).
jqc()
{
	jq -c "$2" "$1" 2>&1
}

# ------------------------------------------------------------ bad options
fab 2 badpat --pattern mesh
n=$(grep -c "^ibgap-fabric: --pattern: 'mesh' is not a pattern: allowed pairs, ring, bisection, incast$" "$TMP/badpat.err")
[[ $n == 1 ]] && pass "bad --pattern: its line once" ||
	fail "bad --pattern: the line $n times: $(cat "$TMP/badpat.err")"
fab 2 badroot --pattern incast --root 6
expect_grep "$TMP/badroot.err" "--root: '6' is not a rank: allowed 0 to 5" \
	"--root 6 of 6 ranks"
fab 2 badsize -s 0
expect_grep "$TMP/badsize.err" "-s: '0' in '0' is out of range" "-s 0"

# ------------------------------------------------------- a clean fabric
fab 0 clean "${QUICK[@]}" --bw-tol 0.3 --lat-tol 5 --format json \
	-o "$TMP/clean.json"
check "clean: -o written" test -s "$TMP/clean.json"
check "clean: stdout empty with -o" test ! -s "$TMP/clean.out"
got=$(jqc "$TMP/clean.json" '[.schema, .pattern, .ranks, .rounds_done,
	(.nodes | length), (.pairs | length),
	([.pairs[] | select(.ok)] | length),
	([.pairs[] | [.a, .b] | sort | tostring] | unique | length),
	([.pairs[] | .test] | unique)]')
want='["ibgap-fabric/1","pairs",6,5,6,30,30,15,["tcp_bw","tcp_lat"]]'
[[ $got == "$want" ]] && pass "clean: 15 pairs x 2 tests, all ok" ||
	fail "clean: got $got, want $want"
got=$(jqc "$TMP/clean.json" '[.pairs | group_by(.round)[] |
	[.[] | .a, .b] | length == (unique | length) * 2] | all')
[[ $got == true ]] && pass "clean: within a round no rank twice" ||
	fail "clean: a rank in two pairs of one round"
got=$(jqc "$TMP/clean.json" '[.nodes[] | .addr]')
want=$(printf '"%s",' "${FC_ADDRS[@]}")
[[ $got == "[${want%,}]" ]] && pass "clean: each rank its node's address" ||
	fail "clean: addresses $got, want [${want%,}]"

# ---------------------------------------------- node 3 slow, node 2 late
fc_slow 3 100mbit
fc_have_netem && fc_delay 2 20
fab 0 bad "${QUICK[@]}" -o "$TMP/bad.txt"
fab 0 badjson "${QUICK[@]}" --format json -o "$TMP/bad.json" \
	--plot "$TMP/bad.svg"
got=$(jqc "$TMP/bad.json" '[.nodes[] | select(.flagged) | .rank]')
want='[1,2]'
fc_have_netem || want='[2]'
[[ $got == "$want" ]] && pass "planted: flagged ranks $got" ||
	fail "planted: flagged ranks $got, want $want: $(cat "$TMP/bad.txt")"
got=$(jqc "$TMP/bad.json" '[.nodes[2].reasons[0],
	([.pairs[] | select(.flagged) | select(.a == 2 or .b == 2) | .test]
	 | unique)]')
[[ $got == '["5 of its 10 measurements flagged: TCP low alone: the IP stack (run the doctor)",["tcp_bw"]]' ||
	$got == *'TCP low alone'*'"tcp_bw"'* ]] &&
	pass "planted: node 3 low in tcp_bw, TCP alone" ||
	fail "planted: node 3: $got"
if fc_have_netem; then
	got=$(jqc "$TMP/bad.json" '[.pairs[] | select(.flagged) |
		select(.test == "tcp_lat") | [.a, .b] | index(1) != null] | all')
	[[ $got == true ]] && pass "planted: every flagged tcp_lat has node 2" ||
		fail "planted: flagged tcp_lat without node 2: $got"
fi
got=$(jqc "$TMP/bad.json" '[.pairs[] | select(.flagged) | .retest.ok] | all')
[[ $got == true ]] && pass "planted: flagged ones measured again" ||
	fail "planted: retests: $got"
head -n 20 "$TMP/bad.txt" | grep -A1 '^nodes, worst first:' | tail -n 1 |
	grep -qE "^  [12] +${FC_NS[2]}|^  [12] +${FC_NS[1]}" &&
	pass "planted: the text names a planted node first" ||
	fail "planted: text: $(head -n 20 "$TMP/bad.txt")"
expect_grep "$TMP/bad.txt" "TCP low alone" "planted: text"
check "planted: --plot wrote an SVG" grep -q '<svg' "$TMP/bad.svg"

# ------------------------------------------------------------ baselines
fc_clear 2
fc_clear 3
fab 0 base "${QUICK[@]}" --no-retest --save-baseline "$TMP/base.json" \
	-o "$TMP/base.txt"
check "baseline saved" test -s "$TMP/base.json"
fc_slow 3 100mbit
fab 1 regress "${QUICK[@]}" --no-retest --baseline "$TMP/base.json" \
	--tolerance 30
expect_grep "$TMP/regress.out" "regression: node ${FC_NS[2]} tcp_bw" \
	"--baseline: node 3's regression"
fc_clear 3
fab 3 nobase "${QUICK[@]}" --baseline "$TMP/nonexistent.json"
expect_grep "$TMP/nobase.err" "--baseline: cannot read" "missing --baseline"

# -------------------------------------------------------------- patterns
QUICK=(-D 0.3 --warmup 0.05 --timeout 5 -t tcp_bw --format json)
fab 0 ring "${QUICK[@]}" --pattern ring --rounds 2 -o "$TMP/ring.json"
got=$(jqc "$TMP/ring.json" '[.rounds, ([.pairs[] | [.round, .a, .b]]
	| sort | map(tostring) | join(" "))]')
want='[2,"[0,0,1] [0,1,2] [0,2,3] [0,3,4] [0,4,5] [0,5,0] [1,0,2] [1,1,3] [1,2,4] [1,3,5] [1,4,0] [1,5,1]"]'
[[ $got == "$want" ]] && pass "ring --rounds 2: shifts 1 and 2" ||
	fail "ring: $got"
fab 0 bisect "${QUICK[@]}" --pattern bisection -o "$TMP/bisect.json"
got=$(jqc "$TMP/bisect.json" '[.pairs[] | [.a, .b]] | sort')
[[ $got == '[[0,3],[1,4],[2,5]]' ]] && pass "bisection: 0-3 1-4 2-5" ||
	fail "bisection: $got"
fab 0 incast "${QUICK[@]}" --pattern incast --root 4 -o "$TMP/incast.json"
got=$(jqc "$TMP/incast.json" '[.pairs[] | select(.ok) | [.a, .b]] | sort')
[[ $got == '[[0,4],[1,4],[2,4],[3,4],[5,4]]' ]] &&
	pass "incast --root 4: five at once, all ok" || fail "incast: $got"

fc_down
ig_done
