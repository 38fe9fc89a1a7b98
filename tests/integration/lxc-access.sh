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
# A Proxmox case has, instead of the "---" section, a section "--- pve":
# the CT's /etc/pve/lxc config, which is what lxgpu reads, and with a
# header line "generate: ARGS" that config is the section plus what
# `lxgpu generate 100 ARGS --no-comments` prints for it (lxgpu's path as
# @LXGPU@; --driver-libs' hook gets a made-up driver of the host model's
# version, @DRIVER_ROOT@ and @PROC_DIR@). What LXC gets is Proxmox's own translation, recorded from
# pve-container's code in ../pve-translated/CASE (README.md there): the
# config update_lxc_config writes and the nodes its prestart hook makes,
# per cgroup layout (generate writes each layout's keys, so the input is
# per layout too). The test checks that the recorded input is still
# this input, then starts LXC with the recorded config, paths substituted
# as that README says; where Proxmox refused (update_lxc_config died) the
# container does not start. LXGPU_PVE_ORACLE=DIR (tools/pve-oracle,
# root) re-records them instead, starting no container: see the README.
# The CT's autodev hook is pve-container's own where its code is, else a
# stand-in (pve_autodev_hook); what each start came to with the real one
# is recorded in ../pve-hook-verdicts/CASE/LAYOUT (README.md there), and
# the start must give that verdict, and a start the hook failed on a devN
# path a mount already filled must be verify's LXG023 and preflight's
# "will fail".
#
# A case may give the container's own users: "group: LINE" and "passwd:
# LINE" lines of its /etc/group and /etc/passwd (after busybox's root). A
# Proxmox case's rootfs is then "ctstore:100/subvol-100-disk-0.subvol", a dir
# storage whose root holds that /etc/group, so generate and verify read it
# there. Expectations written by hand: "gen: LINE" a line generate must
# print ("gen-warn-v1: TEXT" a warning it prints on the v1 half only),
# "pve-node: PATH TYPE MAJ:MIN MODE UID GID" a node Proxmox's prestart
# hook must have made (host ids), "stat: PATH UID GID GROUP" what stat says
# inside, and "probe-as: USER PATH WANT" an open by that user (su, with its
# groups) for r, w and rw, which must be WANT (allowed, eacces, eperm; a
# further "v1:WANT" on the v1 half) and what the access model predicts for
# that user's ids. "open: PATH R W RW" is what root inside gets opening
# PATH for reading, writing and both (allowed: opened or ENXIO, eperm,
# eacces, missing), whatever lxgpu predicts; such a case must start.
#
# LXGPU_ACCESS_CASES="GLOB ..." runs only the cases whose names match.
# The "v1" half needs a host whose LXC uses the v1 devices controller
# (hybrid); on a pure v2 host it is skipped, and with CI=true it fails.
# Usage: lxc-access.sh LXGPU EXAMPLES_DIR CASES_DIR   (TAP; root, lxc)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd) cases=$(cd "$3" && pwd)
lxc_config=/usr/share/lxc/config
recorded=$(cd "$cases/../pve-translated" && pwd)
verdicts=$(cd "$cases/../pve-hook-verdicts" && pwd)

. "$(dirname "$0")/../lib/lxc-env.sh"
# its unprivileged cases map 100000:65536, one passes gid 44 through
lxc_own_subids 100000:65536 44:1 -- "$0" "$@"
lxc_require "the real-LXC access test" lxc-create lxc-start lxc-attach lxc-stop lxc-destroy unshare busybox jq python3 cc ldconfig "$lxc_config/common.conf"
lxc_workdir lxgpu-access
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

# field FILE KEY: the values of "KEY: value" header lines of a case.
field() { sed -n '/^---/q; s/^'"$2"': *//p' "$1"; }

# The host model of a case: the example host on this layout with the LXC
# that runs the case (lxc-start --version: what a scan records), less the
# missing nodes (their "- path:" block in the nodes list).
lxc_version=$(lxc-start --version)
host_model() { # CASE LAYOUT OUT
	host=$(field "$1" host)
	gone=$(field "$1" missing | tr '\n' ' ')
	awk -v gone=" $gone " -v layout="$2" -v lxc="$lxc_version" '
		/^cgroup:/ { print "cgroup: " layout; print "lxc_version: \"" lxc "\""; next }
		/^lxc_version:/ { next }
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

# The model's prediction for USER's open of PATH in MODE: the file mode as
# the kernel applies it to the user's uid and groups (its passwd gid and the
# "group:" lines naming it), then the device cgroup as predict says (the
# kernel's inode_permission checks the mode before the device cgroup).
predict_as() { # ACCESS_JSON PATH MODE CASE USER
	want=$(predict "$1" "$2" "$3")
	case $want in missing | not-a-device) echo "$want"; return ;; esac
	uid=$(field "$4" passwd | awk -F: -v u="$5" '$1 == u { print $3 }')
	gids=$(field "$4" passwd | awk -F: -v u="$5" '$1 == u { print $4 }'
		field "$4" group | awk -F: -v u="$5" '("," $4 ",") ~ ("," u ",") { print $3 }')
	dac=$(jq -r --arg p "$2" --arg m "$3" --argjson uid "$uid" \
		--argjson gids "[$(echo "$gids" | paste -sd, -)]" '
		(.nodes | map(select(.path == $p)) | .[0]) as $n |
		($n.mode | explode | map(. - 48)) as $d |
		(if $n.uid == $uid then $d[1] elif ($gids | index($n.gid)) then $d[2] else $d[3] end) as $b |
		if ($m == "r" and ($b / 4 | floor) % 2 == 0) or ($m == "w" and ($b / 2 | floor) % 2 == 0)
		   or ($m == "rw" and (($b / 4 | floor) % 2 == 0 or ($b / 2 | floor) % 2 == 0)) then "eacces"
		else "allowed" end' "$1")
	if [ "$dac" = eacces ] || [ "$want" = eperm ]; then
		[ "$dac" = eacces ] && echo eacces || echo eperm
	else
		echo allowed
	fi
}

# The container's own users of a case ("group:" and "passwd:" lines) added
# to ROOT's /etc/group and /etc/passwd.
case_users() { # CASE ROOT
	mkdir -p "$2/etc"
	field "$1" group >>"$2/etc/group"
	field "$1" passwd >>"$2/etc/passwd"
}

# The dir storage "ctstore" of a case with users, under the Proxmox config
# dir PVE_DIR, its CT 100 root holding the case's /etc/group.
case_storage() { # CASE PVE_DIR
	[ -n "$(field "$1" group)" ] || return 0
	root="$2/store/images/100/subvol-100-disk-0.subvol"
	case_users "$1" "$root"
	printf 'dir: ctstore\n\tpath %s\n\tcontent rootdir\n' "$2/store" >"$2/storage.cfg"
}

# The CT config of a Proxmox case: its "--- pve" section, plus what lxgpu
# generate prints for it with the case's "generate:" arguments.
pve_input() { # CASE HOST_MODEL OUT
	sed '1,/^--- pve$/d' "$1" >"$3"
	gen=$(field "$1" generate)
	[ -n "$gen" ] || return 0
	mkdir -p "$3.d/lxc"
	cp "$3" "$3.d/lxc/100.conf"
	case_storage "$1" "$3.d"
	# shellcheck disable=SC2086
	"$lxgpu" --host "$2" --pve-dir "$3.d" --driver-root "$dir/driver" --proc-dir "$dir/proc" \
		generate 100 $gen --no-comments >"$3.gen" 2>"$3.err" || { cat "$3.err"; return 1; }
	sed -e "s|$lxgpu|@LXGPU@|g" -e "s|$dir/driver|@DRIVER_ROOT@|g" -e "s|$dir/proc|@PROC_DIR@|g" \
		"$3.gen" >>"$3"
}

# The host's driver for the --driver-libs hook: the version the case's host
# model loads, as a made-up --proc-dir (its version file) and --driver-root
# (a stand-in libcuda.so.VERSION, soname libcuda.so.1, and its loader cache).
pve_driver() { # HOST_MODEL DIR
	v=$("$lxgpu" --host "$1" scan --format json | jq -r '.driver.version')
	lib="$2/driver/usr/lib/x86_64-linux-gnu"
	mkdir -p "$lib" "$2/driver/etc" "$2/proc/driver/nvidia"
	printf 'const char *lxgpu_stub_version(void) { return "%s"; }\n' "$v" >"$2/stub.c"
	cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$lib/libcuda.so.$v" "$2/stub.c" || return 1
	ln -sf "libcuda.so.$v" "$lib/libcuda.so.1"
	echo /usr/lib/x86_64-linux-gnu >"$2/driver/etc/ld.so.conf"
	ldconfig -r "$2/driver" || return 1
	for f in devices modules cmdline; do cat "/proc/$f" >"$2/proc/$f" 2>/dev/null; done
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  %s  Release Build  (x)  Tue Jan  6 00:00:00 UTC 2026\n' \
		"$v" >"$2/proc/driver/nvidia/version"
}

# The include style's file for CT 100 under STATE, with every GPU of the
# host (what `apply 100 --style include --gpus all` writes), as generate
# prints it after the line.
pve_include_file() { # CASE HOST_MODEL INPUT STATE
	gen=$(field "$1" generate)
	mkdir -p "$4/lxc" "$3.d/lxc"
	sed '1,/^--- pve$/d' "$1" >"$3.d/lxc/100.conf"
	# shellcheck disable=SC2086
	"$lxgpu" --host "$2" --pve-dir "$3.d" --state-dir "$4" generate 100 $gen --gpus all --comments |
		sed -n '/^# ---- and in /q; /^# ---- .* ----$/,$p' | sed 1d >"$4/lxc/100.conf"
}

# This machine's LXC config files with pve-container's drop-ins installed
# (recorded in dropins/), all under $work/lxc-config, their paths changed
# to it. The drop-in's hooks: the prestart hook's work is the recorded node
# list (made by the test), the autodev hook is $work/pve-autodev
# (pve_autodev_hook), the post-stop hook only cleans up.
pve_lxc_config() {
	cp -r "$lxc_config" "$work/lxc-config"
	mkdir -p "$work/lxc-config/common.conf.d" "$work/lxc-config/userns.conf.d"
	cp "$recorded/dropins/userns.conf.d/01-pve.conf" "$work/lxc-config/userns.conf.d/"
	sed -e '/^lxc\.hook\.pre-start/d' -e '/^lxc\.hook\.post-stop/d' \
		-e "s|^lxc\.hook\.autodev = .*|lxc.hook.autodev = $work/pve-autodev|" \
		"$recorded/dropins/common.conf.d/01-pve.conf" >"$work/lxc-config/common.conf.d/01-pve.conf"
	find "$work/lxc-config" -type f -exec sed -i "s|$lxc_config|$work/lxc-config|g" {} +
}

# $work/pve-autodev, pve-container's autodev hook: where Proxmox's code is
# (tools/pve-oracle's library, LXGPU_PVE_LIB, with src/lxc-pve-autodev-hook
# and the Perl modules it loads) the real hook itself, unless
# LXGPU_PVE_AUTODEV=standin; elsewhere (CI, the LXC 6.0/7.0 roots) the
# stand-in pve-autodev-hook.c written from reading it. Either mknods each
# devN path in the container's /dev and binds passthrough/dev/X onto it,
# and dies on a path already there; the verdicts of the real one are
# recorded in pve-hook-verdicts/ and both must give them. Both read
# /var/lib/lxc/NAME/passthrough/, which inside.sh binds to the container's
# directory (a Proxmox case's container has a VMID for a name, as the hook
# wants). $autodev_hook says which one it is.
pve_autodev_hook() {
	lib=${LXGPU_PVE_LIB:-/tmp/pve-perl}
	if [ "${LXGPU_PVE_AUTODEV:-}" != standin ] && [ -f "$lib/lxc-pve-autodev-hook" ] &&
		perl -I"$lib" -e 'use PVE::LXC::Tools; use PVE::Tools' 2>/dev/null; then
		printf '#!/bin/sh\nexec perl -I"%s" "%s/lxc-pve-autodev-hook" "$@"\n' "$lib" "$lib" >"$work/pve-autodev"
		chmod 755 "$work/pve-autodev"
		autodev_hook="pve-container's own src/lxc-pve-autodev-hook, $(grep pve-container "$lib/VERSIONS")"
	else
		[ -z "${LXGPU_PVE_RECORD_VERDICTS:-}" ] ||
			{ echo "Bail out! LXGPU_PVE_RECORD_VERDICTS needs pve-container's own autodev hook in $lib (tools/pve-oracle/get-lib.sh)"; exit 1; }
		cc -O2 -Wall -o "$work/pve-autodev" "$(dirname "$0")/pve-autodev-hook.c" ||
			{ echo "Bail out! cannot build pve-autodev-hook.c"; exit 1; }
		autodev_hook="the stand-in tests/integration/pve-autodev-hook.c"
	fi
}

# LXC's config for a Proxmox case on LAYOUT: Proxmox's recorded one with
# the CT's directory, the LXC config dir, lxgpu and lxgpu's state dir
# substituted, then the sandbox's lines; the nodes of its prestart hook
# made under the CT's passthrough/. 1 (and the reason) when Proxmox refused.
pve_lxc_setup() { # CASE_DIR LAYOUT CT_DIR STATE
	r="$1/$2"
	if [ -f "$r/error" ]; then
		sed 's/^/# Proxmox: /' "$r/error"
		return 1
	fi
	# cgroup v2 limits (memory, cpu) the sandbox's v2 hierarchy has no
	# controller for (a hybrid host binds them to v1) are left out
	ctl=" $(cat /sys/fs/cgroup/cgroup.controllers /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null | tr '\n' ' ') "
	sed -e "s|/var/lib/lxc/100|$3|g" -e "s|$lxc_config|$work/lxc-config|g" \
		-e "s|@LXGPU@|$lxgpu|g" -e "s|/var/lib/lxgpu|$4|g" -e "s|@DRIVER_ROOT@|$dir/driver|g" \
		-e "s|@PROC_DIR@|$dir/proc|g" "$r/config" |
		awk -v ctl="$ctl" '/^lxc\.cgroup2\./ { split($1, k, ".")
			if (k[3] != "devices" && index(ctl, " " k[3] " ") == 0) next } { print }' >"$3/config"
	lxc_sandbox_conf >>"$3/config"
	[ -f "$r/rules.seccomp" ] && cp "$r/rules.seccomp" "$3/rules.seccomp"
	[ -f "$r/devices" ] && mkdir -p "$3/passthrough" && cp "$r/devices" "$3/passthrough/devices"
	[ -f "$r/nodes" ] || return 0
	while read -r path type numbers mode uid gid; do
		mkdir -p "$(dirname "$3/passthrough$path")"
		mknod -m "$mode" "$3/passthrough$path" "$type" "${numbers%%:*}" "${numbers##*:}" &&
			chown "$uid:$gid" "$3/passthrough$path"
	done <"$r/nodes"
}

# What a Proxmox case's start came to, from LXC's log of it: its first
# line "started" or "start failed"; after a failed start, what the autodev
# hook ($work/pve-autodev) printed ("hook: LINE", the rootfs mount
# written @ROOTFS_MOUNT@: the rootfs LXC logged it mounted onto), the
# status it exited with ("hook exit status: N") and LXC's "Failed to run
# autodev hooks". The real hook's "setlogsock()" warning (no /dev/log in
# the private /dev, so no syslog) is left out: it is no verdict.
pve_hook_verdict() { # OBSERVED LOG
	head -n 1 "$1"
	[ "$(head -n 1 "$1")" = started ] && return 0
	root=$(sed -n 's/.*Mounted rootfs ".*" onto "\(.*\)" with options.*/\1/p' "$2" | head -n 1)
	awk -v hook="$work/pve-autodev" -v root="$root" '
		function out(text) {
			if (text ~ /^setlogsock\(\)/ || text ~ /^[ \t]*$/) return
			if (root != "") while ((i = index(text, root "/")) > 0)
				text = substr(text, 1, i - 1) "@ROOTFS_MOUNT@" substr(text, i + length(root))
			print "hook: " text
		}
		/^lxc-start / { cont = 0 }
		/ - Executing script "/ { ours = index($0, "Executing script \"" hook "\"") > 0 }
		ours && /Script exec .* produced output: / {
			out(substr($0, index($0, "produced output: ") + 17)); cont = 1; next }
		cont { out($0); next }
		ours && /Script exited with status / { sub(/.*Script exited with status /, ""); print "hook exit status: " $0 }
		/Failed to run autodev hooks/ { print "lxc: Failed to run autodev hooks" }' "$2"
}

# Proxmox's translation of INPUT on LAYOUT by pve-lxc-config (the oracle
# ORACLE_DIR), on the case's host nodes, into OUT/LAYOUT.
pve_translate() { # ORACLE_DIR INPUT NODES LAYOUT OUT
	mkdir -p "$5/$4"
	[ "$2" = "$5/$4/100.conf" ] || cp "$2" "$5/$4/100.conf"
	"$1/pve-lxc-config" --lib "${LXGPU_PVE_LIB:-/tmp/pve-perl}" --cgroup "$4" \
		--nodes "$3" --vmid 100 --out "$5/$4" "$5/$4/100.conf" 2>"$5/$4.err" ||
		{ cat "$5/$4.err"; rm -f "$5/$4.err"; return 1; }
	rm -f "$5/$4.err"
}

# Re-record a Proxmox case: its input and, per layout, pve-lxc-config's
# output on the case's host nodes.
pve_record() { # CASE INPUT NODES LAYOUT
	pve_translate "$LXGPU_PVE_ORACLE" "$2" "$3" "$4" "$recorded/$(basename "$1" .case)"
}

cat "$(dirname "$0")/../lib/private-dev.sh" "$(dirname "$0")/../lib/probe-open.sh" \
	"$(dirname "$0")/../lib/wait-running.sh" >"$work/inside.sh"
cat >>"$work/inside.sh" <<'INSIDE'
# Runs in a private mount namespace: optional pure cgroup v2, a private /dev
# with the host nodes, the container, then the probes.
set -u
layout=$1 nodes=$2 lxcpath=$3 name=$4 probes=$5 out=$6 as_probes=$7 stats=$8 nvcli=$9
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
# A Proxmox CT's cgroups (lxc/100, lxc.monitor/100) left by an earlier
# case: removed before the start, as pve-container's prestart hook does;
# its directory at /var/lib/lxc/NAME, where pve-container's autodev hook
# reads passthrough/.
if grep -q '^lxc.cgroup.dir.container = lxc/100$' "$lxcpath/$name/config"; then
	mkdir -p /var/lib/lxc && mount -t tmpfs -o mode=755 lxgpu-pve /var/lib/lxc &&
		mkdir "/var/lib/lxc/$name" && mount --bind "$lxcpath/$name" "/var/lib/lxc/$name" || exit 3
	for base in /sys/fs/cgroup /sys/fs/cgroup/*; do
		for d in "$base/lxc/100" "$base/lxc.monitor/100"; do
			[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
		done
	done
fi
while read -r path type numbers mode uid gid; do
	mkdir -p "$(dirname "$path")"
	case $type in
	l) ln -s "$numbers" "$path" ;;
	*) mknod -m "$mode" "$path" "${type%"${type#?}"}" "${numbers%%:*}" "${numbers##*:}" &&
		chown "$uid:$gid" "$path" ;;
	esac
done <"$nodes"
# LXC's hooks/nvidia finds nvidia-container-cli on PATH: the stand-in
# (the nodes it mounts; no case without that hook runs it)
if ! PATH="$nvcli:$PATH" lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name.log" 2>/dev/null ||
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
# The case's own users' opens ("USER PATH"), and stat of the nodes it names.
while read -r user path; do
	for m in r w rw; do
		echo "$user $path $m $(probe_open "$lxcpath" "$name" "$path" "$m" "$user")" >>"$out.as"
	done
done <"$as_probes"
while read -r path; do
	echo "$path $(lxc-attach -P "$lxcpath" -n "$name" -- stat -c '%u %g %G' "$path" 2>&1)" >>"$out.stat"
done <"$stats"
lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
INSIDE

# The command that re-records the Proxmox cases (needs the oracle and root).
rerecord="(from the source tree) LXGPU_PVE_ORACLE=\$PWD/tools/pve-oracle LXGPU_PVE_LIB=/tmp/pve-perl meson test -C build lxc-access (or tests/integration/lxc-access.sh LXGPU EXAMPLES CASES as root); tests/integration/pve-translated/README.md"
[ -n "${LXGPU_PVE_ORACLE:-}" ] && [ ! -x "$LXGPU_PVE_ORACLE/pve-lxc-config" ] &&
	{ echo "Bail out! LXGPU_PVE_ORACLE=$LXGPU_PVE_ORACLE has no pve-lxc-config"; exit 1; }
if [ -n "${LXGPU_PVE_ORACLE:-}" ]; then
	# re-recording: pve-container's drop-ins too, from the same sources
	pve_lib=${LXGPU_PVE_LIB:-/tmp/pve-perl}
	mkdir -p "$recorded/dropins/common.conf.d" "$recorded/dropins/userns.conf.d"
	cp "$pve_lib/lxc-pve.conf" "$recorded/dropins/common.conf.d/01-pve.conf"
	cp "$pve_lib/lxc-pve-userns.conf" "$recorded/dropins/userns.conf.d/01-pve.conf"
	cp "$pve_lib/VERSIONS" "$recorded/dropins/VERSIONS"
fi
pve_lxc_config
pve_autodev_hook
mkdir -p "$work/nvcli"
cp "$(dirname "$0")/nvidia-container-cli-standin" "$work/nvcli/nvidia-container-cli"
echo "# Proxmox cases: the autodev hook is $autodev_hook"
v1_why=$(lxc_cgroup_v1_here) && v1_why=""

# Proxmox's translation at test time (issue 33): where the oracle can run
# (tools/pve-oracle's pve-lxc-config, Proxmox's code extracted to
# LXGPU_PVE_LIB, default /tmp/pve-perl, by its get-lib.sh, and its Perl
# modules), each Proxmox case starts from Proxmox's translation of what
# generate prints today, and the recording is only the regression pin of
# that input. Elsewhere (CI has no copy of Proxmox's code) the recording is
# used: it is the oracle's translation of the same input as long as the pin
# holds.
oracle=$(cd "$(dirname "$0")/../../tools/pve-oracle" && pwd)
live_oracle=""
if [ -z "${LXGPU_PVE_ORACLE:-}" ] && [ -f "${LXGPU_PVE_LIB:-/tmp/pve-perl}/VERSIONS" ] &&
	perl -e 'use JSON; use AnyEvent; use Net::IP' 2>/dev/null; then
	live_oracle=1
	echo "# Proxmox cases: translated now by $oracle/pve-lxc-config, $(tr '\n' ' ' <"${LXGPU_PVE_LIB:-/tmp/pve-perl}/VERSIONS")"
else
	echo "# Proxmox cases: started from the recorded translations (no oracle here: tools/pve-oracle/README.md)"
fi

n=0
for case_file in "$cases"/*.case; do
	case_name=$(basename "$case_file" .case)
	if [ -n "${LXGPU_ACCESS_CASES:-}" ]; then
		hit=""
		for pat in $LXGPU_ACCESS_CASES; do
			# shellcheck disable=SC2254
			case $case_name in $pat) hit=1 ;; esac
		done
		[ -n "$hit" ] || continue
	fi
	pve=""
	grep -q '^--- pve$' "$case_file" && pve="$recorded/$case_name"
	# re-recording: the Proxmox cases' translations only, no container
	[ -n "${LXGPU_PVE_ORACLE:-}" ] && [ -z "$pve" ] && continue
	for layout in $(lxc_layouts); do
		n=$((n + 1))
		name="c$n"
		# a Proxmox CT's name is its VMID (pve-container's hooks want one)
		[ -n "$pve" ] && name=$((1000 + n))
		dir="$work/$case_name.$layout"
		mkdir -p "$dir"
		# v1: a hybrid layout, the devices controller is v1 (FACTS section 7).
		model_layout=$layout
		[ "$layout" = v1 ] && model_layout=hybrid
		if [ "$layout" = v1 ] && [ -n "$v1_why" ]; then
			skip "$case_name on cgroup $layout: lxgpu predicts what real LXC does" "$v1_why"
			continue
		fi
		host_model "$case_file" "$model_layout" "$dir/host.yaml"
		host_nodes "$dir/host.yaml" "$dir/nodes"
		probes=$(field "$case_file" probe)
		if [ -z "$probes" ]; then
			probes=$(awk '$2 != "l" { print $1 }' "$dir/nodes"; echo /dev/null)
		fi
		echo "$probes" >"$dir/probes"
		# the hand-written opens are probed too
		field "$case_file" open | awk '{ print $1 }' | while read -r p; do
			grep -qxF "$p" "$dir/probes" || echo "$p" >>"$dir/probes"
		done
		tr=$pve
		if [ -n "$pve" ]; then
			t_input() {
				pve_input "$case_file" "$dir/host.yaml" "$dir/100.conf" || return 1
				if [ -n "${LXGPU_PVE_ORACLE:-}" ]; then
					pve_record "$case_file" "$dir/100.conf" "$dir/nodes" "$model_layout" || return 1
				fi
				[ -f "$pve/$model_layout/provenance" ] ||
					{ echo "no recording $pve/$model_layout: $rerecord"; return 1; }
				diff -u "$pve/$model_layout/100.conf" "$dir/100.conf" >"$dir/input.diff" && return 0
				echo "the recorded Proxmox input is not what this case gives now: re-record with $rerecord"
				cat "$dir/input.diff"
				return 1
			}
			# The hand-written expectations of generate's lines and Proxmox's nodes.
			t_expected() {
				rc=0
				field "$case_file" gen >"$dir/gen.want"
				while IFS= read -r line; do
					grep -qxF "$line" "$dir/100.conf" && continue
					echo "# generate did not print: $line"
					rc=1
				done <"$dir/gen.want"
				field "$case_file" pve-node >"$dir/node.want"
				while IFS= read -r line; do
					grep -qxF "$line" "$tr/$model_layout/nodes" && continue
					echo "# Proxmox's prestart hook did not make: $line"
					rc=1
				done <"$dir/node.want"
				[ $rc -eq 0 ] || sed 's/^/# made: /' "$tr/$model_layout/nodes"
				# a warning generate must print on the v1 half only
				field "$case_file" gen-warn-v1 >"$dir/warn.want"
				while IFS= read -r text; do
					if grep -qF "$text" "$dir/100.conf.err"; then
						[ "$layout" = v1 ] && continue
						echo "# generate warned on cgroup $layout: $text"
					else
						[ "$layout" = v2 ] && continue
						echo "# generate did not warn: $text"
					fi
					rc=1
				done <"$dir/warn.want"
				return $rc
			}
			check "$case_name on cgroup $layout: the recorded Proxmox translation is of this input" t_input
			if [ -n "$live_oracle" ]; then
				tr=$dir/live
				t_translate() {
					[ -f "$dir/100.conf" ] || pve_input "$case_file" "$dir/host.yaml" "$dir/100.conf" || return 1
					pve_translate "$oracle" "$dir/100.conf" "$dir/nodes" "$model_layout" "$tr"
				}
				check "$case_name on cgroup $layout: Proxmox translates what generate prints today (the oracle)" t_translate
			fi
			if [ -n "$(field "$case_file" gen)$(field "$case_file" pve-node)" ]; then
				check "$case_name on cgroup $layout: generate's lines and Proxmox's nodes are the hand-written ones" t_expected
			fi
			[ -n "${LXGPU_PVE_ORACLE:-}" ] && continue
		fi
		t_case() {
			lxc_sandbox_create "$name" || return 1
			verify_dirs="--lxc-path $lxcpath"
			proxmox_refused=""
			if [ -n "$pve" ]; then
				mkdir -p "$dir/pve/lxc" "$dir/state"
				sed -e "s|@LXGPU@|$lxgpu|g" -e "s|/var/lib/lxgpu|$dir/state|g" \
					-e "s|@DRIVER_ROOT@|$dir/driver|g" -e "s|@PROC_DIR@|$dir/proc|g" "$tr/$model_layout/100.conf" \
					>"$dir/pve/lxc/$name.conf"
				if grep -q '^lxc.hook.mount: @LXGPU@ ' "$tr/$model_layout/100.conf"; then
					pve_driver "$dir/host.yaml" "$dir" || { echo "could not make the driver stand-in"; return 1; }
				fi
				verify_dirs="$verify_dirs --pve-dir $dir/pve"
				case_storage "$case_file" "$dir/pve"
				if grep -q '^lxc.include: /var/lib/lxgpu/' "$tr/$model_layout/100.conf"; then
					pve_include_file "$case_file" "$dir/host.yaml" "$dir/inc" "$dir/state"
				fi
				pve_lxc_setup "$tr" "$model_layout" "$lxcpath/$name" "$dir/state" >"$dir/refused" ||
					proxmox_refused=1
			else
				sed '1,/^---$/d' "$case_file" | sed "s|@LXC_CONFIG@|$lxc_config|g" >>"$conf"
				# After the case: common.conf would set ttys this sandbox cannot give.
				lxc_sandbox_conf >>"$conf"
			fi
			case_users "$case_file" "$lxcpath/$name/rootfs"
			if grep -q '^lxc.idmap' "$conf"; then
				lxc_shift_rootfs "$lxcpath" "$name"
			fi
			# its status as its findings say, and a parsed access model: a
			# verify that crashed or printed nothing is never a prediction
			# shellcheck disable=SC2086
			lx_json sev "$dir/verify.json" "$lxgpu" --host "$dir/host.yaml" $verify_dirs \
				verify "$name" --format json &&
				jq_ok "$dir/verify.json" '.access | objects' || return 1
			jq '.access' "$dir/verify.json" >"$dir/access.json" || return 1
			if [ -n "$proxmox_refused" ]; then
				echo "start failed" >"$dir/observed"
			else
				field "$case_file" probe-as | awk '{ print $1, $2 }' >"$dir/as-probes"
				field "$case_file" stat | awk '{ print $1 }' >"$dir/stats"
				unshare -m --propagation private sh "$work/inside.sh" "$layout" "$dir/nodes" \
					"$lxcpath" "$name" "$dir/probes" "$dir/observed" "$dir/as-probes" "$dir/stats" "$work/nvcli" ||
					{ echo "could not set up the $layout namespace"; return 1; }
			fi
			if [ -n "$pve" ] && [ -z "$proxmox_refused" ]; then
				pve_hook_verdict "$dir/observed" "$lxcpath/$name.log" >"$dir/verdict"
				# what preflight says of the next start
				# shellcheck disable=SC2086
				lx_json "0|1" "$dir/preflight.json" "$lxgpu" --host "$dir/host.yaml" $verify_dirs \
					preflight "$name" --format json || return 1
			fi
			predicted_start=$(jq -r 'if .starts then "started" else "start failed" end' "$dir/access.json")
			observed_start=$(head -n 1 "$dir/observed")
			rc=0
			# What root opens inside, written by hand: the kernel's answer for
			# each mode, whatever lxgpu predicts (a case with such lines starts).
			field "$case_file" open >"$dir/open.want"
			if [ -s "$dir/open.want" ] && [ "$observed_start" != started ]; then
				echo "# the case expects opens inside, and real LXC: $observed_start"
				cat "$dir/refused" 2>/dev/null
				rc=1
			fi
			while read -r path r w rw; do
				[ "$observed_start" = started ] || break
				for m in r w rw; do
					eval "hand=\$$m"
					seen=$(awk -v p="$path" -v m="$m" '$1 == p && $2 == m { print $3 }' "$dir/observed")
					[ "$seen" = "$hand" ] && continue
					echo "# $path open($m) inside: real LXC ${seen:-nothing}, expected by hand $hand"
					rc=1
				done
			done <"$dir/open.want"
			if [ "$predicted_start" != "$observed_start" ]; then
				echo "# real LXC: $observed_start; lxgpu predicted: $predicted_start"
				cat "$dir/refused" 2>/dev/null
				jq -c '.start_failures' "$dir/access.json" | sed 's/^/# /'
				grep ERROR "$lxcpath/$name.log" 2>/dev/null | grep -v 'lxc_start - \|__lxc_start\|wait_on_daemon' | cut -d' ' -f4- | tail -n 4 | sed 's/^/# /'
				rc=1
			elif [ "$observed_start" = "start failed" ] &&
				key=$(sed -n 's/.*Unsupported config key "\([^"]*\)".*/\1/p' "$lxcpath/$name.log" 2>/dev/null | head -n 1) &&
				[ -n "$key" ]; then
				# LXC 7 refused a key at parse time: lxgpu names that key, and
				# in a plain LXC config the very line LXC names
				text=$(sed -n 's/.*Failed to parse config file .* at line "\(.*\)"$/\1/p' "$lxcpath/$name.log" | head -n 1)
				jq -r --arg k "Unsupported config key \"$key\"" \
					'.start_failures[] | select(.message | contains($k)) | "\(.line) \(.file)"' \
					"$dir/access.json" >"$dir/named"
				if [ ! -s "$dir/named" ]; then
					echo "# real LXC refused the key $key; lxgpu's start failures do not name it"
					jq -c '.start_failures' "$dir/access.json" | sed 's/^/# /'
					rc=1
				fi
				# (LXC stops at the first; lxgpu names every one)
				if [ -s "$dir/named" ] && grep -q " $conf\$" "$dir/named" &&
					! (while read -r line file; do
						[ "$file" = "$conf" ] || continue
						[ "$(sed -n "${line}p" "$file" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')" = "$text" ] && exit 0
					done <"$dir/named"; exit 1); then
					echo "# LXC failed at \"$text\"; lxgpu names lines $(awk '{ print $1 }' "$dir/named" | paste -sd, -) of $conf"
					rc=1
				fi
			elif [ "$observed_start" = started ]; then
				tail -n +2 "$dir/observed" | while read -r path m seen; do
					want=$(predict "$dir/access.json" "$path" "$m")
					[ "$want" = "$seen" ] && continue
					echo "# $path open($m): real LXC $seen, lxgpu predicted $want"
					echo fail
				done >"$dir/diff"
				# the case's users: the hand-written outcome and the model's
				field "$case_file" probe-as | while read -r user path hand on_v1; do
					[ "$layout" = v1 ] && [ -n "$on_v1" ] && hand=${on_v1#v1:}
					for m in r w rw; do
						seen=$(awk -v u="$user" -v p="$path" -v m="$m" '$1 == u && $2 == p && $3 == m { print $4 }' "$dir/observed.as" 2>/dev/null)
						want=$(predict_as "$dir/access.json" "$path" "$m" "$case_file" "$user")
						[ "$seen" = "$hand" ] && [ "$want" = "$seen" ] && continue
						echo "# $user: $path open($m): real LXC ${seen:-nothing}, expected $hand, lxgpu predicted $want"
						echo fail
					done
				done >>"$dir/diff"
				field "$case_file" stat | while read -r path uid gid group; do
					seen=$(awk -v p="$path" '$1 == p { $1 = ""; print substr($0, 2) }' "$dir/observed.stat" 2>/dev/null)
					[ "$seen" = "$uid $gid $group" ] && continue
					echo "# stat $path inside: '$seen', expected '$uid $gid $group'"
					echo fail
				done >>"$dir/diff"
				if grep -q fail "$dir/diff"; then
					grep -v '^fail' "$dir/diff"
					rc=1
				fi
			fi
			lxc-destroy -P "$lxcpath" -n "$name" -f >/dev/null 2>&1
			return $rc
		}
		proxmox_refused=""
		check "$case_name on cgroup $layout: lxgpu predicts what real LXC does" t_case
		[ -n "$pve" ] && [ -z "$proxmox_refused" ] || continue
		# pve-container's own autodev hook's verdict on this start, recorded
		# where Proxmox's code is: the hook run now (the real one or the
		# stand-in) gives it, and where it failed the start on a devN path
		# already there, verify (LXG023) and preflight (will fail) said so
		t_verdict() {
			want="$verdicts/$case_name/$model_layout"
			[ -f "$dir/verdict" ] || { echo "no verdict observed (the start did not run)"; return 1; }
			if [ -n "${LXGPU_PVE_RECORD_VERDICTS:-}" ]; then
				mkdir -p "$(dirname "$want")"
				cp "$dir/verdict" "$want"
			fi
			[ -f "$want" ] || { echo "no recorded verdict $want: record it with LXGPU_PVE_RECORD_VERDICTS=1 ($verdicts/README.md)"; return 1; }
			if ! diff -u "$want" "$dir/verdict" >"$dir/verdict.diff"; then
				echo "# the start with $autodev_hook is not the recorded one of pve-container's hook:"
				sed 's/^/# /' "$dir/verdict.diff"
				return 1
			fi
			sed -n 's|^hook: Could not mknod @ROOTFS_MOUNT@\(.*\): File exists$|\1|p' "$want" >"$dir/exists"
			[ -s "$dir/exists" ] || return 0
			p=$(cat "$dir/exists")
			jq_ok "$dir/verify.json" '[.findings[] | select(.code == "LXG023" and .severity == "error" and
				(.message | contains("Could not mknod \($p): File exists")))] | length == 1' --arg p "$p" &&
				jq_ok "$dir/preflight.json" '.next_start | length == 1 and .[0].verdict == "will fail" and
					any(.[0].reasons[]; .code == "LXG023" and .device_path == $p)' --arg p "$p"
		}
		check "$case_name on cgroup $layout: the start is pve-container's autodev hook's recorded verdict, and lxgpu said so" t_verdict
	done
done
tap_finish
