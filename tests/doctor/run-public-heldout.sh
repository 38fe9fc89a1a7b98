#!/bin/sh
# lxgpu doctor --kmsg on kernel-log excerpts from public reports that were
# not in tests/doctor/kmsg when the catalogue rows were written (issue 31's
# measure). The expectations are expected.tsv's, written by hand from each
# thread and the driver's source before doctor was run on any of them: a
# failure log passes when a finding of that log has the expected code and
# names the GPU (its address, or the PCI ID where the line has only that;
# where the log names neither, GPU "-", the code alone); a clean log passes
# when no finding comes from it. A row whose sixth column
# says "xfail: WHY" is a documented miss (TAP TODO); one that passes fails
# the test, so a miss mended later cannot keep its TODO unnoticed.
# Usage: run-public-heldout.sh LXGPU EXAMPLES_DIR HELDOUT_DIR   (TAP output)
set -u
lxgpu=$1 examples=$2 dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/lxjson.sh"
host=$examples/pve-rtx-4090.yaml
n=0 failed=0 named=0 fails=0 quiet=0 cleans=0
tab=$(printf '\t')
while IFS="$tab" read -r file vendor code gpu url xfail; do
	case $file in '#'* | '') continue ;; esac
	n=$((n + 1))
	log=$dir/$file
	why=""
	if ! lx_json sev "$work/j" "$lxgpu" --host "$host" doctor --kmsg "$log" --format json >"$work/msg"; then
		ok=no why="doctor failed: $(head -c 300 "$work/msg")"
	elif [ "$code" = none ]; then
		cleans=$((cleans + 1))
		got=$(jq -r --arg f "$log" '[.findings[] | select(.file == $f) | .code] | join(" ")' "$work/j")
		if [ -z "$got" ]; then ok=yes quiet=$((quiet + 1)); else ok=no why="findings on a clean log: $got"; fi
	else
		fails=$((fails + 1))
		if jq -e --arg f "$log" --arg c "$code" --arg g "$gpu" \
			'[.findings[] | select(.file == $f and .code == $c and ($g == "-" or (.message | contains($g))))] | length > 0' \
			"$work/j" >/dev/null; then
			ok=yes named=$((named + 1))
		else
			ok=no why="want $code naming $gpu, got: $(jq -c --arg f "$log" '[.findings[] | select(.file == $f) | [.code, .message[0:90]]]' "$work/j")"
		fi
	fi
	desc="$file ($vendor): $code${gpu:+ }${gpu#-}"
	if [ "$ok" = yes ] && [ -n "$xfail" ]; then
		echo "not ok $n - $desc"
		echo "# passes but is marked '$xfail': drop the xfail column (the set's BEFORE score stands)"
		failed=$((failed + 1))
	elif [ "$ok" = yes ]; then
		echo "ok $n - $desc"
	elif [ -n "$xfail" ]; then
		echo "not ok $n - $desc # TODO ${xfail#xfail: }"
		echo "# $why"
	else
		echo "not ok $n - $desc"
		echo "# $why ($url)"
		failed=$((failed + 1))
	fi
done <"$dir/expected.tsv"
echo "# cause and GPU named: $named of $fails failure logs; quiet on $quiet of $cleans clean logs"
echo "1..$n"
[ "$failed" -eq 0 ]
