#!/bin/bash
IB=$1
ADDR=10.233.0.1
$IB server -B "$ADDR" -p 19999 >/tmp/srv.log 2>&1 &
sleep 1.5
cat > /tmp/gdbcmds <<'G'
set pagination off
set print thread-events off
break ig_inv_load
commands
silent
printf "== ig_inv_load flags=%d\n", flags
bt 6
cont
end
run
G
gdb -batch -x /tmp/gdbcmds --args $IB client "$ADDR" -p 19999 -t write_bw -n 300 --warmup 0 2>&1 | grep -E "^==|^#" | cut -c1-150
echo "---- server"
SP=$(pgrep -f "server -B") 
gdb -batch -p $SP -ex 'set pagination off' -ex 'break ig_inv_load' -ex 'commands
silent
printf "== srv ig_inv_load flags=%d\n", flags
bt 6
cont
end' -ex 'cont' >/tmp/sg.txt 2>&1 &
sleep 4
$IB client "$ADDR" -p 19999 -t write_bw -n 300 --warmup 0 >/dev/null 2>&1
sleep 1; kill %2 2>/dev/null; sleep 1
grep -E "^==|^#" /tmp/sg.txt | cut -c1-150
