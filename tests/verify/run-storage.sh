#!/bin/sh
# Stopped Proxmox containers are judged from where their storage keeps
# their root (issue 19, item 10), not from /var/lib/lxc/CTID/rootfs, an
# empty mount point while they are stopped. storage/storage.cfg is a
# made-up node's (/LXGPU-WORK stands for this test's scratch directory);
# storage/expected-paths is what Proxmox's own storage code says each
# container's rootfs volume is (storage/pve-storage-path): where that is a
# directory, the test puts a root there whose libcuda.so.1 leads to
# 535.183.01 and verify must find it (LXG011; the host runs 550.127.05);
# where it is not (a disk image, lvmthin, rbd) or does not exist, verify
# must say it could not look (LXG027, naming the path or `pct mount`),
# never give a clean result. Links out of the storage or the root are
# followed inside them, never to the host's files.
# Usage: run-storage.sh LXGPU EXAMPLES STORAGE_DIR   (TAP; jq; root for the pct mount case)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) data=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
host=$examples/pve-rtx-4090.yaml # driver 550.127.05
pve=$work/pve lxcp=$work/lxc
mkdir -p "$pve/lxc" "$lxcp" "$work/state"
sed "s|/LXGPU-WORK|$work|g" "$data/storage.cfg" >"$pve/storage.cfg"
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +
multiarch=usr/lib/x86_64-linux-gnu

lx() {
	"$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$lxcp" --lxc-config-dir "$lxc_config" \
		--state-dir "$work/state" "$@"
}
# ct ID VOLUME: a stopped GPU container on that volume; its PVE mount point empty.
ct() {
	printf 'arch: amd64\nhostname: ct%s\nostype: debian\nrootfs: %s,size=8G\nunprivileged: 1\n' "$1" "$2" \
		>"$pve/lxc/$1.conf"
	printf 'dev0: /dev/nvidia0,mode=0666\ndev1: /dev/nvidiactl,mode=0666\ndev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n' \
		>>"$pve/lxc/$1.conf"
	mkdir -p "$lxcp/$1/rootfs"
}
# libs ROOT VERSION: the driver's libraries as a package installs them.
libs() {
	mkdir -p "$1/$multiarch" "$1/etc"
	for lib in libcuda libnvidia-ml; do
		: >"$1/$multiarch/$lib.so.$2"
		ln -sf "$lib.so.$2" "$1/$multiarch/$lib.so.1"
	done
}
# verify ID: its JSON in v.json, exit 1 with an error finding, else 0
verify_json() { lx_json sev "$work/v.json" lx verify "$1" --format json; }
# finding ID CODE: the message of the container's finding CODE (fails without one).
finding() {
	verify_json "$1" >&2 || return 1
	jq -er --arg c "$2" '[.findings[] | select(.code == $c) | .message] | first // empty' "$work/v.json"
}
# lacks ID CODE: verify's parsed findings for ID have no CODE
lacks() {
	verify_json "$1" || return 1
	got=$(jq -r --arg c "$2" '[.findings[] | select(.code == $c) | .message] | .[]' "$work/v.json")
	[ -z "$got" ] || { echo "$1: $2: $got"; return 1; }
}

# The containers of expected-paths, each where Proxmox keeps its root.
grep -v '^#' "$data/expected-paths" >"$work/expected"
while read -r id volume path format; do
	ct "$id" "$volume"
	path=$(echo "$path" | sed "s|/LXGPU-WORK|$work|")
	case "$format:$path" in subvol:"$work"/*) libs "$path" 535.183.01 ;; esac
done <"$work/expected"

t_read() { # ID PATH: the root at PATH was read: its 535.183.01 is LXG011
	msg=$(finding "$1" LXG011) || { echo "$1: no LXG011"; jq -c '[.findings[] | .code]' "$work/v.json"; return 1; }
	case $msg in *"driver libraries 535.183.01 (/$multiarch/libcuda.so.1 -> /$multiarch/libcuda.so.535.183.01"*) ;;
	*) echo "$1: $msg"; return 1 ;; esac
	lacks "$1" LXG027
}
t_not_read() { # ID WORD: LXG027 naming WORD, no LXG011
	msg=$(finding "$1" LXG027) || { echo "$1: no LXG027"; jq -c '[.findings[] | .code]' "$work/v.json"; return 1; }
	case $msg in *"$2"*) ;; *) echo "$1: '$msg' lacks '$2'"; return 1 ;; esac
	case $msg in *"pct mount $1"*) ;; *) echo "$1: '$msg' lacks 'pct mount $1'"; return 1 ;; esac
	lacks "$1" LXG011
}
while read -r id volume path format; do
	real=$(echo "$path" | sed "s|/LXGPU-WORK|$work|")
	case "$format:$real" in
	subvol:"$work"/*) check "$volume: the root at $path is read (LXG011 for its 535.183.01)" t_read "$id" ;;
	subvol:*) check "$volume: $path does not exist here: LXG027 names it" t_not_read "$id" "$real" ;;
	*) check "$volume ($format): cannot be read without mounting: LXG027" t_not_read "$id" "pct mount $id" ;;
	esac
done <"$work/expected"

# A container whose libraries are the host's: read, and clean of LXG011.
t_clean() {
	ct 120 local-zfs:subvol-120-disk-0
	libs "$work/zfs/data/subvol-120-disk-0" 550.127.05
	lacks 120 LXG011 && lacks 120 LXG027 && finding 120 LXG047 >/dev/null
}
check "local-zfs:subvol-120-disk-0 with the host's 550.127.05: read (LXG047, its own copy), no LXG011" t_clean

# preflight and doctor read the same root.
t_preflight() {
	out=$(lx preflight 101 2>&1)
	echo "$out" | grep -q "its driver libraries are 535.183.01, the loaded module is 550.127.05" ||
		{ echo "$out"; return 1; }
}
check "preflight 101 (local-zfs): the mismatch of its 535.183.01" t_preflight
t_preflight_unknown() {
	out=$(lx preflight 103 2>&1)
	echo "$out" | grep -q "could not inspect the root of stopped container 103" &&
		echo "$out" | grep -q "pct mount 103" || { echo "$out"; return 1; }
}
check "preflight 103 (lvmthin): says it could not inspect the root, names pct mount" t_preflight_unknown
t_doctor() {
	out=$(lx doctor 101 --kmsg /dev/null 2>&1)
	echo "$out" | grep -q "LXG011" && echo "$out" | grep -q "535.183.01" || { echo "$out"; return 1; }
}
check "doctor 101 (local-zfs): LXG011" t_doctor

# Links: the storage's entry pointing at a host directory is resolved
# inside the storage (nothing there); a link in the root to a host library
# dir is resolved inside the root.
mkdir -p "$work/hostroot"
libs "$work/hostroot" 999.1
t_storage_link() {
	ct 121 local-zfs:subvol-121-disk-0
	ln -s "$work/hostroot" "$work/zfs/data/subvol-121-disk-0"
	lacks 121 LXG011 && t_not_read 121 "subvol-121-disk-0"
}
check "subvol-121-disk-0 is a link to a host directory: not followed out of the storage (LXG027)" t_storage_link
t_root_link() {
	ct 122 local-zfs:subvol-122-disk-0
	root=$work/zfs/data/subvol-122-disk-0
	mkdir -p "$root/usr/lib" "$root/lib"
	ln -s "$work/hostroot/$multiarch" "$root/$multiarch"
	ln -s "$work/hostroot/$multiarch" "$root/lib/x86_64-linux-gnu"
	lacks 122 LXG011 && lacks 122 LXG027 && verify_json 122 && ! grep -q 999.1 "$work/v.json"
}
check "a root whose library dirs link to a host directory: resolved inside the root, never 999.1" t_root_link

# A root mounted by hand (pct mount) on the PVE mount point is read there.
t_pct_mount() {
	ct 123 local-lvm:vm-123-disk-0
	export lxgpu host pve lxcp lxc_config work multiarch
	lx_json sev "$work/123.json" unshare -m --propagation private sh -c '
		mount -t tmpfs pct-mount "$lxcp/123/rootfs" || exit 1
		mkdir -p "$lxcp/123/rootfs/$multiarch"
		: >"$lxcp/123/rootfs/$multiarch/libcuda.so.535.183.01"
		ln -s libcuda.so.535.183.01 "$lxcp/123/rootfs/$multiarch/libcuda.so.1"
		"$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$lxcp" --lxc-config-dir "$lxc_config" \
			--state-dir "$work/state" verify 123 --format json' &&
		jq_ok "$work/123.json" '[.findings[].code] | index("LXG011") and (index("LXG027") | not)'
}
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
	check "local-lvm with its root mounted at /var/lib/lxc/123/rootfs (pct mount): read there" t_pct_mount
else
	skip "local-lvm with its root mounted at /var/lib/lxc/123/rootfs (pct mount): read there" \
		"needs root and unshare (a tmpfs mounted in a mount namespace of its own)"
fi

# audit reads storage.cfg once for all its containers (and each config
# once): every container's root is still found or not as verify finds it
# alone, one container after another on different storages.
t_audit_same() {
	lx_json sev "$work/audit.json" lx audit --format json || return 1
	n=0
	for conf in "$pve"/lxc/*.conf; do
		id=$(basename "$conf" .conf)
		verify_json "$id" || return 1
		want=$(jq -c '[.findings[] | select(.code == "LXG011" or .code == "LXG027") | [.code, .message]]' "$work/v.json")
		got=$(jq -c --arg id "$id" '[.containers[] | select(.container == $id) | .findings[] |
			select(.code == "LXG011" or .code == "LXG027") | [.code, .message]]' "$work/audit.json")
		[ "$got" = "$want" ] || { echo "# $id: audit $got, verify $want"; return 1; }
		[ "$want" != "[]" ] && n=$((n + 1))
	done
	[ "$n" -ge 5 ] || { echo "# only $n containers with a root finding"; return 1; }
}
check "audit of every container: each root found or not as verify finds it (storage.cfg read once)" t_audit_same

# Without a storage.cfg (not a node's config directory) nothing is claimed.
t_no_cfg() {
	mv "$pve/storage.cfg" "$work/storage.cfg.away"
	lacks 103 LXG027 && lacks 101 LXG011
	rc=$?
	mv "$work/storage.cfg.away" "$pve/storage.cfg"
	return $rc
}
check "no storage.cfg in --pve-dir: neither a root nor LXG027" t_no_cfg

tap_finish
