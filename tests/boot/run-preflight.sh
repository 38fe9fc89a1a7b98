#!/bin/sh
# preflight over built /boot and /lib/modules trees: nvidia modules are real
# ELF objects with a .modinfo section (compiled here), compressed with xz and
# zstd as distributions ship them. Usage: run-preflight.sh LXGPU EXAMPLES_DIR
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
eight="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
# LXC's includes as a Proxmox VE host has them (with pve-container's
# userns.conf.d/01-pve.conf), whatever this machine has installed.
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/../verify/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +
cc=${CC:-cc}
for tool in "$cc" xz zstd jq; do
	command -v "$tool" >/dev/null || { echo "Bail out! $tool is needed"; exit 1; }
done

# make_module OUT VERSION LICENSE: an ELF relocatable object, like a .ko.
make_module() {
	cat >"$work/mod.c" <<C
__attribute__((section(".modinfo"), used)) static const char a[] = "license=$3";
__attribute__((section(".modinfo"), used)) static const char b[] = "version=$2";
__attribute__((section(".modinfo"), used)) static const char c[] = "description=NVIDIA GPU driver";
int nvidia_probe(void) { return 0; }
C
	mkdir -p "$(dirname "$1")"
	"$cc" -c -o "$work/mod.o" "$work/mod.c" || return 1
	case "$1" in
	*.xz) xz -c "$work/mod.o" >"$1" ;;
	*.zst) zstd -q -c "$work/mod.o" >"$1" ;;
	*) cp "$work/mod.o" "$1" ;;
	esac
}
kernel() { mkdir -p "$1/lib/modules/$2" "$1/boot" && : >"$1/boot/vmlinuz-$2"; }
firmware() { mkdir -p "$1/lib/firmware/nvidia/$2" && : >"$1/lib/firmware/nvidia/$2/gsp_ga10x.bin"; }
uvm_unit() {
	mkdir -p "$1/etc/systemd/system/multi-user.target.wants"
	printf '[Unit]\nBefore=pve-guests.service\n[Service]\nExecStart=/usr/bin/nvidia-modprobe -c 0 -u\n' \
		>"$1/etc/systemd/system/nvidia-nodes.service"
	ln -s ../nvidia-nodes.service "$1/etc/systemd/system/multi-user.target.wants/nvidia-nodes.service"
}

# Containers: 101 devN; 102 raw lines hard-coding the uvm major; ct-libs a
# plain LXC container whose rootfs holds the loaded version's libraries.
pve="$work/pve" lxcp="$work/lxc"
mkdir -p "$pve/lxc" "$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu"
printf 'arch: amd64\nonboot: 1\nunprivileged: 1\ndev0: /dev/nvidia0,mode=0666\ndev1: /dev/nvidiactl,mode=0666\ndev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n' >"$pve/lxc/101.conf"
printf 'arch: amd64\nlxc.cgroup2.devices.allow: c 195:0 rw\nlxc.cgroup2.devices.allow: c 195:255 rw\nlxc.cgroup2.devices.allow: c 511:0 rw\nlxc.cgroup2.devices.allow: c 511:1 rw\nlxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,create=file\nlxc.mount.entry: /dev/nvidiactl dev/nvidiactl none bind,create=file\nlxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file\nlxc.mount.entry: /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,create=file\n' >"$pve/lxc/102.conf"
printf 'lxc.uts.name = ct-libs\nlxc.include = %s/common.conf\nlxc.rootfs.path = dir:%s/ct-libs/rootfs\nlxc.cgroup2.devices.allow = c 195:0 rw\nlxc.cgroup2.devices.allow = c 195:255 rw\nlxc.cgroup2.devices.allow = c 511:0 rw\nlxc.cgroup2.devices.allow = c 511:1 rw\nlxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,create=file\nlxc.mount.entry = /dev/nvidiactl dev/nvidiactl none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,create=file\n' "$lxc_config" "$lxcp" >"$lxcp/ct-libs/config"
for lib in libnvidia-ml libcuda; do
	: >"$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.590.48.01"
	ln -s "$lib.so.590.48.01" "$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.1"
done

# pf STATUS HOST ROOT ARGS...: preflight's JSON in out.json (stderr in err),
# its exit status STATUS (0 when every verdict is ok, else 1)
pf() {
	st=$1 h=$2 root=$3
	shift 3
	lx_json "$st" "$work/out.json" "$lxgpu" --host "$h" --pve-dir "$pve" --lxc-path "$lxcp" \
		--cgroup-root "$work/no-cgroup" --lxc-config-dir "$lxc_config" --state-dir "$work/state" \
		preflight --root "$root" --format json "$@" || return 1
	cp "$work/out.json.err" "$work/err"
}
verdict() { jq -r --arg id "$2" ".$1[] | select(.container == \$id) | .verdict" "$work/out.json"; }
boot_verdict() { jq -r --arg id "$1" '.next_boot.containers[] | select(.container == $id) | .verdict' "$work/out.json"; }
reasons() { jq -r --arg id "$2" ".$1[] | select(.container == \$id) | .reasons[].message" "$work/out.json"; }
show() { cat "$work/out.json" "$work/err"; }

# The host as it is: everything matches.
t_now_ok() {
	pf 0 "$eight" "$work/none" || return 1
	[ "$(verdict next_start 101)" = ok ] && [ "$(verdict next_start 102)" = ok ] &&
		[ "$(verdict next_start ct-libs)" = ok ] || { show; return 1; }
}
check "next start on the 8-GPU host: all ok" t_now_ok

t_now_no_uvm() {
	pf 1 "$examples/pve-uvm-not-loaded.yaml" "$work/none" || return 1
	[ "$(verdict next_start 101)" = "will fail" ] && reasons next_start 101 | grep -q 'nvidia-uvm does not exist' &&
		[ "$(verdict next_start 102)" = "will fail" ] || { show; return 1; }
}
check "uvm node missing now: devN and plain mounts will fail" t_now_no_uvm

# Pending driver upgrade: 590.48.07 on disk for the next (newest) kernel.
up="$work/upgrade"
kernel "$up" 6.8.12-15-pve
kernel "$up" 6.8.12-16-pve
make_module "$up/lib/modules/6.8.12-15-pve/updates/dkms/nvidia.ko.zst" 590.48.01 "Dual MIT/GPL"
make_module "$up/lib/modules/6.8.12-16-pve/updates/dkms/nvidia.ko.xz" 590.48.07 "Dual MIT/GPL"
firmware "$up" 590.48.01
firmware "$up" 590.48.07
uvm_unit "$up"
t_upgrade() {
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	jq -e '.next_boot.kernel == "6.8.12-16-pve" and (.next_boot.kernel_source | test("newest"))
		and .next_boot.module.version == "590.48.07" and .next_boot.module.flavor == "open"
		and (.next_boot.module.path | endswith("nvidia.ko.xz")) and .next_boot.uvm_at_boot' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict ct-libs)" = degraded ] && [ "$(boot_verdict 102)" = degraded ] &&
		[ "$(boot_verdict 101)" = ok ] || { show; return 1; }
}
check "pending driver upgrade (xz module): libraries of today mismatch, hard-coded major at risk" t_upgrade
t_zstd_pinned() {
	pf "0|1" "$eight" "$up" --next-boot --kernel 6.8.12-15-pve || { show; return 1; }
	jq -e '.next_boot.module.version == "590.48.01" and (.next_boot.module.path | endswith(".zst"))
		and .next_boot.kernel_source == "--kernel"' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict ct-libs)" = ok ] || { show; return 1; }
}
check "--kernel with the zstd module of today's version: ok" t_zstd_pinned

# GRUB_DEFAULT=saved with a saved entry for the older kernel.
t_grub_saved() {
	mkdir -p "$up/etc/default" "$up/boot/grub"
	echo 'GRUB_DEFAULT=saved' >"$up/etc/default/grub"
	printf '# GRUB Environment Block\nsaved_entry=Advanced options for Proxmox VE GNU/Linux>Proxmox VE GNU/Linux, with Linux 6.8.12-15-pve\n' >"$up/boot/grub/grubenv"
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	rm -r "$up/etc/default" "$up/boot/grub"
	jq -e '.next_boot.kernel == "6.8.12-15-pve" and (.next_boot.kernel_source | test("saved_entry"))' "$work/out.json" >/dev/null ||
		{ show; return 1; }
}
check "GRUB_DEFAULT=saved: the saved entry's kernel" t_grub_saved

# The pinned next kernel has no nvidia module (DKMS did not build it).
t_no_module() {
	mkdir -p "$up/etc/kernel"
	kernel "$up" 6.8.12-17-pve
	echo 6.8.12-17-pve >"$up/etc/kernel/proxmox-boot-pin"
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	rm -r "$up/etc/kernel/proxmox-boot-pin" "$up/lib/modules/6.8.12-17-pve" "$up/boot/vmlinuz-6.8.12-17-pve"
	jq -e '.next_boot.kernel == "6.8.12-17-pve" and (.next_boot.kernel_source | test("proxmox-boot-tool"))
		and .next_boot.module == null' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict 101)" = "will fail" ] && [ "$(boot_verdict 102)" = "will fail" ] || { show; return 1; }
}
check "pinned next kernel without an nvidia module: will fail" t_no_module

# A PVE 9 host after an upgrade (NVIDIA/open-gpu-kernel-modules#1143,
# strongtz/i915-sriov-dkms#445: "Error! Bad return status for module build on
# kernel: 7.0.0-3-pve", "Consult /var/lib/dkms/<name>/<ver>/build/make.log"):
# the running 6.17 kernel has the module DKMS built, the new 7.0 kernel and its
# headers are installed, DKMS's build for it failed, so /lib/modules/7.0.0-3-pve
# has no nvidia.ko. The fix is DKMS's own command for that module version
# (dkms install NAME/VERSION -k KERNEL, dkms(8)); without the headers, apt
# first. The old text said only "apt install proxmox-headers", "dkms autoinstall".
pve9="$(dirname "$0")/pve9-rtx-4090.yaml"
p9="$work/pve9"
kernel "$p9" 6.17.13-2-pve
kernel "$p9" 7.0.0-3-pve
make_module "$p9/lib/modules/6.17.13-2-pve/updates/dkms/nvidia.ko" 580.105.08 "Dual MIT/GPL"
firmware "$p9" 580.105.08
uvm_unit "$p9"
mkdir -p "$p9/var/lib/dkms/nvidia/580.105.08/build" "$p9/var/lib/dkms/nvidia/580.105.08/6.17.13-2-pve/x86_64/module" \
	"$p9/usr/src/linux-headers-7.0.0-3-pve" "$p9/var/lib/dkms/nvidia-fs/2.26.6"
ln -s /usr/src/nvidia-580.105.08 "$p9/var/lib/dkms/nvidia/580.105.08/source"
ln -s 580.105.08/6.17.13-2-pve/x86_64 "$p9/var/lib/dkms/nvidia/kernel-6.17.13-2-pve-x86_64"
echo 'Error! Bad return status for module build on kernel: 7.0.0-3-pve (x86_64)' >"$p9/var/lib/dkms/nvidia/580.105.08/build/make.log"
ln -s /usr/src/linux-headers-7.0.0-3-pve "$p9/lib/modules/7.0.0-3-pve/build"
boot_fix() { jq -r --arg id "$1" '.next_boot.containers[] | select(.container == $id) | .reasons[].fix' "$work/out.json"; }
t_pve9_dkms_failed() {
	pf "0|1" "$pve9" "$p9" --next-boot || { show; return 1; }
	jq -e '.next_boot.kernel == "7.0.0-3-pve" and .next_boot.module == null' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict 101)" = "will fail" ] || { show; return 1; }
	f=$(boot_fix 101)
	case $f in *'`dkms install nvidia/580.105.08 -k 7.0.0-3-pve`'*) ;; *) echo "fix: $f"; return 1 ;; esac
	case $f in *'/var/lib/dkms/nvidia/580.105.08/build/make.log'*) ;; *) echo "fix: $f"; return 1 ;; esac
	case $f in *'apt install'*) echo "headers are installed: $f"; return 1 ;; esac
	# meanwhile the kernel running now (the snapshot's) stays the one that boots
	case $f in *'`proxmox-boot-tool kernel pin 6.17.13-2-pve`'*) ;; *) echo "fix: $f"; return 1 ;; esac
}
check "PVE 9: DKMS did not build the module for 7.0: will fail, dkms install nvidia/VER -k 7.0.0-3-pve" t_pve9_dkms_failed
t_pve9_no_headers() {
	rm "$p9/lib/modules/7.0.0-3-pve/build"
	rmdir "$p9/usr/src/linux-headers-7.0.0-3-pve"
	pf "0|1" "$pve9" "$p9" --next-boot || { show; return 1; }
	f=$(boot_fix 101)
	case $f in *'`apt install proxmox-headers-7.0.0-3-pve`, then `dkms install nvidia/580.105.08 -k 7.0.0-3-pve`'*) ;;
	*) echo "fix: $f"; return 1 ;; esac
}
check "PVE 9: no headers for 7.0: apt install proxmox-headers-7.0.0-3-pve, then dkms install" t_pve9_no_headers

# The proprietary module cannot drive Blackwell GPUs.
prop="$work/proprietary"
kernel "$prop" 6.8.12-15-pve
make_module "$prop/lib/modules/6.8.12-15-pve/updates/dkms/nvidia.ko" 590.48.01 NVIDIA
uvm_unit "$prop"
t_proprietary_blackwell() {
	pf "0|1" "$eight" "$prop" --next-boot || { show; return 1; }
	jq -e '.next_boot.module.flavor == "proprietary"' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict 101)" = "will fail" ] &&
		jq -r '.next_boot.containers[] | select(.container == "101") | .reasons[].message' "$work/out.json" | grep -q Blackwell ||
		{ show; return 1; }
}
check "proprietary module with Blackwell GPUs: will fail" t_proprietary_blackwell

# Nothing creates /dev/nvidia-uvm at boot.
bare="$work/bare"
kernel "$bare" 6.8.12-15-pve
make_module "$bare/lib/modules/6.8.12-15-pve/updates/dkms/nvidia.ko" 590.48.01 "Dual MIT/GPL"
firmware "$bare" 590.48.01
t_no_uvm_at_boot() {
	pf "0|1" "$eight" "$bare" --next-boot || { show; return 1; }
	jq -e '.next_boot.uvm_at_boot == false' "$work/out.json" >/dev/null &&
		[ "$(boot_verdict 101)" = "will fail" ] &&
		jq -r '.next_boot.containers[] | select(.container == "101") | .reasons[].fix' "$work/out.json" | grep -q 'print-boot-unit' ||
		{ show; return 1; }
}
check "nothing creates the uvm node at boot: devN will fail, the fix is the boot unit" t_no_uvm_at_boot
t_missing_firmware() {
	rm -r "$bare/lib/firmware"
	uvm_unit "$bare"
	pf "0|1" "$eight" "$bare" --next-boot || { show; return 1; }
	[ "$(boot_verdict 101)" = "will fail" ] &&
		jq -r '.next_boot.containers[] | select(.container == "101") | .reasons[].message' "$work/out.json" | grep -q 'GSP firmware' ||
		{ show; return 1; }
}
check "open module without its GSP firmware: will fail" t_missing_firmware

t_boot_unit() {
	"$lxgpu" preflight --print-boot-unit >"$work/unit" &&
		grep -qx 'Before=pve-guests.service lxc.service' "$work/unit" &&
		grep -Eqx 'ExecStart=/([^ ]+/)?bin/lxgpu ensure-nodes --load-modules' "$work/unit" &&
		"$lxgpu" ensure-nodes --print-boot-unit | cmp -s - "$work/unit" &&
		grep -qx 'WantedBy=multi-user.target' "$work/unit"
}
check "--print-boot-unit: a oneshot unit before pve-guests" t_boot_unit
t_text() {
	"$lxgpu" --host "$eight" --pve-dir "$pve" --lxc-path "$lxcp" --cgroup-root "$work/no-cgroup" \
		preflight --root "$up" --next-boot >"$work/text" 2>&1
	grep -q '^Next start' "$work/text" && grep -q '^After a reboot into kernel 6.8.12-16-pve' "$work/text" &&
		grep -q '^  ct-libs    degraded' "$work/text" || { cat "$work/text"; return 1; }
}
check "the text report" t_text
t_bad_module() {
	broken="$work/broken"
	kernel "$broken" 6.8.12-15-pve
	mkdir -p "$broken/lib/modules/6.8.12-15-pve/updates"
	printf 'not an ELF file' | xz >"$broken/lib/modules/6.8.12-15-pve/updates/nvidia.ko.xz"
	"$lxgpu" --host "$eight" --pve-dir "$pve" --lxc-path "$lxcp" --cgroup-root "$work/no-cgroup" \
		--lxc-config-dir "$lxc_config" --state-dir "$work/state" \
		preflight --root "$broken" --format json --next-boot >"$work/out.json" 2>"$work/err"
	[ $? -eq 2 ] && [ ! -s "$work/out.json" ] && grep -q 'nvidia.ko.xz: not an ELF file' "$work/err" || { show; return 1; }
}
check "a broken module file: exit 2, named" t_bad_module
# Which files of <pve-dir>/lxc are containers, and their order, are
# Proxmox's: pve-container parses only "<vmid>.conf"
# (src/PVE/LXC/Config.pm:1147, m|/lxc/(\d+).conf$|, else "got strange
# filename"), pmxcfs lists a guest only for digits not starting with 0 then
# ".conf" (pve-cluster src/pmxcfs/memdb.c:188, name_is_vm_config), and pct
# list sorts by vmid as numbers (src/PVE/CLI/pct.pm:1067, $a->{vmid} <=>
# $b->{vmid}). So 99 comes before 100; notes.conf and 0100.conf are none.
t_pve_ids() {
	ids="$work/pve-ids"
	mkdir -p "$ids/lxc" "$work/no-lxc"
	for f in 100 99 notes 0100; do cp "$pve/lxc/101.conf" "$ids/lxc/$f.conf"; done
	lx_json 0 "$work/out.json" "$lxgpu" --host "$eight" --pve-dir "$ids" --lxc-path "$work/no-lxc" \
		--cgroup-root "$work/no-cgroup" --lxc-config-dir "$lxc_config" preflight --format json &&
		[ "$(jq -c '[.next_start[].container]' "$work/out.json")" = '["99","100"]' ] || { show; return 1; }
}
check "PVE's containers: <vmid>.conf files only, by vmid as a number" t_pve_ids

# A snapshot has no /boot or /lib/modules: --next-boot without --root must
# not judge it against this machine's (every container "will fail" where
# this machine has no nvidia module), but say what it needs and stop.
t_snapshot_needs_root() {
	for extra in "--next-boot" "--next-boot --kernel 6.8.12-16-pve"; do
		# shellcheck disable=SC2086
		"$lxgpu" --host "$eight" --pve-dir "$pve" --lxc-path "$lxcp" --cgroup-root "$work/no-cgroup" \
			--lxc-config-dir "$lxc_config" --state-dir "$work/state" preflight $extra \
			>"$work/out" 2>"$work/err"
		[ $? -eq 2 ] && [ ! -s "$work/out" ] && grep -q -- "--next-boot with --host $eight needs --root DIR" "$work/err" ||
			{ echo "$extra:"; cat "$work/out" "$work/err"; return 1; }
	done
	# without --next-boot a snapshot needs no boot data
	pf 0 "$eight" "$work/none" && [ "$(verdict next_start 101)" = ok ] || { show; return 1; }
}
check "--host SNAPSHOT --next-boot without --root: exit 2, asks for --root" t_snapshot_needs_root

# The fix for a hard-coded dynamic major, run as printed (tests/lib/fix.sh),
# must take the reason away: plain 'lxgpu apply 102' keeps the raw style
# and answers "already up to date".
. "$(dirname "$0")/../lib/fix.sh"
fix_stubs "$work/fix" "$lxgpu" --host "$eight" --pve-dir "$pve" --lxc-path "$lxcp" \
	--cgroup-root "$work/no-cgroup" --lxc-config-dir "$lxc_config" --state-dir "$work/state" \
	-- --backup-dir "$work/backups" --lock-dir "$work"
hard_coded_fix() { # CTID
	jq -r --arg id "$1" '.next_boot.containers[] | select(.container == $id) | .reasons[]
		| select(.message | test("hard-codes")) | .fix' "$work/out.json"
}
t_hard_coded_major_fix() {
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	f=$(hard_coded_fix 102)
	[ -n "$f" ] || { echo "no hard-coded major reason for 102"; show; return 1; }
	case $f in *"lxgpu --"*" apply 102 --style devn"*) ;; *) echo "fix: $f"; return 1 ;; esac
	run_fix "$f" || return 1
	grep -q '^dev[0-9]*: /dev/nvidia-uvm' "$pve/lxc/102.conf" && ! grep -q '511:' "$pve/lxc/102.conf" ||
		{ cat "$pve/lxc/102.conf"; return 1; }
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	[ -z "$(hard_coded_fix 102)" ] || { echo "still there after the fix"; show; return 1; }
	# plain LXC has no devN: lxgpu's include file, which ensure-nodes rewrites at boot
	f=$(hard_coded_fix ct-libs)
	case $f in *"lxgpu --"*" apply ct-libs --style include"*) ;; *) echo "fix: $f"; return 1 ;; esac
	run_fix "$f" || return 1
	grep -q '^lxc.include = .*/lxc/ct-libs.conf' "$lxcp/ct-libs/config" && ! grep -q '511:' "$lxcp/ct-libs/config" ||
		{ cat "$lxcp/ct-libs/config"; return 1; }
	pf "0|1" "$eight" "$up" --next-boot || { show; return 1; }
	# (what is left says that ensure-nodes must run at boot: LXG042, its own fix)
	[ -z "$(hard_coded_fix ct-libs)" ] || { echo "still there after the fix"; show; return 1; }
}
check "a hard-coded major: the printed fix (--style devn) takes the reason away" t_hard_coded_major_fix

# The exit status is verify's rule (README "Exit status", one
# implementation): 1 when a reason shown is an error, else 2 when a
# container could not be judged, else 0; not the verdicts. Each case's
# severity is the one docs/findings.md gives its code in verify, so the
# expected status is from that table: LXG010 (users cannot open a node) is a
# warning, the start degraded; LXG028 (a line Proxmox cannot parse) an
# error, and so the start degraded, never "ok" with exit 1 (the verdict
# and the status agree; Proxmox leaves the line out: the container does
# not start as configured); LXG009 (devN of a missing node) an error, the
# start fails; a config that is a directory cannot be read (2), and an error
# elsewhere still says 1, as verify's errors come before "could not check".
vcases="$(dirname "$0")/../verify/cases"
xs="$work/exit-pve"
mkdir -p "$xs/lxc"
cp "$vcases/clean-devn.conf" "$xs/lxc/201.conf"
cp "$vcases/devn-no-mode.conf" "$xs/lxc/202.conf"
cp "$vcases/unparseable-mount-entry.conf" "$xs/lxc/203.conf"
cp "$vcases/devn-missing-node.conf" "$xs/lxc/204.conf"
mkdir "$xs/lxc/205.conf"
exit_of() { # WANT VERDICTS CTID...: exit status WANT, the verdicts (or "-" without JSON)
	want=$1 verdicts=$2
	shift 2
	if [ "$verdicts" = - ]; then
		"$lxgpu" --host "$eight" --pve-dir "$xs" --lxc-path "$work/no-lxc" --cgroup-root "$work/no-cgroup" \
			--lxc-config-dir "$lxc_config" preflight "$@" >"$work/out" 2>"$work/err"
		rc=$?
		[ "$rc" = "$want" ] || { echo "exit status $rc, wanted $want"; cat "$work/out" "$work/err"; return 1; }
		return 0
	fi
	lx_json "$want" "$work/out.json" "$lxgpu" --host "$eight" --pve-dir "$xs" --lxc-path "$work/no-lxc" \
		--cgroup-root "$work/no-cgroup" --lxc-config-dir "$lxc_config" preflight "$@" --format json &&
		jq_ok "$work/out.json" '[.next_start[].verdict] | join(",") == $v' --arg v "$verdicts"
}
check "exit 0: a clean start" exit_of 0 ok 201
check "exit 0: degraded by a warning only (LXG010), as verify" exit_of 0 degraded 202
check "exit 1: an error (LXG028), the start degraded (not ok), as verify" exit_of 1 degraded 203
check "exit 1: a start that fails (LXG009)" exit_of 1 "will fail" 204
check "exit 2: a config that cannot be read, the others ok" exit_of 2 ok 201 205
check "exit 2 in text too" exit_of 2 - 201 205
check "exit 1: an error comes before a config that cannot be read" exit_of 1 "will fail" 204 205
check "exit 1 in text too, for a walk over every container" exit_of 1 -
tap_finish
