#!/bin/sh
# Real LXC decides: for each case in CASES_DIR, start a real LXC container
# with the case's config lines, on cgroup v1 (this machine's layout) and on
# a pure cgroup v2 hierarchy (cgroup2 mounted in a private mount namespace,
# FACTS section 7), and open every probed node inside it for reading, for
# writing and for both. A node with no driver behind it opens with ENXIO
# when the device cgroup allows it and fails with EPERM when it denies it;
# EACCES is the file mode; ENOENT a node that is not there; and an empty
# file is what a skipped optional mount with create=file leaves behind. lxgpu's model of
# the same config (verify --format json, "access") must predict each of
# those outcomes, and whether the container starts at all.
#
# Case file: "# ..." comments, "host: NAME" (an example host), "missing:
# PATH" (a node the host lacks), "probe: PATH" (default: the host's nodes and
# /dev/null), then a line "---" and the container's config lines, where
# @LXC_CONFIG@ is LXC's config directory. lxc.idmap lines make the container
# really unprivileged (its rootfs is shifted to match).
#
# A Proxmox case adds a section "--- pve": the CT's /etc/pve/lxc config,
# which is what lxgpu reads. The "---" section is then what pve-container
# makes of it for LXC, written by hand from PVE::LXC::update_lxc_config and
# the prestart/autodev hooks (lxgpu's simulation of that is under test, so
# it cannot be the source); "passthrough: PATH TYPE MAJ:MIN MODE UID GID"
# lines are the nodes PVE's prestart hook makes for devN entries (host ids),
# bind-mounted from @PASSTHROUGH@, as its autodev hook does.
# Usage: lxc-access.sh LXGPU EXAMPLES_DIR CASES_DIR   (TAP; root, lxc)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd) cases=$(cd "$3" && pwd)
lxc_config=/usr/share/lxc/config

. "$(dirname "$0")/../lib/lxc-env.sh"
# its unprivileged cases map 100000:65536, one passes gid 44 through
lxc_own_subids 100000:65536 44:1 -- "$0" "$@"
lxc_require "the real-LXC access test" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy unshare busybox jq "$lxc_config/common.conf"
lxc_workdir lxgpu-access
. "$(dirname "$0")/../lib/tap.sh"

# field FILE KEY: the values of "KEY: value" header lines of a case.
field() { sed -n '/^---$/q; s/^'"$2"': *//p' "$1"; }

# The host model of a case: the example host on this layout, less the
# missing nodes (their "- path:" block in the nodes list).
host_model() { # CASE LAYOUT OUT
	host=$(field "$1" host)
	gone=$(field "$1" missing | tr '\n' ' ')
	awk -v gone=" $gone " -v layout="$2" '
		/^cgroup:/ { print "cgroup: " layout; next }
		/^nodes:/ { in_nodes = 1 }
		/^[a-z]/ && !/^nodes:/ { in_nodes = 0 }
		in_nodes && /^- path: / { skip = index(gone, " " $3 " ") > 0 }
		in_nodes && skip { next }
		{ print }' "$examples/$host.yaml" >"$3"
}

# Host nodes to make in the private /dev: "path type major:minor mode uid gid",
# and the GPUs' DRM by-path links as "path l target".
host_nodes() { # MODEL OUT
	"$lxgpu" --host "$1" scan --format json | jq -r '
		(.nodes[] | "\(.path) \(.type) \(.major):\(.minor) \(.mode) \(.uid) \(.gid)"),
		(.gpus[] | .drm[]? | select(.by_path) | "/dev/dri/by-path/\(.by_path) l ../\(.name)")' >"$2"
}

# The model's prediction for PATH and an open mode (r, w, rw), from the
# access JSON: allowed, eperm, eacces, missing.
predict() { # ACCESS_JSON PATH MODE
	jq -r --arg p "$2" --arg m "$3" '
		. as $a | ($a.nodes | map(select(.path == $p)) | .[0]) as $n |
		if $n == null and ($a.placeholders | index($p)) then "not-a-device"
		elif $n == null then "missing"
		elif ($m == "r" and ($n.read | not)) or ($m == "w" and ($n.write | not))
		     or ($m == "rw" and ($n.read_write | not)) then "eperm"
		else
			# DAC as the kernel applies it to root inside: privileged root, or
			# root of a user namespace that maps the node owner and group,
			# may open it; otherwise only the "other" bits count.
			($n.mode | explode | .[3] - 48) as $other |
			if ($a.unprivileged | not) or ($n.uid != "nobody" and $n.gid != "nobody") then "allowed"
			elif ($m == "r" and ($other / 4 | floor) % 2 == 0) or ($m == "w" and ($other / 2 | floor) % 2 == 0)
			     or ($m == "rw" and (($other / 4 | floor) % 2 == 0 or ($other / 2 | floor) % 2 == 0)) then "eacces"
			else "allowed" end
		end' "$1"
}

cat "$(dirname "$0")/../lib/private-dev.sh" "$(dirname "$0")/../lib/probe-open.sh" \
	"$(dirname "$0")/../lib/wait-running.sh" >"$work/inside.sh"
cat >>"$work/inside.sh" <<'INSIDE'
# Runs in a private mount namespace: optional pure cgroup v2, a private /dev
# with the host nodes, the container, then the probes.
set -u
layout=$1 nodes=$2 lxcpath=$3 name=$4 probes=$5 out=$6
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
while read -r path type numbers mode uid gid; do
	mkdir -p "$(dirname "$path")"
	case $type in
	l) ln -s "$numbers" "$path" ;;
	*) mknod -m "$mode" "$path" "${type%"${type#?}"}" "${numbers%%:*}" "${numbers##*:}" &&
		chown "$uid:$gid" "$path" ;;
	esac
done <"$nodes"
if ! lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name.log" 2>/dev/null ||
	! wait_running "$lxcpath" "$name" 20; then
	echo "start failed" >"$out"
	exit 0
fi
echo "started" >"$out"
# One open per mode; the shell's redirection error names the errno.
while read -r path; do
	for m in r w rw; do
		echo "$path $m $(probe_open "$lxcpath" "$name" "$path" "$m")" >>"$out"
	done
done <"$probes"
lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
INSIDE

n=0
for case_file in "$cases"/*.case; do
	case_name=$(basename "$case_file" .case)
	for layout in v1 v2; do
		n=$((n + 1))
		name="c$n"
		dir="$work/$case_name.$layout"
		mkdir -p "$dir"
		# v1 here is this machine's hybrid layout: the devices controller is v1.
		model_layout=$layout
		[ "$layout" = v1 ] && model_layout=hybrid
		host_model "$case_file" "$model_layout" "$dir/host.yaml"
		host_nodes "$dir/host.yaml" "$dir/nodes"
		probes=$(field "$case_file" probe)
		if [ -z "$probes" ]; then
			probes=$(awk '$2 != "l" { print $1 }' "$dir/nodes"; echo /dev/null)
		fi
		echo "$probes" >"$dir/probes"
		t_case() {
			lxc_sandbox_create "$name" || return 1
			sed '1,/^---$/d; /^--- pve$/,$d' "$case_file" |
				sed -e "s|@LXC_CONFIG@|$lxc_config|g" -e "s|@PASSTHROUGH@|$dir/passthrough|g" >>"$conf"
			verify_dirs="--lxc-path $lxcpath"
			if grep -q '^--- pve$' "$case_file"; then
				mkdir -p "$dir/pve/lxc"
				sed '1,/^--- pve$/d' "$case_file" >"$dir/pve/lxc/$name.conf"
				verify_dirs="$verify_dirs --pve-dir $dir/pve"
			fi
			field "$case_file" passthrough | while read -r path type numbers mode uid gid; do
				mkdir -p "$(dirname "$dir/passthrough$path")"
				mknod -m "$mode" "$dir/passthrough$path" "$type" "${numbers%%:*}" "${numbers##*:}" &&
					chown "$uid:$gid" "$dir/passthrough$path"
			done
			# After the case: common.conf would set ttys this sandbox cannot give.
			lxc_sandbox_conf >>"$conf"
			if grep -q '^lxc.idmap' "$conf"; then
				lxc_shift_rootfs "$lxcpath" "$name"
			fi
			# shellcheck disable=SC2086
			"$lxgpu" --host "$dir/host.yaml" $verify_dirs verify "$name" --format json \
				>"$dir/verify.json" 2>"$dir/verify.err"
			jq '.access' "$dir/verify.json" >"$dir/access.json" ||
				{ cat "$dir/verify.err"; return 1; }
			unshare -m --propagation private sh "$work/inside.sh" "$layout" "$dir/nodes" \
				"$lxcpath" "$name" "$dir/probes" "$dir/observed" ||
				{ echo "could not set up the $layout namespace"; return 1; }
			predicted_start=$(jq -r 'if .starts then "started" else "start failed" end' "$dir/access.json")
			observed_start=$(head -n 1 "$dir/observed")
			rc=0
			if [ "$predicted_start" != "$observed_start" ]; then
				echo "# real LXC: $observed_start; lxgpu predicted: $predicted_start"
				jq -c '.start_failures' "$dir/access.json" | sed 's/^/# /'
				grep ERROR "$lxcpath/$name.log" | grep -v 'lxc_start - \|__lxc_start\|wait_on_daemon' | cut -d' ' -f4- | tail -n 4 | sed 's/^/# /'
				rc=1
			elif [ "$observed_start" = started ]; then
				tail -n +2 "$dir/observed" | while read -r path m seen; do
					want=$(predict "$dir/access.json" "$path" "$m")
					[ "$want" = "$seen" ] && continue
					echo "# $path open($m): real LXC $seen, lxgpu predicted $want"
					echo fail
				done >"$dir/diff"
				if grep -q fail "$dir/diff"; then
					grep -v '^fail' "$dir/diff"
					rc=1
				fi
			fi
			lxc-destroy -P "$lxcpath" -n "$name" -f >/dev/null 2>&1
			return $rc
		}
		check "$case_name on cgroup $layout: lxgpu predicts what real LXC does" t_case
	done
done
tap_finish
