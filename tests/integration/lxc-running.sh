#!/bin/sh
# Integration: verify finds a running container the way Proxmox runs it.
# Real LXC containers are started with pve-container's cgroup keys
# (lxc.cgroup.relative = 0, lxc.cgroup.dir.container = lxc/<id>,
# lxc.cgroup.dir.container.inner = ns) and an init that moves itself to
# ns/init.scope as systemd does, so ns/cgroup.procs is empty; on this
# machine's cgroup v1 (hybrid) layout and on a pure cgroup v2 hierarchy
# (cgroup2 mounted in a private mount namespace, FACTS section 7). There,
# verify must say "running" and run its running checks (the container's
# optional mount of /dev/nvidia0 was skipped: LXG017 is seen only inside a
# running container), also when lxc-info is not there (the cgroup walk); a
# container never started says "stopped"; and one whose init exits while
# verify runs is never reported as running and clean. audit finds the
# running one too, from one look at which containers run (no lxc-info per
# container).
# Usage: lxc-running.sh LXGPU EXAMPLES_DIR   (TAP; root, lxc, strace)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd)
host="$examples/pve-8x-rtx-pro-6000.yaml"

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the real-LXC running test" lxc-create lxc-start lxc-info lxc-stop lxc-destroy unshare busybox jq strace
lxc_workdir lxgpu-running
. "$(dirname "$0")/../lib/tap.sh"

# make_ct ID DEVKEY INIT: a busybox container with pve-container's cgroup
# keys. INIT "systemd" moves to init.scope and execs /sbin/init; "short"
# moves there, then exits after a second (the container stops).
make_ct() {
	id=$1 devkey=$2 init=$3
	lxc_sandbox_create "$id" --pve || return 1
	{
		lxc_sandbox_conf
		lxc_pve_conf "$id"
		echo "$devkey.allow = c 195:0 rw"
		echo 'lxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,optional,create=file'
	} >>"$conf"
	case $init in
	systemd) lxc_pve_init "$id" 'exec /sbin/init' ;;
	short) lxc_pve_init "$id" 'sleep 1; exit 0' ;;
	esac
}

# Runs in a private mount namespace (with cgroup2 at /sys/fs/cgroup for
# v2): starts the containers, runs verify on them, writes what it saw.
cat "$(dirname "$0")/../lib/wait-running.sh" >"$work/inside.sh"
cp "$(dirname "$0")/../lib/without-lxc-info.sh" "$work/"
cat >>"$work/inside.sh" <<'INSIDE'
set -u
layout=$1 lxgpu=$2 model=$3 lxcpath=$4 out=$5 base=$6
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
running=$((base + 1)) stopped=$((base + 2)) short=$((base + 3))
verify() { # ID OUT [ENV...] [WRAPPER...]
	id=$1 file=$2
	shift 2
	env "$@" "$lxgpu" --host "$model" --lxc-path "$lxcpath" verify "$id" --format json \
		>"$out/$file.json" 2>"$out/$file.err"
	echo $? >"$out/$file.rc"
}
lxc-start -P "$lxcpath" -n "$running" -l DEBUG -o "$lxcpath/$running.log" && wait_running "$lxcpath" "$running" ||
	{ echo "start failed" >"$out/start"; exit 0; }
# Wait for the init's move, as systemd's is done before anyone looks (t_setup
# checks that it moved).
wait_init_scope "$lxcpath" "$running"
pid=$(lxc-info -P "$lxcpath" -n "$running" -p -H)
cp "/proc/$pid/cgroup" "$out/init-cgroup"
find /sys/fs/cgroup -path "*/lxc/$running/*" -name cgroup.procs | while read -r f; do
	echo "$f: $(tr '\n' ' ' <"$f")"
done >"$out/procs"
echo "started" >"$out/start"
verify "$running" running
# No lxc-info to run (lxgpu never looks in PATH): the cgroup walk finds the init.
verify "$running" running-cgroup "$(dirname "$0")/without-lxc-info.sh"
# audit: which containers run is found once (the cgroups, one lxc-ls), never
# an lxc-info per container; the running one is found and checked all the
# same, the others are stopped. Processes it starts are counted by strace.
mkdir -p "$out/no-pve"
env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=execve \
	-o "$out/audit.strace" "$lxgpu" --host "$model" --pve-dir "$out/no-pve" --lxc-path "$lxcpath" \
	audit --format json >"$out/audit.json" 2>"$out/audit.err"
echo $? >"$out/audit.rc"
lxc-stop -P "$lxcpath" -n "$running" -k >/dev/null 2>&1
verify "$stopped" stopped
# The init exits a second after the start; verify runs across that
# moment: strace holds each of its openat2 calls (the look inside the
# container, after the init was pinned) for 0.4 s.
lxc-start -P "$lxcpath" -n "$short" -l DEBUG -o "$lxcpath/$short.log" && wait_running "$lxcpath" "$short" ||
	{ echo "short start failed" >"$out/short-start"; exit 0; }
echo "started" >"$out/short-start"
# (LeakSanitizer cannot run under ptrace: off for this run of an ASan build.)
verify "$short" short ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -o /dev/null -e trace=openat2 -e inject=openat2:delay_enter=400000
lxc-stop -P "$lxcpath" -n "$short" -k >/dev/null 2>&1
exit 0
INSIDE

codes() { jq -r '[.findings[].code] | unique | join(" ")' "$1"; }

base=100
for layout in $(lxc_layouts); do
	# the v1 half needs a host whose LXC uses the v1 devices controller
	if [ "$layout" = v1 ] && ! v1_why=$(lxc_cgroup_v1_here); then
		skip "cgroup v1: every check of this half" "$v1_why"
		continue
	fi
	base=$((base + 100))
	dir="$work/$layout"
	mkdir -p "$dir"
	# v1: a hybrid layout, the devices controller is v1 (FACTS section 7).
	model_layout=$layout devkey=lxc.cgroup2.devices
	[ "$layout" = v1 ] && model_layout=hybrid devkey=lxc.cgroup.devices
	sed "s/^cgroup: .*/cgroup: $model_layout/" "$host" >"$dir/host.yaml"

	t_setup() {
		make_ct $((base + 1)) "$devkey" systemd && make_ct $((base + 2)) "$devkey" systemd &&
			make_ct $((base + 3)) "$devkey" short || return 1
		unshare -m --propagation private sh "$work/inside.sh" "$layout" "$lxgpu" "$dir/host.yaml" \
			"$lxcpath" "$dir" "$base" || { echo "could not set up the $layout namespace"; return 1; }
		[ "$(cat "$dir/start")" = started ] ||
			{ grep ERROR "$lxcpath/$((base + 1)).log" | tail -5; return 1; }
		grep -q "^0::/lxc/$((base + 1))/ns/init.scope$" "$dir/init-cgroup" ||
			{ echo "the init did not move to ns/init.scope:"; cat "$dir/init-cgroup"; return 1; }
	}
	check "cgroup $layout: containers started the Proxmox way, init in lxc/ID/ns/init.scope" t_setup

	t_running() { # FILE FOUND_BY
		f="$dir/$1.json"
		state=$(jq -r .state "$f") found=$(jq -r .found_by "$f")
		[ "$state" = running ] && [ "$found" = "$2" ] ||
			{ echo "state '$state' found by '$found'"; cat "$f" "$dir/$1.err" "$dir/procs"; return 1; }
		# The running checks ran: the skipped optional mount (LXG017) is seen inside.
		case " $(codes "$f") " in *" LXG017 "*) ;; *)
			echo "no LXG017 (codes: $(codes "$f"))"; jq -r '.findings[] | "\(.code) \(.message)"' "$f"
			return 1 ;;
		esac
	}
	check "cgroup $layout: verify says running (asked lxc-info) and runs its running checks" \
		t_running running lxc-info
	check "cgroup $layout: without lxc-info the cgroup walk finds the init" \
		t_running running-cgroup cgroup

	t_audit() {
		f="$dir/audit.json"
		st() { jq -r --arg id "$1" '.containers[] | select(.container == $id) | .state' "$f"; }
		codes_of() { jq -r --arg id "$1" '[.containers[] | select(.container == $id) | .findings[].code] | unique | join(" ")' "$f"; }
		[ "$(st $((base + 1)))" = running ] ||
			{ echo "audit: $((base + 1)) is '$(st $((base + 1)))' (exit $(cat "$dir/audit.rc"))"; cat "$f" "$dir/audit.err"; return 1; }
		case " $(codes_of $((base + 1))) " in *" LXG017 "*) ;; *)
			echo "audit: no running checks on $((base + 1)) (codes: $(codes_of $((base + 1))))"; return 1 ;;
		esac
		for id in $((base + 2)) $((base + 3)); do
			[ "$(st "$id")" = stopped ] || { echo "audit: $id is '$(st "$id")'"; cat "$f"; return 1; }
		done
		execs=$(grep -c 'execve("/usr/s\{0,1\}bin/lxc-info"' "$dir/audit.strace")
		ls=$(grep -c 'execve("[^"]*/lxc-ls"' "$dir/audit.strace")
		[ "$execs" -eq 0 ] && [ "$ls" -le 1 ] ||
			{ echo "audit ran lxc-info $execs times, lxc-ls $ls times"; grep execve "$dir/audit.strace"; return 1; }
	}
	check "cgroup $layout: audit finds the running container and checks it, with no lxc-info per container" \
		t_audit

	t_stopped() {
		f="$dir/stopped.json"
		state=$(jq -r .state "$f")
		[ "$state" = stopped ] || { echo "state '$state'"; cat "$f" "$dir/stopped.err"; return 1; }
		case " $(codes "$f") " in *" LXG016 "* | *" LXG017 "*)
			echo "running checks on a stopped container: $(codes "$f")"; return 1 ;;
		esac
	}
	check "cgroup $layout: a container never started is stopped" t_stopped

	t_exiting() {
		f="$dir/short.json"
		[ "$(cat "$dir/short-start" 2>/dev/null)" = started ] || { echo "did not start"; return 1; }
		state=$(jq -r .state "$f") rc=$(cat "$dir/short.rc")
		case $state in
		stopped | "could not inspect") ;;
		*) echo "state '$state' (exit $rc) for a container whose init exited during verify"
			cat "$f" "$dir/short.err"; return 1 ;;
		esac
		# Never a pass: exit 2 ("could not check") or 1 (the config's errors).
		[ "$state" = stopped ] || [ "$rc" -ne 0 ] || { echo "exit $rc"; cat "$f"; return 1; }
	}
	check "cgroup $layout: a container whose init exits while verify runs is not reported clean" \
		t_exiting
	[ -f "$dir/short.json" ] && echo "# init exited during verify on $layout: $(jq -r '"\(.state): \(.state_detail // "")"' "$dir/short.json")"
done
tap_finish
