#!/bin/sh
# Proxmox's parser decides: for every PVE config of the corpus
# (tests/pve/configs/*.conf), what lxgpu's config module makes of it
# (pve-conf-dump) must match what PVE's own parse_pct_config made of it,
# recorded in tests/pve/oracle/NAME.json (how: oracle/README.md). The rules
# of the comparison, and the documented differences, are in
# oracle-compare.jq. Usage: run-oracle.sh PVE_CONF_DUMP CORPUS_DIR (TAP)
set -u
dump=$1 corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
command -v jq >/dev/null || { echo "Bail out! jq is needed (tools/install-deps)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for conf in "$corpus"/configs/*.conf; do
	name=$(basename "$conf" .conf)
	oracle="$corpus/oracle/$name.json"
	if [ ! -f "$oracle" ]; then
		check "$name: PVE's verdict is recorded" sh -c \
			"echo 'no $oracle: run pve-parse on it (oracle/README.md)'; false"
		continue
	fi
	if ! "$dump" "$conf" >"$work/ours.json" 2>"$work/err"; then
		check "$name: pve-conf-dump" sh -c "cat '$work/err'; false"
		continue
	fi
	jq -n --slurpfile l "$work/ours.json" --slurpfile p "$oracle" \
		-f "$here/oracle-compare.jq" >"$work/cmp.json" 2>"$work/err" || {
		check "$name: compare" sh -c "cat '$work/err'; false"
		continue
	}
	for what in sections keys lxc invalid devn unprivileged; do
		jq -r --arg w "$what" '.[$w][]' "$work/cmp.json" >"$work/$what"
		check "$name: $what as PVE reads them" sh -c "cat '$work/$what'; ! [ -s '$work/$what' ]"
	done
done
tap_finish
