#!/bin/sh
# Integration: `lxgpu hook` as lxc.hook.mount in real LXC containers,
# privileged and unprivileged (lxc.idmap, started as root). A made-up driver
# root holds a stand-in libcuda.so.1 per made-up driver version (built here
# with cc: a shared library whose function returns its version) and a
# stand-in nvidia-smi; a made-up --proc-dir names the loaded version. Each
# container has a loader (the host's ld.so and libc copied in, its own
# ld.so.cache) and /probe, which dlopen()s libcuda.so.1 and prints what the
# library says: the expected values are what the loader inside really
# loads, never lxgpu's output.
# Usage: lxc-hook.sh LXGPU   (TAP output; needs root, lxc, busybox, cc)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

. "$(dirname "$0")/../lib/lxc-env.sh"
# its unprivileged containers map 100000:65536 (lxc_unprivileged)
lxc_own_subids 100000:65536 -- "$0" "$@"
lxc_require "the hook integration test" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy \
	lxc-info busybox cc ldconfig python3
lxc_workdir lxgpu-hook
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

. "$(dirname "$0")/../lib/hook-env.sh"

check "driver 595.10 on the made-up host (driver root with its ld.so.cache)" set_driver 595.10
(cd "$driver" && find . -type f -exec md5sum {} +) >"$work/driver.md5"

# p: privileged, Debian-like, with its own older driver installed the way a
# package does it (libcuda.so.470.57 and its soname link), a newer-named
# copy without a link (what an unpacked .run leaves), and a copy in
# /usr/local/lib, which its ld.so.conf lists first.
t_make_p() {
	make_ct p privileged debian || return 1
	root=$lxcpath/p/rootfs
	stub 470.57 "$root/$multiarch" && ln -s libcuda.so.470.57 "$root/$multiarch/libcuda.so.1" &&
		ln -s libcuda.so.470.57 "$root/$multiarch/libcuda.so" &&
		stub 999.1 "$root/$multiarch" && stub 470.57 "$root/usr/local/lib" &&
		ln -s libcuda.so.470.57 "$root/usr/local/lib/libcuda.so.1" && finish_ct p privileged &&
		chroot "$root" /probe | grep -qx 470.57
}
check "privileged Debian-like container with its own libcuda 470.57 (its loader alone finds 470.57)" t_make_p

t_make_u() { make_ct u unprivileged other && finish_ct u unprivileged; }
check "unprivileged container (lxc.idmap, /usr/lib64 distribution), no driver of its own" t_make_u

check "privileged container starts with the hook" start_ct p
check "privileged: libcuda.so.1 inside is the host's 595.10 (its own 470.57 and 999.1 shadowed)" probe_is p 595.10
t_dev_link() {
	got=$(in_ct p /probe libcuda.so 2>&1)
	[ "$got" = 595.10 ] || { echo "dlopen(\"libcuda.so\") inside says '$got'"; return 1; }
}
check "privileged: dlopen(\"libcuda.so\") (its own link to its 470.57) is the host's 595.10 too" t_dev_link
check "unprivileged container starts with the hook" start_ct u
check "unprivileged: libcuda.so.1 inside is the host's 595.10" probe_is u 595.10
t_smi() { [ "$(in_ct "$1" /usr/bin/nvidia-smi)" = "nvidia-smi $2" ]; }
check "the host's nvidia-smi runs inside (privileged)" t_smi p 595.10
check "the host's nvidia-smi runs inside (unprivileged)" t_smi u 595.10
# Through the soname: the host file (in p over its own 470.57, in u on the
# target the hook made) is what the loader opens.
t_ro() { ! in_ct "$1" sh -c "echo x >>/$2/libcuda.so.1" 2>/dev/null; }
check "the host's library is read-only inside (privileged)" t_ro p "$multiarch"
check "the host's library is read-only inside (unprivileged)" t_ro u usr/lib64
t_host_intact() { (cd "$driver" && md5sum -c --quiet "$work/driver.md5"); }
check "the host's driver files are unchanged" t_host_intact

# A driver update: new files and a new loaded version, then restarts.
stop_ct p
stop_ct u
check "driver update to 600.3 (595.10's files removed)" set_driver 600.3
check "privileged container restarts" start_ct p
check "privileged after the update: 600.3" probe_is p 600.3
# LXC's hook calling convention 1: no arguments, LXC_HOOK_* in the environment.
echo 'lxc.hook.version = 1' >>"$lxcpath/u/config"
t_start_v1() {
	start_ct u || return 1
	# LXC logs the section only for version 0 (utils.c run_script_argv).
	grep 'Executing script' "$work/u.log" | tail -1 | grep -qv 'config section'
}
check "unprivileged container restarts (lxc.hook.version = 1)" t_start_v1
check "unprivileged after the update: 600.3" probe_is u 600.3
check "nvidia-smi after the update (unprivileged)" t_smi u 600.3

# Loaded module without userspace of its version: the start is refused.
stop_ct p
set_loaded 610.7
t_refused() {
	if start_ct p 2>/dev/null; then
		echo "the container started although the host has no userspace of 610.7"
		return 1
	fi
	grep -q 'mount hook' "$work/p.log"
}
check "loaded 610.7 with no userspace of it: LXC refuses the start (hook exits non-zero)" t_refused
t_optional() {
	sed -i "s|^lxc.hook.mount = .*|$(hook_line --optional)|" "$lxcpath/p/config"
	start_ct p && [ "$(lxc-info -P "$lxcpath" -n p -s -H)" = RUNNING ]
}
check "the same with 'hook --optional': the start goes on" t_optional
stop_ct p

# verify's view of the hook line, against what the starts above did.
codes() { # CT: verify's codes (exit status as its findings say, one JSON document; else "FAILED")
	lx_json sev "$work/codes.json" "$lxgpu" --proc-dir "$proc" --lxc-path "$lxcpath" verify "$1" --format json >&2 ||
		{ echo FAILED; return 1; }
	codes_in "$work/codes.json"
}
t_verify_optional() { case " $(codes p) " in *" LXG046 "*) ;; *) "$lxgpu" --proc-dir "$proc" --lxc-path "$lxcpath" verify p --format json; return 1 ;; esac; }
check "verify: the --optional hook with no userspace of 610.7 is LXG046" t_verify_optional
set_loaded 600.3
sed -i "s|^lxc.hook.mount = .*|$(hook_line)|" "$lxcpath/p/config"
t_verify_clean() { case " $(codes p) " in *" LXG04"[5-7]" "* | *" FAILED "*) echo "codes: $(codes p)"; return 1 ;; esac; }
check "verify: the hook with the loaded version's userspace gives no hook finding" t_verify_clean
t_missing_binary() {
	sed -i "s|^lxc.hook.mount = $lxgpu |lxc.hook.mount = $work/gone/lxgpu |" "$lxcpath/p/config"
	if start_ct p 2>/dev/null; then
		echo "started although the hook binary is not there"
		return 1
	fi
	case " $(codes p) " in *" LXG045 "*) ;; *) echo "codes: $(codes p)"; return 1 ;; esac
}
check "a hook line whose binary is gone: LXC fails the start, verify says LXG045" t_missing_binary
sed -i "s|^lxc.hook.mount = .*|$(hook_line)|" "$lxcpath/p/config"

# An untrusted root: links at the mount targets that point at host paths.
# e: its library dir is an absolute link to a host directory, its soname
# link points at a host file, its /usr/bin/nvidia-smi is a link to a host
# file. Inside the container these resolve inside its root, so that is
# where the files must go; the host paths must stay as they are.
mkdir -p "$work/host-libdir" "$work/host-bin"
echo canary >"$work/host-libdir/canary"
echo victim >"$work/host-victim"
cp /etc/ld.so.cache "$work/host-ld.so.cache"
t_make_e() {
	make_ct e privileged debian || return 1
	root=$lxcpath/e/rootfs
	# The loader inside finds its libc through the link, inside the root.
	mkdir -p "$root$work/host-libdir"
	mv "$root/$multiarch/libc.so.6" "$root$work/host-libdir/"
	rmdir "$root/$multiarch"
	ln -s "$work/host-libdir" "$root/$multiarch"
	ln -s "$work/host-victim" "$root/usr/bin/nvidia-smi"
	# After its own ldconfig, which drops links that dangle inside the root.
	finish_ct e privileged &&
		ln -s "$work/host-victim" "$root$work/host-libdir/libcuda.so.1" &&
		[ "$(readlink "$root$work/host-libdir/libcuda.so.1")" = "$work/host-victim" ]
}
check "privileged container whose library dir and links point at host paths" t_make_e
check "it starts with the hook" start_ct e
check "inside, libcuda.so.1 is the host's 600.3" probe_is e 600.3
t_host_paths() {
	[ "$(ls "$work/host-libdir")" = canary ] || { ls -la "$work/host-libdir"; return 1; }
	[ "$(cat "$work/host-victim")" = victim ] || return 1
	[ -z "$(ls "$work/host-bin")" ] || return 1
	cmp -s /etc/ld.so.cache "$work/host-ld.so.cache" || { echo "host /etc/ld.so.cache changed"; return 1; }
	! grep -q "$work/host" /proc/self/mountinfo
}
check "the host directory, the host file and the host's ld.so.cache are untouched, no mount on them" t_host_paths
t_inside() { in_ct e ls "$work/host-libdir/libcuda.so.600.3" && [ "$(in_ct e readlink "/$multiarch")" = "$work/host-libdir" ]; }
check "the library landed where the container's link leads inside its root" t_inside
stop_ct e

# b: the mount target itself is a link to a host file: refused, not followed.
t_make_b() {
	make_ct b privileged debian && finish_ct b privileged &&
		ln -s "$work/host-victim" "$lxcpath/b/rootfs/$multiarch/libcuda.so.600.3"
}
check "privileged container whose libcuda.so.600.3 is a link to a host file" t_make_b
t_b_refused() {
	if start_ct b 2>/dev/null; then
		echo "started although the mount target is a link out of the root"
		return 1
	fi
	[ "$(cat "$work/host-victim")" = victim ] && ! grep -q "$work/host-victim" /proc/self/mountinfo &&
		grep -q 'libcuda.so.600.3: the container has something other than a file there' "$work/b.log"
}
check "its start is refused and the host file is untouched" t_b_refused

# The CDI side: the spec generate --style cdi --driver-libs writes for a
# runtime nested in the container, and its createContainer hook run the way
# a runtime runs it (the OCI state on stdin) on a bundle whose root has the
# versioned file the spec mounts and no soname link.
t_cdi_spec() {
	"$lxgpu" --proc-dir "$proc" --driver-root "$driver" --host "$(dirname "$0")/../../examples/hosts/pve-rtx-4090.yaml" \
		generate --style cdi --driver-libs --no-comments >"$work/spec.yaml" || return 1
	python3 - "$work/spec.yaml" "$work/hook.args" <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
edits = spec["containerEdits"]
paths = [m["hostPath"] for m in edits["mounts"]]
assert "/usr/lib/x86_64-linux-gnu/libcuda.so.600.3" in paths, paths
assert spec["kind"] != "nvidia.com/gpu", spec["kind"]
hook = edits["hooks"][0]
assert hook["hookName"] == "createContainer", hook
assert hook["path"].startswith("/") and hook["args"][0] == "lxgpu", hook
open(sys.argv[2], "w").write("\n".join(hook["args"][1:]) + "\n")
PY
}
check "generate --style cdi --driver-libs: the host's files as mounts, a createContainer hook" t_cdi_spec
t_cdi_hook() {
	bundle=$work/bundle root=$work/bundle/rootfs
	mkdir -p "$root/$multiarch" "$root/lib64" "$root/etc"
	cp /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	cp "$(cc -print-file-name=libc.so.6)" "$root/$multiarch/"
	echo "/$multiarch" >"$root/etc/ld.so.conf"
	cp "$work/probe" "$root/probe"
	ldconfig -r "$root"
	# What the runtime would have bind-mounted: the versioned file alone.
	cp "$driver/$multiarch/libcuda.so.600.3" "$root/$multiarch/"
	if chroot "$root" /probe >/dev/null 2>&1; then echo "libcuda.so.1 found before the hook"; return 1; fi
	printf '{"ociVersion": "1.2.0", "id": "n1", "status": "creating", "pid": 1, "bundle": "%s"}' \
		"$bundle" >"$work/state.json"
	printf '{"ociVersion": "1.2.0", "root": {"path": "rootfs"}, "process": {"args": ["/probe"]}}' \
		>"$bundle/config.json"
	# The spec's arguments, to the lxgpu under test (its path may name an
	# installed one).
	# shellcheck disable=SC2046
	"$lxgpu" $(tr '\n' ' ' <"$work/hook.args") <"$work/state.json" || return 1
	[ "$(chroot "$root" /probe)" = 600.3 ]
}
check "the spec's hook, run as a runtime runs it: dlopen in the nested root finds the host's 600.3" t_cdi_hook

tap_finish
