#!/usr/bin/env python3
"""A fix as lxgpu's text output shows it, read the way a person reads it
(verify, doctor, preflight, guard, audit -v): a finding line "  SEVERITY
CODE ...: message" (continued at column 17 when wrapped), then "fix:" at a
column C, its prose from there and continued at C+5, and each command alone
on a line at column C+7, to be copied whole.

  fix-text.py TEXT JSON CODE CONTAINER [WIDTH]
      prints the fix of the first finding of CODE for CONTAINER in JSON
      (lxgpu's --format json of the same run: {"findings": [...]}), found in
      TEXT by its message, on one line: its prose, and each command in
      backticks ("prose `command` prose"). Checks, and exits 1 naming what
      failed: every command line parses as one shell command (shlex, sh -n);
      the commands are the ones the JSON lists, whole (nothing wrapped); with
      WIDTH, no other line of TEXT is wider than WIDTH columns (but a word
      longer than a line).
  fix-text.py TEXT - CODE - [WIDTH]
      the same for output without JSON (guard's stderr): the first finding of
      CODE.
  fix-text.py --check TEXT [TEXT...] WIDTH
      only the checks, of every fix in each TEXT (named when one fails):
      each command line one shell command, no other line wider than WIDTH.
      Many files in one run: Python's start costs more than the checks.
"""
import json
import re
import shlex
import subprocess
import sys

HEAD = re.compile(r"^  (error|warning|info) +(LXG\d{3})\b")
FIX = re.compile(r"^( +)fix:(?: (.*))?$")


checking = ""  # the file named in a failure of --check over several


def fail(why):
    print(f"fix-text: {checking}{why}")
    sys.exit(1)


def findings(lines):
    """(code, head text unwrapped, [fix lines]) of each finding in turn."""
    out = []
    i = 0
    while i < len(lines):
        m = HEAD.match(lines[i])
        if not m:
            i += 1
            continue
        head = [lines[i].strip()]
        i += 1
        while i < len(lines) and lines[i].startswith(" " * 17) and not FIX.match(lines[i]) \
                and not lines[i].lstrip().startswith("evidence:"):
            head.append(lines[i].strip())
            i += 1
        fix = []
        if i < len(lines) and FIX.match(lines[i]):
            col = len(FIX.match(lines[i]).group(1))
            fix.append(lines[i])
            i += 1
            while i < len(lines) and lines[i].startswith(" " * (col + 5)) and \
                    not lines[i].lstrip().startswith("evidence:"):
                fix.append(lines[i])
                i += 1
        out.append((m.group(2), " ".join(head), fix))
    return out


def parse_fix(fix):
    """[(is_command, text)] of a fix block."""
    col = len(FIX.match(fix[0]).group(1))
    parts = []
    first = FIX.match(fix[0]).group(2)
    if first:
        parts.append([False, first])
    for line in fix[1:]:
        indent = len(line) - len(line.lstrip(" "))
        if indent == col + 7:
            parts.append([True, line[col + 7:]])
        elif indent == col + 5:
            if parts and not parts[-1][0]:
                parts[-1][1] += " " + line[col + 5:]
            else:
                parts.append([False, line[col + 5:]])
        else:
            fail(f"a fix line at column {indent}, neither prose ({col + 5}) nor a command ({col + 7}): {line!r}")
    return parts


def check_command(c):
    try:
        words = shlex.split(c)
    except ValueError as e:
        fail(f"not one shell command ({e}): {c!r}")
    if not words:
        fail("an empty command line")
    r = subprocess.run(["sh", "-n", "-c", c], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"sh -n refuses {c!r}: {r.stderr.strip()}")


def main():
    global checking
    if sys.argv[1] == "--check":
        width = int(sys.argv[-1])
        texts = sys.argv[2:-1]
        for text_file in texts:
            checking = f"{text_file}: " if len(texts) > 1 else ""
            check_text(text_file, "-", None, "-", width)
        return
    text_file, json_file, code, container = sys.argv[1:5]
    width = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    check_text(text_file, json_file, code, container, width)


def check_text(text_file, json_file, code, container, width):
    lines = open(text_file).read().splitlines()
    found = findings(lines)
    command_lines = set()
    for _, _, fix in found:
        if fix:
            for is_cmd, t in parse_fix(fix):
                if is_cmd:
                    check_command(t)
                    command_lines.add(t)
    if width:
        for line in lines:
            if len(line) <= width or line.strip() in command_lines or " " not in line.strip():
                continue
            # a command printed alone outside a finding (the guard's last line)
            if re.match(r"\s*(lxgpu|pct|lxc-start|lxc-stop|nvidia-modprobe) ", line):
                check_command(line.strip())
                continue
            fail(f"{len(line)} columns, wider than {width}: {line!r}")
    if code is None:
        return
    want_commands = None
    pick = [f for f in found if f[0] == code]
    if json_file != "-":
        doc = json.load(open(json_file))
        match = [f for f in doc["findings"] if f["code"] == code and f.get("container") == container]
        if not match:
            fail(f"no {code} for {container} in {json_file}")
        message = re.sub(r"\s+", " ", match[0]["message"]).strip()
        want_commands = match[0].get("commands")
        pick = [f for f in pick if message in f[1]]
    if not pick:
        fail(f"no {code} finding in the text")
    if not pick[0][2]:
        fail(f"{code} has no fix in the text")
    parts = parse_fix(pick[0][2])
    commands = [t for is_cmd, t in parts if is_cmd]
    if want_commands is not None and commands != want_commands:
        fail(f"the text's commands {commands} are not the JSON's {want_commands}")
    print(" ".join(f"`{t}`" if is_cmd else t for is_cmd, t in parts))


main()
