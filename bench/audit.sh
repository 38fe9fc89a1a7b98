#!/bin/sh
# Benchmark: lxgpu audit --cluster over generated clusters of 1,000 and
# 10,000 container configs, against cat of the same files, in the same run.
# Prints time per container, the ratio to cat, how time grows from 1k to
# 10k (linear: about 10) and peak memory (flat: about 1).
# Usage: bench/audit.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
host="$root/examples/hosts/pve-8x-rtx-pro-6000.yaml"
cases="$root/tests/verify/cases"
[ -x /usr/bin/time ] || { echo "bench/audit.sh: needs GNU time (Debian package 'time')" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# make_cluster DIR COUNT: 10 nodes, COUNT containers spread over them,
# cycling through the verify cases of the 8-GPU host (clean and broken).
make_cluster() {
	dir=$1 count=$2
	mkdir -p "$dir/pve/nodes" "$dir/hosts"
	for n in 0 1 2 3 4 5 6 7 8 9; do
		mkdir -p "$dir/pve/nodes/node$n/lxc" "$dir/pve/nodes/node$n/qemu-server"
		cp "$host" "$dir/hosts/node$n.yaml"
	done
	ln -s nodes/node0/lxc "$dir/pve/lxc"
	ln -s nodes/node0/qemu-server "$dir/pve/qemu-server"
	set -- $(grep -L '^#host:' "$cases"/*.conf)
	total=$#
	i=0
	while [ $i -lt "$count" ]; do
		k=$((i % total + 1))
		eval "src=\${$k}"
		cp "$src" "$dir/pve/nodes/node$((i % 10))/lxc/$((100 + i)).conf"
		i=$((i + 1))
	done
}

now() { date +%s%N; }

# run COUNT: prints "audit_ns cat_ns peak_kb"
run() {
	dir="$work/c$1"
	make_cluster "$dir" "$1"
	files=$(find "$dir/pve/nodes" -name '*.conf' | wc -l)
	audit() {
		"$build/lxgpu" --host "$host" --pve-dir "$dir/pve" --lxc-path "$dir/none" \
			audit --cluster --hosts "$dir/hosts" --format json >/dev/null || [ $? -eq 1 ]
	}
	audit # warm the page cache
	start=$(now)
	audit
	audit_ns=$(($(now) - start))
	start=$(now)
	find "$dir/pve/nodes" -name '*.conf' -exec cat {} + >/dev/null
	cat_ns=$(($(now) - start))
	peak=$( { /usr/bin/time -f %M "$build/lxgpu" --host "$host" --pve-dir "$dir/pve" \
		--lxc-path "$dir/none" audit --cluster --hosts "$dir/hosts" --format json >/dev/null; } 2>&1 | tail -1)
	echo "$files $audit_ns $cat_ns $peak"
}

set -- $(run 1000)
f1=$1 a1=$2 c1=$3 m1=$4
set -- $(run 10000)
f10=$1 a10=$2 c10=$3 m10=$4
awk -v f1="$f1" -v a1="$a1" -v c1="$c1" -v m1="$m1" -v f10="$f10" -v a10="$a10" -v c10="$c10" -v m10="$m10" 'BEGIN {
	printf "%6d configs: audit %7.1f ms (%5.1f us/container), cat %6.1f ms, ratio %5.1f, peak RSS %6d KiB\n",
		f1, a1 / 1e6, a1 / 1e3 / f1, c1 / 1e6, a1 / c1, m1
	printf "%6d configs: audit %7.1f ms (%5.1f us/container), cat %6.1f ms, ratio %5.1f, peak RSS %6d KiB\n",
		f10, a10 / 1e6, a10 / 1e3 / f10, c10 / 1e6, a10 / c10, m10
	printf "growth 1k -> 10k: time x%.1f (linear: ~10), peak memory x%.2f (flat: ~1)\n", a10 / a1, m10 / m1
}'
