#!/bin/sh
# Outputs that never lie and command-line habits (issue 13 items 3 and 6):
# a failed write to stdout is exit 2 with a message for every command; -o
# FILE is atomic; audit's Prometheus exit status; --pve-dir/--lxc-path that
# do not exist; generate --no-comments against what Proxmox's own parser
# made of the pasted output (recorded in pve-oracle-paste/); did you mean;
# per-command help; NO_COLOR and TERM=dumb; -q and -v; backup pruning and
# stale temporary files. Usage: test-output.sh LXGPU EXAMPLES_DIR   (TAP)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
host="$examples/pve-rtx-4090.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../lib/tap.sh"
. "$here/../lib/lxjson.sh"

mkdir -p "$work/pve/lxc" "$work/lxc" "$work/backups" "$work/locks"
printf 'arch: amd64\nhostname: gpu\nunprivileged: 1\ndev0: /dev/nvidia0\ndev1: /dev/nvidiactl\n' >"$work/pve/lxc/101.conf"
# A scratch --state-dir: apply records a container's GPUs there, and a
# test never writes the machine's /var/lib/lxgpu (on a Proxmox node that
# would overwrite a real container's record).
lx() { "$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" --cgroup-root "$work/no-cgroup" --state-dir "$work/state" "$@"; }
# apply and rollback's own directories
ab="--lock-dir $work/locks --backup-dir $work/backups"

# run EXPECTED_STATUS ARGS...: lx with stdout/stderr kept, status checked.
run() {
	want=$1
	shift
	lx "$@" >"$work/out" 2>"$work/err"
	got=$?
	[ "$got" -eq "$want" ] || { echo "exit status $got, wanted $want: lxgpu $*"; cat "$work/out" "$work/err"; return 1; }
}
err_has() { grep -qF -- "$1" "$work/err" || { echo "stderr lacks: $1"; cat "$work/err"; return 1; }; }
out_has() { grep -qF -- "$1" "$work/out" || { echo "stdout lacks: $1"; cat "$work/out"; return 1; }; }

# ---- a full disk: every command that prints, exit 2 with a message ----
# One invocation per command that writes to stdout; a command without one
# here is checked through its --help.
invocation() {
	case "$1" in
	scan) echo "scan --format json" ;;
	generate) echo "generate --style cdi" ;;
	apply) echo "apply 101 --gpus 0 --dry-run $ab" ;;
	rollback) echo "rollback 101 --list $ab" ;;
	verify) echo "verify 101" ;;
	audit) echo "audit --format prometheus" ;;
	preflight) echo "preflight 101" ;;
	topo) echo "topo --format json" ;;
	snapshot) echo "snapshot -o -" ;;
	ensure-nodes) echo "ensure-nodes --print-boot-unit" ;;
	doctor) echo "doctor --kmsg $work/kmsg" ;;
	publish) echo "publish --help" ;; # writes its file, nothing on stdout
	help) echo "help" ;;
	*) echo "$1 --help" ;;
	esac
}
printf '[    2.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05\n' >"$work/kmsg"
commands=$("$lxgpu" help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
t_commands_listed() { [ "$(echo "$commands" | wc -l)" -ge 11 ] || { echo "commands: $commands"; return 1; }; }
check "lxgpu help lists the commands" t_commands_listed
t_full() {
	# shellcheck disable=SC2046
	lx $(invocation "$1") >/dev/full 2>"$work/err"
	rc=$?
	[ "$rc" -eq 2 ] || { echo "exit $rc, wanted 2"; cat "$work/err"; return 1; }
	grep -q 'No space left on device\|a write failed' "$work/err" || { echo "no message:"; cat "$work/err"; return 1; }
}
for cmd in $commands; do
	check "$cmd > /dev/full: exit 2 with a message ($(invocation "$cmd"))" t_full "$cmd"
done
t_full_version() { lx --version >/dev/full 2>"$work/err"; [ $? -eq 2 ] && grep -q 'No space left' "$work/err"; }
t_full_cmd_help() { lx verify --help >/dev/full 2>"$work/err"; [ $? -eq 2 ] && grep -q 'No space left' "$work/err"; }
check "--version > /dev/full: exit 2" t_full_version
check "CMD --help > /dev/full: exit 2" t_full_cmd_help
t_good_stdout() { run 0 scan && [ -s "$work/out" ] && [ ! -s "$work/err" ]; }
check "a normal run: output, nothing on stderr, exit 0" t_good_stdout

# ---- -o FILE: atomic ----
t_o_generate() {
	run 0 generate --style cdi -o "$work/cdi.yaml" && [ ! -s "$work/out" ] &&
		lx generate --style cdi >"$work/direct.yaml" && cmp "$work/cdi.yaml" "$work/direct.yaml" &&
		[ "$(stat -c %a "$work/cdi.yaml")" = 644 ]
}
t_o_failed_keeps_old() {
	echo old >"$work/keep.yaml"
	chmod 600 "$work/keep.yaml"
	run 2 generate --gpus 7 -o "$work/keep.yaml" && [ "$(cat "$work/keep.yaml")" = old ] &&
		err_has "there is no GPU 7" && err_has "keep.yaml: not written"
}
t_o_mode_kept() { run 0 generate -o "$work/keep.yaml" && [ "$(stat -c %a "$work/keep.yaml")" = 600 ] && grep -q '^dev0:' "$work/keep.yaml"; }
t_o_symlink() {
	echo x >"$work/target.yaml" && ln -s target.yaml "$work/link.yaml" &&
		run 0 generate --style cdi -o "$work/link.yaml" && [ -L "$work/link.yaml" ] &&
		grep -q '^cdiVersion' "$work/target.yaml"
}
t_o_no_dir() { run 2 generate -o "$work/no/such/x.yaml" && err_has "$work/no/such/x.yaml"; }
t_o_full_device() { run 2 generate -o /dev/full && err_has "/dev/full" && err_has "No space left"; }
t_o_no_temp() {
	for f in "$work"/*lxgpu-tmp* "$work"/.*lxgpu-tmp*; do
		[ ! -e "$f" ] || { echo "left: $f"; return 1; }
	done
}
t_o_audit() {
	run 0 audit --format prometheus -o "$work/lxgpu.prom" && [ ! -s "$work/out" ] &&
		grep -q '^lxgpu_audit_containers 1$' "$work/lxgpu.prom"
}
check "generate -o FILE: the same bytes as stdout, mode 0644" t_o_generate
check "generate -o FILE that fails: FILE keeps its old content" t_o_failed_keeps_old
check "generate -o FILE: an existing file keeps its mode" t_o_mode_kept
check "-o LINK: the link's target is replaced, the link stays" t_o_symlink
check "-o in a directory that does not exist: exit 2, names it" t_o_no_dir
check "-o /dev/full: exit 2, names it" t_o_full_device
check "-o: no temporary file left behind" t_o_no_temp
check "audit --format prometheus -o FILE" t_o_audit

# ---- audit --format prometheus: 0 when the metrics were written ----
# 102 has a devN line for a GPU node this host does not have: an error.
printf 'arch: amd64\ndev0: /dev/nvidia7\ndev1: /dev/nvidiactl\n' >"$work/pve/lxc/102.conf"
t_prom_exit() {
	run 1 audit && out_has "error" &&
		run 0 audit --format prometheus && out_has 'container="102"' && out_has 'severity="error"'
}
check "audit with errors: exit 1; --format prometheus: exit 0 with them in the metrics" t_prom_exit
rm "$work/pve/lxc/102.conf"

# ---- --pve-dir / --lxc-path ----
mkdir -p "$work/empty"
t_pve_typo() { "$lxgpu" --host "$host" --pve-dir "$work/typo" audit >"$work/out" 2>"$work/err"; [ $? -eq 2 ] && err_has "--pve-dir $work/typo: No such file or directory"; }
t_lxc_typo() { "$lxgpu" --host "$host" --lxc-path "$work/typo" audit >"$work/out" 2>"$work/err"; [ $? -eq 2 ] && err_has "--lxc-path $work/typo: No such file or directory"; }
t_pve_file() { "$lxgpu" --host "$host" --pve-dir "$work/pve/lxc/101.conf" audit >"$work/out" 2>"$work/err"; [ $? -eq 2 ] && err_has "not a directory"; }
t_empty_ok() { "$lxgpu" --host "$host" --pve-dir "$work/empty" --lxc-path "$work/empty" audit >"$work/out" 2>"$work/err" && out_has "No containers found: looked for $work/empty/lxc/*.conf (Proxmox) and $work/empty/*/config (LXC)"; }
check "--pve-dir that does not exist: exit 2" t_pve_typo
check "--lxc-path that does not exist: exit 2" t_lxc_typo
check "--pve-dir that is a file: exit 2" t_pve_file
check "--pve-dir and --lxc-path that exist but are empty: fine" t_empty_ok

# ---- generate --no-comments: what Proxmox makes of the pasted output ----
# pve-oracle-paste/NNN.conf is base.conf followed by generate's output;
# NNN.json is what PVE's parse_pct_config made of it (recorded with
# /work/shared/tools/pve-oracle/pve-parse; see the README there).
oracle="$here/pve-oracle-paste"
eight="$examples/pve-8x-rtx-pro-6000.yaml"
t_paste_bytes() {
	{ cat "$oracle/base.conf"; "$lxgpu" --host "$host" generate --no-comments --unprivileged; } >"$work/101.conf" &&
		cmp "$work/101.conf" "$oracle/101.conf" &&
		{ cat "$oracle/base.conf"; "$lxgpu" --host "$eight" generate --no-comments --style raw --gpus 0,1 --unprivileged; } >"$work/102.conf" &&
		cmp "$work/102.conf" "$oracle/102.conf" || { echo "the output changed: record the verdicts again"; diff "$oracle/101.conf" "$work/101.conf"; return 1; }
}
# PVE's rule, as its verdicts show it: every '#' line goes to the description.
t_paste_rule() {
	for n in 101 102 103; do
		want=$(sed -n 's/^description: \(.*\)%0A$/\1/p' "$oracle/base.conf"; sed -n 's/^#//p' "$oracle/$n.conf")
		got=$(jq -r '.nonstrict.main.description' "$oracle/$n.json" | sed '/^$/d')
		[ "$got" = "$want" ] || { echo "$n: PVE's description: $got"; return 1; }
	done
}
t_paste_clean() {
	for n in 101 102; do
		jq -e '.nonstrict.main.description == "Render box\n" and .nonstrict.warnings == [] and .nonstrict.error == null' \
			"$oracle/$n.json" >/dev/null || { echo "$n"; return 1; }
	done
	jq -e '.nonstrict.main.keys | has("dev0") and has("dev4") and .dev1 == "/dev/nvidiactl,mode=0666"' "$oracle/101.json" >/dev/null &&
		jq -e '[.nonstrict.main.lxc[] | select(.[0] == "lxc.mount.entry")] | length == 5' "$oracle/102.json" >/dev/null
}
t_comments_warn() {
	"$lxgpu" --host "$host" generate --comments | grep -q "^# Proxmox keeps every '#' line as the CT's description" &&
		jq -e '.nonstrict.main.description | contains("generate --no-comments")' "$oracle/103.json" >/dev/null
}
t_no_comments_styles() {
	for style in devn raw lxc cdi; do
		"$lxgpu" --host "$eight" generate --no-comments --style $style --dri --caps >"$work/nc" || return 1
		! grep -q '^[[:space:]]*#' "$work/nc" && ! grep -q '^$' "$work/nc" && [ -s "$work/nc" ] || { echo "$style"; cat "$work/nc"; return 1; }
	done
	"$lxgpu" --host "$eight" generate --no-comments --style cdi | python3 -c 'import sys, yaml; d = yaml.safe_load(sys.stdin); sys.exit(0 if d["kind"] == "lxgpu/gpu" else 1)'
}
t_no_comments_scan() { run 2 scan --no-comments && err_has "'scan' does not take --no-comments"; }
# Without either option the '#' lines are for a terminal only: a pipe or
# -o FILE gets the bytes of --no-comments (what PVE's verdicts were recorded
# for), a terminal (script(1)'s pty) gets the header; --comments asks for it.
t_comments_default() {
	"$lxgpu" --host "$host" generate --unprivileged >"$work/pipe" &&
		{ cat "$oracle/base.conf"; cat "$work/pipe"; } | cmp - "$oracle/101.conf" || { echo "a pipe got comments"; cat "$work/pipe"; return 1; }
	"$lxgpu" --host "$host" generate --unprivileged -o "$work/o.conf" &&
		{ cat "$oracle/base.conf"; cat "$work/o.conf"; } | cmp - "$oracle/101.conf" || { echo "-o FILE got comments"; cat "$work/o.conf"; return 1; }
	"$lxgpu" --host "$host" generate --comments -o "$work/c.conf" &&
		grep -q "^# Proxmox keeps every '#' line as the CT's description" "$work/c.conf" || { echo "--comments -o: no header"; return 1; }
	script -qec "'$lxgpu' --host '$host' --no-color generate" /dev/null >"$work/tty" 2>&1 &&
		grep -q "^# Proxmox keeps every '#' line as the CT's description" "$work/tty" || { echo "a terminal got no header"; cat "$work/tty"; return 1; }
	run 2 generate --comments --no-comments && err_has "--comments and --no-comments"
}
check "generate --no-comments: the bytes PVE's verdicts were recorded for" t_paste_bytes
check "PVE's parser puts every '#' line into the description (its recorded verdicts)" t_paste_rule
check "pasted --no-comments output: description unchanged, keys and lxc lines as PVE reads them" t_paste_clean
check "generate's comments say so, and PVE shows that sentence in the notes" t_comments_warn
check "--no-comments: no comment or blank line in any style; the CDI spec still loads" t_no_comments_styles
check "--no-comments is generate's" t_no_comments_scan
check "generate: '#' lines on a terminal only, unless --comments" t_comments_default

# ---- did you mean; help ----
t_typo_cmd() { run 2 scna && err_has "unknown command 'scna'; did you mean 'scan'?"; }
t_typo_cmd2() { run 2 verfiy 101 && err_has "did you mean 'verify'?"; }
t_prefix_cmd() { run 2 gen && err_has "did you mean 'generate'?"; }
t_typo_opt() { run 2 scan --fromat json && err_has "unknown option '--fromat'; did you mean '--format'?"; }
t_typo_opt_value() { run 2 apply 101 --dryrun && err_has "did you mean '--dry-run'?"; }
t_no_near() { run 2 frobnicate && err_has "unknown command 'frobnicate'; see 'lxgpu help'" && ! grep -q "did you mean" "$work/err"; }
t_no_near_opt() { run 2 scan --zzzzzzzz && ! grep -q "did you mean" "$work/err"; }
t_cmd_help_short() {
	run 0 verify --help && out_has "Usage: lxgpu verify" && out_has "'lxgpu help'" &&
		! grep -q -- '--firmware-dir' "$work/out" && ! grep -q 'Global options (before' "$work/out"
}
t_main_help_global() { run 0 help && out_has "--firmware-dir" && out_has "Exit status"; }
check "mistyped command: did you mean" t_typo_cmd
check "swapped letters: did you mean" t_typo_cmd2
check "a prefix of one command: did you mean" t_prefix_cmd
check "mistyped option: did you mean" t_typo_opt
check "option without its dash: did you mean" t_typo_opt_value
check "nothing close: no suggestion" t_no_near
check "nothing close to an option: no suggestion" t_no_near_opt
check "CMD --help: no global block, a pointer to 'lxgpu help'" t_cmd_help_short
check "lxgpu help keeps the global options" t_main_help_global

# ---- backups pruned (--keep), stale temporary files removed ----
printf 'arch: amd64\nhostname: b\n' >"$work/pve/lxc/103.conf"
backups_103() { for f in "$work/backups"/103-*.tar.gz; do [ -e "$f" ] && echo "${f##*/}"; done; }
n_backups() { backups_103 | wc -l; }
t_keep() {
	# Each apply in the other style writes (and backs up).
	for i in 1 2 3 4 5 6; do
		if [ $((i % 2)) -eq 1 ]; then style=raw; else style=devn; fi
		lx apply 103 --gpus 0 --style $style $ab --keep 3 >"$work/out" 2>"$work/err" ||
			{ echo "apply $i"; cat "$work/err"; return 1; }
	done
	[ "$(n_backups)" -eq 3 ] || { echo "$(n_backups) backups"; ls "$work/backups"; return 1; }
	lx rollback 103 --list $ab >"$work/out" && [ "$(grep -c '^  103-' "$work/out")" -eq 3 ]
}
t_keep_default() {
	for i in $(seq 1 12); do
		if [ $((i % 2)) -eq 1 ]; then style=raw; else style=devn; fi
		lx apply 103 --gpus 0 --style $style $ab >"$work/out" 2>"$work/err" || { cat "$work/err"; return 1; }
	done
	[ "$(n_backups)" -eq 10 ] || { echo "$(n_backups) backups"; return 1; }
}
t_keep_newest() {
	newest=$(backups_103 | tail -n 1)
	lx rollback 103 $ab --keep 1 >"$work/out" 2>"$work/err" || { cat "$work/err"; return 1; }
	# the rollback's own backup of the config it replaced is the one left
	[ "$(n_backups)" -eq 1 ] && ! [ -e "$work/backups/$newest" ] &&
		grep -q "$(backups_103)" "$work/out"
}
t_keep_bad() { run 2 apply 103 --gpus 0 $ab --keep 0 && err_has "--keep '0'"; }
t_keep_scan() { run 2 scan --keep 3 && err_has "'scan' does not take --backup-dir"; }
t_stale_temps() {
	old='2 minutes ago'
	for f in 103.conf.lxgpu-tmp-AbC123 103.conf.lxgpu-tmp-fresh1 103.conf.lxgpu-tmp-toolong7 \
		103.conf.lxgpu-tmp-ab-123 104.conf.lxgpu-tmp-XyZ789 103.conf.backup; do
		echo stale >"$work/pve/lxc/$f"
	done
	ln -s 103.conf "$work/pve/lxc/103.conf.lxgpu-tmp-Link01"
	echo stale >"$work/backups/103-20200101T000000.000000000Z.tar.gz.lxgpu-tmp-Qw3rty"
	echo stale >"$work/backups/104-20200101T000000.000000000Z.tar.gz.lxgpu-tmp-Qw3rty"
	touch -h -d "$old" "$work/pve/lxc/"*lxgpu-tmp-* "$work/pve/lxc/103.conf.backup" "$work/backups/"*lxgpu-tmp-*
	touch "$work/pve/lxc/103.conf.lxgpu-tmp-fresh1"
	lx -v apply 103 --gpus 0 --style devn $ab >"$work/out" 2>"$work/err" || { cat "$work/err"; return 1; }
	err_has "removed $work/pve/lxc/103.conf.lxgpu-tmp-AbC123" &&
		err_has "removed $work/backups/103-20200101T000000.000000000Z.tar.gz.lxgpu-tmp-Qw3rty" &&
		! [ -e "$work/pve/lxc/103.conf.lxgpu-tmp-AbC123" ] &&
		! [ -e "$work/backups/103-20200101T000000.000000000Z.tar.gz.lxgpu-tmp-Qw3rty" ] || return 1
	# Left alone: a recent one (a write may be under way), other names,
	# another container's, a symbolic link.
	for f in 103.conf.lxgpu-tmp-fresh1 103.conf.lxgpu-tmp-toolong7 103.conf.lxgpu-tmp-ab-123 \
		104.conf.lxgpu-tmp-XyZ789 103.conf.backup 103.conf.lxgpu-tmp-Link01; do
		[ -e "$work/pve/lxc/$f" ] || [ -L "$work/pve/lxc/$f" ] || { echo "removed $f"; return 1; }
	done
	[ -e "$work/backups/104-20200101T000000.000000000Z.tar.gz.lxgpu-tmp-Qw3rty" ]
}
check "--keep 3: six applies leave the three newest backups" t_keep
check "default: ten backups per container" t_keep_default
check "rollback --keep 1: only its own new backup stays" t_keep_newest
check "--keep 0: exit 2" t_keep_bad
check "--keep is apply's and rollback's" t_keep_scan
check "apply removes its own stale temporary files (older than a minute), nothing else" t_stale_temps

# ---- colour: NO_COLOR only when not empty, none for TERM=dumb ----
# A terminal (script(1) gives one) gets colour: scan's headings are bold.
nouvm="$examples/pve-uvm-not-loaded.yaml"
on_tty() { script -qec "env $1 '$lxgpu' --host '$nouvm' scan" /dev/null >"$work/tty" 2>&1; }
has_esc() { grep -q "$(printf '\033')" "$work/tty"; }
t_color_tty() { on_tty "TERM=xterm" && has_esc; }
t_color_empty_no_color() { on_tty "TERM=xterm NO_COLOR=" && has_esc; }
t_color_no_color() { on_tty "TERM=xterm NO_COLOR=1" && ! has_esc; }
t_color_dumb() { on_tty "TERM=dumb" && ! has_esc; }
t_color_flag() { script -qec "env TERM=xterm '$lxgpu' --host '$nouvm' scan --no-color" /dev/null >"$work/tty" 2>&1 && ! has_esc; }
t_color_pipe() { TERM=xterm "$lxgpu" --host "$nouvm" scan >"$work/tty" && ! has_esc; }
if command -v script >/dev/null; then
	check "a terminal gets colour" t_color_tty
	check "NO_COLOR set but empty: still colour" t_color_empty_no_color
	check "NO_COLOR=1: no colour" t_color_no_color
	check "TERM=dumb: no colour" t_color_dumb
	check "--no-color: no colour" t_color_flag
fi
check "not a terminal: no colour" t_color_pipe

# ---- -q and -v, one meaning for every command ----
# -v: what was read (the host model's source, the config), decided, written.
t_verbose() {
	# shellcheck disable=SC2046
	lx -v $(invocation "$1") >"$work/out" 2>"$work/err"
	err_has "lxgpu: host model: the snapshot $host (1 GPUs, driver 550.127.05)"
}
for cmd in scan generate apply verify audit preflight topo snapshot; do
	check "$cmd -v: says where the host model came from" t_verbose "$cmd"
done
t_verbose_backups() { lx -v rollback 101 --list $ab >"$work/out" 2>"$work/err"; err_has "backups of CT 101 in $work/backups"; }
check "rollback -v: says where it looked for backups" t_verbose_backups
t_verbose_config() { lx -v apply 101 --gpus 0 --dry-run $ab >"$work/out" 2>"$work/err"; err_has "read $work/pve/lxc/101.conf"; }
t_verbose_wrote() { run 0 -v generate -o "$work/v.conf" && err_has "lxgpu: wrote $work/v.conf"; }
t_quiet_warnings() {
	"$lxgpu" --host "$nouvm" generate >"$work/out" 2>"$work/err" && err_has "warning:" &&
		"$lxgpu" --host "$nouvm" generate -q >"$work/out2" 2>"$work/err" && [ ! -s "$work/err" ] &&
		cmp "$work/out" "$work/out2"
}
t_quiet_results() {
	run 0 -q scan --format json && json_ok "$work/out" && cp "$work/out" "$work/q.json" &&
		run 0 -v scan --format json && cmp "$work/out" "$work/q.json"
}
t_quiet_apply() {
	printf 'arch: amd64\n' >"$work/pve/lxc/105.conf"
	run 0 -q apply 105 --gpus 0 $ab && [ ! -s "$work/out" ] && [ ! -s "$work/err" ] && grep -q '^dev0:' "$work/pve/lxc/105.conf"
}
check "-v apply: names the config it read" t_verbose_config
check "-v -o FILE: says it wrote FILE" t_verbose_wrote
check "-q: generate's warnings gone, its output the same" t_quiet_warnings
check "-q and -v change no result (scan --format json)" t_quiet_results
check "-q apply: writes, prints nothing" t_quiet_apply

tap_finish
