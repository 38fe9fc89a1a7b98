#!/bin/sh
# Integration: an lxc.idmap range the host refuses (issue 19, item 12).
# Where newuidmap and newgidmap are installed (as on Proxmox), LXC maps an
# unprivileged container's ids with them, also when started as root, and
# they allow root only the ranges /etc/subuid and /etc/subgid give it: a
# passthrough `g 44 44 1` without `root:44:1` in /etc/subgid fails the
# start. Real LXC decides: an unprivileged busybox container with that map
# is started with subordinate id files of the test's own (a scratch copy
# bind-mounted over /etc/subuid and /etc/subgid in a private mount
# namespace: the machine's files are never read or changed), first without
# root:44:1, then with it; verify and preflight (--subid-root: the same
# files, and the tools exactly where LXC finds them on PATH) must predict
# what the start does. On a machine without the tools LXC writes the map
# itself and both starts work: lxgpu must say so too.
# LXGPU_UIDMAP_DIR=DIR: a directory with newuidmap and newgidmap to use
# where they are not installed (e.g. `dpkg -x uidmap_*.deb X`, X/usr/bin).
# Usage: lxc-idmap.sh LXGPU EXAMPLES   (TAP; root, lxc, busybox, unshare, jq)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd)
host=$examples/pve-rtx-4090.yaml

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the idmap integration test" lxc-create lxc-start lxc-stop lxc-destroy lxc-info \
	lxc-wait busybox unshare jq
lxc_workdir lxgpu-idmap
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
[ -n "${LXGPU_UIDMAP_DIR:-}" ] && PATH=$LXGPU_UIDMAP_DIR:$PATH && export PATH
name=ct

# The subordinate id files of this test, and the tools as LXC finds them
# (lxc-start looks newuidmap and newgidmap up on PATH).
subids=$work/subids
mkdir -p "$subids/etc" "$subids/usr/bin"
shadow=no
if command -v newuidmap >/dev/null 2>&1 && command -v newgidmap >/dev/null 2>&1; then
	shadow=yes
	ln -s "$(command -v newuidmap)" "$subids/usr/bin/newuidmap"
	ln -s "$(command -v newgidmap)" "$subids/usr/bin/newgidmap"
fi
echo "# newuidmap and newgidmap on PATH: $shadow"
echo 'root:100000:65536' >"$subids/etc/subuid"
echo 'root:100000:65536' >"$subids/etc/subgid"

t_make() {
	lxc_sandbox_create "$name" || return 1
	lxc_sandbox_conf >>"$conf"
	# video (44) passed through, the rest of the ids shifted as PVE does
	printf '%s\n' 'lxc.idmap = u 0 100000 65536' 'lxc.idmap = g 0 100000 44' \
		'lxc.idmap = g 44 44 1' 'lxc.idmap = g 45 100045 65491' >>"$conf"
	lxc_shift_rootfs "$lxcpath" "$name"
}
check "an unprivileged container with lxc.idmap = g 44 44 1" t_make

# started WANT: lxc-start with the scratch files as /etc/subuid and
# /etc/subgid; "yes" when it came up.
cat >"$work/start.sh" <<'START'
set -u
subids=$1 lxcpath=$2 name=$3
for f in subuid subgid; do
	# LXC reads nothing of these; newuidmap/newgidmap do, where installed.
	[ -e "/etc/$f" ] || continue
	mount --bind "$subids/etc/$f" "/etc/$f" || exit 3
done
lxc-start -P "$lxcpath" -n "$name" -l DEBUG -o "$lxcpath/$name.log" || exit 1
lxc-wait -P "$lxcpath" -n "$name" -s RUNNING -t 10 || exit 1
START
lxc_started() {
	lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
	: >"$lxcpath/$name.log"
	unshare -m --propagation private sh "$work/start.sh" "$subids" "$lxcpath" "$name"
	rc=$?
	[ $rc -eq 3 ] && { echo "cannot bind the scratch id files"; return 2; }
	if [ $rc -eq 0 ]; then started=yes; else started=no; fi
	lxc-stop -P "$lxcpath" -n "$name" -k >/dev/null 2>&1
	return 0
}
lx() {
	"$lxgpu" --host "$host" --lxc-path "$lxcpath" --pve-dir "$work" --subid-root "$subids" "$@"
}
# predicted: does lxgpu say the start fails (LXG023 naming the map)?
predicted() {
	predicted=unknown
	lx_json sev "$work/verify.json" lx verify "$name" --format json || return 1
	if jq -e '[.findings[] | select(.code == "LXG023" and (.message | contains("g 44 44 1")))] | length > 0' \
		"$work/verify.json" >/dev/null; then
		predicted=fail
	else
		predicted=start
	fi
}
agree() { # WANT_STARTED
	lxc_started || return 1
	predicted || return 1
	want=$1
	[ "$started" = "$want" ] || { echo "real LXC: started=$started, expected $want (newuidmap: $shadow)"; grep -iE 'newgidmap|newuidmap|ERROR' "$lxcpath/$name.log" | head -5; return 1; }
	case "$started:$predicted" in
	yes:start | no:fail) ;;
	*) echo "LXC started=$started but lxgpu predicted '$predicted'"; jq -c '[.findings[] | [.code, .message]]' "$work/verify.json"; return 1 ;;
	esac
}
if [ "$shadow" = yes ]; then want=no; else want=yes; fi
check "subgid without root:44:1: LXC $( [ $want = yes ] && echo starts it || echo refuses it), verify says the same" agree "$want"
t_fix_named() {
	[ "$predicted" = fail ] || return 0
	jq -e '[.findings[] | select(.code == "LXG023") | .fix] | index("add the line '"'"'root:44:1'"'"' to /etc/subgid")' \
		"$work/verify.json" >/dev/null || { jq -c '[.findings[] | [.code, .fix]]' "$work/verify.json"; return 1; }
}
check "the fix names the line to add: root:44:1 to /etc/subgid" t_fix_named
t_preflight() {
	out=$(lx preflight "$name" 2>&1)
	case "$predicted:$out" in
	fail:*"will fail"*"g 44 44 1"*) ;;
	start:*"g 44 44 1"*) echo "$out"; return 1 ;;
	fail:*) echo "$out"; return 1 ;;
	esac
}
check "preflight agrees" t_preflight

echo 'root:44:1' >>"$subids/etc/subgid"
check "root:44:1 added to subgid: LXC starts it, verify says it starts" agree yes

tap_finish
