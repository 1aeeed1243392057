#!/bin/bash
# sweep.sh: size sweeps (-s A:B, -s A,B,C), repeated runs (--repeat),
# early stop on a confidence interval (--confidence), the option errors of
# these, and the runs without -t (client) or without arguments (ibgap
# alone) on a host without an RDMA device, all over loopback.
#   bash tests/integ/sweep.sh /abs/path/to/ibgap
IG_LIMIT=${IG_LIMIT:-150}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init sweep "$@"
ig_start_server

# -D/--warmup of every measuring run: short, the counts do not matter here
Q=(-D 0.2 --warmup 0.05 --format json)

# 1. a power-of-two sweep: 4 sizes x 2 tests, sizes outer
ig_client 60 range -t tcp_bw,tcp_lat -s 1K:8K "${Q[@]}"
expect_client_ok range "-s 1K:8K" &&
	ig_json_check "$TMP/range.out" "-s 1K:8K" <<'PY'
res = d.get("results") or []
check(len(res) == 8, "%d results, want 8 (4 sizes x 2 tests)" % len(res))
got = [(r.get("test"), r.get("size")) for r in res]
want = [(t, s) for s in (1024, 2048, 4096, 8192)
        for t in ("tcp_bw", "tcp_lat")]
check(got == want, "(test, size) %r, want %r" % (got, want))
for r in res:
    check(r.get("transport") == "tcp", "transport %r" % r.get("transport"))
    check(isinstance(r.get("bw_gbps"), (int, float)) and r["bw_gbps"] > 0,
          "%s %s: bw_gbps %r" % (r.get("test"), r.get("size"),
                                 r.get("bw_gbps")))
cmp = d.get("comparison")
if check(isinstance(cmp, dict), "no comparison object"):
    nh = [e for e in cmp.get("n_half") or [] if e.get("test") == "tcp_bw"]
    if check(len(nh) == 1, "n_half entries for tcp_bw: %r" % nh):
        e = nh[0]
        check(e.get("size") in (1024, 2048, 4096, 8192),
              "N1/2 size %r is not a size of the sweep" % e.get("size"))
        check(e.get("peak_size") in (1024, 2048, 4096, 8192),
              "peak_size %r is not a size of the sweep" % e.get("peak_size"))
        bw = {r["size"]: r["bw_gbps"] for r in res if r["test"] == "tcp_bw"}
        peak = max(bw.values())
        check(close(e.get("peak_gbps", -1), peak, 1e-9),
              "peak_gbps %r, the results' peak %r" % (e.get("peak_gbps"),
                                                      peak))
        want_n = min(s for s, v in bw.items() if v >= peak / 2)
        check(e.get("size") == want_n,
              "N1/2 size %r, the results give %r (%r)" %
              (e.get("size"), want_n, bw))
    check(not [e for e in cmp.get("n_half") or []
               if e.get("test") == "tcp_lat"], "n_half for tcp_lat")
    check(cmp.get("pairs") == [], "pairs %r without verbs tests" %
          cmp.get("pairs"))
PY

# 2. a list of sizes
ig_client 60 list -t tcp_bw,tcp_lat -s 64,4K,64K "${Q[@]}"
expect_client_ok list "-s 64,4K,64K" &&
	ig_json_check "$TMP/list.out" "-s 64,4K,64K" <<'PY'
res = d.get("results") or []
got = [(r.get("test"), r.get("size")) for r in res]
want = [(t, s) for s in (64, 4096, 65536) for t in ("tcp_bw", "tcp_lat")]
check(got == want, "(test, size) %r, want %r" % (got, want))
PY

# 3. --repeat 3: pooled counts, the interval around the mean
ig_client 60 rep -t tcp_bw,tcp_lat -s 4K --repeat 3 "${Q[@]}"
expect_client_ok rep "--repeat 3" &&
	ig_json_check "$TMP/rep.out" "--repeat 3" <<'PY'
res = d.get("results") or []
check([r.get("test") for r in res] == ["tcp_bw", "tcp_lat"],
      "tests %r" % [r.get("test") for r in res])
metric = {"tcp_bw": "bw_gbps", "tcp_lat": "lat_us.p50"}
for r in res:
    p = "%s: " % r.get("test")
    rep = r.get("repeat")
    if not check(isinstance(rep, dict), p + "no repeat object"):
        continue
    check(rep.get("runs") == 3, p + "repeat.runs %r, want 3" %
          rep.get("runs"))
    check(rep.get("metric") == metric.get(r.get("test")),
          p + "repeat.metric %r" % rep.get("metric"))
    check(rep.get("level") == 95, p + "repeat.level %r, want 95" %
          rep.get("level"))
    lo, m, hi = rep.get("ci_low"), rep.get("mean"), rep.get("ci_high")
    if check(all(isinstance(v, (int, float)) for v in (lo, m, hi)),
             p + "ci_low/mean/ci_high %r" % rep):
        check(lo <= m <= hi, p + "not ci_low %g <= mean %g <= ci_high %g" %
              (lo, m, hi))
        check(close(m - lo, hi - m, 1e-9) or hi == lo,
              p + "interval not centred on the mean: %r" % rep)
        check(m > 0, p + "mean %g" % m)
    check(isinstance(rep.get("stdev"), (int, float)) and rep["stdev"] >= 0,
          p + "stdev %r" % rep.get("stdev"))
    check("met" not in rep and "width_pct" not in rep,
          p + "met/width_pct without --confidence: %r" % rep)
    # three runs of 0.2 s pooled: seconds summed, bw from the sums
    sec = r.get("seconds") or 0
    check(3 * 0.2 * 0.9 <= sec <= 3 * 0.2 * 3,
          p + "seconds %g, want about 3 x 0.2" % sec)
    if sec > 0:
        check(close(r["bw_gbps"], r["bytes"] * 8 / sec / 1e9, 1e-6),
              p + "bw_gbps %g, bytes*8/seconds/1e9 %g" %
              (r["bw_gbps"], r["bytes"] * 8 / sec / 1e9))
        check(close(r["msg_rate"], r["iterations"] / sec, 1e-6),
              p + "msg_rate %g, iterations/seconds %g" %
              (r["msg_rate"], r["iterations"] / sec))
PY

# 3b. --bidir --repeat 3: every figure covers the three runs (old code:
# rx_bytes of the last run only, the reverse figures of the first)
ig_client 60 reprx -t tcp_bw -s 64K --bidir --repeat 3 "${Q[@]}"
expect_client_ok reprx "--bidir --repeat 3" &&
	ig_json_check "$TMP/reprx.out" "--bidir --repeat 3" <<'PY'
r = (d.get("results") or [{}])[0]
by, rx, sec = r.get("bytes") or 0, r.get("rx_bytes"), r.get("seconds") or 0
# the receiver counts its own BEGIN..END interval: near the sender's bytes,
# never a third of them
check(isinstance(rx, int) and 0.6 * by <= rx <= 1.5 * by,
      "rx_bytes %r against bytes %r of the same 3 runs" % (rx, by))
b = r.get("bidir") or {}
rs = b.get("reverse_seconds") or 0
check(3 * 0.2 * 0.9 <= sec <= 3 * 0.2 * 3, "seconds %g" % sec)
check(close(rs, sec, 0.5), "reverse_seconds %g, forward seconds %g: "
      "not the same runs" % (rs, sec))
PY

# 4. --confidence stops at IG_CONF_MIN = 3 runs once the interval is
# narrow enough, else goes on to --repeat runs.  Every report must be
# consistent (met exactly when the half-width is within WIDTH/2 % of the
# mean; not met -> all 5 runs).  Whether 3 runs suffice depends on the
# spread between runs, which on a loaded host (or in an ASan build) reaches
# 100% even for the p50 of tcp_lat (a width W is met after 3 runs when
# stdev <= W * sqrt(3) / (200 * 4.303) of the mean: 2.0 for 1000%, 0.40
# for 200%; CI saw 0.72 and 1.09): so with 1000% up to 3 attempts, one of
# which must stop after 3 runs; with 100% one run, whose report must only
# be consistent, met or not.
CONF_PY='
for r in d.get("results") or []:
    rep = r.get("repeat") or {}
    p = "%s: " % r.get("test")
    runs, met = rep.get("runs"), rep.get("met")
    check(rep.get("width_pct") == W, p + "repeat.width_pct %r, want %r" %
          (rep.get("width_pct"), W))
    check(rep.get("level") == 95, p + "repeat.level %r" % rep.get("level"))
    check(isinstance(met, bool), p + "repeat.met %r, want a boolean" % met)
    check(runs in (3, 4, 5), p + "repeat.runs %r, want 3 to 5" % runs)
    if met is False:
        check(runs == 5, p + "not met after %r runs, --repeat 5" % runs)
    lo, m, hi = rep.get("ci_low"), rep.get("mean"), rep.get("ci_high")
    if all(isinstance(v, (int, float)) for v in (lo, m, hi)) and m > 0:
        lim = m * W / 200
        check(close(hi - m, m - lo, 1e-9), p + "interval not centred")
        if not close(hi - m, lim, 1e-9):
            check(met == (hi - m <= lim),
                  p + "met %r, half-width %g, allowed %g (%g%% of %g)" %
                  (met, hi - m, lim, W, m))
'
# conf_try WIDTH ATTEMPTS: ATTEMPTS runs must be consistent; with more
# than one, one of them must stop after 3 runs.
conf_try()
{
	local w=$1 n=$2 tag i

	for ((i = 1; i <= n; i++)); do
		tag=conf${w}_$i
		ig_client 60 "$tag" -t tcp_lat --confidence "95,$w" --repeat 5 \
			"${Q[@]}"
		expect_client_ok "$tag" "--confidence 95,$w --repeat 5" ||
			return 1
		ig_json_check "$TMP/$tag.out" "--confidence 95,$w: consistent" \
			<<<"W = $w$CONF_PY" || return 1
		((n > 1)) || return 0
		if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
sys.exit(0 if r and all((x.get("repeat") or {}).get("runs") == 3 and
                        (x.get("repeat") or {}).get("met") is True
                        for x in r) else 1)' "$TMP/$tag.out"; then
			pass "--confidence 95,$w: met after 3 runs (attempt $i)"
			return 0
		fi
		ig_log "--confidence 95,$w: attempt $i not met after 3 runs:" \
			"$(grep -A9 '"repeat"' "$TMP/$tag.out" | tr -d ' \n')"
	done
	fail "--confidence 95,$w: never stopped after 3 runs in $n attempts"
}
conf_try 1000 3
conf_try 100 1

# 5. bad values: exit 2, one line on stderr naming the value as typed
bad()
{
	local value=$1

	shift
	ig_client 10 bad "$@"
	expect_rc 2 "$*"
	expect_one_line "$TMP/bad.err" "$*"
	expect_grep "$TMP/bad.err" "$value" "$*"
}
bad 8K:1K -s 8K:1K
bad 128M -s 1K:128M
bad 1,x -s 1,x
bad "'0'" --repeat 0
bad 101 --repeat 101
bad 90,5 --confidence 90,5
bad "'95'" --confidence 95
bad -1 --tolerance -1
check "server alive after the bad options" ig_server_alive

# 6. without -t, on a host without an RDMA device: TCP alone, said once
if compgen -G "/sys/class/infiniband/*" >/dev/null; then
	ig_log "skipped the runs without -t: this host has an RDMA device" \
		"($(ls /sys/class/infiniband | tr '\n' ' '))"
else
	ig_client 60 notests "${Q[@]}"
	expect_client_ok notests "client without -t"
	expect_one_line "$TMP/notests.err" "client without -t: stderr"
	expect_grep "$TMP/notests.err" "no RDMA device" "client without -t"
	ig_json_check "$TMP/notests.out" "client without -t" <<'PY'
note = d.get("note")
check(isinstance(note, str) and "no RDMA device" in note,
      "note %r, want a string naming 'no RDMA device'" % note)
res = d.get("results") or []
check(len(res) >= 1, "no results")
check(all(r.get("transport") == "tcp" for r in res),
      "non-TCP results: %r" % [(r.get("test"), r.get("transport"))
                               for r in res])
check(sorted(r.get("test") for r in res) == ["tcp_bw", "tcp_lat"],
      "tests %r, want tcp_bw and tcp_lat" % [r.get("test") for r in res])
PY

	# the text report on stdout says it, stderr not again (old: both)
	ig_client 60 notext -D 0.2 --warmup 0.05
	expect_client_ok notext "client without -t, text"
	expect_no_grep "$TMP/notext.err" "no RDMA device" \
		"client without -t, text: stderr"
	check "client without -t, text: one note line on stdout" \
		test "$(grep -c '^note: no RDMA device' "$TMP/notext.out")" = 1

	# 7. ibgap alone: the reason in one line, then tcp_bw and tcp_lat
	ig_run 60 alone
	expect_client_ok alone "ibgap alone"
	expect_one_line "$TMP/alone.err" "ibgap alone: stderr"
	expect_grep "$TMP/alone.err" "no active RDMA port" "ibgap alone"
	for t in tcp_bw tcp_lat; do
		if grep -qE "^${t}[[:space:]]+tcp[[:space:]]" "$TMP/alone.out"
		then
			pass "ibgap alone: a $t row"
		else
			fail "ibgap alone: no '$t tcp ...' row:" \
				"$(cat "$TMP/alone.out")"
		fi
	done
fi
ig_done
