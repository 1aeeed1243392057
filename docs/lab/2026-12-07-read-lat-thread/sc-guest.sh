for r in 1 2 3 4 5 6; do
	for v in one thread exit; do
		e=SC_NONE=1
		[[ $v == thread ]] && e=SC_THREAD=1
		[[ $v == exit ]] && e="SC_THREAD=1 SC_EXIT=1"
		for m in w p; do
			echo "$v $m $r $(env $e taskset -c 0 /work/labtmp/sc/sc $m 20000)"
		done
	done
done
