#!/bin/bash
# tcp_json.sh: the JSON report of tcp_bw and tcp_lat over loopback is
# complete and self-consistent, in duration (-D) and iteration (-n) modes,
# with several streams (-P) and a requested window (--window).
#   bash tests/integ/tcp_json.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init tcp_json "$@"
ig_start_server

# Checks every result object in d["results"]; DUR = -D (0 in -n mode).
common_checks()
{
	cat <<'PY'
def check_result(r, dur):
    t = r.get("test")
    p = "result %s: " % t
    nf = len(fails)  # failures before this result
    check(r.get("transport") == "tcp", p + "transport %r, want 'tcp'" %
          r.get("transport"))
    for k in ("size", "streams", "iterations", "bytes"):
        check(isinstance(r.get(k), int) and r.get(k) > 0,
              p + "%s = %r, want a positive integer" % (k, r.get(k)))
    for k in ("seconds", "bw_gbps", "msg_rate"):
        check(isinstance(r.get(k), (int, float)) and r.get(k) > 0,
              p + "%s = %r, want a positive number" % (k, r.get(k)))
    if len(fails) > nf:
        return
    it, sec, sz = r["iterations"], r["seconds"], r["size"]
    if dur:
        check(0.5 * dur <= sec <= 3 * dur,
              p + "seconds %g outside [%g, %g] for -D %g" %
              (sec, 0.5 * dur, 3 * dur, dur))
    check(r["bytes"] == it * sz, p + "bytes %d != iterations %d x size %d"
          % (r["bytes"], it, sz))
    check(close(r["msg_rate"] * sec, it, 0.01),
          p + "msg_rate %g x seconds %g = %g, iterations %d (off > 1%%)" %
          (r["msg_rate"], sec, r["msg_rate"] * sec, it))
    want_bw = r["bytes"] * 8 / sec / 1e9
    check(close(r["bw_gbps"], want_bw, 0.01),
          p + "bw_gbps %g, bytes*8/seconds/1e9 = %g (off > 1%%)" %
          (r["bw_gbps"], want_bw))
    cpu = r.get("cpu")
    check(isinstance(cpu, dict), p + "no cpu object")
    for side in ("client", "server"):
        c = (cpu or {}).get(side)
        if not check(isinstance(c, dict), p + "no cpu.%s" % side):
            continue
        tp = c.get("total_pct")
        check(isinstance(tp, (int, float)) and 0 <= tp <= 100,
              p + "cpu.%s.total_pct = %r, want 0..100" % (side, tp))
    if t == "tcp_lat":
        lat = r.get("lat_us")
        if not check(isinstance(lat, dict), p + "no lat_us object"):
            return
        keys = ("min", "p50", "p90", "p99", "max", "mean", "stdev")
        nf = len(fails)
        for k in keys:
            check(isinstance(lat.get(k), (int, float)),
                  p + "lat_us.%s = %r, want a number" % (k, lat.get(k)))
        if len(fails) > nf:
            return
        chain = [lat[k] for k in ("min", "p50", "p90", "p99", "max")]
        check(chain == sorted(chain) and chain[0] > 0,
              p + "want 0 < min <= p50 <= p90 <= p99 <= max, got %r" %
              chain)
        check(lat["min"] <= lat["mean"] <= lat["max"],
              p + "mean %g outside [min %g, max %g]" %
              (lat["mean"], lat["min"], lat["max"]))
        check(lat["stdev"] >= 0, p + "stdev %g < 0" % lat["stdev"])
    else:
        check("lat_us" not in r, p + "a bandwidth test carries lat_us")

def results(names):
    res = d.get("results")
    check(d.get("schema") == "ibgap/1",
          "schema %r, want 'ibgap/1'" % d.get("schema"))
    if not check(isinstance(res, list), "no results array"):
        return []
    got = [r.get("test") for r in res]
    check(got == names, "tests %r, want %r" % (got, names))
    return res
PY
}

# 1. duration mode, both tests
D=1
ig_client 30 dur -t tcp_bw,tcp_lat -D $D --warmup 0.1 --format json
expect_client_ok dur "tcp_bw,tcp_lat -D $D --format json"
ig_json_check "$TMP/dur.out" "tcp_bw,tcp_lat -D $D" <<PY
$(common_checks)
env = d.get("env") or {}
for side in ("client", "server"):
    e = env.get(side)
    if check(isinstance(e, dict), "no env.%s" % side):
        for k in ("hostname", "kernel", "version"):
            v = e.get(k)
            check(isinstance(v, str) and v != "",
                  "env.%s.%s = %r, want a non-empty string" % (side, k, v))
for r in results(["tcp_bw", "tcp_lat"]):
    check(r.get("streams") == 1, "streams %r, want 1" % r.get("streams"))
    check_result(r, $D)
PY

# 2. iteration mode: exact counts
ig_client 30 n_lat -n 1000 -t tcp_lat --warmup 0.1 --format json
expect_client_ok n_lat "-n 1000 -t tcp_lat"
ig_json_check "$TMP/n_lat.out" "-n 1000 -t tcp_lat" <<PY
$(common_checks)
for r in results(["tcp_lat"]):
    check(r.get("iterations") == 1000,
          "iterations %r, want exactly 1000" % r.get("iterations"))
    check_result(r, 0)
PY

ig_client 30 n_bw -t tcp_bw -n 500 -P 2 --warmup 0.1 --format json
expect_client_ok n_bw "-t tcp_bw -n 500 -P 2"
ig_json_check "$TMP/n_bw.out" "-t tcp_bw -n 500 -P 2" <<PY
$(common_checks)
for r in results(["tcp_bw"]):
    check(r.get("iterations") == 1000,
          "iterations %r, want exactly 500 x 2 streams = 1000" %
          r.get("iterations"))
    check(r.get("streams") == 2, "streams %r, want 2" % r.get("streams"))
    check_result(r, 0)
PY

# 3. four streams
ig_client 30 p4 -t tcp_bw -P 4 -D 0.5 --warmup 0.1 --format json
expect_client_ok p4 "-t tcp_bw -P 4"
ig_json_check "$TMP/p4.out" "-t tcp_bw -P 4" <<PY
$(common_checks)
for r in results(["tcp_bw"]):
    check(r.get("streams") == 4, "streams %r, want 4" % r.get("streams"))
    check_result(r, 0.5)
PY

# 4. requested window
ig_client 30 win -t tcp_bw --window 256K -D 0.5 --warmup 0.1 --format json
expect_client_ok win "-t tcp_bw --window 256K"
ig_json_check "$TMP/win.out" "--window 256K" <<PY
$(common_checks)
for r in results(["tcp_bw"]):
    w = r.get("window")
    if check(isinstance(w, dict), "no window object"):
        check(w.get("requested") == 262144,
              "window.requested %r, want 262144" % w.get("requested"))
        for k in ("snd", "rcv"):
            check(isinstance(w.get(k), int) and w.get(k) > 0,
                  "window.%s = %r, want a positive integer" % (k, w.get(k)))
    check_result(r, 0.5)
PY

check "server still running after 5 sessions" ig_server_alive
ig_done
