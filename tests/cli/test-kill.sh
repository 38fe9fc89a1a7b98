#!/bin/sh
# Kill `lxgpu apply` with SIGKILL at random moments, hundreds of times: the
# config must always be either the old file or the new one, never a mix.
# Usage: test-kill.sh LXGPU EXAMPLES_DIR [ROUNDS]   (TAP output)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) rounds=${3:-300}
host="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
mkdir -p "$work/pve/lxc" "$work/locks"
conf="$work/pve/lxc/100.conf"
# A config of some size, so that writing it takes a moment.
{
	printf 'arch: amd64\nhostname: big\nmemory: 4096\n'
	printf 'lxc.cgroup2.devices.allow: c 195:* rwm\n'
	printf 'lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n'
	i=0
	while [ $i -lt 400 ]; do
		printf '\n[snap%d]\narch: amd64\nhostname: big\nmemory: 4096\nsnaptime: %d\n' $i $((1700000000 + i))
		i=$((i + 1))
	done
} >"$work/old.conf"
lx() { "$lxgpu" --host "$host" --pve-dir "$work/pve" --lock-dir "$work/locks" --backup-dir "$work/backups" --state-dir "$work/state" "$@"; }
cp "$work/old.conf" "$conf"
lx apply 100 --gpus 0,1 >/dev/null 2>&1 && cp "$conf" "$work/new.conf"

t_setup() { ! cmp -s "$work/old.conf" "$work/new.conf"; }
check "apply changes the test config" t_setup

t_kill_rounds() {
	old=0 new=0 round=0
	while [ $round -lt "$rounds" ]; do
		cp "$work/old.conf" "$conf"
		# lxgpu itself in the background (not a shell function: killing a
		# subshell would leave lxgpu running, racing the next round's cp).
		"$lxgpu" --host "$host" --pve-dir "$work/pve" --lock-dir "$work/locks" \
			--backup-dir "$work/backups" --state-dir "$work/state" apply 100 --gpus 0,1 >/dev/null 2>&1 &
		pid=$!
		# A random moment within the first ~5 ms of its life.
		delay=$(awk -v s="$round$$" 'BEGIN { srand(s); printf "%.4f", rand() * 0.005 }')
		sleep "$delay"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		if cmp -s "$conf" "$work/old.conf"; then
			old=$((old + 1))
		elif cmp -s "$conf" "$work/new.conf"; then
			new=$((new + 1))
		else
			echo "round $round: the config is neither the old nor the new file"
			diff "$work/old.conf" "$conf" | head -20
			return 1
		fi
		round=$((round + 1))
	done
	echo "$rounds rounds: $old left old, $new left new" >"$work/split"
	# Stray temp files from killed runs are the only leftovers allowed.
	ls "$work/pve/lxc" | grep -v -e '^100.conf$' -e '^100.conf.lxgpu-tmp-' && return 1
	return 0
}
check "SIGKILL at random moments: always fully old or fully new" t_kill_rounds
t_after() { cp "$work/old.conf" "$conf" && lx apply 100 --gpus 0,1 >/dev/null 2>&1 && cmp "$conf" "$work/new.conf"; }
check "after all the kills the lock is free and apply works" t_after
sed 's/^/# /' "$work/split" 2>/dev/null
tap_finish
