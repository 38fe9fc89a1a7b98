#!/bin/sh
# doctor's live checks of Intel and AMD GPUs (issue 31 item 3) on the live
# scanner under umockdev: the AMD fixture (tests/hosts/pve-amd-rocm, an RX
# 7900 XTX at 0000:03:00.0 on amdgpu) and the Intel one (pve-intel-igpu, an
# iGPU at 0000:00:02.0 on i915), each with a firmware tree of the case's own
# (--firmware-dir ROOT/nvidia: ROOT is the /lib/firmware the loader
# searches) and a planted kernel log. Each verdict is written by hand from
# the kernel's sources:
# - drivers/base/firmware_loader/main.c: fw_path[] = firmware_class.path,
#   /lib/firmware/updates/UTS_RELEASE, /lib/firmware/updates,
#   /lib/firmware/UTS_RELEASE, /lib/firmware; _request_firmware() tries the
#   name in all of them, then name.zst (CONFIG_FW_LOADER_COMPRESS_ZSTD), then
#   name.xz (CONFIG_FW_LOADER_COMPRESS_XZ); a failure prints "Direct
#   firmware load for %s failed with error %d";
# - i915's intel_uc_fw.c: "%s firmware %s: fetch failed %pe" (the GuC/HuC
#   files are asked for without the loader's warning);
# - amdkfd's kfd_topology.c: a GPU node's properties carry location_id
#   (pci_dev_id: bus << 8 | devfn) and domain; kfd_device.c: "skipped device
#   %x:%x, PCI rejects atomics".
# (The fixtures' hosts have no nvidia module for their kernel: LXG116, an
# error, in every case: doctor exits 1.)
# A firmware file still missing: LXG170; there now: LXG171 (it came after
# the driver loaded: update-initramfs); a bound driver's vendor directory
# missing: LXG172; an amdgpu GPU without a kfd node: LXG173. A snapshot of
# the live host gives doctor the same answer.
# Usage: run-drm-live.sh LXGPU HOSTS_DIR KMSG_DIR   (TAP output)
set -u
lxgpu=$1 hosts=$(cd "$2" && pwd) kmsg=$(cd "$3" && pwd)
. "$(dirname "$0")/../lib/lxjson.sh"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=$((failed + 1)); }
. "$(dirname "$0")/../lib/testbed.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in_testbed_sh=$(cd "$(dirname "$0")/../lib" && pwd)/in-testbed.sh
release=6.8.12-15-pve # the fixtures' kernel

# new_case NAME FIXTURE: a plant dir ($plant: tree/ over the fixture's
# trees, remove), a firmware root ($fw) holding the fixture's files, a
# /boot ($boot) with the fixture's kernel config, the clean log of both
# vendors ($log) to add lines to.
new_case() {
	plant=$work/$1 fixture=$hosts/$2
	mkdir -p "$plant/tree" "$plant/boot"
	fw=$plant/fw boot=$plant/boot log=$plant/k.log
	cp -R "$fixture/lib/firmware" "$fw"
	mkdir -p "$fw/nvidia"
	cp "$fixture/boot/config-$release" "$boot/"
	cp "$kmsg/clean-intel-amd.log" "$log"
	: >"$plant/remove"
}
# the kernel config's firmware loader options (the fixture's has none)
compress() { # zstd|xz|none
	case $1 in
	zstd) echo CONFIG_FW_LOADER_COMPRESS_ZSTD=y >>"$boot/config-$release" ;;
	xz) echo CONFIG_FW_LOADER_COMPRESS_XZ=y >>"$boot/config-$release" ;;
	esac
}
lx() { # lxgpu on the case's live fixture; stdout in $work/out, status in $rc
	umockdev-run -d "$fixture/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" "$plant" \
		"$lxgpu" --firmware-dir "$fw/nvidia" --boot-dir "$boot" "$@" >"$work/out" 2>"$work/err"
	rc=$?
}
doctor() { lx doctor --kmsg "$log" --format json "$@"; }
# expect DESCRIPTION STATUS JQ: the JSON parsed, the status, the test
expect() {
	: >"$work/lj.msg"
	if [ "$rc" = "$2" ] && json_ok "$work/out" >"$work/lj.msg" && jq -e "$3" "$work/out" >/dev/null 2>&1; then
		ok "$1"
	else
		sed 's/^/# /' "$work/lj.msg" "$work/err"
		echo "# exit $rc, findings: $(jq -c '[.findings[] | [.code, .severity, .message]]' "$work/out" 2>/dev/null)"
		not_ok "$1"
	fi
}
ours='[.findings[] | select(.code | test("^LXG17[0-3]$"))]'
amd_line() { echo "[    3.576634] amdgpu 0000:03:00.0: Direct firmware load for $1 failed with error -2" >>"$log"; }

new_case clean-amd pve-amd-rocm; doctor
expect "AMD host, firmware and kfd node in place, a clean log: none of LXG170-173" 1 "$ours == []"
new_case clean-intel pve-intel-igpu; doctor
expect "Intel host, i915/ in place, a clean log: none of LXG170-173" 1 "$ours == []"

# the PSP's TOC file (a real report's name, amdgpu-psp-toc-missing.log),
# missing then and now
new_case toc-missing pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin; doctor
expect "a file the log says failed, in no directory now: LXG170 for the GPU, the package to install" 1 \
	"$ours | length == 1 and .[0].code == \"LXG170\" and .[0].severity == \"warning\" and (.[0].message | test(\"^GPU 0000:03:00.0: .*amdgpu/psp_13_0_0_toc.bin\")) and (.[0].fix | test(\"^by hand: .*(firmware-amd-graphics|pve-firmware).*update-initramfs -u -k all\"))"

# there now, uncompressed, in /lib/firmware: it came after the driver asked
new_case toc-added pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin
echo fw >"$fw/amdgpu/psp_13_0_0_toc.bin"; doctor
expect "the file is in /lib/firmware now: LXG171 naming where, the fix rebuilds the initramfs" 1 \
	"$ours | length == 1 and .[0].code == \"LXG171\" and (.[0].message | contains(\"$fw/amdgpu/psp_13_0_0_toc.bin\")) and (.[0].fix | test(\"update-initramfs -u -k all, then reboot\"))"

# the other directories of fw_path[]
for dir in "updates/$release" updates "$release"; do
	new_case "dir-$(echo "$dir" | tr / -)" pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin
	mkdir -p "$fw/$dir/amdgpu"; echo fw >"$fw/$dir/amdgpu/psp_13_0_0_toc.bin"; doctor
	expect "the file is in /lib/firmware/$dir: the loader searches there, LXG171" 1 \
		"$ours | length == 1 and .[0].code == \"LXG171\" and (.[0].message | contains(\"$fw/$dir/amdgpu/psp_13_0_0_toc.bin\"))"
done
# the loader's order: updates/<release> before /lib/firmware
new_case dir-order pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin
mkdir -p "$fw/updates/$release/amdgpu"; echo a >"$fw/updates/$release/amdgpu/psp_13_0_0_toc.bin"
echo b >"$fw/amdgpu/psp_13_0_0_toc.bin"; doctor
expect "in updates/<release> and in /lib/firmware: the loader takes updates/<release> first" 1 \
	"$ours | length == 1 and (.[0].message | contains(\"$fw/updates/$release/amdgpu/psp_13_0_0_toc.bin\"))"

# firmware_class.path, the first directory of all
new_case class-path pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin
mkdir -p "$plant/custom/amdgpu" "$plant/tree/sys/module/firmware_class/parameters"
echo fw >"$plant/custom/amdgpu/psp_13_0_0_toc.bin"
echo "$plant/custom" >"$plant/tree/sys/module/firmware_class/parameters/path"; doctor
expect "the file under firmware_class.path: LXG171 there" 1 \
	"$ours | length == 1 and .[0].code == \"LXG171\" and (.[0].message | contains(\"$plant/custom/amdgpu/psp_13_0_0_toc.bin\"))"

# compressed forms: readable only with the kernel's option
for c in zstd xz; do
	suffix=.$c; [ "$c" = zstd ] && suffix=.zst
	new_case "$c-on" pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin; compress "$c"
	echo fw >"$fw/amdgpu/psp_13_0_0_toc.bin$suffix"; doctor
	expect "only psp_13_0_0_toc.bin$suffix, the kernel built with its $c support: there now, LXG171" 1 \
		"$ours | length == 1 and .[0].code == \"LXG171\" and (.[0].message | contains(\"psp_13_0_0_toc.bin$suffix\"))"
	new_case "$c-off" pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin
	echo fw >"$fw/amdgpu/psp_13_0_0_toc.bin$suffix"; doctor
	expect "only psp_13_0_0_toc.bin$suffix, the kernel without $c support: still missing, LXG170 names the unreadable form" 1 \
		"$ours | length == 1 and .[0].code == \"LXG170\" and (.[0].message | contains(\"only $fw/amdgpu/psp_13_0_0_toc.bin$suffix is there\")) and (.[0].fix | test(\"decompress\"))"
done
# .zst before .xz (both readable): the loader takes the .zst
new_case zst-first pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin; compress zstd; compress xz
echo a >"$fw/amdgpu/psp_13_0_0_toc.bin.xz"; echo b >"$fw/amdgpu/psp_13_0_0_toc.bin.zst"; doctor
expect "both .zst and .xz: the loader takes .zst" 1 "$ours | length == 1 and (.[0].message | contains(\"psp_13_0_0_toc.bin.zst\"))"

# a name from the log that climbs out of the firmware directories: dropped
new_case escape pve-amd-rocm; amd_line amdgpu/../../../etc/hostname; amd_line /etc/hostname
amd_line amdgpu/psp_13_0_0_toc.bin; doctor
expect "names with '..' or absolute ones from the log: never looked up (only the real name's LXG170)" 1 \
	"$ours | length == 1 and .[0].code == \"LXG170\" and (.[0].message | test(\"psp_13_0_0_toc\"))"

# the vendor directory gone altogether
new_case no-amdgpu-dir pve-amd-rocm; rm -r "$fw/amdgpu"; doctor
expect "no amdgpu/ in any firmware directory while the GPU is on amdgpu: LXG172" 1 \
	"$ours | length == 1 and .[0].code == \"LXG172\" and (.[0].message | test(\"^GPU 0000:03:00.0: bound to amdgpu\"))"
new_case no-i915-dir pve-intel-igpu; rm -r "$fw/i915"; doctor
expect "no i915/ while the iGPU is on i915: LXG172" 1 \
	"$ours | length == 1 and .[0].code == \"LXG172\" and (.[0].message | test(\"^GPU 0000:00:02.0: bound to i915\"))"

# i915's GuC fetch (no loader line: firmware_request_nowarn), both spellings
new_case guc-missing pve-intel-igpu
echo "[    3.701224] i915 0000:00:02.0: [drm] *ERROR* GT0: GuC firmware i915/tgl_guc_70.bin: fetch failed -ENOENT" >>"$log"
echo "[    3.701229] i915 0000:00:02.0: [drm] HuC firmware i915/tgl_huc.bin: fetch failed with error -2" >>"$log"
echo fw >"$fw/i915/tgl_huc.bin"; doctor
expect "GuC fetch failed -ENOENT and missing: LXG170; HuC fetch failed -2 and there now: LXG171" 1 \
	"$ours | length == 2 and .[0].code == \"LXG170\" and (.[0].message | test(\"i915/tgl_guc_70.bin\")) and .[1].code == \"LXG171\" and (.[1].message | test(\"i915/tgl_huc.bin\"))"

# amdkfd's topology: the GPU node gone, another GPU's node, kfd absent
new_case kfd-no-node pve-amd-rocm; echo sys/class/kfd/kfd/topology/nodes/1 >"$plant/remove"; doctor
expect "kfd's topology without a node for 0000:03:00.0: LXG173" 1 \
	"$ours | length == 1 and .[0].code == \"LXG173\" and (.[0].message | test(\"amdkfd has no node for it\"))"
new_case kfd-other-gpu pve-amd-rocm
mkdir -p "$plant/tree/sys/class/kfd/kfd/topology/nodes/1"
# location_id 1024: bus 4 (0000:04:00.0), not this GPU's 768
sed 's/^location_id .*/location_id 1024/' "$hosts/pve-amd-rocm/sys/class/kfd/kfd/topology/nodes/1/properties" \
	>"$plant/tree/sys/class/kfd/kfd/topology/nodes/1/properties"
doctor
expect "kfd's only GPU node is another address's: LXG173 (matched by address, not counted)" 1 \
	"$ours | length == 1 and .[0].code == \"LXG173\""
new_case kfd-atomics pve-amd-rocm; echo sys/class/kfd >"$plant/remove"
echo "[    7.026427] kfd kfd: amdgpu: skipped device 1002:744c, PCI rejects atomics 730<2090" >>"$log"; doctor
expect "no kfd at all and the log's 'PCI rejects atomics' for 1002:744c: LXG173 with the reason, the fix a slot with atomics" 1 \
	"$ours | length == 1 and .[0].code == \"LXG173\" and (.[0].message | test(\"amdkfd is not running.*PCI rejects atomics\")) and (.[0].fix | test(\"AtomicOps\"))"

# kernel modesetting off (drivers/gpu/drm/drm_nomodeset.c: nomodeset makes
# drm_firmware_drivers_only() true, amdgpu_init() then refuses unless
# amdgpu.modeset=1; amdgpu.modeset=0 refuses alone): the live command line
# and a GPU without a driver give LXG153; a bound GPU, or modeset=1, none
modeset_case() { # NAME CMDLINE BOUND(yes|no)
	new_case "$1" pve-amd-rocm
	mkdir -p "$plant/tree/proc"
	echo "BOOT_IMAGE=/boot/vmlinuz-$release root=/dev/mapper/pve-root ro quiet $2" >"$plant/tree/proc/cmdline"
	[ "$3" = yes ] || echo sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0/driver >>"$plant/remove"
}
mod='[.findings[] | select(.code == "LXG153")]'
modeset_case nomodeset-unbound nomodeset no; doctor
expect "nomodeset and the AMD GPU without a driver: LXG153 (error) naming it, /proc/cmdline the evidence" 1 \
	"$mod | length == 1 and .[0].severity == \"error\" and (.[0].message | test(\"^GPU 0000:03:00.0: no driver, .*nomodeset\")) and (.[0].evidence | test(\"^/proc/cmdline: .*nomodeset\")) and (.[0].fix | test(\"^by hand: remove nomodeset\"))"
modeset_case modeset0-unbound amdgpu.modeset=0 no; doctor
expect "amdgpu.modeset=0 and the GPU without a driver: LXG153 names amdgpu.modeset=0" 1 \
	"$mod | length == 1 and (.[0].message | test(\"amdgpu.modeset=0\"))"
modeset_case nomodeset-bound nomodeset yes; doctor
expect "nomodeset but the GPU on amdgpu: no LXG153" 1 "$mod == []"
modeset_case nomodeset-forced "nomodeset amdgpu.modeset=1" no; doctor
expect "nomodeset with amdgpu.modeset=1 (the driver loads anyway): no LXG153, whatever else left the GPU unbound" 0 "$mod == []"
modeset_case nomodeset-logged nomodeset no
echo "[    0.031207] Kernel command line: BOOT_IMAGE=/boot/vmlinuz-$release ro quiet nomodeset" >>"$log"
echo "[    0.412230] pci 0000:03:00.0: [1002:744c] type 00 class 0x030000 PCIe Legacy Endpoint" >>"$log"; doctor
expect "the log says it too: one LXG153 for the GPU, not two" 1 \
	"$mod | length == 1 and (.[0].message | test(\"^GPU 0000:03:00.0: \"))"

# a snapshot of the live host answers as the host: the files' state and
# kfd's nodes recorded (drm_checks), doctor on it without the log
new_case snap pve-amd-rocm; amd_line amdgpu/psp_13_0_0_toc.bin; amd_line amdgpu/smu_13_0_0.bin
echo fw >"$fw/amdgpu/smu_13_0_0.bin"; echo sys/class/kfd/kfd/topology/nodes/1 >"$plant/remove"
doctor; cp "$work/out" "$work/live.json"; live_rc=$rc
lx snapshot --kmsg "$log" -q -o "$work/snap.yaml"; snap_rc=$rc
"$lxgpu" --host "$work/snap.yaml" doctor --format json >"$work/out" 2>"$work/err"; rc=$?
if [ "$snap_rc" = 0 ] && grep -q '^drm_checks:' "$work/snap.yaml" &&
	[ "$(jq -c "$ours | map([.code, .severity, .message, .fix])" "$work/live.json")" = \
		"$(jq -c "$ours | map([.code, .severity, .message, .fix])" "$work/out")" ] &&
	[ "$(jq -c "$ours | map(.code)" "$work/out")" = '["LXG170","LXG171","LXG173"]' ]; then
	ok "doctor on the live host's snapshot: the same LXG170, LXG171, LXG173 as live (status $live_rc)"
else
	sed 's/^/# /' "$work/err"; not_ok "doctor on the live host's snapshot: the same LXG170, LXG171, LXG173 as live"
fi
# a snapshot is untrusted: a name that climbs, a path not absolute
for bad in 'name: amdgpu/../../etc/shadow' 'found: etc/shadow' 'driver: nvidia' 'gpu: not-an-address'; do
	key=${bad%%:*}
	awk -v key="$key" -v bad="$bad" '!done && in_req && ($1 == key":" || ($1 == "-" && $2 == key":")) {sub(/[^ -].*/, ""); $0 = $0 bad; done = 1}
		/^  firmware_requests:/ {in_req = 1} {print}' "$work/snap.yaml" >"$work/bad.yaml"
	"$lxgpu" --host "$work/bad.yaml" doctor --format json >"$work/out" 2>"$work/err"; rc=$?
	if [ "$rc" = 2 ] && grep -q "bad.yaml:[0-9]*: field 'drm_checks.firmware_requests\[0\]\.$key'" "$work/err" &&
		[ ! -s "$work/out" ]; then
		ok "a snapshot whose firmware request has '$bad': refused, exit 2, naming the line"
	else
		sed 's/^/# /' "$work/err"; not_ok "a snapshot whose firmware request has '$bad': refused, exit 2, naming the line"
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
