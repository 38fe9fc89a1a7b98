#!/bin/sh
# Soak: how often does a host event break a GPU container that was set up
# correctly just before it? One made-up host (GPUs by PCI address and
# UUID, the driver's /proc files, its userspace files) lives through a
# seeded sequence of host events, weighted as hosts see them (bench/README.md
# says the weights and why). Before every event each baseline sets its two
# containers (one privileged, one unprivileged) up correct for the host as
# it is; after the event the host reboots (a fresh private mount namespace
# with its own /dev and the cgroup layout of the day, FACTS section 7) once
# per baseline, and every container is started and checked from inside
# with real LXC. The baselines:
#   hand   the classic recipe (FACTS section 4): raw device rules with the
#          day's majors, binds of /dev/nvidiaN by index (optional, as the
#          guides write them), the container's own copy of the driver's
#          userspace at the version of setup time;
#   pve    Proxmox's devN lines, the best practice without lxgpu: at every
#          start pve-container stats each node (a missing one fails the
#          start: "Device /dev/... does not exist"), writes
#          lxc.cgroup2.devices.allow = c M:m rw from what it found, and
#          makes the node in the container (mode 0660, root through the
#          idmap), as update_lxc_config and its prestart/autodev hooks do
#          (pve-container src/PVE/LXC.pm); the container's own userspace
#          copy as above;
#   lxgpu  apply --style include --driver-libs (--caps for the MIG
#          container), ensure-nodes at every boot (its boot unit), the
#          guard at pre-start (its hookscript) and the mount hook at every
#          start.
# The check inside: the node of the container's own GPU (found by UUID:
# /dev/nvidiaMINOR with 195:MINOR), nvidiactl, nvidia-modeset, nvidia-uvm,
# nvidia-uvm-tools, and the MIG capability nodes the container was given,
# each with the host's live major:minor and opening (ENXIO: the device
# cgroup lets it through, nothing is behind it), not EPERM, EACCES or
# missing; a program that dlopens libcuda.so.1 (a stand-in built here per
# made-up version) must load the loaded module's version.
# A start that fails with the baseline's own message (Proxmox's "Device ...
# does not exist", lxgpu's guard or hook) is refused with a reason; any
# other failed start, and a start whose check fails, is silently broken.
#
# Needs root, lxc, busybox-static, a C compiler. Prints the events where a
# start is not working (all with --verbose, one line each), a table per
# event kind and baseline, one line per baseline:
#   baseline NAME: W/T starts working, R refused with a reason, B silently broken
# and ends with the line
#   soak: N events, lxgpu W/T starts working (R refused safely), hand recipe H/T starts working
# Exits 1 when an lxgpu start was silently broken.
# Usage: bench/soak.sh [--events N] [--seed S] [--sequence "KIND[/VARIANT] ..."]
#                      [--build DIR | --lxgpu FILE] [--verbose]
# --sequence replaces the seeded draw of kinds (variants not named are still
# drawn from the seed): the short soak in CI runs each kind once.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
events=100 seed=1 build=$root/build verbose=0 lxgpu_bin="" sequence=""
usage() { echo "usage: bench/soak.sh [--events N] [--seed S] [--sequence \"KIND[/VARIANT] ...\"] [--build DIR | --lxgpu FILE] [--verbose]"; }
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--seed) seed=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--sequence) sequence=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--build) build=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--lxgpu) lxgpu_bin=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--verbose) verbose=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "bench/soak.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
case $events$seed in *[!0-9]* | "") echo "bench/soak.sh: --events and --seed take numbers" >&2; exit 2 ;; esac
kinds="kernel-update driver-update uvm-major uvm-late gpu-change renumber cgroup-switch"
for k in $sequence; do
	case " $kinds " in *" ${k%%/*} "*) ;; *) echo "bench/soak.sh: unknown event kind '${k%%/*}' (kinds: $kinds)" >&2; exit 2 ;; esac
done
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
baselines="hand pve lxgpu"

# ---- the made-up host ----
# GPUs a, b (the containers'), c (a spare that comes and goes): PCI bus
# (hex) and UUID; present_c says whether c is in. The driver numbers the
# GPUs in probe order, by PCI address (minor_of).
bus_a=41 bus_b=81 bus_c=c1 present_c=0
uvm_major=509 caps_major=508 version=550.54.14 userspace=550.54.14 layout=v2
uvm_at_boot=1 module=1 kernel=6.8.12-1
uuid_of() { echo "GPU-${1}1111111-2222-3333-4444-555555555555"; }
bdf_of() { eval "echo 0000:\$bus_$1:00.0"; }
present() { echo "a b$([ "$present_c" = 1 ] && echo ' c')"; }
minor_of() { # GPU
	for g in $(present); do echo "$(bdf_of "$g") $g"; done | sort | awk -v g="$1" '$2 == g { print NR - 1 }'
}
# NVIDIA's capability minors (kernel-open/nvidia/nv-caps.c): mig/config 1,
# mig/monitor 2, then per GPU minor 15 GIs of 9 entries (the GI's access,
# then ci0..ci7): gpuG/mig/giI/access = 3 + 135G + 9I, ciK one after.
cap_gi() { echo $((3 + 135 * $1 + 9 * $2)); }
# The MIG instances GPU a has: gi1 and its ci0.
caps_of_a() {
	m=$(minor_of a)
	echo "$(cap_gi "$m" 1) $(($(cap_gi "$m" 1) + 1))"
}

# The stand-in userspace driver of one version: libcuda.so.VERSION, soname
# libcuda.so.1, that says which version it is.
standin() { # VERSION
	d="$work/standin/$1"
	[ -f "$d/libcuda.so.$1" ] && return 0
	mkdir -p "$d"
	printf 'const char *lxgpu_standin_driver_version(void) { return "%s"; }\n' "$1" >"$d/s.c"
	cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$d/libcuda.so.$1" "$d/s.c"
}

# write_host: the host's /proc files lxgpu reads (--proc-dir) and its
# driver root (--driver-root) as the driver of the day lays them out, and
# boot.nodes: the nodes the host makes at boot without lxgpu.
write_host() {
	h=$work/host
	rm -rf "$h/proc"
	mkdir -p "$h/proc/sys/kernel"
	: >"$h/boot.nodes"
	if [ "$module" = 1 ]; then
		printf 'Character devices:\n  1 mem\n  4 tty\n195 nvidia-frontend\n195 nvidia\n195 nvidiactl\n%s nvidia-caps\n%s nvidia-uvm\n\nBlock devices:\n  8 sd\n' \
			"$caps_major" "$uvm_major" >"$h/proc/devices"
		printf 'nvidia_uvm 1912832 0 - Live 0x0000000000000000 (POE)\nnvidia_modeset 1355776 0 - Live 0x0000000000000000 (POE)\nnvidia 11563008 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n' \
			>"$h/proc/modules"
		mkdir -p "$h/proc/driver/nvidia/capabilities/mig"
		printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  Release Build  (dvs-builder@U16-T02-35-3)\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' \
			"$version" >"$h/proc/driver/nvidia/version"
		echo "/dev/nvidiactl 195 255 666" >>"$h/boot.nodes"
		echo "/dev/nvidia-modeset 195 254 666" >>"$h/boot.nodes"
		for g in $(present); do
			pci=$(bdf_of "$g") minor=$(minor_of "$g")
			mkdir -p "$h/proc/driver/nvidia/gpus/$pci"
			printf 'Model: \t\t NVIDIA A100-SXM4-80GB\nIRQ:   \t\t 20%s\nGPU UUID: \t %s\nDevice Minor: \t %s\nBus Location: \t %s\n' \
				"$minor" "$(uuid_of "$g")" "$minor" "$pci" >"$h/proc/driver/nvidia/gpus/$pci/information"
			echo "/dev/nvidia$minor 195 $minor 666" >>"$h/boot.nodes"
		done
		cap() { # REL MINOR MODE
			mkdir -p "$(dirname "$h/proc/driver/nvidia/capabilities/$1")"
			printf 'DeviceFileMinor: %s\nDeviceFileMode: %s\nDeviceFileModify: 1\n' "$2" "$3" \
				>"$h/proc/driver/nvidia/capabilities/$1"
			# (the MIG setup at boot, nvidia-smi mig, makes them)
			echo "/dev/nvidia-caps/nvidia-cap$2 $caps_major $2 $(printf %o "$3")" >>"$h/boot.nodes"
		}
		cap mig/config 1 256
		cap mig/monitor 2 292
		m=$(minor_of a)
		cap "gpu$m/mig/gi1/access" "$(cap_gi "$m" 1)" 292
		cap "gpu$m/mig/gi1/ci0/access" "$(($(cap_gi "$m" 1) + 1))" 292
		if [ "$uvm_at_boot" = 1 ]; then
			echo "/dev/nvidia-uvm $uvm_major 0 666" >>"$h/boot.nodes"
			echo "/dev/nvidia-uvm-tools $uvm_major 1 666" >>"$h/boot.nodes"
		fi
	else
		# DKMS did not build the module for this kernel: no nvidia at all.
		printf 'Character devices:\n  1 mem\n  4 tty\n\nBlock devices:\n  8 sd\n' >"$h/proc/devices"
		: >"$h/proc/modules"
	fi
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
cat >"$work/cudaprobe.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) { printf("dlopen-failed\n"); return 1; }
	const char *(*version)(void) = (const char *(*)(void))dlsym(h, "lxgpu_standin_driver_version");
	if (!version) { printf("not-a-stand-in\n"); return 1; }
	printf("%s\n", version());
	return 0;
}
EOF
cc -o "$work/cudaprobe" "$work/cudaprobe.c" || exit 2
# The check, run inside by one lxc-attach: each "PATH MAJOR MINOR MODE"
# argument must be that char node and open (r or rw); prints a word per
# problem ("PATH:missing", "PATH:is(M:m)", "PATH:eperm", ...), then the
# version libcuda.so.1 gives.
cat >"$work/gpucheck" <<'EOF'
#!/bin/sh
while [ $# -ge 4 ]; do
	p=$1 want=$(printf '%x:%x' "$2" "$3") mode=$4
	shift 4
	if [ ! -e "$p" ]; then echo "$p:missing"; continue; fi
	if [ ! -c "$p" ]; then echo "$p:not-a-node"; continue; fi
	got=$(stat -c '%t:%T' "$p")
	[ "$got" = "$want" ] || { echo "$p:is($got)-want($want)"; continue; }
	if [ "$mode" = r ]; then err=$( (: <"$p") 2>&1); else err=$( (: <>"$p") 2>&1); fi
	case $err in
	"" | *"No such device or address"* | *"No such device"*) ;;
	*"Operation not permitted"*) echo "$p:eperm" ;;
	*"Permission denied"*) echo "$p:eacces" ;;
	*) echo "$p:other" ;;
	esac
done
echo "libcuda=$(/usr/local/bin/cudaprobe)"
EOF
chmod 755 "$work/gpucheck"

# make_container NAME unprivileged|privileged: a busybox container with its
# own dynamic loader (the template's binds of the host's libraries are
# dropped), the probe and the check. Its config (kept as config.base) has
# what pve-container gives every container (common.conf; userns.conf with
# 01-pve.conf's allow-all for an unprivileged one) and what this sandbox
# needs. The first of each kind is made, the rest copied from it (shifting
# an unprivileged root takes minutes on a loaded machine).
make_container() {
	name=$1 kind=$2
	if [ -n "$(eval "echo \${made_$kind:-}")" ]; then
		src=$(eval "echo \$made_$kind")
		mkdir -p "$lxcpath/$name"
		cp -a "$lxcpath/$src/rootfs" "$lxcpath/$name/"
		sed "s|/$src/|/$name/|g; s|^lxc.uts.name = .*|lxc.uts.name = $name|" \
			"$lxcpath/$src/config.base" >"$lxcpath/$name/config.base"
		chmod 755 "$lxcpath/$name"
		return 0
	fi
	lxc_sandbox_create "$name" --own-libs || return 1
	rootfs="$lxcpath/$name/rootfs"
	mkdir -p "$rootfs/lib64" "$rootfs/lib/x86_64-linux-gnu" "$rootfs/usr/lib/x86_64-linux-gnu" "$rootfs/usr/local/bin" "$rootfs/etc/ld.so.conf.d"
	cp -L /lib64/ld-linux-x86-64.so.2 "$rootfs/lib64/"
	cp -L /lib/x86_64-linux-gnu/libc.so.6 "$rootfs/lib/x86_64-linux-gnu/"
	cp /etc/ld.so.conf "$rootfs/etc/"
	cp /etc/ld.so.conf.d/*.conf "$rootfs/etc/ld.so.conf.d/" 2>/dev/null
	cp "$work/cudaprobe" "$work/gpucheck" "$rootfs/usr/local/bin/"
	echo "lxc.include = $lxc_config/common.conf" >>"$conf"
	if [ "$kind" = unprivileged ]; then
		printf '%s\n' "lxc.include = $lxc_config/userns.conf" \
			'# pve-container: /usr/share/lxc/config/userns.conf.d/01-pve.conf' \
			'lxc.cgroup2.devices.allow = a' >>"$conf"
		lxc_unprivileged "$name"
	fi
	lxc_sandbox_conf >>"$conf"
	mv "$conf" "$lxcpath/$name/config.base"
	eval "made_$kind=$name"
}

# own_libs NAME VERSION|"": the container's own copy of the driver's
# userspace (the hand recipe and devN: installed inside at setup), or none.
own_libs() {
	r="$lxcpath/$1/rootfs/usr/lib/x86_64-linux-gnu"
	rm -f "$r"/libcuda.so.*
	if [ -n "$2" ]; then
		standin "$2"
		cp "$work/standin/$2/libcuda.so.$2" "$r/"
		ln -s "libcuda.so.$2" "$r/libcuda.so.1"
		case $1 in *2) chown -h 100000:100000 "$r/libcuda.so.$2" "$r/libcuda.so.1" ;; esac
		ldconfig -r "$lxcpath/$1/rootfs"
	fi
}

# Containers: NAME1 privileged with GPU a and its MIG caps, NAME2
# unprivileged with GPU b, per baseline.
ct_gpu() { case $1 in *1) echo a ;; *) echo b ;; esac; }

# The GPU nodes a container needs on this host: "PATH MAJOR MINOR MODE".
wanted_nodes() { # NAME
	g=$(ct_gpu "$1") m=$(minor_of "$(ct_gpu "$1")")
	echo "/dev/nvidia$m 195 $m rw /dev/nvidiactl 195 255 rw /dev/nvidia-modeset 195 254 rw"
	echo "/dev/nvidia-uvm $uvm_major 0 rw /dev/nvidia-uvm-tools $uvm_major 1 rw"
	[ "$g" = a ] && for c in $(caps_of_a); do echo "/dev/nvidia-caps/nvidia-cap$c $caps_major $c r"; done
}

# ---- setting each baseline up, correct for the host as it is ----
setup_hand() { # NAME
	c="$lxcpath/$1/config"
	cp "$lxcpath/$1/config.base" "$c"
	if [ "$layout" = v2 ]; then key=lxc.cgroup2.devices.allow; else key=lxc.cgroup.devices.allow; fi
	m=$(minor_of "$(ct_gpu "$1")")
	{
		echo "$key = c 195:* rwm"
		echo "$key = c $uvm_major:* rwm"
		for p in "/dev/nvidia$m" /dev/nvidiactl /dev/nvidia-modeset /dev/nvidia-uvm /dev/nvidia-uvm-tools; do
			echo "lxc.mount.entry = $p ${p#/} none bind,optional,create=file"
		done
		if [ "$(ct_gpu "$1")" = a ]; then
			echo "$key = c $caps_major:* rwm"
			for x in $(caps_of_a); do
				echo "lxc.mount.entry = /dev/nvidia-caps/nvidia-cap$x dev/nvidia-caps/nvidia-cap$x none bind,optional,create=file"
			done
		fi
	} >>"$c"
	own_libs "$1" "$userspace"
}
# devN: the paths (pct set CTID -devN PATH); the rest is done at each start.
setup_pve() { # NAME
	cp "$lxcpath/$1/config.base" "$lxcpath/$1/config"
	wanted_nodes "$1" | xargs -n 4 | cut -d' ' -f1 >"$lxcpath/$1/devn"
	own_libs "$1" "$userspace"
}
# lxgpu: apply (in the setup namespace, with the host's /dev of the day).
setup_lxgpu() { # NAME
	cp "$lxcpath/$1/config.base" "$lxcpath/$1/config"
	own_libs "$1" ""
	caps=""
	[ "$(ct_gpu "$1")" = a ] && caps=--caps
	echo "\"\$lxgpu\" \$opts apply $1 --gpus $(bdf_of "$(ct_gpu "$1")") $caps --style include --driver-libs --backup-dir $work/backups"
}

lxgpu_opts() {
	echo "--proc-dir $work/host/proc --state-dir $work/host/state --driver-root $work/host/driver --lxc-path $lxcpath --pve-dir $work/pve --firmware-dir $work/none --run-dir $work/none"
}

# ---- one boot of the host for one baseline, in a private mount namespace ----
cat "$root/tests/lib/private-dev.sh" "$root/tests/lib/wait-running.sh" >"$work/boot.sh"
cat >>"$work/boot.sh" <<'BOOT'
set -u
. "$1"
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
# The made-up /proc tells lxgpu this boot's cgroup layout as the real one does.
mkdir -p "$procdir/self" && cat /proc/self/mountinfo >"$procdir/self/mountinfo"
while read -r p maj min mode; do
	mkdir -p "$(dirname "$p")"
	mknod -m "$mode" "$p" c "$maj" "$min"
done <"$nodes"
# The setup's boot: apply, then what the boot unit does, must both work.
if [ -n "$setup" ]; then
	sh "$setup" >"$logs/setup.log" 2>&1 || { echo "# setup failed:"; sed 's/^/#   /' "$logs/setup.log"; } >>"$results"
	# shellcheck disable=SC2086
	"$lxgpu" $opts ensure-nodes >"$logs/ensure-nodes.log" 2>&1 ||
		echo "# ensure-nodes failed after the setup: $(tail -n 1 "$logs/ensure-nodes.log")" >>"$results"
	exit 0
fi
# lxgpu's boot unit (it fails when a recorded GPU is gone: a note, the
# guard then refuses the start).
if [ "$baseline" = lxgpu ]; then
	# shellcheck disable=SC2086
	"$lxgpu" $opts ensure-nodes >"$logs/ensure-nodes.log" 2>&1 ||
		echo "# ensure-nodes failed: $(tail -n 1 "$logs/ensure-nodes.log")" >>"$results"
fi
# pve_start NAME: what pve-container does before lxc-start for devN:
# stat each node (die when missing), a cgroup2 rule from its numbers, the
# node made under the container's passthrough dir (0660, root through the
# idmap) and mounted at the same path.
pve_start() {
	c="$lxcpath/$1/config"
	cp "$lxcpath/$1/config.base" "$c"
	pt="$work/passthrough/$1"
	mkdir -p "$pt" && mount -t tmpfs -o mode=755 pve-passthrough "$pt" || { echo "no passthrough tmpfs"; return 1; }
	owner=0
	case $1 in *2) owner=100000 ;; esac
	while read -r p; do
		[ -c "$p" ] || [ -b "$p" ] || { echo "Device $p does not exist"; return 1; }
		t=$(stat -c %F "$p") maj=$(printf %d "0x$(stat -c %t "$p")") min=$(printf %d "0x$(stat -c %T "$p")")
		ch=c
		[ "$t" = "block special file" ] && ch=b
		echo "lxc.cgroup2.devices.allow = $ch $maj:$min rw" >>"$c"
		mkdir -p "$(dirname "$pt$p")"
		mknod -m 0660 "$pt$p" "$ch" "$maj" "$min" && chown "$owner:$owner" "$pt$p"
		echo "lxc.mount.entry = $pt$p ${p#/} none bind,create=file 0 0" >>"$c"
	done <"$lxcpath/$1/devn"
}
# start_one NAME: start, check and stop it; its line in $results.NAME.
start_one() {
	name=$1 results=$results.$1
	log="$logs/$name.lxc.log"
	why=""
	case $baseline in
	pve) why=$(pve_start "$name") ;;
	lxgpu)
		# shellcheck disable=SC2086
		"$lxgpu" $opts guard "$name" pre-start >"$logs/$name.guard" 2>&1 ||
			why="guard: $(grep -m1 'LXG0' "$logs/$name.guard" | sed 's/^ *//')" ;;
	esac
	if [ -n "$why" ]; then
		echo "$name refused: $why" >>"$results"
		return
	fi
	# LXC logs a hook's output (stdout and stderr) at DEBUG only.
	if ! lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$log" 2>"$logs/$name.start.err"; then
		why=$(sed -n 's/.* produced output: lxgpu: //p' "$log" | head -n 1)
		if [ "$baseline" = lxgpu ] && [ -n "$why" ]; then
			echo "$name refused: $why" >>"$results"
		else
			echo "$name broken start-failed:$(grep ERROR "$log" | grep -v '__lxc_start\|lxc_start -\|wait_on_daemon' | tail -n 1 | cut -d' ' -f4- | tr ' ' _)" >>"$results"
		fi
		return
	fi
	problems=""
	if ! wait_running "$lxcpath" "$name" 80; then
		problems=" not-running"
	else
		eval "want=\$want_$(echo "$name" | tr -- - _)"
		# shellcheck disable=SC2086
		out=$(lxc-attach -P "$lxcpath" -n "$name" -- /usr/local/bin/gpucheck $want 2>&1)
		for w in $out; do
			case $w in
			libcuda="$version") ;;
			libcuda=*) problems="$problems libcuda:${w#libcuda=}-want:$version" ;;
			*) problems="$problems $w" ;;
			esac
		done
		case $out in *libcuda=*) ;; *) problems="$problems check-did-not-run" ;; esac
	fi
	lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
	if [ -z "$problems" ]; then echo "$name working" >>"$results"; else echo "$name broken$problems" >>"$results"; fi
}
# The containers start side by side, as onboot containers do.
for name in $containers; do start_one "$name" & done
wait
for name in $containers; do cat "$results.$name" >>"$results" 2>/dev/null; done
BOOT

# boot BASELINE TAG [SETUP_SCRIPT]: boot the host for the baseline (the
# setup's boot with SETUP_SCRIPT: nothing is started); its containers'
# result lines land in $work/BASELINE/results.TAG.
boot() {
	b=$1 d="$work/$1"
	mkdir -p "$d/logs.$2"
	cts=$(ct_names "$b")
	{
		echo "baseline=$b layout=$layout version=$version lxcpath=$lxcpath lxgpu=$lxgpu work=$work"
		echo "procdir=$work/host/proc nodes=$work/host/boot.nodes opts=\"$(lxgpu_opts)\""
		echo "logs=$d/logs.$2 results=$d/results.$2 setup=${3:-} containers=\"$cts\""
		for n in $cts; do echo "want_$(echo "$n" | tr -- - _)=\"$(wanted_nodes "$n" | tr '\n' ' ')\""; done
	} >"$d/boot.env"
	: >"$d/results.$2"
	unshare -m --propagation private sh "$work/boot.sh" "$d/boot.env" ||
		echo "# the boot namespace could not be set up" >>"$d/results.$2"
}
# Names end in 1 (privileged) or 2 (unprivileged); the run's own number in
# front, so that two soaks can run side by side (LXC names the cgroups after
# the containers).
run_id=$(($$ % 9000 + 1000))
ct_names() { case $1 in hand) echo "$run_id-h1 $run_id-h2" ;; pve) echo "$run_id-p1 $run_id-p2" ;; lxgpu) echo "$run_id-x1 $run_id-x2" ;; esac; }

# setup TAG: every baseline set up correct for the host as it is now.
setup() {
	write_host
	for n in $(ct_names hand); do setup_hand "$n"; done
	for n in $(ct_names pve); do setup_pve "$n"; done
	{
		echo "set -e"
		echo "opts=\"$(lxgpu_opts)\" lxgpu=$lxgpu"
		for n in $(ct_names lxgpu); do setup_lxgpu "$n"; done
	} >"$work/lxgpu/setup.sh"
	boot lxgpu "setup.$1" "$work/lxgpu/setup.sh"
	if [ -s "$work/lxgpu/results.setup.$1" ]; then
		echo "bench/soak.sh: lxgpu's setup failed before event $1:" >&2
		cat "$work/lxgpu/results.setup.$1" >&2
		exit 2
	fi
}

# ---- setup: event 0, every baseline must work ----
t0=$(date +%s)
mkdir -p "$work/hand" "$work/pve" "$work/lxgpu" "$work/none" "$work/backups" "$work/pve/lxc"
for b in $baselines; do
	set -- $(ct_names "$b")
	make_container "$1" privileged && make_container "$2" unprivileged || exit 2
done
setup 0
for b in $baselines; do
	boot "$b" 0
	if grep -q '^#' "$work/$b/results.0" || ! grep -q ' working$' "$work/$b/results.0" ||
		grep -qv ' working$' "$work/$b/results.0"; then
		echo "bench/soak.sh: the $b containers do not work before any event:" >&2
		cat "$work/$b/results.0" >&2
		exit 2
	fi
done
t1=$(date +%s)

# ---- the events ----
# Kinds drawn by weight (bench/README.md), each with a number that picks
# its variant.
awk -v n="$events" -v seed="$seed" -v seq="$sequence" 'BEGIN {
	srand(seed)
	split("kernel-update 37 driver-update 20 uvm-late 18 uvm-major 12 gpu-change 6 renumber 6 cgroup-switch 1", w, " ")
	ns = split(seq, s, " ")
	if (ns) n = ns
	for (i = 1; i <= n; i++) {
		r = rand() * 100; k = ""
		for (j = 1; j < 14 && k == ""; j += 2) { r -= w[j + 1]; if (r < 0) k = w[j] }
		if (k == "") k = w[13]
		if (ns) k = s[i]
		# (the number from the high digits of two draws: the low bits of mawk
		# rand are not uniform, and the variants take it modulo small numbers)
		print k, int(rand() * 1000) * 1000 + int(rand() * 1000)
	}
}' >"$work/events"

# describe: the host in one line.
describe() {
	printf 'uvm %s, caps %s, driver %s, userspace %s, cgroup %s, kernel %s%s, GPUs' \
		"$uvm_major" "$caps_major" "$version" "$userspace" "$layout" "$kernel" \
		"$([ "$module" = 1 ] || echo ' (no nvidia module)')"
	for g in $(present); do printf ' %s=%s' "$(bdf_of "$g")" "$(minor_of "$g")"; done
}
# a new dynamic major (the kernel hands them out from 511 down).
new_major() { # OLD PARAM
	n=$((500 + $2 % 12))
	while [ "$n" = "$1" ] || [ "$n" = "$uvm_major" ] || [ "$n" = "$caps_major" ]; do n=$((n == 511 ? 500 : n + 1)); done
	echo "$n"
}
new_version() { printf '%d.%02d.%02d' $((550 + $1)) $(($2 % 90 + 10)) $(($2 % 7 + 1)); }
# a PCI bus number no present GPU has.
free_bus() { # PARAM
	x=$(($1 % 200 + 16))
	while :; do
		hx=$(printf %02x $x)
		[ "$hx" != "$bus_a" ] && [ "$hx" != "$bus_b" ] && [ "$hx" != "$bus_c" ] && break
		x=$(((x + 37) % 200 + 16))
	done
	echo "$hx"
}

i=0 total=0
: >"$work/tally"
# summary: the table per kind (with variant) and baseline, working/refused/
# broken, the line per baseline and the last line, for the events done.
summary() {
	echo "per event kind (starts: working/refused/broken):"
	awk -v bl="$baselines" 'BEGIN { nb = split(bl, b, " ") }
	{ k[$1] = 1; c[$1 " " $2 " " $3]++; n[$1]++ }
	END {
		printf "  %-26s %6s", "kind", "starts"
		for (j = 1; j <= nb; j++) printf " %12s", b[j]
		printf "\n"
		m = 0
		for (x in k) keys[++m] = x
		for (p = 1; p <= m; p++) for (q = p + 1; q <= m; q++) if (keys[q] < keys[p]) { t = keys[p]; keys[p] = keys[q]; keys[q] = t }
		for (p = 1; p <= m; p++) {
			x = keys[p]
			printf "  %-26s %6d", x, n[x] / nb
			for (j = 1; j <= nb; j++)
				printf " %12s", sprintf("%d/%d/%d", c[x " " b[j] " W"], c[x " " b[j] " R"], c[x " " b[j] " B"])
			printf "\n"
		}
	}' "$work/tally"
	for b in $baselines; do
		w=$(grep -c " $b W$" "$work/tally") r=$(grep -c " $b R$" "$work/tally") x=$(grep -c " $b B$" "$work/tally")
		echo "baseline $b: $w/$total starts working, $r refused with a reason, $x silently broken"
		eval "w_$b=$w r_$b=$r b_$b=$x"
	done
	echo "time: $((t1 - t0)) s to make the containers, $(($(date +%s) - t1)) s for the events; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "soak: $((total / 2)) events, lxgpu $w_lxgpu/$total starts working ($r_lxgpu refused safely), hand recipe $w_hand/$total starts working"
}
trap 'echo "(stopped after event $i of $events)"; summary; exit 3' TERM INT
while read -r kind param; do
	i=$((i + 1))
	setup "$i"
	variant=${kind#*/}
	[ "$variant" = "$kind" ] && variant=""
	kind=${kind%%/*}
	once="" # what lasts this boot only
	case $kind in
	kernel-update)
		kernel="6.8.12-$((i + 1))"
		[ -n "$variant" ] || case $((param % 8)) in 0) variant=dkms-failed ;; 1 | 2 | 3) variant=majors-moved ;; *) variant=same ;; esac
		case $variant in
		dkms-failed) module=0 once=module ;; # fixed (rebuilt by hand) before the next event
		majors-moved) uvm_major=$(new_major "$uvm_major" "$param") caps_major=$(new_major "$caps_major" $((param / 7))) ;;
		esac ;;
	driver-update)
		version=$(new_version "$i" "$param")
		[ -n "$variant" ] || case $((param % 4)) in 0) variant=module-first ;; *) variant=both ;; esac
		if [ "$variant" = module-first ]; then once=userspace; else userspace=$version; fi ;;
	uvm-major) uvm_major=$(new_major "$uvm_major" "$param") ;;
	uvm-late) uvm_at_boot=0 once=uvm ;;
	gpu-change)
		if [ "$present_c" = 1 ]; then
			present_c=0 variant=removed
		else
			present_c=1
			case $variant in
			added-first) bus_c=$(printf %02x $((0x$bus_a - 1 - param % 16))) ;;
			added-last) bus_c=$(printf %02x $((0x$bus_b + 1 + param % 16))) ;;
			*) bus_c=$(free_bus "$param") variant=added ;;
			esac
		fi ;;
	renumber)
		# New bus numbers for all three slots; keep-order keeps the GPUs'
		# order (so their minors), reorder reverses it.
		[ -n "$variant" ] || case $((param % 2)) in 0) variant=keep-order ;; *) variant=reorder ;; esac
		order=$(for g in a b c; do eval "echo \$bus_$g $g"; done | sort | cut -d' ' -f2 | tr '\n' ' ')
		[ "$variant" = reorder ] && order=$(echo "$order" | awk '{ for (j = NF; j > 0; j--) printf "%s ", $j }')
		bus_a=zz bus_b=zz bus_c=zz
		bus_a=$(free_bus "$param")
		bus_b=$(free_bus $((param / 3 + 101)))
		bus_c=$(free_bus $((param / 5 + 53)))
		set -- $(printf '%s\n' "$bus_a" "$bus_b" "$bus_c" | sort)
		for g in $order; do eval "bus_$g=$1"; shift; done ;;
	cgroup-switch) if [ "$layout" = v2 ]; then layout=v1; else layout=v2; fi ;;
	esac
	label=$kind${variant:+/$variant}
	write_host
	te=$(date +%s)
	# (each baseline's boot is a namespace of its own: they run side by side)
	for b in $baselines; do boot "$b" "$i" & done
	wait
	te=$(($(date +%s) - te))
	# One boot only: the module rebuilt, the uvm nodes back, the
	# upgrade's userspace in.
	case $once in module) module=1 ;; uvm) uvm_at_boot=1 ;; userspace) userspace=$version ;; esac
	line="event $i $label:"
	show=$verbose
	for b in $baselines; do
		v=""
		while read -r name verdict _; do
			# ("# ..." lines are notes: a setup or boot step that failed)
			case $name in "#"*) show=1; continue ;; esac
			case $verdict in working) x=W ;; refused:) x=R ;; *) x=B ;; esac
			v="$v${v:+,}$x"
			echo "$label $b $x" >>"$work/tally"
		done <"$work/$b/results.$i"
		[ "$b" = lxgpu ] && case $v in W,W | W,R | R,W | R,R) ;; *) show=1 ;; esac
		line="$line $b=$v"
	done
	total=$((total + 2))
	echo "$line"
	if [ "$show" = 1 ]; then
		echo "  host: $(describe) (boots and checks: $te s)"
		for b in $baselines; do sed "s/^/  $b: /" "$work/$b/results.$i"; done
	fi
done <"$work/events"

summary
[ "$b_lxgpu" -eq 0 ]
