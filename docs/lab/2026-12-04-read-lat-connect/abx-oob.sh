#!/bin/bash
# abx-oob.sh OOB ROUNDS TEST: in a Soft-RoCE guest (tests/rxe/rxe-run),
# ROUNDS rounds; OOB is a checkout of the commit with lab-oob.diff applied
# and built in OOB/build, not under /tmp (the guest cannot see it).  Each
# round runs bench/verbs_vs_perftest.guest.sh -r 1 -T TEST once through
# rdma_cm (old) and once with IG_LAB_OOB/IG_LAB_GID set (new: the QP
# connected out of band with ibv_modify_qp, as perftest does, on
# perftest's GID index 1), the order alternating.  Each run's TSV follows
# a line "@@ old|new ROUND N", N the count of "out-of-band" in ibgap's
# JSON (0 through rdma_cm, 2: both sides' facts say out-of-band).
OOB=$1 R=$2 T=$3
B=$OOB/build/ibgap
cd "$OOB" || exit 1
for r in $(seq "$R"); do
	if ((r % 2)); then order="old new"; else order="new old"; fi
	for v in $order; do
		if [[ $v == new ]]; then
			export IG_LAB_OOB=$IG_RDMA_DEV IG_LAB_GID=1
		else
			unset IG_LAB_OOB IG_LAB_GID
		fi
		bash bench/verbs_vs_perftest.guest.sh -r 1 -T "$T" -b "$B" \
			-o /tmp --stamp "$v-$r" >/dev/null 2>"/tmp/abx-$v-$r.err"
		echo "@@ $v $r $(grep -c out-of-band \
			"/tmp/verbs_vs_perftest-$v-$r/r1_${T}_ibgap.out")"
		cat "/tmp/verbs_vs_perftest-$v-$r.tsv"
	done
done
