#!/bin/sh
# Integration: every fix verify and the guard print for a RUNNING container
# is a command that works (issue 22; tests/cli/test-fixes.sh does the same
# for what needs no running container and lists these codes as covered
# here). A real LXC container, plain LXC under a scratch --lxc-path, given
# GPU 0 of the 8-GPU host by lxgpu apply, runs with GPU 0's nodes mknod'ed
# in a private /dev (the host's numbers), on this machine's cgroup v1
# (hybrid) layout and on a pure cgroup v2 hierarchy (FACTS section 7). For
# each code a problem is planted in it, the fix is taken from verify
# --format json (or the guard's "fix:" line) and run as printed
# (tests/lib/fix.sh: the word lxgpu runs the binary under test with apply's
# --backup-dir and --lock-dir added; lxc-stop, lxc-start are the real ones;
# pct is a stub), and the check runs again: the finding must be gone.
#   LXG018  started without the nvidia-uvm rule: apply, then restart
#   LXG018  the rule added on disk while it runs: restart pending
#   LXG019  a node's lines removed after the start: restart (a comment
#           added after the start: no finding)
#   LXG016  a node removed inside (unmounted, deleted): restart
#   LXG017  a bind unmounted inside: restart
#   LXG015  nvidia-uvm re-made with another major (a driver reload): restart
#   LXG026  (v2) verify without CAP_SYS_ADMIN: the printed verify, as root
#   LXG033  the guard of CT 101, exclusive use recorded, while this one
#           runs with the GPU: stop it, apply, pct start
# and a Proxmox container (GPU 1, apply --style raw; a pct stub makes its
# LXC config as pve-container does for raw keys and starts it): LXG018
# (apply, then pct reboot), LXG019 (pct reboot), LXG033 (pct shutdown); on
# cgroup v2 as on Proxmox VE 9 (pve-container 6.1.6 in the model; PVE 9 has
# no cgroup v1), LXG018 of a devN container lacking a node's entry: apply
# --live, no restart.
# Last, the codes covered here are the ones test-fixes.sh names as covered
# by this test.
# Usage: lxc-fixes.sh LXGPU EXAMPLES_DIR   (TAP; root, lxc, setpriv, python3)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd)
lib=$(cd "$(dirname "$0")/../lib" && pwd)
fixes_list="$(dirname "$0")/../cli/test-fixes.sh"

. "$lib/lxc-env.sh"
lxc_require "the real-LXC fixes test" lxc-create lxc-start lxc-attach lxc-info lxc-stop lxc-destroy unshare setpriv busybox jq python3
lxc_workdir lxgpu-fixes
. "$lib/tap.sh"

# Runs in a private mount namespace (cgroup2 at /sys/fs/cgroup for v2):
# each case writes OUT/CASE.log and OUT/CASE.rc; OUT/ran the codes fixed.
cat "$lib/private-dev.sh" "$lib/wait-running.sh" "$lib/fix.sh" "$lib/lxjson.sh" >"$work/inside.sh"
cp "$lib/fix-text.py" "$work/fix-text.py" # beside inside.sh
cat >>"$work/inside.sh" <<'INSIDE'
set -u
layout=$1 lxgpu=$2 model=$3 lxcpath=$4 out=$5 ct=$6 pve=$7 state=$8 pct=$9
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
# GPU 0's nodes as the model has them
mk_nodes() {
	lx_json 0 "$out/scan.json" "$lxgpu" --host "$model" scan --format json || exit 3
	jq -r '.nodes[] |
		select(.path | test("^/dev/nvidia([01]|ctl|-uvm|-uvm-tools)$")) | "\(.path) \(.major) \(.minor)"' "$out/scan.json" |
		while read -r path major minor; do
			rm -f "$path" && mknod -m 0666 "$path" c "$major" "$minor" || exit 3
		done
}
mk_nodes
conf="$lxcpath/$ct/config"
lx() { "$lxgpu" --host "$model" --pve-dir "$pve" --lxc-path "$lxcpath" --state-dir "$state" "$@"; }
lxa() { lx "$@" --backup-dir "$out/backups" --lock-dir "$out"; }
# The fixes run with the stubs' lxgpu (apply's --backup-dir and --lock-dir
# only: the printed command says where the rest is) and pct; LXC's tools are
# the real ones.
fix_stubs "$out/fix" "$lxgpu" -- --backup-dir "$out/backups" --lock-dir "$out"
rm "$fix_dir/bin/lxc-start" "$fix_dir/bin/lxc-stop" "$fix_dir/bin/lxc-attach"
# pct for the Proxmox container: as pve-container, at each start its LXC
# config is made anew: the sandbox's lines (config.base, pve-container's
# cgroup keys and init), the raw lxc.* keys of /etc/pve/lxc/ID.conf, as
# written there, and for each devN entry of its live section what
# pve-container gives it (PVE::LXC::update_lxc_config: a device rule
# "c MAJOR:MINOR rw" under this cgroup version's key; the node, which its
# autodev hook binds in, here a bind of the host's node); a CT with no
# sandbox (the guard's) starts as nothing. `pct set ID --devN VALUE` on a
# running CT does what pve-container 6.0.4+ does for a key the config does
# not have (PVE::LXC::Config::vmconfig_hotplug_pending, read at
# proxmox/pve-container 94f5585): PVE::LXC::device_passthrough_hotplug
# (the node inside, then `lxc-cgroup devices.allow`), then the key goes
# into the live section; any other set is not modelled here (exit 255).
[ "$layout" = v2 ] && devkey=lxc.cgroup2.devices || devkey=lxc.cgroup.devices
cat >"$fix_dir/on-pct" <<EOF
#!/bin/sh
id=\$2 d="$lxcpath/\$2" c="$pve/lxc/\$2.conf"
numbers() { mm=\$(stat -L -c '%t %T' "\$1") && echo "\$((0x\${mm% *})):\$((0x\${mm#* }))"; }
gen() {
	cp "\$d/config.base" "\$d/config" && sed -n 's/^\(lxc\.[^:]*\): */\1 = /p' "\$c" >>"\$d/config" || return 1
	for p in \$(sed '/^\[/,\$d' "\$c" | sed -n 's/^dev[0-9]*: *\([^,]*\).*/\1/p'); do
		n=\$(numbers "\$p") || return 1
		printf '%s\\n' "$devkey.allow = c \$n rw" "lxc.mount.entry = \$p \${p#/} none bind,create=file 0 0"
	done >>"\$d/config"
}
[ -d "\$d" ] || exit 0
case \$1 in
start) gen && lxc-start -P "$lxcpath" -n "\$id" ;;
shutdown | stop) lxc-stop -P "$lxcpath" -n "\$id" ;;
reboot) lxc-stop -P "$lxcpath" -n "\$id" && gen && lxc-start -P "$lxcpath" -n "\$id" ;;
set)
	key=\${3#--} value=\$4 p=\${4%%,*}
	case \$key in dev[0-9]*) ;; *) echo "stand-in pct: only a devN is modelled" >&2; exit 255 ;; esac
	sed '/^\[/,\$d' "\$c" | grep -q "^\$key:" && { echo "stand-in pct: \$key is in the config (pending: not modelled)" >&2; exit 255; }
	[ "\$(lxc-info -P "$lxcpath" -n "\$id" -s -H)" = RUNNING ] || { echo "stand-in pct: CT \$id is not running" >&2; exit 255; }
	n=\$(numbers "\$p") &&
		lxc-attach -P "$lxcpath" -n "\$id" -- /bin/sh -c "[ -e \$p ] || mknod -m 0660 \$p c \${n%:*} \${n#*:}" &&
		lxc-cgroup -P "$lxcpath" -n "\$id" devices.allow "c \$n rwm" ||
		{ echo "\$key: unable to hotplug \$key" >&2; exit 255; }
	awk -v line="\$key: \$value" '/^\[/ && !done { print line; done = 1 } { print } END { if (!done) print line }' "\$c" >"\$c.new" &&
		mv "\$c.new" "\$c"
	;;
esac
EOF
chmod +x "$fix_dir/on-pct"
# verify's JSON as v.json (stderr v.json.err); exit status as the README
# says (1 with an error finding)
verify_json() { rm -f "$out/v.json" && lx_json sev "$out/v.json" lx verify "$ct" --format json; }
# has CODE: 0 when v.json has CODE, 1 when it has not, 2 when v.json is not
# one JSON document (a crashed check is never "gone")
has() {
	json_ok "$out/v.json" || return 2
	jq -e --arg c "$1" --arg id "$ct" 'any(.findings[]; .code == $c and .container == $id)' "$out/v.json" >/dev/null
}
lacks() {
	has "$@"
	[ $? -eq 1 ]
}
fix_of() { jq -r --arg c "$1" --arg id "$ct" '[.findings[] | select(.code == $c and .container == $id) | .fix][0] // empty' "$out/v.json"; }
start() {
	if [ "$ct" = "$pct" ]; then "$fix_dir/on-pct" start "$ct"; else lxc-start -P "$lxcpath" -n "$ct"; fi &&
		wait_running "$lxcpath" "$ct"
}
stop() { lxc-stop -P "$lxcpath" -n "$ct" -k; }
restart() { stop; start; }
inside() { lxc-attach -P "$lxcpath" -n "$ct" -- /bin/sh -c "$1"; }
ran=""
# fixed CODE CHECK...: CHECK (writing v.json) gives CODE; its fix, run as
# printed, leaves the container running, and CHECK again gives no CODE.
fixed() {
	code=$1
	shift
	"$@" || { echo "the check failed: $*"; return 1; }
	has "$code" || { echo "no $code:"; jq -c '.findings[]' "$out/v.json"; cat "$out/v.json.err"; return 1; }
	f=$(fix_of "$code")
	echo "$code fix: $f"
	case $f in "by hand:"*) echo "$code's fix is a manual step"; return 1 ;; esac
	run_fix "$f" || return 1
	wait_running "$lxcpath" "$ct" || { echo "not running after the fix"; return 1; }
	"$@" || { echo "the check failed after the fix: $*"; return 1; }
	lacks "$code" || { echo "$code is still there after: $f"; jq -c '.findings[]' "$out/v.json"; return 1; }
	ran="$ran $code"
}
rcase() { # NAME FUNCTION...: a case's output and status for the TAP side
	name=$1
	shift
	# each case from a running container, whatever the last one left
	[ "$(lxc-info -P "$lxcpath" -n "$ct" -s -H 2>/dev/null)" = RUNNING ] || start >/dev/null 2>&1
	"$@" >"$out/$name.log" 2>&1
	echo $? >"$out/$name.rc"
	echo "$ran" >"$out/ran"
}

t_clean() {
	start || { echo "did not start"; tail -5 "$lxcpath/$ct.log"; return 1; }
	verify_json && no_finding "$out/v.json" && jq_ok "$out/v.json" '.state == "running" and .running.checked' ||
		{ jq '{state, running: .running.checked, findings}' "$out/v.json"; cat "$out/v.json.err"; return 1; }
}
uvm_rule=$(grep -m1 'devices.allow = c 511:0 rw' "$conf")
t_no_rule() { # started without the uvm rule, the config too: apply, then restart
	stop && sed -i '/devices.allow[ =:]* c 511:0 rw/d' "$conf" && start || return 1
	fixed LXG018 verify_json || return 1
	# also on Proxmox VE 9 (v2: the model's pve-container 6.1.6 hotplugs a
	# new devN): an lxc.* rule is no devN, so still apply, then the restart
	[ "$ct" != "$pct" ] || case $f in
		*"\`pct reboot $ct\`"*) case $f in *--live*) echo "--live for a raw rule: $f"; return 1 ;; esac ;;
		*) echo "no pct reboot in: $f"; return 1 ;;
		esac
}
# LXG018 on Proxmox VE 9: a container whose GPU lines are devN entries
# (apply --style devn) but whose nvidia-uvm comes by a bind with no device
# rule (the config does not allow it either, so not "restart pending").
# The fix is `lxgpu apply CT --live`: a new devN key, which pct set
# hotplugs (the stub above); the container keeps running (the same init),
# the key went to pct, and LXG018 is gone. Then back to the raw config.
t_pve_devn_live() {
	stop && cp "$conf" "$out/pve-raw.conf" || return 1
	lxa apply "$ct" --style devn >"$out/a.out" 2>&1 || { cat "$out/a.out"; return 1; }
	grep -q '^dev[0-9]*: /dev/nvidia-uvm[,]' "$conf" || { echo "no devN for nvidia-uvm:"; cat "$conf"; return 1; }
	sed -i '/^dev[0-9]*: \/dev\/nvidia-uvm[,]/d' "$conf" &&
		echo 'lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file' >>"$conf" && start || return 1
	init=$(lxc-info -P "$lxcpath" -n "$ct" -p -H)
	given_calls=$(wc -l <"$fix_dir/calls")
	fixed LXG018 verify_json || return 1
	case $f in *" apply $ct --live\`"*) ;; *) echo "not apply --live: $f"; return 1 ;; esac
	case $f in *reboot* | *lxc-stop*) echo "a restart in: $f"; return 1 ;; esac
	[ "$(lxc-info -P "$lxcpath" -n "$ct" -p -H)" = "$init" ] || { echo "CT $ct was restarted"; return 1; }
	tail -n +"$((given_calls + 1))" "$fix_dir/calls" | grep -q "^pct set $ct --dev[0-9]* /dev/nvidia-uvm[,]" ||
		{ echo "no pct set of nvidia-uvm:"; cat "$fix_dir/calls"; return 1; }
	stop
	cp "$out/pve-raw.conf" "$conf"
}
t_pending() { # started without it, the rule put back on disk while it runs
	stop && sed -i '/devices.allow = c 511:0 rw/d' "$conf" && start && sleep 2 || return 1
	echo "$uvm_rule" >>"$conf"
	verify_json && jq_ok "$out/v.json" '[.findings[] | select(.code == "LXG018" and .device_path == "/dev/nvidia-uvm")][0].fix |
		startswith("restart pending")' || return 1
	fixed LXG018 verify_json
}
# LXG019: a change after the start that the running container already has
# (a comment here; on Proxmox VE 9 a devN that pct set hotplugged) needs no
# restart and is no finding; removing the lines of a node it still has
# (/dev/nvidia-uvm-tools) does: restart, and it is gone. Then the lines go
# back, for the cases after this one.
t_changed() {
	sleep 2 && echo '# edited after the start' >>"$conf" && verify_json || return 1
	lacks LXG019 || { echo "LXG019 for a change that leaves the devices as they are:"; jq -c '.findings[]' "$out/v.json"; return 1; }
	cp "$conf" "$out/conf.kept" && sed -i '/nvidia-uvm-tools/d; /devices\.allow[ =:]* c 511:1 rw/d' "$conf" || return 1
	cmp -s "$conf" "$out/conf.kept" && { echo "nothing removed from $conf"; return 1; }
	fixed LXG019 verify_json || return 1
	cp "$out/conf.kept" "$conf" && restart
}
t_node_gone() { inside 'umount /dev/nvidia0 && rm /dev/nvidia0' && fixed LXG016 verify_json; }
t_unmounted() { inside 'umount /dev/nvidia0' && fixed LXG017 verify_json; }
# nvidia-uvm without CAP_SYS_ADMIN (v2: the device programs are hidden)
# gives LXG026; the printed verify, run as this (root) test, checks it
t_nocap() {
	# the device cgroup could not be judged: "could not check", exit 2 (cmd_verify.c)
	lx_json 2 "$out/v.json" setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin "$lxgpu" --host "$model" \
		--pve-dir "$pve" --lxc-path "$lxcpath" --state-dir "$state" verify "$ct" --format json || return 1
	has LXG026 || { jq -c '.findings[]' "$out/v.json"; cat "$out/v.json.err"; return 1; }
	f=$(fix_of LXG026)
	echo "LXG026 fix: $f"
	run_fix "$f" >"$out/nocap-fix.out" 2>&1 || { cat "$out/nocap-fix.out"; return 1; }
	grep -q ': running' "$out/nocap-fix.out" && ! grep -q LXG026 "$out/nocap-fix.out" ||
		{ cat "$out/nocap-fix.out"; return 1; }
	ran="$ran LXG026"
}
# nvidia-uvm reloaded with another major: the host's node and the model say
# 510, the running container still has the 511 node
t_reloaded() {
	sed -i 's/^  major: 511$/  major: 510/; s/^- major: 511$/- major: 510/' "$model" && mk_nodes || return 1
	fixed LXG015 verify_json
}
# The guard of Proxmox CT 101, given GPU 0 for exclusive use, while this
# container runs with it. Its refusals as v.json (the guard's stderr: each
# finding's code and its fix as tests/lib/fix-text.py reads it there, the
# commands whole on their own lines, as test-fixes.sh reads them).
# Exit status (docs/guard.md): 0 the start goes on, 1 refused (with a
# finding); anything else, or a refusal without one, fails.
guard_json() { # [CTID: 101]
	mkdir -p "$out/run" "$out/dev"
	rm -f "$out/v.json"
	lx --run-dir "$out/run" --dev-dir "$out/dev" guard "${1:-101}" pre-start >"$out/g.out" 2>"$out/g.err"
	grc=$?
	[ "$grc" -le 1 ] || { echo "guard ${1:-101} pre-start: exit status $grc"; cat "$out/g.err"; return 1; }
	for code in $(sed -n 's/^  \(error\|warning\|info\) *\(LXG[0-9]\{3\}\).*/\2/p' "$out/g.err" | sort -u); do
		python3 "$(dirname "$0")/fix-text.py" "$out/g.err" - "$code" - | jq -R --arg c "$code" --arg id "$ct" '{code: $c, container: $id, fix: .}'
	done | jq -s '{findings: .}' >"$out/v.json"
	[ "$grc" -eq 0 ] || jq_ok "$out/v.json" '.findings != []' ||
		{ echo "guard ${1:-101} pre-start refused with no finding"; cat "$out/g.err"; return 1; }
}
t_guard() {
	mkdir -p "$pve/lxc" "$out/run" "$out/dev"
	printf 'arch: amd64\nhostname: cuda\nostype: debian\nrootfs: local-lvm:vm-101-disk-0,size=8G\n' >"$pve/lxc/101.conf"
	lxa apply 101 --gpus 0000:18:00.0 --exclusive >"$out/a.out" 2>&1 || { cat "$out/a.out"; return 1; }
	guard_json && has LXG033 || { cat "$out/g.err"; return 1; }
	f=$(fix_of LXG033)
	echo "LXG033 fix: $f"
	run_fix "$f" || return 1
	guard_json && lacks LXG033 || { echo "LXG033 is still there after: $f"; cat "$out/g.err"; return 1; }
	grep -qx 'pct start 101' "$fix_dir/calls" || { echo "pct start 101 not run:"; cat "$fix_dir/calls"; return 1; }
	ran="$ran LXG033"
}
rcase clean t_clean
[ "$(cat "$out/clean.rc")" = 0 ] || exit 0
rcase no-rule t_no_rule
rcase pending t_pending
rcase changed t_changed
rcase node-gone t_node_gone
rcase unmounted t_unmounted
[ "$layout" = v2 ] && rcase nocap t_nocap
# The Proxmox container (GPU 1; the raw lxc.* keys apply writes, started
# by the pct stub): the restart its fixes print is pct reboot; the guard of
# CT 102, given GPU 1 for exclusive use, says pct shutdown
t_pve_guard() {
	printf 'arch: amd64\nhostname: cuda\nostype: debian\nrootfs: local-lvm:vm-102-disk-0,size=8G\n' >"$pve/lxc/102.conf"
	lxa apply 102 --gpus 0000:39:00.0 --exclusive >"$out/a.out" 2>&1 || { cat "$out/a.out"; return 1; }
	guard_json 102 && has LXG033 || { cat "$out/g.err"; return 1; }
	f=$(fix_of LXG033)
	echo "LXG033 fix: $f"
	case $f in "stop it first: \`pct shutdown $ct\` "*) ;; *) echo "not pct shutdown $ct"; return 1 ;; esac
	run_fix "$f" || return 1
	guard_json 102 && lacks LXG033 || { echo "LXG033 is still there after: $f"; cat "$out/g.err"; return 1; }
}
plain=$ct ct=$pct conf="$pve/lxc/$pct.conf"
rcase pve-clean t_clean
if [ "$(cat "$out/pve-clean.rc")" = 0 ]; then
	rcase pve-no-rule t_no_rule
	rcase pve-changed t_changed
	[ "$layout" = v2 ] && rcase pve-devn-live t_pve_devn_live
	rcase pve-guard t_pve_guard
fi
stop >/dev/null 2>&1
ct=$plain conf="$lxcpath/$plain/config"
rcase reloaded t_reloaded
rcase guard t_guard
stop >/dev/null 2>&1
exit 0
INSIDE

# The container's init: stops on LXC's halt signal (the busybox template's
# SIGUSR1) at once, so that lxc-stop as printed (a clean stop) is quick.
init_script='#!/bin/sh
trap "exit 0" USR1 TERM PWR INT
while :; do sleep 1 & wait $!; done'

# reported NAME: the inside case NAME's status, its output on failure
reported() {
	[ -f "$dir/$1.rc" ] || { echo "the case did not run"; return 1; }
	cat "$dir/$1.log"
	[ "$(cat "$dir/$1.rc")" = 0 ]
}

all_ran=""
base=700
for layout in $(lxc_layouts); do
	if [ "$layout" = v1 ] && ! v1_why=$(lxc_cgroup_v1_here); then
		skip "cgroup v1: every check of this half" "$v1_why"
		continue
	fi
	base=$((base + 10))
	ct=$base pct=$((base + 1)) dir="$work/$layout"
	mkdir -p "$dir"
	model_layout=$layout
	[ "$layout" = v1 ] && model_layout=hybrid
	# v2: as Proxmox VE 9.1 (pve-container 6.1.6, which hotplugs a new devN:
	# 6.0.4+); PVE 9 has no cgroup v1 (systemd 257), so v1 stays PVE 8's
	pve9=""
	[ "$layout" = v2 ] && pve9='\npve_container_version: "6.1.6"'
	sed "s/^cgroup: .*/cgroup: $model_layout$pve9/" "$examples/pve-8x-rtx-pro-6000.yaml" >"$dir/host.yaml"

	t_setup() {
		mkdir -p "$dir/pve/lxc" && lxc_sandbox_create "$ct" || return 1
		{
			echo 'lxc.include = /usr/share/lxc/config/common.conf'
			lxc_sandbox_conf
			echo 'lxc.init.cmd = /sbin/fixinit'
		} >>"$conf"
		printf '%s\n' "$init_script" >"$lxcpath/$ct/rootfs/sbin/fixinit"
		chmod 755 "$lxcpath/$ct/rootfs/sbin/fixinit"
		"$lxgpu" --host "$dir/host.yaml" --pve-dir "$dir/pve" --lxc-path "$lxcpath" --state-dir "$dir/state" \
			apply "$ct" --gpus 0000:18:00.0 --backup-dir "$dir/backups" --lock-dir "$dir" >"$dir/apply.out" 2>&1 ||
			{ cat "$dir/apply.out"; return 1; }
		grep -q 'devices.allow = c 511:0 rw' "$conf" || { cat "$conf"; return 1; }
		# the Proxmox container: its sandbox lines as config.base (the pct stub adds the rest)
		lxc_sandbox_create "$pct" --pve || return 1
		{
			echo 'lxc.include = /usr/share/lxc/config/common.conf'
			lxc_sandbox_conf
			lxc_pve_conf "$pct"
		} >>"$conf"
		mv "$conf" "$conf.base"
		lxc_pve_init "$pct" "$init_script"
		printf 'arch: amd64\nhostname: gpu1\nostype: debian\nrootfs: local-lvm:vm-%s-disk-0,size=8G\n' "$pct" \
			>"$dir/pve/lxc/$pct.conf"
		"$lxgpu" --host "$dir/host.yaml" --pve-dir "$dir/pve" --lxc-path "$lxcpath" --state-dir "$dir/state" \
			apply "$pct" --gpus 0000:39:00.0 --style raw --backup-dir "$dir/backups" --lock-dir "$dir" \
			>"$dir/apply.out" 2>&1 || { cat "$dir/apply.out"; return 1; }
		unshare -m --propagation private sh "$work/inside.sh" "$layout" "$lxgpu" "$dir/host.yaml" \
			"$lxcpath" "$dir" "$ct" "$dir/pve" "$dir/state" "$pct" ||
			{ echo "could not set up the $layout namespace"; return 1; }
		reported clean
	}
	check "cgroup $layout: a plain LXC container given GPU 0 by apply runs, verify clean" t_setup
	check "cgroup $layout: LXG018 started without the uvm rule: apply, then lxc-stop/lxc-start -P" reported no-rule
	check "cgroup $layout: LXG018 restart pending (rule added while it runs): restart" reported pending
	check "cgroup $layout: LXG019 a node's lines removed after the start: restart (a comment: no LXG019)" reported changed
	check "cgroup $layout: LXG016 a node removed inside: restart" reported node-gone
	check "cgroup $layout: LXG017 a bind unmounted inside: restart" reported unmounted
	[ "$layout" = v2 ] &&
		check "cgroup v2: LXG026 no CAP_SYS_ADMIN: the printed verify, as root, checks it" reported nocap
	check "cgroup $layout: LXG015 nvidia-uvm's major changed (driver reload): restart" reported reloaded
	check "cgroup $layout: a Proxmox container (raw keys, started by a pct stub as pve-container would) runs, verify clean" \
		reported pve-clean
	check "cgroup $layout: Proxmox: LXG018 started without the uvm rule: apply, then pct reboot" reported pve-no-rule
	check "cgroup $layout: Proxmox: LXG019 a node's lines removed after the start: pct reboot (a comment: no LXG019)" reported pve-changed
	[ "$layout" = v2 ] &&
		check "cgroup v2: Proxmox VE 9: LXG018 devN container, nvidia-uvm bound with no rule: apply --live (pct set hotplugs a new devN), no restart" reported pve-devn-live
	check "cgroup $layout: Proxmox: LXG033 guard of CT 102 while it runs: pct shutdown, apply, pct start" reported pve-guard
	check "cgroup $layout: LXG033 guard, exclusive use, this one running: lxc-stop -P, apply, pct start" reported guard
	grep -h ' fix: ' "$dir"/*.log 2>/dev/null | sed "s/^/# $layout: /"
	all_ran="$all_ran $(cat "$dir/ran" 2>/dev/null)"
done

# test-fixes.sh's list of the codes covered here is what this test fixes
t_list() {
	listed=$(sed -n '/^covered_by_lxc_fixes="/,/^"/p' "$fixes_list" | sed 's/#.*//' | grep -o 'LXG[0-9]*' | sort -u)
	[ -n "$listed" ] || { echo "no covered_by_lxc_fixes list in $fixes_list"; return 1; }
	here=$(echo "$all_ran" | tr ' ' '\n' | grep . | sort -u)
	[ "$listed" = "$here" ] ||
		{ echo "test-fixes.sh lists: $(echo $listed); fixed here: $(echo $here)"; return 1; }
}
check "the codes fixed here are test-fixes.sh's covered_by_lxc_fixes" t_list
tap_finish
