#!/bin/sh
# lxgpu doctor on the example hosts: a clean kernel log says nothing is
# wrong; each planted real message (tests/doctor/kmsg) names its cause.
# The expected code of each message is the meaning of the message (what the
# driver or kernel says happened), written here by hand per message.
# Usage: run-doctor.sh LXGPU EXAMPLES_DIR KMSG_DIR   (TAP output)
set -u
lxgpu=$1 examples=$2 kmsg=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
report() { n=$((n + 1)); if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi; }
. "$(dirname "$0")/../lib/lxjson.sh"
# lj WANT OUT CMD...: lx_json (exit status WANT, OUT one JSON document), its
# complaint kept for a failure's TAP comments (say)
lj() { lx_json "$@" >"$work/lj.msg"; }
say() { sed 's/^/# /' "$work/lj.msg"; }

host=$examples/pve-8x-rtx-pro-6000.yaml
clean=$work/clean.log
cat "$kmsg/clean-public.log" >"$clean"

# Healthy example hosts with a clean log: nothing wrong, exit 0.
for h in pve-8x-rtx-pro-6000 pve-h100-mig pve-rtx-4090 pve-vfio-split; do
	if "$lxgpu" --host "$examples/$h.yaml" doctor --kmsg "$clean" >"$work/out" 2>&1 &&
		grep -q '^Nothing wrong found\.$' "$work/out"; then
		report ok "$h: clean log, nothing wrong"
	else
		sed 's/^/# /' "$work/out"; report not-ok "$h: clean log, nothing wrong"
	fi
done
# The same in JSON, on the one-GPU host (no peer-to-peer note): ok, a
# parsed empty list of findings, exit 0.
if lj 0 "$work/j" "$lxgpu" --host "$examples/pve-rtx-4090.yaml" doctor --kmsg "$clean" --format json &&
	no_finding "$work/j" >"$work/lj.msg" && jq -e '.ok == true' "$work/j" >/dev/null; then
	report ok "pve-rtx-4090: clean log, JSON: ok, no finding"
else
	say; report not-ok "pve-rtx-4090: clean log, JSON: ok, no finding"
fi
# vfio-pci is a GPU given to VMs: a note, not a problem.
if lj 0 "$work/j" "$lxgpu" --host "$examples/pve-vfio-split.yaml" doctor --kmsg "$clean" --format json && jq -e '.ok == true and ([.findings[] | select(.code == "LXG121" and .severity == "info")] | length) == 1' "$work/j" >/dev/null; then
	report ok "pve-vfio-split: the vfio-pci GPU is a note"
else
	say; report not-ok "pve-vfio-split: the vfio-pci GPU is a note"
fi
# A host without nvidia-uvm: CUDA cannot initialize without it (LXG020):
# for doctor an error, exit 1.
if lj 1 "$work/j" "$lxgpu" --host "$examples/pve-uvm-not-loaded.yaml" doctor --kmsg "$clean" --format json &&
	jq -e '[.findings[] | select(.code == "LXG020" and .severity == "error")] | length == 1' "$work/j" >/dev/null; then
	report ok "pve-uvm-not-loaded: nvidia-uvm not loaded"
else
	say; report not-ok "pve-uvm-not-loaded: nvidia-uvm not loaded"
fi

# nvidia_uvm's HMM (LXG132, no log line): the 8-GPU host made to look like
# the seed's (open 590, uvm_disable_hmm N, a kernel with HMM_MIRROR and
# DEVICE_PRIVATE, a clean log) names it, once, as a warning (exit 0) with the
# parameter's fix; the condition written by hand from kernel-open/nvidia-uvm
# (uvm_hmm.c, uvm_linux.h): the parameter Y, the proprietary flavour, a
# kernel without DEVICE_PRIVATE, a branch before r530, or a snapshot that
# does not record the facts: none.
hmm_host() { # NAME SED: the 8-GPU host, seed-like, then SED applied
	sed -e 's/^  uvm_disable_hmm: true$/  uvm_disable_hmm: false/' -e "$2" "$host" >"$work/$1.yaml"
}
hmm_count() { # NAME: exit status and the number of LXG132 findings
	"$lxgpu" --host "$work/$1.yaml" doctor --kmsg "$clean" --format json >"$work/j" 2>"$work/err"
	echo "$? $(jq '[.findings[] | select(.code == "LXG132")] | length' "$work/j")"
}
hmm_host seed ''
if [ "$(hmm_count seed)" = "0 1" ] && jq -e '.findings[] | select(.code == "LXG132") |
	.severity == "warning" and (.message | test("error 3")) and
	(.commands == ["modprobe -r nvidia_uvm", "modprobe nvidia_uvm uvm_disable_hmm=1"]) and
	(.fix | test("options nvidia_uvm uvm_disable_hmm=1")) and
	(.evidence | test("uvm_disable_hmm: N")) and (.evidence | test("/boot/config-6.8.12-15-pve: CONFIG_HMM_MIRROR=y, CONFIG_DEVICE_PRIVATE=y"))' "$work/j" >/dev/null &&
	! grep -q 'Nothing wrong found' "$work/j"; then
	report ok "seed-like host (open 590, HMM on, clean log): LXG132 names HMM with its fix"
else
	cat "$work/j" "$work/err" | sed 's/^/# /'; report not-ok "seed-like host (open 590, HMM on, clean log): LXG132 names HMM with its fix"
fi
"$lxgpu" --host "$work/seed.yaml" doctor --kmsg "$clean" >"$work/out" 2>&1
if grep -q 'LXG132' "$work/out" && ! grep -q 'Nothing wrong found' "$work/out"; then
	report ok "seed-like host, text: LXG132, not 'Nothing wrong found'"
else
	sed 's/^/# /' "$work/out"; report not-ok "seed-like host, text: LXG132, not 'Nothing wrong found'"
fi
while IFS='|' read -r name rc expr why; do
	hmm_host "$name" "$expr"
	if [ "$(hmm_count "$name")" = "$rc 0" ]; then report ok "$why: no LXG132"; else report not-ok "$why: no LXG132"; fi
done <<'LIST'
proprietary|1|s/^  flavor: open$/  flavor: proprietary/|the proprietary flavour (its Blackwell GPUs: LXG101, exit 1)
no-devpriv|0|s/^  device_private: true$/  device_private: false/|a kernel without CONFIG_DEVICE_PRIVATE
no-mirror|0|s/^  hmm_mirror: true$/  hmm_mirror: false/|a kernel without CONFIG_HMM_MIRROR
r525|0|s/"590.48.01"/"525.147.05"/|an open module before r530
no-config|0|/^kernel_config:$/,/^  device_private:/d|a snapshot without kernel_config
no-param|0|/^  uvm_disable_hmm:/d|a snapshot without uvm_disable_hmm
LIST
# the example as it is: its admin turned HMM off
hmm_host param-y 's/^  uvm_disable_hmm: false$/  uvm_disable_hmm: true/'
[ "$(hmm_count param-y)" = "0 0" ] && report ok "uvm_disable_hmm Y: no LXG132" || report not-ok "uvm_disable_hmm Y: no LXG132"

# Planted: the clean log, then one real message: file, the code its meaning
# is, the exit status, and words of the message the evidence must quote.
while read -r file code rc words; do
	cat "$kmsg/clean-public.log" "$kmsg/$file" >"$work/planted.log"
	if lj "$rc" "$work/j" "$lxgpu" --host "$host" doctor --kmsg "$work/planted.log" --format json &&
		jq -e --arg c "$code" --arg f "$work/planted.log" \
		'[.findings[] | select(.code == $c and .file == $f and (.evidence | length) > 0)] | length == 1' \
		"$work/j" >/dev/null &&
		jq -r --arg c "$code" '.findings[] | select(.code == $c) | .evidence' "$work/j" | grep -qF -- "$words"; then
		report ok "$file: $code quoted (exit $rc)"
	else
		say; jq -c '.findings[] | [.code, .message]' "$work/j" 2>/dev/null | sed 's/^/# /'
		report not-ok "$file: $code quoted (exit $rc)"
	fi
done <<'LIST'
api-mismatch.log LXG100 1 has the version 595.84
open-module-required.log LXG101 1 requires use of the NVIDIA open kernel modules
open-module-no-gsp.log LXG102 1 System Processor (GSP)
unsupported-by-release.log LXG103 1 NVIDIA 520.56.06 driver release
pci-region-invalid.log LXG104 1 BAR1 is 0M @ 0x0
gsp-firmware-missing.log LXG107 1 No firmware image found
gsp-wpr2-up.log LXG108 1 unexpected WPR2 already up
fallen-off-bus.log LXG109 1 fallen off the bus and is not responding
xid-79.log LXG109 1 79, GPU has fallen off the bus
xid-63.log LXG110 0 Row Remapper
bound-elsewhere.log LXG111 1 already bound to NovaCore
amd-vi-page-fault.log LXG113 1 IO_PAGE_FAULT domain=0x0003
LIST

# Only the current boot counts: the same message before a later boot's
# "Linux version" line is history.
{ cat "$kmsg/api-mismatch.log"; echo "[    0.000000] Linux version 6.8.12-15-pve"; cat "$kmsg/clean-public.log"; } >"$work/two-boots.log"
if "$lxgpu" --host "$host" doctor --kmsg "$work/two-boots.log" >"$work/out" 2>&1 && grep -q 'Nothing wrong found' "$work/out"; then
	report ok "a message of an earlier boot does not count"
else
	sed 's/^/# /' "$work/out"; report not-ok "a message of an earlier boot does not count"
fi
# The unsigned-module refusal only matters when an NVIDIA module is missing.
cat "$kmsg/clean-public.log" "$kmsg/lockdown-unsigned.log" >"$work/p.log"
if lj sev "$work/j" "$lxgpu" --host "$host" doctor --kmsg "$work/p.log" --format json && jq -e '[.findings[].code] | index("LXG112") | not' "$work/j" >/dev/null; then
	report ok "an unsigned module refused while nvidia and nvidia_uvm run is another's"
else
	say; report not-ok "an unsigned module refused while nvidia and nvidia_uvm run is another's"
fi
# Bad input: a log that cannot be read is exit 2 naming the file.
"$lxgpu" --host "$host" doctor --kmsg "$work/none.log" >/dev/null 2>"$work/err"
if [ $? = 2 ] && grep -q 'none.log' "$work/err"; then
	report ok "an unreadable --kmsg is exit 2, naming the file"
else
	report not-ok "an unreadable --kmsg is exit 2, naming the file"
fi

# With a container: verify's findings of it, and its userspace driver
# libraries against the module (590.48.01 on the 8-GPU host).
lxc_config=$work/lxc-config
cp -R "$(dirname "$0")/../verify/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +
lxcp=$work/lxc pve=$work/pve
mkdir -p "$pve/lxc" "$work/no-cgroup"
for ct in ct-ok:590.48.01 ct-old:550.54.14; do
	name=${ct%%:*} ver=${ct#*:}
	mkdir -p "$lxcp/$name/rootfs/usr/lib/x86_64-linux-gnu"
	printf 'lxc.uts.name = %s\nlxc.include = %s/common.conf\nlxc.rootfs.path = dir:%s/%s/rootfs\nlxc.cgroup2.devices.allow = c 195:0 rw\nlxc.cgroup2.devices.allow = c 195:255 rw\nlxc.cgroup2.devices.allow = c 511:0 rw\nlxc.cgroup2.devices.allow = c 511:1 rw\nlxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,create=file\nlxc.mount.entry = /dev/nvidiactl dev/nvidiactl none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file\nlxc.mount.entry = /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,create=file\n' \
		"$name" "$lxc_config" "$lxcp" "$name" >"$lxcp/$name/config"
	# installed as a package does it: the file and its soname link (what
	# the container's loader resolves)
	for lib in libcuda libnvidia-ml; do
		: >"$lxcp/$name/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.$ver"
		ln -s "$lib.so.$ver" "$lxcp/$name/rootfs/usr/lib/x86_64-linux-gnu/$lib.so.1"
	done
done
ct_doctor() { # CTID LOG [--format json]
	id=$1 log=$2
	shift 2
	"$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$lxcp" --cgroup-root "$work/no-cgroup" \
		--lxc-config-dir "$lxc_config" doctor "$id" --kmsg "$log" "$@"
}
# (verify may still warn that a copy of its own goes stale at the next update)
if lj 0 "$work/j" ct_doctor ct-ok "$clean" --format json && jq -e '.container.userspace_versions == ["590.48.01"] and .container.state == "stopped" and ([.findings[] | select(.severity == "error" or .code == "LXG011")] | length) == 0' "$work/j" >/dev/null; then
	report ok "a container with the module's userspace: no mismatch, exit 0"
else
	say; cat "$work/j" | sed 's/^/# /'; report not-ok "a container with the module's userspace: no mismatch, exit 0"
fi
# HMM on (the seed-like host): said again for the container holding GPU 0,
# its fix to be run on the host
"$lxgpu" --host "$work/seed.yaml" --pve-dir "$pve" --lxc-path "$lxcp" --cgroup-root "$work/no-cgroup" \
	--lxc-config-dir "$lxc_config" doctor ct-ok --kmsg "$clean" --format json >"$work/j" 2>"$work/err"
rc=$?
if [ "$rc" = 0 ] && jq -e '([.findings[] | select(.code == "LXG132" and .container == null)] | length) == 1 and
	([.findings[] | select(.code == "LXG132" and .container == "ct-ok" and .severity == "warning" and
	(.fix | startswith("on the host: ")) and .commands[0] == "modprobe -r nvidia_uvm")] | length) == 1' "$work/j" >/dev/null; then
	report ok "HMM on: LXG132 for the host and for the container holding an NVIDIA GPU"
else
	cat "$work/j" "$work/err" | sed 's/^/# /'; report not-ok "HMM on: LXG132 for the host and for the container holding an NVIDIA GPU"
fi
ct_doctor ct-old "$clean" >"$work/out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'LXG011' "$work/out" && grep -q '550.54.14 (not the module.s version)' "$work/out"; then
	report ok "a container with 550.54.14 libraries under the 590.48.01 module: LXG011, version named"
else
	sed 's/^/# /' "$work/out"; report not-ok "a container with 550.54.14 libraries under the 590.48.01 module: LXG011, version named"
fi
# The mismatch as the kernel logs it when the container's program opens the GPU.
printf '[  812.1] NVRM: API mismatch: the client has the version 550.54.14, but\n               NVRM: this kernel module has the version 590.48.01.  Please\n' >"$work/mm.log"
cat "$kmsg/clean-public.log" "$work/mm.log" >"$work/ct.log"
if lj 1 "$work/j" ct_doctor ct-old "$work/ct.log" --format json && jq -e '[.findings[].code] | (index("LXG100") and index("LXG011"))' "$work/j" >/dev/null; then
	report ok "the kernel's API mismatch and the container's libraries: both named"
else
	say; report not-ok "the kernel's API mismatch and the container's libraries: both named"
fi
# An Xid that needs a GPU reset is an error for the container holding that
# GPU (nvidia0 is 0000:18:00.0 on the 8-GPU host), not for one without it.
printf '[ 9120.5] NVRM: Xid (PCI:0000:18:00): 95, pid=7062, Uncontained: LTC TAG (0x2, 0x1). RST: Yes, D-RST: No\n' >"$work/xid95.log"
cat "$kmsg/clean-public.log" "$work/xid95.log" >"$work/ct-xid.log"
if lj 1 "$work/j" ct_doctor ct-ok "$work/ct-xid.log" --format json && jq -e '[.findings[] | select(.code == "LXG110" and .severity == "error" and .container == "ct-ok" and (.message | contains("GPU 0000:18:00.0")))] | length == 1' "$work/j" >/dev/null; then
	report ok "Xid 95 on the container's GPU: an error of the container"
else
	say; jq -c '.findings[] | [.code, .severity, .container, .message]' "$work/j" 2>/dev/null | sed 's/^/# /'
	report not-ok "Xid 95 on the container's GPU: an error of the container"
fi
printf '[ 9120.5] NVRM: Xid (PCI:0000:39:00): 95, pid=7062, Uncontained: LTC TAG (0x2, 0x1). RST: Yes, D-RST: No\n' >"$work/xid95b.log"
cat "$kmsg/clean-public.log" "$work/xid95b.log" >"$work/ct-xid2.log"
if lj sev "$work/j" ct_doctor ct-ok "$work/ct-xid2.log" --format json && jq -e '[.findings[] | select(.container == "ct-ok" and .code == "LXG110")] | length == 0' "$work/j" >/dev/null; then
	report ok "Xid 95 on another GPU: not the container's"
else
	say; report not-ok "Xid 95 on another GPU: not the container's"
fi
# A Proxmox container verify finds problems in: doctor gives verify's codes
# for the container (the host's own findings, P2P notes, name no container).
cp "$(dirname "$0")/../verify/cases/stale-uvm-major.conf" "$pve/lxc/700.conf"
want=$(sed -n 's/^#expect: *//p' "$pve/lxc/700.conf" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
got=$(lj sev "$work/j" ct_doctor 700 "$clean" --format json &&
	jq -r '[.findings[] | select(.container != null) | .code] | unique | .[]' "$work/j" | tr '\n' ' ')
if [ -n "$got" ] && [ "$got" = "$want" ]; then
	report ok "a Proxmox container: verify's findings ($want)"
else
	say; echo "# got '$got', want '$want'"; report not-ok "a Proxmox container: verify's findings ($want)"
fi
# skip_case DESCRIPTION REASON: a check this machine cannot make: a TAP
# skip (tools/run-tests counts it), a failure with CI=true.
skip_case() {
	if [ "${CI:-}" = true ]; then
		report not-ok "$1"
		echo "# cannot run here, and CI=true allows no skip: $2"
	else
		n=$((n + 1))
		echo "ok $n - $1 # SKIP $2"
	fi
}
# The live host's /dev/kmsg unreadable (dmesg_restrict and no CAP_SYSLOG):
# LXG129, the log's causes not checked. Needs root to drop to nobody.
unreadable="an unreadable /dev/kmsg is LXG129, never a clean log"
if [ "$(id -u)" != 0 ]; then
	skip_case "$unreadable" "needs root (to drop to nobody)"
elif [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" != 1 ]; then
	skip_case "$unreadable" "kernel.dmesg_restrict is not 1 here: nobody may read /dev/kmsg"
elif ! command -v setpriv >/dev/null; then
	skip_case "$unreadable" "needs setpriv (Debian package util-linux)"
else
	if lj sev "$work/j" setpriv --reuid 65534 --regid 65534 --clear-groups "$lxgpu" doctor --format json && jq -e '[.findings[].code] | index("LXG129")' "$work/j" >/dev/null && jq -e '.host.kernel_log.read == false' "$work/j" >/dev/null; then
		report ok "$unreadable"
	else
		say; report not-ok "$unreadable"
	fi
fi
if [ "$(id -u)" != 0 ]; then
	skip_case "root reads /dev/kmsg" "needs root"
else
	if lj sev "$work/j" "$lxgpu" doctor --format json && jq -e '.host.kernel_log.read == true and .host.kernel_log.source == "/dev/kmsg" and .host.kernel_log.lines > 0' "$work/j" >/dev/null; then
		report ok "root reads /dev/kmsg"
	else
		say; report not-ok "root reads /dev/kmsg"
	fi
fi
echo "1..$n"
[ "$failed" -eq 0 ]
