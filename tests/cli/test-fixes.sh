#!/bin/sh
# Every fix lxgpu prints is a command that works (issue 22). For each
# finding code whose fix carries a command, a scratch case plants the
# problem, the fix is taken from lxgpu's own output and run as printed:
# for verify, preflight, guard and doctor from their text output on an
# 80-column terminal (issue 32: each command whole on a line of its own,
# parsed as one shell command, and the one the JSON lists; no other line
# wider than the terminal; tests/lib/fix-text.py), for audit from its JSON
# (tests/lib/fix.sh: the word lxgpu runs the binary under test with this
# test's scratch directories in place of /etc/pve and /var/lib/lxgpu; pct,
# qm and nvidia-modprobe are stubs that record the call and, where a case
# says so, make their effect in the scratch state), then the check runs
# again and the finding must be gone. A fix that is a manual step must say
# so ("by hand: ..."): for those the marking is checked. Last, every code of
# src/report/finding-table.c must have a case here or be in one of the
# commented lists below (no command in its fix; not covered yet, with why):
# a new code with a fix command fails this test until it has a case.
# The planted problems come from tests/verify/cases (their #expect lines)
# and the example hosts. Usage: test-fixes.sh LXGPU EXAMPLES SRCDIR (TAP)
set -u
# LXG027's pct stub mounts: in a mount namespace of this test's own, which
# nothing outlives
if [ "$(id -u)" -eq 0 ] && [ -z "${LXGPU_FIX_NS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
	LXGPU_FIX_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
lxgpu=$1 examples=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"
. "$src/tests/lib/fix.sh"
. "$src/tests/lib/lxjson.sh"
. "$src/tests/lib/on-tty.sh"
cases="$src/tests/verify/cases"
lxc_config="$work/lxc-config"
cp -R "$src/tests/verify/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +
pve="$work/pve" lxcp="$work/lxc" state="$work/state" host="$work/host.yaml"
mkdir -p "$lxcp" "$work/cg" "$work/dev" "$work/run"
fix_stubs "$work/fix" "$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$lxcp" \
	--lxc-config-dir "$lxc_config" --state-dir "$state" --cgroup-root "$work/cg" \
	--run-dir "$work/run" --dev-dir "$work/dev" \
	-- --backup-dir "$work/backups" --lock-dir "$work"
lx() { PATH="$work/fix/bin:$PATH" lxgpu "$@"; }
# The fixes run truly as printed: lxgpu prints its caller's --host,
# --pve-dir, --state-dir, ... in them, so this lxgpu adds nothing but
# apply's and rollback's --backup-dir and --lock-dir (which the check that
# printed the fix does not take, and which must not be the machine's).
fix_stubs "$work/fixp" "$lxgpu" -- --backup-dir "$work/backups" --lock-dir "$work"

ran="" by_hand="" # the codes whose fix was run, whose by-hand marking was checked
skipped=""         # the codes whose case could not run here: not covered
# skip_case DESCRIPTION REASON CODE...: a TAP skip (with CI=true a failure);
# its codes are not counted as covered
skip_case() {
	skip "$1" "$2"
	shift 2
	skipped="$skipped $*"
}

# case_setup HOST CONF: a fresh scratch Proxmox with CONF as CT 700
case_setup() {
	rm -rf "$pve" "$state" "$work/backups" && mkdir -p "$pve/lxc" "$pve/qemu-server"
	cp "$examples/$1.yaml" "$host"
	cp "$2" "$pve/lxc/700.conf"
}
# The first finding's fix of CODE for CT ID: from the text output on an
# 80-column terminal (out.txt, the same run's JSON in out.json) when the
# check wrote one; "-" for out.json: text without JSON (guard). Else from
# the JSON (audit).
text_json=""
fix_of() {
	if [ -n "$text_json" ]; then
		python3 "$src/tests/lib/fix-text.py" "$work/out.txt" "$text_json" "$1" "$2" 80 || return 1
	else
		jq -r --arg c "$1" --arg id "$2" '[.findings[] | select(.code == $c and .container == $id) | .fix][0] // empty' "$work/out.json"
	fi
}
# has CODE ID: 0 when out.json has CODE for ID, 1 when it has not, 2 when
# out.json is not one JSON document (a crashed check is never "gone")
has() {
	json_ok "$work/out.json" || return 2
	jq -e --arg c "$1" --arg id "$2" 'any(.findings[]; .code == $c and .container == $id)' "$work/out.json" >/dev/null
}
lacks() {
	has "$@"
	[ $? -eq 1 ]
}
# as_text COMMAND...: the text output of a check whose JSON is out.json, on
# an 80-column terminal, as out.txt: fix_of reads the fixes there. Exit
# status 0 or 1, as the JSON run's.
as_text() {
	on_tty 80 "$work/out.txt" "$@"
	_at_rc=$?
	text_json="$work/out.json"
	[ "$_at_rc" -le 1 ] || { echo "exit status $_at_rc of: $*"; cat "$work/out.txt" "$work/out.txt.err"; return 1; }
}
# the checks write out.json (stderr in out.json.err, or err), after
# removing the last one's; exit status as the README says (1 with an error)
verify_json() {
	rm -f "$work/out.json" && lx_json sev "$work/out.json" lx verify "$1" --format json &&
		as_text "$work/fix/bin/lxgpu" verify "$1"
}

# given CODE ID CHECK...: CHECK (writing out.json) gives CODE for ID; f is
# its fix
given() {
	code=$1 id=$2
	shift 2
	"$@" || { echo "the check failed: $*"; return 1; }
	has "$code" "$id" || { echo "no $code for $id"; cat "$work/out.json" "$work/out.json.err" "$work/err" 2>/dev/null; return 1; }
	f=$(fix_of "$code" "$id") || { echo "$f"; cat "$work/out.txt"; return 1; }
}
# fixed CODE ID CHECK...: CHECK gives CODE for ID; its fix is run as
# printed; CHECK again gives no CODE for ID.
fixed() {
	given "$@" || return 1
	shift 2
	case $f in "by hand:"*) echo "$code's fix is a manual step: $f"; return 1 ;; esac
	eval "${before_fix:-:}" || return 1 # what the fix says comes first ("after the move")
	run_fix "$f" || return 1
	"$@" || { echo "the check failed after the fix: $*"; return 1; }
	lacks "$code" "$id" || { echo "$code is still there after: $f"; jq -c '.findings[]' "$work/out.json"; return 1; }
	ran="$ran $code"
}
# manual CODE ID CHECK...: CHECK gives CODE for ID, and its fix says "by hand:"
manual() {
	given "$@" || return 1
	case $f in "by hand:"*) ;; *) echo "$code's fix is not marked as a manual step: $f"; return 1 ;; esac
	by_hand="$by_hand $code"
}
# a verify case: CODE, run|by-hand, a case file of tests/verify/cases, the host
vcase() {
	case_setup "$4" "$cases/$3.conf"
	if [ "$2" = run ]; then fixed "$1" 700 verify_json 700; else manual "$1" 700 verify_json 700; fi
}

# nvidia-modprobe -u (load nvidia-uvm, make its nodes), on the scratch host
# model ($FIX_HOST): the module, its major (511, the first the kernel hands
# out above the 234-254 this host's dynamic majors use) and its two nodes.
export FIX_HOST="$host"
cat >"$work/fix/on-nvidia-modprobe" <<'EOF'
#!/bin/sh
case " $* " in *" -u "*) ;; *) exit 0 ;; esac
sed -i -e '/^  modules:$/a\
  - nvidia_uvm' -e '/^nodes:$/a\
- {path: /dev/nvidia-uvm, type: char, major: 511, minor: 0, mode: "0666", uid: 0, gid: 0}\
- {path: /dev/nvidia-uvm-tools, type: char, major: 511, minor: 1, mode: "0666", uid: 0, gid: 0}' \
	-e '/^majors:$/a\
- {major: 511, name: nvidia-uvm}' "$FIX_HOST"
EOF
chmod +x "$work/fix/on-nvidia-modprobe"
cp "$work/fix/on-nvidia-modprobe" "$work/fixp/"

eight=pve-8x-rtx-pro-6000
check "LXG001 stale major: by hand (apply keeps the rule)" vcase LXG001 by-hand stale-uvm-major $eight
check "LXG002 mount of a node the host lacks (nvidia-modeset): by hand" vcase LXG002 by-hand mount-missing-node $eight
check "LXG002 optional mount of uvm, not loaded: nvidia-modprobe -u" vcase LXG002 run optional-uvm-missing pve-uvm-not-loaded
check "LXG003 node of no GPU" vcase LXG003 run gpu-does-not-exist $eight
check "LXG004 node of a GPU on vfio-pci" vcase LXG004 run vfio-gpu pve-vfio-split
check "LXG005 GPU lines in a snapshot: by hand" vcase LXG005 by-hand appended-in-snapshot $eight
check "LXG005 pending GPU lines: by hand" vcase LXG005 by-hand pending-gpu $eight
check "LXG006 keys of the other cgroup version" vcase LXG006 run v1-keys-on-v2 $eight
check "LXG007 over-broad rule: by hand" vcase LXG007 by-hand over-broad $eight
check "LXG008 a needed node not configured" vcase LXG008 run missing-uvm $eight
check "LXG009 devN of a GPU node that does not exist" vcase LXG009 run gpu-does-not-exist $eight
check "LXG009 devN of a caps node that does not exist: by hand" vcase LXG009 by-hand devn-missing-node $eight
check "LXG009 devN of uvm, not loaded: nvidia-modprobe -u" vcase LXG009 run uvm-not-loaded pve-uvm-not-loaded
check "LXG010 devN without mode: by hand" vcase LXG010 by-hand devn-no-mode $eight
check "LXG010 a bind-mounted node its users cannot open" vcase LXG010 run unprivileged-dri pve-rtx-4090
check "LXG020 nvidia-uvm not loaded: nvidia-modprobe -u" vcase LXG020 run uvm-not-loaded pve-uvm-not-loaded
check "LXG022 the device cgroup denies a needed node" vcase LXG022 run no-rule-privileged $eight
check "LXG022 a stale major denies a needed node" vcase LXG022 run stale-uvm-denied $eight
check "LXG022 deny-write on a devN entry: by hand" vcase LXG022 by-hand devn-deny-write $eight
check "LXG023 a GPU bind without create=" vcase LXG023 run mount-no-create $eight
check "LXG024 a rule LXC refuses: by hand" vcase LXG024 by-hand invalid-rule-v2 $eight
check "LXG025 basic devices blocked: by hand" vcase LXG025 by-hand deny-all-reset $eight
check "LXG028 a line Proxmox cannot parse: by hand" vcase LXG028 by-hand unparseable-mount-entry $eight
# NVIDIA's LXC hook (tests/verify/nvhook): every fix is a config edit or a
# host package, so a manual step.
hcase() {
	case_setup "$3" "$src/tests/verify/nvhook/$2.conf"
	manual "$1" 700 verify_json 700
}
check "LXG060 NVIDIA's hook in a privileged container: by hand" hcase LXG060 privileged $eight
check "LXG062 NVIDIA's hook names no such GPU: by hand" hcase LXG062 index-too-high pve-vfio-split
check "LXG063 the cgroup denies a node NVIDIA's hook mounts: by hand" hcase LXG063 cgroup-denies $eight
check "LXG064 NVIDIA's hook gives no compute: by hand" hcase LXG064 no-capabilities $eight

# nocmd CODE ID CHECK...: CHECK gives CODE for ID and its fix has no command
# (for the codes listed in no_command below that a case here can give)
nocmd() {
	given "$@" || return 1
	[ -n "$f" ] || { echo "$code has no fix text"; return 1; }
	[ -z "$(fix_commands "$f")" ] || { echo "$code's fix has a command: $f"; return 1; }
}
# The driver hook line: a binary that is not there (LXG045); the driver
# root has no userspace of the loaded version (LXG046, a package to install).
t_hook() {
	case_setup "$eight" "$cases/clean-devn.conf"
	echo 'lxc.hook.mount: /opt/gone/lxgpu hook --driver-root /opt/gone' >>"$pve/lxc/700.conf"
	manual LXG045 700 verify_json 700
}
check "LXG045 the hook line's binary is gone: by hand (apply keeps the line)" t_hook
check "LXG046 the hook has no userspace to give: no command (install the driver)" nocmd LXG046 700 verify_json 700

# audit over several containers: one GPU in two containers (--exclusive)
# and in a VM. Its findings, each with its container, as out.json.
audit_json() {
	text_json=""
	rm -f "$work/out.json"
	lx_json sev "$work/aout.json" lx audit --exclusive --format json &&
		jq '{findings: [.containers[] | .container as $c | .findings[] | . + {container: $c}]}' \
		"$work/aout.json" >"$work/out.json"
}
t_audit_setup() {
	case_setup "$eight" "$cases/clean-devn.conf"
	cp "$cases/clean-devn.conf" "$pve/lxc/701.conf"
	printf 'memory: 8192\nhostpci0: 0000:18:00,pcie=1\n' >"$pve/qemu-server/900.conf"
}
check "LXG012 a GPU in two containers: by hand (which one keeps it is the user's choice)" \
	eval 't_audit_setup && manual LXG012 701 audit_json'
check "LXG013 a GPU in a container and a VM: no command (another GPU, or edit the VM)" \
	eval 't_audit_setup && nocmd LXG013 700 audit_json'

# A plain LXC container (under --lxc-path) whose root has the userspace
# driver of VERSION, as a package installs it: the file and its soname link,
# which the container's loader resolves (run-doctor.sh's containers). The
# 8-GPU host's module is 590.48.01.
ct_libs() { # VERSION
	rm -rf "$lxcp/ct-libs" "$pve" "$state" "$work/backups"
	mkdir -p "$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu" "$pve/lxc" "$pve/qemu-server"
	cp "$examples/$eight.yaml" "$host"
	printf 'lxc.uts.name = ct-libs\nlxc.include = %s/common.conf\nlxc.rootfs.path = dir:%s/ct-libs/rootfs\nlxc.cgroup2.devices.allow = c 195:0 rw\nlxc.cgroup2.devices.allow = c 195:255 rw\nlxc.cgroup2.devices.allow = c 511:0 rw\nlxc.cgroup2.devices.allow = c 511:1 rw\nlxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,create=file\nlxc.mount.entry = /dev/nvidiactl dev/nvidiactl none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,create=file\n' \
		"$lxc_config" "$lxcp" >"$lxcp/ct-libs/config"
	for lib in libcuda libnvidia-ml; do
		: >"$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.$1"
		ln -s "$lib.so.$1" "$lxcp/ct-libs/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.1"
	done
}
check "LXG011 the container's libraries are not the module's version: the driver hook" \
	eval 'ct_libs 550.54.14 && fixed LXG011 ct-libs verify_json ct-libs'
check "LXG047 the container's own copy of the module's version: the driver hook" \
	eval 'ct_libs 590.48.01 && fixed LXG047 ct-libs verify_json ct-libs'

# An Intel GPU's render node as a devN entry whose gid is not the
# container's render group (tests/verify/run-drm-groups.sh's CT 702: Ubuntu
# 22.04's /etc/group, render 109, on a zfs subvol of tests/verify/storage)
t_drm_group() {
	rm -rf "$pve" "$state" "$work/zfs" && mkdir -p "$pve/lxc" "$work/zfs/data/subvol-700-disk-0/etc"
	sed "s|/LXGPU-WORK|$work|g" "$src/tests/verify/storage/storage.cfg" >"$pve/storage.cfg"
	printf 'root:x:0:\nvideo:x:44:\nssl-cert:x:104:\nrender:x:109:\n' >"$work/zfs/data/subvol-700-disk-0/etc/group"
	printf 'arch: amd64\nhostname: ct700\nostype: ubuntu\nrootfs: local-zfs:subvol-700-disk-0,size=8G\nunprivileged: 1\ndev0: /dev/dri/renderD128,gid=104\n' \
		>"$pve/lxc/700.conf"
	cp "$examples/pve-intel-igpu.yaml" "$host"
	manual LXG055 700 verify_json 700
}
check "LXG055 a devN render node with another group's gid: by hand (apply keeps the entry)" t_drm_group

# ---- doctor: host administration (a package, the firmware setup, the boot
# loader, mokutil, dkms, systemctl, a GPU reset): every fix says "by hand:",
# but ensure-nodes', which lxgpu runs itself ----
# doctor's host findings as out.json, each with container "host"
doctor_json() { # [DOCTOR OPTIONS...]
	rm -f "$work/out.json"
	lx_json sev "$work/dout.json" lx doctor --format json "$@" &&
		jq '{findings: [.findings[] | . + {container: (.container // "host")}]}' "$work/dout.json" >"$work/out.json" &&
		as_text "$work/fix/bin/lxgpu" doctor "$@"
}
# dcase CODE HOST LOG: the clean log plus one real message (tests/doctor/kmsg) on an example host
dcase() {
	cp "$examples/$2.yaml" "$host"
	cat "$src/tests/doctor/kmsg/clean-public.log" "$src/tests/doctor/kmsg/$3" >"$work/k.log"
	manual "$1" host doctor_json --kmsg "$work/k.log"
}
# nodriver CODE LOG: as dcase, on the RTX 4090 host with no nvidia module loaded
# (its GPU bound to no driver)
nodriver() {
	sed -e '/^  version:/d' -e '/^  modules:/,/^  firmware:/{/^  - /d}' -e 's/^  modules:$/  modules: []/' \
		-e 's/^\(  *\)driver: nvidia$/\1driver: null/' "$examples/pve-rtx-4090.yaml" >"$work/nodrv.yaml"
	cp "$work/nodrv.yaml" "$host"
	cat "$src/tests/doctor/kmsg/clean-public.log" "$src/tests/doctor/kmsg/$2" >"$work/k.log"
	manual "$1" host doctor_json --kmsg "$work/k.log"
}
check "LXG100 API mismatch: by hand (the client's libraries, or reboot)" dcase LXG100 "$eight" api-mismatch.log
check "LXG108 GSP did not boot: by hand (nvidia-smi -r, power cycle)" dcase LXG108 "$eight" gsp-wpr2-up.log
check "LXG111 another driver took the GPU: by hand (blacklist, reboot)" dcase LXG111 "$eight" bound-elsewhere.log
check "LXG117 a fatal SXid: by hand (reset the fabric)" dcase LXG117 "$eight" sxid-fatal.log
check "LXG118 the GPU needs a reset: by hand (nvidia-smi -r)" dcase LXG118 "$eight" reset-required.log
check "LXG112 an unsigned module refused: by hand (mokutil)" nodriver LXG112 lockdown-unsigned.log
# Intel and AMD: linux-firmware, the kernel, the slot (nothing lxgpu could run)
check "LXG140 GPU firmware missing: by hand (linux-firmware)" dcase LXG140 pve-intel-igpu i915-guc-fetch-failed.log
check "LXG141 the GPU did not initialize: by hand (firmware, modprobe options)" dcase LXG141 pve-intel-igpu i915-guc-init-old.log
check "LXG142 a GPU hang or ring timeout: by hand (restart, kernel and firmware)" dcase LXG142 pve-amd-rocm amdgpu-ring-timeout-reset.log
check "LXG143 kfd refused the GPU (no PCIe atomics): by hand (another slot)" dcase LXG143 pve-amd-rocm kfd-atomics.log
check "LXG143 kfd has no support for the GPU: by hand (a newer kernel)" dcase LXG143 pve-amd-rocm kfd-unsupported.log
check "LXG144 the MES firmware did not answer: by hand (restart, linux-firmware)" dcase LXG144 pve-amd-rocm amdgpu-mes-timeout.log
check "LXG145 the PSP did not start: by hand (cold start, linux-firmware)" dcase LXG145 pve-amd-rocm amdgpu-psp-ring-failed.log
check "LXG146 the DMCUB failed: by hand (linux-firmware)" dcase LXG146 pve-amd-rocm amdgpu-dmcub-error.log
check "LXG149 the SMU did not answer: by hand (reboot, linux-firmware)" dcase LXG149 pve-amd-rocm amdgpu-smu-timeout.log
check "LXG150 a GPU page fault: by hand (the program, ROCm and Mesa)" dcase LXG150 pve-amd-rocm amdgpu-vm-fault-process.log
check "LXG153 nomodeset keeps amdgpu off the GPU: by hand (the command line)" dcase LXG153 pve-amd-rocm modeset-nomodeset-amd.log
check "LXG154 RAS uncorrectable errors: by hand (service the GPU)" dcase LXG154 pve-amd-rocm amdgpu-ras-ue.log
check "LXG156 no VBIOS: by hand (romfile, system firmware)" dcase LXG156 pve-amd-rocm amdgpu-vbios-not-found.log
check "LXG148 vfio-pci cannot reserve a BAR: by hand (sysfb off)" dcase LXG148 pve-vfio-split vfio-bar-reserve.log
check "LXG174 a GPU did not resume: by hand (reboot, keep the node awake)" dcase LXG174 pve-amd-rocm gpu-pm-resume-failed.log
check "LXG175 the display engine timed out: by hand (kernel, driver)" dcase LXG175 pve-amd-rocm drm-flip-timeout.log
check "LXG176 a GPU no longer answers on PCI: by hand (power cycle, vfio-pci options)" dcase LXG176 "$eight" pci-not-ready.log
check "LXG177 a GPU unbound while in use: by hand (stop its holders, vfio-pci at boot)" dcase LXG177 "$eight" remove-in-use.log
check "LXG178 a display output failed: by hand (cable, adapter, monitor, dock firmware)" dcase LXG178 pve-intel-igpu drm-edid-invalid.log
check "LXG190 a VM's vGPU did not start: by hand (nvidia-vgpu-mgr's log)" dcase LXG190 "$eight" vgpu-start-failed.log
check "LXG191 the bounce buffer is full for a GPU: by hand (IOMMU on, swiotlb=)" dcase LXG191 pve-amd-rocm swiotlb-full.log
check "LXG192 a GPU's memory is full: by hand (fewer jobs, GTT size)" dcase LXG192 pve-amd-rocm ttm-eviction-failed.log
check "LXG192 NVIDIA's BAR1 address space is full: by hand (Resizable BAR, fewer mappings)" dcase LXG192 "$eight" nvidia-va-space-assert.log
check "LXG179 the hotplug port above a GPU lost its link: by hand (cable, enclosure, firmware)" dcase LXG179 pve-amd-rocm pciehp-link-down.log
check "LXG188 the IOMMU refuses the VM the GPU (RMRR): by hand (firmware slot exclusion)" dcase LXG188 pve-vfio-split iommu-rmrr-refused.log
check "LXG155 the DMC's state was lost: by hand (linux-firmware, the kernel's own i915)" dcase LXG155 pve-intel-igpu intel-dmc-lost.log
check "LXG157 no Intel driver takes the GPU: by hand (a newer kernel, force_probe)" dcase LXG157 pve-intel-igpu intel-not-supported.log
check "LXG151 a GPU driver oops: by hand (reboot, another driver or kernel)" dcase LXG151 pve-amd-rocm gpu-driver-oops-old.log
check "LXG152 PCIe AER errors of a GPU: by hand (reseat, slot, firmware)" dcase LXG152 "$eight" aer-uncorrected.log
check "LXG158 the GPU has no auxiliary power: by hand (power cables)" dcase LXG158 "$eight" insufficient-power.log
# drm_checks (what doctor and snapshot find of a live host's Intel and AMD
# GPUs, docs/schema.md) planted into the AMD host: a package, the
# initramfs, a slot (nothing lxgpu could run)
drmcase() { # CODE DRM_CHECKS_YAML
	sed '/^end: true$/d' "$examples/pve-amd-rocm.yaml" >"$host"
	printf '%s\nend: true\n' "$2" >>"$host"
	manual "$1" host doctor_json --kmsg "$src/tests/doctor/kmsg/clean-intel-amd.log"
}
fw_request() { # FOUND
	printf 'drm_checks:\n  firmware_requests:\n  - name: amdgpu/psp_13_0_0_toc.bin\n    driver: amdgpu\n    gpu: "0000:03:00.0"\n    error: -2\n    found: %s\n    unreadable: null\n  missing_firmware_dirs: []\n  kfd_topology: true\n  kfd_missing: []' "$1"
}
check "LXG170 a GPU firmware file still missing: by hand (its package, update-initramfs)" \
	drmcase LXG170 "$(fw_request null)"
check "LXG171 a GPU firmware file there now: by hand (update-initramfs, reboot)" \
	drmcase LXG171 "$(fw_request /lib/firmware/amdgpu/psp_13_0_0_toc.bin)"
check "LXG172 a GPU driver's firmware directory missing: by hand (its package)" \
	drmcase LXG172 "$(printf 'drm_checks:\n  firmware_requests: []\n  missing_firmware_dirs:\n  - amdgpu\n  kfd_topology: true\n  kfd_missing: []')"
check "LXG173 an AMD GPU without an amdkfd node: by hand (kernel, slot)" \
	drmcase LXG173 "$(printf 'drm_checks:\n  firmware_requests: []\n  missing_firmware_dirs: []\n  kfd_topology: true\n  kfd_missing:\n  - "0000:03:00.0"')"
check "LXG147 MIG mode without a GPU instance: by hand (create instances or MIG off)" dcase LXG147 "$eight" mig-no-instance.log
check "LXG116 a module of another kernel: by hand (dkms)" nodriver LXG116 module-vermagic.log
check "LXG120 the nvidia module not loaded: by hand (install, modprobe)" nodriver LXG120 clean-public.log
# the live facts of a made-up host (tests/lib/proc-host.sh): no
# nvidia-persistenced pid file under --run-dir
t_no_persistenced() {
	. "$src/tests/lib/proc-host.sh"
	rm -rf "$work/ph" && proc_host "$work/ph" 511 0 && mkdir -p "$work/ph/run" "$work/ph/sys"
	rm -f "$work/out.json"
	lx_json sev "$work/dout.json" "$lxgpu" --proc-dir "$work/ph/proc" --dev-dir "$work/ph/dev" --sys-dir "$work/ph/sys" \
		--run-dir "$work/ph/run" --firmware-dir "$work/none" doctor --kmsg "$src/tests/doctor/kmsg/clean-public.log" \
		--format json && jq '{findings: [.findings[] | . + {container: (.container // "host")}]}' "$work/dout.json" >"$work/out.json"
	text_json=""
	manual LXG126 host true
}
check "LXG126 nvidia-persistenced not running: by hand (systemctl)" t_no_persistenced
# doctor CTID: NVIDIA's container toolkit inside an unprivileged plain LXC
# container without no-cgroups (tests/doctor/run-toolkit.sh's case). Its
# fix runs nvidia-ctk in the container through lxc-attach; the stub does
# what NVIDIA documents 'nvidia-ctk config --set
# nvidia-container-cli.no-cgroups=true --in-place' does to that file.
t_toolkit() {
	tk="$work/tkroot"
	rm -rf "$tk" "$lxcp/701" "$pve" && mkdir -p "$tk/etc/nvidia-container-runtime" "$tk/usr/bin" "$lxcp/701" "$pve/lxc"
	printf 'lxc.rootfs.path = dir:%s\nlxc.idmap = u 0 100000 65536\nlxc.idmap = g 0 100000 65536\n' "$tk" >"$lxcp/701/config"
	printf '#!/bin/sh\n' >"$tk/usr/bin/nvidia-container-runtime-hook" && chmod 755 "$tk/usr/bin/nvidia-container-runtime-hook"
	printf '[nvidia-container-cli]\nenvironment = []\nload-kmods = true\n#no-cgroups = false\n\n[nvidia-container-runtime]\nlog-level = "info"\n' \
		>"$tk/etc/nvidia-container-runtime/config.toml"
	cat >"$fix_dir/on-lxc-attach" <<EOF
#!/bin/sh
case " \$* " in *" nvidia-ctk config --set nvidia-container-cli.no-cgroups=true --in-place "*)
	sed -i 's/^#no-cgroups = false\$/no-cgroups = true/' '$tk/etc/nvidia-container-runtime/config.toml' ;;
esac
EOF
	chmod +x "$fix_dir/on-lxc-attach"
	cp "$examples/$eight.yaml" "$host"
	: >"$work/empty.log"
	fixed LXG130 701 doctor_json 701 --kmsg "$work/empty.log"
}
check "LXG130 the toolkit inside without no-cgroups: nvidia-ctk in the container" t_toolkit

# ---- the start guard (pre-start refusals, on tests/lib/guard-host.sh's hosts) ----
. "$src/tests/lib/guard-host.sh"
guard_host "$work/g-before.yaml" v2 0 1 nvidia
guard_host "$work/g-swapped.yaml" v2 1 0 nvidia
guard_host "$work/g-vfio.yaml" v2 0 null vfio-pci
sed '/0000:02:00.0/,/driver: nvidia/d' "$work/g-before.yaml" | sed '/nvidia1,/d' >"$work/g-gone.yaml"
sed 's/GPU-bbbbbbbb-0000-4000-8000-00000000000b/GPU-cccccccc-0000-4000-8000-00000000000c/' \
	"$work/g-swapped.yaml" >"$work/g-other-card.yaml"
vm_pid=""
trap '[ -n "$vm_pid" ] && kill "$vm_pid" 2>/dev/null; rm -rf "$work"' EXIT
# The guard's refusals: its JSON (--format json) as out.json, and its text
# (on stderr) read off an 80-column terminal as out.txt, where fix_of reads
# the fixes and checks their commands against the JSON's. Exit status
# (docs/guard.md): 0 the start goes on, 1 refused (with an error finding,
# and the same status in text); anything else fails the check.
guard_json() { # CTID
	rm -f "$work/out.json"
	lx_json "0|1" "$work/out.json" "$work/fix/bin/lxgpu" guard "$1" pre-start --format json || return 1
	grc=$lx_rc
	on_tty_stderr 80 "$work/out.txt" "$work/fix/bin/lxgpu" guard "$1" pre-start
	trc=$?
	[ "$trc" = "$grc" ] || { echo "guard $1 pre-start: exit status $trc in text, $grc in JSON"; cat "$work/out.txt"; return 1; }
	text_json="$work/out.json"
	jq_ok "$work/out.json" '.refused == ($rc == 1) and (.refused == any(.findings[]; .severity == "error"))' \
		--argjson rc "$grc" || { echo "guard $1 pre-start: exit status $grc"; return 1; }
}
# g_setup RECORDED_ON GPUS NOW: CT 101 given GPUS on host RECORDED_ON, then the host is NOW
g_setup() {
	rm -rf "$pve" "$state" "$work/backups" && mkdir -p "$pve/lxc" "$pve/qemu-server"
	printf 'arch: amd64\nhostname: cuda\nmemory: 4096\nostype: debian\nrootfs: local-lvm:vm-101-disk-0,size=8G\nunprivileged: 1\n' \
		>"$pve/lxc/101.conf"
	cp "$work/$1.yaml" "$host"
	lx apply 101 --gpus "$2" >"$work/gout" 2>&1 || { cat "$work/gout"; return 1; }
	cp "$work/$3.yaml" "$host"
}
gcase() { # CODE RECORDED_ON GPUS NOW
	g_setup "$2" "$3" "$4" && fixed "$1" 101 guard_json 101
}
check "LXG030 renumbered GPU: apply with its number now, then pct start" gcase LXG030 g-before 0000:02:00.0 g-swapped
check "LXG031 the GPU is gone" gcase LXG031 g-before 0000:02:00.0 g-gone
check "LXG031 one of two GPUs is gone" gcase LXG031 g-before 0000:01:00.0,0000:02:00.0 g-gone
check "LXG031 the GPU is on vfio-pci" gcase LXG031 g-before 0000:02:00.0 g-vfio
check "LXG034 another card at the recorded address" gcase LXG034 g-before 0000:02:00.0 g-other-card
t_corrupt_record() {
	g_setup g-before 0000:02:00.0 g-before || return 1
	printf 'schema: 1\nid: "101"\ngpus:\n- pci: 0000:02:00.0\n  minor: nine\n' >"$state/containers/101.yaml"
	fixed LXG035 101 guard_json 101
}
check "LXG035 a record that does not parse" t_corrupt_record
t_vm_running() {
	g_setup g-before 0000:02:00.0 g-vfio || return 1
	mkdir -p "$work/run/qemu-server"
	printf 'memory: 8192\nhostpci0: 0000:02:00,pcie=1\n' >"$pve/qemu-server/200.conf"
	python3 -c 'import os, sys; os.execv("/bin/sh", ["kvm", "-c", "sleep 60; :", "sh", "-pidfile", sys.argv[1]])' \
		"$work/run/qemu-server/200.pid" &
	vm_pid=$!
	echo "$vm_pid" >"$work/run/qemu-server/200.pid"
	i=0
	while [ "$(tr '\0' ' ' <"/proc/$vm_pid/cmdline" 2>/dev/null | cut -d' ' -f1)" != kvm ]; do
		i=$((i + 1))
		[ "$i" -lt 100 ] || { echo "the stand-in QEMU did not start"; return 1; }
		sleep 0.1
	done
	fixed LXG032 101 guard_json 101
	rc=$?
	wait "$vm_pid" 2>/dev/null
	vm_pid=""
	return $rc
}
check "LXG032 a running VM holds the GPU: another GPU (stopping the VM leaves it on vfio-pci: by hand)" t_vm_running

# ---- the include style, on a made-up live host (tests/lib/proc-host.sh;
# ensure-nodes makes the nodes: mknod needs root) ----
. "$src/tests/lib/proc-host.sh"
ih="$work/ihost"
# its own lxgpu word: the made-up host's /proc and /dev instead of a model
fix_stubs "$work/fixi" "$lxgpu" --proc-dir "$ih/proc" --dev-dir "$ih/dev" --firmware-dir "$work/none" \
	--run-dir "$work/none" --pve-dir "$ih/pve" --lxc-path "$ih/lxc" --state-dir "$work/istate" \
	--cgroup-root "$work/cg" --lxc-config-dir "$lxc_config" \
	-- --backup-dir "$work/ibackups" --lock-dir "$work"
fix_stubs "$work/fixip" "$lxgpu" -- --backup-dir "$work/ibackups" --lock-dir "$work"
fix_dir="$work/fixp" # the snapshot cases' stubs stay the default
lxi() { PATH="$work/fixi/bin:$PATH" lxgpu "$@"; }
verify_json_i() {
	rm -f "$work/out.json" && lx_json sev "$work/out.json" lxi verify "$1" --format json &&
		as_text "$work/fixi/bin/lxgpu" verify "$1"
}
i_setup() { # GPUS: CT 101 given GPUS in the include style on a host with both GPUs
	rm -rf "$ih" "$work/istate" "$work/ibackups"
	proc_host "$ih" 511 0 1
	lxi ensure-nodes >"$work/iout" 2>&1 || { cat "$work/iout"; return 1; }
	printf 'arch: amd64\nhostname: cuda\nmemory: 4096\nostype: debian\nrootfs: local-lvm:vm-101-disk-0,size=8G\n' \
		>"$ih/pve/lxc/101.conf"
	lxi apply 101 --gpus "$1" --style include >"$work/iout" 2>&1 || { cat "$work/iout"; return 1; }
}
icase() { # CODE: run the include case's fix with the include stubs
	fix_dir="$work/fixip"
	fixed "$1" 101 verify_json_i 101
	rc=$?
	fix_dir="$work/fixp"
	return $rc
}
inc="$work/istate/lxc/101.conf"
t_inc_missing() { i_setup 0000:41:00.0 && rm "$inc" && icase LXG040; }
t_inc_not_ours() { i_setup 0000:41:00.0 && echo '# mine' >"$inc" && icase LXG041; }
t_inc_stale() { i_setup 0000:41:00.0 && proc_host "$ih" 509 0 1 && icase LXG042; }
t_inc_no_record() { i_setup 0000:41:00.0 && rm "$work/istate/containers/101.yaml" && icase LXG043; }
t_inc_gpu_gone() {
	i_setup 0000:41:00.0,0000:42:00.0 && proc_host "$ih" 511 0 &&
		{ lxi ensure-nodes >"$work/iout" 2>&1; [ $? -eq 1 ] || { cat "$work/iout"; return 1; }; } && icase LXG044
}
if [ "$(id -u)" -eq 0 ]; then
	check "LXG040 the include file is missing" t_inc_missing
	check "LXG041 the file at the include path is not lxgpu's" t_inc_not_ours
	check "LXG042 the include file is stale (uvm 511 -> 509)" t_inc_stale
	check "LXG043 no record to rewrite the include file from" t_inc_no_record
	check "LXG044 a recorded GPU is gone" t_inc_gpu_gone
else
	for c in LXG040 LXG041 LXG042 LXG043 LXG044; do
		skip_case "$c: an include-style case" "not root: ensure-nodes' mknod needs root" "$c"
	done
fi

# ---- h22misc: a stopped root (pct mount), by-path links, NVIDIA's hook's
# host tools, the toolkit's config read in the container ----
# A stopped PVE container on an LVM-thin storage (pve-storage's
# LvmThinPlugin: a block device, no directory lxgpu can read): the fix's
# pct mount. Proxmox's pct mount (pve-container src/PVE/CLI/pct.pm) mounts
# the root at /var/lib/lxc/CTID/rootfs, --lxc-path here; the stub bind-mounts
# a scratch root with the 8-GPU host's driver (590.48.01) there (in this
# test's own mount namespace).
t_root_unchecked() {
	case_setup "$eight" "$cases/clean-devn.conf"
	printf 'dir: local\n\tpath /var/lib/vz\n\tcontent iso,vztmpl,backup\n\nlvmthin: local-lvm\n\tthinpool data\n\tvgname pve\n\tcontent rootdir,images\n' \
		>"$pve/storage.cfg"
	r="$work/ct700root/usr/lib/x86_64-linux-gnu"
	rm -rf "$work/ct700root" && mkdir -p "$r" "$lxcp/700/rootfs"
	: >"$r/libcuda.so.590.48.01" && ln -s libcuda.so.590.48.01 "$r/libcuda.so.1"
	printf '#!/bin/sh\ncase $1 in\nmount) mount --bind %s "%s/$2/rootfs" ;;\nunmount) umount "%s/$2/rootfs" ;;\nesac\n' \
		"$work/ct700root" "$lxcp" "$lxcp" >"$fix_dir/on-pct"
	chmod +x "$fix_dir/on-pct"
	# the fix mounts the root, checks it, unmounts it: the check it runs
	# (as printed) has no LXG027
	given LXG027 700 verify_json 700 && run_fix "$f" >"$work/fixrun" 2>&1 &&
		grep -q "^CT 700 " "$work/fixrun" && ! grep -q LXG027 "$work/fixrun" &&
		grep -qx "pct unmount 700" "$fix_dir/calls" && ran="$ran LXG027" || { cat "$work/fixrun"; false; }
	rc=$?
	umount "$lxcp/700/rootfs" 2>/dev/null
	rm -f "$fix_dir/on-pct"
	return $rc
}
if [ "$(id -u)" -eq 0 ] && [ -n "${LXGPU_FIX_NS:-}" ]; then
	check "LXG027 a stopped container's root on LVM-thin: pct mount" t_root_unchecked
else
	skip_case "LXG027 a stopped container's root on LVM-thin: pct mount" \
		"not root in a mount namespace of its own (the pct stub bind-mounts)" LXG027
fi
# An Intel iGPU host whose by-path links are gone (the model's drm entries
# without by_path), a devN entry naming the render node's link. udevadm
# trigger makes udev run its rules again: systemd's 60-drm.rules link each
# card* and renderD* of a PCI device as dri/by-path/$ID_PATH-card, -render
# (ID_PATH from path_id: pci-<address>); the stub does that to the model.
cat >"$work/fixp/on-udevadm" <<'UDEV'
#!/bin/sh
[ "$1" = trigger ] || exit 0
exec python3 -c '
import sys, yaml
h = yaml.safe_load(open(sys.argv[1]))
for g in h["gpus"]:
    for d in g.get("drm") or []:
        if not d.get("by_path"):
            d["by_path"] = "pci-%s-%s" % (g["bdf"], "render" if d["name"].startswith("renderD") else "card")
yaml.safe_dump(h, open(sys.argv[1], "w"), sort_keys=False)' "$FIX_HOST"
UDEV
chmod +x "$work/fixp/on-udevadm"
by_path_ct() { # ADDRESS: CT 700 with a devN of the render link of the GPU at ADDRESS
	rm -rf "$pve" "$state" && mkdir -p "$pve/lxc"
	printf 'arch: amd64\nhostname: ct700\nostype: debian\nrootfs: local-lvm:vm-700-disk-0,size=8G\nunprivileged: 1\ndev0: /dev/dri/by-path/pci-%s-render,mode=0666\n' \
		"$1" >"$pve/lxc/700.conf"
}
t_by_path_gone() {
	by_path_ct 0000:00:02.0 && sed '/^    by_path: /d' "$examples/pve-intel-igpu.yaml" >"$host"
	fixed LXG056 700 verify_json 700
}
check "LXG056 a by-path link the host lost: udevadm trigger" t_by_path_gone
# the GPU at the link's address has no DRM node (no drm driver bound):
# which GPU the entry should give, the user knows
t_by_path_no_drm() {
	by_path_ct 0000:00:02.0 && python3 -c '
import sys, yaml
h = yaml.safe_load(open(sys.argv[1]))
h["gpus"][0]["drm"] = []
h["nodes"] = [n for n in h["nodes"] if not n["path"].startswith("/dev/dri/")]
yaml.safe_dump(h, open(sys.argv[2], "w"), sort_keys=False)' "$examples/pve-intel-igpu.yaml" "$host"
	manual LXG056 700 verify_json 700
}
check "LXG056 a by-path link of a GPU without DRM nodes: by hand" t_by_path_no_drm
# NVIDIA's hook on a host without its tools (tests/verify/nvhook's cases;
# --subid-root: the host root the tools are looked for in)
nv_tools() { # CODE CASE TOOL: the case with only TOOL (usr/bin/nvidia-container-cli or the hook script)
	case_setup "$eight" "$src/tests/verify/nvhook/$2.conf"
	rm -rf "$work/tools" && mkdir -p "$work/tools/$(dirname "$3")"
	printf '#!/bin/sh\nexit 0\n' >"$work/tools/$3" && chmod 755 "$work/tools/$3"
	manual "$1" 700 eval 'lx_json sev "$work/out.json" lx --subid-root "$work/tools" verify 700 --format json &&
		as_text "$work/fix/bin/lxgpu" --subid-root "$work/tools" verify 700'
}
check "LXG061 no nvidia-container-cli on the host: by hand (a package)" \
	nv_tools LXG061 no-cli-on-host usr/share/lxc/hooks/nvidia
check "LXG061 no hook script on the host: by hand" nv_tools LXG061 no-script-on-host usr/bin/nvidia-container-cli
# doctor CTID: the toolkit's config is not a file (a directory)
t_toolkit_unread() {
	tk="$work/tkroot"
	rm -rf "$tk" "$lxcp/701" && mkdir -p "$tk/etc/nvidia-container-runtime" "$tk/usr/bin" "$lxcp/701"
	printf 'lxc.rootfs.path = dir:%s\nlxc.idmap = u 0 100000 65536\nlxc.idmap = g 0 100000 65536\n' "$tk" >"$lxcp/701/config"
	printf '#!/bin/sh\n' >"$tk/usr/bin/nvidia-ctk" && chmod 755 "$tk/usr/bin/nvidia-ctk"
	mkdir "$tk/etc/nvidia-container-runtime/config.toml"
	cp "$examples/$eight.yaml" "$host"
	: >"$work/empty.log"
	manual LXG131 701 doctor_json 701 --kmsg "$work/empty.log"
}
check "LXG131 the toolkit's config is a directory: by hand" t_toolkit_unread
# ---- MIG instances, on the made-up H100 host (examples/hosts/pve-h100-mig.yaml;
# tests/cli/test-mig.sh's configs: nv-caps.c numbers gpuG/giI's access
# minor 3 + 135G + 9I, its ciC the next ones; nvidia-caps is major 508) ----
mig=pve-h100-mig
gi1_ci0='dev0: /dev/nvidia0,mode=0666
dev1: /dev/nvidiactl,mode=0666
dev2: /dev/nvidia-uvm,mode=0666
dev3: /dev/nvidia-uvm-tools,mode=0666
dev4: /dev/nvidia-caps/nvidia-cap12,mode=0444
dev5: /dev/nvidia-caps/nvidia-cap13,mode=0444'
mig_ct() { # ID LINES...: a privileged Proxmox config on the MIG host
	id=$1
	shift
	{
		printf 'arch: amd64\nhostname: ct%s\nostype: debian\nrootfs: local-lvm:vm-%s-disk-0,size=8G\n' "$id" "$id"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$pve/lxc/$id.conf"
}
mig_setup() { # HOST (a file)
	rm -rf "$pve" "$state" "$work/backups" && mkdir -p "$pve/lxc" "$pve/qemu-server"
	cp "$1" "$host"
}
# The host after a reboot without its MIG layout: GPU 0's gi1 and its CIs
# gone from /proc/driver/nvidia/capabilities (mig-minors keeps them).
python3 "$src/tests/lib/mig-layout-gone.py" "$examples/$mig.yaml" "$work/mig-gone.yaml"
# the whole caps major allowed (c 508:*, a line apply owns) in a privileged container
t_mig_major() { mig_setup "$examples/$mig.yaml" && mig_ct 700 "$gi1_ci0" 'lxc.cgroup2.devices.allow: c 508:* rwm' &&
	fixed LXG050 700 verify_json 700; }
# every device allowed: not lxgpu's line, so by hand
t_mig_all() { mig_setup "$examples/$mig.yaml" && mig_ct 700 "$gi1_ci0" 'lxc.cgroup2.devices.allow: a' &&
	manual LXG050 700 verify_json 700; }
# gpu1/gi7/ci0's node (202) without its GI's (201)
t_mig_ci_alone() {
	mig_setup "$examples/$mig.yaml" &&
		mig_ct 700 'dev0: /dev/nvidia1,mode=0666' 'dev1: /dev/nvidiactl,mode=0666' 'dev2: /dev/nvidia-uvm,mode=0666' \
			'dev3: /dev/nvidia-uvm-tools,mode=0666' 'dev4: /dev/nvidia-caps/nvidia-cap202,mode=0444' &&
		fixed LXG053 700 verify_json 700
}
t_mig_shared() { mig_setup "$examples/$mig.yaml" && mig_ct 700 "$gi1_ci0" && mig_ct 701 "$gi1_ci0" && manual LXG051 701 audit_json; }
t_mig_gone() { mig_setup "$work/mig-gone.yaml" && mig_ct 700 "$gi1_ci0" && manual LXG054 700 verify_json 700; }
t_mig_guard_gone() {
	mig_setup "$examples/$mig.yaml" && mig_ct 700 "$gi1_ci0" &&
		lx apply 700 >"$work/gout" 2>&1 || { cat "$work/gout"; return 1; }
	cp "$work/mig-gone.yaml" "$host"
	manual LXG052 700 guard_json 700
}
# nvidia-smi makes MIG instances in the host model as the driver would:
# -cgi PROFILE:START gets the GPU instance ID of the slices it spans
# (kmigmgrSwizzIdToSpan_GA100, 8 slices: 0 the whole GPU, 1-2 halves, 3-6
# quarters, 7-14 eighths; H100 80GB's profiles span 1g.10gb 1, 1g.20gb and
# 2g.20gb 2, 3g.40gb and 4g.40gb 4, 7g.80gb 8 slices), -C its ci0 too;
# -gi N -cci the next compute instance; each a capability with the minor
# the driver's table gives it (the model's mig_minors, mig-minors' numbers).
cat >"$work/fixp/on-nvidia-smi" <<'EOF2'
#!/bin/sh
exec python3 - "$FIX_HOST" "$@" <<'PY'
import re, sys
host, args = sys.argv[1], sys.argv[2:]
if args[:1] != ["mig"]:
    sys.exit(0)  # -mig 1 and the listings change nothing here
def opt(name):
    return args[args.index(name) + 1] if name in args else None
text = open(host).read()
minor = None
for m in re.finditer(r"\n  uuid: (\S+)\n(?:  .*\n)*?  minor: (\d+)\n", text):
    if m.group(1) == opt("-i"):
        minor = int(m.group(2))
if minor is None:
    sys.exit("nvidia-smi: no GPU " + str(opt("-i")))
section = lambda a, b: dict((n, int(v)) for n, v in re.findall(r"- name: (\S+)\n  minor: (\d+)\n", text[text.index(a):text.index(b)]))
caps = section("\ncapabilities:", "\nmig_minors:")
table = section("\nmig_minors:", "\nmig_uuids:")
new = []
if opt("-cgi"):
    profile, start = opt("-cgi").split(":")
    width = {"1g.10gb": 1, "1g.10gb+me": 1, "1g.20gb": 2, "2g.20gb": 2, "3g.40gb": 4, "4g.40gb": 4, "7g.80gb": 8}[profile]
    gi = {8: 0, 4: 1, 2: 3, 1: 7}[width] + int(start) // width
    if "gpu%d/mig/gi%d" % (minor, gi) in caps:
        sys.exit("nvidia-smi: insufficient resources")
    new.append(("gpu%d/mig/gi%d" % (minor, gi), table["gpu%d/mig/gi%d" % (minor, gi)]))
    if "-C" in args:
        new.append(("gpu%d/mig/gi%d/ci0" % (minor, gi), table["gpu%d/mig/gi%d/ci0" % (minor, gi)]))
elif opt("-cci"):
    gi = int(opt("-gi"))
    if "gpu%d/mig/gi%d" % (minor, gi) not in caps:
        sys.exit("nvidia-smi: no GPU instance %d" % gi)
    ci = 0
    while "gpu%d/mig/gi%d/ci%d" % (minor, gi, ci) in caps:
        ci += 1
    new.append(("gpu%d/mig/gi%d/ci%d" % (minor, gi, ci), table["gpu%d/mig/gi%d/ci%d" % (minor, gi, ci)]))
lines = "".join("- name: %s\n  minor: %d\n" % c for c in new)
open(host, "w").write(text.replace("\ncapabilities:\n", "\ncapabilities:\n" + lines, 1))
PY
EOF2
chmod +x "$work/fixp/on-nvidia-smi"
# mig_recreate PROFILE CI_PROFILE CHECK...: the by-hand fix of the last
# manual case ($f, $code) run with its placeholders filled in: its -cgi
# PROFILE:START and -gi N -cci CI-PROFILE as printed but for the profile
# names (what the user reads off nvidia-smi mig -lgip, -lcip); then CHECK
# gives no $code for CT 700
mig_recreate() {
	pr=$1 cpr=$2
	shift 2
	cgi=$(printf '%s\n' "$f" | grep -o 'nvidia-smi mig -i [^ ]* -cgi PROFILE:[0-9][0-9]*') &&
		cci=$(printf '%s\n' "$f" | grep -o 'nvidia-smi mig -i [^ ]* -gi [0-9][0-9]* -cci CI-PROFILE') ||
		{ echo "no -cgi PROFILE:START and -cci CI-PROFILE in: $f"; return 1; }
	for c in "$(echo "$cgi" | sed "s/PROFILE/$pr/")" "$(echo "$cci" | sed "s/CI-PROFILE/$cpr/")"; do
		echo "+ $c"
		PATH="$fix_dir/bin:$PATH" sh -c "$c" </dev/null || { echo "failed: $c"; return 1; }
	done
	"$@" || { echo "the check failed after the fix: $*"; return 1; }
	lacks "$code" 700 || { echo "$code is still there after: $cgi, $cci"; return 1; }
}
t_mig_gone_run() {
	t_mig_gone && mig_recreate 3g.40gb 1c.3g.40gb verify_json 700
}
t_mig_guard_gone_run() {
	t_mig_guard_gone && mig_recreate 3g.40gb 1c.3g.40gb guard_json 700
}
check "LXG050 the whole caps major allowed: apply with the instance" t_mig_major
check "LXG050 every device allowed: by hand (not lxgpu's rule)" t_mig_all
check "LXG053 a CI node without its GI's: apply with the instance" t_mig_ci_alone
check "LXG051 two containers on one instance: by hand (which one keeps it is the user's choice)" t_mig_shared
check "LXG054 the instance is gone after a reboot: by hand (nvidia-smi needs the profile); with it, its placement makes gi1" t_mig_gone_run
check "LXG052 the guard: the instance is gone: by hand (nvidia-smi needs the profile); with it, its placement makes gi1" t_mig_guard_gone_run
# doctor's peer-to-peer note on the MIG host (no ACS read in the model): by hand
t_p2p_unknown() { cp "$examples/$mig.yaml" "$host" && manual LXG162 host doctor_json --kmsg "$src/tests/doctor/kmsg/clean-public.log"; }
check "LXG162 peer-to-peer unknown: by hand (as root, or nvidia-smi topo -p2p)" t_p2p_unknown

# ---- doctor on a made-up live host (tests/lib/proc-host.sh, GPU minor 3):
# its nodes made by ensure-nodes in a scratch --dev-dir (mknod: root) ----
dh="$work/dhost"
fix_stubs "$work/fixd" "$lxgpu" --
fix_dir="$work/fixp"
# nvidia-modprobe makes the nodes as NVIDIA's nvidia-modprobe does, in the
# made-up host's /dev: -c N nvidiactl (195:255) and nvidiaN (195:N), unless
# ModifyDeviceFiles is 0; -u nvidia-uvm and -tools (UVM:0, UVM:1, the major
# of /proc/devices); 0666 root.
export FIX_DH="$dh"
cat >"$work/fixd/on-nvidia-modprobe" <<'EOF2'
#!/bin/sh
uvm=0 minor=
while [ $# -gt 0 ]; do
	case $1 in -u) uvm=1 ;; -c) minor=$2 && shift ;; -c*) minor=${1#-c} ;; esac
	shift
done
mk() { [ -e "$FIX_DH/dev/$1" ] || mknod -m 0666 "$FIX_DH/dev/$1" c "$2" "$3"; }
if [ -n "$minor" ] && ! grep -qs '^ModifyDeviceFiles: 0' "$FIX_DH/proc/driver/nvidia/params"; then
	mk nvidiactl 195 255 && mk "nvidia$minor" 195 "$minor" || exit 1
fi
if [ "$uvm" = 1 ]; then
	m=$(awk '$2 == "nvidia-uvm" { print $1 }' "$FIX_DH/proc/devices")
	[ -n "$m" ] && mk nvidia-uvm "$m" 0 && mk nvidia-uvm-tools "$m" 1 || exit 1
fi
EOF2
chmod +x "$work/fixd/on-nvidia-modprobe"
# (a script, so that the text run of a check is the JSON run's)
printf '#!/bin/sh\nexec "%s" --proc-dir "%s/proc" --dev-dir "%s/dev" --sys-dir "%s/sys" --run-dir "%s/run" --boot-dir "%s/boot" --firmware-dir "%s/none" --state-dir "%s/state" "$@"\n' \
	"$lxgpu" "$dh" "$dh" "$dh" "$dh" "$dh" "$work" "$dh" >"$work/dlx" && chmod +x "$work/dlx"
dlx() { "$work/dlx" "$@"; }
doctor_live() {
	rm -f "$work/out.json"
	lx_json sev "$work/dout.json" dlx doctor --kmsg "$src/tests/doctor/kmsg/clean-public.log" --format json &&
		jq '{findings: [.findings[] | . + {container: (.container // "host")}]}' "$work/dout.json" >"$work/out.json" &&
		as_text "$work/dlx" doctor --kmsg "$src/tests/doctor/kmsg/clean-public.log"
}
dl_host() { # UVM: the host with GPU minor 3 and its nodes
	rm -rf "$dh" && proc_host "$dh" "$1" 3 && mkdir -p "$dh/run" "$dh/sys" "$dh/state" &&
		dlx ensure-nodes >"$work/dout" 2>&1 || { cat "$work/dout"; return 1; }
}
dfixed() { # CODE: doctor's fix run with the live host's stubs
	fix_dir="$work/fixd"
	fixed "$1" host doctor_live
	rc=$?
	fix_dir="$work/fixp"
	return $rc
}
t_node_gpu() { dl_host 511 && rm "$dh/dev/nvidia3" && dfixed LXG122; }
t_node_ctl() { dl_host 511 && rm "$dh/dev/nvidiactl" && dfixed LXG122; }
t_node_uvm() { dl_host 511 && rm "$dh/dev/nvidia-uvm" && dfixed LXG122; }
t_node_nomodify_uvm() {
	dl_host 511 && printf 'ModifyDeviceFiles: 0\n' >"$dh/proc/driver/nvidia/params" && rm "$dh/dev/nvidia-uvm" && dfixed LXG122
}
t_node_nomodify_gpu() {
	dl_host 511 && printf 'ModifyDeviceFiles: 0\n' >"$dh/proc/driver/nvidia/params" && rm "$dh/dev/nvidia3" &&
		manual LXG122 host doctor_live
}
t_node_stale_uvm() { dl_host 511 && proc_host "$dh" 509 3 && dfixed LXG123; }
t_node_gpu_major() { dl_host 511 && rm "$dh/dev/nvidia3" && mknod "$dh/dev/nvidia3" c 200 3 && dfixed LXG123; }
t_node_nomodify_major() {
	dl_host 511 && printf 'ModifyDeviceFiles: 0\n' >"$dh/proc/driver/nvidia/params" && rm "$dh/dev/nvidia3" &&
		mknod "$dh/dev/nvidia3" c 200 3 && manual LXG123 host doctor_live
}
# An NVLink 5 switch management port (ConnectX 15b3 whose VPD says SW_MNG),
# no mlx5_ib, ib_umad or nvlsm (NVIDIA's Fabric Manager user guide)
t_nvlink5() {
	dl_host 511 || return 1
	p="$dh/sys/bus/pci/devices/0000:1a:00.0"
	mkdir -p "$p" && echo 0x15b3 >"$p/vendor" && echo 0x020700 >"$p/class" &&
		printf '\202\020ConnectX-7 SW_MNG\220\004PN:' >"$p/vpd" && manual LXG119 host doctor_live
}
# nvidia_uvm's HMM on (the open 590 module, uvm_disable_hmm N, a kernel
# config with HMM_MIRROR and DEVICE_PRIVATE): modprobe's stub loads
# nvidia_uvm as modprobe does, its parameter from the command line into
# sysfs as the kernel shows a bool (Y/N)
t_uvm_hmm() {
	dl_host 511 || return 1
	echo 6.8.12-15-pve >"$dh/proc/sys/kernel/osrelease"
	mkdir -p "$dh/boot" "$dh/sys/module/nvidia_uvm/parameters"
	printf 'CONFIG_HMM_MIRROR=y\nCONFIG_DEVICE_PRIVATE=y\n' >"$dh/boot/config-6.8.12-15-pve"
	echo N >"$dh/sys/module/nvidia_uvm/parameters/uvm_disable_hmm"
	cat >"$work/fixd/on-modprobe" <<'EOF2'
#!/bin/sh
[ "$1" = -r ] && exit 0
p="$FIX_DH/sys/module/nvidia_uvm/parameters/uvm_disable_hmm"
echo N >"$p"
for a; do case $a in uvm_disable_hmm=1 | uvm_disable_hmm=Y | uvm_disable_hmm=y) echo Y >"$p" ;; esac; done
EOF2
	chmod +x "$work/fixd/on-modprobe"
	dfixed LXG132
	rc=$?
	rm -f "$work/fixd/on-modprobe"
	grep -q '^modprobe -r nvidia_uvm$' "$work/fixd/calls" || { echo "no modprobe -r nvidia_uvm ran"; return 1; }
	return $rc
}
# doctor on a snapshot whose uvm node is stale (the RTX 4090 host's 505:0
# made 504:0): ensure-nodes refuses --host, so its fix must not carry the
# snapshot's; run as printed it acts on this machine's /proc (no NVIDIA
# module here: nothing to make) with the scratch --dev-dir. The finding of a
# snapshot stays (the snapshot does not change): the command's run is checked.
t_snapshot_stale() {
	python3 -c 'import sys; s = open(sys.argv[1]).read(); open(sys.argv[2], "w").write(s.replace("- path: /dev/nvidia-uvm\n  type: char\n  major: 505", "- path: /dev/nvidia-uvm\n  type: char\n  major: 504", 1))' \
		"$examples/pve-rtx-4090.yaml" "$host"
	sf=$(doctor_json --kmsg "$src/tests/doctor/kmsg/clean-public.log"; fix_of LXG123 host)
	case $sf in *"lxgpu "*ensure-nodes*) ;; *) echo "no ensure-nodes in LXG123's fix: $sf"; return 1 ;; esac
	if [ -e /proc/driver/nvidia/version ]; then # a real driver: do not make its nodes, check the words
		case $sf in *--host*) echo "LXG123's ensure-nodes carries --host: $sf"; return 1 ;; esac
		return 0
	fi
	fix_dir="$work/fixd"
	run_fix "$sf"
	rc=$?
	fix_dir="$work/fixp"
	return $rc
}
check "LXG123 on a snapshot: its lxgpu ensure-nodes runs as printed (no --host)" t_snapshot_stale
if [ "$(id -u)" -eq 0 ]; then
	check "LXG122 a GPU's node missing: nvidia-modprobe -c 3 (its minor)" t_node_gpu
	check "LXG122 nvidiactl missing: nvidia-modprobe -c 0" t_node_ctl
	check "LXG122 nvidia-uvm missing: nvidia-modprobe -u -c 0" t_node_uvm
	check "LXG122 ModifyDeviceFiles 0, a uvm node missing: lxgpu ensure-nodes" t_node_nomodify_uvm
	check "LXG122 ModifyDeviceFiles 0, a GPU's node missing: by hand (mknod)" t_node_nomodify_gpu
	check "LXG123 uvm nodes of a stale major (511 -> 509): lxgpu ensure-nodes" t_node_stale_uvm
	check "LXG123 a GPU node of another major: lxgpu ensure-nodes" t_node_gpu_major
	check "LXG123 ModifyDeviceFiles 0, a GPU node of another major: by hand (ensure-nodes leaves it)" t_node_nomodify_major
	check "LXG119 NVLink 5 without its prerequisites: by hand (modprobe, nvlsm)" t_nvlink5
	check "LXG132 nvidia_uvm's HMM on: modprobe -r nvidia_uvm, then modprobe nvidia_uvm uvm_disable_hmm=1" t_uvm_hmm
else
	skip_case "LXG122, LXG123: the driver node cases" "not root: mknod needs root" LXG122 LXG123
	skip_case "LXG119 NVLink 5 without its prerequisites" "not root: its host's nodes are mknod'ed" LXG119
fi
# Secure Boot on, the module not loaded, the GPUs on PCI: the live scanner
# under umockdev (tests/doctor/run-doctor-fixture.sh's 8-GPU fixture; the
# efivar: 4 attribute bytes, then 1)
t_secure_boot() {
	fx="$src/tests/hosts/pve-8x-rtx-pro-6000" pl="$work/sb"
	rm -rf "$pl" && mkdir -p "$pl/tree/sys/firmware/efi/efivars" "$pl/run" && cp -a "$fx/run/." "$pl/run/"
	printf '\006\000\000\000\001' >"$pl/tree/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
	echo proc/driver/nvidia >"$pl/remove"
	cp "$fx/devices.umockdev" "$pl/devices.umockdev"
	# (umockdev preloads its library before an ASan build's runtime)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" \
		umockdev-run -d "$pl/devices.umockdev" -- sh "$src/tests/lib/in-testbed.sh" "$fx" "$pl" "$lxgpu" \
		doctor --kmsg "$src/tests/doctor/kmsg/clean-public.log" --format json >"$work/dout.json" 2>"$work/err"
	# (lx_json cannot wrap umockdev-run's environment assignment: its checks by hand)
	[ $? -le 1 ] && json_ok "$work/dout.json" || { cat "$work/err"; return 1; }
	jq '{findings: [.findings[] | . + {container: (.container // "host")}]}' "$work/dout.json" >"$work/out.json"
	text_json=""
	manual LXG127 host true
}
if command -v umockdev-run >/dev/null 2>&1 && [ ! -e /proc/driver/nvidia/version ]; then
	check "LXG127 Secure Boot on, nvidia not loaded: by hand (mokutil)" t_secure_boot
elif command -v umockdev-run >/dev/null 2>&1; then
	skip_case "LXG127 Secure Boot on, nvidia not loaded: by hand (mokutil)" \
		"this machine's real /proc/driver/nvidia would leak into the umockdev testbed" LXG127
else
	skip_case "LXG127 Secure Boot on, nvidia not loaded: by hand (mokutil)" \
		"umockdev-run is not installed (Debian package umockdev)" LXG127
fi

# ---- h22misc: the cluster (tests/cli/test-cluster.sh's layout: pmxcfs's
# nodes/<node>/{lxc,qemu-server}, lxc -> nodes/<local>/lxc, .rrd with
# pvestatd's "pve2-node/<node>:<uptime>::<time>:..." lines). This machine is
# node a (the 8-GPU host); a fix that says "on NODE" runs with NODE's own
# lxgpu word: its host model, its /proc/stat btime, its view of the cluster
# file system (lxc -> nodes/NODE/lxc) and its name (--node, as its hostname
# gives it there). ----
cl="$work/cl" cpve="$work/cl/pve" cnow=$(date +%s)
cboot=$((cnow - 3600)) # the boot every node is at now, as .rrd reports it
mkdir -p "$cl/lxc"
for n in a c d g u v x; do
	mkdir -p "$cpve/nodes/$n/lxc" "$cpve/nodes/$n/qemu-server" "$cl/view-$n" "$cl/proc-$n/sys/kernel/random"
	ln -s ../pve/nodes "$cl/view-$n/nodes" && ln -s ../pve/.rrd "$cl/view-$n/.rrd"
	ln -s "nodes/$n/lxc" "$cl/view-$n/lxc" && ln -s "nodes/$n/qemu-server" "$cl/view-$n/qemu-server"
	printf 'cpu  10 0 10 1000 0 0 0 0 0 0\nbtime %s\n' $cboot >"$cl/proc-$n/stat"
	cat /proc/sys/kernel/random/uuid >"$cl/proc-$n/sys/kernel/random/boot_id"
done
ln -s nodes/a/lxc "$cpve/lxc" && ln -s nodes/a/qemu-server "$cpve/qemu-server"
for n in a c d g u v x; do # every node's rrd line but u's (offline)
	[ $n = u ] || printf 'pve2-node/%s:%s::%s:0.12:64:0.01:0.001:540000000000:12000000000:8589930496:0:100861726720:3840647168:123456:654321\n' \
		$n $((cnow - cboot)) "$cnow"
done >"$cpve/.rrd"
# The nodes' models (as each scans itself): c one RTX 4090 at 0000:01:00.0;
# d the 8-GPU host with 0000:39:00.0 on vfio-pci; g the 8-GPU host probed in
# another order (0000:39:00.0 is /dev/nvidia5 there, 0000:ba:00.0 /dev/nvidia1).
cp "$examples/$eight.yaml" "$cl/a.yaml"
cp "$examples/pve-rtx-4090.yaml" "$cl/c.yaml"
for n in u v x; do cp "$cl/a.yaml" "$cl/$n.yaml"; done
python3 -c '
import sys, yaml
h = yaml.safe_load(open(sys.argv[1]))
m = {g["bdf"]: g for g in h["gpus"]}
m["0000:39:00.0"]["minor"], m["0000:ba:00.0"]["minor"] = 5, 1
yaml.safe_dump(h, open(sys.argv[2], "w"), sort_keys=False)
g = m["0000:39:00.0"]
g.update(driver="vfio-pci", minor=None, model=None, uuid=None, vbios=None)
yaml.safe_dump(h, open(sys.argv[3], "w"), sort_keys=False)' "$cl/a.yaml" "$cl/g.yaml" "$cl/d.yaml"
for n in a c d g u v x; do
	fix_stubs "$cl/fix-$n" "$lxgpu" --host "$cl/$n.yaml" --proc-dir "$cl/proc-$n" --pve-dir "$cl/view-$n" \
		--lxc-path "$cl/lxc" --node $n -- --backup-dir "$cl/backups-$n" --lock-dir "$work"
done
for n in c g; do # the same without --node, which only publish takes
	fix_stubs "$cl/fixm-$n" "$lxgpu" --host "$cl/$n.yaml" --proc-dir "$cl/proc-$n" --pve-dir "$cl/view-$n" \
		--lxc-path "$cl/lxc" -- --backup-dir "$cl/backups-$n" --lock-dir "$work"
done
fix_dir="$work/fixp"
c_publish() { # NODE [BTIME]: NODE published its model, at a boot of BTIME (now's by default)
	sed -i "s/^btime .*/btime ${2:-$cboot}/" "$cl/proc-$1/stat"
	"$lxgpu" -q --host "$cl/$1.yaml" --proc-dir "$cl/proc-$1" --pve-dir "$cpve" publish --node "$1" || return 1
	sed -i "s/^btime .*/btime $cboot/" "$cl/proc-$1/stat"
}
ct_gpu1() { # FILE: a CT with /dev/nvidia1 (0000:39:00.0 on a)
	printf 'arch: amd64\nhostname: ct\nmemory: 4096\nostype: debian\nunprivileged: 1\n' >"$1"
	printf 'dev0: /dev/nvidia1,mode=0666\ndev1: /dev/nvidiactl,mode=0666\n' >>"$1"
	printf 'dev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n' >>"$1"
}
for n in a c d g v; do c_publish $n || echo "Bail out! publish $n"; done
c_publish c $((cboot - 86400)) # before its last boot
c_publish u
cp "$cl/v.yaml" "$cpve/nodes/v/lxgpu-host.yaml" # copied there by hand: not stamped
# audit --cluster on a, its findings with their containers as out.json
caudit_json() {
	text_json=""
	rm -f "$work/out.json"
	lx_json sev "$work/aout.json" "$lxgpu" --host "$cl/a.yaml" --pve-dir "$cpve" --lxc-path "$cl/lxc" --format json \
		audit --cluster && jq '{findings: [.containers[] | .container as $c | .findings[] | . + {container: $c}]}' \
		"$work/aout.json" >"$work/out.json"
}
# ccase CODE NODE CTID: CT CTID on NODE; the fix runs with NODE's lxgpu
ccase() {
	ct_gpu1 "$cpve/nodes/$2/lxc/$3.conf"
	fix_dir="$cl/fix-$2"
	# and the container is judged with NODE's model (its GPUs known)
	fixed "$1" "$3" caudit_json && jq -e --arg id "$3" \
		'any(.containers[]; .container == $id and .gpus != null)' "$work/aout.json" >/dev/null
	rc=$?
	fix_dir="$work/fixp"
	return $rc
}
check "LXG021 a GPU container on a node without a model: lxgpu publish there" ccase LXG021 x 901
check "LXG180 a node's model from before its boot: lxgpu publish there" ccase LXG180 c 301
check "LXG181 a node's model not stamped by publish: lxgpu publish there" ccase LXG181 v 401
check "LXG181 no status of the node in .rrd: by hand (a new publish is undated too)" \
	eval 'ct_gpu1 "$cpve/nodes/u/lxc/801.conf" && manual LXG181 801 caudit_json'
# preflight 101 --to NODE: from a while CT 101 is on a; once it has moved,
# from NODE (the same question there: does it have its GPUs on NODE?)
cpf_json() { # NODE
	on=a
	[ -f "$cpve/nodes/a/lxc/101.conf" ] || on=$1
	rm -f "$work/out.json"
	lx_json "0|1" "$work/pf.json" "$lxgpu" --host "$cl/$on.yaml" --pve-dir "$cl/view-$on" --lxc-path "$cl/lxc" \
		--format json preflight 101 --to "$1" && jq '{findings: [.findings[] | . + {container: "101"}]}' "$work/pf.json" >"$work/out.json" &&
		as_text "$lxgpu" --host "$cl/$on.yaml" --pve-dir "$cl/view-$on" --lxc-path "$cl/lxc" preflight 101 --to "$1"
}
# mcase CODE NODE: CT 101 on a, refused --to NODE with CODE; the fix runs
# after the move (pct migrate: the config to nodes/NODE/lxc), on NODE
mcase() {
	rm -f "$cpve"/nodes/*/lxc/101.conf && ct_gpu1 "$cpve/nodes/a/lxc/101.conf"
	fix_dir="$cl/fixm-$2"
	before_fix="mv '$cpve/nodes/a/lxc/101.conf' '$cpve/nodes/$2/lxc/101.conf'"
	# and on NODE it has its GPU (a document, not an error)
	fixed "$1" 101 cpf_json "$2" && jq -e '.verdict == "ok" and (.gpus | length) == 1' "$work/pf.json" >/dev/null
	rc=$?
	fix_dir="$work/fixp" before_fix=""
	rm -f "$cpve"/nodes/*/lxc/101.conf
	return $rc
}
check "LXG182 the GPU is not on the target node: after the move, apply best:1 there" mcase LXG182 c
check "LXG184 the GPU is another /dev/nvidiaN there: after the move, apply its address there" mcase LXG184 g
t_vfio_there() {
	ct_gpu1 "$cpve/nodes/a/lxc/101.conf" && nocmd LXG183 101 cpf_json d
	rc=$?
	rm -f "$cpve/nodes/a/lxc/101.conf"
	return $rc
}
check "LXG183 the GPU is on vfio-pci there: no command (bind it, or migrate elsewhere)" t_vfio_there

# ---- every code is covered or listed ----
# Codes whose fix prints no command (advice on the host's firmware, hardware,
# packages or the kernel log; nothing lxgpu or pct could run):
no_command="
LXG013 # give the container another GPU, or remove the VM's hostpci entry (the user's choice)
LXG046 # install the userspace driver of the loaded version on the host (a package)
LXG014 # no longer reported: the effective access reports each denied node as LXG022
LXG101 LXG102 LXG103 # install another driver flavour or branch (a package choice)
LXG104 LXG105 # firmware setup (Above 4G Decoding, Resizable BAR), kernel command line
LXG106 # the fix of the cause it names, or nvidia-bug-report.sh for NVIDIA
LXG107 # reinstall the driver package of the loaded version
LXG109 LXG110 # hardware: power, cooling, seating; the Xid catalogue's advice
LXG113 LXG114 LXG115 # kernel command line (iommu=pt, ACS), module options
LXG121 LXG124 LXG125 # bind the GPU, install the driver: host administration
LXG128 LXG129 # the boot loader's command line; run as root or give --kmsg
LXG133 # doctor --probe: the fix of the cause it names (its own case: tests/doctor/run-probe.sh)
LXG160 LXG161 # IOMMU and ACS settings in firmware and kernel command line
LXG183 # migration: bind the GPU to nvidia on the target node, or migrate elsewhere (host administration)
LXG057 # the container's /etc/group unreadable: its program's groups, a choice inside it (tests/verify/run-drm-groups.sh)
"
# Codes whose fix needs a running container: run as printed in real LXC by
# tests/integration/lxc-fixes.sh (which checks this list is what it covers)
covered_by_lxc_fixes="
LXG015 LXG016 LXG017 LXG018 LXG019 LXG026 LXG033
"
# Codes whose fix has a command but no case here yet, and why (each one
# is a gap: give it a case and take it out of this list):
not_yet="
"
# uncovered: the codes of finding-table.c with no case that ran and passed
# here and in none of the lists (a skipped case covers nothing)
uncovered() {
	codes=$(sed -n 's/^.*= *{"\(LXG[0-9]*\)".*$/\1/p' "$src/src/report/finding-table.c")
	[ "$(echo "$codes" | wc -l)" -gt 50 ] || { echo "codes not found in finding-table.c" >&2; return 1; }
	for c in $codes; do
		case " $ran $by_hand $(echo "$no_command $not_yet $covered_by_lxc_fixes" | sed 's/#.*//' | tr '\n' ' ') " in
		*" $c "*) ;;
		*) printf ' %s' "$c" ;;
		esac
	done
}
t_every_code() {
	missing=$(uncovered) || return 1
	[ -z "$missing" ] || { echo "codes with a fix command and no case here:$missing"; return 1; }
}
missing=$(uncovered)
not_skipped=$(for c in $missing; do case " $skipped " in *" $c "*) ;; *) printf ' %s' "$c" ;; esac; done)
if [ -n "$missing" ] && [ -z "$not_skipped" ]; then
	skip "every finding code has a case, or is listed with why" "the cases of$missing were skipped"
else
	check "every finding code has a case, or is listed with why" t_every_code
fi
tap_finish
