#!/bin/sh
# The README's commands on another Debian release (issue 29 item 6): in a
# debootstrap root of SUITE (trixie: Debian 13, what Proxmox VE 9 is built
# on), tools/install-deps test installs what it names from that release's
# archive, lxgpu builds with -Werror, its unit suite passes, and the package
# builds, is lintian-clean and installs. The root is made once and kept in
# $LXGPU_ROOTS (default /var/cache/lxgpu-test/roots/SUITE-build); the source
# tree is copied in fresh each run (tracked and untracked, not ignored files).
# Usage: debian-root.sh SRCDIR SUITE   (TAP; root; Debian's archive reachable)
set -u
src=$(cd "$1" && pwd) suite=$2
roots=${LXGPU_ROOTS:-/var/cache/lxgpu-test/roots}
root="$roots/$suite-build"
. "$src/tests/lib/tap.sh"
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null || ! command -v unshare >/dev/null; then
	skip "Debian $suite root: install-deps, build, unit suite, package" "needs root, debootstrap and unshare"
	tap_finish
fi

# The root, made under a temporary name and renamed when complete, so a cut
# debootstrap is never taken for a root.
t_root() {
	[ -x "$root/usr/bin/apt-get" ] && return 0
	mkdir -p "$roots" && rm -rf "$root.new" || return 1
	debootstrap --variant=minbase "$suite" "$root.new" http://deb.debian.org/debian \
		>"$log/debootstrap" 2>&1 || { tail -n 20 "$log/debootstrap"; return 1; }
	# Packages' maintainer scripts start no services in the root.
	printf '#!/bin/sh\nexit 101\n' >"$root.new/usr/sbin/policy-rc.d" &&
		chmod +x "$root.new/usr/sbin/policy-rc.d" && mv "$root.new" "$root"
}

# inside CMD: run CMD in the root, in a private mount namespace with /proc,
# /sys and /dev, as the README's user would on that release.
inside() {
	unshare -m --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" &&
			mount --rbind /dev "$root/dev" && mount -t tmpfs tmpfs "$root/run" &&
			mount -t tmpfs tmpfs "$root/tmp" || exit 1
		cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 CI="${CI:-}" sh -c "$*"' sh "$root" "$@"
}

t_copy() {
	rm -rf "$root/src" "$root/build" || return 1
	"$src/tests/lib/copy-tree.sh" "$src" "$root/src"
}

t_install_deps() {
	inside 'cd /src && tools/install-deps test' >"$log/deps" 2>&1 || { tail -n 30 "$log/deps"; return 1; }
	inside 'cat /etc/debian_version; gcc --version | head -n 1; meson --version'
}

t_build() {
	inside 'meson setup /build /src -Dwerror=true && meson compile -C /build' >"$log/build" 2>&1 ||
		{ tail -n 40 "$log/build"; return 1; }
}

t_unit() {
	inside 'meson test -C /build --suite unit --print-errorlogs' >"$log/unit" 2>&1
	status=$?
	grep -E '^(Ok|Fail|Skipped|Timeout):' "$log/unit"
	[ "$status" -eq 0 ] || { tail -n 60 "$log/unit"; return 1; }
}

# The shell tests that read lxgpu's JSON with jq, on this release's jq
# (1.7 on trixie: exit 4 on empty input, where 1.6 exits 0): a crashed
# lxgpu is a failure there too (issue 33).
jq_tests="verify-cases verify-nvhook verify-drm-groups drm-recipes schema doctor-hosts cli"
t_jq_tests() {
	inside "jq --version; meson test -C /build --print-errorlogs $jq_tests" >"$log/jq" 2>&1
	status=$?
	head -n 1 "$log/jq"
	grep -E '^(Ok|Fail|Skipped|Timeout):' "$log/jq"
	[ "$status" -eq 0 ] || { tail -n 60 "$log/jq"; return 1; }
	# each named test ran its subtests
	for t in $jq_tests; do
		grep -Eq " $t +OK .*subtests passed" "$log/jq" || { echo "$t: not run or no subtests"; return 1; }
	done
}
t_package() {
	inside 'meson test -C /build package --print-errorlogs' >"$log/package" 2>&1
	status=$?
	[ "$status" -eq 0 ] || { tail -n 80 "$log/package"; return 1; }
	# the package test's own subtests ran (it was not skipped there)
	grep -q 'package *OK.*subtests passed' "$log/package" || { cat "$log/package"; return 1; }
}

# step DESCRIPTION FUNCTION: a check that fails unrun once an earlier one failed.
step() {
	if [ "$tap_failed" -eq 0 ]; then
		check "$1" "$2"
	else
		check "$1" sh -c 'echo "not run: an earlier step failed"; exit 1'
	fi
}
step "Debian $suite root (debootstrap, kept in $roots)" t_root
step "the source tree copied into the root" t_copy
step "tools/install-deps test on $suite" t_install_deps
step "meson setup -Dwerror=true and build on $suite" t_build
step "the unit suite passes on $suite" t_unit
step "the JSON-reading shell tests pass on $suite's jq" t_jq_tests
step "the package builds, is lintian-clean and installs on $suite" t_package
tap_finish
