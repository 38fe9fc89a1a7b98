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
. "$here/../lib/lxjson.sh"

host="$examples/pve-8x-rtx-pro-6000.yaml"
cases="$here/../verify/cases"
mkdir -p "$work/pve/lxc" "$work/lxc" "$work/none"
id=100
for conf in "$cases"/*.conf; do
	id=$((id + 1))
	cp "$conf" "$work/pve/lxc/$id.conf"
	[ "${conf##*/}" != devn-missing-node.conf ] || err_id=$id # LXG009, an error
done
lx() { "$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" --cgroup-root "$work/none" --state-dir "$work/state" "$@"; }

# ---- severity words ----
# Every output of the commands that judge, in every format: the words a
# severity is written in are error, warning and info, never "note(s)".
for c in $(ls "$work/pve/lxc" | sed 's/\.conf$//'); do
	lx verify "$c" >>"$work/verify.txt" 2>&1
	lx_json sev "$work/verify-$c.json" lx verify "$c" --format json >>"$work/verify-json.fail"
done
lx preflight >"$work/preflight.txt" 2>&1
lx audit -v >"$work/audit.txt" 2>&1
lx audit --format prometheus >"$work/audit.prom" 2>&1
t_text_words() {
	! grep -nwi 'notes\?' "$work/verify.txt" "$work/preflight.txt" "$work/audit.txt" &&
		grep -Eq '^[0-9]+ errors?, [0-9]+ warnings?, [0-9]+ info$' "$work/verify.txt" &&
		! grep -Ev '^[0-9]+ errors?, [0-9]+ warnings?, [0-9]+ info$' "$work/verify.txt" | grep -E '^[0-9]+ error' &&
		grep -Eq '^  info +LXG[0-9]{3}' "$work/preflight.txt"
}
check "text: verify's summary counts errors, warnings, info; preflight's reasons are findings (info LXGnnn), nothing says note" t_text_words
t_json_words() {
	[ ! -s "$work/verify-json.fail" ] || { cat "$work/verify-json.fail"; return 1; }
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

# ---- one JSON layout, or one line with --compact ----
# Every command that prints JSON, on the 8-GPU host's containers: the text
# is exactly what python3's json module writes for the document with two
# spaces a level (nested objects and "summary" included), and --compact is
# the same document on one line.
printf '[    2.000000] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  590.48.01\n' >"$work/kmsg"
n=0
: >"$work/json-list"
json_case() {
	n=$((n + 1))
	lx "$@" --format json >"$work/j$n.json" 2>/dev/null
	lx "$@" --format json --compact >"$work/j$n.compact" 2>/dev/null
	printf '%s\t%s\n' "$n" "$*" >>"$work/json-list"
}
json_case scan
json_case topo
json_case topo --p2p
json_case verify 101
json_case verify 120
json_case audit
json_case audit -v
json_case preflight
json_case preflight 101 105
json_case doctor --kmsg "$work/kmsg"
cat >"$work/layout.py" <<'PY'
import json, sys
work, listing = sys.argv[1], sys.argv[2]
bad = 0
for line in open(listing):
    n, args = line.rstrip("\n").split("\t", 1)
    pretty = open(f"{work}/j{n}.json").read()
    compact = open(f"{work}/j{n}.compact").read()
    try:
        doc = json.loads(pretty)
        doc_c = json.loads(compact)
    except ValueError as e:
        print(f"lxgpu {args}: not JSON: {e}"); bad += 1; continue
    want = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if pretty != want:
        got_l, want_l = pretty.splitlines(), want.splitlines()
        i = next((i for i, (a, b) in enumerate(zip(got_l, want_l)) if a != b), min(len(got_l), len(want_l)))
        print(f"lxgpu {args} --format json: line {i + 1} is {got_l[i] if i < len(got_l) else 'missing'!r}, "
              f"json.dumps(indent=2) has {want_l[i] if i < len(want_l) else 'nothing'!r}")
        bad += 1
    if doc_c != doc:
        print(f"lxgpu {args} --compact: another document than without it"); bad += 1
    if compact != json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n" or compact.count("\n") != 1:
        print(f"lxgpu {args} --compact: not one line of compact JSON: {compact[:200]!r}"); bad += 1
    print(f"{args}: ok")
sys.exit(1 if bad else 0)
PY
t_json_layout() {
	[ "$(wc -l <"$work/json-list")" -eq 10 ] && python3 "$work/layout.py" "$work" "$work/json-list"
}
check "JSON: two spaces a level for every command; --compact: one line, the same document" t_json_layout
t_compact_needs_json() {
	lx scan --compact >/dev/null 2>"$work/err"
	[ $? -eq 2 ] && grep -q -- "--compact is for --format json" "$work/err"
}
check "--compact without --format json: exit 2, says so" t_compact_needs_json
t_audit_summary_lines() {
	# the summary, as a nested object, one key a line
	grep -q '^  "summary": {$' "$work/j6.json" && grep -q '^    "no_gpus": [0-9]*$' "$work/j6.json"
}
check "audit --format json: summary is a nested object, one key a line" t_audit_summary_lines

# ---- audit's table ----
# pct list's Name column is the config's hostname (plain LXC: lxc.uts.name);
# every column starts where its title does, however long a cell; -v puts
# the findings after the table.
mkdir -p "$work/t/pve/lxc" "$work/t/lxc/web"
cp "$cases/clean-devn.conf" "$work/t/pve/lxc/101.conf"
sed 's/^hostname:.*/hostname: a-very-long-hostname-for-a-gpu-container/' "$cases/missing-uvm.conf" >"$work/t/pve/lxc/102.conf"
cp "$cases/vfio-gpu.conf" "$work/t/pve/lxc/1000000"".conf"
printf 'lxc.uts.name = plainweb\nlxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n' >"$work/t/lxc/web/config"
ta() { "$lxgpu" --host "$host" --pve-dir "$work/t/pve" --lxc-path "$work/t/lxc" --cgroup-root "$work/none" --state-dir "$work/state" audit "$@"; }
ta >"$work/table.txt" 2>/dev/null
ta -v >"$work/table-v.txt" 2>/dev/null
cat >"$work/table.py" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head = next(i for i, l in enumerate(lines) if l.startswith("CONTAINER"))
titles = ["CONTAINER", "NAME", "NODE", "STATE", "GPUS", "STATUS", "FINDINGS"]
starts = [lines[head].index(t) for t in titles]
assert lines[head].split() == titles, lines[head]
rows = {}
for l in lines[head + 1:]:
    if not l or re.match(r"^\d+ containers?: ", l):
        break
    # each cell starts at its column's start (GPUS: right-aligned, ends under its title's end)
    for c, t in enumerate(titles):
        if t == "GPUS":
            end = starts[c] + len(t)
            assert l[end - 1] != " " and l[end] == " ", (t, l)
        else:
            assert l[starts[c]] != " " and (starts[c] == 0 or l[starts[c] - 1] == " "), (t, l)
    cells = l.split()
    rows[cells[0]] = cells
want = {
    "101": ["101", "ct", "pve-gpu01", "stopped", "1", "ok", "-"],
    "102": ["102", "a-very-long-hostname-for-a-gpu-container", "pve-gpu01", "stopped", "1", "error", "LXG008"],
    "web": ["web", "plainweb", "pve-gpu01", "stopped", "1"],
}
for k, w in want.items():
    assert k in rows and rows[k][:len(w)] == w, (k, rows.get(k))
assert "1000000" in rows, rows
PY
t_table_names() {
	python3 "$work/table.py" "$work/table.txt" || { cat "$work/table.txt"; return 1; }
}
check "audit: a NAME column (hostname, lxc.uts.name), columns aligned past a long name and a long id" t_table_names
t_table_verbose() {
	python3 "$work/table.py" "$work/table-v.txt" || { cat "$work/table-v.txt"; return 1; }
	# the table's rows come before any finding, each container's findings under a heading
	first_finding=$(grep -n '^  \(error\|warning\|info\) ' "$work/table-v.txt" | head -n 1 | cut -d: -f1)
	last_row=$(grep -n '^web ' "$work/table-v.txt" | cut -d: -f1)
	[ -n "$first_finding" ] && [ -n "$last_row" ] && [ "$last_row" -lt "$first_finding" ] &&
		grep -qx 'CT 102 (a-very-long-hostname-for-a-gpu-container):' "$work/table-v.txt" ||
		{ cat "$work/table-v.txt"; return 1; }
}
check "audit -v: the findings after the table, not between its rows" t_table_verbose
mkdir -p "$work/empty"
t_nothing_found() {
	"$lxgpu" --host "$host" --pve-dir "$work/empty" --lxc-path "$work/empty" audit >"$work/out" 2>&1 || return 1
	grep -qxF "No containers found: looked for $work/empty/lxc/*.conf (Proxmox) and $work/empty/*/config (LXC)" "$work/out" &&
		! grep -q '^CONTAINER' "$work/out" || { cat "$work/out"; return 1; }
}
check "audit with no containers: says where it looked, no empty table, exit 0" t_nothing_found

# ---- generate without a container: Proxmox's default, said ----
# pve-container's create API (src/PVE/API2/LXC.pm): "$unprivileged = 1 if
# !defined($unprivileged)", and the option's description: "For creation,
# the default is 1". Plain LXC runs a container privileged unless its
# config has lxc.idmap.
t_generate_assumed() {
	lx generate --comments >"$work/g.txt" 2>/dev/null &&
		sed -n 2p "$work/g.txt" | grep -q "; style devn, unprivileged (assumed: Proxmox's default for a new container; --privileged if yours is not)$" &&
		lx generate --comments --style raw >"$work/g.txt" 2>/dev/null &&
		sed -n 2p "$work/g.txt" | grep -q "; style raw, unprivileged (assumed: " &&
		! grep -q '^lxc.cgroup2.devices.allow' "$work/g.txt" &&
		lx generate --comments --style lxc >"$work/g.txt" 2>/dev/null &&
		sed -n 2p "$work/g.txt" | grep -q "; style lxc, privileged (assumed: LXC's without lxc.idmap" ||
		{ cat "$work/g.txt"; return 1; }
}
check "generate without CTID: unprivileged as pct create makes them (lxc: privileged), said in the header" t_generate_assumed
t_generate_known() {
	lx generate --comments --privileged --style raw >"$work/g.txt" 2>/dev/null &&
		sed -n 2p "$work/g.txt" | grep -q '; style raw, privileged$' &&
		grep -q '^lxc.cgroup2.devices.allow' "$work/g.txt" &&
		lx generate --comments 101 >"$work/g.txt" 2>/dev/null && ! grep -q 'assumed' "$work/g.txt" ||
		{ cat "$work/g.txt"; return 1; }
}
check "generate --privileged or CTID: nothing assumed" t_generate_known

# ---- long messages on a terminal wrap at the fix indent ----
# A pty from script(1) (util-linux): its width as stty sets it (TIOCGWINSZ),
# 80 when it has none; not a terminal: never wrapped. The words are the
# same either way.
mkdir -p "$work/w/pve/lxc"
cp "$cases/invalid-rule-v2.conf" "$work/w/pve/lxc/101.conf"
wl="$lxgpu --host $host --pve-dir $work/w/pve --lxc-path $work/none --cgroup-root $work/none --state-dir $work/state --no-color"
on_tty() { # on_tty COLS COMMAND: run it on a pty COLS wide (0: as script makes it), \r dropped
	if [ "$1" -gt 0 ]; then
		script -qc "stty cols $1; $2" /dev/null </dev/null
	else
		script -qc "$2" /dev/null </dev/null
	fi | tr -d '\r'
}
cat >"$work/wrap.py" <<'PY'
import sys
plain, wrapped, width, indent, skip = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
p, w = open(plain).read(), open(wrapped).read()
assert max(len(l) for l in p.splitlines()[skip:]) > width, "the plain output has no long line to wrap"
assert p.split() == w.split(), "wrapping changed the words"
for l in w.splitlines()[skip:]:
    assert len(l) <= width or " " not in l.strip(), f"{len(l)} columns: {l!r}"
cont = [l for l in w.splitlines()[skip:] if l not in p.splitlines()]
col = lambda l: len(l) - len(l.lstrip(" "))
# a message continues at the fix column, a fix's prose 5 further ("fix: ")
assert cont and all(col(l) in (indent, indent + 5) or l.lstrip().startswith("fix:") for l in cont if l.startswith(" " * indent)), cont
assert any(col(l) == indent and not l.lstrip().startswith("fix:") for l in cont), f"no continuation line at column {indent}: {cont}"
PY
t_wrap_verify() {
	$wl verify 101 >"$work/plain" 2>/dev/null
	on_tty 60 "$wl verify 101" >"$work/wrapped" 2>/dev/null
	python3 "$work/wrap.py" "$work/plain" "$work/wrapped" 60 17 1 || { cat "$work/wrapped"; return 1; }
}
check "verify on a 60-column terminal: findings wrapped at 60, continued at the fix indent (17)" t_wrap_verify
t_wrap_default() {
	on_tty 0 "$wl verify 101" >"$work/wrapped" 2>/dev/null
	python3 "$work/wrap.py" "$work/plain" "$work/wrapped" 80 17 1 || { cat "$work/wrapped"; return 1; }
}
check "a terminal without a size: 80 columns" t_wrap_default
t_wrap_preflight() {
	$wl preflight 101 >"$work/plain" 2>/dev/null
	on_tty 50 "$wl preflight 101" >"$work/wrapped" 2>/dev/null
	python3 "$work/wrap.py" "$work/plain" "$work/wrapped" 50 17 1 || { cat "$work/plain" "$work/wrapped"; return 1; }
}
check "preflight on a terminal: reasons wrapped as verify's findings, continued at the fix indent (17)" t_wrap_preflight
t_no_wrap_pipe() {
	$wl verify 101 | awk 'length($0) > 200 { long = 1 } END { exit !long }' &&
		on_tty 60 "$wl audit -v -o $work/v.txt" &&
		awk 'length($0) > 200 { long = 1 } END { exit !long }' "$work/v.txt"
}
check "not a terminal (a pipe, -o FILE): never wrapped" t_no_wrap_pipe

# ---- fixes on a narrow terminal (issue 32) ----
# verify and the guard's post-start (its text on stderr, which the pty
# shows) of every case, preflight and audit -v of them all, doctor: at 80
# and 60 columns every fix's command is whole on a line of its own and
# parses as one shell command; at 80 no other line is wider than the
# terminal (tests/lib/fix-text.py --check)
t_narrow() { # COLS [WIDTH: no other line wider (0: the fixes only)]
	out="$work/narrow-$1"
	mkdir -p "$out"
	for c in $(ls "$work/pve/lxc" | sed 's/\.conf$//'); do
		on_tty "$1" "$lxgpu --host $host --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state --no-color verify $c" \
			>"$out/verify-$c.txt" 2>/dev/null
		on_tty "$1" "$lxgpu --host $host --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state --dev-dir $work/none -q --no-color guard $c post-start" \
			>"$out/guard-$c-post-start.txt" 2>/dev/null
	done
	n=0
	for cmd in "preflight" "audit -v" "doctor --kmsg $here/../doctor/kmsg/clean-public.log"; do
		n=$((n + 1))
		on_tty "$1" "$lxgpu --host $host --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state --no-color $cmd" \
			>"$out/$n-${cmd%% *}.txt" 2>/dev/null
	done
	grep -q "fix:" "$out/1-preflight.txt" || { echo "preflight: no fix"; cat "$out/1-preflight.txt"; return 1; }
	# one run over all of them (the file that fails is named)
	python3 "$here/../lib/fix-text.py" --check "$out"/*.txt "${2:-$1}" >"$work/narrow.why" || {
		cat "$work/narrow.why"; cat "$(sed -n 's/^fix-text: \([^:]*\): .*/\1/p' "$work/narrow.why")"; return 1; }
}
check "80 columns: every fix's command whole on its own line, one shell command; nothing wider" t_narrow 80
check "60 columns: every fix's command whole on its own line, one shell command" t_narrow 60 0

# ---- one set of colours (issue 32) ----
# On a terminal verify's severities, audit's statuses and preflight's
# verdicts are coloured, each by the severity it stands for, the same
# ANSI code in every command: error (will fail) red 31, warning (degraded)
# yellow 33, ok green 32, info cyan 36. doctor's findings too, and the guard's (on its
# stderr, when that is the terminal; -q: no journal warning here).
t_colours() {
	cl="$lxgpu --host $host --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state"
	for c in "verify 107" "verify 102" audit preflight; do
		NO_COLOR= on_tty 200 "$cl $c" >"$work/col-$(echo "$c" | tr ' ' -).txt" 2>/dev/null
	done
	NO_COLOR= on_tty 200 "$cl doctor $err_id" >"$work/col-doctor.txt" 2>/dev/null
	NO_COLOR= on_tty 200 "$cl --dev-dir $work/none -q guard $err_id post-start" >"$work/col-guard.txt" 2>/dev/null
	python3 - "$work"/col-*.txt <<'PY'
import re, sys
want = {"error": "31", "will fail": "31", "warning": "33", "degraded": "33", "ok": "32", "info": "36"}
seen = {}
for f in sys.argv[1:]:
    # (a finding's severity is padded to its column inside the colour)
    got = re.findall(r"\x1b\[(\d+)m(error|warning|will fail|degraded|ok|info) *\x1b\[0m", open(f).read())
    assert got, f"{f}: nothing coloured"
    for code, word in got:
        assert code == want[word], f"{f}: {word!r} in colour {code}, want {want[word]}"
        seen.setdefault(f.split("col-")[1], set()).add(word)
assert {"error", "warning"} <= seen.get("audit.txt", set()), seen
assert seen.get("preflight.txt"), seen
assert "error" in seen.get("doctor.txt", set()), seen
assert "error" in seen.get("guard.txt", set()), seen
PY
}
check "colours: severities, statuses and verdicts alike in verify, audit, preflight, doctor and guard" t_colours

# ---- every command's text fits 80 columns, on every example host (issue 32) ----
# Tables (scan's GPUs, topo's matrix and pairs, audit) wrap inside their
# cells; a command to copy stays whole on its own line (tests/lib/fix-text.py
# --check); generate's lines are config lines, only its comments are text.
t_fits() { # HOST
	for cmd in scan topo "topo --p2p" "topo --gpus 2" "audit -v" preflight "preflight --next-boot" \
		"doctor --kmsg $here/../doctor/kmsg/clean-public.log" "verify 101"; do
		on_tty 80 "$lxgpu --host $1 --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state --no-color $cmd" \
			>"$work/f.txt" 2>/dev/null
		[ -s "$work/f.txt" ] || { echo "$cmd: no output"; return 1; }
		python3 "$here/../lib/fix-text.py" --check "$work/f.txt" 80 || { echo "$cmd:"; cat "$work/f.txt"; return 1; }
	done
	# the guard's text is on stderr (the task log), which the pty shows
	for phase in pre-start post-start; do
		on_tty 80 "$lxgpu --host $1 --pve-dir $work/pve --lxc-path $work/lxc --cgroup-root $work/none --state-dir $work/state --dev-dir $work/none -q --no-color guard 101 $phase" \
			>"$work/f.txt" 2>/dev/null
		python3 "$here/../lib/fix-text.py" --check "$work/f.txt" 80 || { echo "guard $phase:"; cat "$work/f.txt"; return 1; }
	done
	on_tty 80 "$lxgpu --host $1 --no-color generate" >"$work/f.txt" 2>/dev/null
	! grep '^#' "$work/f.txt" | awk 'length($0) > 80 { print; bad = 1 } END { exit !bad }' || return 1
}
for h in "$examples"/*.yaml; do
	check "$(basename "$h" .yaml): every command's text fits 80 columns" t_fits "$h"
done
# lxgpu help and each command's --help: what a new user reads first, on
# the 80-column terminal the issue names (the text is the same on any host)
t_help_fits() {
	cmds=$("$lxgpu" help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
	[ -n "$cmds" ] || { echo "no commands in lxgpu help"; return 1; }
	"$lxgpu" help >"$work/h.txt" || return 1
	python3 "$here/../lib/fix-text.py" --check "$work/h.txt" 80 || { echo "lxgpu help"; return 1; }
	for c in $cmds; do
		[ "$c" != help ] || continue
		"$lxgpu" "$c" --help >"$work/h.txt" || return 1
		python3 "$here/../lib/fix-text.py" --check "$work/h.txt" 80 || { echo "lxgpu $c --help"; return 1; }
	done
}
check "lxgpu help and every CMD --help fit 80 columns" t_help_fits

tap_finish
