#!/bin/sh
# doctor CTID reads NVIDIA's container toolkit config inside the container's
# root (a scratch plain-LXC container, its root a directory): in an
# unprivileged container with the toolkit inside, no-cgroups must be true
# under [nvidia-container-cli] (LXG130), else every 'docker run --gpus' fails
# with "nvidia-container-cli: mount error: failed to add device rules: ...
# bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted"
# (NVIDIA/libnvidia-container#154: Jellyfin in Docker in a Proxmox LXC
# container; NVIDIA's docs for unprivileged/rootless use set the key). The
# config's parse is TOML's (comments, spacing, quoted keys, dotted keys);
# a link out of the root is never followed. Usage: run-toolkit.sh LXGPU EXAMPLES
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
root="$work/root" conf="$root/etc/nvidia-container-runtime/config.toml"
mkdir -p "$work/pve/lxc" "$work/lxc/701"
: >"$work/kmsg"

# setup PRIV|UNPRIV: a fresh root (no toolkit) and the container's config
setup() {
	rm -rf "$root" && mkdir -p "$root/etc/nvidia-container-runtime" "$root/usr/bin"
	printf 'lxc.rootfs.path = dir:%s\n' "$root" >"$work/lxc/701/config"
	[ "$1" = PRIV ] || printf 'lxc.idmap = u 0 100000 65536\nlxc.idmap = g 0 100000 65536\n' >>"$work/lxc/701/config"
}
toolkit() { printf '#!/bin/sh\n' >"$root/usr/bin/nvidia-container-runtime-hook" && chmod 755 "$root/usr/bin/nvidia-container-runtime-hook"; }
# codes WANT: doctor 701's codes among LXG130 LXG131 are WANT ("" for none)
codes() {
	lx_json sev "$work/out" "$lxgpu" --host "$examples/pve-8x-rtx-pro-6000.yaml" --pve-dir "$work/pve" \
		--lxc-path "$work/lxc" --cgroup-root "$work" --kmsg "$work/kmsg" doctor 701 --format json || return 1
	got=$(jq -r '[.findings[].code | select(. == "LXG130" or . == "LXG131")] | unique | join(" ")' "$work/out")
	[ "$got" = "$1" ] || { echo "got '$got', want '$1'"; jq -r '.findings[] | "\(.code) \(.message)"' "$work/out"; cat "$work/out.err"; return 1; }
	[ -z "$1" ] || jq -e '[.findings[] | select(.code == "LXG130" or .code == "LXG131")] | all(.fix and .message and .container == "701")' "$work/out" >/dev/null
}
# t_conf PRIV|UNPRIV WANT TEXT: the toolkit installed, config.toml is TEXT
t_conf() { setup "$1" && toolkit && printf '%b' "$3" >"$conf" && codes "$2"; }

# The file as nvidia-container-toolkit installs it: the key commented out.
shipped='disable-require = false\n\n[nvidia-container-cli]\nenvironment = []\nldcache = "/etc/ld.so.cache"\nload-kmods = true\n#no-cgroups = false\n#path = "/usr/bin/nvidia-container-cli"\n\n[nvidia-container-runtime]\nlog-level = "info"\n'
t_none() { setup UNPRIV && codes ""; }
check "unprivileged, no toolkit inside: nothing" t_none
check "unprivileged, the shipped config (commented out)" t_conf UNPRIV LXG130 "$shipped"
check "unprivileged, no-cgroups = true" t_conf UNPRIV "" "[nvidia-container-cli]\nno-cgroups = true\n"
check "unprivileged, spacing, tabs and a comment after the value" t_conf UNPRIV "" "#top\n  [ nvidia-container-cli ]  # the cli\n\tno-cgroups=true   # for LXC\n"
check "unprivileged, quoted key and table name" t_conf UNPRIV "" "[\"nvidia-container-cli\"]\n'no-cgroups' = true\n"
check "unprivileged, dotted key at the top" t_conf UNPRIV "" "nvidia-container-cli.no-cgroups = true\n[nvidia-container-runtime]\n"
check "unprivileged, no-cgroups = false" t_conf UNPRIV LXG130 "[nvidia-container-cli]\nno-cgroups = false\n"
check "unprivileged, a string \"true\" is not the boolean" t_conf UNPRIV LXG130 "[nvidia-container-cli]\nno-cgroups = \"true\"\n"
check "unprivileged, true under another table" t_conf UNPRIV LXG130 "[nvidia-container-cli]\nldcache = \"/etc/ld.so.cache\"\n[nvidia-container-runtime]\nno-cgroups = true\n"
check "unprivileged, true set then false last" t_conf UNPRIV LXG130 "[nvidia-container-cli]\nno-cgroups = true\nno-cgroups = false\n"
check "unprivileged, a '#' inside a string is not a comment" t_conf UNPRIV LXG130 "[nvidia-container-cli]\nno-cgroups = \"#\" # true\n"
check "privileged, the shipped config: nothing" t_conf PRIV "" "$shipped"
t_no_file() { setup UNPRIV && toolkit && codes LXG130 && grep -q 'there is no /etc/nvidia-container-runtime/config.toml' "$work/out"; }
check "unprivileged, the toolkit without a config file (default false)" t_no_file
# A link to a host path: resolved inside the root, where it names nothing; had
# doctor followed it to the host's file (no-cgroups = true) there would be no finding.
t_link_out() {
	setup UNPRIV && toolkit && printf '[nvidia-container-cli]\nno-cgroups = true\n' >"$work/host.toml" &&
		ln -s "$work/host.toml" "$conf" && codes LXG130
}
check "a link out of the root is not followed" t_link_out
t_fifo() { setup UNPRIV && toolkit && mkfifo "$conf" && codes LXG131; }
check "a FIFO as the config: unreadable, no hang" t_fifo
# A device node planted as the config: the oracle is strace's record of the
# opens, not lxgpu's words. The path may be looked at with O_PATH only, and
# nothing is reopened through /proc/self/fd (the driver's open never runs).
t_device() {
	setup UNPRIV && toolkit && mknod "$conf" c 1 3 && codes LXG131 &&
		strace -f -qq -e trace=open,openat,openat2 -o "$work/trace" "$lxgpu" --host "$examples/pve-8x-rtx-pro-6000.yaml" \
			--pve-dir "$work/pve" --lxc-path "$work/lxc" --cgroup-root "$work" --kmsg "$work/kmsg" \
			doctor 701 --format json >/dev/null 2>&1
	grep -q 'config.toml' "$work/trace" || { echo "strace saw no look at config.toml"; return 1; }
	bad=$(grep -E 'config\.toml' "$work/trace" | grep -v 'O_PATH'; grep -E '"/proc/self/fd/' "$work/trace" | grep -v ENOENT | grep -c . | grep -v '^0$')
	[ -z "$bad" ] || { echo "opened for real: $bad"; return 1; }
}
if [ "$(id -u)" = 0 ]; then
	check "a device node as the config: never opened (strace)" t_device
else
	skip "a device node as the config: never opened (strace)" "mknod needs root"
fi
tap_finish
