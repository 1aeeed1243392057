#!/bin/bash
# hostport.sh: a real client and doctor against a real server on ::1
# (ibgap server -B [::1]), the server address in each form a command line
# takes it (common/hostport.h): [::1] with -p, [::1]:PORT, ::1 with -p,
# and a name as NAME:PORT; --also [::1]; ibgap doctor [::1]:PORT.
# Exit 77 when this host has no ::1.
#   bash tests/integ/hostport.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init hostport "$@"

if ! python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' \
	2>/dev/null; then
	ig_log "skipped: this host has no IPv6 loopback address ::1"
	exit 77
fi
IG_SRV_BIND=[::1] ig_start_server

# client_ok TAG WHAT ARGS...: a short latency run to the server on ::1.
client_ok()
{
	local tag=$1 what=$2

	shift 2
	ig_run 30 "$tag" client -t tcp_lat -n 20 --warmup 0 "$@"
	expect_client_ok "$tag" "$what"
}

client_ok bracket "client [::1] -p PORT" '[::1]' -p "$SRV_PORT"
client_ok bracket_port "client [::1]:PORT" "[::1]:$SRV_PORT"
client_ok bracket_same "client [::1]:PORT -p PORT" "[::1]:$SRV_PORT" \
	-p "$SRV_PORT"
client_ok bare "client ::1 -p PORT" ::1 -p "$SRV_PORT"
expect_grep "$SRV_LOG" "[::1]:" "the server's log names its clients on ::1"

# --also [::1]: the tcp test again, the column tcp@::1, not failed
ig_run 30 also client -t tcp_lat -n 20 --warmup 0 --format json \
	"[::1]:$SRV_PORT" --also '[::1]'
expect_client_ok also "client [::1]:PORT --also [::1]"
ig_json_check "$TMP/also.out" "--also [::1]" <<'PY'
cols = [(r.get("transport"), r.get("error")) for r in d["results"]]
check(("tcp@::1", None) in cols, "no result of tcp@::1 without error: %r"
      % cols)
PY

ig_run 30 doctor doctor "[::1]:$SRV_PORT" --format json
expect_rc 0 "doctor [::1]:PORT"
ig_json_check "$TMP/doctor.out" "doctor [::1]:PORT" <<'PY'
hosts = d.get("hosts") or []
check(len(hosts) == 2 and "error" not in hosts[1],
      "want this host's and the server's findings: %r" % hosts[1:])
PY

# NAME:PORT: a name of ::1 from the resolver (localhost, ip6-localhost),
# else a name of 127.0.0.1 and a second server there
name=$(python3 - <<'PY'
import socket
for fam, addr in ((socket.AF_INET6, "::1"), (socket.AF_INET, "127.0.0.1")):
    for n in ("localhost", "ip6-localhost", "ip6-loopback"):
        try:
            ai = socket.getaddrinfo(n, None, fam)
        except OSError:
            continue
        if any(a[4][0] == addr for a in ai):
            print(n, addr)
            raise SystemExit
PY
)
read -r name addr <<<"$name"
[[ -n $name ]] || die "no name resolves to ::1 or 127.0.0.1 here"
[[ $addr == ::1 ]] || IG_SRV_BIND=$addr ig_start_server
client_ok name "client $name:PORT ($addr)" "$name:$SRV_PORT"
ig_done
