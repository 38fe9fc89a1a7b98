#!/bin/sh
# The Debian roots the real-LXC tests run other LXC versions in (issue 29):
# lxc-roots.sh [SUITE...] makes each SUITE's root (default: trixie and sid)
# unless it is there already, and prints its LXC version. trixie has LXC
# 6.0.4 (what Proxmox VE 9's lxc-pve 6.0.x is built from), sid 7.0.0 (the
# next); this machine's own LXC (bookworm, 5.0.2) needs no root.
#
# A root is `debootstrap --variant=minbase` with LXC and what the real-LXC
# tests run inside it, from the archive apt uses here; it is kept in
# $LXGPU_ROOTS/SUITE (default /var/cache/lxgpu-test/roots), shared by every
# test and every run. It is made under SUITE.new and renamed when complete,
# so a cut debootstrap is never taken for a root; a root made with another
# package list is made again. tools/install-deps test calls this; the
# runner (in-lxc-root.sh) calls it for a root that is missing.
# Usage: lxc-roots.sh [SUITE...]   (root; Debian's archive reachable)
set -eu
roots=${LXGPU_ROOTS:-/var/cache/lxgpu-test/roots}
# lxc-access: lxc, lxc-templates (the <ostype>.common.conf files Proxmox's
# configs include), busybox-static, jq, gcc and libc6-dev (the driver
# stand-in), uidmap (newuidmap for unprivileged containers); lxc-fixes:
# python3; lxc-hook-attacks: strace (which files the hook opens); and the
# libraries a bookworm-built lxgpu loads when a command
# needs them (libarchive: apply's backups; libyaml; libudev).
packages=lxc,lxc-templates,busybox-static,jq,gcc,libc6-dev,uidmap,python3,strace,util-linux,mount,procps,libyaml-0-2,libudev1
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p; s/^deb \(http[^ ]*debian\) .*/\1/p' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}
[ $# -gt 0 ] || set -- trixie sid

for suite in "$@"; do
	root=$roots/$suite
	# the 64-bit time_t transition renamed it after bookworm
	case $suite in bookworm) want=$packages,libarchive13 ;; *) want=$packages,libarchive13t64 ;; esac
	if [ "$(cat "$root/.lxgpu-root" 2>/dev/null)" = "$want" ]; then
		echo "$suite: $root, LXC $(chroot "$root" lxc-start --version)"
		continue
	fi
	[ "$(id -u)" -eq 0 ] || { echo "lxc-roots.sh: making the $suite root needs root" >&2; exit 1; }
	command -v debootstrap >/dev/null || { echo "lxc-roots.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
	mkdir -p "$roots"
	rm -rf "$root.new"
	log=$roots/$suite.log
	echo "$suite: debootstrap into $root (log $log)"
	if ! debootstrap --variant=minbase --include="$want" "$suite" "$root.new" "$mirror" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "lxc-roots.sh: debootstrap of $suite failed (log $log)" >&2
		exit 1
	fi
	# Packages' maintainer scripts start no services in the root.
	printf '#!/bin/sh\nexit 101\n' >"$root.new/usr/sbin/policy-rc.d"
	chmod 755 "$root.new/usr/sbin/policy-rc.d"
	# lxc_own_subids binds scratch files over these; the put-old directory
	# of the runner's pivot_root
	touch "$root.new/etc/subuid" "$root.new/etc/subgid"
	mkdir -p "$root.new/.lxgpu-old"
	echo "$want" >"$root.new/.lxgpu-root"
	rm -rf "$root"
	mv "$root.new" "$root"
	echo "$suite: $root, LXC $(chroot "$root" lxc-start --version)"
done
