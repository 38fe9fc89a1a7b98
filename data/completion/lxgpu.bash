# bash completion for lxgpu(1): commands, options, option values, container
# IDs from the config directories and GPU indexes from the host.
# tests/cli/test-completion.sh checks it against the CLI: every option of
# src/cli/main.c's table, every command and the options each one's --help
# names.

# Options every command takes, and those of each command.
_lxgpu_global_opts='--host --pve-dir --lxc-path --lxc-config-dir --format --compact --proc-dir --dev-dir
	--sys-dir --firmware-dir --boot-dir --run-dir --cgroup-root --state-dir --driver-root --subid-root -q --quiet
	-v --verbose
	--no-color -h --help -V --version'
_lxgpu_plan_opts='--gpus --style --privileged --unprivileged --caps --dri --mig-config --mig-monitor
	--dev-start --mode --uid --gid --cgroup --templates'
_lxgpu_cmd_opts() {
	case $1 in
	scan) echo '--mig-uuids' ;;
	generate) echo "$_lxgpu_plan_opts --driver-libs --no-comments --comments -o --output" ;;
	apply) echo "$_lxgpu_plan_opts --driver-libs --dry-run --force --backup-dir --keep --lock-timeout
		--lock-dir --allow-privilege-change --exclusive --live" ;;
	rollback) echo '--list --force --dry-run --backup-dir --keep --lock-timeout --lock-dir
		--allow-privilege-change' ;;
	verify) echo '' ;;
	audit) echo '--cluster --hosts --exclusive -o --output' ;;
	preflight) echo '--next-boot --kernel --root --print-boot-unit --to --hosts --exclusive' ;;
	topo) echo '--gpus --p2p --containers -o --output' ;;
	snapshot) echo '-o --output --mig-uuids --kmsg' ;;
	ensure-nodes) echo '--dry-run --load-modules --all-mig --print-boot-unit' ;;
	hook) echo '--optional' ;;
	guard) echo '' ;;
	doctor) echo '--kmsg --probe --probe-timeout' ;;
	publish) echo '--node --mig-uuids' ;;
	esac
}
_lxgpu_commands='scan generate apply rollback verify audit preflight topo snapshot ensure-nodes
	hook oci-hook doctor publish guard help'
# Options whose value is a directory, and every option that takes a value.
_lxgpu_dir_opts='--pve-dir --lxc-path --lxc-config-dir --proc-dir --dev-dir --sys-dir
	--firmware-dir --boot-dir --run-dir --cgroup-root --state-dir --driver-root --subid-root --templates --backup-dir
	--lock-dir --hosts --root'
_lxgpu_value_opts="$_lxgpu_dir_opts --host --format -o --output --gpus --style --dev-start
	--mode --uid --gid --cgroup --lock-timeout --kernel --keep --kmsg --probe-timeout --node --to"
# Is WORD one of the words of LIST?
_lxgpu_in() {
	local w
	for w in $2; do [ "$w" = "$1" ] && return 0; done
	return 1
}
# Commands whose first argument is a container ID.
_lxgpu_ctid_commands=' generate apply rollback verify preflight doctor guard '

# The value of OPTION on the command line being completed, else DEFAULT.
_lxgpu_opt_value() {
	local opt=$1 value=$2 i
	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		"$opt") value=${COMP_WORDS[i + 1]} ;;
		"$opt"=*) value=${COMP_WORDS[i]#*=} ;;
		esac
	done
	printf '%s\n' "$value"
}

# Container IDs: Proxmox's <pve-dir>/lxc/ID.conf and plain LXC's
# <lxc-path>/NAME/config, honouring --pve-dir and --lxc-path as typed.
_lxgpu_ctids() {
	local pve lxc f
	pve=$(_lxgpu_opt_value --pve-dir /etc/pve)
	lxc=$(_lxgpu_opt_value --lxc-path /var/lib/lxc)
	for f in "$pve"/lxc/*.conf; do
		[ -f "$f" ] && f=${f##*/} && printf '%s\n' "${f%.conf}"
	done
	for f in "$lxc"/*/config; do
		[ -f "$f" ] && f=${f%/config} && printf '%s\n' "${f##*/}"
	done
}

# GPU indexes: lxgpu's scan (of --host when given), else the /dev/nvidiaN nodes.
_lxgpu_gpus() {
	local host out
	host=$(_lxgpu_opt_value --host '')
	out=$("${COMP_WORDS[0]}" ${host:+--host "$host"} scan --format json 2>/dev/null |
		sed -n 's/^ *"index": *\([0-9][0-9]*\),*$/\1/p' | sort -nu)
	if [ -z "$out" ]; then
		out=$(for f in /dev/nvidia[0-9]*; do [ -c "$f" ] && echo "${f#/dev/nvidia}"; done)
	fi
	printf '%s\n' $out
}

_lxgpu() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd='' i word
	COMPREPLY=()
	# --opt=value: complete the value (bash splits the words at '=' unless
	# COMP_WORDBREAKS lacks it).
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	elif [ "$cur" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		cur=''
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	if _lxgpu_in "$prev" "$_lxgpu_dir_opts"; then
		COMPREPLY=($(compgen -d -- "$cur"))
		return
	fi
	case $prev in
	--host)
		COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur")
			$(compgen -f -X '!*.tar.gz' -- "$cur") $(compgen -d -- "$cur"))
		return ;;
	-o | --output | --kmsg)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W 'text json yaml prometheus svg dot' -- "$cur"))
		return ;;
	--style)
		COMPREPLY=($(compgen -W 'devn raw lxc cdi include' -- "$cur"))
		return ;;
	--cgroup)
		COMPREPLY=($(compgen -W 'v1 v2' -- "$cur"))
		return ;;
	--gpus)
		# A comma-separated list: complete the last element.
		local head=''
		[[ $cur == *,* ]] && head=${cur%,*},
		local words="$(_lxgpu_gpus) numa:"
		[ -z "$head" ] && words="all $words best:"
		COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}"))
		[[ ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
		return ;;
	--kernel)
		COMPREPLY=($(compgen -W "$(ls /lib/modules 2>/dev/null)" -- "$cur"))
		return ;;
	--to | --node)
		# The cluster's nodes: <pve-dir>/nodes/NAME.
		COMPREPLY=($(compgen -W "$(ls "$(_lxgpu_opt_value --pve-dir /etc/pve)/nodes" 2>/dev/null)" -- "$cur"))
		return ;;
	--dev-start | --mode | --uid | --gid | --lock-timeout | --keep)
		return ;;
	esac
	# The command: the first word that is not an option or an option's value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		case $word in
		-*)
			_lxgpu_in "$word" "$_lxgpu_value_opts" || continue
			((i++))
			[ "${COMP_WORDS[i]}" = = ] && ((i++)) ;;
		*) cmd=$word; break ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_lxgpu_global_opts $(_lxgpu_cmd_opts "$cmd")" -- "$cur"))
	elif [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$_lxgpu_commands" -- "$cur"))
	elif [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "${_lxgpu_commands% help}" -- "$cur"))
	elif [ "$cmd" = oci-hook ]; then
		# oci-hook update-ldcache DIR...
		if [ "$prev" = oci-hook ]; then
			COMPREPLY=($(compgen -W 'update-ldcache' -- "$cur"))
		else
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
	elif [[ $_lxgpu_ctid_commands == *" $cmd "* ]]; then
		COMPREPLY=($(compgen -W "$(_lxgpu_ctids)" -- "$cur"))
	fi
}
complete -F _lxgpu lxgpu
