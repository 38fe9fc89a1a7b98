#!/bin/sh
# Benchmark: what starting lxgpu costs. `lxgpu --version` and `lxgpu generate`
# on the 8-GPU and the 1-GPU example hosts against /bin/true, measured in the
# same run, and generate with libarchive preloaded (what every run paid when
# lxgpu linked it; libarchive, libudev and libyaml are dlopen()ed where they
# are used now, src/util/dl.c). Per run: wall time and CPU time
# (user + system of the child, from wait4: steadier than wall time on a loaded
# machine), the libraries the loader maps, and the ratios to /bin/true
# (target: generate at most 2x). The commands take turns and each row is a
# median, so other load on the machine falls on all rows alike. No pass/fail
# threshold.
# Usage: bench/start-cost.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-500}
lxgpu=$build/lxgpu
host=$root/examples/hosts/pve-8x-rtx-pro-6000.yaml
small=$root/examples/hosts/pve-rtx-4090.yaml
[ -x "$lxgpu" ] || { echo "bench/start-cost.sh: no $lxgpu (build first)" >&2; exit 2; }
archive=$(ldconfig -p | sed -n 's/^[[:space:]]*libarchive\.so\.13 .*=> //p' | head -n 1)

# libs CMD...: how many shared objects the dynamic loader maps for one run.
libs() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'generating link map' || true
}
echo "libraries mapped: lxgpu --version $(libs "$lxgpu" --version)," \
	"generate $(libs "$lxgpu" --host "$host" generate)${archive:+, generate with libarchive preloaded $(LD_PRELOAD=$archive libs "$lxgpu" --host "$host" generate)}"

python3 - "$runs" "$lxgpu" "$host" "$archive" "$small" <<'PY'
import os, statistics, sys, time

runs, lxgpu, host, archive, small = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
devnull = os.open(os.devnull, os.O_WRONLY)


def run_once(argv, env):
    """Wall and CPU (user + system, from wait4) seconds of one run of argv."""
    start = time.monotonic()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench/start-cost.sh: %s failed" % " ".join(argv))
    return wall, ru.ru_utime + ru.ru_stime


rows = [("/bin/true", ["/bin/true"], None),
        ("lxgpu --version", [lxgpu, "--version"], None),
        ("lxgpu generate (8-GPU host)", [lxgpu, "--host", host, "generate"], None),
        ("lxgpu generate (1-GPU host)", [lxgpu, "--host", small, "generate"], None)]
if archive:
    rows.append(("  with libarchive preloaded", [lxgpu, "--host", host, "generate"],
                 {"LD_PRELOAD": archive}))
envs = [dict(os.environ, **(env or {})) for _, _, env in rows]
for (_, argv, _), env in zip(rows, envs):
    run_once(argv, env)  # warms the page cache
# Round robin, so that the machine's other load falls on every row alike;
# medians, so that a burst of it does not move them.
samples = [[] for _ in rows]
for _ in range(runs):
    for i, ((_, argv, _), env) in enumerate(zip(rows, envs)):
        samples[i].append(run_once(argv, env))
results = [(name, (statistics.median(w for w, _ in s), statistics.median(c for _, c in s)))
           for (name, _, _), s in zip(rows, samples)]
base_wall, base_cpu = results[0][1]
print("runs: %d each, round robin; medians" % runs)
print("%-30s %10s %10s %8s %8s" % ("", "wall us", "cpu us", "wall x", "cpu x"))
for name, (wall, cpu) in results:
    print("%-30s %10.0f %10.0f %8.2f %8.2f" % (name, wall * 1e6, cpu * 1e6, wall / base_wall,
                                                 cpu / base_cpu if base_cpu else 0))
print("target: generate at most 2x /bin/true")
PY
