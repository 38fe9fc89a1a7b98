#!/bin/sh
# apply --live (issue 29 item 4): on a running Proxmox container, each new
# devN entry goes through `pct set CTID --devN VALUE` (Proxmox hotplugs it),
# never through apply's own write; an existing devN key, one set in
# [pve:pending], and every other change are written by apply and said to
# need a restart. Without a running container, without pct, for a plain
# LXC container or an older pve-container: exit 2, nothing written.
#
# The running container: a process that is pid 1 of its own pid namespace
# in the cgroup lxc/700 (what lxgpu pins as a container's init), in a
# cgroup namespace and a pure cgroup2 mount of this test's own (root).
#
# The stand-in pct records its argv and does what pve-container does, as
# read at proxmox/pve-container 94f5585: `pct set` takes the config's lock
# (PVE::LXC::Config->lock_config, flock on <lock-dir>/pve-config-ID.lock,
# "can't lock file ... - got timeout"); PVE::LXC::Config::
# vmconfig_hotplug_pending hotplugs a pending devN only when the key is not
# in the config (`die "skip\n"` otherwise: it stays in [pve:pending],
# exit 0); a hotplugged one is written into the live section as given
# (update_pct_config stores the raw value); a hotplug error is "unable to
# hotplug devN: ..." and PVE::API2::LXC::Config update_vm writes no config
# (raise_param_exc before write_config). With $work/old-pve, pve-container
# before 6.0.4 (c702167^: no devN branch in vmconfig_hotplug_pending, so
# "skip": every devN stays pending). Usage: test-live.sh LXGPU SRCDIR
set -u
lxgpu=$1 src=$(cd "$2" && pwd)
. "$src/tests/lib/tap.sh"
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1; then
	skip "apply --live on a running container" "needs root and unshare (a pid and cgroup namespace)"
	tap_finish
fi
# Once: into a cgroup of this test's own, then a private mount and cgroup
# namespace rooted there with cgroup2 at /sys/fs/cgroup.
if [ -z "${LXGPU_LIVE_NS:-}" ]; then
	# the file system type follows " - " (optional fields before it vary:
	# none in a private mount namespace, as on a Debian 13 host run)
	v2=$(awk '{ split($0, p, " - "); split(p[2], f, " ") } f[1] == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$v2" ] || { skip "apply --live" "no cgroup2 hierarchy mounted"; tap_finish; }
	top="$v2/lxgpu-test-live-$$"
	mkdir "$top" && echo $$ >"$top/cgroup.procs" || exit 1
	LXGPU_LIVE_NS=1 unshare -m -C --propagation private sh "$0" "$@"
	rc=$?
	echo $$ >"$v2/cgroup.procs"
	find "$top" -depth -type d -exec rmdir {} \; 2>/dev/null
	exit $rc
fi
mount -t cgroup2 none /sys/fs/cgroup || exit 1
work=$(mktemp -d)
ct_pid=""
stop_ct() {
	[ -n "$ct_pid" ] || return 0
	kill -9 "$ct_pid" 2>/dev/null
	while [ -e "/proc/$ct_pid" ]; do sleep 0.05; done
	ct_pid=""
	rmdir /sys/fs/cgroup/lxc/700 2>/dev/null
	return 0
}
trap 'stop_ct; rm -rf "$work"' EXIT
# start_ct: CT 700 runs (its init: pid 1 of a new pid namespace, in lxc/700)
start_ct() {
	mkdir -p /sys/fs/cgroup/lxc/700
	unshare -p -f sleep 600 2>/dev/null &
	outer=$!
	for _ in $(seq 100); do
		ct_pid=$(pgrep -P "$outer" sleep) && break
		sleep 0.05
	done
	echo "$ct_pid" >/sys/fs/cgroup/lxc/700/cgroup.procs
}

host="$src/examples/hosts/pve9-rtx-5090.yaml" # PVE 9.1: pve-container 6.1.6
pve="$work/pve" lock="$work/lock"
mkdir -p "$work/bin" "$lock"
cat >"$work/bin/pct" <<EOF
#!/bin/sh
# stand-in for Proxmox's pct (see test-live.sh)
echo "\$*" >>"$work/pct.log"
[ "\$1" = set ] && [ "\$#" -eq 4 ] || { echo "stand-in pct: only 'set ID --devN VALUE'" >&2; exit 255; }
id=\$2 key=\${3#--} value=\$4 conf="$pve/lxc/\$2.conf"
exec 9>>"$lock/pve-config-\$id.lock"
flock -w 2 9 || { echo "can't lock file '$lock/pve-config-\$id.lock' - got timeout" >&2; exit 255; }
if grep -q "^\$key:" "$work/fail" 2>/dev/null; then
	echo "400 Parameter verification failed." >&2
	echo "\$key: unable to hotplug \$key: move_mount failed: No such file or directory" >&2
	exit 255
fi
# before 6.0.4 (c702167^) no devN is hotplugged: each stays pending
if [ -e "$work/old-pve" ] || sed '/^\[/,\$d' "\$conf" | grep -q "^\$key:"; then
	echo "pending \$key" >>"$work/pct.log" # skip: not hotplugged over an existing key
	grep -q '^\[pve:pending\]' "\$conf" || printf '\n[pve:pending]\n' >>"\$conf"
	printf '%s: %s\n' "\$key" "\$value" >>"\$conf"
	exit 0
fi
# hotplugged: into the live section, after its last non-blank line
awk -v line="\$key: \$value" '{ l[NR] = \$0 } /^\[/ && !s { s = NR }
	END { if (!s) s = NR + 1; at = s - 1; while (at > 0 && l[at] == "") at--
		for (i = 1; i < s; i++) { print l[i]; if (i == at) print line }
		if (at == 0) print line; for (i = s; i <= NR; i++) print l[i] }' "\$conf" >"\$conf.new" &&
	mv "\$conf.new" "\$conf" || exit 255
# \$work/crash names a key: the caller (lxgpu) dies once pct has added it
grep -qx "\$key" "$work/crash" 2>/dev/null && kill -9 \$PPID
exit 0
EOF
chmod +x "$work/bin/pct"

lx() {
	PATH="$work/bin:$PATH" "$lxgpu" --host "$host" --pve-dir "$pve" --state-dir "$work/state" "$@" \
		--backup-dir "$work/backups" --lock-dir "$lock"
}
# setup CONF [HOST]: a fresh Proxmox with CONF as CT 700, pct's log empty
setup() {
	rm -rf "$pve" "$work/state" "$work/backups" "$work/pct.log" "$work/fail" &&
		mkdir -p "$pve/lxc" && cp "$1" "$pve/lxc/700.conf" && cp "$1" "$work/before.conf"
	touch "$work/pct.log"
}
# The live section's lines, sorted (what pct's rewrite and lxgpu's keep).
live_lines() { sed '/^\[/,$d' "$1" | grep -v '^$' | sort; }
# What plain apply (no --live, no pct) makes of CONF: the reference result.
reference() {
	rm -rf "$work/ref" && mkdir -p "$work/ref/lxc" && cp "$1" "$work/ref/lxc/700.conf"
	shift
	"$lxgpu" --host "$host" --pve-dir "$work/ref" --state-dir "$work/ref/state" apply 700 "$@" \
		--backup-dir "$work/ref/backups" --lock-dir "$lock" >/dev/null || return 1
}
new_keys_of() { # BEFORE AFTER: "set 700 --devN VALUE" for each devN key AFTER has and BEFORE not
	sed '/^\[/,$d' "$2" | grep '^dev[0-9]*:' | while IFS= read -r line; do
		key=${line%%:*} value=${line#*: }
		grep -q "^$key:" "$1" || echo "set 700 --$key $value"
	done
}
unchanged() { # the config (conf_file; default CT 700's Proxmox config) and no backup
	f=${conf_file:-$pve/lxc/700.conf}
	cmp -s "$f" "$work/before.conf" || { echo "the config was written:"; diff "$work/before.conf" "$f"; return 1; }
	[ ! -e "$work/backups" ] || [ -z "$(ls -A "$work/backups")" ] || { echo "a backup was left"; ls "$work/backups"; return 1; }
}

conf_plain="$src/tests/pve/configs/01-plain-debian.conf"
conf_pending="$src/tests/pve/configs/10-pending-section.conf"

t_new_entries_live() {
	setup "$conf_plain" && start_ct && reference "$conf_plain" --gpus 0 --style devn || return 1
	lx apply 700 --gpus 0 --style devn --live >"$work/out" 2>"$work/err"
	rc=$?
	stop_ct
	[ $rc -eq 0 ] || { echo "exit $rc"; cat "$work/out" "$work/err"; return 1; }
	new_keys_of "$work/before.conf" "$work/ref/lxc/700.conf" >"$work/want"
	[ -s "$work/want" ] || { echo "the reference apply adds no devN"; return 1; }
	# pct was called exactly for the new devN entries, none of them existed then
	diff "$work/want" "$work/pct.log" || return 1
	# the live section is what plain apply gives, each entry once
	live_lines "$work/ref/lxc/700.conf" >"$work/want.lines"
	live_lines "$pve/lxc/700.conf" | diff "$work/want.lines" - || return 1
	grep -q 'dev0: /dev/nvidia0.* added to the running container (pct set)' "$work/out" &&
		grep -q 'nothing waits for a restart' "$work/out" &&
		[ "$(ls "$work/backups" | wc -l)" -eq 1 ] || { cat "$work/out"; ls "$work/backups"; return 1; }
}

# crash_after KEY: lxgpu apply --live killed right after pct added KEY
# (before its own write): exit 137, and the one backup, made before the
# first pct call, holds the config from before
crash_after() {
	setup "$conf_plain" && start_ct && reference "$conf_plain" --gpus 0 --style devn || return 1
	keys=$(new_keys_of "$work/before.conf" "$work/ref/lxc/700.conf" | sed 's/^set 700 --\([^ ]*\) .*/\1/')
	[ "$1" = last ] && set -- "$(echo "$keys" | tail -n1)"
	echo "$1" >"$work/crash"
	lx apply 700 --gpus 0 --style devn --live >"$work/out" 2>"$work/err"
	rc=$?
	rm -f "$work/crash"
	stop_ct
	[ $rc -eq 137 ] && grep -q "^$1: " "$pve/lxc/700.conf" ||
		{ echo "exit $rc (want 137: killed after pct added $1)"; cat "$work/err" "$work/pct.log"; return 1; }
	b=$(ls "$work/backups" 2>/dev/null) && [ "$(echo "$b" | grep -c .)" -eq 1 ] &&
		tar -xzOf "$work/backups/$b" config 2>/dev/null | cmp -s - "$work/before.conf" ||
		{ echo "no backup of the config from before pct:"; ls -l "$work/backups"; return 1; }
}
# killed after the last pct call: rollback takes pct's entries out
t_crash_after_pct() {
	crash_after last || return 1
	lx rollback 700 >"$work/out" 2>"$work/err" || { echo "rollback failed:"; cat "$work/out" "$work/err"; return 1; }
	cmp -s "$work/before.conf" "$pve/lxc/700.conf" || { diff "$work/before.conf" "$pve/lxc/700.conf"; return 1; }
}
# killed between two pct calls: the backup's record of what was written
# (all the entries) is not what the config has (the first only), so
# rollback shows the difference and writes nothing; --force takes it out
t_crash_between_pct() {
	crash_after dev0 || return 1
	lx rollback 700 >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q 'were changed since lxgpu wrote them' "$work/err" && grep -q '^dev0: ' "$pve/lxc/700.conf" ||
		{ echo "rollback exit $rc:"; cat "$work/out" "$work/err"; return 1; }
	lx rollback 700 --force >"$work/out" 2>"$work/err" || { echo "rollback --force failed:"; cat "$work/out" "$work/err"; return 1; }
	cmp -s "$work/before.conf" "$pve/lxc/700.conf" || { diff "$work/before.conf" "$pve/lxc/700.conf"; return 1; }
}

t_existing_and_pending_wait() {
	setup "$conf_pending" && start_ct && reference "$conf_pending" --gpus 0 --style devn --mode 0666 || return 1
	lx apply 700 --gpus 0 --style devn --mode 0666 --live >"$work/out" 2>"$work/err"
	rc=$?
	stop_ct
	[ $rc -eq 0 ] || { echo "exit $rc"; cat "$work/out" "$work/err"; return 1; }
	new_keys_of "$work/before.conf" "$work/ref/lxc/700.conf" | grep -v -e '--dev0 ' -e '--dev1 ' >"$work/want"
	[ -s "$work/want" ] || { echo "the reference apply adds no devN"; return 1; }
	# dev0 is in the config (changed: written by apply), dev1 in [pve:pending]:
	# never pct's
	diff "$work/want" "$work/pct.log" || return 1
	live_lines "$work/ref/lxc/700.conf" >"$work/want.lines"
	live_lines "$pve/lxc/700.conf" | diff "$work/want.lines" - || return 1
	grep -q 'restart needed for: dev0 changed' "$work/out" || { cat "$work/out"; return 1; }
	sed -n '/^\[pve:pending\]/,$p' "$pve/lxc/700.conf" | grep -q '^dev1: /dev/ttyUSB1$'
}

t_dry_run_live() {
	setup "$conf_plain" && start_ct || return 1
	lx apply 700 --gpus 0 --style devn --live --dry-run >"$work/out" 2>"$work/err"
	rc=$?
	stop_ct
	[ $rc -eq 1 ] || { echo "exit $rc"; cat "$work/out" "$work/err"; return 1; }
	unchanged && [ ! -s "$work/pct.log" ] &&
		grep -q '^would run: pct set 700 --dev0 /dev/nvidia0' "$work/out" &&
		! grep -q '^+dev' "$work/out" || { cat "$work/out"; return 1; }
}

# refused CONF WANT-TEXT ARGS...: exit 2, WANT-TEXT and the command to run
# instead on stderr, nothing written, pct never called
refused() {
	want=$1
	shift
	lx apply 700 --gpus 0 --style devn --live "$@" >"$work/out" 2>"$work/err"
	rc=$?
	stop_ct
	[ $rc -eq 2 ] || { echo "exit $rc (want 2)"; cat "$work/out" "$work/err"; return 1; }
	grep -q -- "$want" "$work/err" && grep -q 'lxgpu apply 700` without --live' "$work/err" ||
		{ echo "stderr lacks '$want' or the command to run instead:"; cat "$work/err"; return 1; }
	unchanged && [ ! -s "$work/pct.log" ] || { echo "pct was called:"; cat "$work/pct.log"; return 1; }
}
t_stopped() { setup "$conf_plain" && refused "CT 700 is not running"; }
t_plain_lxc() {
	setup "$conf_plain" && start_ct || return 1
	rm -f "$pve/lxc/700.conf" && mkdir -p "$work/lxc/700" &&
		printf 'lxc.uts.name = c700\nlxc.rootfs.path = dir:/var/lib/lxc/700/rootfs\n' >"$work/lxc/700/config" &&
		cp "$work/lxc/700/config" "$work/before.conf" || return 1
	conf_file="$work/lxc/700/config"
	refused "plain LXC container" --lxc-path "$work/lxc" --style lxc
	rc=$?
	conf_file=""
	return $rc
}
t_no_pct() {
	setup "$conf_plain" && start_ct || return 1
	mv "$work/bin/pct" "$work/pct.away"
	# (an assignment before a function call stays after it in dash: saved)
	saved_path=$PATH
	PATH=/usr/bin:/bin
	refused "no pct is in PATH"
	rc=$?
	PATH=$saved_path
	mv "$work/pct.away" "$work/bin/pct"
	return $rc
}
t_old_pve_container() {
	setup "$conf_plain" && start_ct || return 1
	sed 's/^pve_container_version: .*/pve_container_version: "6.0.3"/' "$host" >"$work/old.yaml"
	saved_host=$host
	host="$work/old.yaml"
	refused "pve-container 6.0.3 does not add a devN entry"
	rc=$?
	host=$saved_host
	return $rc
}

# pct_fails KEY: --live on CT 700 with the stand-in's hotplug of KEY failing:
# exit 2 with pct's error
pct_fails() {
	setup "$conf_plain" && start_ct || return 1
	echo "$1:" >"$work/fail"
	lx apply 700 --gpus 0 --style devn --live >"$work/out" 2>"$work/err"
	rc=$?
	stop_ct
	[ $rc -eq 2 ] || { echo "exit $rc (want 2)"; cat "$work/out" "$work/err"; return 1; }
	grep -q "unable to hotplug $1: move_mount failed" "$work/err" || { cat "$work/err"; return 1; }
}

t_pct_fails_first() {
	pct_fails dev0 || return 1
	grep -q 'nothing was written' "$work/err" || { cat "$work/err"; return 1; }
	unchanged && [ "$(wc -l <"$work/pct.log")" -eq 1 ]
}

t_pct_fails_later() {
	pct_fails dev2 || return 1
	# what pct added (dev0, dev1) is all that changed, and a backup holds
	# the config from before
	printf 'dev0: /dev/nvidia0\ndev1: /dev/nvidiactl\n' >"$work/want"
	diff "$work/before.conf" "$pve/lxc/700.conf" | sed -n 's/^> //p' | grep -v '^$' |
		sed 's/,.*//' | diff "$work/want" - || return 1
	b=$(ls "$work/backups") && [ "$(echo "$b" | grep -c .)" -eq 1 ] &&
		tar -xzOf "$work/backups/$b" config 2>/dev/null | cmp -s - "$work/before.conf" ||
		{ echo "no backup of the config from before"; ls -l "$work/backups"; tar -tzf "$work/backups/$b"; return 1; }
}

t_plain_says_live() {
	setup "$conf_plain" && start_ct || return 1
	lx apply 700 --gpus 0 --style devn --dry-run >"$work/out" 2>"$work/err"
	rc1=$?
	lx apply 700 --gpus 0 --style devn >"$work/out2" 2>"$work/err2"
	rc2=$?
	stop_ct
	[ $rc1 -eq 1 ] && [ $rc2 -eq 0 ] || { echo "exit $rc1, $rc2"; cat "$work/err" "$work/err2"; return 1; }
	[ ! -s "$work/pct.log" ] && grep -q 'with --live its new devN entries go in at once' "$work/err" &&
		grep -q 'next time run apply with --live' "$work/out2" || { cat "$work/err" "$work/out2"; return 1; }
}

t_pct_keeps_pending() {
	setup "$conf_plain" && start_ct || return 1
	grep -v '^pve_container_version:' "$host" >"$work/unknown.yaml" && touch "$work/old-pve"
	saved_host=$host
	host="$work/unknown.yaml"
	lx apply 700 --gpus 0 --style devn --live >"$work/out" 2>"$work/err"
	rc=$?
	host=$saved_host
	rm -f "$work/old-pve"
	stop_ct
	[ $rc -eq 2 ] || { echo "exit $rc (want 2)"; cat "$work/out" "$work/err"; return 1; }
	grep -q 'pct set kept dev0 in \[pve:pending\]' "$work/err" &&
		grep -q 'nothing else was written' "$work/err" || { cat "$work/err"; return 1; }
	# the live section as it was: nothing of apply's written
	live_lines "$work/before.conf" >"$work/want.lines"
	live_lines "$pve/lxc/700.conf" | diff "$work/want.lines" - && ls "$work/backups" | grep -q .
}

check "--live: each new devN through pct set (exactly those), the config as plain apply makes it" t_new_entries_live
check "--live: an existing devN (changed) and a [pve:pending] index are apply's, restart needed" t_existing_and_pending_wait
check "--live --dry-run: the pct commands, a diff without them, nothing run" t_dry_run_live
check "--live on a stopped container: exit 2, nothing written, what to run instead" t_stopped
check "--live on a plain LXC container: exit 2, nothing written" t_plain_lxc
check "--live without pct in PATH: exit 2, nothing written" t_no_pct
check "--live with pve-container 6.0.3 (no devN hotplug): exit 2, nothing written" t_old_pve_container
check "--live: pct fails on the first entry: its error, exit 2, nothing written" t_pct_fails_first
check "--live: pct fails on the third: its error, exit 2, only what pct added, backed up" t_pct_fails_later
check "--live: lxgpu killed after pct's last success, before its own write: the backup from before is there, rollback takes the entries out" t_crash_after_pct
check "--live: lxgpu killed between two pct calls: the backup from before is there, rollback --force takes the entry out" t_crash_between_pct
check "plain apply on a running PVE 9 container: --dry-run and the write name --live for its new devN" t_plain_says_live
check "--live, pve-container unknown and older than 6.0.4: pct keeps them pending, exit 2, nothing else written" t_pct_keeps_pending
tap_finish
