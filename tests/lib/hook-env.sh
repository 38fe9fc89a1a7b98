# Shared setup of the tests of `lxgpu hook` in real LXC containers
# (tests/integration/lxc-hook*.sh), sourced after lxc-env.sh's lxc_workdir
# and tap.sh, with $lxgpu set: a made-up driver root whose stand-in
# libcuda.so.1 returns its version, a made-up --proc-dir naming the loaded
# version, a /probe that dlopen()s libcuda.so.1 inside a container and
# prints what the library says, and busybox containers with their own
# loader and the hook line.
driver=$work/driver
proc=$work/proc
multiarch=usr/lib/x86_64-linux-gnu

# A stand-in libcuda.so.VERSION (soname libcuda.so.1) in DIR.
stub() {
	mkdir -p "$2"
	printf 'const char *lxgpu_stub_version(void) { return "%s"; }\n' "$1" >"$work/stub-$1.c"
	cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$2/libcuda.so.$1" "$work/stub-$1.c"
}

# The host after installing driver VERSION and loading its module: the old
# version's files gone, the new ones in place, the driver root's loader
# cache rebuilt, the version file of the loaded module.
set_driver() {
	rm -f "$driver/$multiarch"/libcuda.so*
	stub "$1" "$driver/$multiarch" || return 1
	ln -sf "libcuda.so.$1" "$driver/$multiarch/libcuda.so.1"
	mkdir -p "$driver/usr/bin" "$driver/etc" "$proc/driver/nvidia"
	printf '#!/bin/sh\necho "nvidia-smi %s"\n' "$1" >"$driver/usr/bin/nvidia-smi"
	chmod 755 "$driver/usr/bin/nvidia-smi"
	echo "/$multiarch" >"$driver/etc/ld.so.conf"
	ldconfig -r "$driver" || return 1
	set_loaded "$1"
}
set_loaded() {
	# The rest of the made-up /proc verify's scan reads: this machine's.
	for f in devices modules cmdline; do [ -e "$proc/$f" ] || cat "/proc/$f" >"$proc/$f"; done
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  %s  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Tue Jan  6 00:00:00 UTC 2026\n' \
		"$1" >"$proc/driver/nvidia/version"
}

cat >"$work/probe.c" <<'PROBE'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argc > 1 ? argv[1] : "libcuda.so.1", RTLD_NOW);
	if (!h) {
		printf("dlopen failed: %s\n", dlerror());
		return 1;
	}
	const char *(*version)(void) = (const char *(*)(void))dlsym(h, "lxgpu_stub_version");
	if (!version) {
		printf("no lxgpu_stub_version in libcuda.so.1\n");
		return 1;
	}
	printf("%s\n", version());
	return 0;
}
PROBE
cc -o "$work/probe" "$work/probe.c" || { echo "Bail out! cc cannot build the probe"; exit 1; }

hook_line() { echo "lxc.hook.mount = $lxgpu --driver-root $driver --proc-dir $proc hook $*"; }

# make_ct NAME privileged|unprivileged debian|other: a busybox container
# without the template's binds of the host's library dirs, with its own
# loader in the library dir its distribution uses, and the hook.
make_ct() {
	name=$1 root=$lxcpath/$1/rootfs
	lxc_sandbox_create "$name" --own-libs || return 1
	{ lxc_sandbox_conf; hook_line; } >>"$conf"
	if [ "$3" = debian ]; then
		libdir=$multiarch
		echo 12.11 >"$root/etc/debian_version"
	else
		libdir=usr/lib64
	fi
	mkdir -p "$root/$libdir" "$root/lib64" "$root/usr/local/lib"
	cp /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	cp "$(cc -print-file-name=libc.so.6)" "$root/$libdir/libc.so.6"
	printf '/usr/local/lib\n/%s\n' "$libdir" >"$root/etc/ld.so.conf"
	cp "$work/probe" "$root/probe"
}

# After the rootfs is filled: its own loader cache, then (unprivileged) the
# map and the owners shifted into it.
finish_ct() {
	ldconfig -r "$lxcpath/$1/rootfs" || return 1
	if [ "$2" = unprivileged ]; then
		lxc_unprivileged "$1"
	fi
}

start_ct() {
	lxc-start -P "$lxcpath" -n "$1" -l DEBUG -o "$work/$1.log" &&
		lxc-wait -P "$lxcpath" -n "$1" -s RUNNING -t 10 && return 0
	# why it did not start: LXC's errors and what the hooks said
	grep -v -e ' DEBUG  ' -e ' INFO  ' -e ' TRACE  ' -e '^$' "$work/$1.log" | tail -n 15
	return 1
}
stop_ct() { lxc-stop -P "$lxcpath" -n "$1" -k >/dev/null 2>&1; }
in_ct() { ct=$1; shift; lxc-attach -P "$lxcpath" -n "$ct" -- "$@"; }
# probe_is NAME VERSION: dlopen inside reports VERSION.
probe_is() {
	got=$(in_ct "$1" /probe 2>&1)
	[ "$got" = "$2" ] || { echo "$1: the probe inside says '$got', expected '$2'"; return 1; }
}
