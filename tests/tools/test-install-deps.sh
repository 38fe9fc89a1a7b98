#!/bin/sh
# tools/install-deps and tools/quickstart on a Proxmox node (issue 22): the
# quick start must not replace Proxmox's lxc-pve with Debian's lxc. What
# conflicts is decided by apt itself, from Debian's archive metadata and a
# dpkg status that holds lxc-pve with the Conflicts/Replaces/Provides of
# Proxmox's debian/control (git.proxmox.com lxc.git, lxc-pve 6.0.5-3:
# Conflicts: liblxc1, lxc; Replaces: liblxc1, lxc; Provides: liblxc1, lxc):
# `apt-get -s` prints "Remv lxc-pve" for a package list that would remove
# it. apt-get, dpkg-query and meson are stubs for the scripts under test.
# Usage: test-install-deps.sh SRCDIR   (TAP)
set -u
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"

tree="$work/tree"
mkdir -p "$tree/tools" "$work/bin"
cp "$src/tools/install-deps" "$src/tools/quickstart" "$tree/tools/"
log="$work/calls"
# dpkg-query -W -f '${Status}' PKG: lxc-pve installed when $PVE_NODE=1
cat >"$work/bin/dpkg-query" <<'S'
#!/bin/sh
for last; do :; done
[ "$last" = lxc-pve ] && [ "${PVE_NODE:-0}" = 1 ] && { printf 'install ok installed'; exit 0; }
exit 1
S
cat >"$work/bin/apt-get" <<S
#!/bin/sh
echo "apt-get \$*" >>"$log"
S
cat >"$work/bin/id" <<'S'
#!/bin/sh
[ "${1:-}" = -u ] && { echo 0; exit 0; }
exec /usr/bin/id "$@"
S
cat >"$work/bin/meson" <<S
#!/bin/sh
echo "meson \$*" >>"$log"
case \$1 in
setup) mkdir -p "\$2" ;;
compile) printf '#!/bin/sh\necho "lxgpu \$*"\n' >build/lxgpu; chmod +x build/lxgpu ;;
esac
S
chmod +x "$work/bin/"*
stubbed() { PATH="$work/bin:$PATH" "$@"; }
# installed WHAT: the packages install-deps WHAT asks apt-get for (not a Proxmox node)
installed() {
	: >"$log"
	stubbed "$tree/tools/install-deps" "$1" >/dev/null 2>&1 || return 1
	sed -n 's/^apt-get install -y -q --no-install-recommends //p' "$log"
}

t_refuses() {
	: >"$log"
	PVE_NODE=1 stubbed "$tree/tools/install-deps" test >"$work/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] && [ ! -s "$log" ] && grep -q 'lxc-pve is installed' "$work/out" &&
		grep -q 'scratch machine or VM' "$work/out" || { echo "rc $rc"; cat "$work/out" "$log"; return 1; }
}
check "install-deps test on a Proxmox node: refused (exit 1), apt-get never run" t_refuses

t_quickstart() {
	build=$(installed build) || return 1
	rm -rf "$tree/build"
	: >"$log"
	(cd "$work" && PVE_NODE=1 stubbed "$tree/tools/quickstart") >"$work/out" 2>&1 || { cat "$work/out" "$log"; return 1; }
	# what building needs, the binary and its man page alone, then a scan
	grep -qxF "apt-get install -y -q --no-install-recommends $build" "$log" &&
		grep -qx 'meson compile -C build lxgpu:executable lxgpu.1:custom' "$log" &&
		[ "$(grep -c '^meson compile' "$log")" -eq 1 ] &&
		grep -q '^lxgpu .*scan' "$work/out" || { cat "$log" "$work/out"; return 1; }
}
check "quickstart on a Proxmox node: installs what building needs, builds only the binary and man page, scans" t_quickstart

# apt's own verdict on each list, against a dpkg status holding only lxc-pve.
printf '%s\n' 'Package: lxc-pve' 'Status: install ok installed' 'Priority: optional' 'Section: admin' \
	'Maintainer: Proxmox Support Team <support@proxmox.com>' 'Architecture: amd64' 'Version: 6.0.5-3' \
	'Conflicts: liblxc1, lxc' 'Replaces: liblxc1, lxc' 'Provides: liblxc1, lxc' \
	'Description: Linux containers userspace tools' '' >"$work/status"
removes_lxc_pve() { # PACKAGE...: exit 0 when installing them removes lxc-pve
	/usr/bin/apt-get -s -o Dir::State::status="$work/status" install --no-install-recommends "$@" \
		>"$work/sim" 2>&1 || { cat "$work/sim"; return 2; }
	grep -q '^Remv lxc-pve' "$work/sim"
}
t_keeps() { # WHAT: install-deps WHAT's packages leave lxc-pve installed
	list=$(installed "$1") && [ -n "$list" ] || { echo "no package list"; return 1; }
	# shellcheck disable=SC2086
	removes_lxc_pve $list
	rc=$?
	[ $rc -eq 1 ] || { [ $rc -eq 0 ] && grep -E '^(Remv|Inst) (lxc|liblxc)' "$work/sim"; return 1; }
}
t_test_would_remove() {
	# the refusal is needed: the test suite's packages do replace it
	list=$(installed test) || return 1
	# shellcheck disable=SC2086
	removes_lxc_pve $list
}
if ls /var/lib/apt/lists/*Packages* >/dev/null 2>&1; then
	check "apt: install-deps build's packages keep lxc-pve" t_keeps build
	check "apt: install-deps package's packages keep lxc-pve" t_keeps package
	check "apt: install-deps test's packages would remove lxc-pve (why it refuses there)" t_test_would_remove
else
	for what in build package test; do
		skip "apt's verdict on install-deps $what's packages" "no apt lists here (apt-get update first)"
	done
fi
tap_finish
