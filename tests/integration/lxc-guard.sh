#!/bin/sh
# Integration: the start guard against a real running LXC container.
# Container 102 (plain LXC, busybox) is given GPU 0000:02:00.0 by apply and
# started for real; Proxmox container 101 is given the same GPU. With
# exclusive use recorded (by 101, or by 102) `lxgpu guard 101 pre-start`
# must refuse while 102 runs (LXG033: lxgpu finds 102 running as verify
# does, through lxc-info) and allow once it is stopped; shared use is never
# refused. post-start on the running 102 logs verify's findings to the
# journal socket: the host (a snapshot) has /dev/nvidia1 but this machine
# has no such node, so LXC skipped the optional bind and the running
# container lacks it (LXG017, as lxc-running shows).
# Usage: lxc-guard.sh LXGPU   (TAP; root, lxc, busybox-static, python3)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the real-LXC guard test" lxc-create lxc-start lxc-info lxc-stop lxc-destroy busybox python3
lxc_workdir lxgpu-guard
. "$(dirname "$0")/../lib/tap.sh"
pve="$work/pve" state="$work/state"
mkdir -p "$pve/lxc" "$pve/qemu-server" "$work/dev" "$work/run"

# The host's cgroup layout as Proxmox decides it (FACTS section 3).
case $(stat -fc %T /sys/fs/cgroup) in
cgroup2fs) layout=v2 ;;
*) layout=hybrid ;;
esac
. "$(dirname "$0")/../lib/guard-host.sh"
guard_host "$work/host.yaml" "$layout" 0 1 nvidia

. "$(dirname "$0")/../lib/journal.sh"
journal_pid=""
trap '[ -n "$journal_pid" ] && kill $journal_pid; lxc_cleanup' EXIT
journal_start "$work/dev/log" "$work/journal" || { echo "Bail out! no journal socket"; exit 1; }

lx() {
	"$lxgpu" --host "$work/host.yaml" --pve-dir "$pve" --lxc-path "$lxcpath" --state-dir "$state" \
		--run-dir "$work/run" --dev-dir "$work/dev" "$@"
}
lxa() { lx "$@" --backup-dir "$work/backups" --lock-dir "$work"; }

t_setup() {
	lxc_sandbox_create 102 || return 1
	lxc_sandbox_conf >>"$conf"
	printf 'arch: amd64\nhostname: cuda\nostype: debian\nrootfs: local-lvm:vm-101-disk-0,size=8G\n' >"$pve/lxc/101.conf"
	lxa apply 102 --gpus 0000:02:00.0 >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	grep -q 'nvidia1 dev/nvidia1 none bind,create=file' "$conf" || { cat "$conf"; return 1; }
	# this machine has no NVIDIA nodes: optional binds, so that it starts
	sed -i '/dev\/nvidia/s/ bind,create=file/ bind,optional,create=file/' "$conf"
	lxa apply 101 --gpus 0000:02:00.0 --exclusive >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	lxc-start -P "$lxcpath" -n 102 >"$work/start.log" 2>&1 || { cat "$work/start.log"; return 1; }
	lxc-wait -P "$lxcpath" -n 102 -s RUNNING -t 10
}
guard() { # WANT ID PHASE
	lx guard "$2" "$3" >"$work/out" 2>"$work/err"
	got=$?
	[ "$got" -eq "$1" ] || { echo "guard $2 $3: exit $got, wanted $1"; cat "$work/out" "$work/err"; return 1; }
}
says() { grep -qF -- "$1" "$work/err" || { echo "stderr lacks: $1"; cat "$work/err"; return 1; }; }

t_exclusive_refused() {
	guard 1 101 pre-start && says "LXG033" &&
		says "GPU 0000:02:00.0 is in use by container 102, which is running, and this container recorded exclusive use of it" &&
		says "lxc-stop -P $lxcpath -n 102"
}
t_post_start() {
	guard 1 102 post-start && says "LXG017" && logged "CT 102 post-start: LXG017 error"
}
t_shared_allowed() {
	lxa apply 101 --gpus 0000:02:00.0 >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	guard 0 101 pre-start
}
t_other_exclusive() {
	lxa apply 102 --gpus 0000:02:00.0 --exclusive >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	guard 1 101 pre-start && says "LXG033" && says "and that container recorded exclusive use of it"
}
t_stopped_allowed() {
	lxc-stop -P "$lxcpath" -n 102 -k >/dev/null 2>&1
	guard 0 101 pre-start
}

# An lxc-info first on the caller's PATH: the root-run guard never runs it.
t_path_ignored() {
	mkdir -p "$work/fakebin"
	printf '#!/bin/sh
touch %s/fake-lxc-info-ran
exit 1
' "$work" >"$work/fakebin/lxc-info"
	chmod 755 "$work/fakebin/lxc-info"
	PATH="$work/fakebin:$PATH" lx guard 101 pre-start >"$work/out" 2>"$work/err"
	[ ! -e "$work/fake-lxc-info-ran" ] || { echo "the lxc-info on PATH ran"; return 1; }
	says "LXG033"
}

check "a plain LXC container with the GPU is running; CT 101 records exclusive use" t_setup
check "exclusive use recorded: refused while the other container runs" t_exclusive_refused
check "an lxc-info on the caller's PATH is not the one run" t_path_ignored
check "post-start: verify's findings of the running container, in the journal" t_post_start
check "shared use: the start goes on" t_shared_allowed
check "the other container recorded exclusive use: refused" t_other_exclusive
check "the other container stopped: the start goes on" t_stopped_allowed
tap_finish
