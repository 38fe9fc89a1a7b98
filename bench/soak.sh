#!/bin/sh
# Soak: do containers keep their GPUs across host changes? Two made-up hosts
# live through the same seeded sequence of host events, side by side: on
# one the containers carry the classic hand recipe (FACTS section 4: rules
# with the majors of the day they were written, binds of /dev/nvidiaN by
# index, the driver's userspace copied into the container), on the other
# lxgpu's (apply --style include --driver-libs once; ensure-nodes at every
# boot; the mount hook at every start). Each event is a reboot of the host
# (a fresh private mount namespace with its own /dev, and the cgroup layout
# of the day, FACTS section 7), after which every container is started and
# checked from inside with real LXC:
#   - each node of its GPU, found by PCI address, and nvidiactl and
#     nvidia-uvm have the host's live major:minor and open for read+write
#     with ENXIO (the device cgroup lets them through; nothing is behind
#     them), not EPERM or ENOENT;
#   - a program that dlopens libcuda.so.1 (a stand-in built here, one per
#     made-up driver version) prints the loaded module's version.
# A start that fails with lxgpu's message in the log counts as refused
# safely; any other failure or check is a silently broken start.
# Events: uvm-major (nvidia-uvm comes back with another major),
# driver-update (module version and userspace files change together),
# module-only (a new module boots before its userspace is installed: the
# host's files are still the old version's for that one boot),
# boot-without-uvm (the uvm nodes are not made at boot), swap-minors (two
# GPUs' /dev/nvidiaN swap), cgroup-switch (pure v2 <-> v1 devices).
#
# Needs root, lxc, busybox-static, a C compiler. Ends with the line
#   soak: N events, lxgpu W/T starts working (R refused safely), hand recipe H/T starts working
# and exits 1 when an lxgpu start was silently broken.
# Usage: bench/soak.sh [--events N] [--seed S] [--build DIR | --lxgpu FILE] [--verbose]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
events=100 seed=1 build=$root/build verbose=0 lxgpu_bin=""
usage() { echo "usage: bench/soak.sh [--events N] [--seed S] [--build DIR | --lxgpu FILE] [--verbose]"; }
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--seed) seed=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--build) build=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--lxgpu) lxgpu_bin=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--verbose) verbose=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "bench/soak.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case $events$seed in *[!0-9]* | "") echo "bench/soak.sh: --events and --seed take numbers" >&2; exit 2 ;; esac
if [ -n "$lxgpu_bin" ]; then
	lxgpu=$(cd "$(dirname "$lxgpu_bin")" 2>/dev/null && pwd)/$(basename "$lxgpu_bin")
else
	lxgpu=$(cd "$build" 2>/dev/null && pwd)/lxgpu
fi
[ -x "$lxgpu" ] || { echo "bench/soak.sh: no lxgpu binary at $lxgpu (meson compile -C $build)" >&2; exit 2; }
lxc_config=/usr/share/lxc/config

. "$root/tests/lib/lxc-env.sh"
lxc_require "the soak" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy lxc-info unshare busybox cc ldconfig "$lxc_config/common.conf"
lxc_workdir lxgpu-soak

say() { [ "$verbose" = 1 ] && echo "$*"; return 0; }

# ---- the made-up host (shell state, the same for both recipes) ----
gpu_a=0000:41:00.0 gpu_b=0000:81:00.0
minor_a=0 minor_b=1 uvm_major=509 version=550.54.14 userspace=550.54.14 layout=v2 uvm_at_boot=1

# The stand-in userspace driver of one version: libcuda.so.VERSION, soname
# libcuda.so.1, that says which version it is.
standin() { # VERSION
	d="$work/standin/$1"
	[ -f "$d/libcuda.so.$1" ] && return 0
	mkdir -p "$d"
	printf 'const char *lxgpu_standin_driver_version(void) { return "%s"; }\n' "$1" >"$d/s.c"
	cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$d/libcuda.so.$1" "$d/s.c"
}

# write_host DIR: the host's /proc files lxgpu reads (--proc-dir) and its
# driver root (--driver-root) as the driver of the day lays them out.
write_host() {
	h=$1
	rm -rf "$h/proc"
	mkdir -p "$h/proc/driver/nvidia/gpus/$gpu_a" "$h/proc/driver/nvidia/gpus/$gpu_b" "$h/proc/sys/kernel"
	printf 'Character devices:\n  1 mem\n  4 tty\n195 nvidia-frontend\n195 nvidia\n195 nvidiactl\n%s nvidia-uvm\n\nBlock devices:\n  8 sd\n' \
		"$uvm_major" >"$h/proc/devices"
	printf 'nvidia_uvm 1912832 0 - Live 0x0000000000000000 (POE)\nnvidia 11563008 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n' \
		>"$h/proc/modules"
	printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  Release Build  (dvs-builder@U16-T02-35-3)\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' \
		"$version" >"$h/proc/driver/nvidia/version"
	for g in a b; do
		eval "pci=\$gpu_$g minor=\$minor_$g"
		printf 'Model: \t\t NVIDIA RTX A6000\nIRQ:   \t\t 20%s\nGPU UUID: \t GPU-%s1111111-2222-3333-4444-555555555555\nDevice Minor: \t %s\nBus Location: \t %s\n' \
			"$minor" "$g" "$minor" "$pci" >"$h/proc/driver/nvidia/gpus/$pci/information"
	done
	# An upgrade replaces the userspace files: only one version's remain.
	standin "$userspace"
	lib="$h/driver/usr/lib/x86_64-linux-gnu"
	rm -rf "$h/driver"
	mkdir -p "$lib" "$h/driver/etc"
	cp "$work/standin/$userspace/libcuda.so.$userspace" "$lib/"
	ln -s "libcuda.so.$userspace" "$lib/libcuda.so.1"
	echo /usr/lib/x86_64-linux-gnu >"$h/driver/etc/ld.so.conf"
	ldconfig -r "$h/driver"
}

# ---- containers ----
probe_src='#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) { printf("dlopen failed: %s\n", dlerror()); return 1; }
	const char *(*version)(void) = (const char *(*)(void))dlsym(h, "lxgpu_standin_driver_version");
	if (!version) { printf("not a stand-in libcuda\n"); return 1; }
	printf("%s\n", version());
	return 0;
}'
printf '%s\n' "$probe_src" >"$work/cudaprobe.c"
cc -o "$work/cudaprobe" "$work/cudaprobe.c" || exit 2

# make_container NAME unprivileged|privileged [VERSION]: a busybox container
# with its own dynamic loader (not the host's libraries: the template's binds
# are dropped), the probe, and with VERSION the driver's userspace copied in
# as the hand recipe says. The config has what pve-container gives every
# container (common.conf; userns.conf with 01-pve.conf's allow-all for an
# unprivileged one) and what this sandbox needs.
make_container() {
	name=$1 kind=$2 own=${3:-}
	lxc_sandbox_create "$name" --own-libs || return 1
	rootfs="$lxcpath/$name/rootfs"
	mkdir -p "$rootfs/lib64" "$rootfs/lib/x86_64-linux-gnu" "$rootfs/usr/lib/x86_64-linux-gnu" "$rootfs/usr/local/bin" "$rootfs/etc/ld.so.conf.d"
	cp -L /lib64/ld-linux-x86-64.so.2 "$rootfs/lib64/"
	cp -L /lib/x86_64-linux-gnu/libc.so.6 "$rootfs/lib/x86_64-linux-gnu/"
	cp /etc/ld.so.conf "$rootfs/etc/"
	cp /etc/ld.so.conf.d/*.conf "$rootfs/etc/ld.so.conf.d/" 2>/dev/null
	cp "$work/cudaprobe" "$rootfs/usr/local/bin/"
	if [ -n "$own" ]; then
		standin "$own"
		cp "$work/standin/$own/libcuda.so.$own" "$rootfs/usr/lib/x86_64-linux-gnu/"
		ln -s "libcuda.so.$own" "$rootfs/usr/lib/x86_64-linux-gnu/libcuda.so.1"
	fi
	ldconfig -r "$rootfs"
	echo "lxc.include = $lxc_config/common.conf" >>"$conf"
	if [ "$kind" = unprivileged ]; then
		printf '%s\n' "lxc.include = $lxc_config/userns.conf" \
			'# pve-container: /usr/share/lxc/config/userns.conf.d/01-pve.conf' \
			'lxc.cgroup2.devices.allow = a' >>"$conf"
		lxc_unprivileged "$name"
	fi
	lxc_sandbox_conf >>"$conf"
}

# The classic recipe for GPU /dev/nvidiaMINOR with today's uvm major.
hand_recipe() { # NAME MINOR
	cat >>"$lxcpath/$1/config" <<EOF
lxc.cgroup2.devices.allow = c 195:* rwm
lxc.cgroup2.devices.allow = c $uvm_major:* rwm
lxc.mount.entry = /dev/nvidia$2 dev/nvidia$2 none bind,optional,create=file
lxc.mount.entry = /dev/nvidiactl dev/nvidiactl none bind,optional,create=file
lxc.mount.entry = /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file
lxc.mount.entry = /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,optional,create=file
EOF
}

# lxgpu's global options for a host directory.
lxgpu_opts() { # HOSTDIR
	echo "--proc-dir $1/proc --state-dir $1/state --driver-root $1/driver --lxc-path $lxcpath --firmware-dir $work/none --run-dir $work/none"
}

# ---- one boot of one host, in a private mount namespace ----
cat "$root/tests/lib/private-dev.sh" "$root/tests/lib/probe-open.sh" "$root/tests/lib/wait-running.sh" >"$work/boot.sh"
cat >>"$work/boot.sh" <<'BOOT'
set -u
. "$1"
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
# The made-up /proc tells lxgpu this boot's cgroup layout as the real one does.
mkdir -p "$procdir/self" && cat /proc/self/mountinfo >"$procdir/self/mountinfo"
# What the host makes at boot without lxgpu: nvidiactl and a node per GPU
# (nvidia-persistenced does that), the uvm nodes unless this boot lacks
# them (they appear only when something runs nvidia-modprobe -u).
mknod -m 666 /dev/nvidiactl c 195 255
for m in $minors; do mknod -m 666 "/dev/nvidia$m" c 195 "$m"; done
if [ "$uvm_at_boot" = 1 ]; then
	mknod -m 666 /dev/nvidia-uvm c "$uvm_major" 0
	mknod -m 666 /dev/nvidia-uvm-tools c "$uvm_major" 1
fi
if [ "$recipe" = lxgpu ]; then
	# shellcheck disable=SC2086
	"$lxgpu" $opts ensure-nodes >"$logs/ensure-nodes.log" 2>&1 ||
		echo "# ensure-nodes failed: $(tail -n 1 "$logs/ensure-nodes.log")" >>"$results"
fi
[ -n "$setup" ] && { sh "$setup" >"$logs/setup.log" 2>&1 || { echo "# setup failed:"; sed 's/^/#   /' "$logs/setup.log"; } >>"$results"; }
# node_is PATH MAJOR MINOR: inside, PATH is that char node and opens (ENXIO).
node_is() {
	want=$(printf '%x:%x' "$2" "$3")
	got=$(lxc-attach -P "$lxcpath" -n "$name" -- /bin/busybox stat -c '%F %t:%T' "$1" 2>/dev/null)
	case $got in
	"character special file $want") ;;
	"") problems="$problems $1:missing"; return ;;
	"character special file "*) problems="$problems $1:is(${got##* })-want($want)"; return ;;
	*) problems="$problems $1:not-a-node"; return ;;
	esac
	o=$(probe_open "$lxcpath" "$name" "$1" rw)
	[ "$o" = allowed ] || problems="$problems $1:$o"
}
for ct in $containers; do
	name=${ct%%=*} pci=${ct#*=}
	minor=$(sed -n 's/^Device Minor:[[:space:]]*//p' "$procdir/driver/nvidia/gpus/$pci/information")
	log="$logs/$name.lxc.log"
	# LXC logs a hook's output (stdout and stderr) at DEBUG only.
	if ! lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$log" 2>"$logs/$name.start.err"; then
		why=$(sed -n 's/.* produced output: lxgpu: //p' "$log" | head -n 1)
		if [ "$recipe" = lxgpu ] && [ -n "$why" ]; then
			echo "$name refused: $why" >>"$results"
		else
			echo "$name broken start-failed:$(grep ERROR "$log" | grep -v '__lxc_start\|lxc_start -\|wait_on_daemon' | tail -n 1 | cut -d' ' -f4- | tr ' ' _)" >>"$results"
		fi
		continue
	fi
	problems=""
	if ! wait_running "$lxcpath" "$name" 20; then
		problems=" not-running"
	else
		node_is "/dev/nvidia$minor" 195 "$minor"
		node_is /dev/nvidiactl 195 255
		node_is /dev/nvidia-uvm "$uvm_major" 0
		got=$(lxc-attach -P "$lxcpath" -n "$name" -- /usr/local/bin/cudaprobe 2>&1 | tr ' ' _)
		[ "$got" = "$version" ] || problems="$problems libcuda:$got-want:$version"
	fi
	lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
	if [ -z "$problems" ]; then echo "$name working" >>"$results"; else echo "$name broken$problems" >>"$results"; fi
done
BOOT

# boot RECIPE EVENT_NO [SETUP_SCRIPT]: reboot the recipe's host and check
# its containers; their result lines land in $work/RECIPE/results.EVENT_NO.
boot() {
	recipe=$1 h="$work/$1"
	mkdir -p "$h/logs.$2"
	write_host "$h"
	if [ "$recipe" = lxgpu ]; then cts="lxgpu-priv=$gpu_a lxgpu-unpriv=$gpu_b"; else cts="hand-priv=$gpu_a hand-unpriv=$gpu_b"; fi
	cat >"$h/boot.env" <<EOF
recipe=$recipe layout=$layout uvm_at_boot=$uvm_at_boot uvm_major=$uvm_major version=$version
minors="$minor_a $minor_b" lxcpath=$lxcpath lxgpu=$lxgpu procdir=$h/proc
opts="$(lxgpu_opts "$h")" logs=$h/logs.$2 results=$h/results.$2 setup=${3:-}
containers="$cts"
EOF
	: >"$h/results.$2"
	unshare -m --propagation private sh "$work/boot.sh" "$h/boot.env" ||
		echo "# the boot namespace could not be set up" >>"$h/results.$2"
}

# ---- setup: event 0 ----
mkdir -p "$work/lxgpu" "$work/hand" "$work/none"
setup_version=$version
make_container hand-priv privileged "$setup_version" && make_container hand-unpriv unprivileged "$setup_version" &&
	make_container lxgpu-priv privileged "$setup_version" && make_container lxgpu-unpriv unprivileged || exit 2
hand_recipe hand-priv "$minor_a"
hand_recipe hand-unpriv "$minor_b"
cat >"$work/lxgpu/setup.sh" <<EOF
set -e
"$lxgpu" $(lxgpu_opts "$work/lxgpu") apply lxgpu-priv --gpus $gpu_a --style include --driver-libs --backup-dir $work/lxgpu/backups
"$lxgpu" $(lxgpu_opts "$work/lxgpu") apply lxgpu-unpriv --gpus $gpu_b --style include --driver-libs --backup-dir $work/lxgpu/backups
EOF
boot hand 0
boot lxgpu 0 "$work/lxgpu/setup.sh"
for r in hand lxgpu; do
	if grep -q '^#' "$work/$r/results.0" || grep -q broken "$work/$r/results.0"; then
		echo "bench/soak.sh: the $r containers do not work before any event:" >&2
		cat "$work/$r/results.0" >&2
		[ "$r" = lxgpu ] && exit 2
	fi
done
say "setup: lxgpu $(tr '\n' ' ' <"$work/lxgpu/results.0"); hand $(tr '\n' ' ' <"$work/hand/results.0")"

# ---- the events ----
awk -v n="$events" -v seed="$seed" 'BEGIN {
	srand(seed)
	split("uvm-major driver-update module-only boot-without-uvm swap-minors cgroup-switch", kind, " ")
	for (i = 1; i <= n; i++) print kind[int(rand() * 6) + 1], int(rand() * 1000000)
}' >"$work/events"
i=0 lx_ok=0 lx_refused=0 hand_ok=0 total=0
while read -r kind param; do
	i=$((i + 1))
	case $kind in
	uvm-major)
		new=$((500 + param % 12))
		[ "$new" = "$uvm_major" ] && new=$((new == 511 ? 500 : new + 1))
		uvm_major=$new ;;
	driver-update) version=$(printf '%d.%02d.%02d' $((550 + i)) $((param % 90 + 10)) $((param % 7 + 1))) userspace=$version ;;
	module-only) version=$(printf '%d.%02d.%02d' $((550 + i)) $((param % 90 + 10)) $((param % 7 + 1))) ;;
	boot-without-uvm) uvm_at_boot=0 ;;
	swap-minors) t=$minor_a minor_a=$minor_b minor_b=$t ;;
	cgroup-switch) if [ "$layout" = v2 ]; then layout=v1; else layout=v2; fi ;;
	esac
	boot lxgpu "$i"
	boot hand "$i"
	# One boot only: the uvm nodes are back, the upgrade's userspace is in.
	uvm_at_boot=1 userspace=$version
	lx_w=$(grep -c ' working$' "$work/lxgpu/results.$i") lx_r=$(grep -c ' refused: ' "$work/lxgpu/results.$i")
	h_w=$(grep -c ' working$' "$work/hand/results.$i")
	lx_ok=$((lx_ok + lx_w)) lx_refused=$((lx_refused + lx_r)) hand_ok=$((hand_ok + h_w)) total=$((total + 2))
	if [ $((lx_w + lx_r)) -lt 2 ] || [ "$verbose" = 1 ]; then
		echo "event $i $kind (uvm $uvm_major, driver $version, userspace $userspace, cgroup $layout, minors $gpu_a=$minor_a $gpu_b=$minor_b):"
		sed 's/^/  lxgpu: /' "$work/lxgpu/results.$i"
		sed 's/^/  hand:  /' "$work/hand/results.$i"
	fi
done <"$work/events"
echo "soak: $i events, lxgpu $lx_ok/$total starts working ($lx_refused refused safely), hand recipe $hand_ok/$total starts working"
[ $((lx_ok + lx_refused)) -eq "$total" ]
