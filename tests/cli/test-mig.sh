#!/bin/sh
# MIG instances on the made-up H100 host (examples/hosts/pve-h100-mig.yaml:
# GPU 0 with gi1/ci0, gi1/ci1, gi2/ci0; GPU 1 with gi7-gi9, each ci0):
# verify, audit and the start guard on scratch Proxmox configs; generate by
# MIG UUID.
# Usage: test-mig.sh LXGPU EXAMPLES_DIR   (TAP output)
#
# The configs are written by hand from NVIDIA's numbering (nv-caps.c:
# gpuG/giI's access is minor 3 + 135G + 9I, its ciC one more plus C; the
# nvidia-caps major of this host is 508), not from lxgpu's output.
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
host="$examples/pve-h100-mig.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

mkdir -p "$work/pve/lxc" "$work/lxc" "$work/state" "$work/lock"
# What libnvidia-container gives one MIG device: the parent GPU, nvidiactl,
# uvm, the GI's and the CI's access caps nodes (gpu0/gi1: 12, its ci0: 13).
gi1_ci0='dev0: /dev/nvidia0,mode=0666
dev1: /dev/nvidiactl,mode=0666
dev2: /dev/nvidia-uvm,mode=0666
dev3: /dev/nvidia-uvm-tools,mode=0666
dev4: /dev/nvidia-caps/nvidia-cap12,mode=0444
dev5: /dev/nvidia-caps/nvidia-cap13,mode=0444'
ct() { # ID LINES...: a privileged Proxmox config
	id=$1
	shift
	{
		printf 'arch: amd64\nhostname: ct%s\nostype: debian\n' "$id"
		printf 'rootfs: local:%s/vm-%s-disk-0.raw,size=8G\n' "$id" "$id"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$work/pve/lxc/$id.conf"
}
ct 101 "$gi1_ci0"
ct 102 "$gi1_ci0"
# The whole caps major allowed: root in a privileged container can make
# and open any instance's node (PVE's common.conf allows mknod).
ct 103 "$gi1_ci0" 'lxc.cgroup2.devices.allow: c 508:* rwm'
# A CI's node without its GI's (gpu1/gi7/ci0 is 202, gi7 is 201).
ct 104 'dev0: /dev/nvidia1,mode=0666' 'dev1: /dev/nvidiactl,mode=0666' \
	'dev2: /dev/nvidia-caps/nvidia-cap202,mode=0444'
# GPU 1's gi8/ci0 (210, 211) alone: isolated, nothing to say.
ct 105 'dev0: /dev/nvidia1,mode=0666' 'dev1: /dev/nvidiactl,mode=0666' \
	'dev2: /dev/nvidia-uvm,mode=0666' 'dev3: /dev/nvidia-uvm-tools,mode=0666' \
	'dev4: /dev/nvidia-caps/nvidia-cap210,mode=0444' 'dev5: /dev/nvidia-caps/nvidia-cap211,mode=0444'

# The same host after a reboot without the MIG layout: GPU 0's gi1 and its
# CIs gone (the driver's table of minors stays).
python3 "$(dirname "$0")/../lib/mig-layout-gone.py" "$host" "$work/gone.yaml"
# ... and without GPU 0's gi2 and GPU 1's gi8; CT 106 has gpu0/gi2/ci0 (21, 22)
python3 "$(dirname "$0")/../lib/mig-layout-gone.py" "$host" "$work/gone2.yaml" gpu0/mig/gi2 gpu1/mig/gi8
ct 106 'dev0: /dev/nvidia0,mode=0666' 'dev1: /dev/nvidiactl,mode=0666' \
	'dev2: /dev/nvidia-uvm,mode=0666' 'dev3: /dev/nvidia-uvm-tools,mode=0666' \
	'dev4: /dev/nvidia-caps/nvidia-cap21,mode=0444' 'dev5: /dev/nvidia-caps/nvidia-cap22,mode=0444'

# x STATUS HOST ARGS...: lxgpu's JSON in out; its exit status STATUS (1 with
# an error, e.g. LXG008, LXG054; the clean containers' LXG027 is a warning)
x() {
	st=$1 h=$2
	shift 2
	lx_json "$st" "$work/out" "$lxgpu" --host "$h" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--state-dir "$work/state" --format json "$@"
}
# want EXPECTED [CTID]: the MIG codes (LXG05x) of verify's findings, or of
# audit's container CTID, are EXPECTED
want() {
	filter='.findings'
	[ $# -gt 1 ] && filter="[.containers[] | select(.container == \"$2\") | .findings[]]"
	got=$(jq_val "$work/out" "[($filter)[].code | select(startswith(\"LXG05\"))] | sort | join(\" \")") || return 1
	[ "$1" = "$got" ] || { echo "MIG codes${2:+ of $2}: got '$got', wanted '$1'"; cat "$work/out" "$work/out.err"; return 1; }
}

t_one_instance() { x 0 "$host" verify 101 && want ""; }
t_whole_major() {
	x 0 "$host" verify 103 && want LXG050 &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG050") |
			(.message | test("gi1/ci0") and test("gpu0/mig/gi2/ci0 \\(nvidia-cap22\\)"))
			and (.fix | test("lxgpu (--[a-z-]+ [^ ]+ )*apply 103 --gpus 0:gi1/ci0"))'
}
t_ci_alone() {
	x 1 "$host" verify 104 && want LXG053 &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG053") | .fix | test("--gpus 1:gi7/ci0")'
}
t_other_gpu() { x 0 "$host" verify 105 && want ""; }
# The placement a gone GPU instance had, from its ID (NVIDIA's
# kmigmgrSwizzIdToSpan_GA100, src/nvidia/src/kernel/gpu/mig_mgr/arch/ampere/
# kmigmgr_ga100.c: of a span of 8 slices, ID 1 is slices 0-3, ID 2 slices
# 4-7, IDs 7-14 one slice each from 0; on a GPU of 4 slices, an A30, ID 2
# is slices 2-3): nvidia-smi mig -cgi PROFILE:START takes the first slice.
# placed GI START SLICES [A30_START]: the LXG054 fix in out re-creates giGI
# at START, spanning SLICES of 8 (and says START on an A30), then its CI
placed() {
	jq_ok "$work/out" '.findings[] | select(.code == "LXG054") | .fix |
		test("-cgi PROFILE:" + $start + "([^0-9]|$)") and test("gi" + $gi + " spans " + $n + " of 8 from slice " + $start) and
		test("-gi " + $gi + " -cci CI-PROFILE") and
		(if $a30 == "" then (test("A30") | not) else test("a GPU of 4 slices, an A30, (the start|START) is " + $a30) end)' \
		--arg gi "$1" --arg start "$2" --arg n "$3" --arg a30 "${4:-}"
}
t_gone_verify() {
	x 1 "$work/gone.yaml" verify 101 && want LXG054 &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG054") | .message | test("gpu0/mig/gi1/ci0/access")' &&
		placed 1 0 4
}
t_gone_placements() {
	x 1 "$work/gone2.yaml" verify 106 && want LXG054 &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG054") | .message | test("gpu0/mig/gi2/ci0/access")' &&
		placed 2 4 4 2 &&
		x 1 "$work/gone2.yaml" verify 105 && want LXG054 && placed 8 1 1
}
# The caps minors against a table written by hand from nv-caps.c
# (kernel-open/nvidia/nv-caps.c): nv_cap_tables_init() numbers its tables'
# entries in order from 0: fabric-mgmt 0, mig/config 1, mig/monitor 2, then
# per GPU (32) per GI (15) its access and its 8 CIs' (NV_CAP_MIG_GI_ENTRIES:
# 135 a GPU), then fabric-imex-mgmt; /proc/driver/nvidia-caps/mig-minors
# prints "gpu%d/%s %d" (nv_procfs_read_mig_minors). Counted by hand:
caps_table='config 1
monitor 2
gpu0/gi0/access 3
gpu0/gi0/ci0/access 4
gpu0/gi0/ci7/access 11
gpu0/gi1/access 12
gpu0/gi1/ci0/access 13
gpu0/gi1/ci1/access 14
gpu0/gi2/access 21
gpu0/gi2/ci0/access 22
gpu0/gi14/access 129
gpu0/gi14/ci7/access 137
gpu1/gi0/access 138
gpu1/gi7/access 201
gpu1/gi7/ci0/access 202
gpu1/gi8/access 210
gpu1/gi8/ci0/access 211
gpu1/gi9/access 219
gpu1/gi9/ci0/access 220
gpu7/gi3/ci2/access 978
gpu31/gi14/access 4314
gpu31/gi14/ci7/access 4322'
fixture="$(dirname "$0")/../hosts/pve-h100-mig"
# the fixture's driver files (what the scanner reads) say these minors
t_caps_fixture() {
	printf '%s\n' "$caps_table" | while read -r name minor; do
		grep -qx "$name $minor" "$fixture/proc/driver/nvidia-caps/mig-minors" ||
			{ echo "mig-minors lacks '$name $minor'"; exit 1; }
	done &&
		grep -qx 'fabric-imex-mgmt 4323' "$fixture/proc/driver/nvidia-caps/sys-minors" &&
		grep -qx 'DeviceFileMinor: 202' "$fixture/proc/driver/nvidia/capabilities/gpu1/mig/gi7/ci0/access" &&
		grep -qx 'DeviceFileMinor: 22' "$fixture/proc/driver/nvidia/capabilities/gpu0/mig/gi2/ci0/access"
}
# generate gives an instance's GI and CI nodes with those minors
t_caps_generate() {
	for sel in "0:gi2/ci0 21 22" "1:gi7/ci0 201 202" "1:gi9/ci0 219 220" "0:gi1/ci1 12 14"; do
		set -- $sel
		gen "$1" && [ "$(grep -c nvidia-caps "$work/gen")" -eq 2 ] &&
			grep -q "^dev[0-9]*: /dev/nvidia-caps/nvidia-cap$2,mode=0444$" "$work/gen" &&
			grep -q "^dev[0-9]*: /dev/nvidia-caps/nvidia-cap$3,mode=0444$" "$work/gen" ||
			{ echo "--gpus $1: wanted nvidia-cap$2 and nvidia-cap$3"; cat "$work/gen" "$work/gen.err"; return 1; }
	done
}
t_audit_shared() {
	# 101 and 102 (and 103) give gi1/ci0: the later ones are told; 104 has
	# an error (LXG008: no uvm)
	x 1 "$host" audit &&
		want "" 101 && want LXG051 102 && want "LXG050 LXG051" 103 && want "" 105
}
t_guard_gone() {
	"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--state-dir "$work/state" apply 105 --lock-dir "$work/lock" >"$work/apply" 2>&1 ||
		{ cat "$work/apply"; return 1; }
	"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--state-dir "$work/state" apply 101 --lock-dir "$work/lock" >"$work/apply" 2>&1 ||
		{ cat "$work/apply"; return 1; }
	"$lxgpu" --host "$work/gone.yaml" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--state-dir "$work/state" guard 101 pre-start >"$work/out" 2>&1
	rc=$?
	[ "$rc" -ne 0 ] && grep -q "LXG052" "$work/out" && grep -q "nvidia-smi mig -i" "$work/out" &&
		grep -Eq "lxgpu (--[a-z-]+ [^ ]+ )*apply 101 --gpus 0000:1b:00.0:gi1/ci0" "$work/out" ||
		{ echo "guard exit $rc"; cat "$work/out"; return 1; }
	# GPU 1's instance is still there: 105 starts.
	"$lxgpu" --host "$work/gone.yaml" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--state-dir "$work/state" guard 105 pre-start >"$work/out" 2>&1 ||
		{ cat "$work/out"; return 1; }
	! grep -q LXG052 "$work/out"
}
t_apply_keeps_instance() {
	# apply without --gpus keeps the instance, never widens to every instance.
	grep -q "nvidia-cap13" "$work/pve/lxc/101.conf" && ! grep -q "nvidia-cap14" "$work/pve/lxc/101.conf" &&
		! grep -q "nvidia-cap22" "$work/pve/lxc/101.conf" ||
		{ cat "$work/pve/lxc/101.conf"; return 1; }
}

# --gpus by MIG UUID: the example records GPU 0's gi1/ci0 as
# MIG-0c5b7d5e-... (mig_uuids); the old form names it by its GPU's UUID.
gen() { # SEL: generate's devN lines for a new container
	"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" generate --no-comments \
		--gpus "$1" >"$work/gen" 2>"$work/gen.err"
}
t_uuid_plan() {
	gen 0:gi1/ci0 && cp "$work/gen" "$work/gen.ids" &&
		gen MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a && cmp -s "$work/gen" "$work/gen.ids" &&
		gen MIG-GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f/1/0 && cmp -s "$work/gen" "$work/gen.ids" &&
		[ "$(cat "$work/gen")" = "$gi1_ci0" ] ||
		{ echo "by UUID:"; cat "$work/gen" "$work/gen.err"; echo "by GI/CI:"; cat "$work/gen.ids"; return 1; }
}
t_uuid_unknown() {
	gen MIG-9f0e1d2c-3b4a-5968-8776-655443322110
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -s "$work/gen" ] && grep -q "nvidia-smi -L" "$work/gen.err" &&
		grep -q "MIG-9f0e1d2c-3b4a-5968-8776-655443322110" "$work/gen.err" ||
		{ echo "exit $rc"; cat "$work/gen" "$work/gen.err"; return 1; }
	"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" generate \
		--gpus MIG-9f0e1d2c-3b4a-5968-8776-655443322110 -o "$work/never.conf" 2>/dev/null
	[ $? -eq 2 ] && [ ! -e "$work/never.conf" ]
}

t_scan_lists_uuids() {
	"$lxgpu" --host "$host" scan >"$work/scan" &&
		grep -q "MIG UUIDs     6 (0:gi1/ci0=MIG-0c5b7d5e-8a61-5f2e-9b0c-3d4e5f60718a, " "$work/scan" &&
		grep -q "1:gi9/ci0=MIG-5ba0c2a3-dfb6-5475-e051-8293a4b5c6df)" "$work/scan" ||
		{ cat "$work/scan"; return 1; }
}

check "generate --gpus MIG-<uuid> and MIG-GPU-<uuid>/1/0 give what 0:gi1/ci0 gives" t_uuid_plan
check "scan lists the recorded MIG UUIDs by GPU:giX/ciY" t_scan_lists_uuids
check "generate --gpus with an unknown MIG UUID: exit 2, says nvidia-smi -L, writes nothing" t_uuid_unknown
check "verify: one instance's nodes, nothing to say" t_one_instance
check "verify: a rule for the whole caps major: LXG050 names other instances" t_whole_major
check "verify: a CI node without its GI's: LXG053" t_ci_alone
check "verify: another GPU's instance alone: nothing to say" t_other_gpu
check "verify: the instance is gone after a reboot: LXG054 with how to recreate it at its placement (gi1: slice 0)" t_gone_verify
check "verify: gone gi2 and gi8: LXG054 with their placements (slice 4, A30's 2; slice 1)" t_gone_placements
check "the fixture's mig-minors, sys-minors and access files: nv-caps.c's numbering (a table by hand)" t_caps_fixture
check "generate --gpus G:giX/ciY: the GI's and CI's nodes of nv-caps.c's numbering" t_caps_generate
check "audit: two containers on one instance: LXG051" t_audit_shared
check "guard: a start whose instance is gone is refused (LXG052); the apply it prints keeps the instance" t_guard_gone
check "apply keeps the container's instance" t_apply_keeps_instance
tap_finish
