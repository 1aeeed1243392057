#!/bin/bash
# cli_order.sh: 'ibgap client HOST [options]' is the documented order
# (client --help); options before HOST work as well.
#   bash tests/integ/cli_order.sh /abs/path/to/ibgap
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh.inc"
ig_init cli_order "$@"
ig_start_server

ig_run 30 host_first client 127.0.0.1 -p "$SRV_PORT" -t tcp_lat -n 100 \
	--warmup 0 --format json
expect_client_ok host_first "client 127.0.0.1 -p PORT -t tcp_lat -n 100"
[[ $RC == 0 ]] && ig_json_check "$TMP/host_first.out" "HOST first" <<'PY'
r = d["results"]
check([x["test"] for x in r] == ["tcp_lat"], "tests %r" % r)
check(r[0]["iterations"] == 100, "iterations %r" % r[0]["iterations"])
PY

ig_run 30 host_mid client -p "$SRV_PORT" 127.0.0.1 -t tcp_lat -n 100 \
	--warmup 0 --format json
expect_client_ok host_mid "client -p PORT 127.0.0.1 -t tcp_lat -n 100"

ig_run 30 host_last client -p "$SRV_PORT" -t tcp_lat -n 100 --warmup 0 \
	--format json 127.0.0.1
expect_client_ok host_last "client -p PORT -t tcp_lat -n 100 127.0.0.1"

# Two hosts are still one too many, whatever the order.
ig_run 10 two_hosts client 127.0.0.1 -p "$SRV_PORT" 127.0.0.2
expect_rc 2 "client with two HOST arguments"
expect_one_line "$TMP/two_hosts.err" "client with two HOST arguments"
ig_done
