#!/bin/bash
# times N runs of a few commands inside the guest
IB=$1
mkdir -p /tmp/ibcfg && cp /etc/libibverbs.d/rxe.driver /tmp/ibcfg/
t() { local s e; s=$(date +%s%N); for i in 1 2 3 4 5; do "$@" >/dev/null 2>&1; done; e=$(date +%s%N); echo "$(( (e-s)/5000000 )) ms/run: $*"; }
t /bin/true
t "$IB" --version
t ibv_devices
t env IBV_CONFIG_DIR=/tmp/ibcfg ibv_devices
t "$IB" --version
t env IBV_CONFIG_DIR=/tmp/ibcfg "$IB" --version
ldd "$IB" | wc -l
strace -f -c -o /tmp/st.txt ibv_devices >/dev/null 2>&1 && head -20 /tmp/st.txt
