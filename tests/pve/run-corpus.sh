#!/bin/sh
# Apply on every config of the corpus (tests/pve/configs/*.conf as Proxmox
# containers, tests/pve/lxc-configs/*.config as plain LXC ones) with the
# 8-GPU example host and --gpus 0,1; compare with tests/pve/expected/. Then
# apply again: nothing may change. A config Proxmox's writer keeps as it is
# (tests/pve/oracle/) must come out of apply in that writer's order. Usage:
#   run-corpus.sh LXGPU EXAMPLES_DIR CORPUS_DIR [--update]   (TAP output)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) corpus=$(cd "$3" && pwd) update=${4:-}
host="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
mkdir -p "$work/pve/lxc" "$work/lxc" "$work/locks" "$work/backups"
common="--host $host --pve-dir $work/pve --lxc-path $work/lxc --lock-dir $work/locks --backup-dir $work/backups --state-dir $work/state --gpus 0,1"

# refused_case ID CONFIG_PATH ORIGINAL EXPECTED.refused: a config with a line
# Proxmox cannot parse in its live section; apply must refuse it (exit 2),
# name the line as EXPECTED.refused says, and leave the file as it was.
refused_case() {
	id=$1 conf=$2 orig=$3 refused=$4
	# shellcheck disable=SC2086
	"$lxgpu" $common apply "$id" >"$work/out" 2>&1
	rc=$?
	cat "$work/out"
	[ "$rc" -eq 2 ] || { echo "exit $rc, not 2"; return 1; }
	grep -qF -- "$(cat "$refused")" "$work/out" || { echo "no '$(cat "$refused")' in the message"; return 1; }
	cmp "$orig" "$conf"
}

# The lines of a file that plainly are not GPU lines, by a rule of this test
# alone (no "nvidia", no /dev/dri, no device rule for the GPU, DRM or a
# dynamic-range major): apply must keep every one of them, in order. Not
# lxgpu's ownership code, which the pinned results come from.
plain_lines() {
	grep -v -E 'nvidia|/dev/dri|devices\.allow.*c (195|226|23[4-9]|24[0-9]|25[0-4]|38[4-9]|39[0-9]|4[0-9][0-9]|50[0-9]|51[01]):' "$1" | tr -d '\r'
}

# apply_case NAME ID CONFIG_PATH EXPECTED
apply_case() {
	name=$1 id=$2 conf=$3 expected=$4
	plain_lines "$conf" >"$work/plain.before"
	# shellcheck disable=SC2086
	"$lxgpu" $common apply "$id" >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	plain_lines "$conf" >"$work/plain.after"
	diff -u "$work/plain.before" "$work/plain.after" || { echo "a line that is plainly not a GPU line changed"; return 1; }
	if [ "$update" = --update ]; then
		cp "$conf" "$expected"
		return 0
	fi
	cmp "$expected" "$conf" || { diff -u "$expected" "$conf"; return 1; }
	# A file Proxmox's writer keeps as it is (its recorded verdict) stays
	# in that writer's order after apply: new devN keys sorted among the
	# keys, lxc lines after them (pve-write-order.py, from PVE's code).
	oracle="$corpus/oracle/$name.json"
	if [ -f "$oracle" ] && [ "$(jq -r .rewrite.identical_to_input "$oracle")" = true ]; then
		python3 "$corpus/pve-write-order.py" "$conf" || return 1
	fi
	# shellcheck disable=SC2086
	"$lxgpu" $common apply "$id" >"$work/out2" 2>&1 || { cat "$work/out2"; return 1; }
	grep -q "nothing written" "$work/out2" || { echo "second apply wrote:"; cat "$work/out2"; return 1; }
	cmp "$expected" "$conf" || { echo "second apply changed the file"; return 1; }
	# shellcheck disable=SC2086
	"$lxgpu" $common apply "$id" --dry-run >"$work/diff" 2>&1 || { echo "dry run after apply:"; cat "$work/diff"; return 1; }
}

id=900200
for conf in "$corpus"/configs/*.conf; do
	name=$(basename "$conf" .conf)
	id=$((id + 1))
	cp "$conf" "$work/pve/lxc/$id.conf"
	if [ -f "$corpus/expected/$name.conf.refused" ]; then
		check "pve $name (refused)" refused_case "$id" "$work/pve/lxc/$id.conf" "$conf" \
			"$corpus/expected/$name.conf.refused"
		continue
	fi
	check "pve $name" apply_case "$name" "$id" "$work/pve/lxc/$id.conf" "$corpus/expected/$name.conf"
done
for conf in "$corpus"/lxc-configs/*.config; do
	name=$(basename "$conf" .config)
	mkdir -p "$work/lxc/$name"
	cp "$conf" "$work/lxc/$name/config"
	check "lxc $name" apply_case "$name" "$name" "$work/lxc/$name/config" "$corpus/expected/$name.config"
done
tap_finish
