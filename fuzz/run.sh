#!/bin/bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for
# SECONDS on a scratch copy of its seed corpus (docs/design.md, "Fuzzing").
#   fuzz/run.sh [SECONDS]            (default 60 per target)
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_TARGETS (default
# "msg baseline"), FUZZ_JOBS (default 1): how many targets fuzz at once,
# each on one CPU for SECONDS; their reports come in target order.
# The committed corpus is never written to; crash
# reproducers land in BUILD_DIR/crashes/, logs in BUILD_DIR/logs/.
# FUZZ_BUILD_ONLY=1 builds the targets and runs nothing.
# Exit 0 when no target crashed, leaked or hung; else 1 (2: bad usage).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
if [[ ! $secs =~ ^[1-9][0-9]*$ ]]; then
	echo "fuzz/run.sh: SECONDS must be a positive integer, not '$secs'" >&2
	exit 2
fi
bdir=${FUZZ_BUILD_DIR:-build-fuzz}
targets=${FUZZ_TARGETS:-msg baseline}
jobs=${FUZZ_JOBS:-1}
if [[ ! $jobs =~ ^[1-9][0-9]*$ ]]; then
	echo "fuzz/run.sh: FUZZ_JOBS must be a positive integer, not '$jobs'" >&2
	exit 2
fi
if ! command -v clang >/dev/null; then
	echo "fuzz/run.sh: clang is not installed (scripts/setup-deps)" >&2
	exit 1
fi

echo "== fuzz: building in $bdir (clang, ASan+UBSan, libFuzzer)"
CC=clang cmake -S . -B "$bdir" -DIBGAP_FUZZ=ON -DIBGAP_TESTS=OFF >/dev/null
bins=()
for t in $targets; do
	bins+=("fuzz_$t")
done
cmake --build "$bdir" -j "$(nproc)" --target "${bins[@]}" \
	>"$bdir/fuzz-build.log" 2>&1 || {
	tail -n 40 "$bdir/fuzz-build.log" >&2
	echo "fuzz/run.sh: the build failed (log: $bdir/fuzz-build.log)" >&2
	exit 1
}
# FUZZ_BUILD_ONLY=1: the targets built, nothing run (CI's prebuild).
[[ ${FUZZ_BUILD_ONLY:-0} == 1 ]] && exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/ibgap-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$bdir/crashes" "$bdir/logs"

# max_len: a whole message (12 + 64 KiB) / a report of up to 1 MiB
max_len()
{
	case $1 in
	msg) echo 70000 ;;
	*) echo 1048576 ;;
	esac
}

# run_one NAME: fuzzes fuzz_NAME; 0 when it ended without a finding.
run_one()
{
	local name=$1 log=$bdir/logs/$1.log rc=0 art

	cp -r "fuzz/corpus/$name" "$work/$name"
	art=$bdir/crashes/$name-
	echo "== fuzz: fuzz_$name for $secs s on a copy of" \
		"fuzz/corpus/$name ($(find "$work/$name" -type f | wc -l) seeds)"
	"$bdir/fuzz/fuzz_$name" "$work/$name" -max_total_time="$secs" \
		-max_len="$(max_len "$name")" -timeout=25 -rss_limit_mb=4096 \
		-dict=fuzz/json.dict -artifact_prefix="$art" \
		-print_final_stats=1 >"$log" 2>&1 || rc=$?
	grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" || true
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
		"$log" || true
	if ((rc == 0)) && ! grep -q '^==[0-9]*==ERROR\|^SUMMARY: ' "$log"; then
		echo "fuzz_$name: ok"
		return 0
	fi
	echo "fuzz_$name: FAILED (exit $rc); log: $log" >&2
	grep -E 'Test unit written to|^artifact_prefix' "$log" >&2 || true
	echo "---- first lines of the report" >&2
	grep -m1 -n -E '^==[0-9]+==|runtime error:|invariant:|^ALARM|deadly signal' \
		"$log" | cut -d: -f1 | {
		read -r first || first=1
		tail -n +"$first" "$log" | head -n 40 >&2
	}
	return 1
}

# run_parallel: up to $jobs targets at once, each one's report held in
# BUILD_DIR/logs/NAME.report and printed whole, in target order; sets fails.
run_parallel()
{
	local t n=0 pids=() i=0

	for t in $targets; do
		if ((n >= jobs)); then
			wait -n || :
			n=$((n - 1))
		fi
		run_one "$t" >"$bdir/logs/$t.report" 2>&1 &
		pids+=($!)
		n=$((n + 1))
	done
	for t in $targets; do
		wait "${pids[i]}" || fails=$((fails + 1))
		cat "$bdir/logs/$t.report"
		i=$((i + 1))
	done
}

fails=0
if ((jobs > 1)); then
	run_parallel
else
	for t in $targets; do
		run_one "$t" || fails=$((fails + 1))
	done
fi
if ((fails)); then
	echo "fuzz/run.sh: $fails target(s) failed; reproduce with" \
		"$bdir/fuzz/fuzz_NAME $bdir/crashes/FILE" >&2
	exit 1
fi
echo "fuzz/run.sh: no crash in $(wc -w <<<"$targets") targets x $secs s"
