#!/bin/sh
# Intel and AMD GPUs, and an NVIDIA card's DRM nodes, in the forms public
# configs give them (issue 30): tteck's unprivileged cgroup2 rule plus a
# bind of renderD128, a bind of /dev/dri as a directory, by-path devN
# entries (a public runbook's), a node mounted at another target, and AMD's
# /dev/kfd beside renderD128 (ollama's ROCm recipe), each on the Intel, the
# AMD (kfd) and the RTX 4090 (nvidia-drm) example hosts, in an unprivileged
# Proxmox container whose root has Ubuntu 24.04's /etc/group (render 993,
# video 44; community-scripts/ProxmoxVE#473).
#
# Expected values, written by hand from outside lxgpu:
# - what the container has before: pve-container makes a devN node at the
#   path the entry gives (lxc-pve-prestart-hook: passthrough/devices lists
#   the path as written; lxc-pve-autodev-hook mknods it under the CT's /dev,
#   so a by-path entry's node has the by-path name), LXC binds a directory
#   with every node under it and a node at the target given;
# - after apply with no options: the config byte for byte (nothing in these
#   recipes is stale);
# - after apply --style devn: devN entries at the nodes' own names with the
#   container's render/video gid and mode 0660 (what generate writes for a
#   DRM GPU: lxc-access cases 55-58 in real LXC), the old lines gone, and
#   inside: the same host nodes at /dev/dri/cardN, renderDN, /dev/kfd, of
#   group 993 (render) or 44 (video) (Proxmox maps the gid through the
#   idmap: lxc-access 55-58);
# - a second apply, either way, changes nothing;
# - every fix verify prints for a DRM/kfd finding, run as printed
#   (tests/lib/fix.sh), clears it and leaves the container every GPU node it
#   had.
# Usage: test-drm-recipes.sh LXGPU EXAMPLES SRCDIR   (TAP; jq)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"
. "$src/tests/lib/lxjson.sh"
. "$src/tests/lib/fix.sh"
pve=$work/pve lxcp=$work/lxc
lxc_config="$work/lxc-config"
cp -R "$src/tests/verify/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +
# verify prints its own --host, --pve-dir ... in its fixes: the stub adds
# only apply's scratch backup and lock directories
fix_stubs "$work/fix" "$lxgpu" -- --backup-dir "$work/backups" --lock-dir "$work"

lx() {
	"$lxgpu" --host "$examples/$host.yaml" --pve-dir "$pve" --lxc-path "$lxcp" \
		--lxc-config-dir "$lxc_config" --state-dir "$work/state" "$@"
}
lx_apply() { lx apply 700 --backup-dir "$work/backups" --lock-dir "$work" "$@"; }
conf=$pve/lxc/700.conf

# verify_json: verify 700 into $work/v.json, which parses, with the exit
# status its findings' severities give (tests/lib/lxjson.sh)
verify_json() { lx_json sev "$work/v.json" lx verify 700 --format json; }
# the GPU nodes the container gets: "PATH-INSIDE=HOST-NODE", sorted
gpu_nodes() {
	jq -r '.access.nodes[] | select(.host_path | test("^/dev/(dri/|kfd$|nvidia)")) | "\(.path)=\(.host_path)"' \
		"$work/v.json" | sort
}
# the host nodes alone, each once
host_nodes() { gpu_nodes | sed 's/.*=//' | sort -u; }

# ---- the hosts (from examples/hosts/*.yaml) and the recipes ----
# host_vars HOST: its GPU's address, card node, kfd (yes/no), NVIDIA lines
host_vars() {
	host=$1 nv=""
	case $host in
	pve-intel-igpu) bdf=0000:00:02.0 card=card0 kfd=no ;;
	pve-amd-rocm) bdf=0000:03:00.0 card=card1 kfd=yes ;;
	pve-rtx-4090) bdf=0000:01:00.0 card=card1 kfd=no
		nv='dev0: /dev/nvidia0,mode=0666
dev1: /dev/nvidiactl,mode=0666
dev2: /dev/nvidia-uvm,mode=0666
dev3: /dev/nvidia-uvm-tools,mode=0666' ;;
	esac
}
# recipe_lines NAME: the container's GPU lines (besides the NVIDIA ones)
recipe_lines() {
	case $1 in
	tteck)
		echo 'lxc.cgroup2.devices.allow: c 226:128 rwm'
		echo 'lxc.mount.entry: /dev/dri/renderD128 dev/dri/renderD128 none bind,optional,create=file'
		[ "$kfd" = no ] || {
			echo 'lxc.cgroup2.devices.allow: c 511:0 rwm'
			echo 'lxc.mount.entry: /dev/kfd dev/kfd none bind,optional,create=file'
		} ;;
	dirbind)
		echo 'lxc.cgroup2.devices.allow: c 226:* rwm'
		echo 'lxc.mount.entry: /dev/dri dev/dri none bind,optional,create=dir'
		[ "$kfd" = no ] || echo 'lxc.mount.entry: /dev/kfd dev/kfd none bind,optional,create=file' ;;
	bypath)
		echo "dev4: /dev/dri/by-path/pci-$bdf-card,gid=44"
		echo "dev5: /dev/dri/by-path/pci-$bdf-render,gid=993"
		[ "$kfd" = no ] || echo 'dev6: /dev/kfd,gid=993' ;;
	odd)
		echo 'lxc.mount.entry: /dev/dri/renderD128 dev/renderD128 none bind,optional,create=file'
		[ "$kfd" = no ] || echo 'lxc.mount.entry: /dev/kfd dev/kfd none bind,optional,create=file' ;;
	esac
}
# expect_before NAME: the GPU nodes inside before any apply, by hand
expect_before() {
	{
		case $1 in
		tteck) echo /dev/dri/renderD128=/dev/dri/renderD128 ;;
		dirbind) echo "/dev/dri/$card=/dev/dri/$card"
			echo /dev/dri/renderD128=/dev/dri/renderD128 ;;
		bypath) echo "/dev/dri/by-path/pci-$bdf-card=/dev/dri/$card"
			echo "/dev/dri/by-path/pci-$bdf-render=/dev/dri/renderD128" ;;
		odd) echo /dev/renderD128=/dev/dri/renderD128 ;;
		esac
		[ "$kfd" = no ] || echo /dev/kfd=/dev/kfd
		[ -z "$nv" ] || printf '%s\n' /dev/nvidia0=/dev/nvidia0 /dev/nvidiactl=/dev/nvidiactl \
			/dev/nvidia-uvm=/dev/nvidia-uvm /dev/nvidia-uvm-tools=/dev/nvidia-uvm-tools
	} | sort
}
# expect_devn NAME: the DRM/kfd devN values --style devn gives, by hand
expect_devn() {
	{
		case $1 in dirbind | bypath) echo "/dev/dri/$card,gid=44,mode=0660" ;; esac
		echo /dev/dri/renderD128,gid=993,mode=0660
		# bypath's kfd entry is a devN of its own name already: it stays
		case $kfd$1 in no*) ;; yesbypath) echo /dev/kfd,gid=993 ;; *) echo /dev/kfd,gid=993,mode=0660 ;; esac
	} | sort
}

# setup HOST RECIPE: CT 700, unprivileged, on local-zfs with Ubuntu 24.04's /etc/group
setup() {
	host_vars "$1"
	rm -rf "$pve" "$lxcp" "$work/zfs" "$work/state" "$work/backups"
	mkdir -p "$pve/lxc" "$lxcp" "$work/zfs/data/subvol-700-disk-0/etc"
	sed "s|/LXGPU-WORK|$work|g" "$src/tests/verify/storage/storage.cfg" >"$pve/storage.cfg"
	printf 'root:x:0:\nvideo:x:44:\nrender:x:993:\n' >"$work/zfs/data/subvol-700-disk-0/etc/group"
	{
		printf 'arch: amd64\nhostname: media\nmemory: 4096\nostype: ubuntu\n'
		printf 'rootfs: local-zfs:subvol-700-disk-0,size=8G\nunprivileged: 1\n'
		[ -z "$nv" ] || printf '%s\n' "$nv"
		recipe_lines "$2"
	} >"$conf"
	cp "$conf" "$work/orig.conf"
}

# before HOST RECIPE: the container has what Proxmox and LXC give it
t_before() {
	setup "$1" "$2" && verify_json || return 1
	expect_before "$2" >"$work/want"
	gpu_nodes >"$work/got"
	diff -u "$work/want" "$work/got"
}
# keep HOST RECIPE: apply without options keeps the config as it is, twice
t_keep() {
	setup "$1" "$2" || return 1
	lx_apply >"$work/out" 2>&1 || { echo "apply exit $?"; cat "$work/out"; return 1; }
	cmp "$work/orig.conf" "$conf" || { diff -u "$work/orig.conf" "$conf"; return 1; }
	lx_apply --dry-run >"$work/out" 2>&1 || { echo "second apply --dry-run exit $?"; cat "$work/out"; return 1; }
}
# devn HOST RECIPE: apply --style devn gives the same host nodes at their
# own names with the container's gids; a second apply changes nothing
t_devn() {
	setup "$1" "$2" && verify_json || return 1
	host_nodes >"$work/had"
	lx_apply --style devn >"$work/out" 2>&1 || { echo "apply --style devn exit $?"; cat "$work/out"; return 1; }
	# the DRM/kfd devN values, without their index
	sed -n -E 's#^dev[0-9]+: (/dev/(dri/|kfd).*)#\1#p' "$conf" | sort >"$work/got"
	expect_devn "$2" >"$work/want"
	diff -u "$work/want" "$work/got" || { cat "$conf"; return 1; }
	! grep -E '^lxc\.mount\.entry: /dev/(dri|kfd)|by-path' "$conf" || { echo "an old line stayed"; return 1; }
	[ -z "$nv" ] || [ "$(grep -c '^dev[0-3]: /dev/nvidia' "$conf")" -eq 4 ] || { echo "NVIDIA lines changed"; cat "$conf"; return 1; }
	verify_json || return 1
	host_nodes >"$work/has"
	diff -u "$work/had" "$work/has" || { echo "the host nodes the container gets changed"; return 1; }
	# each at its own name, render nodes and kfd of group 993, card nodes 44
	jq_ok "$work/v.json" '[.access.nodes[] | select(.host_path | test("^/dev/(dri/|kfd$)"))] |
		length > 0 and all(.path == .host_path and .mode == "0660" and
			(.gid | tostring) == (if (.path | test("card")) then "44" else "993" end))' ||
		{ jq -c '.access.nodes[]' "$work/v.json"; return 1; }
	cp "$conf" "$work/after.conf"
	lx_apply --style devn >"$work/out" 2>&1 || { echo "second apply exit $?"; cat "$work/out"; return 1; }
	cmp "$work/after.conf" "$conf" || { echo "second apply --style devn changed the file"; diff -u "$work/after.conf" "$conf"; return 1; }
	lx_apply --dry-run >"$work/out" 2>&1 || { echo "apply --dry-run after exit $?"; cat "$work/out"; return 1; }
}
# fixes HOST RECIPE: each DRM/kfd finding's fix, run as printed, clears it
# and the container keeps every GPU node it had
t_fixes() {
	setup "$1" "$2" && verify_json || return 1
	host_nodes >"$work/had"
	jq -r '.findings[] | select((.device_path // "") | test("^/dev/(dri/|kfd$)")) |
		"\(.code) \(.device_path)\t\(.fix)"' "$work/v.json" >"$work/findings"
	ran=0
	while IFS="$(printf '\t')" read -r what f; do
		verify_json || return 1
		# an earlier fix may have cleared it already
		jq -e --arg w "$what" 'any(.findings[]; "\(.code) \(.device_path)" == $w)' "$work/v.json" >/dev/null || continue
		case $f in "by hand:"*) echo "# $what is a manual step: $f"; continue ;; esac
		run_fix "$f" || { echo "the fix of $what failed: $f"; return 1; }
		ran=$((ran + 1))
		verify_json || return 1
		! jq -e --arg w "$what" 'any(.findings[]; "\(.code) \(.device_path)" == $w)' "$work/v.json" >/dev/null ||
			{ echo "$what is still there after: $f"; jq -c '.findings[]' "$work/v.json"; return 1; }
		host_nodes >"$work/has"
		comm -23 "$work/had" "$work/has" >"$work/lost"
		[ ! -s "$work/lost" ] || { echo "after $f the container lost:"; cat "$work/lost"; return 1; }
	done <"$work/findings"
	echo "# $ran fixes run"
}

for h in pve-intel-igpu pve-amd-rocm pve-rtx-4090; do
	for r in tteck dirbind bypath odd; do
		check "$h $r: the container has what Proxmox and LXC give it" t_before "$h" "$r"
		check "$h $r: apply keeps every line as it is" t_keep "$h" "$r"
		check "$h $r: apply --style devn gives the same nodes at their own names, the container's gids" t_devn "$h" "$r"
		check "$h $r: verify's fixes for DRM/kfd findings clear them and keep the nodes" t_fixes "$h" "$r"
	done
done

# The fixes' findings the recipes above must give (else t_fixes ran nothing):
# tteck's bind unusable unprivileged (LXG010), a by-path render node and a
# node mounted elsewhere (LXG008).
t_codes() {
	setup "$1" "$2" && verify_json || return 1
	jq_ok "$work/v.json" 'any(.findings[]; .code == $c and .device_path == $p)' --arg c "$3" --arg p "$4"
}
check "intel tteck gives LXG010 for renderD128" t_codes pve-intel-igpu tteck LXG010 /dev/dri/renderD128
check "intel dirbind gives LXG010 for renderD128" t_codes pve-intel-igpu dirbind LXG010 /dev/dri/renderD128
check "amd tteck gives LXG010 for kfd" t_codes pve-amd-rocm tteck LXG010 /dev/kfd
check "intel bypath gives LXG008: nothing at renderD128" t_codes pve-intel-igpu bypath LXG008 /dev/dri/renderD128
check "amd odd gives LXG008: nothing at renderD128" t_codes pve-amd-rocm odd LXG008 /dev/dri/renderD128

# An explicit --mode applies to devN entries that exist (issue 30, 4): the
# NVIDIA entries without a mode get it, each once, and a second apply is a no-op.
t_mode() {
	host_vars pve-rtx-4090
	setup pve-rtx-4090 tteck || return 1
	sed -i 's/,mode=0666$//' "$conf"
	lx_apply --gpus 0 --mode 0666 >"$work/out" 2>&1 || { echo "apply exit $?"; cat "$work/out"; return 1; }
	printf '%s\n' 'dev0: /dev/nvidia0,mode=0666' 'dev1: /dev/nvidiactl,mode=0666' \
		'dev2: /dev/nvidia-uvm,mode=0666' 'dev3: /dev/nvidia-uvm-tools,mode=0666' >"$work/want"
	grep '^dev' "$conf" >"$work/got"
	diff -u "$work/want" "$work/got" || return 1
	lx_apply --gpus 0 --mode 0666 --dry-run >"$work/out" 2>&1 || { echo "second apply --dry-run exit $?"; cat "$work/out"; return 1; }
}
check "apply --mode 0666 gives existing devN entries the mode" t_mode
tap_finish
