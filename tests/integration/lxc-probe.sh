#!/bin/sh
# Integration: doctor --probe CTID asks CUDA inside the running container,
# with the container's own libcuda.so.1, as the container's root in its
# namespaces (issue 31 item 2). Stand-in libraries built here decide the
# answers: the host's (through LD_LIBRARY_PATH, as in doctor-probe) returns
# 0 (CUDA_SUCCESS); the container's, only the container's ld.so.cache
# knows (/opt/standin, its ld.so.conf), returns 100 (CUDA_ERROR_NO_DEVICE)
# when it runs as the container sees its root (uid 0, the uid_map LXC
# wrote from lxc.idmap), with the container's environment (lxc.environment)
# and none of the user's, and no fd but stdio (on /dev/null) and the reply
# pipe; else another code naming what was wrong. It prints to stdout and
# stderr, which must not reach lxgpu's output. A privileged container and
# an unprivileged one (lxc.idmap u 0 100000 65536), and a privileged one
# with pve-container's cgroup layout (the seed's case).
# Usage: lxc-probe.sh LXGPU SRCDIR   (TAP; root, lxc, busybox, cc, ldconfig, jq)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)

. "$src/tests/lib/lxc-env.sh"
# its unprivileged container maps 100000:65536 (lxc_unprivileged)
lxc_own_subids 100000:65536 -- "$0" "$@"
lxc_require "the in-container probe test" lxc-create lxc-start lxc-stop lxc-destroy lxc-info \
	lxc-wait busybox cc ldconfig jq
lxc_workdir lxgpu-probe
. "$src/tests/lib/tap.sh"
. "$src/tests/lib/lxjson.sh"
multiarch=usr/lib/x86_64-linux-gnu
mkdir -p "$work/pve/lxc" "$work/host-lib"

# The host's stand-in: cuInit 0, 8 devices.
printf 'int cuInit(unsigned f) { (void)f; return 0; }\nint cuDeviceGetCount(int *n) { *n = 8; return 0; }\n' \
	>"$work/host.c"
cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$work/host-lib/libcuda.so.1" "$work/host.c" ||
	{ echo "Bail out! cc cannot build the stand-in"; exit 1; }

# The container's: 100 when all holds; 101 another uid, 102 another
# uid_map (HOSTUID: host uid of its root), 103 the user's environment or
# not the container's, 104 an fd open beyond 0-2 and the pipe, 105 a
# stdio fd not /dev/null, 106 another cgroup than its init's (as the
# container's cgroup namespace shows both), 107 other capability sets than
# its init's (lxc.cap.drop makes them differ from a full set). With /hang in the container it
# sleeps 600 s before answering.
cat >"$work/ct.c" <<'STANDIN'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
int cuInit(unsigned f)
{
	(void)f;
	printf("LEAKED-TO-STDOUT\n");
	fflush(stdout);
	fprintf(stderr, "LEAKED-TO-STDERR\n");
	if (getuid() != 0 || geteuid() != 0 || getgid() != 0)
		return 101;
	char line[128] = "";
	FILE *m = fopen("/proc/self/uid_map", "r");
	unsigned long in = 1, out = 1;
	if (!m || !fgets(line, sizeof(line), m) || sscanf(line, "%lu %lu", &in, &out) != 2 ||
	    in != 0 || out != HOSTUID)
		return 102;
	fclose(m);
	const char *mark = getenv("LXGPU_PROBE_MARK");
	if (!mark || strcmp(mark, "container") != 0 || getenv("LXGPU_PROBE_HOST_SECRET"))
		return 103;
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.' && atoi(e->d_name) > 2)
			n++;
	/* the pipe and the directory being read */
	if (!d || n != 2)
		return 104;
	closedir(d);
	for (int fd = 0; fd < 3; fd++) {
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 1 ||
		    minor(st.st_rdev) != 3)
			return 105;
	}
	char self[512] = "", init[512] = "";
	FILE *a = fopen("/proc/self/cgroup", "r"), *b = fopen("/proc/1/cgroup", "r");
	size_t na = a ? fread(self, 1, sizeof(self) - 1, a) : 0, nb = b ? fread(init, 1, sizeof(init) - 1, b) : 0;
	if (!a || !b || na == 0 || na != nb || memcmp(self, init, na) != 0)
		return 106;
	fclose(a);
	fclose(b);
	/* the init's capability sets, none ambient */
	char *caps[2] = {0, 0};
	const char *status[2] = {"/proc/self/status", "/proc/1/status"};
	for (int i = 0; i < 2; i++) {
		static char buf[2][4096];
		FILE *s = fopen(status[i], "r");
		size_t k = s ? fread(buf[i], 1, sizeof(buf[i]) - 1, s) : 0;
		if (s)
			fclose(s);
		buf[i][k] = 0;
		caps[i] = strstr(buf[i], "CapInh:");
		char *end = caps[i] ? strstr(caps[i], "CapAmb:") : NULL;
		if (!end)
			return 107;
		end[strcspn(end, "\n")] = 0;
	}
	if (strcmp(caps[0], caps[1]) != 0)
		return 107;
	if (access("/hang", F_OK) == 0)
		sleep(600);
	return 100;
}
int cuDeviceGetCount(int *n) { *n = 0; return 100; }
STANDIN

# make_ct NAME HOSTUID [pve]: a busybox container with its own loader and
# libc, the stand-in in /opt/standin (only its ld.so.conf names it), its
# init's environment marked; unprivileged when HOSTUID is 100000; with pve
# pve-container's cgroup keys (lxc/NAME, the init moved to ns/init.scope).
make_ct() {
	name=$1
	if [ "${3:-}" = pve ]; then
		lxc_sandbox_create "$name" --own-libs --pve || return 1
		{ lxc_sandbox_conf; lxc_pve_conf "$name"; } >>"$conf"
		lxc_pve_init "$name" 'exec /sbin/init'
	else
		lxc_sandbox_create "$name" --own-libs || return 1
		lxc_sandbox_conf >>"$conf"
	fi
	printf '%s\n' 'lxc.environment = LXGPU_PROBE_MARK=container' 'lxc.cap.drop = sys_module sys_time' >>"$conf"
	root=$lxcpath/$name/rootfs
	mkdir -p "$root/$multiarch" "$root/lib64" "$root/opt/standin"
	cp /lib64/ld-linux-x86-64.so.2 "$root/lib64/" &&
		cp "$(cc -print-file-name=libc.so.6)" "$root/$multiarch/libc.so.6" || return 1
	printf '/opt/standin\n/%s\n' "$multiarch" >"$root/etc/ld.so.conf"
	cc -shared -fPIC -DHOSTUID="$2" -Wl,-soname,libcuda.so.1 -o "$root/opt/standin/libcuda.so.1" \
		"$work/ct.c" && ldconfig -r "$root" || return 1
	[ "$2" = 0 ] || lxc_unprivileged "$name"
}

lx() {
	LD_LIBRARY_PATH="$work/host-lib" LXGPU_PROBE_MARK=host LXGPU_PROBE_HOST_SECRET=1 \
		"$lxgpu" --pve-dir "$work/pve" --lxc-path "$lxcpath" doctor "$@" \
		--kmsg "$src/tests/doctor/kmsg/clean-public.log" --probe --probe-timeout 20 --format json
}

# stopped CT: no probe inside, said as a note; the host's still asked
t_stopped() {
	lx_json sev "$work/s.json" lx "$1" || return 1
	jq_ok "$work/s.json" '.probe.cu_init == 0 and .container.probe.running == false and
		.container.probe.cu_init == null and
		([.findings[] | select(.code == "LXG133" and .container == $ct and .severity == "info" and
			(.message | test("not running")))] | length) == 1' --arg ct "$1"
}

t_start() {
	lxc-start -P "$lxcpath" -n "$1" -l DEBUG -o "$work/$1.log" || { tail -20 "$work/$1.log"; return 1; }
	lxc-wait -P "$lxcpath" -n "$1" -s RUNNING -t 10
}

t_pve_layout() {
	pid=$(lxc-info -P "$lxcpath" -n "$1" -p -H) || return 1
	grep -q ":/lxc/$1/ns/init.scope\$" "/proc/$pid/cgroup" || { cat "/proc/$pid/cgroup"; return 1; }
}

# running CT: the container's code, its library's path inside, the host's 0
t_inside() {
	lx_json sev "$work/r.json" lx "$1" || return 1
	jq_ok "$work/r.json" '.probe.cu_init == 0 and .probe.devices == 8 and
		.container.probe.running == true and .container.probe.enter_error == null and
		.container.probe.cu_init == 100 and .container.probe.cu_init_name == "CUDA_ERROR_NO_DEVICE" and
		.container.probe.library == "/opt/standin/libcuda.so.1" and
		([.findings[] | select(.code == "LXG133" and .container == $ct and .severity == "error" and
			(.message | test("in the container with 100 \\(CUDA_ERROR_NO_DEVICE\\)")))] | length) == 1' \
		--arg ct "$1"
}
t_no_leak() {
	! grep -q LEAKED "$work/r.json" "$work/r.json.err" || { grep LEAKED "$work/r.json" "$work/r.json.err"; return 1; }
}

# procs NAME: the processes in the container's init's cgroup, in the
# hierarchy LXC uses here: the cgroup2 one where /sys/fs/cgroup is cgroup2
# (the kernel still lists the v1 hierarchies a hybrid machine has, in which
# LXC did not place the container: their paths name the caller's cgroups),
# else the v1 devices one.
procs() {
	pid=$(lxc-info -P "$lxcpath" -n "$1" -p -H) || return 1
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		dir=/sys/fs/cgroup$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	else
		dir=/sys/fs/cgroup/devices$(awk -F: '$2 ~ /(^|,)devices(,|$)/ { print $3; exit }' "/proc/$pid/cgroup")
	fi
	wc -l <"$dir/cgroup.procs"
}
# a library that hangs inside: killed at --probe-timeout, with every
# process the probe made in the container
t_hang() {
	before=$(procs "$1") || return 1
	touch "$lxcpath/$1/rootfs/hang"
	LD_LIBRARY_PATH="$work/host-lib" "$lxgpu" --pve-dir "$work/pve" --lxc-path "$lxcpath" doctor "$1" \
		--kmsg "$src/tests/doctor/kmsg/clean-public.log" --probe --probe-timeout 2 --format json \
		>"$work/h.json" 2>"$work/h.json.err"
	rm -f "$lxcpath/$1/rootfs/hang"
	jq_ok "$work/h.json" '.container.probe.timed_out == true and .container.probe.cu_init == null and
		([.findings[] | select(.code == "LXG133" and .container == $ct and (.message | test("did not return within 2 s in the container")))] | length) == 1' \
		--arg ct "$1" || return 1
	# SIGKILL to what was left is delivered as the probe's child exits;
	# give the kernel up to 10 s to reap it
	i=0
	while [ "$(procs "$1")" != "$before" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(procs "$1")" = "$before" ] || { echo "processes in the container: $before before, $(procs "$1") after"; return 1; }
}

# What the container's own loader loads for libcuda.so.1 with the
# environment its init has: a dynamic program of the container's run in a
# chroot of its root, with that environment. It prints cuInit's code.
cat >"$work/loader.c" <<'LOADER'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	int (*init)(unsigned) = h ? (int (*)(unsigned))dlsym(h, "cuInit") : NULL;
	printf("%d\n", init ? init(0) : -1);
	return 0;
}
LOADER
cc -o "$work/loader" "$work/loader.c" -ldl || { echo "Bail out! cc cannot build the loader probe"; exit 1; }
printf 'int cuInit(unsigned f) { (void)f; return 46; }\nint cuDeviceGetCount(int *n) { *n = 0; return 46; }\n' \
	>"$work/first.c"

# LD_LIBRARY_PATH=/opt/first in the init's environment, a stand-in there
# returning 46 (CUDA_ERROR_DEVICE_UNAVAILABLE): the container's loader
# takes it before its ld.so.cache's; the probe inside must too.
t_env_path() {
	ct=$1
	root=$lxcpath/$ct/rootfs
	lxc-stop -P "$lxcpath" -n "$ct" -k >/dev/null 2>&1
	echo 'lxc.environment = LD_LIBRARY_PATH=/opt/first' >>"$lxcpath/$ct/config"
	mkdir -p "$root/opt/first" &&
		cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$root/opt/first/libcuda.so.1" "$work/first.c" &&
		cp "$work/loader" "$root/loader" || return 1
	want=$(env -i LD_LIBRARY_PATH=/opt/first "$(command -v chroot)" "$root" /loader 2>&1)
	[ "$want" = 46 ] || { echo "the container's loader gives $want"; return 1; }
	t_start "$ct" || return 1
	lx_json sev "$work/e.json" lx "$ct" || return 1
	jq_ok "$work/e.json" '.container.probe.cu_init == 46 and .container.probe.library == "/opt/first/libcuda.so.1"'
}

for kind in privileged unprivileged pve; do
	ct=$kind
	hostuid=0
	[ $kind != unprivileged ] || hostuid=100000
	check "$kind container with its own stand-in libcuda.so.1 in /opt/standin" make_ct "$ct" "$hostuid" "$kind"
	check "$kind, stopped: no probe inside (LXG133 note), the host's cuInit 0" t_stopped "$ct"
	check "$kind container starts" t_start "$ct"
	[ $kind != pve ] || check "pve: its init is in lxc/pve/ns/init.scope, as pve-container's layout puts it" t_pve_layout "$ct"
	check "$kind, running: cuInit 100 inside (its library, its root, its environment, nothing of the host open), 0 on the host" t_inside "$ct"
	check "$kind: nothing the container's library prints reaches lxgpu's output" t_no_leak
	check "$kind: a library hanging inside is killed at --probe-timeout, nothing of it left in the container" t_hang "$ct"
	check "$kind: LD_LIBRARY_PATH of the init's environment first, as the container's loader (46 from /opt/first)" t_env_path "$ct"
	lxc-stop -P "$lxcpath" -n "$ct" -k >/dev/null 2>&1
done

tap_finish
