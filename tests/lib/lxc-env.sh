# Shared setup of the real-LXC tests (and bench/soak.sh): what they need, a
# scratch LXC path whose containers are stopped and destroyed when the test
# exits, and the busybox containers they start there: the config lines this
# sandbox needs, pve-container's cgroup keys and init, unprivileged ones.

# lxc_require WHAT NEED...: root and each NEED (a command, or a file when it
# starts with /). Without them: a TAP skip, or with CI=true a bail-out
# naming WHAT (a layer never skips in CI). With them, every TAP line names
# the LXC version it ran on (tap_prefix: tests/lib/in-lxc-root.sh runs a
# test with another version's LXC).
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
	if [ -z "$missing" ]; then
		tap_prefix="LXC $(lxc-start --version): "
		return 0
	fi
	echo "# needs:$missing (Debian packages lxc, busybox-static, util-linux, jq, strace; run as root)"
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $what cannot run in CI"
		exit 1
	fi
	echo "1..0 # SKIP needs:$missing"
	exit 0
}

# lxc_cgroup_v1_here: whether this machine can run the real-LXC tests'
# "cgroup v1" half, which needs LXC to use the v1 devices controller: a
# hybrid or v1 host (FACTS section 7: /sys/fs/cgroup a tmpfs with a v1
# "devices" hierarchy). The v2 half runs on either (a cgroup2 mount in a
# private mount namespace). Prints the reason when it cannot.
lxc_cgroup_v1_here() {
	awk '$5 == "/sys/fs/cgroup" { root = $0 }
		$5 ~ "^/sys/fs/cgroup/" { split($0, p, " - "); split(p[2], f, " ")
			if (f[1] == "cgroup" && ("," f[3] ",") ~ /,devices,/) dev = 1 }
		END {
			n = split(root, a, " - "); split(a[n], f, " ")
			if (f[1] == "cgroup2") { print "this host is pure cgroup v2 (cgroup2 at /sys/fs/cgroup): LXC has no v1 devices controller here; run on a hybrid host (boot with systemd.unified_cgroup_hierarchy=0), FACTS section 7"; exit 1 }
			if (!dev) { print "no cgroup v1 devices hierarchy is mounted under /sys/fs/cgroup"; exit 1 }
		}' /proc/self/mountinfo
}

# lxc_layouts: the cgroup layouts a test with a v1 and a v2 half runs:
# LXGPU_LXC_LAYOUTS when set (in-lxc-root.sh's roots have a pure cgroup2
# hierarchy only), else "v2" on a pure cgroup v2 host (cgroup2 at
# /sys/fs/cgroup: a Debian 13 or Proxmox VE 9 machine, where no v1 exists
# to test; said on stderr) and "v1 v2" elsewhere. A v1 half that cannot run
# on a host that is not pure v2 is the caller's skip, which CI=true fails.
# LXGPU_LXC_V2_IN_ROOTS=1 (the plain build's suite, where the LXC 6.0 and
# 7.0 roots run every v2 half): "v1" only on a host with v1.
lxc_layouts() {
	if [ -n "${LXGPU_LXC_LAYOUTS:-}" ]; then
		echo "$LXGPU_LXC_LAYOUTS"
	elif awk '$5 == "/sys/fs/cgroup" { split($0, p, " - "); split(p[2], f, " "); t = f[1] }
		END { exit t != "cgroup2" }' /proc/self/mountinfo; then
		echo "# the cgroup v1 halves are not run: this host is pure cgroup v2, as every Proxmox VE 9 node" >&2
		echo "v2"
	elif [ "${LXGPU_LXC_V2_IN_ROOTS:-}" = 1 ]; then
		echo "# the v2 halves run with LXC 6.0 and 7.0 (lxc-*-lxc6, lxc-*-lxc7), the v1 halves here" >&2
		echo "v1"
	else
		echo "v1 v2"
	fi
}

# lxc_own_subids RANGE... -- SCRIPT ARGS...: the rest of the test with
# subordinate ids of its own. Where newuidmap and newgidmap are on PATH,
# LXC maps an unprivileged container's ids with them, also as root, and
# they allow only the ranges /etc/subuid and /etc/subgid give root (FACTS
# section 10): then SCRIPT is run again in a private mount namespace in
# which scratch files giving root each RANGE ("100000:65536") are bound
# over /etc/subuid and /etc/subgid. The machine's files are never read or
# changed; without the tools LXC writes the maps itself and nothing is done.
lxc_own_subids() {
	lxc_ranges=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		lxc_ranges="$lxc_ranges $1"
		shift
	done
	shift
	[ -z "${LXGPU_OWN_SUBIDS:-}" ] || return 0
	command -v newuidmap >/dev/null 2>&1 && command -v newgidmap >/dev/null 2>&1 || return 0
	[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 || return 0
	[ -f /etc/subuid ] && [ -f /etc/subgid ] || {
		echo "Bail out! newuidmap is installed but /etc/subuid or /etc/subgid is not a file to bind over"
		exit 1
	}
	LXGPU_OWN_SUBIDS=$(mktemp -d /tmp/lxgpu-subids-XXXXXX)
	export LXGPU_OWN_SUBIDS
	for lxc_r in $lxc_ranges; do
		echo "root:$lxc_r" >>"$LXGPU_OWN_SUBIDS/subuid"
		echo "root:$lxc_r" >>"$LXGPU_OWN_SUBIDS/subgid"
	done
	unshare -m --propagation private sh -c 'mount --bind "$LXGPU_OWN_SUBIDS/subuid" /etc/subuid &&
		mount --bind "$LXGPU_OWN_SUBIDS/subgid" /etc/subgid && exec sh "$@"' sh "$@"
	lxc_rc=$?
	rm -rf "$LXGPU_OWN_SUBIDS"
	exit $lxc_rc
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

# lxc_unprivileged NAME: container NAME in $lxcpath made unprivileged: the
# map lxc_shift_rootfs shifts into, appended to its config, and its rootfs
# shifted.
lxc_unprivileged() {
	printf '%s\n' 'lxc.idmap = u 0 100000 65536' 'lxc.idmap = g 0 100000 65536' \
		>>"$lxcpath/$1/config"
	lxc_shift_rootfs "$lxcpath" "$1"
}

# lxc_sandbox_create NAME [--own-libs] [--pve]: a busybox container NAME in
# $lxcpath ($conf its config) without the template's lines this sandbox
# cannot give (network, AppArmor, ttys, console: lxc_sandbox_conf prints
# what goes instead). --own-libs drops the template's binds of the host's
# library dirs (the container brings its own loader); --pve its
# lxc.mount.auto (lxc_pve_conf has pve-container's). On failure
# lxc-create's output is printed.
lxc_sandbox_create() {
	lxc_ct=$1
	shift
	lxc_drop='/^lxc\.net\./d; /^lxc\.apparmor\./d; /^lxc\.tty\.max/d; /^lxc\.console/d'
	for lxc_opt in "$@"; do
		case $lxc_opt in
		--own-libs) lxc_drop="$lxc_drop; /^lxc\.mount\.entry = \/\(usr\/\)\{0,1\}lib/d" ;;
		--pve) lxc_drop="$lxc_drop; /^lxc\.mount\.auto/d" ;;
		*) echo "lxc_sandbox_create: unknown option $lxc_opt"; return 1 ;;
		esac
	done
	lxc-create -P "$lxcpath" -n "$lxc_ct" -t busybox >"$work/$lxc_ct.create.log" 2>&1 ||
		{ cat "$work/$lxc_ct.create.log"; return 1; }
	conf="$lxcpath/$lxc_ct/config"
	sed -i "$lxc_drop" "$conf"
}

# lxc_sandbox_conf: the config lines every sandbox container gets: no
# network, AppArmor or console. After common.conf where there is one: it
# sets ttys.
lxc_sandbox_conf() {
	printf '%s\n' 'lxc.net.0.type = empty' 'lxc.apparmor.profile = unconfined' \
		'lxc.tty.max = 0' 'lxc.console.path = none'
}

# lxc_basic_devices DEVKEY: a deny-all device list with the basics LXC's
# init needs (as common.conf has them), under DEVKEY (lxc.cgroup.devices or
# lxc.cgroup2.devices).
lxc_basic_devices() {
	echo "$1.deny = a"
	for lxc_dev in 1:3 1:5 1:7 1:8 1:9 5:0 5:2 '136:*'; do
		echo "$1.allow = c $lxc_dev rwm"
	done
}

# lxc_pve_conf ID: container ID's cgroup keys as pve-container writes them
# (lxc.cgroup.relative = 0, lxc/ID, the init in ns), cgroup automounts
# forced (LXC skips them in a cgroup namespace unless forced) and the init
# lxc_pve_init writes.
lxc_pve_conf() {
	printf '%s\n' 'lxc.cgroup.relative = 0' "lxc.cgroup.dir.monitor = lxc.monitor/$1" \
		"lxc.cgroup.dir.container = lxc/$1" 'lxc.cgroup.dir.container.inner = ns' \
		'lxc.mount.auto = cgroup:rw:force proc:mixed sys:mixed' 'lxc.init.cmd = /sbin/pveinit'
}

# lxc_pve_init ID LAST: container ID's /sbin/pveinit, which moves itself to
# init.scope as systemd moves PID 1 (v2: one hierarchy; v1: the named
# systemd one, and the unified one on a hybrid host), then runs LAST.
lxc_pve_init() {
	cat >"$lxcpath/$1/rootfs/sbin/pveinit" <<INIT
#!/bin/sh
for d in /sys/fs/cgroup /sys/fs/cgroup/systemd /sys/fs/cgroup/unified; do
	[ -e \$d/cgroup.procs ] || continue
	mkdir -p \$d/init.scope && echo \$\$ >\$d/init.scope/cgroup.procs
done
$2
INIT
	chmod 755 "$lxcpath/$1/rootfs/sbin/pveinit"
}
