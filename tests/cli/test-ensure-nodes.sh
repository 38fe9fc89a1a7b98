#!/bin/sh
# ensure-nodes on made-up hosts: a temp --proc-dir laid out as the driver
# does (devices, modules, driver/nvidia/...) and a temp --dev-dir where the
# nodes are made (needs root for mknod). Every expected node below is
# written from nvidia-modprobe's rules, not captured from lxgpu:
#   nvidiactl 195:255, nvidiaN 195:N, 0666 (or params' DeviceFileMode);
#   nvidia-uvm UVM:0, nvidia-uvm-tools UVM:1, 0666;
#   nvidia-caps/nvidia-capN CAPS:N, mode of its access file (256 = 0400, 292 = 0444).
# The GPUs come from /proc/driver/nvidia/gpus, so no umockdev is needed.
# Usage: test-ensure-nodes.sh LXGPU   (TAP output)
set -u
lxgpu=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP mknod needs root"
	exit 0
fi

# host NAME UVM_MAJOR|none: a made-up host with one GPU (minor 3) and MIG
# config/monitor capabilities; UVM_MAJOR none = nvidia-uvm not loaded.
host() {
	h="$work/$1" uvm=$2
	rm -rf "$h"
	mkdir -p "$h/proc/driver/nvidia/gpus/0000:41:00.0" "$h/proc/driver/nvidia/capabilities/mig" \
		"$h/proc/driver/nvidia/capabilities/gpu0/mig/gi1" "$h/proc/sys/kernel" "$h/dev"
	{
		printf 'Character devices:\n  1 mem\n  4 tty\n195 nvidia-frontend\n195 nvidia\n195 nvidiactl\n226 drm\n508 nvidia-caps\n'
		[ "$uvm" = none ] || printf '%s nvidia-uvm\n' "$uvm"
		printf '\nBlock devices:\n  8 sd\n'
	} >"$h/proc/devices"
	{
		[ "$uvm" = none ] || printf 'nvidia_uvm 1912832 0 - Live 0x0000000000000000 (POE)\n'
		printf 'nvidia 11563008 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n'
	} >"$h/proc/modules"
	printf 'Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 200\nGPU UUID: \t GPU-11111111-2222-3333-4444-555555555555\nDevice Minor: \t 3\nBus Location: \t 0000:41:00.0\n' \
		>"$h/proc/driver/nvidia/gpus/0000:41:00.0/information"
	printf 'DeviceFileMinor: 1\nDeviceFileMode: 256\nDeviceFileModify: 1\n' >"$h/proc/driver/nvidia/capabilities/mig/config"
	printf 'DeviceFileMinor: 2\nDeviceFileMode: 292\nDeviceFileModify: 1\n' >"$h/proc/driver/nvidia/capabilities/mig/monitor"
	printf 'DeviceFileMinor: 12\nDeviceFileMode: 292\nDeviceFileModify: 1\n' >"$h/proc/driver/nvidia/capabilities/gpu0/mig/gi1/access"
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  590.48.01  Release Build  (dvs-builder@U22-I3-AF03-09-1)\n' \
		>"$h/proc/driver/nvidia/version"
}
# A scratch --state-dir: ensure-nodes rewrites the include files of the
# records it finds there, never the machine's.
en() { "$lxgpu" --proc-dir "$h/proc" --dev-dir "$h/dev" --firmware-dir "$work/none" --run-dir "$work/none" --state-dir "$work/state" ensure-nodes "$@" >"$work/out" 2>"$work/err"; }
# node PATH TYPE MAJOR:MINOR MODE: what stat says (decimal major/minor).
node() {
	got=$(stat -c '%F %t %T %a' "$h/dev/$1" 2>/dev/null) || { echo "$1 missing"; return 1; }
	set -- "$1" "$2" "${3%%:*}" "${3##*:}" "$4"
	type=$(printf '%s' "$got" | sed 's/ [0-9a-f]* [0-9a-f]* [0-7]*$//')
	rest=${got#"$type "}
	maj=$((0x${rest%% *})) rest=${rest#* } min=$((0x${rest%% *})) mode=${rest#* }
	want_type="character special file"
	if [ "$type $maj:$min $mode" != "$want_type $3:$4 $5" ]; then
		echo "$1: got '$type $maj:$min $mode', want '$want_type $3:$4 $5'"
		return 1
	fi
}
all_nodes() { # UVM_MAJOR
	node nvidiactl c 195:255 666 && node nvidia3 c 195:3 666 &&
		node nvidia-uvm c "$1:0" 666 && node nvidia-uvm-tools c "$1:1" 666 &&
		node nvidia-caps/nvidia-cap1 c 508:1 400 && node nvidia-caps/nvidia-cap2 c 508:2 444 &&
		node nvidia-caps/nvidia-cap12 c 508:12 444
}
listing() { (cd "$h/dev" && find . -print0 | sort -z | xargs -0 stat -c '%n %F %t:%T %a %Y %i'); }
nothing_else() { # the exact set of entries under dev
	got=$(cd "$h/dev" && find . | sort | tr '\n' ' ')
	want=". ./nvidia-caps ./nvidia-caps/nvidia-cap1 ./nvidia-caps/nvidia-cap12 ./nvidia-caps/nvidia-cap2 ./nvidia-uvm ./nvidia-uvm-tools ./nvidia3 ./nvidiactl "
	[ "$got" = "$want" ] || { echo "dev holds: $got"; echo "want:      $want"; return 1; }
}

t_stale_uvm() {
	host stale 511
	mknod "$h/dev/nvidia-uvm" c 509 0 && chmod 0666 "$h/dev/nvidia-uvm" &&
		en && all_nodes 511 && nothing_else &&
		grep -q 'replace /dev/nvidia-uvm c 509:0 with c 511:0' "$work/out" ||
		{ cat "$work/out" "$work/err"; return 1; }
}
check "stale uvm major 509 replaced with /proc/devices' 511, every node made" t_stale_uvm

t_second_run() {
	listing >"$work/before" && en && listing >"$work/after" &&
		cmp -s "$work/before" "$work/after" && grep -q '^nothing to do' "$work/out" &&
		! grep -q '^create\|^replace\|^fix' "$work/out" || { cat "$work/out" "$work/err"; diff "$work/before" "$work/after"; return 1; }
}
check "a second run changes nothing" t_second_run

t_missing_caps() {
	host caps 511
	mknod "$h/dev/nvidiactl" c 195 255 && mknod "$h/dev/nvidia3" c 195 3 &&
		mknod "$h/dev/nvidia-uvm" c 511 0 && mknod "$h/dev/nvidia-uvm-tools" c 511 1 &&
		chmod 0666 "$h/dev/nvidiactl" "$h/dev/nvidia3" "$h/dev/nvidia-uvm" "$h/dev/nvidia-uvm-tools" &&
		en && all_nodes 511 && nothing_else &&
		[ "$(stat -c %a "$h/dev/nvidia-caps")" = 755 ] &&
		[ "$(grep -c '^create' "$work/out")" = 4 ] || { cat "$work/out" "$work/err"; return 1; }
}
check "missing caps nodes (and /dev/nvidia-caps, 0755) made, nothing else touched" t_missing_caps

t_wrong_mode() {
	chmod 0600 "$h/dev/nvidia3" && ino=$(stat -c %i "$h/dev/nvidia3") && en && all_nodes 511 &&
		[ "$(stat -c %i "$h/dev/nvidia3")" = "$ino" ] &&
		grep -q 'fix /dev/nvidia3 mode 0600' "$work/out" || { cat "$work/out" "$work/err"; return 1; }
}
check "a wrong mode is fixed in place" t_wrong_mode

t_not_a_node() {
	rm "$h/dev/nvidia-uvm-tools" && : >"$h/dev/nvidia-uvm-tools" &&
		en && all_nodes 511 && nothing_else ||
		{ cat "$work/out" "$work/err"; return 1; }
}
check "a regular file where a node should be is replaced" t_not_a_node

t_params_mode() {
	host params 511
	printf 'ResmanDebugLevel: 4294967295\nDeviceFileUID: 0\nDeviceFileGID: 0\nDeviceFileMode: 432\nModifyDeviceFiles: 1\n' \
		>"$h/proc/driver/nvidia/params"
	en && node nvidiactl c 195:255 660 && node nvidia3 c 195:3 660 && node nvidia-uvm c 511:0 666 ||
		{ cat "$work/out" "$work/err"; return 1; }
}
check "params' DeviceFileMode (432 = 0660) for the nvidia-major nodes, uvm stays 0666" t_params_mode

t_no_uvm() {
	host nouvm none
	en && node nvidiactl c 195:255 666 && node nvidia3 c 195:3 666 &&
		[ ! -e "$h/dev/nvidia-uvm" ] && [ ! -e "$h/dev/nvidia-uvm-tools" ] &&
		grep -q 'nvidia-uvm is not loaded' "$work/err" || { cat "$work/out" "$work/err"; return 1; }
}
check "uvm not loaded: no uvm nodes, a clear message" t_no_uvm

t_dry_run() {
	host dry 511
	mknod "$h/dev/nvidia-uvm" c 509 0 && chmod 0600 "$h/dev/nvidia-uvm" && listing >"$work/before" &&
		en --dry-run && listing >"$work/after" && cmp -s "$work/before" "$work/after" &&
		grep -q '^would replace /dev/nvidia-uvm c 509:0 with c 511:0' "$work/out" &&
		grep -q '^would create /dev/nvidia-caps/nvidia-cap12 c 508:12 0444' "$work/out" ||
		{ cat "$work/out" "$work/err"; return 1; }
}
check "--dry-run prints the plan and changes nothing" t_dry_run

# A stand-in modprobe (the kernel's path comes from <proc>/sys/kernel/modprobe):
# it records its arguments and "loads" nvidia-uvm into the made-up /proc.
t_load_modules() {
	host load none
	rm -f "$work/modprobe.log" &&
		awk '/^Block/ && !done {print "511 nvidia-uvm"; print ""; done=1; next} /^$/ {next} {print}' \
			"$h/proc/devices" >"$work/devices.loaded" &&
		printf '#!/bin/sh\necho "$*" >>"%s"\n[ "$1" = nvidia-uvm ] || exit 1\ncp "%s" "%s"\nprintf "nvidia_uvm 1 0 - Live 0x0\\n" >>"%s"\n' \
			"$work/modprobe.log" "$work/devices.loaded" "$h/proc/devices" "$h/proc/modules" >"$work/modprobe" && chmod +x "$work/modprobe" &&
		echo "$work/modprobe" >"$h/proc/sys/kernel/modprobe" &&
		en --load-modules && [ "$(cat "$work/modprobe.log")" = nvidia-uvm ] &&
		all_nodes 511 && nothing_else &&
		en --load-modules && [ "$(wc -l <"$work/modprobe.log")" = 1 ] ||
		{ cat "$work/out" "$work/err" "$work/modprobe.log" "$h/proc/devices"; return 1; }
}
check "--load-modules: modprobe nvidia-uvm once when not loaded, then its nodes" t_load_modules

t_unit() {
	"$lxgpu" ensure-nodes --print-boot-unit >"$work/unit" &&
		grep -qx 'Type=oneshot' "$work/unit" &&
		grep -qx 'Before=pve-guests.service lxc.service' "$work/unit" &&
		grep -qx 'After=systemd-modules-load.service' "$work/unit" &&
		grep -Eqx 'ExecStart=/([^ ]+/)?bin/lxgpu ensure-nodes --load-modules' "$work/unit" &&
		"$lxgpu" preflight --print-boot-unit | cmp -s - "$work/unit"
}
# --all-mig: a node for every MIG capability of the host's GPUs in the
# driver's mig-minors table (nv-caps.c numbers GPU g's GI i access
# 3 + 135*g + 9*i, its CI c the minor i's + 1 + c; gpuN is the GPU's Device
# Minor, 3 here): config and monitor as their access files say, the rest
# 0444 as the driver makes them; GPU 0's lines (no such GPU here) skipped.
t_all_mig() {
	host allmig 511
	mkdir -p "$h/proc/driver/nvidia-caps"
	printf 'config 1\nmonitor 2\ngpu0/gi1/access 12\ngpu0/gi2/access 21\ngpu3/gi0/access 408\ngpu3/gi0/ci0/access 409\ngpu3/gi1/access 417\n' \
		>"$h/proc/driver/nvidia-caps/mig-minors"
	en && [ ! -e "$h/dev/nvidia-caps/nvidia-cap408" ] || { echo "made without --all-mig"; cat "$work/out"; return 1; }
	en --all-mig && all_nodes 511 && node nvidia-caps/nvidia-cap408 c 508:408 444 &&
		node nvidia-caps/nvidia-cap409 c 508:409 444 && node nvidia-caps/nvidia-cap417 c 508:417 444 &&
		[ ! -e "$h/dev/nvidia-caps/nvidia-cap21" ] || { cat "$work/out" "$work/err"; return 1; }
	en --all-mig && ! grep -q '^create\|^replace\|^fix' "$work/out" || { echo "second run:"; cat "$work/out"; return 1; }
}
check "--all-mig: every MIG instance's node of the host's GPUs from mig-minors, driver modes" t_all_mig

check "--print-boot-unit: the oneshot unit, the same as preflight's" t_unit

tap_finish
