#!/bin/bash
# tcp_info.sh: TCP_INFO per stream in tcp_bw's result (both sides, sane
# values, retransmits consistent between JSON, the text row and the
# warning line), --zerocopy (reports zerocopy true and its sends; on
# loopback the kernel usually copies, and then a warning line must say
# so), --zerocopy both (a copying and a zero-copy row, CPU per GB side by
# side), and the bad values of --zerocopy.
#   bash tests/integ/tcp_info.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init tcp_info "$@"
ig_start_server --timeout 5
RUN=(-D 0.5 --warmup 0.1)

ig_client 30 info -t tcp_bw,tcp_lat -P 2 "${RUN[@]}" --format json
expect_client_ok info "tcp_bw,tcp_lat -P 2"
ig_json_check "$TMP/info.out" "tcp_info per stream" <<'PY'
for r in d["results"]:
    ti = r.get("tcp_info")
    check(isinstance(ti, dict), "%s: no tcp_info object" % r["test"])
    if not isinstance(ti, dict):
        continue
    total = 0
    for side in ("client", "server"):
        a = ti.get(side)
        check(isinstance(a, list) and len(a) == 2,
              "%s: tcp_info.%s is not one object per stream: %r"
              % (r["test"], side, a))
        for s in a or []:
            check(s["rtt_us"] > 0, "%s %s rtt_us %r" % (r["test"], side,
                                                        s["rtt_us"]))
            check(s["snd_mss"] > 0, "%s %s snd_mss %r" % (r["test"], side,
                                                          s["snd_mss"]))
            check(s["pmtu"] >= s["snd_mss"], "%s %s pmtu %r < snd_mss %r"
                  % (r["test"], side, s["pmtu"], s["snd_mss"]))
            check(s["snd_cwnd"] > 0, "%s %s snd_cwnd 0" % (r["test"], side))
            check(0 <= s["retrans"] <= s["retrans_total"],
                  "%s %s retrans %r of retrans_total %r" % (r["test"], side,
                  s["retrans"], s["retrans_total"]))
            for k in ("rttvar_us", "reordering"):
                check(k in s, "%s %s: no %s" % (r["test"], side, k))
            total += s["retrans"]
    check(ti["retrans"] == total, "%s: tcp_info.retrans %r, streams sum %r"
          % (r["test"], ti["retrans"], total))
    check("zerocopy" not in r, "%s: zerocopy without --zerocopy" % r["test"])
PY

# text: "retrans N" after each TCP row; a warning line exactly when N > 0
ig_client 30 text -t tcp_bw "${RUN[@]}"
expect_client_ok text "tcp_bw, text"
n=$(sed -nE 's/^tcp_bw .*  retrans ([0-9]+)$/\1/p' "$TMP/text.out")
if [[ $n =~ ^[0-9]+$ ]]; then
	pass "text row ends in 'retrans $n'"
	if [[ $n == 0 ]]; then
		# the stream's warning; the doctor's run.tcp_retrans counts
		# every socket of the host (CI's two-host guests' wire is a
		# loopback socket: 47 retransmits seen there, fresh clone of
		# a372b70)
		expect_no_grep "$TMP/text.out" \
			"warning: tcp_bw 64K streams 1: TCP retransmitted" \
			"no retransmit warning for 0"
	else
		expect_grep "$TMP/text.out" \
			"warning: tcp_bw 64K streams 1: TCP retransmitted $n segment" \
			"retransmit warning for $n"
	fi
else
	fail "text row has no 'retrans N' suffix: $(cat "$TMP/text.out")"
fi

# --zerocopy: runs, says zerocopy, and either zero-copied or says it copied
ig_client 30 zc -t tcp_bw -P 2 "${RUN[@]}" --zerocopy --format json
expect_client_ok zc "tcp_bw --zerocopy"
ig_json_check "$TMP/zc.out" "--zerocopy" <<'PY'
r = d["results"][0]
check(r.get("zerocopy") is True, "zerocopy %r, want true" % r.get("zerocopy"))
z = r.get("zerocopy_stats", {})
check(z.get("sends", 0) > 0, "zerocopy_stats.sends %r" % z.get("sends"))
check(0 <= z.get("copied", -1) <= z.get("sends", 0),
      "copied %r of %r sends" % (z.get("copied"), z.get("sends")))
check(r["bw_gbps"] > 0, "bw_gbps %r" % r["bw_gbps"])
PY
ig_client 30 zctext -t tcp_bw "${RUN[@]}" --zerocopy
expect_client_ok zctext "tcp_bw --zerocopy, text"
expect_grep "$TMP/zctext.out" "zerocopy: tcp_bw 64K: MSG_ZEROCOPY" \
	"--zerocopy text line"
if grep -qE '^tcp_bw .* zerocopy$' "$TMP/zctext.out"; then
	pass "--zerocopy: the row says zerocopy"
else
	fail "--zerocopy: the row does not end in zerocopy:" \
		"$(cat "$TMP/zctext.out")"
fi
# copied (loopback) -> the warning; not copied -> no such warning
if grep -q "the kernel copied" "$TMP/zctext.out"; then
	pass "--zerocopy: the kernel copied, and the warning says so"
else
	expect_no_grep "$TMP/zctext.out" "warning: tcp_bw: --zerocopy" \
		"--zerocopy: zero-copied, no warning"
fi

# --zerocopy both: two tcp_bw results, copying then zero-copy
ig_client 30 both -t tcp_bw,tcp_lat "${RUN[@]}" --zerocopy both --format json
expect_client_ok both "--zerocopy both"
ig_json_check "$TMP/both.out" "--zerocopy both" <<'PY'
rs = d["results"]
check([r["test"] for r in rs] == ["tcp_bw", "tcp_bw", "tcp_lat"],
      "tests %r" % [r["test"] for r in rs])
check([r.get("zerocopy") for r in rs] == [False, True, None],
      "zerocopy %r" % [r.get("zerocopy") for r in rs])
for r in rs[:2]:
    check(r["cpu"]["client"].get("us_per_kib", 0) > 0,
          "no client CPU per KiB in %r" % r["cpu"]["client"])
PY
ig_client 30 bothtext -t tcp_bw "${RUN[@]}" --zerocopy both
expect_client_ok bothtext "--zerocopy both, text"
rows=$(grep -c '^tcp_bw ' "$TMP/bothtext.out")
if [[ $rows == 2 ]]; then
	pass "--zerocopy both: 2 tcp_bw rows"
else
	fail "--zerocopy both: $rows tcp_bw rows: $(cat "$TMP/bothtext.out")"
fi
if grep -qE '^zerocopy: tcp_bw 64K: .* s/GB; copying [0-9.]+ s/GB: zero-copy/copying [0-9.]+$' \
	"$TMP/bothtext.out"; then
	pass "--zerocopy both: CPU per GB side by side"
else
	fail "--zerocopy both: no 'copying ... s/GB' beside zero-copy:" \
		"$(cat "$TMP/bothtext.out")"
fi

# bad values: exit 2, one line naming the value and what is allowed
for args in "--zerocopy maybe" "--zerocopy=maybe" "-t tcp_lat --zerocopy"; do
	tag=bad$((++nbad))
	# shellcheck disable=SC2086
	ig_client 10 $tag $args
	expect_rc 2 "$args"
	expect_one_line "$TMP/$tag.err" "$args"
done
expect_grep "$TMP/bad1.err" "'maybe' is not a mode: allowed on" "maybe named"
expect_grep "$TMP/bad3.err" "-t has no tcp_bw" "--zerocopy without tcp_bw"
check "server alive after the --zerocopy runs" ig_server_alive
ig_done
