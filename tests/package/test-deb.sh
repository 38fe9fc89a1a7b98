#!/bin/sh
# The Debian package: dpkg-buildpackage -us -uc -b in a copy of the source
# tree (nothing is written into the tree itself), lintian without errors,
# Depends from the libraries lxgpu links plus the libarchive13 it dlopen()s,
# the same files as `meson install` of the same build (dh_compress's .gz and
# Debian's copyright/changelog aside), and installed with dpkg --root into a
# scratch root: the units enabled there as deb-systemd-helper does it, the
# binary runs, completion, man page and boot unit in place, and preflight
# --next-boot --root finds the boot unit dpkg enabled there.
# Usage: test-deb.sh SOURCE_DIR EXAMPLES_DIR   (TAP output; root, Debian 12
# build tools)
set -u
src=$(cd "$1" && pwd) examples=$(cd "$2" && pwd)
. "$(dirname "$0")/../lib/tap.sh"

missing=""
[ "$(id -u)" -eq 0 ] || missing="root"
for need in dpkg-buildpackage dh lintian meson fakeroot; do
	command -v "$need" >/dev/null 2>&1 || missing="$missing $need"
done
if [ -n "$missing" ]; then
	echo "# needs:$missing (tools/install-deps: debhelper, dpkg-dev, lintian, fakeroot; as root)"
	if [ "${CI:-}" = true ]; then
		echo "Bail out! the package test cannot run in CI"
		exit 1
	fi
	echo "1..0 # SKIP needs:$missing"
	exit 0
fi

work=$(mktemp -d /tmp/lxgpu-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
tree="$work/lxgpu"
root="$work/root"

# Programs the maintainer scripts would run on this host (dpkg --root runs
# them chrootless): stand-ins that only log.
mkdir -p "$work/stubs"
for prog in systemctl deb-systemd-invoke; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/stub.log"\n' "$prog" "$work" >"$work/stubs/$prog"
	chmod +x "$work/stubs/$prog"
done

# The copy (tests/lib/copy-tree.sh: what git knows, else the tree).
t_copy() {
	"$src/tests/lib/copy-tree.sh" "$src" "$tree" || return 1
	[ -f "$tree/debian/control" ] && [ -f "$tree/meson.build" ]
}

t_build() {
	(cd "$tree" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 ||
		{ tail -n 40 "$work/build.log"; return 1; }
	deb=$(ls "$work"/lxgpu_*_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || { echo "no .deb in $work"; ls "$work"; return 1; }
}

t_source_clean() {
	# Nothing of the build in the source tree.
	for p in obj-* debian/lxgpu debian/.debhelper debian/files debian/debhelper-build-stamp \
		debian/lxgpu.substvars; do
		for f in "$src"/$p; do
			[ -e "$f" ] && { echo "written into the source tree: $f"; return 1; }
		done
	done
	return 0
}

t_lintian() {
	lintian --fail-on error "$deb" >"$work/lintian" 2>&1
	status=$?
	cat "$work/lintian"
	[ "$status" -eq 0 ] && ! grep -q '^E: ' "$work/lintian"
}

t_depends() {
	depends=$(dpkg-deb -f "$deb" Depends)
	echo "Depends: $depends"
	# The Debian packages of the libraries the binary is linked to (ldd,
	# dpkg -S), and the libarchive13 it dlopen()s.
	obj=$(ls -d "$tree"/obj-* | head -n 1)
	libs=$(ldd "$obj/lxgpu" | sed -n 's/^[[:space:]]*\(lib[^ ]*\.so[^ ]*\) => .*/\1/p')
	[ -n "$libs" ] || return 1
	for lib in $libs; do
		pkg=$(dpkg -S "*/$lib" 2>/dev/null | sed -n '1s/[:,].*//p')
		[ -n "$pkg" ] || { echo "no package has $lib"; return 1; }
		printf '%s\n' "$depends" | grep -Eq "(^|, )$pkg( |,|$)" || { echo "no $pkg ($lib)"; return 1; }
	done
	printf '%s\n' "$depends" | grep -Eq '(^|, )libarchive13( |,|$)'
}

# The package's files are meson's: install the same build dir and compare.
t_same_as_meson() {
	obj=$(ls -d "$tree"/obj-* | head -n 1)
	meson install -C "$obj" --destdir "$work/meson" --no-rebuild --quiet >/dev/null || return 1
	(cd "$work/meson" && find . ! -type d | sed 's|^\.||' | sort) >"$work/meson.list"
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\.||' |
		grep -vx '/usr/share/doc/lxgpu/copyright' | grep -vx '/usr/share/doc/lxgpu/changelog.gz' |
		sort >"$work/deb.raw"
	# dh_compress gzips man pages and larger docs.
	while read -r f; do
		case $f in
		/usr/share/man/*.gz | /usr/share/doc/*.gz) grep -qx "${f%.gz}" "$work/meson.list" && f=${f%.gz} ;;
		esac
		echo "$f"
	done <"$work/deb.raw" | sort >"$work/deb.list"
	[ -s "$work/meson.list" ] || return 1
	diff -u "$work/meson.list" "$work/deb.list"
}

host_units() { ls -la /etc/systemd/system/*.wants 2>/dev/null; }

t_install_root() {
	host_units >"$work/host-before"
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
	: >"$root/var/lib/dpkg/status"
	: >"$root/var/lib/dpkg/available"
	# The root has no libc: dependencies are this host's.
	PATH="$work/stubs:$PATH" dpkg --root="$root" --force-depends --force-script-chrootless \
		--log=/dev/null -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; return 1; }
	dpkg --root="$root" -s lxgpu | grep -qx 'Status: install ok installed'
}

t_runs() {
	"$root/usr/bin/lxgpu" --version | grep -Eqx 'lxgpu [0-9]+\.[0-9]+\.[0-9]+.*'
}

# Units where this Debian's systemd.pc says (Debian 12: /lib/systemd/system,
# 13: /usr/lib/systemd/system), udev rules beside them, nothing under the other
# (aliased) one; the man page names the same paths.
t_units() {
	unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)
	[ -n "$unitdir" ] || { echo "no systemd.pc"; return 1; }
	rulesdir=${unitdir%/systemd/system}/udev/rules.d
	case $unitdir in /lib/*) other=/usr$unitdir ;; *) other=${unitdir#/usr} ;; esac
	for u in lxgpu-nodes.service lxgpu-audit.service lxgpu-audit.timer lxgpu-publish.service; do
		[ -f "$root$unitdir/$u" ] || { echo "no $unitdir/$u"; return 1; }
		[ ! -e "$root$other/$u" ] || { echo "also $other/$u"; return 1; }
	done
	[ -f "$root$rulesdir/60-lxgpu-publish.rules" ] || { echo "no $rulesdir/60-lxgpu-publish.rules"; return 1; }
	"$root/usr/bin/lxgpu" ensure-nodes --print-boot-unit | cmp - "$root$unitdir/lxgpu-nodes.service" ||
		return 1
	grep -qx 'ExecStart=/usr/bin/lxgpu ensure-nodes --load-modules' "$root$unitdir/lxgpu-nodes.service" || return 1
	gzip -dc "$root/usr/share/man/man1/lxgpu.1.gz" | sed 's/\\&//g' | grep -qxF "$unitdir/lxgpu-nodes.service"
}

# Enabled in the root as deb-systemd-helper does (the [Install] sections'
# WantedBy=); this host's units as they were.
t_enabled() {
	[ -L "$root/etc/systemd/system/multi-user.target.wants/lxgpu-nodes.service" ] &&
		[ -L "$root/etc/systemd/system/multi-user.target.wants/lxgpu-publish.service" ] &&
		[ -L "$root/etc/systemd/system/timers.target.wants/lxgpu-audit.timer" ] ||
		{ find "$root/etc" 2>/dev/null; return 1; }
	host_units >"$work/host-after"
	diff -u "$work/host-before" "$work/host-after"
}

t_completion_man() {
	bash -c '. "$1" && complete -p lxgpu' _ "$root/usr/share/bash-completion/completions/lxgpu" |
		grep -q -- '-F _lxgpu lxgpu' || return 1
	[ -f "$root/usr/share/zsh/vendor-completions/_lxgpu" ] || return 1
	gzip -dc "$root/usr/share/man/man1/lxgpu.1.gz" >"$work/lxgpu.1" || return 1
	grep -q '^\.SH EXAMPLES' "$work/lxgpu.1" && grep -q '^\.SH FILES' "$work/lxgpu.1"
}

# uvm_at_boot ROOT: preflight --next-boot's verdict on /dev/nvidia-uvm at
# boot for a host without nvidia-uvm loaded, reading units under ROOT.
uvm_at_boot() {
	mkdir -p "$work/pf/pve/lxc" "$work/pf/lxc"
	printf 'arch: amd64\nhostname: ct\nunprivileged: 1\ndev0: /dev/nvidia0\ndev1: /dev/nvidia-uvm\n' \
		>"$work/pf/pve/lxc/101.conf"
	"$root/usr/bin/lxgpu" --host "$examples/pve-uvm-not-loaded.yaml" --pve-dir "$work/pf/pve" \
		--lxc-path "$work/pf/lxc" --cgroup-root "$work/pf/none" preflight --next-boot \
		--kernel 6.8.12-4-pve --root "$1" --format json >"$work/pf.json"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["next_boot"]["uvm_at_boot"])' \
		"$work/pf.json"
}

t_preflight_sees_unit() {
	mkdir -p "$work/empty-root"
	# Without the package nothing makes the node; with it, the unit dpkg enabled.
	[ "$(uvm_at_boot "$work/empty-root")" = False ] || { cat "$work/pf.json"; return 1; }
	[ "$(uvm_at_boot "$root")" = True ] || { cat "$work/pf.json"; return 1; }
}

check "a copy of the source tree" t_copy
check "dpkg-buildpackage -us -uc -b builds the .deb" t_build
check "the source tree got none of the build" t_source_clean
check "lintian: no errors" t_lintian
check "Depends: libudev1, libyaml-0-2, libc6 (shlibs) and libarchive13 (dlopen)" t_depends
check "the package holds the files meson install does" t_same_as_meson
check "dpkg --root installs it into a scratch root" t_install_root
check "the installed binary runs" t_runs
check "units installed; the nodes unit is the one the binary prints" t_units
check "units enabled in the root by the maintainer scripts" t_enabled
check "bash/zsh completion and the man page installed" t_completion_man
check "preflight --next-boot --root: the enabled boot unit makes uvm" t_preflight_sees_unit
tap_finish
