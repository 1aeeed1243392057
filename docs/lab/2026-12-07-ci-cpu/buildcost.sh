#!/bin/bash
cd /work/buildcost
m() { local n=$1; shift; /usr/bin/time -f "$n %e s wall %U user %S sys" "$@" >/dev/null 2>/tmp/bc.err; tail -1 /tmp/bc.err; }
m asan bash -c 'cmake -S . -B b-asan -DIBGAP_WERROR=ON -DIBGAP_SANITIZE=ON && cmake --build b-asan -j2'
m rel bash -c 'cmake -S . -B b-rel -DCMAKE_BUILD_TYPE=Release -DIBGAP_WERROR=ON && cmake --build b-rel -j2'
m fuzz env FUZZ_BUILD_DIR=b-fuzz FUZZ_BUILD_ONLY=1 fuzz/run.sh 1
m pkg scripts/package -o b-pkg
