#!/bin/bash
# faults.sh: the fault-injection matrix (tests/faults.sh.inc) for TCP over
# loopback: tcp_bw killed or stalled at every phase on either side, and
# tcp_lat in its measured interval.  The survivor says one line within the
# timeout, the client exits 1, the server serves the next client.
#   bash tests/integ/faults.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
source "$(dirname "${BASH_SOURCE[0]}")/../faults.sh.inc"
IG_LIMIT=280
ig_init faults "$@"

FM_START=ig_start_server
FM_HOST=127.0.0.1
FM_TIMEOUT=2
FM_SLACK=3
FM_NEXT="-t tcp_lat -n 100 --warmup 0 --timeout 5"

fm_matrix tcp_bw
fm_matrix tcp_lat measure
ig_done
