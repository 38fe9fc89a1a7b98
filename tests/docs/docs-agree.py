#!/usr/bin/env python3
"""Each command's options, as `lxgpu CMD --help`, the man page
(docs/lxgpu.1.scd) and the README's table "Options of each command" list
them, and as lxgpu accepts them (main refuses an option a command does not
take: "'CMD' does not take ..."): the four sets must be the same. Global
options (lxgpu help's "Global options", taken by every command) are left
out; --format, which only some commands take, is kept.

Usage: docs-agree.py LXGPU MAN_PAGE README MAIN_C HOST_SNAPSHOT   (TAP)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

lxgpu, man_path, readme_path, main_c, snapshot = sys.argv[1:6]
OPT = r"--[a-z][a-z0-9-]*"


def run(*args, env=None):
    return subprocess.run([lxgpu, *args], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, env=env)


main_help = run("help").stdout
commands = re.findall(r"^  ([a-z][a-z-]*) ", main_help.split("Commands:", 1)[1].split("\n\n", 1)[0], re.M)
commands = [c for c in commands if c != "help"]
global_block = main_help.split("Global options", 1)[1]
global_opts = set(re.findall(r"^  (?:-[a-zA-Z], )?(" + OPT + ")", global_block, re.M))
global_opts |= set(re.findall(r"^  -[a-zA-Z], (" + OPT + ")", global_block, re.M))
global_opts -= {"--format", "--compact"}
# -o FILE is --output; every other short option is global (-q, -v, -h, -V).
def norm(opts):
    return {"--output" if o == "-o" else o for o in opts} - global_opts - {"--help", "--version", "--compact"}


def from_help(cmd):
    """The usage lines and the option table (lines that start with an option)."""
    text = run(cmd, "--help").stdout
    text = text.split("\nGlobal options (", 1)[0]
    opts = set()
    usage = text.split("\n\n", 1)[0]
    opts |= set(re.findall(r"(?<![\w-])(" + OPT + r"|-o)(?![\w-])", usage))
    for line in text.splitlines():
        # a row of the table: options from column 2 to 4, up to the
        # description (two spaces), or the whole line when it has none
        if re.match(r"^ {2,4}(-o|" + OPT + ")", line):
            head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
            opts |= set(re.findall(r"(" + OPT + r"|-o)(?![\w-])", head))
    return norm(opts)


def from_man(cmd):
    """The command's entries under COMMANDS: its heading lines and their
    indented paragraphs; options are written *--opt*."""
    text = open(man_path, encoding="utf-8").read()
    section = text.split("\n# COMMANDS\n", 1)[1].split("\n# ", 1)[0]
    opts, found, inside = set(), False, False
    for line in section.splitlines():
        if line and not line.startswith("\t"):
            inside = re.match(r"^\*" + re.escape(cmd) + r"\*(\s|$)", line) is not None
            found |= inside
        if inside:
            opts |= set(re.findall(r"\*(" + OPT + r"|-o)\*", line))
    return norm(opts) if found else None


def from_readme(cmd):
    text = open(readme_path, encoding="utf-8").read()
    if "### Options of each command" not in text:
        return None
    table = text.split("### Options of each command", 1)[1].split("\n#", 1)[0]
    for line in table.splitlines():
        m = re.match(r"^\| `" + re.escape(cmd) + r"` \|(.*)\|\s*$", line)
        if m:
            return norm(re.findall(r"`(" + OPT + r"|-o)`", m.group(1)))
    return None


# Every long option main knows, from its getopt table.
known = set("--" + n for n in re.findall(r'^\s*\{"([a-z][a-z0-9-]*)", (?:no|required)_argument', open(main_c).read(), re.M))
known = norm(known | {"-o"})
scratch = tempfile.mkdtemp()
for d in ("pve", "lxc", "state", "dev", "proc", "cgroup"):
    os.makedirs(os.path.join(scratch, d))


def accepted(cmd):
    """The options main lets through to cmd; everything points into scratch
    directories and a snapshot, so whatever runs touches nothing real."""
    base = ["--host", snapshot, "--pve-dir", scratch + "/pve", "--lxc-path", scratch + "/lxc",
            "--state-dir", scratch + "/state", "--dev-dir", scratch + "/dev",
            "--proc-dir", scratch + "/proc", "--cgroup-root", scratch + "/cgroup"]
    # values main checks before the command's options are
    valid = {"--cgroup": "v2", "--mode": "0666", "--uid": "0", "--gid": "0", "--dev-start": "0",
             "--keep": "1", "--lock-timeout": "1", "--probe-timeout": "1", "--style": "devn", "--format": "json",
             "--gpus": "0"}
    out = set()
    for opt in sorted(known):
        name = "-o" if opt == "--output" else opt
        # the value is the scratch file: an option with a value gets it, and
        # for one without it is a stray argument (after the check)
        for args in ([cmd, name], [cmd, name, valid.get(opt, scratch + "/x")]):
            r = run(*base, *args)
            if "needs a value" in r.stderr:
                continue
            break
        if f"'{cmd}' does not take" not in r.stderr:
            out.add(opt)
    return out - {"--host", "--pve-dir", "--lxc-path", "--state-dir", "--dev-dir", "--proc-dir", "--cgroup-root"} - global_opts


n = failed = 0
for cmd in commands:
    sources = {"--help": from_help(cmd), "man page": from_man(cmd), "README": from_readme(cmd),
               "accepted": accepted(cmd)}
    n += 1
    missing = [k for k, v in sources.items() if v is None]
    union = set().union(*(v for v in sources.values() if v is not None))
    diffs = []
    for opt in sorted(union):
        where = [k for k, v in sources.items() if v is not None and opt in v]
        if len(where) != len(sources) - len(missing):
            diffs.append(f"{opt}: in {', '.join(where)}; not in {', '.join(k for k, v in sources.items() if v is not None and opt not in v)}")
    if missing or diffs:
        failed += 1
        print(f"not ok {n} - {cmd}: --help, man page, README and lxgpu agree on its options")
        for m in missing:
            print(f"# {cmd} has no entry in the {m}")
        for d in diffs:
            print(f"# {d}")
    else:
        print(f"ok {n} - {cmd}: --help, man page, README and lxgpu agree on its options ({' '.join(sorted(union)) or 'none'})")
# The README's table of commands has a row for each; the boot unit is named
# as installed (data/lxgpu-nodes.service.in), in the README and man page.
readme = open(readme_path, encoding="utf-8").read()
n += 1
absent = [c for c in commands if not re.search(r"^\| `lxgpu " + re.escape(c) + r"[ `]", readme, re.M)]
print(("not ok" if absent else "ok") + f" {n} - the README's command table has a row for every command")
for c in absent:
    print(f"# no row for {c}")
failed += bool(absent)
# and no row for a command lxgpu does not have (the table is the CLI's)
n += 1
table = readme.split("## Commands", 1)[1].split("\n\n###", 1)[0]
rows = re.findall(r"^\| `lxgpu ([a-z][a-z-]*)", table, re.M)
extra = [r for r in rows if r not in commands]
twice = sorted({r for r in rows if rows.count(r) > 1})
print(("not ok" if extra or twice or not rows else "ok") + f" {n} - each row of the README's command table is one of lxgpu's commands, once ({len(rows)} rows)")
for r in extra:
    print(f"# a row for {r}, which lxgpu help does not list")
for r in twice:
    print(f"# {r} has more than one row")
failed += bool(extra or twice or not rows)
n += 1
units = set(re.findall(r"\b([a-z-]+-nodes)\.service", readme + open(man_path, encoding="utf-8").read()))
print(("ok" if units == {"lxgpu-nodes"} else "not ok") + f" {n} - the boot unit is lxgpu-nodes.service wherever it is named ({' '.join(sorted(units))})")
failed += units != {"lxgpu-nodes"}
shutil.rmtree(scratch)
print(f"1..{n}")
sys.exit(1 if failed or not n else 0)
