#!/bin/sh
# doctor --probe with stand-in libcuda.so.1 libraries built here, each
# returning one CUresult from cuInit (found through LD_LIBRARY_PATH, as the
# loader finds the real one), on a made-up live host (tests/lib/proc-host.sh:
# the open 590 module, nvidia_uvm loaded) whose uvm_disable_hmm and kernel
# config are planted. The codes' names and meanings are cuda.h's; which
# host cause each code points to is written here by hand from the public
# reports (docs/findings.md LXG132, LXG133).
# Usage: run-probe.sh LXGPU SRCDIR (TAP)
set -u
lxgpu=$1 src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/lib/tap.sh"
. "$src/tests/lib/lxjson.sh"
. "$src/tests/lib/proc-host.sh"

cc=${CC:-cc}
# stand_in NAME CODE [EXTRA C]: DIR $work/lib-NAME with a libcuda.so.1
stand_in() {
	mkdir -p "$work/lib-$1"
	printf '#include <unistd.h>\nint cuInit(unsigned f) { (void)f; %s return %s; }\nint cuDeviceGetCount(int *n) { *n = 8; return 0; }\n' \
		"${3:-}" "$2" >"$work/lib-$1/s.c"
	"$cc" -shared -fPIC -o "$work/lib-$1/libcuda.so.1" "$work/lib-$1/s.c"
}
# host HMM(Y|N) [MODULES]: the made-up host; MODULES replaces /proc/modules
host() {
	h=$work/host
	rm -rf "$h" && proc_host "$h" 511 3 || return 1
	mkdir -p "$h/sys/module/nvidia_uvm/parameters" "$h/boot" "$h/run"
	echo "$1" >"$h/sys/module/nvidia_uvm/parameters/uvm_disable_hmm"
	echo 6.8.12-15-pve >"$h/proc/sys/kernel/osrelease"
	printf 'CONFIG_HMM_MIRROR=y\nCONFIG_DEVICE_PRIVATE=y\n' >"$h/boot/config-6.8.12-15-pve"
	if [ -n "${2:-}" ]; then printf '%s' "$2" >"$h/proc/modules"; fi
	# the nodes as the driver makes them (mknod: root only)
	if [ "$(id -u)" = 0 ]; then
		mknod -m 0666 "$h/dev/nvidia3" c 195 3 && mknod -m 0666 "$h/dev/nvidiactl" c 195 255 &&
			mknod -m 0666 "$h/dev/nvidia-uvm" c 511 0 && mknod -m 0666 "$h/dev/nvidia-uvm-tools" c 511 1
	fi
}
# probe LIB [ARGS]: doctor --probe on the host with the stand-in LIB, JSON in $work/j
probe() {
	lib=$1
	shift
	LD_LIBRARY_PATH="$work/lib-$lib" lx_json sev "$work/j" "$lxgpu" --proc-dir "$h/proc" \
		--dev-dir "$h/dev" --sys-dir "$h/sys" --run-dir "$h/run" --boot-dir "$h/boot" \
		--firmware-dir "$work/none" doctor --kmsg "$src/tests/doctor/kmsg/clean-public.log" \
		--probe --format json "$@"
}

stand_in init3 3
stand_in ok 0
stand_in unknown 999
stand_in notready 802
stand_in hang 0 'sleep(30);'
stand_in nodev 100
# cuInit 0 and no device (cuDeviceGetCount 0)
mkdir -p "$work/lib-zero"
printf 'int cuInit(unsigned f) { (void)f; return 0; }\nint cuDeviceGetCount(int *n) { *n = 0; return 0; }\n' >"$work/lib-zero/s.c"
"$cc" -shared -fPIC -o "$work/lib-zero/libcuda.so.1" "$work/lib-zero/s.c"

t_hmm3() {
	host N && probe init3 || return 1
	jq_ok "$work/j" '.probe.cu_init == 3 and .probe.cu_init_name == "CUDA_ERROR_NOT_INITIALIZED" and
		(.probe.library | endswith("lib-init3/libcuda.so.1")) and
		([.findings[] | select(.code == "LXG132" and .severity == "error" and (.message | startswith("cuInit 3 and HMM on: ")))] | length) == 1 and
		([.findings[] | select(.code == "LXG133" and .severity == "error" and (.message | test("with 3 \\(CUDA_ERROR_NOT_INITIALIZED\\): .*LXG132")) and (.evidence | test("cuInit\\(0\\) = 3")))] | length) == 1'
}
check "cuInit 3 and HMM on: LXG132 an error, LXG133 names it, the code and name as evidence" t_hmm3

t_plain3() {
	host Y && probe init3 || return 1
	jq_ok "$work/j" '([.findings[] | select(.code == "LXG132")] | length) == 0 and
		([.findings[] | select(.code == "LXG133" and .severity == "error" and (.message | test("no cause")))] | length) == 1'
}
if [ "$(id -u)" = 0 ]; then
	check "cuInit 3 with HMM off and every node there: LXG133, no cause claimed, no LXG132" t_plain3
else
	skip "cuInit 3 with HMM off and every node there: LXG133, no cause claimed, no LXG132" "mknod needs root"
fi
t_nonode3() {
	host Y && rm -f "$h/dev/nvidia-uvm" && probe init3 || return 1
	jq_ok "$work/j" '([.findings[] | select(.code == "LXG133" and (.message | test("/dev/nvidia-uvm is missing \\(LXG122\\)")))] | length) == 1'
}
check "cuInit 3 with HMM off and no /dev/nvidia-uvm: LXG133 names LXG122" t_nonode3

t_ok() {
	host N && probe ok || return 1
	jq_ok "$work/j" '.probe.cu_init == 0 and .probe.devices == 8 and
		([.findings[] | select(.code == "LXG133" and .severity == "info" and (.message | test("8 devices")))] | length) == 1 and
		([.findings[] | select(.code == "LXG132" and .severity == "info")] | length) == 1'
}
check "cuInit 0, 8 devices: LXG133 a note, HMM on only a note" t_ok

# No CUDA device with a GPU bound to nvidia and no MIG instance: a GPU in
# MIG mode without a GPU instance is no CUDA device (NVIDIA's MIG user
# guide: with MIG on, CUDA runs on MIG devices only), which only NVML can
# tell; the finding says to check it with nvidia-smi.
t_mig100() {
	host Y && probe nodev || return 1
	jq_ok "$work/j" '.probe.cu_init == 100 and
		([.findings[] | select(.code == "LXG133" and .severity == "error" and
			(.message | test("100 \\(CUDA_ERROR_NO_DEVICE\\): .*MIG mode without a GPU instance")) and
			(.fix | test("mig.mode.current")))] | length) == 1'
}
check "cuInit 100 with the GPU bound to nvidia and no MIG instance: LXG133 says to check MIG mode" t_mig100
t_mig0() {
	host Y && probe zero || return 1
	jq_ok "$work/j" '.probe.cu_init == 0 and .probe.devices == 0 and
		([.findings[] | select(.code == "LXG133" and .severity == "warning" and
			(.message | test("CUDA sees 0 devices, 1 GPU is bound to nvidia")))] | length) == 1'
}
check "cuInit 0 and 0 devices with a GPU bound to nvidia: LXG133 a warning, MIG to check" t_mig0

t_uvm999() {
	host Y 'nvidia 11563008 0 - Live 0x0 (POE)
' && probe unknown || return 1
	jq_ok "$work/j" '([.findings[] | select(.code == "LXG133" and (.message | test("999 \\(CUDA_ERROR_UNKNOWN\\): .*nvidia_uvm is not loaded \\(LXG020\\)")))] | length) == 1'
}
check "cuInit 999 without nvidia_uvm: LXG133 names LXG020" t_uvm999

t_802() {
	host Y && probe notready || return 1
	jq_ok "$work/j" '([.findings[] | select(.code == "LXG133" and (.message | test("802 \\(CUDA_ERROR_SYSTEM_NOT_READY\\): .*Fabric Manager")))] | length) == 1'
}
check "cuInit 802: LXG133 names Fabric Manager" t_802

t_hang() {
	host Y && probe hang --probe-timeout 1 || return 1
	jq_ok "$work/j" '.probe.timed_out == true and .probe.cu_init == null and
		([.findings[] | select(.code == "LXG133" and .severity == "error" and (.message | test("did not return within 1 s")))] | length) == 1'
}
check "a cuInit that hangs: killed at --probe-timeout, LXG133" t_hang

t_nolib() {
	mkdir -p "$work/lib-none"
	host Y && probe none || return 1
	jq_ok "$work/j" '.probe.load_error != null and ([.findings[] | select(.code == "LXG133" and (.message | test("could not be loaded")))] | length) == 1'
}
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	skip "no libcuda.so.1: LXG133 says it could not be loaded" "this machine has a real libcuda.so.1"
else
	check "no libcuda.so.1: LXG133 says it could not be loaded" t_nolib
fi

t_host() {
	"$lxgpu" --host "$src/examples/hosts/pve-8x-rtx-pro-6000.yaml" doctor --probe >"$work/out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && grep -q -- '--probe' "$work/out" || { echo "exit $rc"; cat "$work/out"; return 1; }
}
check "--probe with --host: a usage error (exit 2)" t_host
tap_finish
