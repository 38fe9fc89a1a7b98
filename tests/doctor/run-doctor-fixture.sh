#!/bin/sh
# lxgpu doctor on the live scanner under umockdev (the 8-GPU Blackwell
# fixture, tests/hosts/pve-8x-rtx-pro-6000) with the facts only a live host
# shows planted in the testbed: /proc/cmdline, the SecureBoot efivar, the
# nvidia module's params, nvidia-persistenced's pid file and /proc/<pid>/comm,
# a BAR the firmware left unassigned (BAR1 of the fixture's GPUs spans
# 0x0000020000000000-0x0000021fffffffff: 128 GiB). Expected findings follow from what
# each fact means (kernel-parameters.txt, the UEFI SecureBoot variable,
# NVIDIA's README), not from lxgpu's output.
# Usage: run-doctor-fixture.sh LXGPU HOSTS_DIR KMSG_DIR   (TAP output)
set -u
lxgpu=$1 fixture=$(cd "$2/pve-8x-rtx-pro-6000" && pwd) kmsg=$(cd "$3" && pwd)
. "$(dirname "$0")/../lib/testbed.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
report() { n=$((n + 1)); if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }

# Inside umockdev: the fixture's trees, then the planted ones over them
# ($plant/tree), then files the case removes ($plant/remove, one per line).
in_testbed_sh=$(cd "$(dirname "$0")/../lib" && pwd)/in-testbed.sh

# A case: a fresh plant dir with the healthy live facts; $1 names it.
new_case() {
	plant=$work/$1
	rm -rf "$plant"; mkdir -p "$plant/tree/proc/4242" "$plant/run"
	cp -a "$fixture/run/." "$plant/run/"
	# a Proxmox host booted from GRUB with the IOMMU in passthrough mode
	echo "BOOT_IMAGE=/boot/vmlinuz-6.8.12-15-pve root=/dev/mapper/pve-root ro quiet intel_iommu=on iommu=pt" \
		>"$plant/tree/proc/cmdline"
	mkdir -p "$plant/tree/proc/driver/nvidia"
	printf 'EnableResizableBar: 0\nModifyDeviceFiles: 1\nDeviceFileMode: 438\n' \
		>"$plant/tree/proc/driver/nvidia/params"
	echo 4242 >"$plant/run/nvidia-persistenced/nvidia-persistenced.pid"
	echo nvidia-persistenced >"$plant/tree/proc/4242/comm"
	cp "$fixture/devices.umockdev" "$plant/devices.umockdev"
}
# The SecureBoot efivar: 4 attribute bytes (NV+BS+RT = 0x06), then the value.
secure_boot() { # 0|1
	d=$plant/tree/sys/firmware/efi/efivars
	mkdir -p "$d"
	{
		printf '\006\000\000\000'
		if [ "$1" = 1 ]; then printf '\001'; else printf '\000'; fi
	} >"$d/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
}
. "$(dirname "$0")/../lib/lxjson.sh"
run_doctor() { # JSON in $work/j, exit status in $rc
	umockdev-run -d "$plant/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" "$plant" "$lxgpu" \
		doctor --kmsg "$kmsg/clean-public.log" --format json >"$work/j" 2>"$work/err"
	rc=$?
}
codes() { jq -r '[.findings[] | "\(.code):\(.severity)"] | join(" ")' "$work/j"; }
expect() { # description, exit status, jq test (on one parsed JSON document)
	if [ "$rc" = "$2" ] && json_ok "$work/j" >"$work/lj.msg" && jq -e "$3" "$work/j" >/dev/null 2>&1; then
		report ok "$1"
	else
		sed 's/^/# /' "$work/lj.msg"
		echo "# exit $rc, findings: $(codes 2>/dev/null)"; sed 's/^/# /' "$work/err"
		report not-ok "$1"
	fi
}

# The fixture's GPUs sit on two sockets: whether NVIDIA's driver allows
# peer-to-peer across them is its own platform table's call (p2p_caps.c),
# which no host fact shows, so the one note LXG162 (info) is always there.
new_case clean; secure_boot 0; run_doctor
expect "healthy live host, clean log: nothing wrong (but the cross-socket P2P note)" 0 \
	'.ok == true and ([.findings[] | select(.code != "LXG162")] | length) == 0 and ([.findings[] | select(.code == "LXG162" and .severity == "info")] | length) == 1 and .host.secure_boot == "off" and .host.persistenced == true and .host.live == true and (.host.cmdline | test("iommu=pt")) and .host.nvidia_params.EnableResizableBar == "0" and .host.bar1[0] == {"gpu": "0000:18:00.0", "assigned": true, "size": 137438953472}'

new_case bios; run_doctor
expect "no EFI directory: a BIOS boot, Secure Boot off" 0 '.ok == true and .host.secure_boot == "off"'

new_case sb-signed; secure_boot 1; run_doctor
expect "Secure Boot on with the module loaded: it was signed, nothing wrong" 0 \
	'.ok == true and .host.secure_boot == "on"'

new_case sb-unsigned; secure_boot 1; echo proc/driver/nvidia >"$plant/remove"; run_doctor
expect "Secure Boot on and nvidia not loaded: LXG127, with the efivar as evidence, and LXG120" 1 \
	'([.findings[] | select(.code == "LXG127" and (.evidence | test("SecureBoot-8be4df61")))] | length) == 1 and ([.findings[].code] | index("LXG120"))'

new_case blacklist
echo "BOOT_IMAGE=/boot/vmlinuz-6.8.12-15-pve root=/dev/mapper/pve-root ro quiet modprobe.blacklist=nouveau,nvidia-uvm" \
	>"$plant/tree/proc/cmdline"
run_doctor
expect "modprobe.blacklist names nvidia-uvm (- and _ alike): LXG128, nouveau alone is fine" 1 \
	'[.findings[] | select(.code == "LXG128")] | length == 1 and (.[0].message | test("nvidia_uvm"))'

# nvidia_uvm loaded with uvm_disable_hmm N (its default on x86_64), the
# fixture's kernel config with HMM_MIRROR and DEVICE_PRIVATE: the seed's
# host; the scanner reads both, doctor names HMM (a warning, exit 0)
new_case hmm-on; mkdir -p "$plant/tree/sys/module/nvidia_uvm/parameters"
echo N >"$plant/tree/sys/module/nvidia_uvm/parameters/uvm_disable_hmm"; run_doctor
expect "uvm_disable_hmm N, a kernel with HMM: LXG132 (warning), its evidence the sysfs value and the config" 0 \
	'.ok == false and ([.findings[] | select(.code == "LXG132" and .severity == "warning" and (.evidence | test("uvm_disable_hmm: N")) and (.evidence | test("/boot/config-6.8.12-15-pve")))] | length) == 1 and ([.findings[] | select(.code != "LXG132" and .code != "LXG162")] | length) == 0'

new_case no-persistenced; rm "$plant/run/nvidia-persistenced/nvidia-persistenced.pid"; run_doctor
expect "no live nvidia-persistenced: LXG126, a note only" 0 \
	'.ok == true and ([.findings[] | select(.code == "LXG126" and .severity == "info")] | length) == 1'

new_case stale-pid; echo bash >"$plant/tree/proc/4242/comm"; run_doctor
expect "a pid file whose process is not nvidia-persistenced: not running" 0 \
	'[.findings[].code] | index("LXG126")'

# BAR1 of 0000:18:00.0 left unassigned (a resource line of zeros, what the
# kernel shows when the firmware placed nothing).
new_case bar1
sed -i 's/0x0000020000000000 0x0000021fffffffff 0x000000000014220c/0x0000000000000000 0x0000000000000000 0x0000000000000000/' \
	"$plant/devices.umockdev"
run_doctor
expect "BAR1 of one GPU unassigned: LXG104 for that GPU, evidence the resource line" 1 \
	'([.findings[] | select(.code == "LXG104")] | length == 1 and (.[0].message | test("0000:18:00.0")) and (.[0].evidence | test("resource"))) and .host.bar1[0].assigned == false and .host.bar1[1].assigned == true'

# Resizable BAR on in the module's parameters and the driver's resize
# failure in the log: the fix says the parameter is on.
new_case rebar
printf 'EnableResizableBar: 1\n' >"$plant/tree/proc/driver/nvidia/params"
cat "$kmsg/clean-public.log" "$kmsg/bar-resize-no-space.log" >"$work/rebar.log"
umockdev-run -d "$plant/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" "$plant" "$lxgpu" \
	doctor --kmsg "$work/rebar.log" --format json >"$work/j" 2>"$work/err"
rc=$?
expect "BAR resize failure with EnableResizableBar on: LXG105 naming the parameter" 0 \
	'[.findings[] | select(.code == "LXG105")] | length == 1 and (.[0].fix | test("EnableResizableBar: 1"))'

# GPU 0000:18:00.0 taken by nouveau although modprobe.blacklist names it:
# the initramfs loaded it (modprobe.blacklist acts in the real root only;
# rd.driver.blacklist is dracut's/initramfs-tools' equivalent). Its
# /proc/driver/nvidia/gpus entry goes, as nvidia never probed it.
new_case nouveau
awk '/^P: /{gpu = ($0 ~ /0000:18:00\.0$/)} gpu{sub(/DRIVER=nvidia$/, "DRIVER=nouveau"); sub(/drivers\/nvidia$/, "drivers/nouveau")} {print}' \
	"$fixture/devices.umockdev" >"$plant/devices.umockdev"
echo proc/driver/nvidia/gpus/0000:18:00.0 >"$plant/remove"
echo "BOOT_IMAGE=/boot/vmlinuz-6.8.12-15-pve root=/dev/mapper/pve-root ro quiet modprobe.blacklist=nouveau" \
	>"$plant/tree/proc/cmdline"
run_doctor
expect "a GPU on nouveau despite modprobe.blacklist: LXG121 error, the fix names the initramfs" 1 \
	'[.findings[] | select(.code == "LXG121" and .severity == "error")] | length == 1 and (.[0].message | test("0000:18:00.0")) and (.[0].fix | test("rd.driver.blacklist=nouveau"))'

# ModifyDeviceFiles=0 and no /dev/nvidia-uvm: the driver makes no nodes.
new_case no-uvm-node
printf 'ModifyDeviceFiles: 0\n' >"$plant/tree/proc/driver/nvidia/params"
printf 'dev/nvidia-uvm\ndev/.node/nvidia-uvm\n' >"$plant/remove"
run_doctor
expect "nvidia-uvm loaded, its node missing, ModifyDeviceFiles 0: LXG122 pointing at ensure-nodes" 1 \
	'[.findings[] | select(.code == "LXG122")] | length == 1 and (.[0].fix | test("ModifyDeviceFiles is 0"))'

# Each planted real message on the live fixture: its cause.
new_case planted; secure_boot 0
for pair in gsp-firmware-missing:LXG107 xid-79:LXG109 api-mismatch:LXG100; do
	file=${pair%%:*} code=${pair#*:}
	cat "$kmsg/clean-public.log" "$kmsg/$file.log" >"$work/p.log"
	umockdev-run -d "$plant/devices.umockdev" -- sh "$in_testbed_sh" "$fixture" "$plant" "$lxgpu" \
		doctor --kmsg "$work/p.log" --format json >"$work/j" 2>"$work/err"
	rc=$?
	expect "$file planted on the live fixture: $code" 1 "[.findings[].code | select(. != \"LXG162\")] == [\"$code\"]"
done
echo "1..$n"
[ "$failed" -eq 0 ]
