# Shared setup of the real-LXC tests: what they need, and a scratch LXC
# path whose containers are stopped and destroyed when the test exits.

# lxc_require WHAT NEED...: root and each NEED (a command, or a file when it
# starts with /). Without them: a TAP skip, or with CI=true a bail-out
# naming WHAT (a layer never skips in CI).
lxc_require() {
	what=$1
	shift
	missing=""
	[ "$(id -u)" -eq 0 ] || missing="root"
	for need in "$@"; do
		case $need in
		/*) [ -e "$need" ] || missing="$missing $need" ;;
		*) command -v "$need" >/dev/null 2>&1 || missing="$missing $need" ;;
		esac
	done
	[ -z "$missing" ] && return 0
	echo "# needs:$missing (Debian packages lxc, busybox-static, util-linux, jq, strace; run as root)"
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $what cannot run in CI"
		exit 1
	fi
	echo "1..0 # SKIP needs:$missing"
	exit 0
}

# lxc_workdir PREFIX: $work (a scratch directory, 0755 so that unprivileged
# containers can reach their rootfs) and $lxcpath inside it. On exit every
# container there is stopped and destroyed and $work removed, unless
# LXGPU_KEEP_WORK is set (then its path is printed).
lxc_workdir() {
	work=$(mktemp -d "/tmp/$1-XXXXXX")
	chmod 755 "$work"
	lxcpath="$work/lxc"
	mkdir -p "$lxcpath"
	trap lxc_cleanup EXIT
}

lxc_cleanup() {
	for d in "$lxcpath"/*/; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		lxc-stop -P "$lxcpath" -n "$n" -k >/dev/null 2>&1
		lxc-destroy -P "$lxcpath" -n "$n" -f >/dev/null 2>&1
	done
	if [ -n "${LXGPU_KEEP_WORK:-}" ]; then
		echo "# kept $work"
		return
	fi
	rm -rf "$work"
}

# lxc_shift_rootfs LXCPATH NAME: shift the owners of the container's rootfs
# into the map `lxc.idmap = u|g 0 100000 65536`, as an unprivileged
# container's rootfs is, and let the mapped root reach it.
lxc_shift_rootfs() {
	find "$1/$2/rootfs" | while read -r f; do
		chown -h "$(($(stat -c %u "$f") + 100000)):$(($(stat -c %g "$f") + 100000))" "$f"
	done
	chmod 755 "$1" "$1/$2"
}
