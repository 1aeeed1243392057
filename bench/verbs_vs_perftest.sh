#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# verbs_vs_perftest.sh - ibgap's verbs tests next to perftest on the same
# RDMA device, in one run of tests/rxe/rxe-run (one guest boot for the whole
# benchmark when the machine has no RDMA NIC):
#
#   write_bw vs ib_write_bw   bandwidth, 10^9 bit/s both; ibgap/perftest >= 1
#                             is the target
#   send_lat vs ib_send_lat   ibgap p50 vs perftest t_typical (its median),
#                             half round trip; ibgap/perftest <= 1 is the
#                             target
#
#   read_bw vs ib_read_bw,    with -T read_bw,read_lat (or any list of bw,
#   read_lat vs ib_read_lat   lat, read_bw, read_lat): the same figures;
#                             read_lat, like ib_read_lat, is the whole read
#   ud_send_bw vs ib_send_bw -c UD,   with -T ud_bw,ud_lat: the same
#   ud_send_lat vs ib_send_lat -c UD  figures, ud_bw at --ud-size (1024)
#   send_bw vs ib_send_bw     with -T send_bw: as write_bw, RC sends
#
# The measuring is done by verbs_vs_perftest.guest.sh (options below are
# its options, except -o).  In the guest only /tmp is writable and vanishes
# at power-off, so the guest prints its TSV and raw outputs and this script
# saves them under -o DIR:
#
#   DIR/verbs_vs_perftest-STAMP.tsv          round test tool metric value unit
#   DIR/verbs_vs_perftest-STAMP.raw.txt      every command, output, time
#   DIR/verbs_vs_perftest-STAMP.log          what was printed
#
#   DIR/verbs_vs_perftest-STAMP.steal        this host's steal time, sampled
#                                            every 0.25 s (epoch, ticks)
#
# When this host is itself a virtual machine, its hypervisor's steal time
# slows whichever tool runs at that moment.  The wrapper samples it and
# prints, per round, the CPUs stolen during each tool's run (the guest
# records when each client ran), and the median ratio over the rounds in
# which neither run lost more than --steal-max CPUs (default 0.05): the
# same rule for both tools, beside the plain median, never instead of it.
# It also fits log(ratio) against the difference of the two runs' steal
# over all rounds and prints the ratio at equal steal with its 95%
# interval; --report does all this again for saved runs, pooled.
#
# Soft-RoCE in an emulated guest says nothing absolute about hardware: only
# the ratio of the two tools in the same run means something.  Exit status:
# the guest script's (0 all figures, 1 some run failed, 2 usage), 77 when
# rxe-run cannot provide a device, 124 when the guest timed out.
set -u -o pipefail

SELF=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
GUEST=$HERE/verbs_vs_perftest.guest.sh
RXE_RUN=$ROOT/tests/rxe/rxe-run
OUTDIR=/tmp
STEAL_MAX=0.05
source "$HERE/lib.sh.inc"

usage() {
	cat <<EOF
usage: $SELF [-o DIR] [options of verbs_vs_perftest.guest.sh]
  -o, --outdir DIR   where the TSV, raw outputs and log go on this host
                     (default $OUTDIR)
      --steal-max CPUS  a round counts as undisturbed when neither tool's
                     run lost more CPUs than this to the hypervisor
                     (default $STEAL_MAX)
      --report TSV...  no guest: the steal report of saved runs (each
                     DIR/verbs_vs_perftest-STAMP.tsv with its .steal),
                     their rounds pooled
  -h, --help         this text and the guest script's options
Environment: IG_RXE_TIMEOUT (default 300 + 300 s per round), and the other
IG_RXE_* variables of tests/rxe/rxe-run (docs/softroce.md).

EOF
	bash "$GUEST" --help
}

# steal_rows TSV STEAL KEEP: per round, the CPUs stolen during each tool's
# client run (ticks / HZ / seconds, from the samples around its start and
# end); appends "test ratio undisturbed(0/1) ibgap-perftest" to KEEP.
steal_rows() {
	[[ -s $1 && -s $2 ]] || return 0
	awk -v hz="$(getconf CLK_TCK)" -v max="$STEAL_MAX" -v keep="$3" \
	    -v name="${1##*/}" '
		function at(t,   i) { # steal ticks of the last sample <= t
			for (i = 1; i < ns && st[i + 1] <= t; i++);
			return sv[i] }
		FNR == NR { st[++ns] = $1; sv[ns] = $2; next }
		$4 == "start" { s[$1 " " $2 " " $3] = $5 }
		$4 == "end" { e[$1 " " $2 " " $3] = $5 }
		$3 == "ratio" { rat[$1 " " $2] = $5; key[++nk] = $1 " " $2 }
		END {
			if (ns < 2) exit
			printf "\n%s: this host'"'"'s steal time during each " \
			       "client run (CPUs; rounds above %s are " \
			       "disturbed):\n", name, max
			for (k = 1; k <= nk; k++) {
				split(key[k], rt, " "); ok = 1; line = ""
				for (tool = 1; tool <= 2; tool++) {
					n = rt[1] " " rt[2] " " \
					    (tool == 1 ? "ibgap" : "perftest")
					c[tool] = "NA"
					if (!(n in s) || s[n] == "NA" ||
					    e[n] <= s[n]) { ok = 0; continue }
					c[tool] = (at(e[n]) - at(s[n])) / hz / \
						  (e[n] - s[n])
					line = line sprintf(" %s %.3f",
						(tool == 1 ? "ibgap" : "perftest"),
						c[tool])
					if (c[tool] > max) ok = 0
				}
				printf "  round %s %s:%s ratio %s%s\n", rt[1],
					rt[2], line, rat[key[k]],
					ok ? "" : "  (disturbed)"
				if (rat[key[k]] == "NA" || c[1] == "NA" ||
				    c[2] == "NA")
					continue
				print rt[2], rat[key[k]], ok, c[1] - c[2] >> keep
			}
		}' "$2" "$1"
}

# steal_fit: from KEEP rows of one test on stdin, the least-squares line
# log(ratio) = a + b (ibgap's steal - perftest's): "n exp(a) lo hi b",
# exp(a) the ratio at equal steal, lo..hi its 95% interval (Student's t).
# When every round had the same steal difference there is no line: "n
# same D", D that difference (0 on a host without a hypervisor, whose
# rounds need no correction).
steal_fit() {
	awk '{ x[++n] = $4; y[n] = log($2); mx += $4; my += log($2) }
		END {
			if (n < 5) exit
			mx /= n; my /= n
			for (i = 1; i <= n; i++) {
				sxx += (x[i] - mx) ^ 2
				sxy += (x[i] - mx) * (y[i] - my)
			}
			if (sxx <= 0) {
				printf "%d same %.3f\n", n, x[1]
				exit
			}
			b = sxy / sxx; a = my - b * mx
			for (i = 1; i <= n; i++)
				r += (y[i] - a - b * x[i]) ^ 2
			se = sqrt(r / (n - 2) * (1 / n + mx * mx / sxx))
			# t(0.975, df) for df 3..30, 2.00 beyond
			split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 " \
			      "2.23 2.20 2.18 2.16 2.14 2.13 2.12 2.11 2.10 " \
			      "2.09 2.09 2.08 2.07 2.07 2.06 2.06 2.06 2.05 " \
			      "2.05 2.05 2.04", tq, " ")
			t = (n - 2 <= 30) ? tq[n - 2] : 2.00
			printf "%d %.3f %.3f %.3f %.2f\n", n, exp(a),
				exp(a - t * se), exp(a + t * se), b
		}'
}

# steal_summary KEEP: per test, the median ratio of the undisturbed
# rounds, and the ratio at equal steal over all rounds (steal_fit).
steal_summary() {
	local t v fit

	[[ -s $1 ]] || return 0
	awk '{ print $1 }' "$1" | sort -u | while read -r t; do
		v=$(awk -v t="$t" '$1 == t && $3 == 1 { print $2 }' "$1")
		if [[ -z $v ]]; then
			echo "  $t: no undisturbed round"
		else
			echo "  $t: median ratio of the $(wc -l <<<"$v")" \
			     "undisturbed rounds $(median <<<"$v")" \
			     "(range $(spread <<<"$v"))"
		fi
		fit=$(awk -v t="$t" '$1 == t' "$1" | steal_fit)
		[[ -n $fit ]] || continue
		read -r n v lo hi b <<<"$fit"
		if [[ $v == same ]]; then
			echo "  $t: the same steal difference ($lo CPU) in all" \
			     "$n rounds: no fit; at 0 the ratios need none"
			continue
		fi
		echo "  $t: ratio at equal steal $v (95% interval $lo..$hi;" \
		     "log ratio vs steal difference over $n rounds," \
		     "slope $b per CPU)"
	done
}

# steal_report TSV...: the rows of every saved run (its .steal file
# beside the .tsv), then the summary of them all.
steal_report() {
	local keep tsv

	keep=$(mktemp) || die "cannot create a temporary file"
	for tsv; do
		steal_rows "$tsv" "${tsv%.tsv}.steal" "$keep"
	done
	steal_summary "$keep"
	rm -f "$keep"
}

# report TSV...: --report, the steal report of saved runs, pooled.
report() {
	local tsv

	(($#)) || die "--report needs saved .tsv files"
	for tsv; do
		[[ -s $tsv && -s ${tsv%.tsv}.steal ]] ||
			die "--report $tsv: want a saved .tsv with its .steal beside it"
	done
	steal_report "$@"
}

main() {
	local args=() sampler rounds stamp cap rc=0 log bin

	while (($#)); do
		case $1 in
		-o | --outdir)
			(($# >= 2)) || die "option $1 needs a value"
			OUTDIR=$2
			shift 2
			;;
		-h | --help) usage; exit 0 ;;
		--report)
			shift
			report "$@"
			exit 0
			;;
		--steal-max)
			(($# >= 2)) || die "option $1 needs a value"
			[[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
				die "--steal-max '$2': want CPUs, e.g. 0.05"
			STEAL_MAX=$2
			shift 2
			;;
		-b | --ibgap)
			(($# >= 2)) || die "option $1 needs a value"
			# The guest sees the host's files at the same absolute
			# paths, except under /tmp and /run.
			bin=$(realpath -m -- "$2")
			case $bin in
			/tmp/* | /run/*)
				die "$1 $2: the guest cannot see /tmp or /run" \
				    "of this host; put ibgap elsewhere" ;;
			esac
			args+=("$1" "$bin")
			shift 2
			;;
		--emit | --check | --stamp)
			die "$1 is set by $SELF itself" ;;
		*) args+=("$1"); shift ;;
		esac
	done
	[[ -x $RXE_RUN ]] || die "no $RXE_RUN"
	# Validate the options here: a typo should not cost a guest boot.
	rounds=$(bash "$GUEST" --check "${args[@]}") || exit 2
	rounds=${rounds#rounds=}
	if ! mkdir -p "$OUTDIR" || [[ ! -w $OUTDIR ]]; then
		die "cannot write to -o directory '$OUTDIR'"
	fi
	OUTDIR=$(cd "$OUTDIR" && pwd)
	stamp=$(date +%Y%m%d-%H%M%S)
	log=$OUTDIR/verbs_vs_perftest-$stamp.log
	cap=$(mktemp "$OUTDIR/.verbs_vs_perftest-$stamp.XXXXXX") ||
		die "cannot create a file in '$OUTDIR'"
	trap 'rm -f "$cap" "$cap.err"' EXIT
	# One guest for everything; a round takes 1-2 minutes under TCG on a
	# loaded 2-CPU host, so give each round 5.
	export IG_RXE_TIMEOUT=${IG_RXE_TIMEOUT:-$((300 + 300 * rounds))}
	echo "host: $(uname -n), $(nproc) cpus, load average $(cut -d' ' \
		-f1-3 /proc/loadavg); rxe-run timeout ${IG_RXE_TIMEOUT} s" |
		tee "$log"
	# The guest sees the host's tree at the same path but not its /tmp:
	# run from the repository.
	cd "$ROOT" || die "cannot cd to $ROOT"
	sample_steal >"$OUTDIR/verbs_vs_perftest-$stamp.steal" &
	sampler=$!
	"$RXE_RUN" bash "$GUEST" --emit --stamp "$stamp" "${args[@]}" \
		>"$cap" 2>"$cap.err" || rc=$?
	kill "$sampler" 2>/dev/null
	wait "$sampler" 2>/dev/null
	split_output "$cap" "$OUTDIR" | tee -a "$log"
	steal_report "$OUTDIR/verbs_vs_perftest-$stamp.tsv" | tee -a "$log"
	tee -a "$log" <"$cap.err" >&2
	echo "host load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" |
		tee -a "$log"
	case $rc in
	0) ;;
	77) echo "$SELF: skipped: no RDMA device (see rxe-run's message)" >&2 ;;
	124) echo "$SELF: the guest timed out after $IG_RXE_TIMEOUT s;" \
		  "raise IG_RXE_TIMEOUT or lower -r/-n" >&2 ;;
	*) echo "$SELF: the benchmark exited $rc" >&2 ;;
	esac
	echo "log: $log"
	exit "$rc"
}

main "$@"
