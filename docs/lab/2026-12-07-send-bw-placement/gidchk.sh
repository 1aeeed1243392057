ib_send_bw -s 65536 -n 200 -p 19800 >/tmp/a.out 2>&1 & sleep 1.5; ib_send_bw -s 65536 -n 200 -p 19800 10.233.0.1 > /tmp/b.out 2>&1; wait
grep -i "gid\|GID" /tmp/b.out | head -6
bash /work/labtmp/sbw/pinx.sh 12
