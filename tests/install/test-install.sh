#!/bin/sh
# meson install into a scratch DESTDIR: the files meson says it installs are
# there (binary, man page, bash and zsh completion, the systemd units, docs);
# the installed boot unit is what `ensure-nodes --print-boot-unit` and
# `preflight --print-boot-unit` print; systemd-analyze finds nothing wrong in
# the units; the audit unit's own command line writes Prometheus text (the
# exposition format's line grammar) to its -o file, atomically.
# Usage: test-install.sh BUILD_DIR EXAMPLES_DIR SOURCE_DIR   (TAP output)
set -u
build=$(cd "$1" && pwd) examples=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
eight="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest="$work/dest"
. "$(dirname "$0")/../lib/tap.sh"

# What meson installs, as absolute paths (without DESTDIR).
meson introspect "$build" --installed |
	python3 -c 'import json, sys; print("\n".join(sorted(json.load(sys.stdin).values())))' \
	>"$work/installed"
installed() { grep -E "$1" "$work/installed" | head -n 1; }
bin=$(installed '/bin/lxgpu$')
nodes_unit=$(installed '/systemd/system/lxgpu-nodes\.service$')
audit_unit=$(installed '/systemd/system/lxgpu-audit\.service$')

t_install() {
	# Not --no-rebuild: meson test builds only what the selected tests need.
	meson install -C "$build" --destdir "$dest" --quiet >"$work/install.log" 2>&1 ||
		{ cat "$work/install.log"; return 1; }
	bad=0
	while read -r path; do
		[ -f "$dest$path" ] || { echo "not installed: $path"; bad=1; }
	done <"$work/installed"
	[ "$bad" -eq 0 ]
}

t_list() {
	cat "$work/installed"
	for want in '/bin/lxgpu$' '/systemd/system/lxgpu-nodes\.service$' \
		'/systemd/system/lxgpu-audit\.service$' '/systemd/system/lxgpu-audit\.timer$' \
		'/systemd/system/lxgpu-publish\.service$' '/udev/rules\.d/60-lxgpu-publish\.rules$' \
		'/bash-completion/completions/lxgpu$' '/zsh/vendor-completions/_lxgpu$' \
		'/share/doc/lxgpu/README\.md$' '/share/doc/lxgpu/findings\.md$'; do
		grep -Eq "$want" "$work/installed" || { echo "meson installs no $want"; return 1; }
	done
	# The man page needs scdoc, which tools/install-deps installs.
	if command -v scdoc >/dev/null || [ "${CI:-}" = true ]; then
		grep -Eq '/man/man1/lxgpu\.1$' "$work/installed" || { echo "no man page (scdoc)"; return 1; }
	fi
}

t_docs() {
	bad=0
	for f in "$src/README.md" "$src"/docs/*.md; do
		grep -q "/share/doc/lxgpu/${f##*/}\$" "$work/installed" || { echo "not installed: $f"; bad=1; }
	done
	for f in "$src"/docs/schema/*.json; do
		grep -q "/share/lxgpu/schema/${f##*/}\$" "$work/installed" || { echo "not installed: $f"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

# The example hosts are installed, and the hint a scan without an NVIDIA
# GPU gives names the installed ones (the binary's path to them is where
# meson put them, less DESTDIR); each loads in the installed binary.
t_examples() {
	for f in "$src"/examples/hosts/*.yaml; do
		grep -q "/share/lxgpu/examples/hosts/${f##*/}\$" "$work/installed" || { echo "not installed: $f"; return 1; }
	done
	model=$(installed '/share/lxgpu/examples/hosts/pve-8x-rtx-pro-6000\.yaml$')
	[ -n "$model" ] && grep -aq "${model%/*}" "$dest$bin" || { echo "the binary does not name ${model%/*}"; return 1; }
	"$dest$bin" --host "$dest$model" scan >/dev/null
}

t_runs() {
	"$dest$bin" --version | grep -Eqx 'lxgpu [0-9]+\.[0-9]+\.[0-9]+.*'
}

t_boot_unit() {
	"$dest$bin" ensure-nodes --print-boot-unit >"$work/printed" || return 1
	cmp "$dest$nodes_unit" "$work/printed" || return 1
	"$dest$bin" preflight --print-boot-unit | cmp - "$work/printed" || return 1
	# It runs the binary that was installed with it.
	grep -qx "ExecStart=$bin ensure-nodes --load-modules" "$dest$nodes_unit" &&
		grep -qx "ExecStart=$bin audit --format prometheus -o .*" "$dest$audit_unit"
}

t_systemd_analyze() {
	command -v systemd-analyze >/dev/null ||
		{ echo "no systemd-analyze (Debian package systemd, tools/install-deps)"; return 1; }
	# Every unit meson installs.
	units=$(grep '/systemd/system/' "$work/installed" | sed "s|^|$dest|")
	[ "$(echo "$units" | wc -l)" -ge 3 ] || { echo "units: $units"; return 1; }
	# shellcheck disable=SC2086
	systemd-analyze verify --man=no $units >"$work/analyze" 2>&1
	# The binary is only under DESTDIR; anything else it says is a defect.
	grep -v "Command $bin is not executable" "$work/analyze" >"$work/left"
	cat "$work/left"
	[ ! -s "$work/left" ]
}

# The audit unit's command, as the unit has it, on a made-up host: exit 0 and
# Prometheus text exposition format lines in the -o file, nothing else left.
t_audit_unit_command() {
	line=$(sed -n 's/^ExecStart=//p' "$dest$audit_unit")
	out=$(printf '%s\n' "$line" | sed -n 's/.* -o \([^ ]*\)$/\1/p')
	[ -n "$out" ] || { echo "no -o FILE in: $line"; return 1; }
	mkdir -p "$work/pve/lxc" "$work/lxc" "$work/textfile"
	printf 'arch: amd64\nhostname: ct\nunprivileged: 1\ndev0: /dev/nvidia0\n' >"$work/pve/lxc/101.conf"
	# shellcheck disable=SC2086
	set -- $line
	shift # the binary: the installed one under DESTDIR
	args=$(printf '%s\n' "$*" | sed "s| -o $out\$| -o $work/textfile/lxgpu.prom|")
	# shellcheck disable=SC2086
	"$dest$bin" --host "$eight" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--cgroup-root "$work/none" $args || { echo "exit $?: $args"; return 1; }
	ls -A "$work/textfile" >"$work/files"
	printf 'lxgpu.prom\n' | diff -u - "$work/files" || return 1
	prom="$work/textfile/lxgpu.prom"
	grep -q '^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* gauge$' "$prom" || { cat "$prom"; return 1; }
	# Every other line: a comment, or NAME{LABELS} VALUE.
	grep -Ev '^# (HELP|TYPE) |^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? -?[0-9.eE+-]+$' \
		"$prom" >"$work/bad"
	[ ! -s "$work/bad" ] || { echo "not exposition format:"; cat "$work/bad"; return 1; }
}

# lxgpu's own directories (state, backups, Proxmox's lock dir) are made on
# first use with their parents, as mkdir -p does; backups stay private.
t_dirs_made() {
	d="$work/first-use"
	mkdir -p "$d/pve/lxc" "$d/lxc"
	printf 'arch: amd64\nhostname: ct\nunprivileged: 1\n' >"$d/pve/lxc/101.conf"
	"$dest$bin" --host "$eight" --pve-dir "$d/pve" --lxc-path "$d/lxc" --state-dir "$d/var/lib/lxgpu" \
		--cgroup-root "$d/none" apply 101 --gpus 0 --style include \
		--backup-dir "$d/var/lib/lxgpu/backups" --lock-dir "$d/run/lock/lxc" >"$work/apply.out" 2>&1 ||
		{ cat "$work/apply.out"; return 1; }
	[ "$(stat -c %a "$d/var/lib/lxgpu/backups")" = 700 ] &&
		[ "$(stat -c %a "$d/var/lib")" = 755 ] && [ -d "$d/run/lock/lxc" ] &&
		[ -d "$d/var/lib/lxgpu/containers" ] && [ -f "$d/var/lib/lxgpu/lxc/101.conf" ] ||
		{ find "$d" -type d -exec stat -c '%a %n' {} +; return 1; }
	for f in "$d"/var/lib/lxgpu/backups/101-*.tar.gz; do [ -f "$f" ] && return 0; done
	echo "no backup of 101 in $d/var/lib/lxgpu/backups"
	return 1
}

# The Proxmox hookscript (docs/guard.md): pve-container runs it as
# `SCRIPT VMID PHASE` and needs it executable; it hands both to the
# installed binary's guard.
t_hookscript() {
	hook=$(installed '/share/lxgpu/lxgpu-guard-hookscript$')
	[ -n "$hook" ] && [ -x "$dest$hook" ] || { echo "no executable hookscript: $hook"; return 1; }
	sh -n "$dest$hook" && grep -qx "exec $bin guard \"\$1\" \"\$2\"" "$dest$hook" ||
		{ cat "$dest$hook"; return 1; }
}

t_completion_loads() {
	bash -c '. "$1" && complete -p lxgpu' _ "$dest$(installed '/completions/lxgpu$')" |
		grep -q -- '-F _lxgpu lxgpu'
}

t_man_page() {
	man=$(installed '/man/man1/lxgpu\.1$')
	[ -n "$man" ] || { echo "no man page installed (scdoc missing?)"; return 1; }
	for section in NAME SYNOPSIS COMMANDS OPTIONS FILES EXAMPLES 'SEE ALSO'; do
		grep -Eq "^\.SH \"?$section\"?\$" "$dest$man" || { echo "no section $section"; return 1; }
	done
	# The default paths are there (roff's zero-width '\&' taken out).
	sed 's/\\&//g' "$dest$man" >"$work/man"
	grep -q '^/var/lib/lxgpu/backups/$' "$work/man" &&
		grep -qxF "$nodes_unit" "$work/man"
}

check "meson install puts every file it lists in DESTDIR" t_install
check "the list has the binary, units, completion, docs (and the man page)" t_list
check "every docs/*.md and docs/schema/*.json is installed" t_docs
check "the installed binary runs" t_runs
check "the example hosts are installed where the no-GPU hint says" t_examples
check "installed boot unit = ensure-nodes/preflight --print-boot-unit" t_boot_unit
check "systemd-analyze verify: nothing wrong in the units" t_systemd_analyze
check "the audit unit's command writes Prometheus text to its -o file" t_audit_unit_command
check "state, backup and lock dirs made on first use, with parents" t_dirs_made
check "the installed bash completion registers for lxgpu" t_completion_loads
check "the Proxmox hookscript is installed, executable, and runs the installed lxgpu guard" t_hookscript
check "the man page has FILES, EXAMPLES, SEE ALSO and the default paths" t_man_page
tap_finish
