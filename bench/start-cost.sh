#!/bin/sh
# Benchmark: what starting lxgpu costs. `lxgpu --version` and `lxgpu generate`
# on the 8-GPU example host against /bin/true, measured in the same run, and
# generate with libarchive preloaded (what every run paid when lxgpu linked it;
# it is dlopen()ed now, src/util/targz.c). Prints the time per run and the
# ratios (target: generate at most 2x /bin/true); no pass/fail threshold.
# Usage: bench/start-cost.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-500}
lxgpu=$build/lxgpu
host=$root/examples/hosts/pve-8x-rtx-pro-6000.yaml
[ -x "$lxgpu" ] || { echo "bench/start-cost.sh: no $lxgpu (build first)" >&2; exit 2; }
archive=$(ldconfig -p | sed -n 's/^[[:space:]]*libarchive\.so\.13 .*=> //p' | head -n 1)

now() { date +%s%N; }
# per_run CMD...: nanoseconds per run of CMD, output discarded.
per_run() {
	"$@" >/dev/null # warm up the page cache
	i=0 start=$(now)
	while [ $i -lt "$runs" ]; do
		"$@" >/dev/null
		i=$((i + 1))
	done
	echo $(( ($(now) - start) / runs ))
}
# libs CMD...: how many shared objects the dynamic loader maps for one run.
libs() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'file=.*\[0\];  generating link map' || true
}

true_ns=$(per_run /bin/true)
version_ns=$(per_run "$lxgpu" --version)
generate_ns=$(per_run "$lxgpu" --host "$host" generate)
echo "runs: $runs"
echo "/bin/true:                      $((true_ns / 1000)) us/run"
echo "lxgpu --version:                $((version_ns / 1000)) us/run, $(libs "$lxgpu" --version) libraries"
echo "lxgpu generate (8-GPU host):    $((generate_ns / 1000)) us/run, $(libs "$lxgpu" --host "$host" generate) libraries"
if [ -n "$archive" ]; then
	linked_ns=$(LD_PRELOAD=$archive per_run "$lxgpu" --host "$host" generate)
	echo "  with libarchive preloaded:    $((linked_ns / 1000)) us/run, $(LD_PRELOAD=$archive libs "$lxgpu" --host "$host" generate) libraries"
fi
awk -v a="$version_ns" -v b="$true_ns" 'BEGIN { printf "ratio --version/true:  %.2f\n", a / b }'
awk -v a="$generate_ns" -v b="$true_ns" 'BEGIN { printf "ratio generate/true:   %.2f (target <= 2)\n", a / b }'
if [ -n "$archive" ]; then
	awk -v a="$linked_ns" -v b="$true_ns" 'BEGIN { printf "ratio generate with libarchive/true: %.2f\n", a / b }'
fi
