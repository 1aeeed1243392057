#!/bin/bash
# t_events.sh: --events over a real rxe device: write_bw, send_bw and
# send_lat wait for their completions on a completion channel instead of
# busy-polling.  Each runs, moves data, and reports "completion": "events"
# (write_lat: "poll", its reply is a flag in memory); a polling run of
# the same test reports "poll".  Where a side waited by spinning, its
# process's user CPU (seconds per second of the run: the spinning; rxe's
# kernel work is system time and stays) is below half the polling run's
# with --events: send_bw's receiver and send_lat's two sides, measured in
# the same guest, one run after the other.
#   tests/rxe/rxe-run bash tests/rxe/t_events.sh /abs/path/to/ibgap
# Exit 0 pass, 1 fail, 77 skipped (no IG_RDMA_DEV).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
rx_init t_events 300 "$@"
rx_start_server --timeout 10
declare -A CPU

# Each side's process CPU, user and system, per mille of the run:
# "CLIENT_USER/CLIENT_SYS SERVER_USER/SERVER_SYS".
CPU_JQ='.results[0].cpu | [.client, .server] | map(
	"\(.proc_user_s / .seconds * 1000 | floor)/\(.proc_sys_s / .seconds * 1000 | floor)") | join(" ")'

for t in write_bw send_bw send_lat write_lat; do
	for mode in poll events; do
		# write_lat polls either way: its events run alone says so
		[[ $t == write_lat && $mode == poll ]] && continue
		args=(-t "$t" -D 0.5 --warmup 0.1 --format json)
		[[ $mode == events ]] && args+=(--events)
		want=$mode
		[[ $t == write_lat ]] && want=poll
		tag=$t.$mode
		rx_served 60 "$tag" "${args[@]}"
		expect_client_ok "$tag" "$t ($mode)" || continue
		rx_jq "$TMP/$tag.out" "$t ($mode)" "
			.results[0] | pre as \$p |
			chk(.completion == \"$want\";
			    \$p + \"completion \(.completion | tojson), want $want\"),
			chk(.iterations > 0; \$p + \"nothing moved\")"
		CPU[$tag]=$(jq -r "$CPU_JQ" "$TMP/$tag.out")
		rx_log "$t ($mode): CPU per mille, client u/s server u/s:" \
			"${CPU[$tag]}; $(jq -r '.results[0] | if .lat_us then
			"p50 \(.lat_us.p50) us" else "\(.bw_gbps) Gb/s" end' \
			"$TMP/$tag.out")"
	done
done

# per_mille TAG SIDE(0 client, 1 server) PART(user, total)
per_mille()
{
	local f u s

	read -r -a f <<<"${CPU[$1]:-}"
	[[ -n ${f[$2]:-} ]] || return 1
	u=${f[$2]%/*} s=${f[$2]#*/}
	if [[ $3 == user ]]; then echo "$u"; else echo $((u + s)); fi
}

# less TAG_A TAG_B SIDE PART WHAT: A's figure below half of B's.
less_half()
{
	local a b

	a=$(per_mille "$1" "$3" "$4") && b=$(per_mille "$2" "$3" "$4") || {
		fail "$5: no CPU figures ('${CPU[$1]:-}', '${CPU[$2]:-}')"
		return
	}
	if ((2 * a < b)); then
		pass "$5: $a with --events, $b polling (per mille)"
	else
		fail "$5: $a with --events is not below half of $b polling"
	fi
}

# Where a loop waited for completions by spinning.  (write_bw's sender
# spends its time in rxe's kernel work inside ibv_post_send, both ways;
# its receiver waits on nothing: no figure to compare.)
less_half send_bw.events send_bw.poll 1 user "send_bw receiver's user CPU"
less_half send_lat.events send_lat.poll 0 user "send_lat client's user CPU"
less_half send_lat.events send_lat.poll 1 user "send_lat server's user CPU"
rx_done
