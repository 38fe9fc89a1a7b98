#!/usr/bin/env python3
"""Mutation check (issue 33): does a test catch a small, wrong change to
lxgpu's source?

Each mutation below replaces one exact piece of text in src/ (it must occur
exactly once, else the mutation is "stale": the code moved, update it) and
names the tests whose hand-written expectations should catch it. The
script copies the working tree (tracked and untracked, not ignored files)
to a scratch directory, builds it there once, checks that those tests pass
unmutated, then for each mutation: applies it, rebuilds, runs only its
tests, puts the file back. The working tree is never touched. It prints
one row per mutation (caught by which tests, or missed) and exits 0 only
when every mutation was caught.

Not part of the default suite (a rebuild and a test run per mutation:
several minutes). Run it before calling a test issue resolved:

    tests/tools/mutate.py              # every mutation
    tests/tools/mutate.py --list       # their names and tests
    tests/tools/mutate.py NAME...      # some of them
    tests/tools/mutate.py --keep ...   # keep the scratch copy (printed)

Real-LXC tests (lxc-*) run under /run/lxgpu-lxc.lock, as the suite's
rules say, and need root. Needs meson, ninja, a C compiler and what the
named tests need (jq, python3, umockdev).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# name, what it breaks, the edits (file, old text, new text; old text must
# occur once), the tests that should catch it. file/old/new: one edit.
MUTATIONS = [
    dict(name="verify-silent-exit-2",
         why="verify exits 2 with no output when it finds nothing",
         file="src/cli/cmd_verify.c",
         old="\tcli_fixes_with_context(cli, &findings);\n",
         new="\tcli_fixes_with_context(cli, &findings);\n"
             "\tif (findings.n == 0) {\n\t\tlx_container_report_free(&report);\n"
             "\t\trc = LX_EXIT_ERROR;\n\t\tgoto out;\n\t}\n",
         tests=["verify-drm-groups", "fixes"]),
    dict(name="verify-errors-exit-0",
         why="verify exits 0 with an error-level finding",
         file="src/cli/cmd_verify.c",
         old="rc = lx_findings_have_errors(&findings) ? LX_EXIT_FINDINGS",
         new="rc = lx_findings_have_errors(&findings) ? LX_EXIT_OK",
         tests=["verify-drm-groups", "mig-findings"]),
    dict(name="guard-refusal-exit-2",
         why="the guard's pre-start refusal exits 2 (a usage error) instead of 1",
         file="src/cli/cmd_guard.c",
         old="return refuse ? LX_EXIT_FINDINGS : LX_EXIT_OK;",
         new="return refuse ? LX_EXIT_ERROR : LX_EXIT_OK;",
         tests=["fixes"]),
    dict(name="doctor-json-silent-when-clean",
         why="doctor --format json prints nothing when it finds nothing",
         file="src/cli/cmd_doctor.c",
         old="\t\tcli_print_doc(cli, doc, 1); /* docs/schema/doctor.json */",
         new="\t\tif (findings.n)\n\t\t\tcli_print_doc(cli, doc, 1); /* docs/schema/doctor.json */",
         tests=["doctor-hosts", "fixes"]),
    dict(name="plan-drops-kfd",
         why="generate's plan leaves out AMD's /dev/kfd",
         file="src/render/plan.c",
         old='plan_add(p, "/dev/kfd", LX_ROLE_KFD, -1, 0);',
         new="(void)p;",
         tests=["verify-drm-groups"]),
    dict(name="mig-ci-minor-plus-one",
         why="a MIG compute instance's caps node is planned one minor too high",
         file="src/render/plan.c",
         old='lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor);\n'
             "\t\t\tstruct lx_plan_node *n = plan_add(p, path, LX_ROLE_CAP, (int)m->gpu, c->minor);",
         new='lx_xasprintf("/dev/nvidia-caps/nvidia-cap%u", c->minor + (unsigned)level);\n'
             "\t\t\tstruct lx_plan_node *n = plan_add(p, path, LX_ROLE_CAP, (int)m->gpu, "
             "c->minor + (unsigned)level);",
         tests=["mig-findings"]),
    dict(name="mig-placement-off-by-one",
         why="the -cgi PROFILE:START of a gone GPU instance starts one part later",
         file="src/judge/mig_check.c",
         old="int parts = 1 << level, nth = gi - (parts - 1);",
         new="int parts = 1 << level, nth = gi - (parts - 1) + 1;",
         tests=["mig-findings"]),
    dict(name="mig-placement-4-slices",
         why="the placement is counted on 4 slices (an A30's) for an 8-slice GPU",
         file="src/judge/mig_check.c",
         old="int start8 = nth * 8 / parts,",
         new="int start8 = nth * 4 / parts,",
         tests=["mig-findings"]),
    dict(name="doctor-report-severity",
         why="doctor reports every kernel-log finding as a warning (doctor.c, not the catalogue)",
         file="src/doctor/doctor.c",
         old="lx_findings_last_severity(c->out, x->severity);",
         new="lx_findings_last_severity(c->out, LX_SEVERITY_WARNING);",
         tests=["doctor"]),
    dict(name="doctor-source-misquoted",
         why="a catalogue row cites a format string that is not the message it matches "
             "(the generated docs/kmsg-catalogue.md updated with it)",
         edits=[("src/doctor/catalogue.c",
                 '"src/nvidia/arch/nvalloc/unix/src/osapi.c (the client\'s version check): \\"NVRM: API "\n'
                 '\t "mismatch: the client',
                 '"src/nvidia/arch/nvalloc/unix/src/osapi.c (the client\'s version check): \\"NVRM: API "\n'
                 '\t "mismatch: the caller'),
                ("docs/kmsg-catalogue.md", "API mismatch: the client '%s' (pid %u)",
                 "API mismatch: the caller '%s' (pid %u)")],
         tests=["doctor"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def copy_tree(src, dst):
    files = run(["git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    if files.returncode != 0:
        sys.exit("git ls-files failed:\n" + files.stdout)
    for rel in files.stdout.split("\0"):
        if not rel:
            continue
        s, d = os.path.join(src, rel), os.path.join(dst, rel)
        if not os.path.lexists(s):
            continue  # deleted in the working tree
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if os.path.islink(s):
            os.symlink(os.readlink(s), d)
        elif os.path.isfile(s):
            shutil.copy2(s, d)


def meson_test(build, tests):
    cmd = ["meson", "test", "-C", build, "--num-processes", "2", "--print-errorlogs"] + tests
    if any(t.startswith("lxc-") for t in tests):
        cmd = ["flock", "/run/lxgpu-lxc.lock"] + cmd
    r = run(cmd)
    failed = sorted(set(re.findall(r"^\s*\d+/\d+ \S+ / (\S+)\s+(?:FAIL|TIMEOUT|ERROR)", r.stdout, re.M)))
    return r.returncode, failed, r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="mutations to run (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy")
    args = ap.parse_args()
    if args.list:
        for m in MUTATIONS:
            print("%-30s %-40s %s" % (m["name"], " ".join(m["tests"]), m["why"]))
        return 0
    chosen = [m for m in MUTATIONS if not args.names or m["name"] in args.names]
    unknown = set(args.names) - {m["name"] for m in MUTATIONS}
    if unknown:
        sys.exit("no such mutation: %s (--list names them)" % " ".join(sorted(unknown)))

    root = run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--show-toplevel"])
    root = root.stdout.strip()
    scratch = tempfile.mkdtemp(prefix="lxgpu-mutate.")
    tree, build = os.path.join(scratch, "tree"), os.path.join(scratch, "tree", "build-mutate")
    try:
        copy_tree(root, tree)
        print("# scratch copy: %s" % tree, flush=True)
        r = run(["meson", "setup", build, "-Dwerror=false"], cwd=tree)
        if r.returncode != 0 or run(["meson", "compile", "-C", build]).returncode != 0:
            sys.exit("the unmutated copy does not build:\n" + r.stdout[-3000:])
        tests = sorted({t for m in chosen for t in m["tests"]})
        print("# unmutated: %s" % " ".join(tests), flush=True)
        rc, failed, out = meson_test(build, tests)
        if rc != 0:
            print(out[-6000:])
            sys.exit("the unmutated tree fails %s: fix that first" % " ".join(failed or tests))

        rows = []
        for m in chosen:
            edits = m.get("edits") or [(m["file"], m["old"], m["new"])]
            saved = {}
            for f, old, _ in edits:
                saved.setdefault(f, open(os.path.join(tree, f)).read())
            stale = [(f, saved[f].count(old)) for f, old, _ in edits if saved[f].count(old) != 1]
            if stale:
                rows.append((m, "STALE", "; ".join("its text occurs %d times in %s" % (n, f)
                                                   for f, n in stale)))
                continue
            try:
                changed = dict(saved)
                for f, old, new in edits:
                    changed[f] = changed[f].replace(old, new)
                for f, text in changed.items():
                    open(os.path.join(tree, f), "w").write(text)
                b = run(["meson", "compile", "-C", build])
                if b.returncode != 0:
                    rows.append((m, "NO BUILD", b.stdout.strip().splitlines()[-1]))
                    continue
                rc, failed, out = meson_test(build, m["tests"])
                if rc != 0:
                    rows.append((m, "caught", "by " + " ".join(failed or ["(meson test failed)"])))
                else:
                    rows.append((m, "MISSED", "passed " + " ".join(m["tests"])))
            finally:
                for f, text in saved.items():
                    open(os.path.join(tree, f), "w").write(text)
            print("# %-30s %s" % (m["name"], rows[-1][1]), flush=True)
        run(["meson", "compile", "-C", build])

        print()
        print("| mutation | what it breaks | result | tests |")
        print("|---|---|---|---|")
        for m, result, detail in rows:
            print("| %s | %s | %s | %s |" % (m["name"], m["why"], result, detail))
        caught = sum(1 for r in rows if r[1] == "caught")
        print("\n%d of %d mutations caught" % (caught, len(rows)))
        return 0 if caught == len(rows) else 1
    finally:
        if args.keep:
            print("# kept %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
