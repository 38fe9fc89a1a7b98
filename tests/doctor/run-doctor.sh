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
# vfio-pci is a GPU given to VMs: a note, not a problem.
"$lxgpu" --host "$examples/pve-vfio-split.yaml" doctor --kmsg "$clean" --format json >"$work/j"
if jq -e '.ok == true and ([.findings[] | select(.code == "LXG121" and .severity == "info")] | length) == 1' "$work/j" >/dev/null; then
	report ok "pve-vfio-split: the vfio-pci GPU is a note"
else
	report not-ok "pve-vfio-split: the vfio-pci GPU is a note"
fi
# A host without nvidia-uvm: CUDA cannot work (LXG020).
"$lxgpu" --host "$examples/pve-uvm-not-loaded.yaml" doctor --kmsg "$clean" --format json >"$work/j"
if jq -e '[.findings[].code] | index("LXG020")' "$work/j" >/dev/null; then
	report ok "pve-uvm-not-loaded: nvidia-uvm not loaded"
else
	report not-ok "pve-uvm-not-loaded: nvidia-uvm not loaded"
fi

# Planted: the clean log, then one real message: file, the code its meaning
# is, the exit status, and words of the message the evidence must quote.
while read -r file code rc words; do
	cat "$kmsg/clean-public.log" "$kmsg/$file" >"$work/planted.log"
	"$lxgpu" --host "$host" doctor --kmsg "$work/planted.log" --format json >"$work/j" 2>"$work/err"
	got_rc=$?
	if jq -e --arg c "$code" --arg f "$work/planted.log" \
		'[.findings[] | select(.code == $c and .file == $f and (.evidence | length) > 0)] | length == 1' \
		"$work/j" >/dev/null && [ "$got_rc" = "$rc" ] &&
		jq -r --arg c "$code" '.findings[] | select(.code == $c) | .evidence' "$work/j" | grep -qF -- "$words"; then
		report ok "$file: $code quoted (exit $rc)"
	else
		echo "# exit $got_rc"; jq -c '.findings[] | [.code, .message]' "$work/j" | sed 's/^/# /'; cat "$work/err"
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
"$lxgpu" --host "$host" doctor --kmsg "$work/p.log" --format json >"$work/j"
if jq -e '[.findings[].code] | index("LXG112") | not' "$work/j" >/dev/null; then
	report ok "an unsigned module refused while nvidia and nvidia_uvm run is another's"
else
	report not-ok "an unsigned module refused while nvidia and nvidia_uvm run is another's"
fi
# Bad input: a log that cannot be read is exit 2 naming the file.
"$lxgpu" --host "$host" doctor --kmsg "$work/none.log" >/dev/null 2>"$work/err"
if [ $? = 2 ] && grep -q 'none.log' "$work/err"; then
	report ok "an unreadable --kmsg is exit 2, naming the file"
else
	report not-ok "an unreadable --kmsg is exit 2, naming the file"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
