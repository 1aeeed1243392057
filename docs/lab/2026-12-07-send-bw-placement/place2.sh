#!/bin/bash
# place.sh ROUNDS: unpinned send_bw runs of both tools; while each runs,
# samples (bash builtins only, every ~50 ms) every thread of the client and
# server processes: state and CPU.  Prints per run: Gb/s and the share of
# samples in which the two busiest threads (sender, receiver) were both
# running on the same CPU, and per busy thread its CPU histogram.
R=${1:-4}
IB=/work/main/build/ibgap
ADDR=${IG_RDMA_ADDR:-10.233.0.1}
$IB server -p 19600 >/tmp/srvF.log 2>&1 &
SRV=$!
sleep 2
port=19700
sample() { # pids... -> lines "tid state cpu ticks"
	local p t l f
	for p in "$@"; do for t in /proc/$p/task/*; do
		read -r l < "$t/stat" 2>/dev/null || continue
		l=${l#*) }; read -r -a f <<<"$l"
		local mig=0 k v
		while read -r k _ v; do [[ $k == se.nr_migrations ]] && { mig=$v; break; }; done < "$t/sched"
		local nv=0
		while read -r k v; do [[ $k == nonvoluntary_ctxt_switches: ]] && nv=$v; done < "$t/status"
		echo "$p:${t##*/} ${f[0]} ${f[36]} $((f[11] + f[12])) $mig $nv"
	done; done
}
watch() { # out pids...
	local o=$1; shift; : > "$o"
	while kill -0 "$1" 2>/dev/null; do echo "--" >>"$o"; sample "$@" >>"$o"; sleep 0.2; done
}
summ() {
	awk '/^--/{ns++; for(k in st) delete st[k]; next}
	{ mg[$1]=$5; nv[$1]=$6; st[$1]=$2; cpu[$1,ns]=$3; s[$1,ns]=$2; if(!($1 in first)) first[$1]=$4; last[$1]=$4; seen[$1]=1 }
	END { b1="";b2=""; for(t in seen){d=last[t]-first[t]; if(d>m1){m2=m1;b2=b1;m1=d;b1=t} else if(d>m2){m2=d;b2=t}}
	  both=0; same=0
	  for(i=1;i<=ns;i++) if(s[b1,i]=="R" && s[b2,i]=="R"){both++; if(cpu[b1,i]==cpu[b2,i]) same++}
	  printf "samples %d busiest %s (%d ticks) %s (%d ticks); both running %d, on one CPU %d;", ns, b1, m1, b2, m2, both, same
	  for(t in seen){ c0=0;c1=0; for(i=1;i<=ns;i++){ if(s[t,i]=="R"){ if(cpu[t,i]==0)c0++; else c1++ } } if(c0+c1) printf " %s R@cpu0 %d R@cpu1 %d;", t, c0, c1 }
	  printf " migrations %s %s, nonvol %s %s", mg[b1], mg[b2], nv[b1], nv[b2]; print "" }' "$1"
}
for ((r = 1; r <= R; r++)); do
	$IB client -p 19600 -t send_bw -s 65536 -n 2000 --tx-depth 128 --cq-mod 16 --warmup 0 --format json $ADDR >/tmp/ib.json 2>/tmp/ib.err &
	c=$!; sleep 0.3; watch /tmp/w.ib $c $SRV; wait $c
	echo "r$r ib $(jq -r '.results[0].bw_gbps' /tmp/ib.json) $(summ /tmp/w.ib)"
	port=$((port+1))
	ib_send_bw -s 65536 -n 2000 -t 128 -Q 16 -u 17 -p $port >/tmp/pts.out 2>&1 & spid=$!; sleep 1.5
	ib_send_bw -s 65536 -n 2000 -t 128 -Q 16 -u 17 -p $port $ADDR >/tmp/pt.out 2>&1 & c=$!
	sleep 0.3; watch /tmp/w.pt $c $spid; wait $c; wait $spid
	echo "r$r pt $(awk '$1==65536 && $2==2000 {printf "%.6f", $4*1048576*8/1e9}' /tmp/pt.out) $(summ /tmp/w.pt)"
done
kill $SRV
