#!/bin/sh
# Integration: `lxgpu hook` under containers whose roots attack it, in real
# LXC, privileged and unprivileged. At lxc.hook.mount time the container's
# /proc is mounted in its root while its PID 1 has not pivoted, so
# ROOT/proc/1/root is the host's /: a host-root program that follows the
# container's links there writes on the host (an earlier hook's chrooted
# ldconfig wrote ld.so.cache into a host directory that way). Each case:
# the hook refuses or succeeds as designed, within its time limit, and a
# host scratch directory and the host's /etc/ld.so.cache are as they were.
# Then what the hook leaves in a root: the container's own files are
# shadowed, not changed, and what it had to make is taken back at the next
# start.
# Usage: lxc-hook-attacks.sh LXGPU   (TAP; needs root, lxc, busybox, cc)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

. "$(dirname "$0")/../lib/lxc-env.sh"
# its unprivileged containers map 100000:65536 (lxc_unprivileged)
lxc_own_subids 100000:65536 -- "$0" "$@"
lxc_require "the hook attack test" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy \
	lxc-info busybox cc ldconfig mkfifo mknod
lxc_workdir lxgpu-hook-attacks
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/hook-env.sh"

check "driver 595.10 on the made-up host" set_driver 595.10

# The host scratch directory the attacks aim at: a directory with an
# ld.so.conf (so an ldconfig led there has what it reads) and a library
# whose name must never reach a container's loader cache.
host=$work/host
mkdir -p "$host/etc" "$host/lib"
echo "/lib" >"$host/etc/ld.so.conf"
printf 'int lxgpu_canary(void) { return 1; }\n' >"$work/canary.c"
cc -shared -fPIC -Wl,-soname,libhostcanary.so.1 -o "$host/lib/libhostcanary.so.1" "$work/canary.c" ||
	{ echo "Bail out! cc cannot build the canary"; exit 1; }
listing() { (cd "$host" && find . -printf '%p %y %s %m %u %T@\n' | sort); }
listing >"$work/host.before"
cp /etc/ld.so.cache "$work/host-ld.so.cache"
host_intact() {
	listing >"$work/host.after"
	diff "$work/host.before" "$work/host.after" || { echo "the host scratch dir changed"; return 1; }
	cmp -s /etc/ld.so.cache "$work/host-ld.so.cache" || { echo "the host's /etc/ld.so.cache changed"; return 1; }
	! grep -q "$work/host" /proc/self/mountinfo || { echo "a mount on the host scratch dir"; return 1; }
}

# refused NAME PATTERN: the start fails, because the hook said PATTERN, in
# under 30 s (the hook's own limit is 10 s).
refused() {
	t0=$(date +%s)
	# A hook that hangs hangs the start: 60 s, then it counts as a failure.
	if timeout 60 lxc-start -P "$lxcpath" -n "$1" -l DEBUG -o "$work/$1.log" 2>/dev/null &&
		lxc-wait -P "$lxcpath" -n "$1" -s RUNNING -t 10; then
		echo "$1 started"
		stop_ct "$1"
		return 1
	fi
	t1=$(date +%s)
	[ $((t1 - t0)) -lt 30 ] || { echo "the refusal took $((t1 - t0)) s"; return 1; }
	grep -q -- "$2" "$work/$1.log" || { echo "the log lacks '$2':"; grep -i lxgpu "$work/$1.log"; return 1; }
}

# attack NAME privileged|unprivileged SETUP PATTERN: a container set up by
# SETUP (run with $root its rootfs), refused with PATTERN, the host intact.
attack() {
	name=$1 mode=$2 setup=$3 pattern=$4
	t_setup() { make_ct "$name" "$mode" debian && root=$lxcpath/$name/rootfs && "$setup" && finish_attack "$name" "$mode"; }
	check "$name ($mode): set up" t_setup
	check "$name ($mode): the start is refused ($pattern)" refused "$name" "$pattern"
	check "$name ($mode): the host is as it was" host_intact
}
# finish_ct without its ldconfig: the roots here are broken on purpose.
finish_attack() { [ "$2" = unprivileged ] && lxc_unprivileged "$1"; return 0; }

# etc is a link through the container's /proc to a host directory.
s_etc_proc() { rm -rf "$root/etc" && ln -s "/proc/1/root$host/etc" "$root/etc"; }
# ld.so.conf is a FIFO: an ldconfig reading it blocks for ever.
s_fifo() { rm -f "$root/etc/ld.so.conf" && mkfifo "$root/etc/ld.so.conf"; }
# ld.so.conf leads to the host's /dev/zero: an ldconfig reading it grows without end.
s_zero() { rm -f "$root/etc/ld.so.conf" && ln -s /proc/1/root/dev/zero "$root/etc/ld.so.conf"; }
# ld.so.conf.d entries that are no files.
s_confd_dir() { mkdir -p "$root/etc/ld.so.conf.d/evil.conf"; }
s_confd_dev() { mkdir -p "$root/etc/ld.so.conf.d" && mknod "$root/etc/ld.so.conf.d/zero.conf" c 1 5; }
# An include elsewhere that is a FIFO: only the wall clock stops it.
s_include_fifo() {
	mkdir -p "$root/var" && mkfifo "$root/var/more.conf" &&
		printf 'include /var/more.conf\n/%s\n' "$multiarch" >"$root/etc/ld.so.conf"
}
for mode in privileged unprivileged; do
	m=$(echo "$mode" | cut -c1)
	attack "$m-etc" "$mode" s_etc_proc "refusing to run ldconfig"
	attack "$m-fifo" "$mode" s_fifo "ld.so.conf is not a regular file"
	attack "$m-zero" "$mode" s_zero "refusing to run ldconfig"
	attack "$m-confd-dir" "$mode" s_confd_dir "evil.conf is not a regular file"
	attack "$m-confd-dev" "$mode" s_confd_dev "zero.conf is not a regular file"
	attack "$m-incfifo" "$mode" s_include_fifo "did not finish within 10 s"
done

# The confinement itself, past those checks: a library dir in ld.so.conf
# that leads through /proc to the host's. ldconfig -X only reads there, but
# an ldconfig that can follow it puts the host's libhostcanary.so.1 into the
# container's cache; confined, /proc is not there and the link leads
# nowhere. The start succeeds.
for mode in privileged unprivileged; do
	name=$(echo "$mode" | cut -c1)-hostlib
	t_make() {
		make_ct "$name" "$mode" debian || return 1
		root=$lxcpath/$name/rootfs
		ln -s "/proc/1/root$host/lib" "$root/hostlib"
		printf '/hostlib\n/%s\n' "$multiarch" >"$root/etc/ld.so.conf"
		finish_ct "$name" "$mode"
	}
	check "$name ($mode): ld.so.conf lists a dir that leads through /proc to the host's" t_make
	check "$name ($mode): it starts" start_ct "$name"
	check "$name ($mode): libcuda.so.1 inside is the host's 595.10" probe_is "$name" 595.10
	t_no_canary() { ! grep -q hostcanary "$lxcpath/$name/rootfs/etc/ld.so.cache"; }
	check "$name ($mode): the host's library is not in its loader cache" t_no_canary
	check "$name ($mode): the host is as it was" host_intact
	stop_ct "$name"
done

# What a start leaves behind. sp: its own driver 470.57 (the package's
# soname link and dev link). After a start with the hook and a stop, its
# library dir is as it was, its links too; with the hook line removed its
# loader finds its own 470.57 again.
# (a directory's size is the file system's bookkeeping: on tmpfs it counts
# entries, the hook's marker among them)
lib_listing() { (cd "$1" && find . -path ./proc -prune -o -type d -printf '%p %y\n' -o -printf '%p %y %s %l\n' | grep -v '^\./proc' | sort); }
t_make_sp() {
	make_ct sp privileged debian || return 1
	root=$lxcpath/sp/rootfs
	stub 470.57 "$root/$multiarch" && ln -s libcuda.so.470.57 "$root/$multiarch/libcuda.so.1" &&
		ln -s libcuda.so.470.57 "$root/$multiarch/libcuda.so" && finish_ct sp privileged &&
		lib_listing "$root/$multiarch" >"$work/sp.before"
}
check "sp: a container with its own libcuda 470.57" t_make_sp
check "sp: it starts with the hook" start_ct sp
check "sp: inside, libcuda.so.1 is the host's 595.10" probe_is sp 595.10
stop_ct sp
t_sp_same() {
	lib_listing "$lxcpath/sp/rootfs/$multiarch" | grep -v 'lxgpu-hook-made' >"$work/sp.after"
	diff "$work/sp.before" "$work/sp.after"
}
check "sp: after the stop its library dir and links are as they were" t_sp_same
t_sp_unhooked() {
	sed -i '/^lxc.hook.mount/d' "$lxcpath/sp/config"
	start_ct sp && probe_is sp 470.57
}
check "sp: with the hook line removed its own 470.57 loads" t_sp_unhooked
stop_ct sp

# su: unprivileged, no driver of its own: the hook makes the mount targets
# and libcuda.so.1; at the next start, one that hook --optional lets go on
# without a driver, they are taken back.
# The empty files under a root's /usr, where the hook places files (the
# template and the container's init make their own elsewhere).
empties() { find "$1/usr" -type f -empty -print; }
t_make_su() {
	make_ct su unprivileged other && finish_ct su unprivileged &&
		empties "$lxcpath/su/rootfs" | sort >"$work/su.empties"
}
check "su: an unprivileged container without a driver" t_make_su
check "su: it starts with the hook" start_ct su
check "su: inside, libcuda.so.1 is the host's 595.10" probe_is su 595.10
stop_ct su
t_su_optional() {
	sed -i "s|^lxc.hook.mount = .*|$(hook_line --optional)|" "$lxcpath/su/config"
	mv "$proc/driver/nvidia/version" "$work/version.off"
	start_ct su
}
check "su: the module unloaded, it starts with hook --optional" t_su_optional
t_su_clean() {
	root=$lxcpath/su/rootfs
	empties "$root" | sort | diff "$work/su.empties" - || { echo "empty files left (+)"; return 1; }
	[ ! -e "$root/usr/lib64/libcuda.so.1" ] && [ ! -L "$root/usr/lib64/libcuda.so.1" ] ||
		{ ls -la "$root/usr/lib64"; return 1; }
	[ ! -e "$root/usr/lib64/.lxgpu-hook-made" ]
}
check "su: no empty file, no libcuda.so.1, no list left in its root" t_su_clean
stop_ct su
mv "$work/version.off" "$proc/driver/nvidia/version"

# The hook reads the list the last start left (LIBDIR/.lxgpu-hook-made):
# root in a privileged container plants a character device there instead
# (1:3, /dev/null's driver; 1:11 /dev/kmsg would be as easy). The hook runs
# under strace: it looks at the path with O_PATH only, never opens it, says
# it is not its list, and the start goes on (the list is what undoes a last
# start; no list, nothing to undo). LeakSanitizer cannot run under ptrace:
# a sanitizer build's hook checks no leaks here.
t_make_dev() {
	make_ct pdev privileged debian && finish_ct pdev privileged &&
		mknod "$lxcpath/pdev/rootfs/$multiarch/.lxgpu-hook-made" c 1 3 &&
		sed -i "s|^lxc.hook.mount = |lxc.hook.mount = $(command -v strace) -f -qq -y -e trace=open,openat,openat2 -o $work/pdev.trace -E ASAN_OPTIONS=detect_leaks=0 |" \
			"$lxcpath/pdev/config" && grep -q "^lxc.hook.mount = .*strace" "$lxcpath/pdev/config"
}
t_dev_not_opened() {
	bad=$(grep -v O_PATH "$work/pdev.trace" | grep -F -e '".lxgpu-hook-made"' -e "$multiarch/.lxgpu-hook-made>")
	[ -z "$bad" ] || { echo "opened for real:"; echo "$bad"; return 1; }
	grep -F '".lxgpu-hook-made"' "$work/pdev.trace" | grep -q O_PATH ||
		{ echo "strace saw no look at .lxgpu-hook-made"; grep -c . "$work/pdev.trace"; return 1; }
	grep -q '\.lxgpu-hook-made in the container is not the list the hook writes' "$work/pdev.log" ||
		{ echo "the log does not name it:"; grep -i lxgpu "$work/pdev.log"; return 1; }
}
if command -v strace >/dev/null; then
	check "pdev: a device node as the hook's list (privileged)" t_make_dev
	check "pdev: it starts (the hook under strace)" start_ct pdev
	check "pdev: the hook never opened the device node, and said so (strace)" t_dev_not_opened
	check "pdev: inside, libcuda.so.1 is the host's 595.10" probe_is pdev 595.10
	stop_ct pdev
else
	skip "pdev: a device node as the hook's list is never opened" "needs strace"
fi

tap_finish
