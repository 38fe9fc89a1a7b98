#!/bin/sh
# Validate the public corpus data files themselves (not lxgpu): every
# NN-name.conf / NN-name.lxc has an NN-name.expect with a source: line and the
# required fields, every keep:/gpu-line: text occurs verbatim as a whole line
# of its config, and no line text is both keep and gpu-line. TAP output.
# Usage: check-expect.sh [CORPUS_DIR]   (default: the directory of this script)
set -u
dir=${1:-$(dirname "$0")}
n=0 fails=0
tmp=${TMPDIR:-/tmp}/check-expect.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; [ -s "$tmp.msg" ] && sed 's/^/# /' "$tmp.msg"; : >"$tmp.msg"; }
: >"$tmp.msg"
out=$tmp.out
: >"$out"
for conf in "$dir"/[0-9]*.conf "$dir"/[0-9]*.lxc; do
	[ -e "$conf" ] || continue
	base=${conf%.*}
	name=$(basename "$conf")
	exp=$base.expect
	{
	if [ ! -f "$exp" ]; then
		echo "missing $exp" >"$tmp.msg"; nok "$name: has an .expect file"; continue
	fi
	ok "$name: has an .expect file"
	if grep -q '^source: [^ ]' "$exp"; then ok "$name: source: line"; else nok "$name: source: line"; fi
	for f in reported privileged gpus problem; do
		if grep -q "^$f: [^ ]" "$exp"; then ok "$name: $f: line"; else nok "$name: $f: line"; fi
	done
	if grep -Eq '^privileged: (yes|no)$' "$exp"; then ok "$name: privileged is yes|no"; else nok "$name: privileged is yes|no"; fi
	# config lines without CR, one per line (a missing final newline still gives a last line)
	tr -d '\r' <"$conf" >"$tmp.lines"; echo >>"$tmp.lines"
	sed -n 's/^keep: //p' "$exp" >"$tmp.keep"
	sed -n 's/^gpu-line: //p' "$exp" >"$tmp.gpu"
	bad=0
	while IFS= read -r l || [ -n "$l" ]; do
		grep -Fxq -- "$l" "$tmp.lines" || { echo "not in config: $l" >>"$tmp.msg"; bad=1; }
	done <"$tmp.keep"
	if [ $bad = 0 ]; then ok "$name: every keep: line occurs verbatim"; else nok "$name: every keep: line occurs verbatim"; fi
	bad=0
	while IFS= read -r l || [ -n "$l" ]; do
		grep -Fxq -- "$l" "$tmp.lines" || { echo "not in config: $l" >>"$tmp.msg"; bad=1; }
	done <"$tmp.gpu"
	if [ $bad = 0 ]; then ok "$name: every gpu-line: line occurs verbatim"; else nok "$name: every gpu-line: line occurs verbatim"; fi
	bad=0
	while IFS= read -r l || [ -n "$l" ]; do
		grep -Fxq -- "$l" "$tmp.gpu" && { echo "both keep and gpu-line: $l" >>"$tmp.msg"; bad=1; }
	done <"$tmp.keep"
	if [ $bad = 0 ]; then ok "$name: no line is both keep and gpu-line"; else nok "$name: no line is both keep and gpu-line"; fi
	} >>"$out"
done
for exp in "$dir"/[0-9]*.expect; do
	[ -e "$exp" ] || continue
	b=${exp%.expect}
	if [ -f "$b.conf" ] || [ -f "$b.lxc" ]; then :; else
		n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $(basename "$exp"): has a config" >>"$out"
	fi
done
echo "1..$n"
cat "$out"
[ $fails = 0 ]
