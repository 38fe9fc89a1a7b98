#!/bin/sh
# Benchmark: `lxgpu scan --format json` over the 8-GPU host fixture (under
# umockdev) against `cat` of the same files, measured in the same run.
# Prints the time per run of each and the ratio; no pass/fail threshold
# (machines are shared and noisy: compare ratios across commits).
# Usage: bench/scan.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-200}
fixture=$root/tests/hosts/pve-8x-rtx-pro-6000
command -v umockdev-run >/dev/null || { echo "bench/scan.sh: needs umockdev-run" >&2; exit 2; }

cat >"${TMPDIR:-/tmp}/lxgpu-bench-inner.sh" <<'INNER'
set -eu
fixture=$1 lxgpu=$2 runs=$3
cp -a "$fixture/proc" "$fixture/dev" "$UMOCKDEV_DIR/"
# The same files the scanner reads: the testbed's /proc and the sysfs tree.
files=$(find "$UMOCKDEV_DIR/proc" "$UMOCKDEV_DIR/sys/devices" -type f | sort)
now() { date +%s%N; }
"$lxgpu" --firmware-dir "$fixture/lib/firmware/nvidia" scan --format json >/dev/null # warm up
i=0; start=$(now)
while [ $i -lt "$runs" ]; do
	"$lxgpu" --firmware-dir "$fixture/lib/firmware/nvidia" --run-dir "$fixture/run" \
		scan --format json >/dev/null
	i=$((i + 1))
done
scan_ns=$(( $(now) - start ))
i=0; start=$(now)
while [ $i -lt "$runs" ]; do
	# shellcheck disable=SC2086
	cat $files >/dev/null
	i=$((i + 1))
done
cat_ns=$(( $(now) - start ))
nfiles=$(echo "$files" | wc -l)
echo "files read per run: $nfiles"
echo "lxgpu scan --format json: $((scan_ns / runs / 1000)) us/run"
echo "cat of the same files:    $((cat_ns / runs / 1000)) us/run"
awk -v a="$scan_ns" -v b="$cat_ns" 'BEGIN { printf "ratio scan/cat: %.2f\n", a / b }'
INNER
umockdev-run -d "$fixture/devices.umockdev" -- \
	sh "${TMPDIR:-/tmp}/lxgpu-bench-inner.sh" "$fixture" "$build/lxgpu" "$runs"
rm -f "${TMPDIR:-/tmp}/lxgpu-bench-inner.sh"
