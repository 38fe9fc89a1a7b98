#!/bin/sh
# Benchmark: lxgpu audit --cluster over generated clusters of 1,000 and
# 10,000 container configs, and lxgpu preflight over every container of one
# node holding as many, against cat of the same files, in the same run.
# Prints time per container, the ratio to cat (target: at most 2), how time
# grows from 1k to 10k (linear: about 10) and peak memory (flat: about 1).
# Each time is the best of RUNS runs (the least disturbed by other load on
# a shared machine); the machine's load average is printed with them.
# A run that fails (exit status other than 0 or 1, or an answer that does
# not count every container) is printed with its messages and the
# benchmark exits 1: no ratio is ever printed for a failed run.
# With Proxmox's parser at hand (../shared/tools/pve-oracle's get-lib.sh
# run: /tmp/pve-perl, or PVE_PERL_LIB=DIR), it times PVE::LXC::Config's
# parse_pct_config of the same files too, in one Perl process
# (bench/pve-parse-all.pl; reading and parsing, not loading the modules).
# Usage: bench/audit.sh [BUILD_DIR] [RUNS]
# (LXGPU_BENCH_SIZES="SMALL LARGE" replaces 1000 10000: the self-test,
# tests/bench/audit-bench.sh, runs it small.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
sizes=${LXGPU_BENCH_SIZES:-1000 10000}
small=${sizes% *} large=${sizes#* }
case $runs$small$large in *[!0-9]* | "") echo "bench/audit.sh: RUNS and LXGPU_BENCH_SIZES take numbers" >&2; exit 2 ;; esac
lxgpu=$build/lxgpu
host="$root/examples/hosts/pve-8x-rtx-pro-6000.yaml"
cases="$root/tests/verify/cases"
[ -x "$lxgpu" ] || { echo "bench/audit.sh: no $lxgpu (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/audit.sh: needs GNU time (Debian package 'time')" >&2; exit 2; }
for tool in jq python3; do
	command -v $tool >/dev/null || { echo "bench/audit.sh: needs $tool" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# make_cluster DIR COUNT NODES: NODES nodes, COUNT containers spread over
# them, cycling through the verify cases of the 8-GPU host (clean and
# broken); an empty LXC path (no container runs).
make_cluster() {
	dir=$1 count=$2 nodes=$3
	mkdir -p "$dir/pve/nodes" "$dir/hosts" "$dir/lxc"
	n=0
	while [ $n -lt "$nodes" ]; do
		mkdir -p "$dir/pve/nodes/node$n/lxc" "$dir/pve/nodes/node$n/qemu-server"
		cp "$host" "$dir/hosts/node$n.yaml"
		n=$((n + 1))
	done
	ln -s nodes/node0/lxc "$dir/pve/lxc"
	ln -s nodes/node0/qemu-server "$dir/pve/qemu-server"
	# (one process for all the copies: a cp each takes minutes at 10,000)
	grep -L '^#host:' "$cases"/*.conf | python3 -c '
import shutil, sys
d, count, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cases = sys.stdin.read().split()
for i in range(count):
    shutil.copyfile(cases[i % len(cases)], "%s/pve/nodes/node%d/lxc/%d.conf" % (d, i % nodes, 100 + i))
' "$dir" "$count" "$nodes"
}

now() { date +%s%N; }

fail() {
	echo "bench/audit.sh: $1" >&2
	[ -s "$work/err" ] && sed 's/^/  /' "$work/err" >&2
	exit 1
}

# check_run WHAT RC EXPECT: a run counts only when it worked (0: all good,
# 1: findings at error level, which the broken cases have) and answered for
# every container it was given (EXPECT of them).
check_run() {
	what=$1 rc=$2 expect=$3
	[ "$rc" -le 1 ] || fail "$what failed (exit $rc), no figure for it:"
	got=$(jq -r "$jq_count" "$work/out" 2>/dev/null) || fail "$what: its output is not JSON:"
	[ "$got" = "$expect" ] || fail "$what answered for $got containers of $expect"
}

# best COMMAND...: the fastest of $runs runs, in ns (each one checked).
best() {
	b=0 r=0
	while [ $r -lt "$runs" ]; do
		start=$(now)
		rc=0
		"$@" >"$work/out" 2>"$work/err" || rc=$?
		t=$(($(now) - start))
		[ "$what" = cat ] || check_run "$what" "$rc" "$expect"
		[ "$what" != cat ] || [ "$rc" -eq 0 ] || fail "cat failed (exit $rc):"
		{ [ $b -eq 0 ] || [ $t -lt $b ]; } && b=$t
		r=$((r + 1))
	done
	echo "$b"
}

# audit_cmd [WRAPPER...], preflight_cmd [WRAPPER...]
audit_cmd() {
	"$@" "$lxgpu" --host "$host" --pve-dir "$dir/pve" --lxc-path "$dir/lxc" \
		audit --cluster --hosts "$dir/hosts" --format json
}
preflight_cmd() {
	"$@" "$lxgpu" --host "$host" --pve-dir "$dir/pve" --lxc-path "$dir/lxc" --state-dir "$dir/state" \
		preflight --format json
}
cat_cmd() { find "$dir/pve/nodes" -name '*.conf' -exec cat {} +; }

# run KIND COUNT: prints "files tool_ns cat_ns peak_kb tool_cpu_s cat_cpu_s [perl_ns]"
# (CPU: user + system of one run under GNU time, which a loaded machine
# disturbs less than wall time)
run() {
	kind=$1
	dir="$work/$kind$2"
	if [ "$kind" = audit ]; then
		make_cluster "$dir" "$2" 10
		jq_count='.summary.containers'
	else
		make_cluster "$dir" "$2" 1
		jq_count='.next_start | length'
	fi
	files=$(find "$dir/pve/nodes" -name '*.conf' | wc -l)
	expect=$files
	what="lxgpu $kind"
	if [ "$kind" = preflight ]; then
		# preflight answers for the GPU containers: those with GPU lines in
		# their live section (before the first [section] line).
		expect=$(awk 'FNR == 1 { n += gpu; gpu = 0; live = 1 } /^\[/ { live = 0 }
			live && /^(dev[0-9]+:|lxc\.(cgroup2?\.devices\.allow|mount\.entry|include))/ &&
			/nvidia|195:|dri/ { gpu = 1 } END { print n + gpu }' "$dir"/pve/nodes/*/lxc/*.conf)
	fi
	"${kind}_cmd" >/dev/null 2>&1 || true # warm the page cache
	tool_ns=$(best "${kind}_cmd")
	what=cat
	cat_ns=$(best cat_cmd)
	what="lxgpu $kind"
	rc=0
	"${kind}_cmd" /usr/bin/time -o "$work/peak" -f '%M %U %S' >"$work/out" 2>"$work/err" || rc=$?
	check_run "$what (under GNU time)" "$rc" "$expect"
	set -- $(tail -1 "$work/peak")
	peak=$1
	tool_cpu=$(echo "$2 $3" | awk '{ print $1 + $2 }')
	/usr/bin/time -o "$work/catcpu" -f '%U %S' find "$dir/pve/nodes" -name '*.conf' -exec cat {} + >/dev/null 2>"$work/err" ||
		fail "cat failed under GNU time:"
	cat_cpu=$(tail -1 "$work/catcpu" | awk '{ print $1 + $2 }')
	perl_ns=""
	if [ -n "$oracle" ]; then
		find "$dir/pve/nodes" -name '*.conf' | perl "$oracle_bench" "$oracle_lib" >"$work/out" 2>"$work/err" ||
			fail "Proxmox's parser failed:"
		read -r perl_ns parsed <"$work/out"
		[ "$parsed" = "$files" ] || fail "Proxmox's parser parsed $parsed of $files files"
	fi
	echo "$files $tool_ns $cat_ns $peak $tool_cpu $cat_cpu $perl_ns"
}

# Proxmox's parser, when its sources were extracted (pve-oracle/get-lib.sh).
oracle="" oracle_lib="" oracle_bench="$root/bench/pve-parse-all.pl"
oracle_dir="$root/../shared/tools/pve-oracle"
lib=${PVE_PERL_LIB:-/tmp/pve-perl}
if [ -d "$oracle_dir/stubs" ] && [ -f "$lib/PVE/LXC/Config.pm" ]; then
	oracle=$oracle_dir oracle_lib="$lib:$oracle_dir/stubs"
fi
[ -n "$oracle" ] || echo "(Proxmox's parser not set up: see ../shared/tools/pve-oracle/README.md; its row is left out)"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; best of $runs runs"
for kind in audit preflight; do
	# (an assignment, so that a failed run stops the benchmark: set -e)
	r=$(run "$kind" "$small")
	set -- $r
	f1=$1 a1=$2 c1=$3 m1=$4 u1=$5 k1=$6 p1=${7:-0}
	r=$(run "$kind" "$large")
	set -- $r
	f10=$1 a10=$2 c10=$3 m10=$4 u10=$5 k10=$6 p10=${7:-0}
	awk -v k="$kind" -v f1="$f1" -v a1="$a1" -v c1="$c1" -v m1="$m1" -v p1="$p1" -v u1="$u1" -v k1="$k1" \
		-v f10="$f10" -v a10="$a10" -v c10="$c10" -v m10="$m10" -v p10="$p10" -v u10="$u10" -v k10="$k10" 'BEGIN {
	printf "%-9s %6d configs: %8.1f ms (%5.1f us/container), cat %6.1f ms, ratio %5.2f, peak RSS %6d KiB; CPU %.2f s, cat %.2f s\n",
		k, f1, a1 / 1e6, a1 / 1e3 / f1, c1 / 1e6, a1 / c1, m1, u1, k1
	printf "%-9s %6d configs: %8.1f ms (%5.1f us/container), cat %6.1f ms, ratio %5.2f, peak RSS %6d KiB; CPU %.2f s, cat %.2f s\n",
		k, f10, a10 / 1e6, a10 / 1e3 / f10, c10 / 1e6, a10 / c10, m10, u10, k10
	if (p10 > 0)
		printf "%-9s Proxmox parse_pct_config of the same files: %.1f ms (%d), %.1f ms (%d); lxgpu / Proxmox %.2f\n",
			k, p1 / 1e6, f1, p10 / 1e6, f10, a10 / p10
	printf "%-9s growth %d -> %d: time x%.1f (linear: ~%.0f), peak memory x%.2f (flat: ~1)\n",
		k, f1, f10, a10 / a1, f10 / f1, m10 / m1
}'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
