#!/bin/bash
# Regenerates the doctor's fixture trees (tests/data/doctor/<scenario>/),
# modelled on real sysfs and procfs layouts:
#   /sys/class/infiniband/DEV -> ../../devices/PCI.../BDF/infiniband/DEV
#   /sys/class/net/IF         -> ../../devices/PCI.../BDF/net/IF
#   .../infiniband/DEV/device and .../net/IF/device -> ../../../BDF
#   BDF/{numa_node,local_cpulist,current_link_*,max_link_*,msi_irqs/N}
#   DEV/ports/P/{state,phys_state,rate,link_layer,gids/0,
#                gid_attrs/ndevs/I,counters/*,hw_counters/*}
#   /proc/{net/snmp,self/status,interrupts,irq/N/smp_affinity_list,
#          sys/net/core/*,sys/net/ipv4/*}
#   /sys/devices/system/cpu/{online,cpuN/cpufreq/scaling_governor}
# and the answers of the non-file queries in .ibgap-fixture/ (route.json,
# ports.json, ethtool/IF.json, qdisc.json, nftables.json; see
# docs/design.md, "Doctor").
# The trees are committed; run this after changing it:
#   bash tests/data/doctor/mkfixtures.sh [OUT_DIR]
# (OUT_DIR, default this folder: where the trees go; the lint
# tests/lint/doctor_fixtures.sh writes them to a temporary one and compares.)
set -euo pipefail

HERE=$(cd "${1:-$(dirname "$0")}" && pwd)
R= # root of the scenario being written

# mkd PATH: PATH's folder made (no fork where it exists: this runs for
# each of over a thousand files)
mkd()
{
	local d=$R/$1

	d=${d%/*}
	[[ -d $d ]] || mkdir -p "$d"
}

w()
{
	mkd "$1"
	printf '%s\n' "$2" >"$R/$1"
}

# lnk TARGET LINK: a relative symlink, as sysfs has them.
lnk()
{
	mkd "$2"
	ln -sfn "$1" "$R/$2"
}

start()
{
	R=$HERE/$1
	rm -rf "$R"
	mkdir -p "$R/.ibgap-fixture/ethtool"
	# no qdisc on any netdev (noqueue), an empty nftables ruleset
	w .ibgap-fixture/qdisc.json '{}'
	w .ibgap-fixture/nftables.json '{ "nftables": [ { "metainfo": {
  "version": "1.0.6", "json_schema_version": 1 } } ] }'
}

# host NCPU GOVERNOR ALLOWED_CPUS
host()
{
	local n=$1 gov=$2 allowed=$3 i

	w sys/devices/system/cpu/online "0-$((n - 1))"
	for ((i = 0; i < n; i++)); do
		w "sys/devices/system/cpu/cpu$i/cpufreq/scaling_governor" "$gov"
	done
	w proc/self/status "Name:	ibgap
State:	R (running)
Pid:	4242
Cpus_allowed:	$(printf '%x' $(((1 << n) - 1)))
Cpus_allowed_list:	$allowed
Mems_allowed_list:	0-1"
	sock 16777216 16777216 "4096	131072	33554432" \
		"4096	16384	33554432" cubic
	snmp 400000000 1200
	w sys/class/net/lo/type 772
	w sys/class/net/lo/mtu 65536
}

# sock RMEM_MAX WMEM_MAX TCP_RMEM TCP_WMEM CC [BUSY_POLL]: busy polling
# off (0) unless given, the kernel's default
sock()
{
	w proc/sys/net/core/busy_poll "${6:-0}"
	w proc/sys/net/core/busy_read "${6:-0}"
	w proc/sys/net/ipv4/tcp_available_congestion_control "reno cubic"
	w proc/sys/net/core/rmem_max "$1"
	w proc/sys/net/core/wmem_max "$2"
	w proc/sys/net/ipv4/tcp_rmem "$3"
	w proc/sys/net/ipv4/tcp_wmem "$4"
	w proc/sys/net/ipv4/tcp_congestion_control "$5"
}

# snmp OUT_SEGS RETRANS_SEGS
snmp()
{
	w proc/net/snmp "Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates
Ip: 1 64 523456789 0 0 0 0 0 523456789 401234567 0 0 0 0 0 0 0 0 0
Icmp: InMsgs InErrors InCsumErrors InDestUnreachs OutMsgs OutErrors
Icmp: 12 0 0 12 12 0
Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors
Tcp: 1 200 120000 -1 1200 900 10 20 15 500000000 $1 $2 0 30 0
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 1000 2 0 1000 0 0 0 0 0"
}

PCIROOT=pci0000:3a/0000:3a:00.0

# pci BDF NODE LOCAL_CPULIST CUR_SPEED CUR_WIDTH MAX_SPEED MAX_WIDTH
pci()
{
	local d=sys/devices/$PCIROOT/$1

	w "$d/numa_node" "$2"
	w "$d/local_cpulist" "$3"
	w "$d/current_link_speed" "$4"
	w "$d/current_link_width" "$5"
	w "$d/max_link_speed" "$6"
	w "$d/max_link_width" "$7"
	w "$d/vendor" 0x15b3
}

# irqs BDF AFFINITY N...: MSI-X vectors in msi_irqs/ and their affinity
irqs()
{
	local bdf=$1 aff=$2 n

	shift 2
	for n in "$@"; do
		w "sys/devices/$PCIROOT/$bdf/msi_irqs/$n" msix
		w "proc/irq/$n/smp_affinity_list" "$aff"
	done
}

# ibdev DEV BDF
ibdev()
{
	local d=sys/devices/$PCIROOT/$2/infiniband/$1

	w "$d/node_type" "1: CA"
	w "$d/fw_ver" 20.39.1002
	lnk "../../../$2" "$d/device"
	lnk "../../devices/$PCIROOT/$2/infiniband/$1" "sys/class/infiniband/$1"
}

COUNTERS="symbol_error link_error_recovery link_downed port_rcv_errors
port_rcv_remote_physical_errors port_rcv_switch_relay_errors
port_xmit_discards port_xmit_constraint_errors port_rcv_constraint_errors
local_link_integrity_errors excessive_buffer_overrun_errors VL15_dropped
port_xmit_data port_rcv_data port_xmit_packets port_rcv_packets"
HWCOUNTERS="out_of_sequence packet_seq_err local_ack_timeout_err
rnr_nak_retry_err implied_nak_seq_err duplicate_request out_of_buffer"

# port DEV P LINK_LAYER RATE GID0 [STATE]
port()
{
	local p=sys/class/infiniband/$1/ports/$2 c

	w "$p/state" "${6:-4: ACTIVE}"
	w "$p/phys_state" "5: LinkUp"
	w "$p/rate" "$4"
	w "$p/link_layer" "$3"
	w "$p/gids/0" "$5"
	w "$p/lid" 0x12
	for c in $COUNTERS; do
		w "$p/counters/$c" 0
	done
	w "$p/counters/port_xmit_data" 98765432100
	w "$p/counters/port_rcv_data" 87654321000
	for c in $HWCOUNTERS; do
		w "$p/hw_counters/$c" 0
	done
}

# netdev IF BDF TYPE MTU ADDRESS DEV_PORT NQUEUES [MODE]
netdev()
{
	local d=sys/devices/$PCIROOT/$2/net/$1 i

	w "$d/type" "$3"
	w "$d/mtu" "$4"
	w "$d/address" "$5"
	w "$d/dev_port" "$6"
	w "$d/operstate" up
	[[ -z ${8:-} ]] || w "$d/mode" "$8"
	for ((i = 0; i < $7; i++)); do
		w "$d/queues/rx-$i/rps_cpus" 00
		w "$d/queues/tx-$i/xps_cpus" 00
	done
	lnk "../../../$2" "$d/device"
	lnk "../../devices/$PCIROOT/$2/net/$1" "sys/class/net/$1"
}

RING_MAX='"rx": 8192, "tx": 8192, "rx_max": 8192, "tx_max": 8192'

# ethtool IF DRIVER BUS FEATURES COALESCE [extra JSON members [RING]]
ethtool_json()
{
	local extra=${6:+,
$6} ring=${7:-$RING_MAX}
	w ".ibgap-fixture/ethtool/$1.json" "{
  \"drvinfo\": { \"driver\": \"$2\", \"bus_info\": \"$3\" },
  \"features\": { $4 },
  \"coalesce\": { $5 },
  \"channels\": { \"rx\": 0, \"tx\": 0, \"combined\": 8, \"max_rx\": 0,
                \"max_tx\": 0, \"max_combined\": 63 },
  \"ring\": { $ring }$extra
}"
}

FEAT_ON='"tso": true, "gso": true, "gro": true, "lro": true,
                "rx_csum": true, "tx_csum": true, "sg": true'
COAL_ADAPT='"adaptive_rx": true, "rx_usecs": 8, "rx_frames": 128,
                "tx_usecs": 16, "tx_frames": 32'

# route PEER OIF SRC: the fixture route table and this host's address
route()
{
	w .ibgap-fixture/route.json "{
  \"routes\": {
    \"$1\": { \"type\": \"unicast\", \"oif\": \"$2\", \"src\": \"$3\" },
    \"default\": { \"type\": \"unicast\", \"oif\": \"eth0\",
                 \"src\": \"198.51.100.10\" }
  },
  \"addrs\": { \"$3\": \"$2\", \"198.51.100.10\": \"eth0\",
             \"127.0.0.1\": \"lo\" }
}"
}

# ports JSON-MEMBERS
ports()
{
	w .ibgap-fixture/ports.json "{ $1 }"
}

GID_A=fe80:0000:0000:0000:0c42:a103:00b5:1c2e
HW_A=00:00:10:49:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:b5:1c:2e
GID_B=fe80:0000:0000:0000:0c42:a103:00b5:1c2f
HW_B=00:00:10:89:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:b5:1c:2f
# legacy IPoIB, connected mode supported (flag 0x80 in byte 0)
HW_CM=80:00:00:48:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:b5:1c:2e

# An enhanced-IPoIB host: ib0 on mlx5_0 port 1 at RATE, PCIe as given.
# enhanced NAME RATE CUR_SPEED CUR_WIDTH MAX_SPEED MAX_WIDTH
enhanced()
{
	start "$1"
	host 8 performance 0-7
	pci 0000:3b:00.0 0 0-3 "$3" "$4" "$5" "$6"
	irqs 0000:3b:00.0 0-3 120 121 122 123 124
	ibdev mlx5_0 0000:3b:00.0
	port mlx5_0 1 InfiniBand "$2" $GID_A
	netdev ib0 0000:3b:00.0 32 4092 $HW_A 0 8 datagram
	ethtool_json ib0 "mlx5_core[ib_ipoib]" 0000:3b:00.0 "$FEAT_ON" \
		"$COAL_ADAPT"
	route 192.0.2.20 ib0 192.0.2.10
	ports '"mlx5_0/1": { "active_mtu": 4096, "max_mtu": 4096 }'
}

# 1. healthy: enhanced IPoIB, EDR in Gen3 x16; a second port (ib1 on
#    mlx5_1) whose route leaves through ib1 with ib0's source address.
healthy()
{
	enhanced healthy "100 Gb/sec (4X EDR)" "8.0 GT/s PCIe" 16 \
		"8.0 GT/s PCIe" 16
	pci 0000:3b:00.1 0 0-3 "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe" 16
	irqs 0000:3b:00.1 0-3 130 131 132 133 134
	ibdev mlx5_1 0000:3b:00.1
	port mlx5_1 1 InfiniBand "100 Gb/sec (4X EDR)" $GID_B
	netdev ib1 0000:3b:00.1 32 4092 $HW_B 0 8 datagram
	ethtool_json ib1 "mlx5_core[ib_ipoib]" 0000:3b:00.1 "$FEAT_ON" \
		"$COAL_ADAPT"
	w .ibgap-fixture/route.json '{
  "routes": {
    "192.0.2.20": { "type": "unicast", "oif": "ib0", "src": "192.0.2.10" },
    "192.0.2.30": { "type": "unicast", "oif": "ib1", "src": "192.0.2.10" },
    "default": { "type": "unicast", "oif": "eth0",
                 "src": "198.51.100.10" }
  },
  "addrs": { "192.0.2.10": "ib0", "192.0.2.11": "ib1",
             "198.51.100.10": "eth0", "127.0.0.1": "lo" }
}'
	ports '"mlx5_0/1": { "active_mtu": 4096, "max_mtu": 4096 },
  "mlx5_1/1": { "active_mtu": 4096, "max_mtu": 4096 }'
	# the management NIC: no RDMA device
	w sys/devices/pci0000:00/0000:00:03.0/net/eth0/type 1
	w sys/devices/pci0000:00/0000:00:03.0/net/eth0/mtu 1500
	w sys/devices/pci0000:00/0000:00:03.0/net/eth0/address \
		52:54:00:12:34:56
	for i in 0 1 2 3; do
		w sys/devices/pci0000:00/0000:00:03.0/net/eth0/queues/rx-$i/rps_cpus 00
		w sys/devices/pci0000:00/0000:00:03.0/net/eth0/queues/tx-$i/xps_cpus 00
	done
	lnk ../../devices/pci0000:00/0000:00:03.0/net/eth0 sys/class/net/eth0
	ethtool_json eth0 virtio_net 0000:00:03.0 "$FEAT_ON" "$COAL_ADAPT"
}

# 2. legacy IPoIB, datagram, MTU 2044 on a 4096 port (2K partition);
#    ConnectX-3 (mlx4), FDR in Gen3 x8.
dgram_2044()
{
	start ipoib_dgram_2044
	host 8 performance 0-7
	pci 0000:3b:00.0 0 0-3 "8.0 GT/s PCIe" 8 "8.0 GT/s PCIe" 8
	irqs 0000:3b:00.0 0-3 120 121 122 123
	ibdev mlx4_0 0000:3b:00.0
	port mlx4_0 1 InfiniBand "56 Gb/sec (4X FDR)" $GID_A
	netdev ib0 0000:3b:00.0 32 2044 $HW_CM 0 1 datagram
	ethtool_json ib0 ib_ipoib 0000:3b:00.0 "$FEAT_ON" "$COAL_ADAPT"
	route 192.0.2.20 ib0 192.0.2.10
	ports '"mlx4_0/1": { "active_mtu": 4096, "max_mtu": 4096 }'
}

# 3. legacy IPoIB in connected mode at 65520 (ipoib_enhanced=0 on mlx5):
#    the ULP turned TSO, tx checksum and scatter-gather off.
cm_65520()
{
	start ipoib_cm_65520
	host 8 performance 0-7
	pci 0000:3b:00.0 0 0-3 "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe" 16
	irqs 0000:3b:00.0 0-3 120 121 122 123
	ibdev mlx5_0 0000:3b:00.0
	port mlx5_0 1 InfiniBand "100 Gb/sec (4X EDR)" $GID_A
	netdev ib0 0000:3b:00.0 32 65520 $HW_CM 0 1 connected
	ethtool_json ib0 ib_ipoib 0000:3b:00.0 '"tso": false, "gso": true,
                "gro": true, "lro": false, "rx_csum": true,
                "tx_csum": false, "sg": false' "$COAL_ADAPT"
	route 192.0.2.20 ib0 192.0.2.10
	ports '"mlx5_0/1": { "active_mtu": 4096, "max_mtu": 4096 }'
}

# 4. enhanced IPoIB on HDR in Gen4 x16, with link errors and a lossy TCP.
enhanced_errors()
{
	enhanced ipoib_enhanced "200 Gb/sec (4X HDR)" "16.0 GT/s PCIe" 16 \
		"16.0 GT/s PCIe" 16
	local p=sys/class/infiniband/mlx5_0/ports/1
	w "$p/counters/symbol_error" 1523
	w "$p/counters/link_error_recovery" 7
	w "$p/hw_counters/out_of_sequence" 42
	snmp 400000000 2000000
}

# A RoCE host: ens1f0np0 on mlx5_0 port 1, a 100G port; standard MTU, no
# pause, no coalescing.
# roce NAME RATE SPEED_MBPS MAX_SPEED_MBPS
roce()
{
	start "$1"
	host 8 performance 0-7
	pci 0000:3b:00.0 0 0-3 "8.0 GT/s PCIe" 16 "8.0 GT/s PCIe" 16
	irqs 0000:3b:00.0 0-3 120 121 122 123 124
	ibdev mlx5_0 0000:3b:00.0
	port mlx5_0 1 Ethernet "$2" fe80:0000:0000:0000:0e42:a1ff:feb5:1c2e
	local g=sys/class/infiniband/mlx5_0/ports/1
	w "$g/gids/1" fe80:0000:0000:0000:0e42:a1ff:feb5:1c2e
	w "$g/gids/2" 0000:0000:0000:0000:0000:ffff:c000:020a
	w "$g/gids/3" 0000:0000:0000:0000:0000:ffff:c000:020a
	w "$g/gid_attrs/ndevs/0" ens1f0np0
	w "$g/gid_attrs/ndevs/1" ens1f0np0
	w "$g/gid_attrs/ndevs/2" ens1f0np0
	w "$g/gid_attrs/ndevs/3" ens1f0np0
	w "$g/gid_attrs/types/0" "IB/RoCE v1"
	w "$g/gid_attrs/types/1" "RoCE v2"
	w "$g/gid_attrs/types/2" "IB/RoCE v1"
	w "$g/gid_attrs/types/3" "RoCE v2"
	netdev ens1f0np0 0000:3b:00.0 1 1500 0c:42:a1:b5:1c:2e 0 8
	ethtool_json ens1f0np0 mlx5_core 0000:3b:00.0 "$FEAT_ON" \
		'"adaptive_rx": false, "rx_usecs": 0, "rx_frames": 1,
                "tx_usecs": 16, "tx_frames": 32' \
		'  "pause": { "autoneg": false, "rx": false, "tx": false },
  "link": { "speed_mbps": '"$3"', "max_speed_mbps": '"$4"' }'
	route 192.0.2.20 ens1f0np0 192.0.2.10
	ports '"mlx5_0/1": { "active_mtu": 1024, "max_mtu": 4096 }'
}

# 5. RoCE on a 100G Ethernet port at 100G.
roce_100g()
{
	roce roce_100g "100 Gb/sec (4X EDR)" 100000 100000
}

# 5b. the same 100G-capable port trained at 25G (one lane).
roce_100g_at_25g()
{
	roce roce_100g_at_25g "25 Gb/sec (1X EDR)" 25000 100000
}

# 6. a 200G HCA (HDR, PCIe Gen4 x16 capable) in a Gen3 x8 slot.
pcie_gen3x8()
{
	enhanced pcie_gen3x8_200g "200 Gb/sec (4X HDR)" "8.0 GT/s PCIe" 8 \
		"16.0 GT/s PCIe" 16
}

# 7. the HCA on the far NUMA node (1: CPUs 4-7) while ibgap may only run
#    on node 0 and the HCA's interrupts are steered there too; no msi_irqs
#    directory: the IRQs are found in /proc/interrupts by PCI address.
numa_far()
{
	enhanced numa_far "100 Gb/sec (4X EDR)" "8.0 GT/s PCIe" 16 \
		"8.0 GT/s PCIe" 16
	local bdf=0000:3b:00.0 n
	rm -rf "$R/sys/devices/$PCIROOT/$bdf/msi_irqs"
	w "sys/devices/$PCIROOT/$bdf/numa_node" 1
	w "sys/devices/$PCIROOT/$bdf/local_cpulist" 4-7
	w proc/self/status "Name:	ibgap
Pid:	4242
Cpus_allowed:	0f
Cpus_allowed_list:	0-3
Mems_allowed_list:	0"
	w proc/interrupts "            CPU0       CPU1       CPU2       CPU3       CPU4       CPU5       CPU6       CPU7
   1:          0          0          0          0          0          0          0          9  IR-IO-APIC    1-edge      i8042
 119:          0          0          0          0          0          0          0          0  IR-PCI-MSIX-$bdf    0-edge      mlx5_async0@pci:$bdf
 120:     812345          0          0          0          0          0          0          0  IR-PCI-MSIX-$bdf    1-edge      mlx5_comp0@pci:$bdf
 121:          0     712345          0          0          0          0          0          0  IR-PCI-MSIX-$bdf    2-edge      mlx5_comp1@pci:$bdf
 122:          0          0     612345          0          0          0          0          0  IR-PCI-MSIX-$bdf    3-edge      mlx5_comp2@pci:$bdf
 123:          0          0          0     512345          0          0          0          0  IR-PCI-MSIX-$bdf    4-edge      mlx5_comp3@pci:$bdf
 200:          0          0          0          0          0          0          0          0  IR-PCI-MSI-0000:00:03.0    0-edge      virtio0-config
NMI:          0          0          0          0          0          0          0          0   Non-maskable interrupts"
	for n in 119 120 121 122 123; do
		w "proc/irq/$n/smp_affinity_list" 0-3
	done
	w proc/irq/200/smp_affinity_list 0-7
}

# 8. net.core.rmem_max/wmem_max left at the kernel's default (212992).
small_rmem()
{
	enhanced small_rmem "100 Gb/sec (4X EDR)" "8.0 GT/s PCIe" 16 \
		"8.0 GT/s PCIe" 16
	sock 212992 212992 "4096	131072	6291456" "4096	16384	4194304" cubic
}

# 9. degraded: the link trained at 1X, powersave governor, GRO off, long
#    interrupt coalescing, one receive queue; /proc/net/snmp unreadable.
degraded()
{
	enhanced degraded "25 Gb/sec (1X EDR)" "8.0 GT/s PCIe" 16 \
		"8.0 GT/s PCIe" 16
	host 8 powersave 0-7
	# the folder goes too: git keeps no empty folder, so the committed
	# tree has none
	rm -rf "$R/proc/net"
	local q=sys/devices/$PCIROOT/0000:3b:00.0/net/ib0/queues i
	for ((i = 1; i < 8; i++)); do
		rm -rf "$R/$q/rx-$i"
	done
	ethtool_json ib0 "mlx5_core[ib_ipoib]" 0000:3b:00.0 '"tso": true,
                "gso": true, "gro": false, "lro": false, "rx_csum": true,
                "tx_csum": true, "sg": true' '"adaptive_rx": false,
                "rx_usecs": 256, "rx_frames": 128, "tx_usecs": 16,
                "tx_frames": 32'
}

# 10. Soft-RoCE as rxe-run makes it: rxe0 on veth0 (a virtual netdev with
#     one queue pair and no coalescing, pause or ring operations), looked
#     at without CAP_NET_ADMIN (the nftables ruleset cannot be listed).
rxe_veth()
{
	local d=sys/devices/virtual/infiniband/rxe0 n=sys/devices/virtual/net/veth0

	start rxe_veth
	host 8 performance 0-7
	w "$d/parent" veth0
	w "$d/node_type" "1: CA"
	lnk ../../devices/virtual/infiniband/rxe0 sys/class/infiniband/rxe0
	port rxe0 1 Ethernet "10 Gb/sec (1X FDR10)" \
		fe80:0000:0000:0000:a0b1:c2ff:fed3:e4f5
	w "$d/ports/1/gids/1" 0000:0000:0000:0000:0000:ffff:0ae9:0001
	w "$d/ports/1/gid_attrs/ndevs/0" veth0
	w "$d/ports/1/gid_attrs/ndevs/1" veth0
	rm -rf "$R/$d/ports/1/counters" "$R/$d/ports/1/hw_counters"
	w "$d/ports/1/hw_counters/rcvd_seq_err" 0
	w "$d/ports/1/hw_counters/retry_exceeded_err" 0
	w "$n/type" 1
	w "$n/mtu" 1500
	w "$n/address" a2:b1:c2:d3:e4:f5
	w "$n/queues/rx-0/rps_cpus" 00
	w "$n/queues/tx-0/xps_cpus" 00
	lnk ../../devices/virtual/net/veth0 sys/class/net/veth0
	w .ibgap-fixture/ethtool/veth0.json '{
  "drvinfo": { "driver": "veth", "bus_info": "" },
  "features": { "tso": true, "gso": true, "gro": true, "lro": false,
                "rx_csum": true, "tx_csum": true, "sg": true },
  "channels": { "rx": 1, "tx": 1, "combined": 0, "max_rx": 8,
                "max_tx": 8, "max_combined": 0 },
  "link": { "speed_mbps": 10000, "max_speed_mbps": 0 }
}'
	route 10.233.0.2 veth0 10.233.0.1
	ports '"rxe0/1": { "active_mtu": 1024, "max_mtu": 4096 }'
	# as a user without CAP_NET_ADMIN sees it: the nftables ruleset not
	# examined; legacy iptables tables exist
	w .ibgap-fixture/nftables.json '{ "errno": 1 }'
	w proc/net/ip_tables_names "filter
nat"
}

# 11. what a packet crosses besides the HCA: a tbf shaper on ib0's root
#     and a police action on its ingress,
#     nftables rules on the input hook, one of them on ct state, a busy
#     conntrack table, rx/tx rings at 1024 of 8192, one receive queue with
#     RPS off, one HCA interrupt on the far node.
shaped_filtered()
{
	enhanced shaped_filtered "100 Gb/sec (4X EDR)" "8.0 GT/s PCIe" 16 \
		"8.0 GT/s PCIe" 16
	local q=sys/devices/$PCIROOT/0000:3b:00.0/net/ib0/queues i
	for ((i = 1; i < 8; i++)); do
		rm -rf "${R:?}/$q/rx-$i"
	done
	ethtool_json ib0 "mlx5_core[ib_ipoib]" 0000:3b:00.0 "$FEAT_ON" \
		"$COAL_ADAPT" "" \
		'"rx": 1024, "tx": 1024, "rx_max": 8192, "tx_max": 8192'
	w .ibgap-fixture/qdisc.json '{
  "ib0": [ { "kind": "tbf", "handle": "8001:", "parent": "root",
             "rate": 12500000 },
           { "kind": "ingress", "handle": "ffff:", "parent": "ingress",
             "police": true } ],
  "eth0": [ { "kind": "fq_codel", "handle": "0:", "parent": "root" } ]
}'
	w .ibgap-fixture/nftables.json '{ "nftables": [
  { "metainfo": { "version": "1.0.6", "json_schema_version": 1 } },
  { "table": { "family": "inet", "name": "filter", "handle": 1 } },
  { "chain": { "family": "inet", "table": "filter", "name": "input",
               "handle": 1, "type": "filter", "hook": "input", "prio": 0,
               "policy": "accept" } },
  { "chain": { "family": "inet", "table": "filter", "name": "helper",
               "handle": 2 } },
  { "rule": { "family": "inet", "table": "filter", "chain": "input",
              "handle": 3, "expr": [ { "match": { "op": "in",
              "left": { "ct": { "key": "state" } },
              "right": [ "established", "related" ] } },
              { "accept": null } ] } },
  { "rule": { "family": "inet", "table": "filter", "chain": "input",
              "handle": 4, "expr": [ { "match": { "op": "==",
              "left": { "payload": { "protocol": "tcp",
              "field": "dport" } }, "right": 22 } },
              { "accept": null } ] } },
  { "rule": { "family": "inet", "table": "filter", "chain": "helper",
              "handle": 5, "expr": [ { "counter": null } ] } }
] }'
	# one interrupt steered off the HCA's node (CPUs 0-3)
	w proc/irq/124/smp_affinity_list 4-7
	w proc/sys/net/netfilter/nf_conntrack_count 42
	w proc/sys/net/netfilter/nf_conntrack_max 262144
}

healthy
shaped_filtered
rxe_veth
dgram_2044
cm_65520
enhanced_errors
roce_100g
roce_100g_at_25g
pcie_gen3x8
numa_far
small_rmem
degraded
echo "fixtures written under $HERE"
