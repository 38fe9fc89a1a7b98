#!/bin/sh
# Integration: a real LXC container started with `lxgpu generate --style lxc`
# output. The planned nodes are mknod'ed with the example host's majors in a
# private /dev (a tmpfs in a private mount namespace: the host's /dev is never
# touched); inside the started container every planned node must exist with
# its major:minor and mode, be a bind mount, and be allowed by the device
# cgroup, while a GPU node that was not planned must be denied.
# Usage: lxc-generate.sh LXGPU EXAMPLES_DIR   (TAP output; needs root and lxc)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
host="$examples/pve-8x-rtx-pro-6000.yaml"

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the LXC integration test" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy unshare busybox jq \
	cc ldconfig
lxc_workdir lxgpu-it
name=gpu

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/wait-running.sh"
in_ct() { lxc-attach -P "$lxcpath" -n "$name" -- "$@"; }

# The planned nodes, as the issue states them: path major:minor mode.
cat >"$work/planned" <<'PLAN'
/dev/nvidia0 195:0 666
/dev/nvidia1 195:1 666
/dev/nvidiactl 195:255 666
/dev/nvidia-uvm 511:0 666
/dev/nvidia-uvm-tools 511:1 666
PLAN

# cgroup keys of this machine (hybrid hosts keep devices on v1).
layout=$("$lxgpu" scan --format json | jq -r .cgroup)
case "$layout" in v2) keys=v2 devkey=lxc.cgroup2.devices ;; *) keys=v1 devkey=lxc.cgroup.devices ;; esac

t_generate() {
	"$lxgpu" --host "$host" generate --style lxc --gpus 0,1 --cgroup "$keys" >"$work/gpu.conf" &&
		[ "$(grep -c "^$devkey.allow = c " "$work/gpu.conf")" -eq 5 ] &&
		[ "$(grep -c '^lxc.mount.entry = /dev/nvidia' "$work/gpu.conf")" -eq 5 ]
}
check "generate --style lxc --gpus 0,1: five rules, five mounts" t_generate

t_create() {
	lxc_sandbox_create "$name" || return 1
	{ lxc_sandbox_conf; lxc_basic_devices "$devkey"; cat "$work/gpu.conf"; } >>"$conf"
	# A GPU node that is not planned, on the rootfs: the cgroup must deny it.
	mknod -m 666 "$lxcpath/$name/rootfs/nvidia2-unplanned" c 195 2
}
check "busybox container created with the generated lines" t_create

# Start it from a private mount namespace whose /dev is a tmpfs holding the
# planned nodes (with the example host's majors) and the basics LXC needs.
cat "$(dirname "$0")/../lib/private-dev.sh" >"$work/start.sh"
cat >>"$work/start.sh" <<'START'
set -eu
planned=$1 lxcpath=$2 name=$3
private_dev
while read -r path numbers mode; do
	mkdir -p "$(dirname "$path")"
	mknod -m "$mode" "$path" c "${numbers%%:*}" "${numbers##*:}"
done <"$planned"
exec lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name.log"
START
t_start() {
	unshare -m --propagation private sh "$work/start.sh" "$work/planned" "$lxcpath" "$name" ||
		{ grep -E 'ERROR|WARN' "$lxcpath/$name.log" | tail -20; return 1; }
	wait_running "$lxcpath" "$name" 20 && return 0
	lxc-info -P "$lxcpath" -n "$name"
	return 1
}
check "lxc-start accepts the generated config" t_start

t_nodes() {
	while read -r path numbers mode; do
		got=$(in_ct stat -c '%t:%T %a %F' "$path") || { echo "$path missing"; return 1; }
		hex=${got%% *} rest=${got#* }
		perm=${rest%% *} type=${rest#* }
		# stat prints the major and minor in hex (a classic source of wrong rules).
		major=$(printf '%d' "0x${hex%%:*}") minor=$(printf '%d' "0x${hex##*:}")
		[ "$major:$minor $perm $type" = "$numbers $mode character special file" ] ||
			{ echo "$path: got '$got' ($major:$minor), planned $numbers $mode"; return 1; }
	done <"$work/planned"
}
check "inside: every planned node with its major:minor and mode" t_nodes

t_mounts() {
	in_ct cat /proc/self/mountinfo >"$work/mountinfo" || return 1
	while read -r path _; do
		awk -v p="$path" '$5 == p { found = 1 } END { exit !found }' "$work/mountinfo" ||
			{ echo "$path is not a mount point"; cat "$work/mountinfo"; return 1; }
	done <"$work/planned"
}
check "inside: every planned node is a bind mount" t_mounts

# Opening a node whose major has no driver gives ENXIO when the cgroup
# allows it, EPERM when it denies it: that tells the rules apart on
# cgroup v1 and v2 alike.
t_allowed() {
	while read -r path _; do
		out=$(in_ct head -c 1 "$path" 2>&1)
		case "$out" in *"not permitted"*) echo "$path: $out"; return 1 ;; esac
	done <"$work/planned"
}
check "inside: the device cgroup allows every planned node" t_allowed
t_denied() {
	out=$(in_ct head -c 1 /nvidia2-unplanned 2>&1)
	case "$out" in *"not permitted"*) return 0 ;; esac
	echo "/nvidia2-unplanned (c 195:2) opened with: $out"
	return 1
}
check "inside: a GPU node that was not planned is denied" t_denied

t_devices_list() {
	[ "$keys" = v1 ] || { echo "cgroup v2: device rules are a BPF program (checked above by opening)"; return 0; }
	pid=$(lxc-info -P "$lxcpath" -n "$name" -p -H)
	cg=$(awk -F: '$2 == "devices" { print $3 }' "/proc/$pid/cgroup")
	list="/sys/fs/cgroup/devices$cg/devices.list"
	[ -r "$list" ] || { echo "cannot read $list"; return 1; }
	grep -E '^c (195|511):' "$list" | sort >"$work/gpu-rules"
	printf 'c 195:0 rw\nc 195:1 rw\nc 195:255 rw\nc 511:0 rw\nc 511:1 rw\n' | sort >"$work/want-rules"
	diff -u "$work/want-rules" "$work/gpu-rules" || return 1
	! grep -qE '^a |^c \*:\* ' "$list" || { echo "over-broad rule in $list"; cat "$list"; return 1; }
}
check "cgroup v1: devices.list allows exactly the planned GPU devices" t_devices_list

# verify on the running container. The host model is the example host with
# this machine's cgroup layout (the container runs here).
sed "s/^cgroup: .*/cgroup: $layout/" "$host" >"$work/host.yaml"
verify() { # HOST_MODEL
	"$lxgpu" --host "$1" --lxc-path "$lxcpath" verify "$name" --format json >"$work/verify.json" 2>"$work/verify.err"
}
codes() { jq -r '[.findings[].code] | unique | join(" ")' "$work/verify.json"; }
t_verify_clean() {
	verify "$work/host.yaml"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(jq -r .state "$work/verify.json")" = running ] && [ -z "$(codes)" ] ||
		{ echo "exit $rc"; cat "$work/verify.json" "$work/verify.err"; return 1; }
}
check "verify: the running container is clean" t_verify_clean
t_verify_reload() {
	# As after a driver reload: nvidia-uvm got major 510 on the host.
	sed -e '/^- major: 511$/{N;s/^- major: 511\n  name: nvidia-uvm$/- major: 510\n  name: nvidia-uvm/}' \
		-e '/path: \/dev\/nvidia-uvm/,/minor:/ s/major: 511/major: 510/' \
		"$work/host.yaml" >"$work/host-reloaded.yaml"
	verify "$work/host-reloaded.yaml"
	rc=$?
	c=$(codes)
	[ "$rc" -eq 1 ] && case " $c " in *" LXG001 "*) ;; *) false ;; esac &&
		case " $c " in *" LXG015 "*) ;; *) false ;; esac ||
		{ echo "exit $rc, codes '$c'"; jq -r '.findings[] | "\(.code) \(.message)"' "$work/verify.json"; return 1; }
}
check "verify after a driver reload: the stale rule and the stale node inside" t_verify_reload
t_verify_mismatch() {
	# As the CUDA images have it: the driver's library with its soname link
	# in /usr/local/nvidia/lib64, listed in ld.so.conf.d and the loader cache
	# (which ldconfig -r writes from the command line: busybox has no ld.so.conf)
	# (what the loader resolves is judged, not a file name alone).
	root=$lxcpath/$name/rootfs lib=$lxcpath/$name/rootfs/usr/local/nvidia/lib64
	mkdir -p "$lib" "$root/etc/ld.so.conf.d"
	echo 'int nvmlInit(void) { return 0; }' >"$work/nvml.c"
	cc -shared -fPIC -Wl,-soname,libnvidia-ml.so.1 -o "$lib/libnvidia-ml.so.550.54.14" "$work/nvml.c" ||
		return 1
	ln -sf libnvidia-ml.so.550.54.14 "$lib/libnvidia-ml.so.1"
	echo /usr/local/nvidia/lib64 >"$root/etc/ld.so.conf.d/nvidia.conf"
	[ -e "$root/etc/ld.so.cache" ] && cp "$root/etc/ld.so.cache" "$work/ld.so.cache.saved"
	ldconfig -r "$root" /usr/local/nvidia/lib64 || return 1
	verify "$work/host.yaml"
	rc=$?
	rm -r "$lib" "$root/etc/ld.so.conf.d/nvidia.conf"
	if [ -e "$work/ld.so.cache.saved" ]; then mv "$work/ld.so.cache.saved" "$root/etc/ld.so.cache"; else rm "$root/etc/ld.so.cache"; fi
	[ "$rc" -eq 1 ] && [ "$(codes)" = LXG011 ] && grep -q '550.54.14' "$work/verify.json" ||
		{ echo "exit $rc, codes '$(codes)'"; cat "$work/verify.json"; return 1; }
}
check "verify: driver libraries of another version in the rootfs" t_verify_mismatch
t_verify_symlinks() {
	secret=$(mktemp -d /tmp/lxgpu-host-secret-XXXXXX)
	: >"$secret/libnvidia-ml.so.999.99.99"
	root="$lxcpath/$name/rootfs"
	mkdir -p "$root/usr/local/cuda" "$root/usr/local/nvidia"
	ln -s "$secret" "$root/usr/local/cuda/compat"                         # absolute, to a host dir
	ln -s "../../../../../../../../$secret" "$root/usr/local/nvidia/lib" # climbing out
	verify "$work/host.yaml"
	rc=$?
	rm -rf "$secret" "$root/usr/local/cuda/compat" "$root/usr/local/nvidia/lib"
	[ "$rc" -eq 0 ] && ! grep -q '999.99.99' "$work/verify.json" ||
		{ echo "exit $rc: verify read through a link out of the container"; cat "$work/verify.json"; return 1; }
}
check "verify never follows a link out of the container's root" t_verify_symlinks

# apply on the running container's plain LXC config: only GPU lines change,
# and lxgpu says the change waits for the next start.
t_apply_running() {
	conf="$lxcpath/$name/config"
	grep -v -e '^lxc.mount.entry = /dev/nvidia' -e "^$devkey.allow = c 195:" -e "^$devkey.allow = c 511:" "$conf" >"$work/others.before"
	"$lxgpu" --host "$host" --lxc-path "$lxcpath" --backup-dir "$work/backups" --state-dir "$work/state" apply "$name" \
		--gpus 0 --cgroup "$keys" >"$work/apply.out" 2>&1 || { cat "$work/apply.out"; return 1; }
	grep -q "is running: the new lines apply at its next start" "$work/apply.out" || { cat "$work/apply.out"; return 1; }
	grep -v -e '^lxc.mount.entry = /dev/nvidia' -e "^$devkey.allow = c 195:" -e "^$devkey.allow = c 511:" "$conf" >"$work/others.after"
	diff -u "$work/others.before" "$work/others.after" || return 1
	! grep -q 'nvidia1' "$conf" && grep -q "^$devkey.allow = c 195:0 rw$" "$conf" || { cat "$work/apply.out" "$conf"; return 1; }
}
check "apply on the running container: other lines kept, the change waits for the next start" t_apply_running

tap_finish
