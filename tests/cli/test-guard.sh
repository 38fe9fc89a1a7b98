#!/bin/sh
# The start guard on made-up hosts: apply records a container's GPU, then
# the host changes the way real hosts do, and `lxgpu guard CTID pre-start`
# (what the Proxmox hookscript runs) must refuse or allow the start.
# Expected outcomes come from the situation each case builds: after a
# renumbering the config's /dev/nvidia1 is the other card; a GPU bound to
# vfio-pci has no /dev/nvidiaN; a VM is running when its pid file names a
# live process whose command line is a QEMU one with that -pidfile (the
# test's own helper process, as qemu-server's vm_running_locally checks);
# exit status 1 refuses the start (pve-container aborts it on any non-zero
# pre-start exit). Usage: test-guard.sh LXGPU (TAP)
set -u
lxgpu=$1
work=$(mktemp -d)
vm_pid="" journal_pid=""
trap '[ -n "$vm_pid" ] && kill "$vm_pid" 2>/dev/null; [ -n "$journal_pid" ] && kill "$journal_pid"; rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
pve="$work/pve" state="$work/state" run="$work/run"
mkdir -p "$pve/lxc" "$pve/qemu-server" "$run/qemu-server" "$work/dev" "$work/cg" "$work/lxc"

. "$(dirname "$0")/../lib/guard-host.sh"
. "$(dirname "$0")/../lib/fix.sh"
guard_host "$work/before.yaml" v2 0 1 nvidia
guard_host "$work/swapped.yaml" v2 1 0 nvidia    # the minors swapped (GPU order at probe changed)
guard_host "$work/vfio.yaml" v2 0 null vfio-pci  # B set aside for passthrough

. "$(dirname "$0")/../lib/journal.sh"
journal_start "$work/dev/log" "$work/journal" || { echo "Bail out! no journal socket"; exit 1; }

conf="$pve/lxc/101.conf"
printf 'arch: amd64\nhostname: cuda\nmemory: 4096\nostype: debian\nrootfs: local-lvm:vm-101-disk-0,size=8G\nunprivileged: 1\n' >"$work/plain.conf"
cp "$work/plain.conf" "$conf"
# Everything a test host needs pointed somewhere: no live /run, cgroups or LXC.
lx() { # HOST ARGS...
	h=$1
	shift
	"$lxgpu" --host "$h" --pve-dir "$pve" --state-dir "$state" --run-dir "$run" \
		--dev-dir "$work/dev" --cgroup-root "$work/cg" --lxc-path "$work/lxc" "$@"
}
lxa() { # HOST apply|rollback ARGS...: with a scratch backup and lock dir
	h=$1
	shift
	lx "$h" "$@" --backup-dir "$work/backups" --lock-dir "$work"
}
guard() { # WANT HOST
	want=$1
	lx "$2" guard 101 pre-start >"$work/out" 2>"$work/err"
	got=$?
	[ "$got" -eq "$want" ] || { echo "guard exit $got, wanted $want"; cat "$work/out" "$work/err"; return 1; }
}
# stderr has TEXT, its printed commands read without the options that say
# where things are (lxgpu prints the caller's: context() checks them)
says() {
	sed -E 's/lxgpu( --(host|pve-dir|lxc-path|state-dir|cgroup-root|dev-dir|run-dir) [^ ]+)+ /lxgpu /g' "$work/err" |
		grep -qF -- "$1" || { echo "stderr lacks: $1"; cat "$work/err"; return 1; }
}
# the fix of CODE's refusal as tests/lib/fix-text.py reads it off stderr
# (prose, and each command whole on its own line: `command`) has TEXT, its
# commands read as says() reads them
says_fix() { # CODE TEXT
	fix_of "$1" | sed -E 's/lxgpu( --(host|pve-dir|lxc-path|state-dir|cgroup-root|dev-dir|run-dir) [^ ]+)+ /lxgpu /g' |
		grep -qF -- "$2" || { echo "the fix of $1 lacks: $2"; fix_of "$1"; cat "$work/err"; return 1; }
}
context() { # HOST: a printed lxgpu command carries this test's scratch places
	grep -qF -- "lxgpu --host $1 --pve-dir $pve --lxc-path $work/lxc --state-dir $state --cgroup-root $work/cg --dev-dir $work/dev --run-dir $run apply 101" "$work/err" ||
		{ echo "no printed command with the caller's --host, --pve-dir, ..."; cat "$work/err"; return 1; }
}

t_no_gpu_lines() { guard 0 "$work/before.yaml" && [ ! -s "$work/err" ]; }
t_no_record() {
	printf 'dev0: /dev/nvidia1\n' >>"$conf"
	guard 0 "$work/swapped.yaml"
}
t_apply_records() {
	cp "$work/plain.conf" "$conf"
	lxa "$work/before.yaml" apply 101 --gpus 0000:02:00.0 --style devn >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	r="$state/containers/101.yaml"
	grep -qx 'id: "101"' "$r" && grep -qxe '- pci: "0000:02:00.0"' "$r" &&
		grep -qx '  uuid: GPU-bbbbbbbb-0000-4000-8000-00000000000b' "$r" && grep -qx '  minor: 1' "$r" &&
		grep -qx 'exclusive: false' "$r" && grep -qx 'unprivileged: true' "$r" &&
		grep -q '^dev[0-9]*: /dev/nvidia1' "$conf" || { cat "$r" "$conf"; return 1; }
}
t_unchanged() {
	guard 0 "$work/before.yaml" && [ ! -s "$work/err" ] &&
		logged "lxgpu-guard[" && logged "CT 101 pre-start: its recorded GPUs are as they were"
}
t_renumbered() {
	guard 1 "$work/swapped.yaml" && says "LXG030" &&
		says "GPU 0000:02:00.0 was /dev/nvidia1 when lxgpu recorded it" &&
		says "and is /dev/nvidia0 now" &&
		says "the config gives /dev/nvidia1, which is now 0000:01:00.0 (GPU-aaaaaaaa-0000-4000-8000-00000000000a)" &&
		says_fix LXG030 '`lxgpu apply 101 --gpus 0000:02:00.0` `pct start 101`' && context "$work/swapped.yaml" &&
		logged "<27>lxgpu-guard[" && logged "CT 101 pre-start: LXG030 error: GPU 0000:02:00.0 was /dev/nvidia1"
}
# --format json: the decision on stdout as docs/schema/guard.json says (its
# exit status the text run's, the JSON parsed before any field is read),
# nothing on stderr, the journal written as in text
. "$(dirname "$0")/../lib/lxjson.sh"
schemas="$(dirname "$0")/../../docs/schema"
guard_json() { # WANT HOST PHASE [CTID]
	lx_json "$1" "$work/g.json" lx "$2" guard "${4:-101}" "$3" --format json || return 1
	# notes may go to stderr, the findings only into the document
	! grep -q "LXG" "$work/g.json.err" || { echo "findings on stderr in JSON mode:"; cat "$work/g.json.err"; return 1; }
	if python3 -c 'import jsonschema' 2>/dev/null; then
		python3 "$(dirname "$0")/validate-json.py" "$schemas" guard "$work/g.json" || return 1
	elif [ "${CI:-}" = true ]; then
		echo "python3-jsonschema is needed (tools/install-deps)"
		return 1
	fi
}
t_json_renumbered() {
	: >"$work/journal"
	guard_json 1 "$work/swapped.yaml" pre-start &&
		jq_ok "$work/g.json" '.container == "101" and .phase == "pre-start" and .checked and .refused and
			.state == null and .detail == null and ([.findings[].code] == ["LXG030"]) and
			.findings[0].severity == "error" and
			(.findings[0].message | contains("GPU 0000:02:00.0 was /dev/nvidia1 when lxgpu recorded it")) and
			.apply_command == $cmd and (.findings[0].commands | index($cmd) != null)' \
			--arg cmd "lxgpu --host $work/swapped.yaml --pve-dir $pve --lxc-path $work/lxc --state-dir $state --cgroup-root $work/cg --dev-dir $work/dev --run-dir $run apply 101 --gpus 0000:02:00.0" &&
		logged "CT 101 pre-start: LXG030 error: GPU 0000:02:00.0 was /dev/nvidia1"
}
t_json_unchanged() { # after the fix: the record and the config agree with the host
	guard_json 0 "$work/swapped.yaml" pre-start &&
		jq_ok "$work/g.json" '.checked and (.refused | not) and .apply_command == null' &&
		no_finding "$work/g.json"
}
t_json_post_start() {
	# stopped here (no cgroups): verify's checks of the config, as verify
	# says them; on the vfio host its /dev/nvidia1 is gone (LXG009, an error)
	lx "$work/vfio.yaml" verify 101 --format json >"$work/v.json" 2>/dev/null
	vrc=$?
	[ $vrc = 1 ] || { echo "verify exits $vrc on the vfio host"; return 1; }
	guard_json 1 "$work/vfio.yaml" post-start &&
		jq_ok "$work/g.json" '.phase == "post-start" and .checked and (.refused | not) and .state == "stopped" and
			any(.findings[]; .code == "LXG009" and .severity == "error")' &&
		[ "$(jq -c .findings "$work/g.json")" = "$(jq_val "$work/v.json" '.findings' -c)" ] ||
		{ echo "guard post-start's findings are not verify's:"; jq -c .findings "$work/g.json" "$work/v.json"; return 1; }
}
t_json_other_phases() {
	for p in pre-stop post-stop; do
		guard_json 0 "$work/vfio.yaml" $p &&
			jq_ok "$work/g.json" '(.checked | not) and (.refused | not) and .phase == $p and (.detail | length > 0)' --arg p $p &&
			no_finding "$work/g.json" || return 1
	done
}
t_json_unchecked() {
	# no config: pre-start lets the start go on (0), post-start could not inspect (2); LXG035 says why
	# (nothing to run for it: no fix, never prose in the fix's place)
	guard_json 0 "$work/before.yaml" pre-start 199 &&
		jq_ok "$work/g.json" '(.checked | not) and (.refused | not) and [.findings[] | [.code, .severity]] == [["LXG035", "warning"]]' &&
		jq_ok "$work/g.json" '.findings[0] | .fix == null and .commands == [] and (.message | contains("nothing blocks the start"))' &&
		guard_json 2 "$work/before.yaml" post-start 199 &&
		jq_ok "$work/g.json" '(.checked | not) and [.findings[].code] == ["LXG035"]'
}
t_fix_renumbered() {
	lxa "$work/swapped.yaml" apply 101 --gpus 0000:02:00.0 >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	grep -q '^dev[0-9]*: /dev/nvidia0' "$conf" && ! grep -q '/dev/nvidia1' "$conf" &&
		grep -qx '  minor: 0' "$state/containers/101.yaml" && guard 0 "$work/swapped.yaml"
}
t_vfio() {
	guard 1 "$work/vfio.yaml" && says "LXG031" && says "GPU 0000:02:00.0 is bound to vfio-pci now, not to nvidia" &&
		says_fix LXG031 'give the container another GPU: `lxgpu apply 101 --gpus 0000:01:00.0`'
}
# A stand-in QEMU: argv[0] "kvm" and "-pidfile PATH", as qemu-server starts it.
start_vm() { # VMID
	python3 -c 'import os, sys; os.execv("/bin/sh", ["kvm", "-c", "sleep 60; :", "sh", "-pidfile", sys.argv[1]])' \
		"$run/qemu-server/$1.pid" &
	vm_pid=$!
	echo "$vm_pid" >"$run/qemu-server/$1.pid"
	# until python has exec'd it (its own command line names -pidfile too);
	# up to 10 s: on a loaded machine (the suite in parallel, ASan) python
	# takes more than the one second this waited, and the test failed silently
	i=0
	while [ "$i" -lt 100 ]; do
		[ "$(tr '\0' ' ' <"/proc/$vm_pid/cmdline" 2>/dev/null | cut -d' ' -f1)" = kvm ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "the stand-in QEMU did not start"
	return 1
}
t_vm_running() {
	printf 'memory: 8192\nhostpci0: 0000:02:00,pcie=1,x-vga=1\n' >"$pve/qemu-server/200.conf"
	start_vm 200 && guard 1 "$work/vfio.yaml" && says "LXG032" &&
		says "GPU 0000:02:00.0 is held by VM 200, which is running ($pve/qemu-server/200.conf:2: hostpci0)" &&
		says_fix LXG032 'give the container another GPU: `lxgpu apply 101 --gpus 0000:01:00.0` `pct start 101` or by hand: stop the VM, give the GPU back to nvidia if it stays on vfio-pci: `qm shutdown 200`' &&
		! grep -q "LXG031" "$work/err"
}
t_vm_stopped() {
	kill "$vm_pid" && wait "$vm_pid" 2>/dev/null
	vm_pid=""
	# the pid file stays behind, as after a crash: not a running VM
	guard 1 "$work/vfio.yaml" && says "LXG031" && ! grep -q "LXG032" "$work/err"
}
t_pid_reused() {
	# a pid file naming a live process that is not QEMU (this shell)
	echo $$ >"$run/qemu-server/200.pid"
	guard 1 "$work/vfio.yaml" && ! grep -q "LXG032" "$work/err"
}
t_vm_on_host_gpu() {
	# the VM config names the GPU but the VM runs... on a host where it is
	# still bound to nvidia (hostpci says the whole device 0000:02:00)
	start_vm 200 && guard 1 "$work/swapped.yaml" && says "LXG032" && says "held by VM 200"
	kill "$vm_pid"
	wait "$vm_pid" 2>/dev/null
	vm_pid=""
	rm -f "$run/qemu-server/200.pid" "$pve/qemu-server/200.conf"
}
t_vm_mapping() {
	# a cluster mapping (PVE 8): this node's path of it is the GPU; the
	# other node's path is GPU A, which must not count here
	mkdir -p "$pve/mapping"
	printf 'gpu-b\n\tmap id=10de:2684,iommugroup=14,node=other,path=0000:01:00\n\tmap id=10de:2684,iommugroup=14,node=pve-test,path=0000:02:00\n' >"$pve/mapping/pci.cfg"
	printf 'memory: 8192\nhostpci0: mapping=gpu-b,pcie=1\n' >"$pve/qemu-server/201.conf"
	start_vm 201 && guard 1 "$work/swapped.yaml" && says "LXG032" && says "held by VM 201" || return 1
	# the mapping on this node names the other GPU: not held
	printf 'gpu-b\n\tmap id=10de:2684,node=pve-test,path=0000:01:00.0\n' >"$pve/mapping/pci.cfg"
	guard 0 "$work/swapped.yaml"
	rc=$?
	kill "$vm_pid"
	wait "$vm_pid" 2>/dev/null
	vm_pid=""
	rm -f "$run/qemu-server/201.pid" "$pve/qemu-server/201.conf" "$pve/mapping/pci.cfg"
	return $rc
}
t_vm_mapping_node_name() {
	# On PVE, /etc/pve/lxc and qemu-server are links into nodes/<node>/: the
	# node's name for mapping lines is that <node> (pmxcfs), which need not
	# be the host name (here the model says pve-test, the node is pve1).
	mkdir -p "$pve/nodes/pve1" "$pve/mapping"
	mv "$pve/lxc" "$pve/qemu-server" "$pve/nodes/pve1/"
	ln -s nodes/pve1/lxc "$pve/lxc"
	ln -s nodes/pve1/qemu-server "$pve/qemu-server"
	printf 'gpu-b\n\tmap id=10de:2684,node=pve-test,path=0000:01:00\n\tmap id=10de:2684,node=pve1,path=0000:02:00\n' >"$pve/mapping/pci.cfg"
	printf 'memory: 8192\nhostpci0: mapping=gpu-b,pcie=1\n' >"$pve/qemu-server/201.conf"
	start_vm 201 && guard 1 "$work/swapped.yaml" && says "LXG032" && says "held by VM 201"
	rc=$?
	kill "$vm_pid"
	wait "$vm_pid" 2>/dev/null
	vm_pid=""
	rm -f "$run/qemu-server/201.pid" "$pve/qemu-server/201.conf" "$pve/mapping/pci.cfg"
	rm "$pve/lxc" "$pve/qemu-server"
	mv "$pve/nodes/pve1/lxc" "$pve/nodes/pve1/qemu-server" "$pve/"
	return $rc
}
t_other_card() {
	sed 's/GPU-bbbbbbbb-0000-4000-8000-00000000000b/GPU-cccccccc-0000-4000-8000-00000000000c/' \
		"$work/swapped.yaml" >"$work/other-card.yaml"
	guard 1 "$work/other-card.yaml" && says "LXG034" &&
		says "the GPU at 0000:02:00.0 is another card now: GPU-cccccccc-0000-4000-8000-00000000000c, where lxgpu recorded GPU-bbbbbbbb-0000-4000-8000-00000000000b"
}
t_gone() {
	# B removed from the host: only A is left, at minor 0
	sed '/0000:02:00.0/,/driver: nvidia/d' "$work/before.yaml" | sed '/nvidia1,/d' >"$work/gone.yaml"
	grep -q 02:00 "$work/gone.yaml" && { echo "fixture still has B"; return 1; }
	guard 1 "$work/gone.yaml" && says "LXG031" &&
		says "GPU 0000:02:00.0 (GPU-bbbbbbbb-0000-4000-8000-00000000000b) is no longer on this host"
}
# The fix of a refusal as printed (tests/lib/fix-text.py: its prose, and
# each command whole on a line of its own), to run as printed
# (tests/lib/fix.sh: the lxgpu word runs the binary under test with this
# test's scratch directories; pct is a stub that records the call).
fix_of() { # CODE
	python3 "$(dirname "$0")/../lib/fix-text.py" "$work/err" - "$1" -
}
fix_stubs "$work/fix" "$lxgpu" --host "$work/gone.yaml" --pve-dir "$pve" --state-dir "$state" \
	--run-dir "$run" --dev-dir "$work/dev" --cgroup-root "$work/cg" --lxc-path "$work/lxc" \
	-- --backup-dir "$work/backups" --lock-dir "$work"
t_gone_fix() {
	# one command gives the container a GPU that is here, then the start
	cp "$conf" "$work/conf.keep" && cp "$state/containers/101.yaml" "$work/record.keep"
	guard 1 "$work/gone.yaml" && f=$(fix_of LXG031) &&
		says_fix LXG031 'give the container another GPU: `lxgpu apply 101 --gpus 0000:01:00.0` `pct start 101`' &&
		run_fix "$f" && grep -qx "pct start 101" "$work/fix/calls" && guard 0 "$work/gone.yaml"
	rc=$?
	cp "$work/conf.keep" "$conf" && cp "$work/record.keep" "$state/containers/101.yaml"
	return $rc
}
t_gone_one_of_two_fix() {
	# A and B recorded, B gone: the fix keeps A and drops B, in one command
	cp "$conf" "$work/conf.keep" && cp "$state/containers/101.yaml" "$work/record.keep"
	lxa "$work/before.yaml" apply 101 --gpus 0000:01:00.0,0000:02:00.0 >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	guard 1 "$work/gone.yaml" && f=$(fix_of LXG031) &&
		says_fix LXG031 '`lxgpu apply 101 --gpus 0000:01:00.0` `pct start 101`' &&
		! grep -q "gpus 0000:01:00.0,0000:02:00.0" "$work/err" &&
		run_fix "$f" && guard 0 "$work/gone.yaml"
	rc=$?
	cp "$work/conf.keep" "$conf" && cp "$work/record.keep" "$state/containers/101.yaml"
	return $rc
}
t_corrupt_record() {
	cp "$state/containers/101.yaml" "$work/record.keep"
	printf 'schema: 1\nid: "101"\ngpus:\n- pci: 0000:02:00.0\n  minor: nine\n' >"$state/containers/101.yaml"
	guard 0 "$work/swapped.yaml" && says "LXG035" && says "$state/containers/101.yaml:5: field 'gpus[0].minor'"
	rc=$?
	cp "$work/record.keep" "$state/containers/101.yaml"
	return $rc
}
t_post_start_no_gpus() {
	printf 'arch: amd64\nhostname: web\n' >"$pve/lxc/103.conf"
	lx "$work/before.yaml" guard 103 post-start >"$work/out" 2>"$work/err" && [ ! -s "$work/err" ] &&
		! grep -q "CT 103" "$work/journal"
}
t_other_phases() {
	for p in pre-stop post-stop; do
		lx "$work/vfio.yaml" guard 101 $p >"$work/out" 2>&1 || { echo "$p"; cat "$work/out"; return 1; }
	done
	lx "$work/before.yaml" guard 101 pre-strat >"$work/out" 2>&1
	[ $? -eq 2 ] && grep -q "unknown phase 'pre-strat'" "$work/out"
}
t_rollback_removes() {
	# roll back to the config without GPU lines: no GPU, no record
	lxa "$work/swapped.yaml" rollback 101 "$(ls "$work/backups" | head -1)" --force >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	cmp "$conf" "$work/plain.conf" && [ ! -e "$state/containers/101.yaml" ]
}
t_exclusive_recorded() {
	lxa "$work/swapped.yaml" apply 101 --gpus 0000:02:00.0 --exclusive >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	grep -qx 'exclusive: true' "$state/containers/101.yaml" &&
		lxa "$work/swapped.yaml" apply 101 --gpus 0000:02:00.0 >"$work/out" 2>&1 &&
		grep -qx 'exclusive: false' "$state/containers/101.yaml"
}
t_edited_by_hand() {
	# the user gave the container the other GPU by hand: the host did not
	# change, so a warning, not a refusal
	cp "$conf" "$work/conf.keep"
	sed -i 's|/dev/nvidia0,|/dev/nvidia1,|' "$conf"
	guard 0 "$work/swapped.yaml" && says "LXG030" && says "as when lxgpu recorded it, but the config does not give it now"
	rc=$?
	cp "$work/conf.keep" "$conf"
	return $rc
}
t_include_style() {
	# --style include: the config has one lxc.include line, the GPU lines
	# are in lxgpu's file, which ensure-nodes rewrites at boot; without that
	# rewrite after the renumbering it still names /dev/nvidia1
	cp "$work/plain.conf" "$pve/lxc/104.conf"
	lxa "$work/before.yaml" apply 104 --gpus 0000:02:00.0 --style include >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	grep -q '^lxc.include: ' "$pve/lxc/104.conf" && ! grep -q nvidia "$pve/lxc/104.conf" || { cat "$pve/lxc/104.conf"; return 1; }
	lx "$work/before.yaml" guard 104 pre-start >"$work/out" 2>"$work/err" || { cat "$work/err"; return 1; }
	lx "$work/swapped.yaml" guard 104 pre-start >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] && says "LXG030" && says "the config gives /dev/nvidia1, which is now 0000:01:00.0" || return 1
	lx "$work/vfio.yaml" guard 104 pre-start >"$work/out" 2>"$work/err"
	[ $? -eq 1 ] && says "LXG031"
}

check "a container without GPU lines is never blocked" t_no_gpu_lines
check "GPU lines but no record: not blocked" t_no_record
check "apply records the GPU by PCI address, UUID and minor" t_apply_records
check "nothing changed: the start goes on, silently" t_unchanged
check "minors swapped: refused, naming both cards and the fix" t_renumbered
check "--format json, refused: exit 1, refused, LXG030, the apply command whole; journal as in text" t_json_renumbered
check "--format json, post-start: verify's findings and exit status" t_json_post_start
check "the printed fix gives the container its GPU again" t_fix_renumbered
check "--format json, unchanged: exit 0, checked, no finding" t_json_unchanged
check "--format json, pre-stop and post-stop: nothing checked, exit 0" t_json_other_phases
check "--format json, no config: LXG035, pre-start 0, post-start 2" t_json_unchecked
check "GPU lines edited by hand (same numbers on the host): a warning, not a refusal" t_edited_by_hand
check "GPU moved to vfio-pci: refused, another GPU offered" t_vfio
check "a running VM holds the GPU (hostpci, pid file, kvm -pidfile): refused" t_vm_running
check "the VM stopped, its pid file left behind: not a running VM" t_vm_stopped
check "a pid file naming a process that is not QEMU: not a running VM" t_pid_reused
check "a running VM named by its whole device (0000:02:00): refused" t_vm_on_host_gpu
check "a running VM with a cluster mapping naming the GPU on this node: refused" t_vm_mapping
check "the mapping line of this PVE node (nodes/<node>/ behind /etc/pve/lxc), not of the host name: refused" t_vm_mapping_node_name
check "another card at the recorded address: refused" t_other_card
check "the GPU is gone: refused" t_gone
check "the GPU is gone: the printed fix, run as printed, lets it start" t_gone_fix
check "one of two recorded GPUs is gone: one command keeps the other" t_gone_one_of_two_fix
check "a corrupt record: said, with file and line, and not blocking" t_corrupt_record
check "post-start of a container without GPU lines: nothing checked, nothing logged" t_post_start_no_gpus
check "pre-stop and post-stop check nothing; an unknown phase is a usage error" t_other_phases
check "rollback to a config without GPUs removes the record" t_rollback_removes
check "apply --exclusive records exclusive use; apply without it does not" t_exclusive_recorded
check "--style include (the GPU lines in lxgpu's file): checked like the others" t_include_style

# The PCI bus numbered anew (a BIOS update, a card added in another slot):
# the same two cards (their UUIDs) at 0000:41:00.0 and 0000:42:00.0. In
# the order kept, B is still /dev/nvidia1 and the config gives it: the card
# the container was given, so the start goes on with LXG034 said, and the
# fix records the new address. In the order reversed, the config's
# /dev/nvidia1 is A now: refused.
sed -e 's/0000:01:00.0/0000:41:00.0/; s/0000:02:00.0/0000:42:00.0/' "$work/before.yaml" >"$work/moved.yaml"
sed -e 's/0000:01:00.0/0000:41:00.0/; s/0000:02:00.0/0000:42:00.0/' \
	-e 's/GPU-aaaaaaaa-0000-4000-8000-00000000000a/GPU-X/; s/GPU-bbbbbbbb-0000-4000-8000-00000000000b/GPU-aaaaaaaa-0000-4000-8000-00000000000a/' \
	-e 's/GPU-X/GPU-bbbbbbbb-0000-4000-8000-00000000000b/' "$work/before.yaml" >"$work/moved-reordered.yaml"
t_moved_same_node() {
	cp "$work/plain.conf" "$conf" && rm -rf "$state"
	lxa "$work/before.yaml" apply 101 --gpus 0000:02:00.0 --style devn >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	guard 0 "$work/moved.yaml" && says "LXG034" &&
		says "GPU GPU-bbbbbbbb-0000-4000-8000-00000000000b, recorded at 0000:02:00.0, is at 0000:42:00.0 now" &&
		says "the config gives it, so the start goes on" && says_fix LXG034 'record its new address: `lxgpu apply 101`' || return 1
	fix=$(fix_of LXG034) && run_fix "$fix" >"$work/out" 2>&1 || { echo "fix: $fix"; cat "$work/out"; return 1; }
	grep -qxe '- pci: "0000:42:00.0"' "$state/containers/101.yaml" && guard 0 "$work/moved.yaml" &&
		[ ! -s "$work/err" ] || { cat "$state/containers/101.yaml" "$work/err"; return 1; }
}
t_moved_other_node() {
	cp "$work/plain.conf" "$conf" && rm -rf "$state"
	lxa "$work/before.yaml" apply 101 --gpus 0000:02:00.0 --style devn >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	guard 1 "$work/moved-reordered.yaml" && says "LXG034" && says "LXG030" &&
		! says "the start goes on" 2>/dev/null
}
check "the bus renumbered, order kept: the config still gives the card, the start goes on; the fix records it" t_moved_same_node
check "the bus renumbered, order reversed: the config gives the other card, refused" t_moved_other_node
tap_finish
