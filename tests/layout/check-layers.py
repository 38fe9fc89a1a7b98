#!/usr/bin/env python3
"""The layering the README's Layout section draws, checked on the build.

The folders of src/ in the order the README lists them: a file calls only
functions of its own folder or of folders above it, and no two files call
each other (nm on the objects: what each defines, what each needs); a
header or source includes only headers of its own folder or above.
Usage: check-layers.py SOURCE_ROOT BUILD_ROOT   (TAP output)
"""
import os
import re
import subprocess
import sys

src_root, build_root = sys.argv[1], sys.argv[2]

# The folders, in the README's order (its Layout block, "src/NAME/ ...").
readme = open(os.path.join(src_root, "README.md"), encoding="utf-8").read()
block = readme.split("## Layout", 1)[1].split("```", 2)[1]
order = re.findall(r"^src/(\w+)/", block, re.M)

# Each header's folder: the folder whose files define what it declares.
header_folder = {
    "util": "util", "report": "report", "findings": "report", "host": "host",
    "userspace": "host", "p2p": "host", "topodraw": "host", "cluster": "host", "config": "config",
    "record": "config", "vm": "config", "inject": "inject", "plan": "render",
    "render": "render", "template": "render", "incfile": "render", "access": "access",
    "reconcile": "access", "devprog": "observe", "observe": "observe", "judge": "judge",
    "predict": "predict", "walk": "fleet", "audit": "fleet", "guard": "fleet",
    "doctor": "doctor",
}

n = 0
failed = 0


def check(ok, desc, detail=()):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + f" {n} - {desc}")
    for line in detail:
        print("# " + line)
    failed += 0 if ok else 1


def rank(folder):
    return order.index(folder) if folder in order else -1


folders = sorted(d for d in os.listdir(os.path.join(src_root, "src"))
                 if os.path.isdir(os.path.join(src_root, "src", d)))
check(folders == sorted(order), "the README's Layout names every folder of src/ once",
      [f"src/: {folders}", f"README: {order}"])

# Objects: the library's archive members and the CLI's objects.
objects = {}
lib = os.path.join(build_root, "liblxgpu.a")
out = subprocess.run(["nm", "-A", lib], capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    m = re.match(r"[^:]+:([^:]+\.o):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$", line)
    if m:
        objects.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
cli_dir = os.path.join(build_root, "lxgpu.p")
for name in os.listdir(cli_dir):
    if name.endswith(".o"):
        out = subprocess.run(["nm", os.path.join(cli_dir, name)], capture_output=True,
                             text=True, check=True).stdout
        objects[name] = [tuple(l.split()[-2:]) for l in out.splitlines() if l.split()]


def source_of(obj):
    # "src_access_apply.c.o" -> "src/access/apply.c"
    m = re.match(r"src_([a-z]+)_(.+)\.o$", obj)
    return f"src/{m.group(1)}/{m.group(2)}" if m else None


defined, needed = {}, {}
for obj, syms in objects.items():
    src = source_of(obj)
    if not src:
        continue  # generated: templates, the boot unit
    for kind, sym in syms:
        if kind in "TDBR":
            defined[sym] = src
        elif kind == "U":
            needed.setdefault(src, set()).add(sym)

calls = {}
for src, syms in needed.items():
    for sym in syms:
        if sym in defined and defined[sym] != src:
            calls.setdefault((src, defined[sym]), set()).add(sym)

up = [f"{a} -> {b}: {', '.join(sorted(s))}" for (a, b), s in sorted(calls.items())
      if rank(b.split("/")[1]) > rank(a.split("/")[1])]
check(bool(calls) and not up, "no file calls into a folder after its own in the README's order", up)
mutual = [f"{a} <-> {b}" for (a, b) in sorted(calls) if a < b and (b, a) in calls]
check(not mutual, "no two files call each other", mutual)

bad = []
for d in ("include/lxgpu",) + tuple(f"src/{f}" for f in folders):
    for name in sorted(os.listdir(os.path.join(src_root, d))):
        if not name.endswith((".c", ".h")):
            continue
        path = f"{d}/{name}"
        stem = name[:-2]
        folder = header_folder.get(stem) if d == "include/lxgpu" else d.split("/")[1]
        if folder is None:
            bad.append(f"{path}: not in this check's table of headers")
            continue
        text = open(os.path.join(src_root, path), encoding="utf-8").read()
        for inc in re.findall(r'#include "lxgpu/(\w+)\.h"', text):
            if inc not in header_folder:
                bad.append(f"{path}: includes lxgpu/{inc}.h, not in this check's table")
            elif rank(header_folder[inc]) > rank(folder):
                bad.append(f"{path} ({folder}) includes lxgpu/{inc}.h ({header_folder[inc]})")
check(not bad, "no header or source includes the header of a folder after its own", bad)

print(f"1..{n}")
sys.exit(1 if failed else 0)
