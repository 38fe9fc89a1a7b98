#!/bin/sh
# Benchmark: `lxgpu doctor --kmsg` on saved kernel logs of N and 5N lines,
# against `grep -c` of the same file (a pass over the text with one
# pattern), measured in the same run: the growth N -> 5N (linear ~5; a
# matcher that compares messages pairwise shows ~25) and the ratio to grep
# per line. Three logs: a failure repeated (one row's messages about one
# GPU: i915 FIFO underruns, a row that counts only from ten), one message
# per row family (AER, ring timeouts, Xids, firmware, nvidia-modeset's
# GPU:N, vfio-pci with vgaarb) in turn, and clean
# boot noise that matches no row. CPU time (user + system, from wait4),
# best of RUNS. No pass/fail threshold.
# Usage: bench/doctor-kmsg.sh [BUILD_DIR] [LINES] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
lines=${2:-20000}
runs=${3:-3}
lxgpu=$build/lxgpu
[ -x "$lxgpu" ] || { echo "bench/doctor-kmsg.sh: no $lxgpu (build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$lines" "$runs" "$lxgpu" "$root/examples/hosts/pve-rtx-4090.yaml" "$work" <<'PY'
import os, sys, time

lines, runs, lxgpu, host, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
kinds = {
    "repeated": ["i915 0000:00:02.0: [drm] *ERROR* CPU pipe A FIFO underrun"],
    "mixed": [
        "pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0",
        "amdgpu 0000:03:00.0: [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=1, emitted seq=2",
        "NVRM: Xid (PCI:0000:01:00): 31, pid=1234, name=python3, Ch 00000008",
        "i915 0000:00:02.0: Direct firmware load for i915/adlp_dmc.bin failed with error -2",
        "nvidia-modeset: ERROR: GPU:0: Error while waiting for GPU progress: 0x0000c57d:0 2:0:4048:4040",
        "vfio-pci 0000:0a:00.0: vgaarb: changed VGA decodes: olddecodes=io+mem,decodes=io+mem:owns=none",
        "vfio-pci 0000:0a:00.0: not ready 65535ms after FLR; giving up",
    ],
    "clean": [
        "usb 1-1: new high-speed USB device number 2 using xhci_hcd",
        "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode",
        "nvidia 0000:01:00.0: vgaarb: changed VGA decodes: olddecodes=io+mem,decodes=none:owns=none",
    ],
}
devnull = os.open(os.devnull, os.O_WRONLY)


def cpu(argv):
    """CPU seconds (user + system) of one run of argv; exits on a failure."""
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # doctor exits 1 when it has findings
        sys.exit("bench/doctor-kmsg.sh: %s exited %d" % (" ".join(argv), code))
    return ru.ru_utime + ru.ru_stime


print("%-9s %8s %12s %12s %10s" % ("log", "lines", "doctor s", "grep -c s", "doctor/grep"))
for kind, msgs in kinds.items():
    times = []
    for n in (lines, 5 * lines):
        path = os.path.join(work, "%s-%d.log" % (kind, n))
        with open(path, "w") as f:
            for i in range(n):
                f.write("[%6d.%06d] %s\n" % (i // 1000, i % 1000000, msgs[i % len(msgs)]))
        doctor = min(cpu([lxgpu, "--host", host, "doctor", "--kmsg", path, "--format", "json"]) for _ in range(runs))
        grep = min(cpu(["/bin/grep", "-c", "ERROR", path]) for _ in range(runs))
        times.append(doctor)
        print("%-9s %8d %12.3f %12.3f %10.0f" % (kind, n, doctor, grep, doctor / max(grep, 1e-3)))
    print("%-9s growth %d -> %d lines: %.1f (linear ~5)" % (kind, lines, 5 * lines, times[1] / max(times[0], 1e-3)))
PY
