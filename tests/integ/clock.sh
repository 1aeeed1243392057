#!/bin/bash
# clock.sh: the latency clock over loopback (docs/design.md, "Clock").
# tcp_lat pinned (--cpu 0) reads the CPU counter ("tsc" on x86-64,
# "cntvct" on aarch64), calibrated, with no clock warning; when the end
# check finds the counter off its calibrated rate (IBGAP_FAULT=
# client:clock:drift makes it read 1% fast) the round trips are measured
# again with CLOCK_MONOTONIC: clock "monotonic", the reason in the warning,
# iterations = both passes, and the text report says it too.
#   bash tests/integ/clock.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init clock "$@"
ig_start_server

case $(uname -m) in
x86_64) counter=tsc ;;
aarch64) counter=cntvct ;;
*) counter=monotonic ;;
esac
N=2000
C=(--format json -t tcp_lat -n "$N" --warmup 0.1 --cpu 0)

ig_client 60 pinned "${C[@]}"
expect_client_ok pinned "tcp_lat --cpu 0" &&
	ig_json_check "$TMP/pinned.out" "pinned: clock $counter" <<PY
r = d["results"][0]
want = "$counter"
check(r.get("clock") == want, "clock %r, want %r" % (r.get("clock"), want))
if want != "monotonic":
    check(r.get("clock_ghz", 0) > 0, "clock_ghz %r" % r.get("clock_ghz"))
    check("clock:" not in r.get("warning", ""), "warning %r" % r.get("warning"))
check(r["iterations"] == $N, "iterations %r, want $N" % r["iterations"])
lat = r["lat_us"]
check(0 < lat["min"] <= lat["p50"] <= lat["max"], "lat_us %r" % lat)
check(2 * lat["mean"] * r["iterations"] / 1e6 <= r["seconds"] * 1.01,
      "2 x mean %g us x %d round trips > %g s" %
      (lat["mean"], r["iterations"], r["seconds"]))
PY

if [[ $counter != monotonic ]]; then
	IBGAP_FAULT=client:clock:drift ig_client 60 drift "${C[@]}"
	expect_client_ok drift "tcp_lat, counter drifting" &&
		ig_json_check "$TMP/drift.out" "drift: fell back" <<PY
r = d["results"][0]
w = r.get("warning", "")
check(r.get("clock") == "monotonic", "clock %r, want 'monotonic'" %
      r.get("clock"))
check("clock_ghz" not in r, "clock_ghz %r with monotonic" % r.get("clock_ghz"))
check("clock: monotonic: the $counter ran +1.0" in w and "0.1% allowed" in w
      and "measured again with clock_gettime" in w, "warning %r" % w)
check(r["iterations"] == 2 * $N, "iterations %r, want both passes %d" %
      (r["iterations"], 2 * $N))
check(r["lat_us"]["p50"] > 0, "lat_us %r" % r["lat_us"])
PY
	IBGAP_FAULT=client:clock:drift ig_client 60 drift_text -t tcp_lat \
		-n 500 --warmup 0 --cpu 0
	expect_client_ok drift_text "tcp_lat text, counter drifting" &&
		expect_grep "$TMP/drift_text.out" \
			"warning: tcp_lat: clock: monotonic: the $counter ran" \
			"text report, drifting" &&
		expect_grep "$TMP/drift_text.out" "clock: tcp_lat: monotonic" \
			"text report names the clock"
	expect_no_grep "$TMP/drift_text.err" "IBGAP_FAULT" \
		"the drift fault is no malformed fault spec"
fi
ig_done
