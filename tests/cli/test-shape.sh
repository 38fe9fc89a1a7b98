#!/bin/sh
# One vocabulary and one shape for every output (issue 22): the severity
# words error, warning and info in text, preflight, JSON, Prometheus, the
# findings table and the man page; JSON indented one way, or one line with
# --compact; audit's table; wrapping on a terminal; audit of an empty
# directory; generate's assumed privilege.
# Usage: test-shape.sh LXGPU EXAMPLES_DIR DOCS_DIR   (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) docs=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../lib/tap.sh"

host="$examples/pve-8x-rtx-pro-6000.yaml"
cases="$here/../verify/cases"
mkdir -p "$work/pve/lxc" "$work/lxc" "$work/none"
id=100
for conf in "$cases"/*.conf; do
	id=$((id + 1))
	cp "$conf" "$work/pve/lxc/$id.conf"
done
lx() { "$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" --cgroup-root "$work/none" --state-dir "$work/state" "$@"; }

# ---- severity words ----
# Every output of the commands that judge, in every format: the words a
# severity is written in are error, warning and info, never "note(s)".
for c in $(ls "$work/pve/lxc" | sed 's/\.conf$//'); do
	lx verify "$c" >>"$work/verify.txt" 2>&1
	lx verify "$c" --format json >"$work/verify-$c.json" 2>/dev/null
done
lx preflight >"$work/preflight.txt" 2>&1
lx audit -v >"$work/audit.txt" 2>&1
lx audit --format prometheus >"$work/audit.prom" 2>&1
t_text_words() {
	! grep -nwi 'notes\?' "$work/verify.txt" "$work/preflight.txt" "$work/audit.txt" &&
		grep -Eq '^[0-9]+ errors?, [0-9]+ warnings?, [0-9]+ info$' "$work/verify.txt" &&
		! grep -Ev '^[0-9]+ errors?, [0-9]+ warnings?, [0-9]+ info$' "$work/verify.txt" | grep -E '^[0-9]+ error' &&
		grep -q '^ *- info: ' "$work/preflight.txt"
}
check "text: verify's summary counts errors, warnings, info; preflight says info:, nothing says note" t_text_words
t_json_words() {
	cat "$work"/verify-*.json | jq -r '.findings[].severity' | sort -u >"$work/sev" &&
		[ "$(cat "$work/sev")" = "$(printf 'error\ninfo\nwarning')" ] || { cat "$work/sev"; return 1; }
}
check "JSON: findings' severities are exactly error, warning, info" t_json_words
t_prom_words() {
	sed -n 's/.*severity="\([a-z]*\)".*/\1/p' "$work/audit.prom" | sort -u >"$work/sev" &&
		[ "$(cat "$work/sev")" = "$(printf 'error\ninfo\nwarning')" ] || { cat "$work/sev"; return 1; }
}
check "Prometheus: severity labels are error, warning, info" t_prom_words
t_docs_words() {
	# docs/findings.md's table: | LXGnnn | severity | ...
	sed -n 's/^| LXG[0-9]* | \([a-z]*\) |.*/\1/p' "$docs/findings.md" | sort -u >"$work/sev" &&
		[ "$(cat "$work/sev")" = "$(printf 'error\ninfo\nwarning')" ] || { cat "$work/sev"; return 1; }
	! grep -nwi 'notes\? on stderr' "$docs/lxgpu.1.scd"
}
check "docs: the findings table and the man page use error, warning, info" t_docs_words

tap_finish
