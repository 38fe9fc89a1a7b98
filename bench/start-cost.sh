#!/bin/sh
# Benchmark: what starting lxgpu costs. `lxgpu --version` and `lxgpu generate`
# on the 8-GPU example host against /bin/true, measured in the same run, and
# generate with libarchive preloaded (what every run paid when lxgpu linked it;
# it is dlopen()ed now, src/util/targz.c). Per run: wall time and CPU time
# (user + system of the child, from wait4: steadier than wall time on a loaded
# machine), the libraries the loader maps, and the ratios to /bin/true
# (target: generate at most 2x). No pass/fail threshold.
# Usage: bench/start-cost.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-500}
lxgpu=$build/lxgpu
host=$root/examples/hosts/pve-8x-rtx-pro-6000.yaml
[ -x "$lxgpu" ] || { echo "bench/start-cost.sh: no $lxgpu (build first)" >&2; exit 2; }
archive=$(ldconfig -p | sed -n 's/^[[:space:]]*libarchive\.so\.13 .*=> //p' | head -n 1)

# libs CMD...: how many shared objects the dynamic loader maps for one run.
libs() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'generating link map' || true
}
echo "libraries mapped: lxgpu --version $(libs "$lxgpu" --version)," \
	"generate $(libs "$lxgpu" --host "$host" generate)${archive:+, generate with libarchive preloaded $(LD_PRELOAD=$archive libs "$lxgpu" --host "$host" generate)}"

python3 - "$runs" "$lxgpu" "$host" "$archive" <<'PY'
import os, sys, time

runs, lxgpu, host, archive = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
devnull = os.open(os.devnull, os.O_WRONLY)


def measure(argv, env=None):
    """Mean wall and CPU (user + system) seconds per run of argv."""
    env = dict(os.environ, **(env or {}))
    wall = cpu = 0.0
    for i in range(runs + 1):  # the first run warms the page cache
        start = time.monotonic()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status, ru = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("bench/start-cost.sh: %s failed" % " ".join(argv))
        if i:
            wall += time.monotonic() - start
            cpu += ru.ru_utime + ru.ru_stime
    return wall / runs, cpu / runs


rows = [("/bin/true", ["/bin/true"], None),
        ("lxgpu --version", [lxgpu, "--version"], None),
        ("lxgpu generate (8-GPU host)", [lxgpu, "--host", host, "generate"], None)]
if archive:
    rows.append(("  with libarchive preloaded", [lxgpu, "--host", host, "generate"],
                 {"LD_PRELOAD": archive}))
results = [(name, measure(argv, env)) for name, argv, env in rows]
base_wall, base_cpu = results[0][1]
print("runs: %d" % runs)
print("%-30s %10s %10s %8s %8s" % ("", "wall us", "cpu us", "wall x", "cpu x"))
for name, (wall, cpu) in results:
    print("%-30s %10.0f %10.0f %8.2f %8.2f" % (name, wall * 1e6, cpu * 1e6, wall / base_wall,
                                                 cpu / base_cpu if base_cpu else 0))
print("target: generate at most 2x /bin/true")
PY
