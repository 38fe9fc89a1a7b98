#!/bin/sh
# Integration: which driver version a container has is the version of the
# library its loader resolves (issue 19, item 9), not of every file named
# libcuda.so.*. A busybox container with its own loader and ld.so.cache
# keeps a leftover libcuda.so.535.183.01 beside libcuda.so.1 ->
# libcuda.so.550.127.05 (the example host's loaded module). The expected
# values are what /probe (dlopen of the soname, the stand-in library says
# its version) prints in a chroot and inside the started container: never
# lxgpu's output. verify (stopped and running), preflight, doctor and the
# guard's post-start must agree with it.
# Usage: lxc-driver-version.sh LXGPU EXAMPLES   (TAP; root, lxc, busybox, cc, ldconfig, jq)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd)
host=$examples/pve-rtx-4090.yaml # driver 550.127.05

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the driver version integration test" lxc-create lxc-start lxc-attach lxc-stop \
	lxc-destroy lxc-info busybox cc ldconfig jq
lxc_workdir lxgpu-drvver
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
multiarch=usr/lib/x86_64-linux-gnu
name=ct
root=$lxcpath/$name/rootfs
mkdir -p "$work/pve/lxc" "$work/state"

# A stand-in LIB.so.VERSION (soname LIB.so.1) in DIR: its function says VERSION.
stub() { # LIB VERSION DIR
	mkdir -p "$3"
	printf 'const char *lxgpu_stub_version(void) { return "%s"; }\n' "$2" >"$work/stub.c"
	cc -shared -fPIC -Wl,-soname,"$1.so.1" -o "$3/$1.so.$2" "$work/stub.c"
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
	printf("%s\n", version ? version() : "no version");
	return 0;
}
PROBE
cc -o "$work/probe" "$work/probe.c" -ldl || { echo "Bail out! cc cannot build the probe"; exit 1; }

t_make() {
	lxc_sandbox_create "$name" --own-libs || return 1
	lxc_sandbox_conf >>"$conf"
	# A GPU line (verify judges the libraries of containers with GPUs),
	# optional: this machine has no NVIDIA node.
	echo 'lxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,optional,create=file' >>"$conf"
	mkdir -p "$root/$multiarch" "$root/lib64" "$root/usr/local/lib"
	echo 12.11 >"$root/etc/debian_version"
	cp /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	cp "$(cc -print-file-name=libc.so.6)" "$root/$multiarch/libc.so.6"
	printf '/usr/local/lib\n/%s\n' "$multiarch" >"$root/etc/ld.so.conf"
	cp "$work/probe" "$root/probe"
	for lib in libcuda libnvidia-ml; do
		stub $lib 535.183.01 "$root/$multiarch" && stub $lib 550.127.05 "$root/$multiarch" &&
			ln -s $lib.so.550.127.05 "$root/$multiarch/$lib.so.1" || return 1
	done
	ldconfig -r "$root"
}
check "container with libcuda.so.1 -> libcuda.so.550.127.05 and a leftover libcuda.so.535.183.01" t_make

# probe_chroot LIB VERSION / probe_inside LIB VERSION: what the loader loads.
probe_chroot() {
	got=$(chroot "$root" /probe "$1" 2>&1)
	[ "$got" = "$2" ] || { echo "chroot: the probe says '$got' for $1, expected '$2'"; return 1; }
}
probe_inside() {
	got=$(lxc-attach -P "$lxcpath" -n "$name" -- /probe "$1" 2>&1)
	[ "$got" = "$2" ] || { echo "inside: the probe says '$got' for $1, expected '$2'"; return 1; }
}
check "its loader resolves libcuda.so.1 to 550.127.05 (chroot)" probe_chroot libcuda.so.1 550.127.05
check "its loader resolves libnvidia-ml.so.1 to 550.127.05 (chroot)" probe_chroot libnvidia-ml.so.1 550.127.05

lx() { "$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$lxcpath" --state-dir "$work/state" "$@"; }
# codes CMD...: the finding codes of a JSON verify or doctor (exit status
# as its findings say, one JSON document; fails otherwise).
codes() {
	lx_json sev "$work/codes.json" lx "$@" --format json >&2 || return 1
	jq -r '[.. | objects | .code? // empty] | unique | .[]' "$work/codes.json" | tr '\n' ' '
}
no_lxg011() {
	got=$(codes "$@") || return 1
	case " $got " in *" LXG011 "*) echo "$*: $got"; lx "$@" 2>&1 | grep -A2 LXG011; return 1 ;; esac
}
has_lxg011() { # VERSION CMD...
	v=$1
	shift
	out=$(lx "$@" 2>&1)
	echo "$out" | grep -q "LXG011" && echo "$out" | grep -q "driver libraries $v" ||
		{ echo "$*: no LXG011 for $v"; echo "$out"; return 1; }
}
preflight_clean() {
	out=$(lx preflight "$name" 2>&1)
	! echo "$out" | grep -q "version mismatch" || { echo "$out"; return 1; }
}
preflight_mismatch() {
	out=$(lx preflight "$name" 2>&1)
	echo "$out" | grep -q "driver libraries are $1, the loaded module is 550.127.05" || { echo "$out"; return 1; }
}
check "verify (stopped): no LXG011 for the leftover file" no_lxg011 verify "$name"
check "preflight (stopped): no version mismatch" preflight_clean
check "doctor (stopped): no LXG011" no_lxg011 doctor "$name"

t_start() {
	lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$work/$name.log" || return 1
	lxc-wait -P "$lxcpath" -n "$name" -s RUNNING -t 10
}
check "the container starts" t_start
check "inside, libcuda.so.1 is 550.127.05" probe_inside libcuda.so.1 550.127.05
check "verify (running): no LXG011" no_lxg011 verify "$name"
t_guard() {
	out=$(lx guard "$name" post-start 2>&1)
	! echo "$out" | grep -q LXG011 || { echo "$out"; return 1; }
}
check "guard post-start: no LXG011" t_guard

# The container's own 535 where its loader looks first: /usr/local/lib
# comes first in its ld.so.conf, so its cache names that copy.
t_local_first() {
	stub libcuda 535.183.01 "$root/usr/local/lib" &&
		ln -s libcuda.so.535.183.01 "$root/usr/local/lib/libcuda.so.1" && ldconfig -r "$root"
}
check "a libcuda.so.1 -> libcuda.so.535.183.01 in /usr/local/lib (first in its ld.so.conf)" t_local_first
check "inside, libcuda.so.1 is now 535.183.01" probe_inside libcuda.so.1 535.183.01
check "verify (running): LXG011 for 535.183.01" has_lxg011 535.183.01 verify "$name"
lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
check "verify (stopped): LXG011 for 535.183.01" has_lxg011 535.183.01 verify "$name"
check "preflight (stopped): the mismatch of 535.183.01" preflight_mismatch 535.183.01

# The link repointed without a new cache: the cache names the link, the
# link says which file.
t_repoint() {
	rm -rf "$root/usr/local/lib/libcuda.so"* && ldconfig -r "$root" &&
		ln -sf libcuda.so.535.183.01 "$root/$multiarch/libcuda.so.1"
}
check "libcuda.so.1 in its library dir repointed to the leftover 535.183.01" t_repoint
check "its loader resolves libcuda.so.1 to 535.183.01 (chroot)" probe_chroot libcuda.so.1 535.183.01
check "verify (stopped): LXG011 for 535.183.01" has_lxg011 535.183.01 verify "$name"

# A link out of the root is resolved inside it, as the loader inside sees it.
t_abs_link() {
	ln -sf "/$multiarch/libcuda.so.550.127.05" "$root/$multiarch/libcuda.so.1" &&
		probe_chroot libcuda.so.1 550.127.05
}
check "an absolute link libcuda.so.1 -> /$multiarch/libcuda.so.550.127.05 (chroot: 550.127.05)" t_abs_link
check "verify (stopped): no LXG011 (the link is followed inside the root)" no_lxg011 verify "$name"
t_host_link() {
	stub libcuda 999.1 "$work/host" &&
		ln -sf "$work/host/libcuda.so.999.1" "$root/$multiarch/libcuda.so.1" &&
		chroot "$root" /probe libcuda.so.1 | grep -q "dlopen failed"
}
check "libcuda.so.1 -> a host file of 999.1 (chroot: nothing loads)" t_host_link
t_no_host_version() {
	out=$(lx verify "$name" 2>&1)
	! echo "$out" | grep -q "999.1" || { echo "$out"; return 1; }
}
check "verify (stopped): never the host file's 999.1" t_no_host_version

tap_finish
