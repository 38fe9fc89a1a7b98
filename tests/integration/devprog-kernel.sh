#!/bin/sh
# The kernel decides: lxgpu's device-program reader and interpreter
# (src/observe/devprog.c, through tests/devprog-dump) against what opening
# device nodes really gives, on a pure cgroup v2 hierarchy (cgroup2 mounted
# in a private mount namespace, FACTS section 7).
#
# 1. Real LXC containers with device rules: the programs LXC attached are
#    read from the init's cgroup (/proc/PID/cgroup, PID from lxc-info) and
#    each probed node evaluated; opening it inside the container (r, w, rw)
#    gives ENXIO where the cgroup allows it (no driver behind the node) and
#    EPERM where it denies it. One container as plain LXC (program on its
#    own cgroup), one with pve-container's cgroup keys (program on lxc/NAME,
#    init in lxc/NAME/ns: an ancestor's program).
# 2. Programs loaded here through bpf(BPF_PROG_LOAD) (the verifier accepts
#    them) and attached to a cgroup made here and to its child: a shell
#    moved into the child opens and mknods nodes; both programs apply.
# 3. Without CAP_SYS_ADMIN the reader says "could not check", never a verdict.
# Usage: devprog-kernel.sh DEVPROG_DUMP   (TAP; root, lxc, busybox-static)
set -u
dump=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
lxc_config=/usr/share/lxc/config

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the real-kernel device program test" lxc-create lxc-start lxc-attach lxc-info lxc-stop lxc-destroy unshare busybox setpriv "$lxc_config/common.conf"
LXGPU_KEEP_WORK=${DEVPROG_KEEP:-${LXGPU_KEEP_WORK:-}}
lxc_workdir lxgpu-devprog
tag="lxgpu-dp-$$"
. "$(dirname "$0")/../lib/tap.sh"

# Outcome of an open or mknod by the shell here (inside a container:
# probe_open), from its error message.
cat >"$work/outcome.sh" <<'EOF'
outcome() {
	case $1 in
	*OPENED*) echo allowed ;;
	*"No such device or address"* | *"No such device"*) echo allowed ;;
	*"Operation not permitted"*) echo eperm ;;
	*) echo "other($1)" ;;
	esac
}
EOF

# Compare "PATH MODE VERDICT" lines: the interpreter's against the kernel's.
compare() { # PREDICTED OBSERVED
	rc=0
	[ -s "$2" ] || { echo "# nothing observed"; return 1; }
	while read -r path m seen; do
		want=$(awk -v p="$path" -v m="$m" '$1 == p && $2 == m { print $3 }' "$1")
		if [ "$want" != "$seen" ]; then
			echo "$path $m: kernel $seen, interpreter ${want:-nothing}"
			rc=1
		fi
	done <"$2"
	return $rc
}

# ---- 1. real LXC ----
cat "$(dirname "$0")/../lib/probe-open.sh" "$(dirname "$0")/../lib/wait-running.sh" >"$work/lxc-inside.sh"
cat >>"$work/lxc-inside.sh" <<'INSIDE'
# In a private mount namespace: cgroup2, probe nodes on a tmpfs, the container.
set -u
lxcpath=$1 name=$2 nodes=$3 dump=$4 out=$5
umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
probe="$lxcpath/$name.probe"
mkdir -p "$probe" && mount -t tmpfs -o mode=755 lxgpu-probe "$probe" || exit 3
specs=""
while read -r file type major minor; do
	mknod -m 666 "$probe/$file" "$type" "$major" "$minor" || exit 3
	specs="$specs /probe/$file:$type:$major:$minor"
done <"$nodes"
lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name.log" || { echo "start failed"; exit 4; }
wait_running "$lxcpath" "$name" 20
pid=$(lxc-info -P "$lxcpath" -n "$name" -p -H 2>/dev/null)
[ -n "$pid" ] || { echo "no init pid"; exit 4; }
echo "# init $pid in $(sed -n 's/^0:://p' "/proc/$pid/cgroup")" >"$out.predicted"
# shellcheck disable=SC2086
"$dump" eval --pid "$pid" $specs >>"$out.predicted" 2>&1 || { cat "$out.predicted"; exit 5; }
: >"$out.observed"
while read -r file _; do
	for m in r w rw; do
		echo "/probe/$file $m $(probe_open "$lxcpath" "$name" "/probe/$file" "$m")" >>"$out.observed"
	done
done <"$nodes"
lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
umount -l "$probe"
INSIDE

lxc_case() { # NAME NODES CONFIG_LINES...
	name=$1 nodes=$2
	shift 2
	lxc_sandbox_create "$name" || return 1
	{
		printf '%s\n' "$@" "lxc.mount.entry = $lxcpath/$name.probe probe none bind,create=dir 0 0"
		lxc_sandbox_conf
	} >>"$conf"
	printf '%s\n' "$nodes" >"$work/$name.nodes"
	unshare -m --propagation private sh "$work/lxc-inside.sh" "$lxcpath" "$name" \
		"$work/$name.nodes" "$dump" "$work/$name" ||
		{ echo "# the namespace run failed"; grep ERROR "$lxcpath/$name.log" | tail -n 4; return 1; }
	grep '^#' "$work/$name.predicted"
	grep -q 'programs$' "$work/$name.predicted" || return 1
	compare "$work/$name.predicted" "$work/$name.observed"
}

# LXC allowlist: common.conf's deny a and allow list, then GPU-like rules.
# The deny of c 195:2 is left out of LXC's program (it blocks everything
# else already) and c 195:* still allows it.
t_lxc_allowlist() {
	lxc_case "$tag-allow" "$(printf '%s\n' 'n0 c 195 0' 'n2 c 195 2' 'uvm c 511 0' \
		'uvm1 c 511 1' 'null c 1 3' 'dri c 226 0' 'sda b 8 0' 'full c 1 7')" \
		"lxc.include = $lxc_config/common.conf" \
		'lxc.cgroup2.devices.allow = c 195:* rwm' \
		'lxc.cgroup2.devices.allow = c 511:0 r' \
		'lxc.cgroup2.devices.allow = b 8:* m' \
		'lxc.cgroup2.devices.deny = c 195:2 rw'
}
check "LXC allowlist (deny a, allow rules): interpreter = kernel for every probe" t_lxc_allowlist

# A deny-list on pve-container's cgroup keys: LXC attaches to lxc/NAME, the
# init runs in lxc/NAME/ns. "deny c 195:1 w" does not match an O_RDWR open.
t_lxc_denylist() {
	lxc_case "$tag-deny" "$(printf '%s\n' 'n0 c 195 0' 'n1 c 195 1' 'uvm c 511 0' \
		'null c 1 3' 'sda b 8 0' 'dri c 226 128')" \
		"lxc.include = $lxc_config/common.conf" \
		'lxc.cgroup2.devices.allow = a' \
		'lxc.cgroup2.devices.deny = c 195:1 w' \
		'lxc.cgroup2.devices.deny = c 511:* rwm' \
		'lxc.cgroup2.devices.deny = b *:* m' \
		'lxc.cgroup2.devices.deny = c 226:128 r' \
		'lxc.cgroup.relative = 0' \
		"lxc.cgroup.dir.monitor = lxc.monitor/$tag-deny" \
		"lxc.cgroup.dir.container = lxc/$tag-deny" \
		'lxc.cgroup.dir.container.inner = ns' || return 1
	grep -q "^# init .* in /lxc/$tag-deny/ns\$" "$work/$tag-deny.predicted" ||
		{ echo "# the init is not in lxc/NAME/ns"; return 1; }
	grep -q "on /lxc/$tag-deny: " "$work/$tag-deny.predicted" ||
		{ echo "# no program found on the ancestor lxc/NAME"; return 1; }
}
check "LXC deny-list, PVE cgroup keys (program on an ancestor): interpreter = kernel" t_lxc_denylist

# ---- 2. programs loaded here ----
cat >"$work/own-inside.sh" <<'INSIDE'
set -u
dump=$1 work=$2 tag=$3
. "$work/outcome.sh"
umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
cg=/sys/fs/cgroup/$tag-own
mkdir "$cg" "$cg/leaf" || exit 3
trap 'rmdir "$cg/leaf" "$cg" 2>/dev/null' EXIT
"$dump" attach "$cg" range || exit 4
"$dump" attach "$cg/leaf" minor3 || exit 4
nodes="$work/own-nodes"
mkdir -p "$nodes" && mount -t tmpfs -o mode=755 lxgpu-own "$nodes" || exit 3
specs=""
for n in 'c 200 0' 'c 205 3' 'c 205 4' 'c 210 1' 'c 211 0' 'c 199 0' 'b 8 16' 'b 8 17' 'c 1 3' 'b 205 4'; do
	set -- $n
	f="$1-$2-$3"
	mknod -m 666 "$nodes/$f" "$1" "$2" "$3" || exit 3
	specs="$specs $nodes/$f:$1:$2:$3"
done
# shellcheck disable=SC2086
"$dump" eval --cgroup "/$tag-own/leaf" $specs >"$work/own.predicted" 2>&1 || { cat "$work/own.predicted"; exit 5; }
: >"$work/own.observed"
for f in "$nodes"/*; do
	for m in r w rw m; do
		case $m in
		r) cmd=": < $f && echo OPENED" ;;
		w) cmd=": > $f && echo OPENED" ;;
		rw) cmd=": <> $f && echo OPENED" ;;
		m) t=$(stat -c %F "$f"); t=${t%% *}; [ "$t" = block ] && t=b || t=c
		   cmd="mknod $f.m $t $(printf '%d %d' 0x$(stat -c %t "$f") 0x$(stat -c %T "$f")) && echo OPENED" ;;
		esac
		# The shell joins the leaf first: the programs apply to it from then on.
		msg=$(sh -c "echo \$\$ > $cg/leaf/cgroup.procs && $cmd" 2>&1)
		rm -f "$f.m"
		echo "$f $m $(outcome "$msg")" >>"$work/own.observed"
	done
done
umount -l "$nodes"
INSIDE

t_own_programs() {
	unshare -m --propagation private sh "$work/own-inside.sh" "$dump" "$work" "$tag" ||
		{ echo "# the namespace run failed"; return 1; }
	grep '^#' "$work/own.predicted"
	grep -q "^# cgroup /$tag-own/leaf: 2 programs" "$work/own.predicted" || return 1
	grep -q "on /$tag-own: " "$work/own.predicted" || { echo "# range not found on the parent"; return 1; }
	grep -q "on /$tag-own/leaf: " "$work/own.predicted" || { echo "# minor3 not on the leaf"; return 1; }
	compare "$work/own.predicted" "$work/own.observed" || return 1
	# The probes must see both verdicts, or the comparison proves little.
	grep -q ' allowed$' "$work/own.observed" && grep -q ' eperm$' "$work/own.observed"
}
check "programs loaded here (parent and child, ANDed): interpreter = kernel, mknod too" t_own_programs

# ---- 3. without privileges ----
t_unprivileged() {
	out=$(setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all \
		"$dump" eval --cgroup / /x:c:1:3 2>&1)
	rc=$?
	echo "# $out"
	[ $rc -eq 2 ] && case $out in "could not check: "*) true ;; *) false ;; esac
}
check "without CAP_SYS_ADMIN: could not check, never a verdict" t_unprivileged

tap_finish
