# Sourced by the tests that run the fixes lxgpu prints, as printed.
#
# fix_stubs DIR LXGPU GLOBAL... -- APPLY...: makes DIR/bin, to go first in
# PATH, with
#   lxgpu  the binary under test with the scratch options GLOBAL (the host
#          model, --pve-dir, --state-dir ...: they stand for /etc/pve and
#          /var/lib/lxgpu, which a test must not touch), and APPLY too for
#          apply and rollback (--backup-dir, --lock-dir). That is the only
#          change to a printed command: its words are run as printed. With
#          no GLOBAL, the printed command must say where things are itself
#          (lxgpu prints its caller's --host, --pve-dir, ... in its fixes).
#   pct, qm, lxc-start, lxc-stop, lxc-attach, nvidia-modprobe, modprobe, udevadm, nvidia-smi  stubs: a real
#          Proxmox, driver or udev is not here. Each appends its command line to
#          DIR/calls and runs DIR/on-NAME when the test put one there (to
#          make the effect in the scratch state, e.g. end a stand-in VM).
# fix_commands TEXT: the commands of a fix's first way, one a line: a fix
#   is prose with its commands in backticks (lxgpu's JSON "fix", or the
#   text form as tests/lib/fix-text.py gives it); the first way ends at
#   prose that begins with "or" ("; or by hand: ...").
# run_fix TEXT: runs them in order with the stubs; fails on the first that
#   fails, and when there is none.
fix_stubs() {
	fix_dir=$1 fix_lxgpu=$2
	shift 2
	mkdir -p "$fix_dir/bin"
	: >"$fix_dir/calls"
	q() { printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
	global="" apply=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do global="$global$(q "$1")"; shift; done
	[ $# -gt 0 ] && shift
	for a; do apply="$apply$(q "$a")"; done
	cat >"$fix_dir/bin/lxgpu" <<EOF
#!/bin/sh
echo "lxgpu \$*" >>$(q "$fix_dir/calls")
cmd=
for a; do case \$a in apply | rollback) cmd=\$a; break ;; esac; done
case \$cmd in
apply|rollback) exec $(q "$fix_lxgpu") $global $apply "\$@" ;;
*) exec $(q "$fix_lxgpu") $global "\$@" ;;
esac
EOF
	for stub in pct qm lxc-start lxc-stop lxc-attach nvidia-modprobe modprobe udevadm nvidia-smi; do
		cat >"$fix_dir/bin/$stub" <<EOF
#!/bin/sh
echo "$stub \$*" >>$(q "$fix_dir/calls")
[ -x $(q "$fix_dir/on-$stub") ] && exec $(q "$fix_dir/on-$stub") "\$@"
exit 0
EOF
	done
	chmod +x "$fix_dir/bin/"*
}

fix_commands() {
	python3 -c '
import re, sys
parts = sys.argv[1].split("`")
for i, part in enumerate(parts):
    if i % 2 == 0:
        if i and re.match(r"[\s,;.]*or\b", part):
            break
    elif part.strip():
        print(part)
' "$1"
}

run_fix() {
	fix_cmds=$(fix_commands "$1")
	[ -n "$fix_cmds" ] || { echo "no command in the fix: $1"; return 1; }
	printf '%s\n' "$fix_cmds" | while IFS= read -r c; do
		case $c in
		lxgpu\ * | pct\ * | qm\ * | lxc-start\ * | lxc-stop\ * | lxc-attach\ * | nvidia-modprobe\ * | modprobe\ * | udevadm\ *) ;;
		*) echo "not a command: '$c' (in: $1)"; exit 1 ;;
		esac
		echo "+ $c"
		PATH="$fix_dir/bin:$PATH" sh -c "$c" </dev/null || { echo "failed: $c"; exit 1; }
	done
}
