#!/bin/sh
# Every file lxgpu reads from a container's root, planted as something else:
# a character device (1:3, /dev/null's driver), a FIFO, and a link to a file
# of the host outside the root. For each, the command that reads it (the
# hook, generate, verify, doctor on a stopped container) must not open it:
# strace's record of the opens is the oracle. The path may be looked at with
# O_PATH only; nothing opens it without O_PATH, no fd reopened through
# /proc/self/fd leads to it (strace -y names the file an fd is), and no fd
# leads to the host's file. A FIFO opened would block: each run has 60 s,
# and one that hangs fails. Where lxgpu says something about the file, it
# names it; what it cannot read it treats as absent or unreadable.
#   etc/group                               generate CTID, verify CTID (the
#                                           DRM gids)
#   etc/ld.so.cache                         verify CTID, doctor CTID (the
#                                           driver copy in the root)
#   etc/nvidia-container-runtime/config.toml  doctor CTID (LXG130/LXG131)
#   LIBDIR/.lxgpu-hook-made                 hook (what the last start made)
# Usage: run-root-files.sh LXGPU EXAMPLES STORAGE_DIR   (TAP; root, strace)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd) data=$(cd "$3" && pwd)
. "$(dirname "$0")/../lib/tap.sh"
if [ "$(id -u)" != 0 ] || ! command -v strace >/dev/null; then
	skip "files planted in a container's root are never opened" "needs root (mknod) and strace"
	tap_finish
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pve=$work/pve lxcp=$work/lxc
mkdir -p "$pve/lxc" "$lxcp" "$work/outside" "$work/noproc"
sed "s|/LXGPU-WORK|$work|g" "$data/storage.cfg" >"$pve/storage.cfg"
: >"$work/kmsg"
multiarch=usr/lib/x86_64-linux-gnu

# ct ID LINES...: a stopped unprivileged Proxmox container on local-zfs with
# a Debian root: its /etc/group, a loader cache, NVIDIA's toolkit, the list
# a start with the hook left.
ct() {
	id=$1
	shift
	root=$work/zfs/data/subvol-$id-disk-0
	rm -rf "$root" && mkdir -p "$root/etc/nvidia-container-runtime" "$root/usr/bin" "$root/$multiarch" || return 1
	echo 12.11 >"$root/etc/debian_version"
	printf 'root:x:0:\nvideo:x:44:\nrender:x:104:\n' >"$root/etc/group"
	ldconfig -C "$root/etc/ld.so.cache" -r "$root" 2>/dev/null || : >"$root/etc/ld.so.cache"
	printf '#!/bin/sh\n' >"$root/usr/bin/nvidia-container-runtime-hook"
	chmod 755 "$root/usr/bin/nvidia-container-runtime-hook"
	printf '[nvidia-container-cli]\nno-cgroups = true\n' >"$root/etc/nvidia-container-runtime/config.toml"
	printf 'file /%s/libcuda.so.1\n' "$multiarch" >"$root/$multiarch/.lxgpu-hook-made"
	printf 'arch: amd64\nhostname: ct%s\nostype: debian\nrootfs: local-zfs:subvol-%s-disk-0,size=8G\nunprivileged: 1\n' \
		"$id" "$id" >"$pve/lxc/$id.conf"
	for l in "$@"; do printf '%s\n' "$l" >>"$pve/lxc/$id.conf"; done
}

# plant KIND REL: REL in $root replaced by a char device, a FIFO or a link
# to $work/outside/FILE (a host file with the same kind of content).
plant() {
	target=$root/$2
	cp "$target" "$work/outside/$(basename "$2")" && rm -f "$target" || return 1
	case $1 in
	device) mknod "$target" c 1 3 ;;
	fifo) mkfifo "$target" ;;
	link) ln -s "$work/outside/$(basename "$2")" "$target" ;;
	esac
}

# run HOST CMD...: lxgpu CMD under strace (its opens in $work/trace, its
# output in $work/out), at most 60 s; $rc its exit status. (An ASan build's
# leak check cannot run under ptrace: it is off here.)
run() {
	host=$1
	shift
	timeout 60 strace -f -qq -y -e trace=open,openat,openat2 -o "$work/trace" \
		env LXC_ROOTFS_MOUNT="$root" LXC_NAME="$id" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$lxgpu" --host "$examples/$host.yaml" --pve-dir "$pve" --lxc-path "$lxcp" \
		--cgroup-root "$work" --state-dir "$work/state" --proc-dir "$work/noproc" "$@" >"$work/out" 2>&1
	rc=$?
}

# never_opened REL: strace saw REL looked at (O_PATH), and no open without
# O_PATH names it (by its path in the root, its path on the host, or the
# file an fd returned is), nor the host file its link names.
never_opened() {
	name=$(basename "$1")
	bad=$(grep -v O_PATH "$work/trace" | grep -F -e "\"$1\"" -e "\"$name\"" -e "$root/$1" -e "$work/outside/")
	[ -z "$bad" ] || { echo "opened for real:"; echo "$bad"; return 1; }
	grep -F -e "\"$1\"" -e "\"$name\"" "$work/trace" | grep -q O_PATH ||
		{ echo "strace saw no look at $1:"; cat "$work/trace"; return 1; }
}

# case KIND REL WANT_RC WORDS HOST CMD...: REL planted as KIND, CMD exits
# WANT_RC (a list: "0 1"), opens nothing of it, and its output has WORDS
# (a grep -E pattern; "" when lxgpu says nothing of that file).
case_() {
	kind=$1 rel=$2 want=$3 words=$4
	shift 4
	ct 801 'dev0: /dev/nvidia0' 'dev1: /dev/nvidiactl' 'dev2: /dev/dri/renderD128' && plant "$kind" "$rel" || return 1
	run "$@"
	[ "$rc" != 124 ] || { echo "it hung (killed after 60 s)"; return 1; }
	case " $want " in *" $rc "*) ;; *) echo "exit status $rc, want one of: $want"; cat "$work/out"; return 1 ;; esac
	never_opened "$rel" || return 1
	[ -z "$words" ] || grep -Eq -- "$words" "$work/out" || { echo "the output does not name it ($words):"; cat "$work/out"; return 1; }
}

for kind in device fifo link; do
	check "etc/group as a $kind: generate does not open it, says the group is unknown" \
		case_ "$kind" etc/group "0" "/etc/group cannot be read|/etc/group has no" pve-intel-igpu generate 801
	check "etc/group as a $kind: verify does not open it" \
		case_ "$kind" etc/group "0 1" "" pve-intel-igpu verify 801
	check "etc/ld.so.cache as a $kind: verify does not open it" \
		case_ "$kind" etc/ld.so.cache "0 1" "" pve-rtx-4090 verify 801
	check "etc/ld.so.cache as a $kind: doctor does not open it" \
		case_ "$kind" etc/ld.so.cache "0 1" "" pve-rtx-4090 --kmsg "$work/kmsg" doctor 801
	check "config.toml as a $kind: doctor does not open it, names it" \
		case_ "$kind" etc/nvidia-container-runtime/config.toml "0 1" "/etc/nvidia-container-runtime/config.toml" \
		pve-rtx-4090 --kmsg "$work/kmsg" doctor 801
	check ".lxgpu-hook-made as a $kind: the hook does not open it, names it" \
		case_ "$kind" "$multiarch/.lxgpu-hook-made" "0" "\.lxgpu-hook-made" pve-rtx-4090 hook --optional
done
tap_finish
