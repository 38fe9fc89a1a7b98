#!/usr/bin/env python3
"""Lines Proxmox cannot parse: verify and audit name each one (LXG028), by
file and line, its bytes shown visibly, and apply refuses the file by the
same rule. Proxmox decides which lines: unparseable/700.pve.json is what
its own parser (PVE::LXC::Config::parse_pct_config, through
shared/tools/pve-oracle/pve-parse) said of unparseable/700.conf (how it was
made: unparseable/README.md). Its non-strict warnings name each line it
left out ("unable to parse config: LINE", and "property 'delete' is only
allowed in [pve:pending]" for a delete: outside it). One documented
difference (tests/pve/oracle/README.md): a line with a NUL byte is
unparseable to lxgpu, as LXC stops reading its config at a NUL.

Usage: run-unparseable.py LXGPU EXAMPLES DIR (TAP)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

lxgpu, examples, here = sys.argv[1:4]
n = 0
failed = 0


def check(desc, ok, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + f" {n} - {desc}")
    if not ok:
        failed += 1
        for line in str(detail).splitlines():
            print("# " + line)


raw = open(os.path.join(here, "unparseable", "700.conf"), "rb").read()
# Lines as Proxmox splits them: on "\n" only (a CRLF line keeps its "\r").
lines = raw.split(b"\n")
if lines and lines[-1] == b"":
    lines.pop()
first_section = next((i for i, l in enumerate(lines) if l.startswith(b"[")), len(lines))

oracle = json.load(open(os.path.join(here, "unparseable", "700.pve.json")))
# Perl's JSON gives the file's bytes as code points 0-255.
left_out = set()
for w in oracle["nonstrict"]["warnings"]:
    tag = "unable to parse config: "
    if tag in w:
        text = w.split(tag, 1)[1][:-1].encode("latin-1")  # without the "\n" Perl adds
        numbers = [i + 1 for i, l in enumerate(lines) if l == text]
        check(f"PVE's warning names a line of the file: {text!r}", len(numbers) >= 1, w)
        left_out.update(numbers)
    elif "property 'delete' is only allowed in [pve:pending]" in w:
        left_out.update(i + 1 for i, l in enumerate(lines[:first_section]) if l.startswith(b"delete:"))
    else:
        check(f"a PVE warning this test knows: {w!r}", False)
with_nul = {i + 1 for i, l in enumerate(lines) if b"\0" in l}
want = left_out | with_nul
check("PVE leaves lines out of this file (the oracle is not empty)", len(left_out) >= 10, left_out)

work = tempfile.mkdtemp()
try:
    os.makedirs(f"{work}/pve/lxc")
    os.makedirs(f"{work}/none")
    conf = f"{work}/pve/lxc/700.conf"
    shutil.copy(os.path.join(here, "unparseable", "700.conf"), conf)
    base = [lxgpu, "--host", f"{examples}/pve-8x-rtx-pro-6000.yaml", "--pve-dir", f"{work}/pve",
            "--lxc-path", f"{work}/none", "--lxc-config-dir", os.path.join(here, "lxc-config"),
            "--state-dir", f"{work}/state"]

    def run(*args):
        return subprocess.run(base + list(args), capture_output=True)

    def findings_of(cmd, out):
        try:
            doc = json.loads(out.stdout)
        except ValueError as e:
            check(f"{cmd}: JSON parses", False, f"{e}\n{out.stdout[:400]!r}\n{out.stderr!r}")
            return None
        if cmd == "audit":
            return [f for c in doc["containers"] if c["container"] == "700" for f in c["findings"]]
        return doc["findings"]

    for cmd in ("verify", "audit"):
        out = run(cmd, *(["700"] if cmd == "verify" else []), "--format", "json")
        check(f"{cmd}: exit 1 (errors)", out.returncode == 1, f"exit {out.returncode}: {out.stderr!r}")
        found = findings_of(cmd, out)
        if found is None:
            continue
        got = [f for f in found if f["code"] == "LXG028"]
        got_lines = {f["line"] for f in got}
        check(f"{cmd}: LXG028 for exactly the lines PVE leaves out (and those with NUL)",
              got_lines == want and len(got) == len(want),
              f"missing: {sorted(want - got_lines)}\nextra: {sorted(got_lines - want)}")
        check(f"{cmd}: each LXG028 names the file", all(f.get("file") == conf for f in got), got[:1])
        bad_sev = [(f["line"], f["severity"]) for f in got
                   if f["severity"] != ("error" if f["line"] <= first_section else "warning")]
        check(f"{cmd}: error in the live section, warning in [snapshot]/[pve:pending]", not bad_sev, bad_sev)
        # The bytes shown visibly: NUL as \x00, a control and invalid UTF-8 as \xNN.
        by_line = {f["line"]: f["message"] for f in got}
        for text, shown in ((b"junk\0line", "'junk\\x00line'"), (b"net0\x01: name=eth0", "'net0\\x01: name=eth0'"),
                            (b"garbage\xff\xfe line", "'garbage\\xff\\xfe line'")):
            no = lines.index(text) + 1
            check(f"{cmd}: line {no} shown as {shown}", shown in by_line.get(no, ""), by_line.get(no))

    # A node lxgpu has no host model of (audit --cluster): the lines are
    # judged all the same, they need no model.
    os.makedirs(f"{work}/cluster/nodes/pve-gpu01/lxc")
    os.makedirs(f"{work}/cluster/nodes/other/lxc")
    os.symlink("nodes/pve-gpu01/lxc", f"{work}/cluster/lxc")
    other = f"{work}/cluster/nodes/other/lxc/701.conf"
    shutil.copy(conf, other)
    out = subprocess.run([lxgpu, "--host", f"{examples}/pve-8x-rtx-pro-6000.yaml", "--pve-dir",
                          f"{work}/cluster", "--lxc-path", f"{work}/none", "--format", "json",
                          "audit", "--cluster"], capture_output=True)
    check("audit --cluster: exit 1 (errors)", out.returncode == 1, f"exit {out.returncode}: {out.stderr!r}")
    try:
        doc = json.loads(out.stdout)
        found = [f for c in doc["containers"] if c["container"] == "701" for f in c["findings"]]
    except (ValueError, KeyError) as e:
        found = []
        check("audit --cluster: JSON parses", False, f"{e}\n{out.stdout[:400]!r}")
    got_lines = {f["line"] for f in found if f["code"] == "LXG028"}
    check("audit --cluster, a node without a host model: LXG028 for the same lines",
          got_lines == want and all(f["file"] == other for f in found if f["code"] == "LXG028")
          and any(f["code"] == "LXG021" for f in found),
          f"missing: {sorted(want - got_lines)}\nextra: {sorted(got_lines - want)}\n{[f['code'] for f in found]}")

    out = run("verify", "700")
    text = out.stdout.decode("ascii", "replace")
    check("verify text: file:line and the NUL shown as \\x00",
          f"LXG028 {conf}:{lines.index(b'junk' + bytes(1) + b'line') + 1}: " in text and "junk\\x00line" in text
          and "\0" not in text, text[-2000:])

    # apply refuses by the same rule, its first such line, shown the same way;
    # nothing written.
    for text_line in (b"junk\0line", b"lxc.mount.entry /dev/nvidia0 dev/nvidia0 none bind,optional,create=file"):
        body = b"".join(l + b"\n" for l in lines[:first_section] if l not in [lines[i - 1] for i in want])
        body += text_line + b"\n"
        open(conf, "wb").write(body)
        out = run("--backup-dir", f"{work}/backups", "apply", "700")
        shown = text_line.replace(b"\0", b"\\x00").decode()
        no = body.count(b"\n")
        err = out.stderr.decode("ascii", "replace")
        check(f"apply refuses {shown[:30]}...: exit 2, {conf}:{no}, the line shown",
              out.returncode == 2 and f"{conf}:{no}: " in err and f"'{shown}'" in err, f"exit {out.returncode}: {err}")
        backups = f"{work}/backups"
        check("apply refused: the config as it was, no backup", open(conf, "rb").read() == body
              and (not os.path.exists(backups) or not os.listdir(backups)))
        out = run("verify", "700", "--format", "json")
        found = findings_of("verify", out) or []
        check(f"verify names the line apply refuses ({conf}:{no})",
              any(f["code"] == "LXG028" and f["line"] == no for f in found), [f["code"] for f in found])
finally:
    shutil.rmtree(work)
print(f"1..{n}")
sys.exit(1 if failed else 0)
