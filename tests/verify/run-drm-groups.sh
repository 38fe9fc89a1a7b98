#!/bin/sh
# Intel and AMD GPUs: the gid a DRM node carries inside a container is the
# container's own render (renderD*, /dev/kfd) or video (cardN) group, read
# from its /etc/group inside its root. Roots of stopped containers on a
# zfspool (storage/storage.cfg's local-zfs) with the /etc/group of the
# distributions in the public reports: Proxmox/Debian 12 with render 104
# (jellyfin/jellyfin.org#982 "works"), Ubuntu 22.04 where 104 is ssl-cert
# and render 109 (tteck/Proxmox#2523: the renderD128 shows as ssl-cert,
# hardware transcoding fails), Ubuntu 24.04 with render 993
# (community-scripts/ProxmoxVE#473), and an AMD ROCm container whose kfd
# got the video gid 44 (community-scripts/ProxmoxVE#15401, before the fix).
# generate must give the container's gid; verify must flag a foreign one
# (LXG055) and pass the right one; an /etc/group that is a link out of the
# root is read inside the root, never the host's.
# Usage: run-drm-groups.sh LXGPU EXAMPLES STORAGE_DIR   (TAP; jq)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) data=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
pve=$work/pve lxcp=$work/lxc
mkdir -p "$pve/lxc" "$lxcp"
sed "s|/LXGPU-WORK|$work|g" "$data/storage.cfg" >"$pve/storage.cfg"
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +

lx() {
	host=$1
	shift
	"$lxgpu" --host "$examples/$host.yaml" --pve-dir "$pve" --lxc-path "$lxcp" \
		--lxc-config-dir "$lxc_config" --state-dir "$work/state" "$@"
}
# ct ID GROUP_TEXT LINES...: a stopped unprivileged container whose root
# holds that /etc/group.
ct() {
	id=$1 groups=$2
	shift 2
	root=$work/zfs/data/subvol-$id-disk-0
	mkdir -p "$root/etc" "$lxcp/$id/rootfs"
	printf '%b' "$groups" >"$root/etc/group"
	printf 'arch: amd64\nhostname: ct%s\nostype: ubuntu\nrootfs: local-zfs:subvol-%s-disk-0,size=8G\nunprivileged: 1\n' \
		"$id" "$id" >"$pve/lxc/$id.conf"
	for l in "$@"; do printf '%s\n' "$l" >>"$pve/lxc/$id.conf"; done
}
DEBIAN='root:x:0:\nvideo:x:44:\nrender:x:104:\n'
JAMMY='root:x:0:\nvideo:x:44:\nssl-cert:x:104:\nrender:x:109:\n'
NOBLE='root:x:0:\nvideo:x:44:\nrender:x:993:\n'

# none HOST CTID: verify exits 0 with a parsed, empty list of findings
none() { lx_json 0 "$work/out" lx "$1" verify "$2" --format json && no_finding "$work/out"; }
# vj WANT HOST CTID: verify's JSON in out, exit status WANT
vj() { lx_json "$1" "$work/out" lx "$2" verify "$3" --format json; }

ct 701 "$DEBIAN" 'dev0: /dev/dri/card0,gid=44' 'dev1: /dev/dri/renderD128,gid=104'
ct 702 "$JAMMY" 'dev0: /dev/dri/card0,gid=44' 'dev1: /dev/dri/renderD128,gid=104'
ct 703 "$NOBLE" 'dev0: /dev/dri/card0,gid=44' 'dev1: /dev/dri/renderD128,gid=993'
ct 704 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993' 'dev1: /dev/dri/card1,gid=44' 'dev2: /dev/kfd,gid=44'
ct 705 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993' 'dev1: /dev/dri/card1,gid=44' 'dev2: /dev/kfd,gid=993'
ct 706 "$NOBLE"
ct 707 "$NOBLE"
# A root whose /etc/group leads out of it: read inside the root (dangling there).
ln -sf /../../../../etc/group "$work/zfs/data/subvol-707-disk-0/etc/group"

t_debian() { none pve-intel-igpu 701; }
t_jammy() {
	vj 1 pve-intel-igpu 702 &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055")] | length == 1' &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG055") | (.message | test("ssl-cert")) and (.fix | test("gid=109"))'
}
t_noble() { none pve-intel-igpu 703; }
t_kfd_video() {
	vj 1 pve-amd-rocm 704 &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055") | .device_path] == ["/dev/kfd"]'
}
t_kfd_render() { none pve-amd-rocm 705; }
t_generate_noble() {
	lx pve-amd-rocm generate 706 --no-comments >"$work/gen" &&
		grep -qx 'dev0: /dev/dri/card1,gid=44,mode=0660' "$work/gen" &&
		grep -qx 'dev1: /dev/dri/renderD128,gid=993,mode=0660' "$work/gen" &&
		grep -qx 'dev2: /dev/kfd,gid=993,mode=0660' "$work/gen" && [ "$(wc -l <"$work/gen")" -eq 3 ]
}
t_generate_intel() {
	lx pve-intel-igpu generate 706 --gpus 0000:00:02.0 --no-comments >"$work/gen" &&
		grep -qx 'dev0: /dev/dri/card0,gid=44,mode=0660' "$work/gen" &&
		grep -qx 'dev1: /dev/dri/renderD128,gid=993,mode=0660' "$work/gen" && [ "$(wc -l <"$work/gen")" -eq 2 ]
}
t_generate_escape() {
	lx pve-intel-igpu generate 707 --gpus 0 --no-comments >"$work/gen" 2>"$work/err" &&
		grep -qx 'dev1: /dev/dri/renderD128,mode=0666' "$work/gen" && grep -q "etc/group cannot be read" "$work/err"
}
# A custom idmap that maps the container's root range only: the render gid
# 993 is unmapped, the node shows as nogroup inside.
ct 708 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993' \
	'lxc.idmap: u 0 100000 65536' 'lxc.idmap: g 0 100000 900'
t_unmapped() {
	vj 1 pve-intel-igpu 708 &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055") | .message | test("nogroup")] | any'
}
# The AMD host after udev lost the render link (the model records none):
# a devN of that link is LXG056, naming renderD128; a link of an address no
# GPU has is not judged (a BMC's card could be there).
sed '/name: renderD128/{n;s|by_path: pci-0000:03:00.0-render|by_path: null|}' \
	"$examples/pve-amd-rocm.yaml" >"$work/amd-no-link.yaml"
ct 709 "$NOBLE" 'dev0: /dev/dri/by-path/pci-0000:03:00.0-render,gid=993' 'dev1: /dev/kfd,gid=993'
t_link_gone() {
	lx_json 1 "$work/out" "$lxgpu" --host "$work/amd-no-link.yaml" --pve-dir "$pve" --lxc-path "$lxcp" \
		--lxc-config-dir "$lxc_config" verify 709 --format json &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG056")] | length == 1' &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG056") | .message | test("it named /dev/dri/renderD128")' &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG009")] | length == 0'
}
t_generate_unmapped() {
	lx pve-intel-igpu generate 708 --no-comments >"$work/gen" 2>"$work/err" &&
		grep -q 'idmap does not map gid 993' "$work/err" || { cat "$work/err"; return 1; }
}
# no group finding; the one warning is that renderD128 is there only by its
# by-path name (Proxmox makes the node at the path given: issue 30)
t_link_there() { vj 0 pve-amd-rocm 709 && jq_ok "$work/out" '[.findings[].code] == ["LXG008"]'; }
# Public reports with the container's own gids. community-scripts/ProxmoxVE#7886
# (https://github.com/community-scripts/ProxmoxVE/issues/7886): Debian 13
# (trixie) containers "are still using GID 104 as the render group, but in
# Trixie the GID has changed to 992": the script's devN gid=104 is wrong there.
# Hal0ai/hal0#2213 (https://github.com/Hal0ai/hal0/pull/2213): a privileged
# Ubuntu 26.04 CT on an AMD Strix Halo got "dev0: /dev/dri/renderD128,gid=993"
# (the host's render) and failed ("the render device is visible but its gid
# does not map to the render group in this container"): Ubuntu 26.04's render
# is 991, "on a privileged container there is no idmap to shift it"; with
# gid=991 the second run worked. r-pufky's PVE 9 notes
# (https://r-pufky.github.io/docs/os/pve/gpu): "-dev1
# /dev/dri/renderD128,gid=992,uid=0" for a Debian 13 CT whose render is 992,
# the author's preferred, working setup.
TRIXIE='root:x:0:\nvideo:x:44:\nrender:x:992:\n'
RESOLUTE='root:x:0:\nvideo:x:44:\nrender:x:991:\n'
ct 710 "$TRIXIE" 'dev0: /dev/dri/card0,gid=44' 'dev1: /dev/dri/renderD128,gid=104'
ct 711 "$RESOLUTE" 'dev0: /dev/dri/renderD128,gid=993'
ct 712 "$RESOLUTE" 'dev0: /dev/dri/renderD128,gid=991'
sed -i '/^unprivileged:/d' "$pve/lxc/711.conf" "$pve/lxc/712.conf"
ct 713 "$TRIXIE" 'dev0: /dev/dri/card1,gid=44,uid=0' 'dev1: /dev/dri/renderD128,gid=992,uid=0'
t_trixie_104() {
	vj 1 pve-intel-igpu 710 &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055") | .device_path] == ["/dev/dri/renderD128"]' &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG055") | .fix | test("gid=992")'
}
t_hal0_993() {
	vj 1 pve-amd-rocm 711 &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055")] | length == 1' &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG055") | (.message | test("gid 993, which no group")) and (.fix | test("gid=991"))'
}
# the AMD CT without /dev/kfd keeps LXG008 (a warning: ROCm needs it); no error
t_hal0_991() {
	vj 0 pve-amd-rocm 712 &&
		jq_ok "$work/out" '[.findings[] | select(.severity == "error" or .code == "LXG055")] == []'
}
t_rpufky() {
	vj 0 pve-amd-rocm 713 &&
		jq_ok "$work/out" '[.findings[] | select(.severity == "error" or .code == "LXG055")] == []'
}
check "Debian root (render 104), gid=104: no finding" t_debian
check "Ubuntu 22.04 root, gid=104 (ssl-cert there): LXG055 naming ssl-cert, fix gid=109" t_jammy
check "Ubuntu 24.04 root, gid=993: no finding" t_noble
check "ROCm, /dev/kfd with the video gid 44: LXG055 on /dev/kfd only" t_kfd_video
check "ROCm, /dev/kfd with the render gid: no finding" t_kfd_render
check "generate (AMD): card1 video 44, renderD128 and kfd render 993, nothing NVIDIA's" t_generate_noble
check "generate --gpus 0000:00:02.0 (Intel): card0 44, renderD128 993" t_generate_intel
check "an /etc/group link out of the root is not followed: 0666 and a warning" t_generate_escape
check "a custom idmap leaves the render gid unmapped: LXG055 says nogroup" t_unmapped
check "generate for that container warns that gid 993 is not mapped" t_generate_unmapped
check "devN of a by-path link the host lost: LXG056 naming renderD128, no LXG009" t_link_gone
check "the same devN with the link there: no group finding (LXG008: only at its by-path name)" t_link_there
check "community-scripts#7886: Debian 13 root (render 992), gid=104: LXG055 on renderD128, fix gid=992" t_trixie_104
check "hal0#2213: privileged Ubuntu 26.04 root (render 991), gid=993: LXG055, fix gid=991" t_hal0_993
check "hal0#2213 after the fix, gid=991: no error, no LXG055" t_hal0_991
check "r-pufky PVE 9 notes: Debian 13 root, card1 gid=44 and renderD128 gid=992 with uid=0: no error" t_rpufky

# A root whose /etc/group cannot be read (distroless and OCI application
# images have none; one that is a FIFO, which an open for reading would
# block on, or a directory is never opened): renderD128 0660 gid=993 is
# not judged (no LXG055), and verify says so once: LXG057, a note (info,
# exit 0) naming why. Under a timeout: a FIFO opened would hang.
ct 710 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993' 'dev1: /dev/dri/card0,gid=44'
rm "$work/zfs/data/subvol-710-disk-0/etc/group"
ct 711 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993'
rm "$work/zfs/data/subvol-711-disk-0/etc/group" && mkfifo "$work/zfs/data/subvol-711-disk-0/etc/group"
ct 712 "$NOBLE" 'dev0: /dev/dri/renderD128,gid=993'
rm "$work/zfs/data/subvol-712-disk-0/etc/group" && mkdir "$work/zfs/data/subvol-712-disk-0/etc/group"
# unchecked CTID WHY: exit 0, one LXG057 (info) on a DRM node naming WHY, no LXG055
unchecked() {
	lx_json 0 "$work/out" timeout 20 "$lxgpu" --host "$examples/pve-intel-igpu.yaml" --pve-dir "$pve" \
		--lxc-path "$lxcp" --lxc-config-dir "$lxc_config" --state-dir "$work/state" verify "$1" --format json &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG055")] | length == 0' &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG057")] | length == 1' &&
		jq_ok "$work/out" '.findings[] | select(.code == "LXG057") |
			.severity == "info" and (.device_path | startswith("/dev/dri/")) and
			(.message | contains("/etc/group cannot be read (" + $why + ")"))' --arg why "$2" ||
		{ lxj_show "$work/out"; return 1; }
}
t_no_group() { unchecked 710 "there is none"; }
t_fifo_group() { unchecked 711 "not a regular file"; }
t_dir_group() { unchecked 712 "not a regular file"; }
check "distroless root without /etc/group: LXG057 (info, there is none), no LXG055, exit 0" t_no_group
check "/etc/group a FIFO: never opened, LXG057 (not a regular file), exit 0" t_fifo_group
check "/etc/group a directory: LXG057 (not a regular file), exit 0" t_dir_group
tap_finish
