#!/bin/bash
# guest-w.sh: the machine's busy CPU seconds and the wall time of each CI
# guest part, run alone on a quiet machine (the ci-base clone's trees)
cd /work/ci-base || exit 1
busy() { awk '/^cpu /{print ($2+$3+$4+$7+$8)/100}' /proc/stat; }
m() { local n=$1 b0 s; shift; b0=$(busy); s=$EPOCHREALTIME; "$@" >/tmp/gw-$n.log 2>&1; printf '%-28s rc=%s %6.1f s wall %6.1f CPU-s\n' "$n" $? "$(echo "$EPOCHREALTIME - $s" | bc)" "$(echo "$(busy) - $b0" | bc)"; }
RE='^rdma/t_(verbs_soak|bidir|reverse|doctor|smoke|fabric|clock|read|compare|try)$|^integ/(server_killed|server_abuse|server_garbage|sweep)$'
AE='^lint/|^integ/(valgrind|fabric|fabric_cluster|fabric_topo|fabric_slurm|try)$|^rdma/t_(faults|verbs_tests|rsockets|ud|events|verbs_errors|fabric_rails)$|^twohost/'
m readme-guest tests/rxe/rxe-run tests/rxe/rxe-ctest "$PWD/build-ci" -L '^rdma$' -E "$RE"
m readme-twohost bash -c "cd build-ci && ctest -L '^twohost$' -E '$RE'"
m asan-guest tests/rxe/rxe-run tests/rxe/rxe-ctest "$PWD/build-asan" -L '^rdma$' -E "$AE"
