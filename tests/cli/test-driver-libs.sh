#!/bin/sh
# --driver-libs and the hook's command line, without root: the hook line
# generate prints in each style and apply adds once (Proxmox accepts
# lxc.hook.mount as a raw key: pve-container's Config.pm valid_lxc_conf_keys),
# a hook line the config has kept, and the hook refusing to run outside a
# mount hook. Usage: test-driver-libs.sh LXGPU EXAMPLES_DIR   (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
host="$examples/pve-rtx-4090.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
pve="$work/pve" locks="$work/locks"
mkdir -p "$pve/lxc" "$locks" "$work/driver root"
conf="$pve/lxc/100.conf"
lx() { "$lxgpu" --host "$host" --pve-dir "$pve" --lock-dir "$locks" --backup-dir "$work/backups" --state-dir "$work/state" "$@"; }
gen() { "$lxgpu" --host "$host" "$@"; }
live() { sed '/^\[/,$d' "$conf"; }

t_generate_styles() {
	for style in devn raw lxc; do
		gen generate --style "$style" --driver-libs --no-comments >"$work/$style" || return 1
		case $style in lxc) sep=' = ' ;; *) sep=': ' ;; esac
		[ "$(grep -c "^lxc.hook.mount$sep/.* hook\$" "$work/$style")" -eq 1 ] ||
			{ echo "$style:"; cat "$work/$style"; return 1; }
	done
	! gen generate --no-comments | grep -q hook.mount
}
check "generate --driver-libs: one lxc.hook.mount line per style in its syntax, none without" t_generate_styles

# The words LXC's sh -c "exec VALUE 'name' 'lxc' 'mount'" runs.
t_passed_on() {
	gen --driver-root "$work/driver root" --proc-dir /srv/proc generate --style lxc --driver-libs \
		--no-comments | sed -n 's/^lxc.hook.mount = //p' >"$work/value" || return 1
	words=$(sh -c "set -- $(cat "$work/value"); shift; printf '[%s]' \"\$@\"")
	[ "$words" = "[--driver-root][$work/driver root][--proc-dir][/srv/proc][hook]" ] ||
		{ echo "words: $words"; return 1; }
	first=$(sh -c "set -- $(cat "$work/value"); printf '%s' \"\$1\"")
	[ -x "$first" ] || { echo "the line runs $first, not an executable"; return 1; }
}
check "--driver-root (with a blank) and --proc-dir are passed on; the binary exists" t_passed_on

cat >"$conf" <<'CONF'
arch: amd64
hostname: gpu
ostype: debian
lxc.cgroup2.devices.allow: c 195:* rwm

[snap]
hostname: gpu
CONF
cp "$conf" "$work/snap-before"
t_apply_adds() {
	lx apply 100 --gpus 0 --driver-libs >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	[ "$(live | grep -c '^lxc.hook.mount: /.* hook$')" -eq 1 ] || { cat "$conf"; return 1; }
	[ "$(sed -n '/^\[snap\]/,$p' "$conf")" = "$(sed -n '/^\[snap\]/,$p' "$work/snap-before")" ] ||
		{ echo "the snapshot section changed"; return 1; }
	[ "$(grep -c 'lxc.hook.mount' "$conf")" -eq 1 ]
}
check "apply --driver-libs adds the hook line once, in the live section" t_apply_adds
t_apply_again() {
	cp "$conf" "$work/after-first"
	lx apply 100 --gpus 0 --driver-libs --dry-run >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	lx apply 100 --gpus 0 --driver-libs >"$work/out" 2>&1 && cmp -s "$conf" "$work/after-first"
}
check "a second apply --driver-libs changes nothing (dry run exit 0, file the same)" t_apply_again
t_keeps_users() {
	sed -i '/^lxc.hook.mount/d' "$conf"
	sed -i 's|^ostype: debian$|ostype: debian\nlxc.hook.mount: /usr/bin/lxgpu --driver-root /mnt/drv hook --optional|' "$conf"
	lx apply 100 --gpus 0 --driver-libs >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	[ "$(grep -c 'lxc.hook.mount' "$conf")" -eq 1 ] &&
		grep -qx 'lxc.hook.mount: /usr/bin/lxgpu --driver-root /mnt/drv hook --optional' "$conf"
}
check "a hook line the config has is kept as the user wrote it, none added" t_keeps_users
t_cleared() {
	sed -i 's|^lxc.hook.mount: /usr/bin/lxgpu .*|&\nlxc.hook.mount: |' "$conf"
	lx apply 100 --gpus 0 --driver-libs >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	[ "$(live | grep -c '^lxc.hook.mount: /.* hook$')" -eq 1 ] || { cat "$conf"; return 1; }
}
check "a hook line cleared by a later empty lxc.hook.mount does not count: the line is added" t_cleared
t_cleared_after() {
	sed -i '/^lxc.hook.mount/d' "$conf"
	sed -i 's|^ostype: debian$|&\nlxc.hook.mount: /usr/bin/lxgpu hook|' "$conf"
	sed -i '/^\[snap\]/i lxc.hook.mount: ' "$conf"
	lx apply 100 --gpus 0 --driver-libs >"$work/out" 2>&1
	grep -q 'cleared by an empty lxc.hook.mount' "$work/out" || { cat "$work/out" "$conf"; return 1; }
}
check "apply warns when an empty lxc.hook.mount after the hook line clears it" t_cleared_after

t_hook_usage() {
	env -u LXC_ROOTFS_MOUNT "$lxgpu" hook 2>"$work/err"
	[ $? -eq 2 ] && grep -q LXC_ROOTFS_MOUNT "$work/err" || return 1
	LXC_ROOTFS_MOUNT=$work "$lxgpu" hook ct lxc start 2>"$work/err"
	[ $? -eq 2 ] && grep -q 'lxc.hook.mount' "$work/err" || return 1
	LXC_HOOK_VERSION=1 LXC_HOOK_TYPE=mount LXC_ROOTFS_MOUNT=$work "$lxgpu" hook ct 2>"$work/err"
	[ $? -eq 2 ] || return 1
	LXC_HOOK_VERSION=1 LXC_HOOK_TYPE=pre-start LXC_ROOTFS_MOUNT=$work "$lxgpu" hook 2>"$work/err"
	[ $? -eq 2 ] && grep -q 'pre-start' "$work/err"
}
check "hook: no LXC_ROOTFS_MOUNT, another hook type (v0 args, v1 env), v1 with arguments: exit 2" t_hook_usage
t_hook_no_driver() {
	mkdir -p "$work/proc" "$work/root"
	LXC_ROOTFS_MOUNT=$work/root "$lxgpu" --proc-dir "$work/proc" hook ct lxc mount 2>"$work/err"
	[ $? -eq 2 ] && grep -q 'not loaded' "$work/err" || { cat "$work/err"; return 1; }
	LXC_ROOTFS_MOUNT=$work/root "$lxgpu" --proc-dir "$work/proc" hook --optional ct lxc mount \
		2>"$work/err" && grep -q 'warning' "$work/err" && [ -z "$(ls "$work/root")" ]
}
check "hook without a loaded module: exit 2; with --optional a warning, exit 0, nothing made" t_hook_no_driver
. "$(dirname "$0")/../lib/journal.sh"
t_hook_journal() {
	mkdir -p "$work/dev" && journal_start "$work/dev/log" "$work/journal" || return 1
	LXC_ROOTFS_MOUNT=$work/root LXC_NAME=ct7 "$lxgpu" --proc-dir "$work/proc" --dev-dir "$work/dev" \
		hook ct7 lxc mount 2>"$work/err"
	rc=$?
	# priority 27 = facility daemon (3) * 8 + err (3)
	[ $rc -eq 2 ] && logged '<27>lxgpu-hook[' && logged 'hook for container ct7: ' &&
		logged 'the start is refused'
	rc=$?
	kill "$journal_pid" 2>/dev/null
	return $rc
}
check "a refused start's reason also reaches the journal (LXC logs hook output at DEBUG only)" t_hook_journal
t_option_groups() {
	! "$lxgpu" --host "$host" scan --driver-libs 2>/dev/null &&
		! "$lxgpu" --host "$host" generate --optional 2>/dev/null
}
check "--driver-libs only for generate/apply, --optional only for hook" t_option_groups

# Run from a build tree (no lxgpu at the installed path the line would
# name): generate says so, since the line breaks once this binary moves.
t_build_tree_warned() {
	gen generate --style lxc --driver-libs --no-comments >"$work/out" 2>"$work/err" || return 1
	first=$(sed -n 's/^lxc.hook.mount = \([^ ]*\).*/\1/p' "$work/out")
	case $first in
	*/build*/lxgpu | "$lxgpu") grep -q 'no lxgpu is installed at' "$work/err" ||
		{ echo "the line runs $first, no warning:"; cat "$work/err"; return 1; } ;;
	*) ! grep -q 'no lxgpu is installed at' "$work/err" ;;
	esac
}
check "generate --driver-libs with the line running a build tree's binary: a warning" t_build_tree_warned

tap_finish
