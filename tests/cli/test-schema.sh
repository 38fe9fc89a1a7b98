#!/bin/sh
# Every command's JSON (and its YAML form) validates against its schema in
# docs/schema/ (python3-jsonschema), on every example host and, scanned live
# under umockdev, every host fixture; each document starts with "schema".
# Also: audit's summary adds up, and the keys mean one thing (node: a
# Proxmox node; device_path: a device node).
# Usage: test-schema.sh LXGPU EXAMPLES_DIR HOSTS_DIR SCHEMA_DIR   (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) hosts=$(cd "$3" && pwd) schemas=$(cd "$4" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../lib/tap.sh"
. "$here/../lib/lxjson.sh"

if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	if [ "${CI:-}" = true ]; then
		echo "Bail out! python3-jsonschema and python3-yaml are needed (tools/install-deps)"
		exit 1
	fi
	echo "1..0 # SKIP python3-jsonschema or python3-yaml missing"
	exit 0
fi

# The commands that print JSON: those that take --format (main refuses it,
# before running anything, for the others). Each has a schema.
t_every_command() {
	for cmd in $("$lxgpu" help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p'); do
		[ "$cmd" != help ] || continue
		"$lxgpu" --host "$examples/pve-rtx-4090.yaml" --pve-dir "$work" --lxc-path "$work" "$cmd" \
			--format json </dev/null >/dev/null 2>"$work/err"
		grep -q "does not take --format" "$work/err" && continue
		[ -f "$schemas/$cmd.json" ] || { echo "$cmd prints JSON but has no docs/schema/$cmd.json"; return 1; }
	done
}
check "every command that prints JSON has docs/schema/CMD.json" t_every_command

# Outputs are collected first and validated in one python3 run (starting it
# per file would take minutes): collect DESC NAME ARGS... runs lxgpu ARGS
# with --format json and yaml, keeps both under $work/out/N.*, and lists
# them for the validator; a run that fails (exit 2) is a failure of DESC.
mkdir -p "$work/out"
runner=$lxgpu
n_out=0
: >"$work/list"
: >"$work/descs"
collect() {
	desc=$1 name=$2
	shift 2
	n_out=$((n_out + 1))
	f="$work/out/$n_out"
	# shellcheck disable=SC2086
	$runner "$@" --format json >"$f.json" 2>"$f.err"
	rc=$?
	# shellcheck disable=SC2086
	$runner "$@" --format yaml >"$f.yaml" 2>>"$f.err"
	[ $rc -le 1 ] && [ $? -le 1 ] || echo "exit status 2: lxgpu $*" >>"$f.fail"
	[ "$(jq -r 'keys_unsorted[0]' "$f.json" 2>&1)" = schema ] || echo "\"schema\" is not the first key" >>"$f.fail"
	printf '%s %s\n%s %s yaml\n' "$name" "$f.json" "$name" "$f.yaml" >>"$work/list"
	printf '%s\t%s\n' "$n_out" "$desc" >>"$work/descs"
}
# Containers for verify, audit, preflight and doctor: the verify cases of
# the 8-GPU host (clean and broken), one on a node without a host model.
cases="$here/../verify/cases"
mkdir -p "$work/none" "$work/pve/nodes/pve1/lxc" "$work/pve/nodes/pve2/lxc" "$work/pve/nodes/pve1/qemu-server"
ln -s nodes/pve1/lxc "$work/pve/lxc"
ln -s nodes/pve1/qemu-server "$work/pve/qemu-server"
id=100
for conf in "$cases"/*.conf; do
	id=$((id + 1))
	cp "$conf" "$work/pve/nodes/pve1/lxc/$id.conf"
	[ "${conf##*/}" != clean-no-gpu.conf ] || no_gpu=$id
done
cp "$cases/clean-devn.conf" "$work/pve/nodes/pve2/lxc/300.conf"
printf 'arch: amd64\nhostname: plain\n' >"$work/pve/nodes/pve2/lxc/301.conf"
printf 'memory: 8192\nhostpci0: 0000:39:00,pcie=1\n' >"$work/pve/nodes/pve1/qemu-server/900.conf"
printf '[    2.000000] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  590.48.01\n[   12.000000] NVRM: GPU 0000:18:00.0: RmInitAdapter failed! (0x22:0x56:667)\n' >"$work/kmsg"
mkdir -p "$work/hosts"
cp "$examples/pve-8x-rtx-pro-6000.yaml" "$work/hosts/pve2.yaml" # --to pve2's model; audit reads no --hosts
dirs="--pve-dir $work/pve --lxc-path $work/none --cgroup-root $work/none"

for model in "$examples"/*.yaml; do
	h=$(basename "$model" .yaml)
	lx="--host $model $dirs"
	# shellcheck disable=SC2086
	{
		collect "$h: scan" scan $lx scan
		collect "$h: topo" topo $lx topo
		collect "$h: topo --gpus 1" topo $lx topo --gpus 1
		collect "$h: topo --p2p" topo $lx topo --p2p
		for c in $(ls "$work/pve/lxc" | sed 's/\.conf$//'); do
			collect "$h: verify $c" verify $lx verify "$c"
		done
		collect "$h: audit --cluster --exclusive" audit $lx audit --cluster --exclusive
		collect "$h: preflight" preflight $lx preflight
		collect "$h: preflight CTID" preflight $lx preflight 101
		collect "$h: preflight CTID --to NODE" preflight $lx preflight 101 --to pve2 --hosts "$work/hosts"
		collect "$h: doctor --kmsg" doctor $lx doctor --kmsg "$work/kmsg"
		collect "$h: doctor CTID" doctor $lx doctor 101 --kmsg "$work/kmsg"
		# the guard: a scratch state dir (no record: nothing to check at
		# pre-start) and no journal socket; a refusal is test-guard's
		for phase in pre-start post-start pre-stop; do
			collect "$h: guard CTID $phase" guard $lx --state-dir "$work/state" --dev-dir "$work/none" \
				guard 101 $phase
		done
		collect "$h: guard CTID post-start (no GPU lines)" guard $lx --state-dir "$work/state" \
			--dev-dir "$work/none" guard "$no_gpu" post-start
	}
done

# The live scanner on every fixture (umockdev): scan's JSON.
if command -v umockdev-run >/dev/null 2>&1; then
	# umockdev's preload comes before ASan's runtime (as in run-fixtures.sh)
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0"
	for fixture in "$hosts"/*/; do
		[ -f "$fixture/devices.umockdev" ] || continue
		fixture=${fixture%/}
		runner="umockdev-run -d $fixture/devices.umockdev -- sh $here/../lib/in-testbed.sh $fixture - $lxgpu"
		collect "fixture $(basename "$fixture"): live scan" scan scan
	done
	runner=$lxgpu
elif [ "${CI:-}" = true ]; then
	check "umockdev-run is installed" false
fi

python3 "$here/validate-json.py" "$schemas" --list "$work/list" >"$work/results" 2>&1 ||
	{ echo "Bail out! the validator failed: $(cat "$work/results")"; exit 1; }
t_valid() { # N: both forms valid, the runs fine
	f="$work/out/$1"
	[ ! -s "$f.fail" ] || { cat "$f.fail" "$f.err"; return 1; }
	grep -qx "$f.json ok" "$work/results" && grep -qx "$f.yaml ok" "$work/results" ||
		{ grep -F "$f." "$work/results"; return 1; }
}
while IFS="$(printf '\t')" read -r i desc; do
	check "$desc: JSON and YAML validate" t_valid "$i"
done <"$work/descs"

# The audit of one host in detail: counts add up, node is a Proxmox node.
eight="$examples/pve-8x-rtx-pro-6000.yaml"
# shellcheck disable=SC2086
t_audit_run() { lx_json sev "$work/audit.json" "$lxgpu" --host "$eight" $dirs audit --cluster --format json; }
check "audit --cluster --format json: exit status as its findings say, one JSON document" t_audit_run
t_audit_sums() {
	json_ok "$work/audit.json" && jq -e '.summary | .containers == .ok + .warning + .error + .unknown + .no_gpus' "$work/audit.json" >/dev/null &&
		jq -e '.summary.containers == (.containers | length)' "$work/audit.json" >/dev/null &&
		jq -e '. as $d | ["ok","warning","error","unknown","no_gpus"] | all(. as $s | $d.summary[$s] == ([$d.containers[] | select(.status == $s)] | length))' "$work/audit.json" >/dev/null
}
t_audit_unknown() {
	json_ok "$work/audit.json" && jq -e '[.containers[] | select(.node == "pve2")] | map([.container, .status, .gpus]) == [["300", "unknown", null], ["301", "no_gpus", null]]' "$work/audit.json" >/dev/null ||
		{ jq -c '[.containers[] | select(.node == "pve2")]' "$work/audit.json"; return 1; }
}
t_audit_node() {
	json_ok "$work/audit.json" && jq -e '.node == "pve1" and ([.containers[].node] | unique) == ["pve1", "pve2"]' "$work/audit.json" >/dev/null &&
		jq -e '[.containers[].findings[] | has("node")] | any | not' "$work/audit.json" >/dev/null &&
		jq -e '[.containers[].findings[] | .device_path | select(. != null) | startswith("/dev/")] | all' "$work/audit.json" >/dev/null &&
		jq -e '[.containers[].findings[] | .device_path | select(. != null)] | length > 0' "$work/audit.json" >/dev/null
}
check "audit: each container once, under one status; the counts add up" t_audit_sums
check "audit: a container on a node without a host model is unknown, its GPUs null" t_audit_unknown
check "audit: node is the Proxmox node; a finding's device node is device_path" t_audit_node

# preflight's reasons are findings in shape: a code and a severity word,
# never a verdict of their own ("ok" for a reason that changes nothing).
# shellcheck disable=SC2086
t_preflight_run() { lx_json "0|1" "$work/preflight.json" "$lxgpu" --host "$eight" $dirs preflight --format json; }
check "preflight --format json: exit 0 or 1, one JSON document" t_preflight_run
t_preflight_codes() {
	json_ok "$work/preflight.json" && jq -e '[.next_start[].reasons[]] | length > 0' "$work/preflight.json" >/dev/null &&
		jq -e '[.next_start[].reasons[] | (.code | test("^LXG[0-9]{3}$")) and (.severity | IN("error", "warning", "info")) and (has("verdict") | not)] | all' "$work/preflight.json" >/dev/null ||
		{ jq -c '[.next_start[].reasons[]]' "$work/preflight.json"; return 1; }
}
check "preflight: every reason has a code and a severity (error, warning, info), no verdict" t_preflight_codes

tap_finish
