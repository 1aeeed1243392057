#!/bin/bash
# Writes the fuzzers' seed corpora (docs/design.md, "Fuzzing").
#   fuzz/make-seeds.sh              fuzz/corpus/msg/: one valid message of
#                                   every type (bodies as ibgap sends them),
#                                   whole sessions, and invalid messages
#   fuzz/make-seeds.sh IBGAP        also fuzz/corpus/baseline/: JSON reports
#                                   of that ibgap against a loopback server
#                                   (tcp_bw, tcp_lat, a sweep, --repeat,
#                                   --save-baseline, -P 2) and the saved
#                                   reports of tests/data/baseline/
# The files are committed; run this again after a change of the protocol
# or of the report's schema.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")"

die()
{
	echo "make-seeds.sh: $*" >&2
	exit 1
}

# hdr TYPE LEN [VERSION] [MAGIC]: a 12-byte header on stdout.
hdr()
{
	local type=$1 len=$2 ver=${3:-1} magic=${4:-IBGP} b

	printf '%s' "$magic"
	for b in $((ver >> 8)) $((ver & 255)) $((type >> 8)) $((type & 255)) \
		$((len >> 24 & 255)) $((len >> 16 & 255)) $((len >> 8 & 255)) \
		$((len & 255)); do
		printf '%b' "\\x$(printf %02x "$b")"
	done
}

# msg TYPE BODY: a whole message on stdout (BODY is ASCII).
msg()
{
	hdr "$1" "${#2}"
	printf '%s' "$2"
}

SYSINFO='{"sysinfo":{"hostname":"node01","kernel":"6.1.0-18-amd64","version":"0.1.0"}}'
SETUP_BW='{"test":"tcp_bw","size":65536,"iterations":0,"duration_ns":2000000000,"warmup_ns":500000000,"streams":1,"window":0,"timeout_ms":10000,"tx_depth":128,"cq_mod":16,"inline_size":0}'
SETUP_LAT='{"test":"tcp_lat","size":2,"iterations":0,"duration_ns":200000000,"warmup_ns":100000000,"streams":1,"window":0,"timeout_ms":10000,"tx_depth":128,"cq_mod":16,"inline_size":0}'
SETUP_WR='{"test":"write_bw","size":1048576,"iterations":5000,"duration_ns":0,"warmup_ns":0,"streams":4,"window":4194304,"timeout_ms":3000,"tx_depth":256,"cq_mod":8,"inline_size":64}'
SETUP_BIG='{"test":"send_lat","size":68719476736,"iterations":0,"duration_ns":2000000000,"warmup_ns":500000000,"streams":65,"window":0,"timeout_ms":10000,"tx_depth":128,"cq_mod":16,"inline_size":0}'
SETUP_NEG='{"test":"tcp_bw","size":-1,"iterations":0,"duration_ns":1,"warmup_ns":0,"streams":1,"window":0,"timeout_ms":1,"tx_depth":1,"cq_mod":1,"inline_size":0}'
XPORT_TCP='{"port":40249,"cookie":6676178840071370162}'
XPORT_MRS='{"mrs":[{"addr":140234567891200,"rkey":4660},{"addr":140234567956736,"rkey":4661}]}'
READY='{"window_rcv":131072,"window_snd":4194304,"xinfo":{"device":"rxe0","port":1,"gid_index":1,"link_layer":"Ethernet","rate_gbps":10.0}}'
FP='{"kernel":"6.1.0-18-amd64","rdma_core":"44.0","ibgap":"0.1.0","device":"mlx5_0","fw_ver":"20.31.1014","board_id":"MT_0000000222","driver":"mlx5_core","link_rate":"200 Gb/sec (4X HDR)","link_width":"4X","link_speed":"HDR","netdev":"ib0","mtu":"2044","ipoib_mode":"datagram","pcie_speed":"16.0 GT/s PCIe","pcie_width":"16"}'
CPU='{"user_pct":85.0,"sys_pct":10.0,"irq_pct":0.0,"softirq_pct":2.5,"total_pct":100.0,"proc_user_s":0.0,"proc_sys_s":0.041017999999999999,"seconds":0.204154432,"ncpus":2,"us_per_kib":2.1093486331420856}'
RESULT="{\"cpu\":$CPU,\"fingerprint\":$FP}"
FINDINGS='{"paths":[{"address":"10.0.0.2","route_type":"unicast","route_dev":"ib0","source":"10.0.0.1","netdev":"ib0","kind":"ipoib","rdma":{"device":"mlx5_0","port":1,"link_layer":"InfiniBand","rate_gbps":200.0}}],"findings":[{"severity":"warn","id":"ipoib.mtu","what":"ib0 runs datagram mode with MTU 2044","evidence":[{"source":"/sys/class/net/ib0/mode","value":"datagram"}],"fix":"use connected mode"},{"severity":"info","id":"sock.cc","what":"TCP congestion control is bbr","evidence":[{"source":"/proc/sys/net/ipv4/tcp_congestion_control","value":"bbr"}],"fix":""}],"read_errors":[{"source":"/sys/class/net/ib0/device/current_link_speed","error":"No such file or directory"}],"host":{"hostname":"node02","kernel":"6.1.0-18-amd64","version":"0.1.0"},"dropped":0}'
# --auth-file: the nonces and the client's MAC (key "0123456789abcdef")
NONCE_S=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
NONCE_C=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f
MAC_C=72914a140d0fe8eb8c8f2000239908878eeb4b815173bd4785a98c0e304c9a85

# bad TYPE FORMAT [VERSION] [MAGIC]: a message whose body is printf FORMAT
# (escapes allowed, NUL too), with its true length in the header.
bad()
{
	local body

	body=$(mktemp)
	# shellcheck disable=SC2059
	printf "$2" >"$body"
	hdr "$1" "$(wc -c <"$body")" "${3:-1}" "${4:-IBGP}"
	cat "$body"
	rm -f "$body"
}

write_msgs()
{
	local d=corpus/msg

	rm -rf "$d"
	mkdir -p "$d"
	msg 1 "$SYSINFO" >"$d/01-hello"
	msg 2 "$SYSINFO" >"$d/02-welcome"
	msg 2 "${SYSINFO%\}},\"auth\":\"$MAC_C\"}" >"$d/02-welcome-auth"
	msg 3 '{"message":"busy: a session from 10.0.0.1:40212 is running"}' \
		>"$d/03-busy"
	msg 4 '{"message":"protocol version 2 is not supported: this server speaks 1"}' \
		>"$d/04-error"
	msg 5 "$SETUP_BW" >"$d/05-setup-tcp_bw"
	msg 5 "$SETUP_LAT" >"$d/05-setup-tcp_lat"
	msg 5 "$SETUP_WR" >"$d/05-setup-write_bw"
	msg 5 "$SETUP_BIG" >"$d/05-setup-over-caps"
	msg 5 "$SETUP_NEG" >"$d/05-setup-negative"
	msg 5 '{"test":"nope_bw","size":1}' >"$d/05-setup-unknown-test"
	# fuzz/crashes/msg-params-test-name-newline: a raw LF and ESC
	bad 5 '{"test":"tcp_\nbw\x1b[2J"}' >"$d/05-setup-test-control-chars"
	msg 6 "$XPORT_TCP" >"$d/06-xport-tcp"
	msg 6 "$XPORT_MRS" >"$d/06-xport-mrs"
	msg 7 "$READY" >"$d/07-ready"
	msg 8 '{"rx_bytes":[107741184,99614720]}' >"$d/08-sync"
	msg 9 '{}' >"$d/09-synced"
	msg 10 '{}' >"$d/10-begin"
	msg 11 '{"bytes":194183168}' >"$d/11-end"
	msg 12 "$RESULT" >"$d/12-result"
	msg 13 '{}' >"$d/13-keepalive"
	msg 14 '{}' >"$d/14-bye"
	msg 15 '{"window":0}' >"$d/15-doctor"
	msg 16 "$FINDINGS" >"$d/16-findings"
	msg 17 "{\"nonce\":\"$NONCE_S\"}" >"$d/17-auth"
	msg 18 "{\"nonce\":\"$NONCE_C\",\"mac\":\"$MAC_C\"}" \
		>"$d/18-auth-reply"
	# whole conversations, one direction each
	{
		msg 1 "$SYSINFO"
		msg 5 "$SETUP_BW"
		msg 8 '{"rx_bytes":[107741184]}'
		msg 10 '{}'
		msg 8 '{"rx_bytes":[301924352]}'
		msg 11 '{"bytes":194183168}'
		msg 14 '{}'
	} >"$d/20-session-client"
	{
		msg 2 "$SYSINFO"
		msg 6 "$XPORT_TCP"
		msg 7 '{"window_rcv":131072,"window_snd":4194304}'
		msg 9 '{}'
		msg 9 '{}'
		msg 12 "$RESULT"
	} >"$d/20-session-server"
	# invalid ones
	bad 1 '{}' 1 IBGQ >"$d/30-bad-magic"
	bad 1 '{}' 2 >"$d/30-version-2"
	{ hdr 1 65537; printf '{}'; } >"$d/30-over-cap"
	bad 0 '{}' >"$d/30-type-0"
	bad 23 '{}' >"$d/30-type-23"
	printf 'IBGP\0\1\0' >"$d/30-half-header"
	{ hdr 1 74; printf '{"sysinfo":{"hostname"'; } >"$d/30-half-body"
	bad 4 '[]' >"$d/30-array-body"
	bad 4 ' {} ' >"$d/30-white-space"
	bad 4 '{"m":"a\0b"}' >"$d/30-nul-body"
	bad 4 'hello' >"$d/30-not-json"
	bad 4 '{"a":1}{"b":2}' >"$d/30-two-objects"
	bad 4 '{"a":"\xc3\x28"}' >"$d/30-bad-utf8"
	bad 4 "$(printf '{"a":%.0s' $(seq 40))1$(printf '}%.0s' $(seq 40))" \
		>"$d/30-deep"
}

# report NAME ARGS...: one JSON report of the client against the server.
report()
{
	local name=$1

	shift
	"$IBGAP" client -p "$port" "$@" --warmup 0.1 --format json \
		-o "corpus/baseline/$name.json" 127.0.0.1 >/dev/null ||
		die "client $* failed"
}

write_reports()
{
	local log f

	rm -rf corpus/baseline
	mkdir -p corpus/baseline
	log=$(mktemp)
	for _ in 1 2 3 4 5; do
		port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
		"$IBGAP" server -B 127.0.0.1 -p "$port" 2>"$log" &
		srv=$!
		for _ in $(seq 50); do
			grep -q "listening on port" "$log" && break
			kill -0 "$srv" 2>/dev/null || break
			sleep 0.1
		done
		grep -q "listening on port" "$log" && break
		kill "$srv" 2>/dev/null || true
		wait "$srv" 2>/dev/null || true
		srv=
	done
	[[ -n $srv ]] || die "the server did not start: $(cat "$log")"
	trap 'kill "$srv" 2>/dev/null; rm -f "$log"' EXIT
	report tcp_bw -t tcp_bw -D 0.3
	report tcp_lat -t tcp_lat -D 0.3
	report sweep -t tcp_bw,tcp_lat -s 2:64K -D 0.1
	report repeat -t tcp_bw,tcp_lat -D 0.2 --repeat 3
	report streams -t tcp_bw -P 2 -s 4K,64K -D 0.2
	"$IBGAP" client -p "$port" -t tcp_bw,tcp_lat -D 0.2 --warmup 0.1 \
		--save-baseline corpus/baseline/saved.json 127.0.0.1 \
		>/dev/null || die "client --save-baseline failed"
	for f in ../tests/data/baseline/*.json; do
		cp "$f" "corpus/baseline/data-${f##*/}"
	done
	kill "$srv"
	wait "$srv" 2>/dev/null || true
	trap - EXIT
	rm -f "$log"
}

srv=
write_msgs
if [[ -n ${1:-} ]]; then
	IBGAP=$(realpath "$1")
	[[ -x $IBGAP ]] || die "'$1' is not an executable ibgap"
	write_reports
fi
for d in corpus/*/; do
	echo "make-seeds.sh: $(find "$d" -type f | wc -l) files in fuzz/$d"
done
