#!/bin/sh
# apply and rollback end to end on a temporary --pve-dir: dry run, backup,
# rollback, locks, refusals, and failures that must leave the config as it
# was (a read-only directory and a full disk need root: they run in a
# private mount namespace). Usage: test-apply.sh LXGPU EXAMPLES_DIR (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
host="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
pve="$work/pve" backups="$work/backups" locks="$work/locks"
mkdir -p "$pve/lxc" "$locks"
conf="$pve/lxc/100.conf"
cat >"$work/original.conf" <<'CONF'
#web%20and%20GPU
arch: amd64
dev0: /dev/ttyUSB0
hostname: gpu
memory: 4096
ostype: debian
rootfs: local-lvm:vm-100-disk-0,size=8G
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file

[snap]
hostname: gpu
CONF
reset_conf() { cp "$work/original.conf" "$conf" && chmod 0640 "$conf"; }
lx() { "$lxgpu" --host "$host" --pve-dir "$pve" --lock-dir "$locks" --backup-dir "$backups" --state-dir "$work/state" "$@"; }
run() { # STATUS ARGS...
	want=$1
	shift
	lx "$@" >"$work/out" 2>"$work/err"
	got=$?
	[ "$got" -eq "$want" ] || { echo "exit $got, wanted $want: lxgpu $*"; cat "$work/out" "$work/err"; return 1; }
}
untouched() { cmp "$work/original.conf" "$conf" || { echo "the config changed"; return 1; }; }
n_backups() { ls "$backups" 2>/dev/null | grep -c '^100-'; }

t_dry_run() {
	reset_conf
	run 1 apply 100 --gpus 0 --style devn --dry-run && untouched && [ "$(n_backups)" -eq 0 ] &&
		grep -q '^-lxc.cgroup2.devices.allow: c 195:\* rwm$' "$work/out" &&
		grep -q '^+dev1: /dev/nvidia0,mode=0666$' "$work/out" &&
		grep -q '^--- .*100.conf$' "$work/out"
}
t_apply() {
	run 0 apply 100 --gpus 0 --style devn && grep -q "^Backup: " "$work/out" && [ "$(n_backups)" -eq 1 ] &&
		grep -qx 'dev1: /dev/nvidia0,mode=0666' "$conf" && grep -qx 'dev0: /dev/ttyUSB0' "$conf" &&
		! grep -q '^lxc.cgroup2' "$conf" && tail -2 "$conf" | head -1 | grep -qx '\[snap\]' &&
		[ "$(stat -c %a "$conf")" = 640 ]
}
t_backup_content() {
	b=$(ls "$backups"/100-*.tar.gz | head -1)
	tar -xzf "$b" -C "$work" config meta.yaml && cmp "$work/config" "$work/original.conf" &&
		grep -q '^ctid: "100"' "$work/meta.yaml" && grep -q '^command: .*apply 100 --gpus 0' "$work/meta.yaml" &&
		grep -q '^lxgpu_version:' "$work/meta.yaml" && grep -q '^hostname: pve-gpu01' "$work/meta.yaml"
}
t_twice() { cp "$conf" "$work/after.conf" && run 0 apply 100 --gpus 0 --style devn && grep -q "nothing written" "$work/out" && cmp "$conf" "$work/after.conf" && [ "$(n_backups)" -eq 1 ]; }
t_dry_run_clean() { run 0 apply 100 --gpus 0 --style devn --dry-run && [ ! -s "$work/out" ]; }
t_rollback_list() { run 0 rollback 100 --list && grep -q "100-.*apply 100 --gpus 0" "$work/out"; }
t_rollback_dry() { run 1 rollback 100 --dry-run && grep -q '^+lxc.cgroup2.devices.allow: c 195:\* rwm$' "$work/out"; }
t_rollback() { run 0 rollback 100 && untouched && [ "$(n_backups)" -eq 2 ] && [ "$(stat -c %a "$conf")" = 640 ]; }
t_rollback_named() {
	first=$(ls "$backups" | sort | sed -n 2p)
	run 0 rollback 100 "$first" && grep -qx 'dev1: /dev/nvidia0,mode=0666' "$conf" && reset_conf
}
t_rollback_wrong_ct() {
	mkdir -p "$work/other" && cp "$work/original.conf" "$pve/lxc/101.conf"
	b=$(ls "$backups" | head -1)
	run 2 rollback 101 "$backups/$b" && grep -q "is a backup of CT 100, not of CT 101" "$work/err"
}
check "apply --dry-run: a diff, exit 1, nothing written, no backup" t_dry_run
check "apply: GPU lines replaced, USB devN and snapshot kept, mode kept, backup stored" t_apply
check "the backup holds the old config and metadata" t_backup_content
check "apply twice: the second writes nothing" t_twice
check "apply --dry-run after apply: exit 0, no diff" t_dry_run_clean
check "rollback --list names the backup and its command" t_rollback_list
check "rollback --dry-run: the diff back" t_rollback_dry
check "rollback: the original bytes again, and the replaced config backed up" t_rollback
check "rollback BACKUP by name" t_rollback_named
check "rollback refuses another container's backup" t_rollback_wrong_ct

t_locked() {
	reset_conf
	sed -i 's/^arch: amd64$/arch: amd64\nlock: backup/' "$conf" && cp "$conf" "$work/locked.conf"
	run 2 apply 100 && grep -q "is locked ('lock: backup'" "$work/err" && cmp "$conf" "$work/locked.conf"
}
t_unknown_ct() { run 2 apply 4242 && grep -q "container 4242 does not exist" "$work/err"; }
t_bad_line() {
	reset_conf
	printf '  broken line here\n' >>"$conf"
	sed -i '3i this is not a config line' "$conf" && cp "$conf" "$work/bad.conf"
	run 2 apply 100 && grep -q "100.conf:3: this line does not parse" "$work/err" && cmp "$conf" "$work/bad.conf"
}
t_priv_flip() {
	reset_conf
	run 2 apply 100 --unprivileged && grep -q "does not remap the rootfs" "$work/err" && untouched &&
		run 0 apply 100 --unprivileged --allow-privilege-change && grep -qx 'unprivileged: 1' "$conf" &&
		grep -q "rootfs ownership is not remapped" "$work/err"
}
t_cdi_refused() { reset_conf; run 2 apply 100 --style cdi && grep -q "not container config lines" "$work/err" && untouched; }
t_cluster_node() {
	mkdir -p "$pve/nodes/pve2/lxc" && cp "$work/original.conf" "$pve/nodes/pve2/lxc/300.conf"
	run 2 apply 300 && grep -q "configured on node pve2" "$work/err"
}
check "a config with 'lock:' is refused, untouched" t_locked
check "an unknown container: exit 2" t_unknown_ct
check "a line PVE cannot parse: exit 2 with file:line, untouched" t_bad_line
check "privileged -> unprivileged refused without --allow-privilege-change" t_priv_flip
check "--style cdi is not for apply" t_cdi_refused
check "a container of another cluster node is named" t_cluster_node
t_igpu_index_kept() {
	# dev0 is an iGPU's render node (not an NVIDIA GPU's): apply leaves the
	# line, so its index must not be handed to an NVIDIA node.
	printf 'arch: amd64\ndev0: /dev/dri/renderD128,gid=104\n' >"$pve/lxc/301.conf"
	run 0 apply 301 --gpus 0 && grep -qx 'dev0: /dev/dri/renderD128,gid=104' "$pve/lxc/301.conf" &&
		[ "$(grep -c '^dev0:' "$pve/lxc/301.conf")" -eq 1 ] && grep -qx 'dev1: /dev/nvidia0,mode=0666' "$pve/lxc/301.conf" ||
		{ cat "$pve/lxc/301.conf"; return 1; }
}
check "another GPU's devN keeps its index (no duplicate devN)" t_igpu_index_kept

t_lock_held() {
	reset_conf
	command -v flock >/dev/null || { echo "flock(1) missing"; return 1; }
	flock -o "$locks/pve-config-100.lock" sleep 4 &
	holder=$!
	sleep 0.5
	start=$(date +%s%N)
	run 2 apply 100 --gpus 0 --lock-timeout 1
	rc=$?
	elapsed_ms=$((($(date +%s%N) - start) / 1000000))
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	[ "$rc" -eq 0 ] && grep -q "held by another process" "$work/err" && untouched &&
		{ [ "$elapsed_ms" -ge 1000 ] || { echo "gave up after $elapsed_ms ms"; return 1; }; }
}
check "a second writer holding PVE's lock: apply waits, then fails clearly" t_lock_held
t_lock_released() {
	reset_conf
	flock -o "$locks/pve-config-100.lock" sleep 1 &
	holder=$!
	sleep 0.3
	run 0 apply 100 --gpus 0 --style devn --lock-timeout 5
	rc=$?
	wait "$holder" 2>/dev/null
	[ "$rc" -eq 0 ] && grep -qx 'dev1: /dev/nvidia0,mode=0666' "$conf"
}
check "a lock released within the timeout: apply waits and succeeds" t_lock_released

# Reconcile (issue 9): with no --gpus apply keeps the container's GPUs, its
# style, its devN options and every other device's rules, and adds only what
# the GPUs lack. Expectations written from those rules, by hand.
t_keeps_raw_style() {
	reset_conf
	run 0 apply 100 && grep -qx 'lxc.cgroup2.devices.allow: c 195:\* rwm' "$conf" &&
		grep -qx 'lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file' "$conf" &&
		grep -qx 'dev0: /dev/ttyUSB0' "$conf" && ! grep -q '^dev[1-9]' "$conf" &&
		grep -q '^lxc.mount.entry: /dev/nvidiactl dev/nvidiactl ' "$conf" &&
		grep -q '^lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm ' "$conf" &&
		grep -q '^lxc.cgroup2.devices.allow: c 511:' "$conf" && ! grep -q 'nvidia[1-7]' "$conf" ||
		{ cat "$conf"; return 1; }
}
check "apply with no --gpus keeps the GPU and the raw style, adds what CUDA lacks" t_keeps_raw_style
t_rekey_said() {
	# The v1 key on this cgroup v2 host (LXC ignores it there): apply keeps
	# the rule in its place under lxc.cgroup2 and says so, not "0 replaced".
	sed 's/^lxc.cgroup2.devices.allow: c 195/lxc.cgroup.devices.allow: c 195/' "$work/original.conf" >"$conf"
	run 0 apply 100 && grep -qx 'lxc.cgroup2.devices.allow: c 195:\* rwm' "$conf" &&
		! grep -q '^lxc.cgroup.devices' "$conf" &&
		grep -q "replaced by [0-9]*; 1 rule rewritten under this host's cgroup key\.$" "$work/out" ||
		{ cat "$conf" "$work/out"; return 1; }
}
check "a v1-keyed rule on a v2 host: rewritten in place, and apply says so" t_rekey_said
t_no_gpu() {
	printf 'arch: amd64\nhostname: nogpu\nostype: debian\n' >"$conf"
	cp "$conf" "$work/nogpu.conf"
	run 2 apply 100 && grep -q -- '--gpus' "$work/err" && grep -q '0000:' "$work/err" &&
		cmp "$conf" "$work/nogpu.conf"
}
check "apply with no --gpus on a container without GPUs: exit 2 naming the GPUs, untouched" t_no_gpu
t_other_devices_kept() {
	cat >"$conf" <<'C'
arch: amd64
ostype: debian
dev0: /dev/nvidia0,uid=1000,gid=44,mode=0660
lxc.cgroup2.devices.allow: c 242:* rwm
lxc.cgroup2.devices.allow: c 509:* rwm
lxc.mount.entry: /dev/hidraw0 dev/hidraw0 none bind,optional,create=file
C
	run 0 apply 100 && grep -qx 'dev0: /dev/nvidia0,uid=1000,gid=44,mode=0660' "$conf" &&
		grep -qx 'lxc.cgroup2.devices.allow: c 242:\* rwm' "$conf" &&
		grep -qx 'lxc.mount.entry: /dev/hidraw0 dev/hidraw0 none bind,optional,create=file' "$conf" &&
		! grep -q 'c 509:' "$conf" && grep -q '^dev[1-9]: /dev/nvidiactl,.*gid=44' "$conf" &&
		grep -q '^dev[1-9]: /dev/nvidia-uvm,' "$conf" ||
		{ cat "$conf"; return 1; }
}
check "apply keeps devN options and other devices' rules (hidraw 242), drops the raw NVIDIA rule (509 is nvidia-caps here)" t_other_devices_kept
t_wont_start() {
	cat >"$conf" <<'C'
arch: amd64
ostype: debian
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file
C
	cp "$conf" "$work/nostart.conf"
	# This host has no nvidia-uvm: the kept, non-optional uvm bind fails the start.
	"$lxgpu" --host "$examples/pve-uvm-not-loaded.yaml" --pve-dir "$pve" --lock-dir "$locks" \
		--backup-dir "$backups" --state-dir "$work/state" apply 100 >"$work/out" 2>"$work/err"
	[ $? -eq 2 ] && grep -q 'would not start' "$work/err" && grep -q ':5: ' "$work/err" &&
		cmp "$conf" "$work/nostart.conf" || { cat "$work/out" "$work/err"; return 1; }
}
check "apply refuses a result that would not start (a non-optional bind the host lacks)" t_wont_start

t_lxc_apply() {
	mkdir -p "$work/lxc/ct1"
	printf 'lxc.uts.name = ct1\nlxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n' >"$work/lxc/ct1/config"
	lx --lxc-path "$work/lxc" apply ct1 --gpus 1 >"$work/out" 2>&1 &&
		grep -qx 'lxc.mount.entry = /dev/nvidia1 dev/nvidia1 none bind,create=file' "$work/lxc/ct1/config" &&
		grep -qx 'lxc.uts.name = ct1' "$work/lxc/ct1/config" && ! grep -q 'nvidia0' "$work/lxc/ct1/config"
}
check "plain LXC: lxc lines in 'key = value' form" t_lxc_apply

# rollback undoes apply's change and only it: the GPU lines go back, every
# other edit made since stays. The expected files below are written from
# that rule, by hand.
c2="$pve/lxc/200.conf"
cat >"$work/200.orig" <<'CONF'
arch: amd64
hostname: gpu
memory: 4096
ostype: debian
rootfs: local-lvm:vm-200-disk-0,size=8G
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file
CONF
# The edits an admin makes after the apply: memory in the GUI, a snapshot.
cat >"$work/200.snapshot" <<'CONF'

[before-upgrade]
arch: amd64
dev0: /dev/nvidia0
hostname: gpu
memory: 8192
snaptime: 1700000000
CONF
{ sed 's/^memory: 4096$/memory: 8192/' "$work/200.orig"; cat "$work/200.snapshot"; } >"$work/200.expected"
reset200() { cp "$work/200.orig" "$c2" && rm -f "$backups"/200-*; }
n200() { ls "$backups" 2>/dev/null | grep -c '^200-'; }
latest200() { ls "$backups"/200-*.tar.gz | sort | tail -1; }
hand_edit() { sed -i 's/^memory: 4096$/memory: 8192/' "$c2" && cat "$work/200.snapshot" >>"$c2"; }
t_written_recorded() {
	reset200 && run 0 apply 200 --gpus 0 --style devn && rm -rf "$work/x" && mkdir "$work/x" &&
		tar -xzf "$(latest200)" -C "$work/x" config written && cmp "$work/x/config" "$work/200.orig" &&
		cmp "$work/x/written" "$c2"
}
t_rb_keeps_edits() {
	reset200 && run 0 apply 200 --gpus 0 --style devn && ! grep -q '^lxc.cgroup2' "$c2" && hand_edit &&
		run 0 rollback 200 && cmp "$c2" "$work/200.expected" || { diff "$work/200.expected" "$c2"; return 1; }
}
# rollback says what it changed (issue 28 item 1): the lines it lists are
# the lines diff(1) finds between the config before and after it, no more,
# no fewer (the hand edits are kept, so "no other line" must hold too).
t_rb_says_what() {
	reset200 && run 0 apply 200 --gpus 0 --style devn && hand_edit && cp "$c2" "$work/200.before-rb" &&
		run 0 rollback 200 || return 1
	diff "$work/200.before-rb" "$c2" | sed -n 's/^< /removed: /p; s/^> /restored: /p' | sort >"$work/fs-diff"
	sed -n 's/^  removed:  /removed: /p; s/^  restored: /restored: /p' "$work/out" | sort >"$work/said"
	[ -s "$work/fs-diff" ] && cmp "$work/fs-diff" "$work/said" || { diff "$work/fs-diff" "$work/said"; cat "$work/out"; return 1; }
	n_removed=$(grep -c '^removed' "$work/fs-diff") n_restored=$(grep -c '^restored' "$work/fs-diff")
	grep -q ": $n_removed lines\? removed, $n_restored restored; no other line changed:" "$work/out" &&
		! grep -q 'every other line is as it was' "$work/out" || { cat "$work/out"; return 1; }
}
t_rb_dry_keeps_edits() {
	reset200 && run 0 apply 200 --gpus 0 --style devn && hand_edit && cp "$c2" "$work/200.edited" &&
		run 1 rollback 200 --dry-run && cmp "$c2" "$work/200.edited" &&
		grep -qx '+lxc.cgroup2.devices.allow: c 195:\* rwm' "$work/out" &&
		grep -qx '+lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file' "$work/out" &&
		! grep -q '^[-+]memory\|^[-+]snaptime\|^[-+]\[' "$work/out"
}
t_rb_gpu_edited() {
	reset200 && run 0 apply 200 --gpus 0 --style devn &&
		sed -i 's|^\(dev[0-9]*: \)/dev/nvidia0|\1/dev/nvidia1|' "$c2" && grep -q '^dev[0-9]*: /dev/nvidia1' "$c2" &&
		cp "$c2" "$work/200.gpu-edited" && before=$(n200) &&
		run 2 rollback 200 && cmp "$c2" "$work/200.gpu-edited" && [ "$(n200)" -eq "$before" ] &&
		grep -q '^-dev[0-9]*: /dev/nvidia0' "$work/out" && grep -q '^+dev[0-9]*: /dev/nvidia1' "$work/out" &&
		grep -q 'changed since lxgpu wrote them' "$work/err" && grep -q -- '--force' "$work/err" &&
		run 2 rollback 200 --dry-run && cmp "$c2" "$work/200.gpu-edited" &&
		run 0 rollback 200 --force && cmp "$c2" "$work/200.orig" && [ "$(n200)" -eq $((before + 1)) ]
}
t_rb_old_backup() {
	# A backup of an lxgpu that did not record what it wrote: config and meta.yaml only.
	reset200 && run 0 apply 200 --gpus 0 --style devn && b=$(latest200) && rm -rf "$work/x" && mkdir "$work/x" &&
		tar -xzf "$b" -C "$work/x" config meta.yaml && tar -czf "$b" -C "$work/x" config meta.yaml &&
		hand_edit && cp "$c2" "$work/200.edited" &&
		run 2 rollback 200 && cmp "$c2" "$work/200.edited" && grep -q 'does not record what lxgpu wrote' "$work/err" &&
		run 0 rollback 200 --force && cmp "$c2" "$work/200.expected" || { diff "$work/200.expected" "$c2"; return 1; }
}
t_rb_privilege() {
	# apply flipped unprivileged (allowed); rollback flips it back, keeps the edits.
	reset200 && run 0 apply 200 --gpus 0 --style devn --unprivileged --allow-privilege-change &&
		grep -qx 'unprivileged: 1' "$c2" && hand_edit &&
		run 0 rollback 200 && cmp "$c2" "$work/200.expected" || { diff "$work/200.expected" "$c2"; return 1; }
}
t_rb_twice() {
	# The rollback's own backup records what it wrote: rolling it back, by
	# its name, is apply's result again.
	reset200 && run 0 apply 200 --gpus 0 --style devn && cp "$c2" "$work/200.applied" &&
		run 0 rollback 200 && cmp "$c2" "$work/200.orig" &&
		run 0 rollback 200 "$(basename "$(latest200)")" && cmp "$c2" "$work/200.applied"
}
check "apply records what it wrote in the backup (entry 'written')" t_written_recorded
check "rollback after hand edits: old GPU lines back, memory edit and snapshot kept" t_rb_keeps_edits
check "rollback lists the lines it removed and restored: those diff(1) finds, no others" t_rb_says_what
check "rollback --dry-run: only GPU lines in the diff, nothing written" t_rb_dry_keeps_edits
check "rollback after a GPU line was edited: exit 2, unchanged, diff shown; --force restores" t_rb_gpu_edited
check "rollback from a backup without 'written': refused, --force restores GPU lines only" t_rb_old_backup
check "rollback undoes apply's privilege flip, keeps the edits" t_rb_privilege
check "rollback of a rollback (named) gives apply's result again" t_rb_twice

# Rules for other devices, and rules whose major no device has now (issue
# 19): apply takes out only lines lxgpu owns, so that rollback, which puts
# back exactly the owned lines, restores whatever apply removed. Expected
# values are the original files' bytes (with the admin's edit made by sed
# here), and the lines as written: a Coral TPU's apex driver takes a
# dynamic major (500 here) that this host's /proc/devices does not list
# while it is not loaded; nothing makes such a rule NVIDIA's.
c3="$pve/lxc/300.conf"
cat >"$work/300.orig" <<'CONF'
arch: amd64
hostname: coral
memory: 2048
ostype: debian
lxc.cgroup2.devices.allow: c 500:0 rwm
lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file
CONF
lx3() { # HOST ARGS...
	h=$1
	shift
	"$lxgpu" --host "$examples/$h" --pve-dir "$pve" --lock-dir "$locks" --backup-dir "$backups" \
		--state-dir "$work/state" "$@" >"$work/out" 2>"$work/err"
}
memory_edit() { sed -i 's/^memory: 2048$/memory: 4096/' "$1"; }
t_coral_kept() {
	cp "$work/300.orig" "$c3" && sed 's/^memory: 2048$/memory: 4096/' "$work/300.orig" >"$work/300.want" &&
		lx3 pve-rtx-4090.yaml apply 300 --gpus 0 || { cat "$work/out" "$work/err"; return 1; }
	grep -qx 'lxc.cgroup2.devices.allow: c 500:0 rwm' "$c3" &&
		grep -qx 'lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file' "$c3" &&
		grep -q '^dev[0-9]*: /dev/nvidia0' "$c3" && grep -qF "'lxc.cgroup2.devices.allow: c 500:0 rwm' is kept" "$work/err" ||
		{ cat "$c3" "$work/err"; return 1; }
	memory_edit "$c3" && lx3 pve-rtx-4090.yaml rollback 300 && cmp "$work/300.want" "$c3" ||
		{ diff -u "$work/300.want" "$c3"; cat "$work/err"; return 1; }
}
check "apply keeps a Coral TPU's rule (major 500, no device has it now); rollback after an edit: the original bytes" t_coral_kept
t_coral_beside_gpu() {
	# The same beside hand-written NVIDIA lines that apply replaces.
	{ cat "$work/300.orig"; printf '%s\n' 'lxc.cgroup2.devices.allow: c 195:* rwm' \
		'lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file'; } >"$work/301.orig"
	sed 's/^memory: 2048$/memory: 4096/' "$work/301.orig" >"$work/301.want"
	cp "$work/301.orig" "$pve/lxc/301.conf" && lx3 pve-rtx-4090.yaml apply 301 --gpus 0 --style devn &&
		grep -qx 'lxc.cgroup2.devices.allow: c 500:0 rwm' "$pve/lxc/301.conf" &&
		! grep -q 'c 195:' "$pve/lxc/301.conf" || { cat "$pve/lxc/301.conf" "$work/err"; return 1; }
	memory_edit "$pve/lxc/301.conf" && lx3 pve-rtx-4090.yaml rollback 301 &&
		cmp "$work/301.want" "$pve/lxc/301.conf" || { diff -u "$work/301.want" "$pve/lxc/301.conf"; return 1; }
}
check "beside NVIDIA lines apply replaces: the Coral rule stays; rollback after an edit: the original bytes" t_coral_beside_gpu

# nvidia-uvm not loaded (examples/hosts/pve-uvm-not-loaded.yaml has no
# nvidia-uvm in /proc/devices): the recipe's 508 rule may be the major uvm
# gets when it loads, so it is unknown, not stale; it stays, apply says so,
# and the uvm binds stay (FACTS section 1: the uvm major is dynamic).
cat >"$work/101.orig" <<'CONF'
arch: amd64
hostname: cuda
memory: 2048
ostype: debian
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.cgroup2.devices.allow: c 508:* rwm
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file
lxc.mount.entry: /dev/nvidiactl dev/nvidiactl none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,optional,create=file
CONF
t_uvm_unknown_dry() {
	cp "$work/101.orig" "$pve/lxc/101.conf" && lx3 pve-uvm-not-loaded.yaml apply 101 --style raw --dry-run
	rc=$?
	[ "$rc" -le 1 ] && cmp "$work/101.orig" "$pve/lxc/101.conf" &&
		! grep -q '^-lxc.cgroup2.devices.allow: c 508:\* rwm' "$work/out" &&
		! grep -q '^-lxc.mount.entry: /dev/nvidia-uvm' "$work/out" &&
		grep -qF "'lxc.cgroup2.devices.allow: c 508:* rwm' is kept" "$work/err" &&
		grep -q 'nvidia-uvm.* not loaded' "$work/err" || { echo "exit $rc"; cat "$work/out" "$work/err"; return 1; }
}
check "uvm not loaded: apply --style raw --dry-run keeps the 508 rule and the uvm binds, and says why" t_uvm_unknown_dry
t_uvm_unknown_rollback() {
	cp "$work/101.orig" "$pve/lxc/101.conf" && sed 's/^memory: 2048$/memory: 4096/' "$work/101.orig" >"$work/101.want" &&
		lx3 pve-uvm-not-loaded.yaml apply 101 --gpus 0 --style devn &&
		grep -qx 'lxc.cgroup2.devices.allow: c 508:\* rwm' "$pve/lxc/101.conf" || { cat "$pve/lxc/101.conf" "$work/err"; return 1; }
	memory_edit "$pve/lxc/101.conf" && lx3 pve-uvm-not-loaded.yaml rollback 101 &&
		cmp "$work/101.want" "$pve/lxc/101.conf" || { diff -u "$work/101.want" "$pve/lxc/101.conf"; return 1; }
}
check "uvm not loaded: apply --style devn keeps the 508 rule; rollback after an edit: the original bytes" t_uvm_unknown_rollback

# rollback latest steps back through applies: two applies, an edit, two
# rollbacks give the original (with the edit); a rollback never undoes
# another rollback unless named.
t_rb_steps_back() {
	reset200 && run 0 apply 200 --gpus 0 --style devn && run 0 apply 200 --gpus 1 --style devn &&
		hand_edit && run 0 rollback 200 && grep -q '^dev[0-9]*: /dev/nvidia0' "$c2" && ! grep -q 'nvidia1' "$c2" &&
		run 0 rollback 200 latest && cmp "$c2" "$work/200.expected" || { diff -u "$work/200.expected" "$c2"; return 1; }
	cp "$c2" "$work/200.back" && run 2 rollback 200 && cmp "$c2" "$work/200.back" &&
		grep -q 'no apply of CT 200 left to undo' "$work/err" || { cat "$work/out" "$work/err"; return 1; }
}
check "rollback latest twice after two applies and an edit: the original bytes with the edit; a third has nothing to undo" t_rb_steps_back

# A GPU a VM passes through (issue 19 item 11): VM 200's hostpci0 names
# 0000:ec:00.0, the 8-GPU example host's GPU 7 (its bdf in
# examples/hosts/pve-8x-rtx-pro-6000.yaml). Proxmox gives it to whichever
# guest starts first (FACTS section 5, item 11): apply refuses without
# --force, and verify reports LXG013 as audit does.
cat >"$work/103.orig" <<'CONF'
arch: amd64
hostname: vmgpu
memory: 2048
ostype: debian
CONF
t_vm_gpu_refused() {
	mkdir -p "$pve/qemu-server" && printf 'boot: order=scsi0\nhostpci0: 0000:ec:00.0,pcie=1\nmemory: 8192\n' >"$pve/qemu-server/200.conf" &&
		cp "$work/103.orig" "$pve/lxc/103.conf" && before=$(ls "$backups" | grep -c '^103-')
	run 2 apply 103 --gpus 7 && cmp "$work/103.orig" "$pve/lxc/103.conf" &&
		grep -q 'LXG013' "$work/err" && grep -q '0000:ec:00.0 is also passed through to VM 200' "$work/err" &&
		[ "$(ls "$backups" | grep -c '^103-')" -eq "$before" ] && [ ! -e "$work/state/containers/103.yaml" ] &&
		run 2 apply 103 --gpus 7 --dry-run && cmp "$work/103.orig" "$pve/lxc/103.conf" &&
		run 0 apply 103 --gpus 7 --force && grep -q '^dev[0-9]*: /dev/nvidia7' "$pve/lxc/103.conf" &&
		run 0 apply 103 --gpus 6 && ! grep -q 'nvidia7' "$pve/lxc/103.conf"
	rc=$?
	rm -rf "$pve/qemu-server"
	return $rc
}
check "apply refuses a GPU a VM passes through (hostpci0, LXG013) unless --force; another GPU is fine" t_vm_gpu_refused
vf() { "$lxgpu" --host "$host" --pve-dir "$pve" --state-dir "$work/state" --cgroup-root "$work/no-cgroup" verify "$@"; }
t_vm_gpu_verify() {
	mkdir -p "$pve/qemu-server" && printf 'hostpci0: 0000:ec:00.0,pcie=1\n' >"$pve/qemu-server/200.conf" &&
		cp "$work/103.orig" "$pve/lxc/103.conf" && run 0 apply 103 --gpus 7 --force &&
		vf 103 >"$work/out" 2>"$work/err"
	rc=$?
	lx_json 1 "$work/out.json" vf 103 --format json
	jrc=$?
	[ "$rc" -eq 1 ] && [ "$jrc" -eq 0 ] && grep -q 'LXG013' "$work/out" && grep -q 'VM 200' "$work/out" ||
		{ echo "exit $rc"; cat "$work/out" "$work/err"; rm -rf "$pve/qemu-server"; return 1; }
	jq_ok "$work/out.json" 'any(.findings[]; .code == "LXG013")' || { cat "$work/out.json"; rm -rf "$pve/qemu-server"; return 1; }
	rm -rf "$pve/qemu-server"
	vf 103 >"$work/out" 2>"$work/err"
	! grep -q 'LXG013' "$work/out" || { cat "$work/out"; return 1; }
}
check "verify: a GPU a VM also passes through is LXG013 (an error); without the VM it is not" t_vm_gpu_verify

# Failures of the file system: the original must stay as it was.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
	cat >"$work/fs.sh" <<'FS'
set -u
mode=$1 lxgpu=$2 host=$3 pve=$4 locks=$5 backups=$6 state=$7
if [ "$mode" = readonly ]; then
	mount --bind "$pve/lxc" "$pve/lxc" && mount -o remount,bind,ro "$pve/lxc" || exit 99
else
	mount -t tmpfs -o size=64k lxgpu-full "$pve/lxc" || exit 99
	cp /tmp/lxgpu-fs-orig.conf "$pve/lxc/100.conf"
	dd if=/dev/zero of="$pve/lxc/filler" bs=1k count=64 2>/dev/null
	cp "$pve/lxc/100.conf" /tmp/lxgpu-fs-before.conf
fi
"$lxgpu" --host "$host" --pve-dir "$pve" --lock-dir "$locks" --backup-dir "$backups" --state-dir "$state" apply 100 --gpus 0
rc=$?
cmp -s "$pve/lxc/100.conf" /tmp/lxgpu-fs-orig.conf || { echo "config changed"; exit 98; }
ls -a "$pve/lxc" | grep -q lxgpu-tmp && { echo "temp file left"; exit 97; }
exit $rc
FS
	t_fs() {
		reset_conf
		cp "$work/original.conf" /tmp/lxgpu-fs-orig.conf
		before=$(n_backups)
		unshare -m --propagation private sh "$work/fs.sh" "$1" "$lxgpu" "$host" "$pve" "$locks" "$backups" "$work/state" >"$work/out" 2>"$work/err"
		rc=$?
		rm -f /tmp/lxgpu-fs-orig.conf /tmp/lxgpu-fs-before.conf
		[ "$rc" -eq 2 ] || { echo "exit $rc"; cat "$work/out" "$work/err"; return 1; }
		grep -q "$2" "$work/err" || { cat "$work/err"; return 1; }
		[ "$(n_backups)" -eq "$before" ] || { echo "a backup was stored although nothing was written"; return 1; }
	}
	check "read-only config directory: exit 2, untouched, no backup" t_fs readonly "Read-only file system"
	check "full disk: exit 2, untouched, no temp file, no backup" t_fs full "No space left on device"
else
	echo "# the read-only and full-disk cases need root and unshare"
	if [ "${CI:-}" = true ]; then check "root for the file system cases" false; fi
fi

# The undo command apply prints, run exactly as printed (but for the
# binary's path, not installed here): the config is the original again.
# Every path option apply was given is in it (--host, --pve-dir,
# --backup-dir, --state-dir, --lock-dir); rollback's defaults would look
# elsewhere.
t_undo_as_printed() {
	cp "$work/original.conf" "$pve/lxc/300.conf" && chmod 0640 "$pve/lxc/300.conf"
	run 0 apply 300 --gpus 1 --style devn || return 1
	undo=$(sed -n 's/^Backup: .* (undo: \(.*\))$/\1/p' "$work/out")
	case $undo in "lxgpu "*"--backup-dir "*) ;; *) echo "undo command: '$undo'"; cat "$work/out"; return 1 ;; esac
	eval "\"\$lxgpu\" ${undo#lxgpu }" >"$work/undo.out" 2>&1 || { echo "$undo:"; cat "$work/undo.out"; return 1; }
	cmp "$work/original.conf" "$pve/lxc/300.conf"
}
check "the undo command apply prints, run as printed, gives the original config back" t_undo_as_printed

tap_finish
