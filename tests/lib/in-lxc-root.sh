#!/bin/sh
# in-lxc-root.sh SUITE CMD [ARG...]: CMD with SUITE's LXC (issue 29): in a
# private mount namespace, the Debian root lxc-roots.sh keeps for SUITE
# (made first when it is missing) becomes / by pivot_root (LXC's own
# pivot_root into a container fails inside a chroot: FACTS section 11),
# with /proc, /sys, /dev, and a pure cgroup2 hierarchy at /sys/fs/cgroup
# (what Proxmox VE 8 and 9 run; LXC 6.0 and 7.0 are tried on nothing
# else). The source tree this script is in, the current directory and each
# directory of LXGPU_ROOT_BIND (space-separated) are bound in at the same
# paths, so a build of this tree runs there as it is (a bookworm-built
# lxgpu runs on the later glibc). /tmp and /run are fresh. CMD gets a clean
# environment: PATH, HOME, LANG, and CI and LXGPU_* as given, with
# LXGPU_LXC_LAYOUTS=v2 unless set (lxc-env.sh's lxc_layouts).
# SUITE "host" runs CMD here, with this machine's LXC, unchanged; SUITE an
# absolute path enters that root as it is (tools/run-tests-on-debian: the
# whole suite on a Debian 13 host).
# Usage: in-lxc-root.sh SUITE|host|/ROOT CMD [ARG...]   (root)
set -eu
suite=$1
shift
if [ "$suite" = host ]; then
	exec "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
roots=${LXGPU_ROOTS:-/var/cache/lxgpu-test/roots}
case $suite in
/*)
	root=$suite
	mkdir -p "$root/.lxgpu-old"
	;;
*)
	root=$roots/$suite
	[ -f "$root/.lxgpu-root" ] || "$here/lxc-roots.sh" "$suite" >&2
	;;
esac
src=$(cd "$here/../.." && pwd)
LXGPU_ROOT_BIND="$src $(pwd) ${LXGPU_ROOT_BIND:-}"
# the tests' v1 halves need a hybrid host; here is only cgroup2
LXGPU_LXC_LAYOUTS=${LXGPU_LXC_LAYOUTS:-v2}
export LXGPU_ROOT_BIND LXGPU_LXC_LAYOUTS

# shellcheck disable=SC2016
exec unshare -m --propagation private sh -eu -c '
	root=$1
	shift
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	umount -l "$root/sys/fs/cgroup"
	mount -t cgroup2 none "$root/sys/fs/cgroup"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
	mount -t tmpfs -o mode=755 tmpfs "$root/run"
	for dir in $LXGPU_ROOT_BIND; do
		[ -d "$root$dir" ] || mkdir -p "$root$dir"
		mount --rbind "$dir" "$root$dir"
	done
	cwd=$(pwd)
	cd "$root"
	pivot_root . .lxgpu-old
	umount -l /.lxgpu-old
	cd "$cwd"
	env_pass=$(env | sed -n "s/^\(CI\|LXGPU_[A-Z0-9_]*\)=.*/\1/p" | while read -r v; do
		printf "%s=%s\n" "$v" "$(printenv "$v")"; done)
	IFS="
"
	set -f # a value with glob characters (LXGPU_ACCESS_CASES) passes as it is
	# shellcheck disable=SC2086
	exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 $env_pass "$@"
' sh "$root" "$@"
