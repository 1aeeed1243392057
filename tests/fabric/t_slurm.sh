#!/bin/bash
# t_slurm.sh: ibgap-fabric under a real Slurm (issue 24, item 5): four
# network namespaces (tests/fabric/cluster.sh.inc) are the nodes of a
# Slurm of their own (fc_slurm_up: munged, slurmctld, a slurmd per node):
# (a) srun -N 4 --mpi=pmix runs the pairs pattern: 4 ranks, one per node,
#     each with its node's host name and address, every pair measured
#     (checked on the first run of (b));
# (b) inside one allocation (salloc), node 2 drained by "someone else"
#     (Reason="admin: fan") and node 3 throttled (tbf): --drain drains
#     exactly node 3 with an "ibgap:" reason, node 2's reason is kept;
#     then node 2 throttled (node 3 clear): --drain leaves node 2 as it
#     was (not_drained, why) and node 3 drained;
# (c) ibgap-fabric --resume, a plain process: node 3 back to idle, node 2
#     still drained with the admin's reason; under srun's PMIx (PMIX_RANK
#     set) it refuses: exit 2;
# (d) --drain outside Slurm (mpirun, no SLURM_JOB_ID; then srun's ranks
#     with a slurmctld that does not answer): exit 2, one line, before
#     any round.
# Skipped (77) without root, ip netns, mpirun, jq, slurmd, slurmctld,
# slurm-client, munge or libpmix-dev.
#   bash tests/fabric/t_slurm.sh /abs/path/to/ibgap-fabric
# shellcheck disable=SC2015 # "cond && pass || fail": pass never fails
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) || exit 1
# shellcheck source=tests/integ/lib.sh.inc
source "$here/../integ/lib.sh.inc" || exit 1
# shellcheck source=tests/fabric/cluster.sh.inc
source "$here/cluster.sh.inc" || exit 1
# shellcheck disable=SC2034 # ig_init's watchdog
IG_LIMIT=${IG_LIMIT_FABRIC:-200}
ig_init fabric_slurm "$@"
FABRIC=$IBGAP
command -v jq >/dev/null || fc_skip "jq is not installed"
command -v salloc >/dev/null || fc_skip "salloc not found (slurm-client)"
# as t_fabric.sh: no LeakSanitizer for Open MPI's exit
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# tcp_bw alone: the plants are bandwidth, and a latency test would judge
# the machine's load.  Two pairs at once on the 2 CPUs: a healthy pair's
# tcp_lat p50 read 6-8 x the median (once 118 x, beside an iperf3) in
# 14 of 52 --drain steps here, and two such of a node's three pairs
# flag it (a scripts/test run: node 3 drained in the second step, its
# two slow tcp_lat pairs read as 'low, bandwidth 1.98 x the median',
# now 'flagged, p50 latency ...').  With the throttled node in
# half the pairs, the median lies between its pairs and the others, and
# no healthy pair falls below --bw-tol 0.5 x it (the slowest would have
# to be under a third of a throttled one).
RUN=(-t tcp_bw -D 0.2 --warmup 0.05 --timeout 5 --no-retest --bw-tol 0.5
	--format json)
# the nodes' /tmp is their own: the ranks start in /
SRUN=(-N 4 --ntasks-per-node=1 --mpi=pmix --chdir=/)

fc_up 4 slurm
fc_slurm_up
N=("${FC_NS[@]}")
# slurmd's steps see their node's own /tmp (a tmpfs): a binary built
# under /tmp (a clone in /tmp, as CI's may be) is not there for them, so
# they run a copy in the Slurm dir (under /var/tmp)
mkdir -p "$FC_SLURM_DIR/bin" && cp "$IBGAP" "$FC_SLURM_DIR/bin/" ||
	fc_die "cannot copy $IBGAP to $FC_SLURM_DIR/bin"
FABRIC=$FC_SLURM_DIR/bin/${IBGAP##*/}

jqc()
{
	jq -c "$2" "$1" 2>&1
}

# node NAME: "STATE|REASON" as sinfo shows it
node()
{
	timeout 10 sinfo -h -N -n "$1" -o '%T|%E' 2>&1 | head -1
}

# wait_state SECS NAME STATE: until NAME's state is STATE (bounded)
wait_state()
{
	local j

	for ((j = 0; j < $1 * 10; j++)); do
		[[ $(node "$2") == "$3|"* ]] && return 0
		sleep 0.1
	done
	return 1
}

# ------------------------------------------- (b) --drain in an allocation
# salloc runs the script here with the job's environment; its steps run
# on the four nodes even after node 2 is drained (draining: the job
# keeps it).  Step 1: node 3 slow.  Step 2: node 2 slow, node 3 clear.
fc_slow 3 30mbit
cat >"$TMP/job.sh" <<EOF
#!/bin/bash
scontrol update NodeName=${N[1]} State=DRAIN Reason="admin: fan" || exit 9
srun ${SRUN[*]} $FABRIC ${RUN[*]} --drain >$TMP/drain1.out 2>$TMP/drain1.err
echo \$? >$TMP/drain1.rc
tc qdisc del dev ${FC_VETHS[2]} root
ip netns exec ${N[2]} tc qdisc del dev eth0 root
tc qdisc replace dev ${FC_VETHS[1]} root tbf rate 30mbit burst 64kb latency 200ms
ip netns exec ${N[1]} tc qdisc replace dev eth0 root tbf rate 30mbit burst 64kb latency 200ms
srun ${SRUN[*]} $FABRIC ${RUN[*]} --drain >$TMP/drain2.out 2>$TMP/drain2.err
echo \$? >$TMP/drain2.rc
EOF
RC=0
timeout -k 5 "$FC_TIMEOUT" salloc -N 4 --immediate=10 bash "$TMP/job.sh" \
	>"$TMP/salloc.out" 2>&1 || RC=$?
expect_rc 0 "salloc with two --drain steps" ||
	ig_log "salloc: $(head -c 2000 "$TMP/salloc.out")"
FC_RATE[2]=
FC_RATE[3]=
RC=$(cat "$TMP/drain1.rc" 2>/dev/null)
expect_rc 0 "--drain, node 3 slow" ||
	ig_log "stderr: $(head -c 3000 "$TMP/drain1.err")"
got=$(jqc "$TMP/drain1.out" '[.ranks, [.nodes[] | .host], [.nodes[] | .addr],
	(.pairs | length), ([.pairs[] | select(.ok)] | length)]')
want=$(jq -nc --args '[4, $ARGS.positional[0:4], $ARGS.positional[4:8],
	6, 6]' "${N[@]}" "${FC_ADDRS[@]}")
[[ $got == "$want" ]] &&
	pass "srun: 4 ranks, each its node's host name and address, 6 pairs ok" ||
	fail "srun: got $got, want $want: $(head -c 2000 "$TMP/drain1.err")"
# node 3 alone: node 2's one pair with it is low, its other two are in
# the fast half (CI flagged node 2 too once, fresh clone of 47d0a24,
# when the steps also ran tcp_lat)
got=$(jqc "$TMP/drain1.out" '[[.nodes[] | select(.flagged) | .host],
	[.drained[] | .node], (.drained[0].reason // "" | startswith("ibgap: ")),
	.drained[0].updated, .not_drained]')
want=$(jq -nc --arg n3 "${N[2]}" '[[$n3], [$n3], true, false, []]')
# on failure, what the verdict saw: each pair's ranks and Gb/s
[[ $got == "$want" ]] &&
	pass "--drain: exactly node 3 drained, an ibgap: reason" ||
	fail "--drain: got $got, want $want; pairs (a, b, Gb/s): $(jqc \
		"$TMP/drain1.out" '[.pairs[] | [.a, .b, .bw_gbps]]')"
ig_log "drained: $(jqc "$TMP/drain1.out" '.drained')"

RC=$(cat "$TMP/drain2.rc" 2>/dev/null)
expect_rc 0 "--drain, node 2 slow (drained by the admin)" ||
	ig_log "stderr: $(head -c 3000 "$TMP/drain2.err")"
got=$(jqc "$TMP/drain2.out" '[[.nodes[] | select(.flagged) | .host],
	.drained, [.not_drained[] | .node, .reason]]')
want=$(jq -nc --arg n2 "${N[1]}" '[[$n2], [], [$n2, "admin: fan"]]')
[[ $got == "$want" ]] &&
	pass "--drain: node 2 (admin's reason) flagged and left as it was" ||
	fail "--drain: got $got, want $want"
ig_log "not drained: $(jqc "$TMP/drain2.out" '.not_drained')"

wait_state 10 "${N[2]}" drained &&
	[[ $(node "${N[2]}") == "drained|ibgap: "* ]] &&
	pass "node 3 drained by ibgap: $(node "${N[2]}")" ||
	fail "node 3: $(node "${N[2]}")"
wait_state 10 "${N[1]}" drained &&
	[[ $(node "${N[1]}") == "drained|admin: fan" ]] &&
	pass "node 2 kept the admin's reason: $(node "${N[1]}")" ||
	fail "node 2: $(node "${N[1]}")"

# ------------------------------------------------------- (c) --resume
RC=0
PMIX_RANK=0 "$FABRIC" --resume >"$TMP/resume0.out" 2>"$TMP/resume0.err" ||
	RC=$?
expect_rc 2 "--resume as a rank (PMIX_RANK set)"
expect_one_line "$TMP/resume0.err" "--resume as a rank"
RC=0
timeout 60 "$FABRIC" --resume >"$TMP/resume.out" 2>"$TMP/resume.err" ||
	RC=$?
expect_rc 0 "--resume" || ig_log "stderr: $(cat "$TMP/resume.err")"
ig_log "--resume said: $(cat "$TMP/resume.out")"
expect_grep "$TMP/resume.out" "resumed  ${N[2]}" "--resume: node 3 resumed"
expect_grep "$TMP/resume.out" "left     ${N[1]}" "--resume: node 2 left"
wait_state 10 "${N[2]}" idle && pass "node 3 back to idle" ||
	fail "node 3 after --resume: $(node "${N[2]}")"
[[ $(node "${N[1]}") == "drained|admin: fan" ]] &&
	pass "node 2 still drained, the admin's reason" ||
	fail "node 2 after --resume: $(node "${N[1]}")"

# ------------------------------------------ (d) --drain outside Slurm
RC=0
(unset SLURM_JOB_ID; fc_mpirun 2 "$FABRIC" -t tcp_lat --drain) \
	>"$TMP/nojob.out" 2>"$TMP/nojob.err" || RC=$?
expect_rc 2 "--drain under mpirun"
line="ibgap-fabric: --drain needs Slurm: SLURM_JOB_ID is not set (run ibgap-fabric under srun or in an sbatch job)"
n=$(grep -cxF "$line" "$TMP/nojob.err")
[[ $n == 1 ]] && pass "--drain under mpirun: its line once" ||
	fail "--drain under mpirun: the line $n times: $(cat "$TMP/nojob.err")"
expect_no_grep "$TMP/nojob.err" "round 1" "--drain under mpirun: no round"
# in a job, but its slurmctld does not answer (srun's ranks with another
# slurm.conf: a closed port on the bridge, refused at once); node 2 is
# still drained: 2 nodes
sed "s/^SlurmctldPort=.*/SlurmctldPort=9/" "$SLURM_CONF" \
	>"$FC_SLURM_DIR/dead.conf"
RC=0
fc_srun -N 2 --ntasks-per-node=1 --mpi=pmix --chdir=/ --immediate=10 \
	env SLURM_CONF="$FC_SLURM_DIR/dead.conf" "$FABRIC" \
	-t tcp_lat --drain >"$TMP/noctl.out" 2>"$TMP/noctl.err" || RC=$?
# srun: the tasks' highest exit status
expect_rc 2 "--drain with no slurmctld"
n=$(grep -c "^ibgap-fabric: --drain needs Slurm: scontrol ping: exit 1: Slurmctld(primary) at .* is DOWN$" \
	"$TMP/noctl.err")
[[ $n == 1 ]] && pass "--drain with no slurmctld: one line" ||
	fail "--drain with no slurmctld: $n lines: $(cat "$TMP/noctl.err")"

fc_down
ig_done
