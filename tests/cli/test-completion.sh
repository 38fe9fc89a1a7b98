#!/bin/sh
# Shell completion (data/completion/) against the CLI, so neither drifts: the
# options of src/cli/main.c's long_options table, the commands `lxgpu help`
# lists, the options each command's --help names, option values the CLI
# accepts, container IDs from made-up config directories, GPU indexes of an
# example host (counted from its YAML by python3-yaml, not by lxgpu). Both
# run for real: the bash function with COMP_WORDS set, zsh interactively
# under zpty (zsh-complete.zsh: TAB, then the edit buffer is read back).
# Usage: test-completion.sh LXGPU MAIN_C COMPLETION_DIR EXAMPLES_DIR
set -u
lxgpu=$1 main_c=$2 dir=$3 examples=$(cd "$4" && pwd)
eight="$examples/pve-8x-rtx-pro-6000.yaml"
bash_file="$dir/lxgpu.bash" zsh_file="$dir/_lxgpu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"

# bash_complete WORD...: what the bash function offers for the words (the last
# one is being completed), one a line, sorted.
bash_complete() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lxgpu
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_file" "$@" | sed '/^$/d' | sort -u
}

# The CLI's options: every long option of the table, and the short ones of
# the getopt string.
sed -n '/long_options\[\] = {/,/{NULL/p' "$main_c" |
	sed -n 's/^[[:space:]]*{"\([a-z0-9-]*\)", *\([a-z_]*\),.*/--\1 \2/p' >"$work/table"
cut -d' ' -f1 "$work/table" | sort -u >"$work/long"
shorts=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$main_c" | tr -d ':')
printf '%s' "$shorts" | sed 's/./-&\n/g' | sed '/^-$/d;/^$/d' | sort -u >"$work/short"
cat "$work/long" "$work/short" | sort -u >"$work/cli-options"
"$lxgpu" help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | sort -u \
	>"$work/cli-commands"

t_table_read() {
	# A table that did not parse would make every check below vacuous.
	[ "$(wc -l <"$work/long")" -ge 40 ] && grep -qx -- '--gpus' "$work/long" &&
		grep -qx -- '-o' "$work/short" && grep -qx 'ensure-nodes' "$work/cli-commands" ||
		{ cat "$work/table" "$work/short" "$work/cli-commands"; return 1; }
}

t_syntax() {
	bash -n "$bash_file" || return 1
	command -v zsh >/dev/null || { echo "zsh is not installed (tools/install-deps installs it)"; return 1; }
	zsh -n "$zsh_file"
}

t_bash_commands() {
	bash_complete lxgpu '' >"$work/got"
	diff -u "$work/cli-commands" "$work/got"
}

# Every option the CLI has is offered for some command, and nothing else is.
t_bash_options() {
	: >"$work/got"
	for cmd in '' $(cat "$work/cli-commands"); do
		bash_complete lxgpu $cmd - >>"$work/got"
	done
	sort -u "$work/got" -o "$work/got"
	diff -u "$work/cli-options" "$work/got"
}

# The options a command's usage and option lines name are offered after it.
t_bash_per_command() {
	bad=0
	for cmd in $(cat "$work/cli-commands"); do
		# The usage lines and the option lines (not options named in prose).
		"$lxgpu" "$cmd" --help | sed '/^Global options/,$d' >"$work/help"
		{ sed -n '/^Usage:/,/^$/p' "$work/help" | grep -o -- '--[a-z][a-z0-9-]*'
		  sed -n 's/^  *\(-[a-zA-Z], \)*\(--[a-z][a-z0-9-]*\).*/\2/p' "$work/help"
		} | sort -u >"$work/named"
		bash_complete lxgpu "$cmd" - >"$work/offered"
		missing=$(comm -23 "$work/named" "$work/offered")
		[ -z "$missing" ] || { echo "$cmd: not offered: $missing"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

# After an option that takes a value (as the table says), the value is
# skipped: the next word is the command, also when bash split '--opt=value';
# after one that takes none, the next word is the command.
t_bash_values_skipped() {
	bad=0
	for opt in $(sed -n 's/ required_argument$//p' "$work/table"); do
		bash_complete lxgpu "$opt" x sc | grep -qx scan || { echo "$opt x: no command after it"; bad=1; }
		bash_complete lxgpu "$opt" = x sc | grep -qx scan || { echo "$opt=x: no command after it"; bad=1; }
	done
	# And one that takes none is not taken for one that does.
	for opt in $(sed -n 's/ no_argument$//p' "$work/table"); do
		bash_complete lxgpu "$opt" sc | grep -qx scan || { echo "$opt: its next word taken as a value"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

# Every word offered for --format, --style and --cgroup is one the CLI takes.
t_bash_value_words() {
	bash_complete lxgpu --format '' >"$work/formats"
	bash_complete lxgpu generate --style '' >"$work/styles"
	bash_complete lxgpu generate --cgroup '' >"$work/cgroups"
	[ -s "$work/formats" ] && [ -s "$work/styles" ] && [ -s "$work/cgroups" ] || return 1
	for f in $(cat "$work/formats"); do
		"$lxgpu" --format "$f" scan --help >/dev/null || { echo "--format $f refused"; return 1; }
	done
	# The words are checked as the options are parsed, before --help is.
	for s in $(cat "$work/styles"); do
		"$lxgpu" generate --style "$s" --help >/dev/null || { echo "--style $s refused"; return 1; }
	done
	for c in $(cat "$work/cgroups"); do
		"$lxgpu" generate --cgroup "$c" --help >/dev/null || { echo "--cgroup $c refused"; return 1; }
	done
	# And the CLI does refuse a word that is not one of them.
	! "$lxgpu" generate --style nosuch --help >/dev/null 2>&1 &&
		! "$lxgpu" --format nosuch scan --help >/dev/null 2>&1
}

t_bash_ctids() {
	mkdir -p "$work/pve/lxc" "$work/lxc/web" "$work/lxc/notact"
	: >"$work/pve/lxc/101.conf"
	: >"$work/pve/lxc/2000.conf"
	: >"$work/pve/lxc/readme.txt"
	: >"$work/lxc/web/config"
	printf '101\n2000\nweb\n' >"$work/want"
	bash_complete lxgpu --pve-dir "$work/pve" --lxc-path "$work/lxc" verify '' >"$work/got"
	diff -u "$work/want" "$work/got" || return 1
	bash_complete lxgpu apply --pve-dir="$work/pve" --lxc-path "$work/lxc" 2 >"$work/got"
	printf '2000\n' | diff -u - "$work/got"
}

t_bash_gpus() {
	python3 -c 'import sys, yaml
for g in yaml.safe_load(open(sys.argv[1]))["gpus"]: print(g["index"])' "$eight" |
		sort -u >"$work/want" || return 1
	[ "$(wc -l <"$work/want")" -eq 8 ] || { cat "$work/want"; return 1; }
	bash_complete "$lxgpu" --host "$eight" generate --gpus '' | grep -Ex '[0-9]+' | sort -u >"$work/got"
	diff -u "$work/want" "$work/got" || return 1
	# A list: the next element after the comma.
	bash_complete "$lxgpu" --host "$eight" generate --gpus 0,7 >"$work/got"
	printf '0,7\n' | diff -u - "$work/got"
}

t_zsh_options() {
	sed '/^[[:space:]]*#/d' "$zsh_file" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$work/got"
	# Short options are written {-q,--quiet} or '(-o --output)'{-o,--output}.
	grep -o -- '{-[a-zA-Z],' "$zsh_file" | sed 's/^{\(-.\),$/\1/' | sort -u >>"$work/got"
	sort -u "$work/got" -o "$work/got"
	diff -u "$work/cli-options" "$work/got"
}

t_zsh_commands() {
	sed -n '/^ *commands=(/,/^ *)/p' "$zsh_file" | sed -n "s/^ *'\([a-z][a-z-]*\):.*/\1/p" |
		sort -u >"$work/got"
	diff -u "$work/cli-commands" "$work/got" || return 1
	# help's own list: the commands too.
	sed -n "s/.*'1:command:(\([^)]*\)).*/\1/p" "$zsh_file" | tr ' ' '\n' | sort -u >"$work/got"
	grep -vx help "$work/cli-commands" | diff -u - "$work/got"
}

# zsh_complete < LINES: what zsh's TAB made of each line, one a line.
zsh_complete() {
	# Without LeakSanitizer in the lxgpu that completion runs (every other
	# test checks its leaks): on a loaded machine its exit-time tracer has
	# kept lxgpu spinning past the 30 s a completion gets, under zsh's pty.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		zsh "$(dirname "$0")/zsh-complete.zsh" "$dir" "$work/zsh.out" 2>&1 ||
		{ echo "zsh could not be driven"; return 1; }
	cat "$work/zsh.out"
}

t_zsh_runs() {
	mkdir -p "$work/zpve/lxc"
	: >"$work/zpve/lxc/101.conf"
	: >"$work/zpve/lxc/2000.conf"
	top=$(python3 -c 'import sys, yaml
print(max(g["index"] for g in yaml.safe_load(open(sys.argv[1]))["gpus"]))' "$eight")
	cat >"$work/zsh.in" <<-EOF
		$lxgpu gen
		$lxgpu ensure-nodes --load
		$lxgpu generate --style=in
		$lxgpu --format js
		$lxgpu --pve-dir $work/zpve verify 20
		$lxgpu --host $eight generate --gpus $top
		$lxgpu help ensure-n
	EOF
	# <SP>: the space zsh adds after a finished word.
	cat >"$work/zsh.want" <<-EOF
		$lxgpu generate<SP>
		$lxgpu ensure-nodes --load-modules<SP>
		$lxgpu generate --style=include<SP>
		$lxgpu --format json<SP>
		$lxgpu --pve-dir $work/zpve verify 2000<SP>
		$lxgpu --host $eight generate --gpus $top,
		$lxgpu help ensure-nodes<SP>
	EOF
	zsh_complete <"$work/zsh.in" | sed 's/ $/<SP>/' >"$work/zsh.got" || return 1
	diff -u "$work/zsh.want" "$work/zsh.got"
}

# Each command, the global options, and each option a command's usage and
# option lines name, typed but for its last letter: zsh completes it (unless
# another option there shares the prefix; then it may only list them).
t_zsh_commands_options() {
	: >"$work/zsh.in"
	: >"$work/zsh.want"
	"$lxgpu" help | sed -n '/^Global options/,$p' >"$work/global-help"
	for cmd in '' $(cat "$work/cli-commands"); do
		[ "$cmd" = help ] && continue
		if [ -n "$cmd" ]; then
			printf '%s %s\n' "$lxgpu" "$cmd" >>"$work/zsh.in"
			printf '%s %s\n' "$lxgpu" "$cmd" >>"$work/zsh.want"
			"$lxgpu" "$cmd" --help | sed '/^Global options/,$d' >"$work/help"
		else
			cp "$work/global-help" "$work/help"
		fi
		{ sed -n '/^Usage:/,/^$/p' "$work/help" | grep -o -- '--[a-z][a-z0-9-]*'
		  sed -n 's/^  *\(-[a-zA-Z], \)*\(--[a-z][a-z0-9-]*\).*/\2/p' "$work/help"
		} | sort -u >"$work/opts"
		sed -n 's/^  *\(-[a-zA-Z], \)*\(--[a-z][a-z0-9-]*\).*/\2/p' "$work/global-help" |
			cat - "$work/opts" | sort -u >"$work/all-opts"
		for opt in $(cat "$work/opts"); do
			[ "$opt" = --help ] || [ "$opt" = --version ] && continue # they end the line: '(- *)'
			prefix=${opt%?}
			[ "$(grep -c -- "^$prefix" "$work/all-opts")" -eq 1 ] || continue
			printf '%s %s%s\n' "$lxgpu" "${cmd:+$cmd }" "$prefix" >>"$work/zsh.in"
			printf '%s %s%s\n' "$lxgpu" "${cmd:+$cmd }" "$opt" >>"$work/zsh.want"
		done
	done
	zsh_complete <"$work/zsh.in" | sed 's/[ =]$//' >"$work/zsh.got" || return 1
	diff -u "$work/zsh.want" "$work/zsh.got"
}

check "the option table, getopt string and command list are read" t_table_read
check "bash and zsh files parse" t_syntax
check "bash: the commands of 'lxgpu help'" t_bash_commands
check "bash: every option of long_options, and only those" t_bash_options
check "bash: each command offers the options its --help names" t_bash_per_command
check "bash: an option's value is skipped (also --opt=value)" t_bash_values_skipped
check "bash: --format/--style/--cgroup words are ones the CLI takes" t_bash_value_words
check "bash: container IDs from <pve-dir>/lxc/*.conf and <lxc-path>/*/config" t_bash_ctids
check "bash: GPU indexes of the --host example (0-7), comma lists" t_bash_gpus
check "zsh: every option of long_options, and only those" t_zsh_options
check "zsh: the commands of 'lxgpu help'" t_zsh_commands
check "zsh: commands, option values, container IDs, GPU indexes completed" t_zsh_runs
check "zsh: every command, and the options its help names, completed" t_zsh_commands_options
tap_finish
