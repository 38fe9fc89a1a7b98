#!/bin/sh
# Integration: the include style on real LXC, on this machine's cgroup v1
# (hybrid) layout and on a pure cgroup v2 hierarchy (FACTS section 7). A
# made-up host (--proc-dir: /proc/devices with nvidia-uvm at 511, GPU
# 0000:41:00.0 as Device Minor 0) whose nodes ensure-nodes makes in a
# private /dev; a busybox container with LXC's deny-all device list gets
# its GPU through `lxgpu apply --style include`. What the kernel says when
# a node is opened inside decides (ENXIO: the device cgroup lets it through
# and no driver is behind it; EPERM: denied):
# - applied: /dev/nvidia-uvm and /dev/nvidia0 open with ENXIO;
# - nvidia-uvm comes back with major 509: before ensure-nodes, verify
#   reports the stale include (LXG042); ensure-nodes replaces the node and
#   rewrites the file; the restarted container opens it with ENXIO;
# - control: the old file (rules for 511) put back over the 509 node gives
#   EPERM, so the rewrite is what made the difference;
# - the include file removed: LXC refuses the config ("Failed to parse
#   config file", LXC 5.0.2; only a missing directory include is skipped),
#   and verify says so first (LXG040, with the access model's LXG023).
# Usage: lxc-include.sh LXGPU   (TAP; root, lxc, busybox, jq)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the real-LXC include test" lxc-create lxc-start lxc-attach lxc-info lxc-stop lxc-destroy unshare busybox jq
lxc_workdir lxgpu-inc
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

# The made-up host's /proc (the driver's files) and lxgpu's state dir.
proc="$work/proc"
mkdir -p "$proc/driver/nvidia/gpus/0000:41:00.0" "$proc/self" "$work/none"
printf 'Character devices:\n  1 mem\n  4 tty\n  5 /dev/tty\n136 pts\n195 nvidia\n195 nvidiactl\n226 drm\n511 nvidia-uvm\n\nBlock devices:\n  8 sd\n' \
	>"$proc/devices"
printf 'nvidia_uvm 1912832 0 - Live 0x0 (POE)\nnvidia 11563008 1 nvidia_uvm, Live 0x0 (POE)\n' >"$proc/modules"
printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  (x)\n' \
	>"$proc/driver/nvidia/version"
printf 'Model: \t\t NVIDIA H100\nGPU UUID: \t GPU-aaaaaaaa-0000-0000-0000-000000000041\nDevice Minor: \t 0\nBus Location: \t 0000:41:00.0\n' \
	>"$proc/driver/nvidia/gpus/0000:41:00.0/information"

# make_ct NAME DEVKEY: a busybox container with a deny-all device list and
# the basics LXC's init needs (as common.conf has them), no GPU lines.
make_ct() {
	lxc_sandbox_create "$1" || return 1
	{ lxc_sandbox_conf; lxc_basic_devices "$2"; } >>"$conf"
}

# Runs in a private mount namespace: cgroup2 at /sys/fs/cgroup for v2, a
# private /dev, the made-up host's mountinfo the namespace's own (so lxgpu
# picks the keys LXC honours here). Results go to files in $out.
cat "$(dirname "$0")/../lib/private-dev.sh" "$(dirname "$0")/../lib/probe-open.sh" \
	"$(dirname "$0")/../lib/wait-running.sh" >"$work/inside.sh"
cat >>"$work/inside.sh" <<'INSIDE'
set -u
layout=$1 lxgpu=$2 proc=$3 lxcpath=$4 state=$5 out=$6 name=$7 none=$8
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
cp /proc/self/mountinfo "$proc/self/mountinfo"
lx() {
	"$lxgpu" --proc-dir "$proc" --dev-dir /dev --firmware-dir "$none" --run-dir "$none" \
		--lxc-path "$lxcpath" --state-dir "$state" "$@"
}
inc="$state/lxc/$name.conf"
# start_probe TAG: start, open the GPU nodes read-write inside, stop.
start_probe() {
	if ! lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name-$1.log"; then
		echo "start failed" >"$out/probe-$1"
		return
	fi
	wait_running "$lxcpath" "$name"
	for node in /dev/nvidia0 /dev/nvidiactl /dev/nvidia-uvm; do
		echo "$node $(probe_open "$lxcpath" "$name" "$node" rw)"
	done >"$out/probe-$1"
	lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
}
lx ensure-nodes >"$out/en-1.out" 2>&1 || exit 3
lx --backup-dir "$out/backups" apply "$name" --style include --gpus 0000:41:00.0 >"$out/apply.out" 2>&1 || exit 3
# The record apply writes for ensure-nodes (style include, GPUs by PCI address).
[ -f "$state/containers/$name.yaml" ] || echo "no record" >"$out/no-record"
start_probe applied
# nvidia-uvm reloaded: another major in /proc/devices, the node still 511:0.
sed -i 's/^511 nvidia-uvm$/509 nvidia-uvm/' "$proc/devices"
lx verify "$name" --format json >"$out/verify-stale.json" 2>&1
echo $? >"$out/verify-stale.rc"
cp "$inc" "$out/stale.conf"
lx ensure-nodes >"$out/en-2.out" 2>&1 || exit 3
stat -c '%t:%T' /dev/nvidia-uvm >"$out/uvm-node"
lx verify "$name" --format json >"$out/verify-fresh.json" 2>&1
echo $? >"$out/verify-fresh.rc"
start_probe rewritten
# Control: the file as it was before the rewrite, over the new node.
cp "$out/stale.conf" "$inc"
start_probe control
# The include file gone: LXC refuses to start.
rm "$inc"
lx verify "$name" --format json >"$out/verify-missing.json" 2>&1
echo $? >"$out/verify-missing.rc"
start_probe missing
exit 0
INSIDE

for layout in $(lxc_layouts); do
	# the v1 half needs a host whose LXC uses the v1 devices controller
	if [ "$layout" = v1 ] && ! v1_why=$(lxc_cgroup_v1_here); then
		skip "cgroup v1: every check of this half" "$v1_why"
		continue
	fi
	name="inc-$layout" dir="$work/$layout" state="$work/state-$layout"
	mkdir -p "$dir"
	# v1: a hybrid layout, the devices controller is v1 (FACTS section 7).
	devkey=lxc.cgroup2.devices
	[ "$layout" = v1 ] && devkey=lxc.cgroup.devices
	sed -i 's/^509 nvidia-uvm$/511 nvidia-uvm/' "$proc/devices"

	t_setup() {
		make_ct "$name" "$devkey" || return 1
		unshare -m --propagation private sh "$work/inside.sh" "$layout" "$lxgpu" "$proc" \
			"$lxcpath" "$state" "$dir" "$name" "$work/none" ||
			{ echo "the $layout namespace failed"; cat "$dir"/*.out 2>/dev/null; return 1; }
		[ ! -f "$dir/no-record" ] || { echo "apply wrote no record"; return 1; }
		grep -qx "lxc.include = $state/lxc/$name.conf" "$lxcpath/$name/config" &&
			grep -q "^$devkey.allow = c 511:0 rw\$" "$dir/stale.conf" ||
			{ cat "$lxcpath/$name/config" "$dir/stale.conf"; return 1; }
	}
	check "cgroup $layout: apply --style include: one lxc.include line, the file with $devkey rules for 511" t_setup

	probe_is() { # TAG NODE WANT
		got=$(awk -v n="$2" '$1 == n { print $2 }' "$dir/probe-$1")
		[ "$got" = "$3" ] || { echo "$2: the kernel said '$got', want $3"; cat "$dir/probe-$1"; grep ERROR "$lxcpath/$name-$1.log" | tail -5; return 1; }
	}
	t_applied() { probe_is applied /dev/nvidia0 allowed && probe_is applied /dev/nvidia-uvm allowed; }
	check "cgroup $layout: started: /dev/nvidia0 and /dev/nvidia-uvm open with ENXIO" t_applied

	t_stale() {
		f="$dir/verify-stale.json"
		[ "$(cat "$dir/verify-stale.rc")" = 1 ] && json_ok "$f" &&
			jq -e '[.findings[] | select(.code == "LXG042" and .severity == "error" and
				(.message | test("511:0 rw.*509:0 rw")))] | length == 1' "$f" >/dev/null ||
			{ echo "exit $(cat "$dir/verify-stale.rc")"; jq -r '.findings[] | "\(.code) \(.message)"' "$f" || cat "$f"; return 1; }
	}
	check "cgroup $layout: uvm major 511 -> 509, before ensure-nodes: verify reports the stale include (LXG042)" t_stale

	t_rewrite() {
		# stat prints hex: 0x1fd = 509
		[ "$(cat "$dir/uvm-node")" = 1fd:0 ] || { echo "node $(cat "$dir/uvm-node")"; return 1; }
		[ "$(cat "$dir/verify-fresh.rc")" -le 1 ] && json_ok "$dir/verify-fresh.json" &&
			jq -e '[.findings[] | select(.code | test("^LXG04"))] | length == 0' "$dir/verify-fresh.json" >/dev/null ||
			{ jq -r '.findings[] | "\(.code) \(.message)"' "$dir/verify-fresh.json"; return 1; }
		probe_is rewritten /dev/nvidia-uvm allowed && probe_is rewritten /dev/nvidia0 allowed
	}
	check "cgroup $layout: ensure-nodes makes the node 509:0 and rewrites the file; restarted, it opens with ENXIO" t_rewrite

	t_control() { probe_is control /dev/nvidia-uvm eperm && probe_is control /dev/nvidia0 allowed; }
	check "cgroup $layout: control: the file of before the rewrite gives EPERM on /dev/nvidia-uvm" t_control

	t_missing() {
		[ "$(cat "$dir/verify-missing.rc")" = 1 ] && json_ok "$dir/verify-missing.json" &&
			jq -e '[.findings[] | select(.code == "LXG040" and .severity == "error")] | length == 1' \
				"$dir/verify-missing.json" >/dev/null ||
			{ echo "exit $(cat "$dir/verify-missing.rc")"; cat "$dir/verify-missing.json"; return 1; }
		jq -e '[.findings[] | select(.code == "LXG023")] | length == 1' "$dir/verify-missing.json" >/dev/null ||
			{ jq -r '.findings[] | "\(.code) \(.message)"' "$dir/verify-missing.json"; return 1; }
		grep -qx 'start failed' "$dir/probe-missing" &&
			grep -q 'Failed to parse config file' "$lxcpath/$name-missing.log" ||
			{ cat "$dir/probe-missing"; tail -5 "$lxcpath/$name-missing.log"; return 1; }
	}
	check "cgroup $layout: include file missing: LXC refuses to start; verify LXG040 and LXG023 first" t_missing
done
tap_finish
