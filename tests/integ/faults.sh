#!/bin/bash
# faults.sh: the fault cases over TCP on loopback that need real processes
# (tests/faults.sh.inc): tcp_bw killed (SIGKILL: the kernel closes its
# sockets) or stalled (SIGSTOP: they stay open, the kernel's TCP still
# holds the window) on either side in the measured interval, and a client
# that stalls before its HELLO (the server's lobby drops it).  The
# survivor says one line within the timeout, the client exits 1, the
# server serves the next client.  Every other phase, side and action runs
# in the engine bench in milliseconds (tests/unit/test_engine.c;
# docs/design.md, "Fault injection").
#   bash tests/integ/faults.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
source "$(dirname "${BASH_SOURCE[0]}")/../faults.sh.inc"
IG_LIMIT=120
ig_init faults "$@"

FM_START=ig_start_server
FM_HOST=127.0.0.1
FM_TIMEOUT=2
FM_SLACK=3
FM_NEXT="-t tcp_lat -n 100 --warmup 0 --timeout 5"

fm_matrix tcp_bw measure
fm_client_case tcp_bw connect stall
ig_done
