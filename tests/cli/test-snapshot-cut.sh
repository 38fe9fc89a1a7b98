#!/bin/sh
# A snapshot cut short is known as cut (issue 28 item 11), through the
# command line: every example host (schema 3, its end marker last) cut at a
# spread of line boundaries (head -n K: the first lines, one in about twelve,
# the last two) is refused, naming the file (exit 2), or loads the very
# model of the whole file (scan --format json of both compared); the whole
# file loads. (Every cut of every example, in-process: test-snapshot.) An
# older snapshot (schema 2, no marker; tests/hosts/schema-2 is the example
# as lxgpu wrote it before) still loads, and the issue's cut of it (head -n
# 627 of 631: the nvidia-uvm and nvidia-caps majors gone while nvidia_uvm is
# loaded) is refused by the parts that disagree; how many of a spread of its
# other cuts are caught is printed.
# Usage: test-snapshot-cut.sh LXGPU EXAMPLES SRCDIR (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"
. "$src/tests/lib/lxjson.sh"

# load FILE OUT: scan of FILE as JSON into OUT; its exit status; stderr in $work/err
load() { "$lxgpu" --host "$1" scan --format json >"$2" 2>"$work/err"; }

# cuts N: the line counts to cut an N-line file at: 1 to 3, one in about
# twelve, the last two (N-2, N-1)
cuts() {
	step=$(($1 / 12 + 1))
	{ seq 1 3; seq 4 "$step" $(($1 - 1)); echo $(($1 - 2)); echo $(($1 - 1)); } |
		awk -v n="$1" '$1 > 0 && $1 < n && !seen[$1]++'
}

# every_cut FILE: each cut refused (exit 2, the file named) or the same model
every_cut() {
	load "$1" "$work/whole.json" || { cat "$work/err"; return 1; }
	json_ok "$work/whole.json" || return 1
	n=$(wc -l <"$1") refused=0 same=0 tried=0
	for k in $(cuts "$n"); do
		tried=$((tried + 1))
		head -n "$k" "$1" >"$work/cut.yaml"
		load "$work/cut.yaml" "$work/cut.json"
		rc=$?
		if [ "$rc" -eq 2 ] && grep -q "^lxgpu: $work/cut.yaml" "$work/err"; then
			refused=$((refused + 1))
		elif [ "$rc" -eq 0 ] && json_ok "$work/cut.json" >/dev/null && cmp -s "$work/cut.json" "$work/whole.json"; then
			same=$((same + 1))
		else
			echo "head -n $k of $n: exit $rc, another model"; head -c 300 "$work/err"; return 1
		fi
	done
	echo "$refused of $tried cuts refused, $same load the same model"
	[ "$tried" -ge 15 ] && [ $((refused + same)) -eq "$tried" ]
}
for f in "$examples"/*.yaml; do
	check "$(basename "$f"): its cuts at a line boundary are refused or the same model" every_cut "$f"
done

old="$src/tests/hosts/schema-2/pve-8x-rtx-pro-6000.yaml"
t_old_loads() {
	grep -qx 'schema: 2' "$old" && ! grep -q '^end:' "$old" || { echo "not an old snapshot"; return 1; }
	load "$old" "$work/old.json" && load "$examples/pve-8x-rtx-pro-6000.yaml" "$work/new.json" &&
		json_ok "$work/old.json" && json_ok "$work/new.json" || return 1
	# what schema 2 did not record yet (nvidia_uvm's HMM switch, the
	# kernel config) is unknown in the old one; the rest is the same model
	jq -e '.driver.uvm_disable_hmm == null and .kernel_config == null' "$work/old.json" >/dev/null ||
		{ echo "the old snapshot's uvm_disable_hmm or kernel_config is not unknown"; return 1; }
	jq 'del(.driver.uvm_disable_hmm, .kernel_config)' "$work/old.json" >"$work/old-common.json"
	jq 'del(.driver.uvm_disable_hmm, .kernel_config)' "$work/new.json" >"$work/new-common.json"
	cmp "$work/old-common.json" "$work/new-common.json"
}
check "a schema 2 snapshot (no end marker) loads: the same model as its schema 3 form (less what schema 2 did not record)" t_old_loads
t_issue_cut() {
	[ "$(wc -l <"$old")" -eq 631 ] || { echo "not the issue's 631 lines"; return 1; }
	head -n 627 "$old" >"$work/cut627.yaml"
	load "$work/cut627.yaml" "$work/out.json"
	rc=$?
	cat "$work/err"
	[ "$rc" -eq 2 ] && grep -q "^lxgpu: $work/cut627.yaml:[0-9]*: field 'majors': the module nvidia_uvm is loaded" "$work/err"
}
check "schema 2, head -n 627 of 631: refused, naming file, line and the missing nvidia-uvm major" t_issue_cut
# Without the marker, some cuts of an old file still load another model (a
# cut list of majors no node or module needs, of bridges): counted, not hidden.
t_old_cuts() {
	n=$(wc -l <"$old") refused=0 same=0 other=0 tried=0
	load "$old" "$work/whole.json" || return 1
	for k in $(seq 1 3 $((n - 1))); do
		tried=$((tried + 1))
		head -n "$k" "$old" >"$work/cut.yaml"
		if load "$work/cut.yaml" "$work/cut.json"; then
			if cmp -s "$work/cut.json" "$work/whole.json"; then same=$((same + 1)); else other=$((other + 1)); fi
		else
			refused=$((refused + 1))
		fi
	done
	echo "# schema 2 without a marker: $refused of $tried cuts (one in three) refused, $same the same model, $other another model" >&3
	[ "$refused" -gt 0 ]
}
exec 3>&1
check "schema 2 cuts: counted" t_old_cuts
tap_finish
