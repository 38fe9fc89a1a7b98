#!/usr/bin/env python3
"""Is FILE in the order Proxmox's writer puts a container config in?

Written from pve-container's PVE::LXC::Config::write_pct_config (at the
commit tests/pve/oracle/README.md names), not from lxgpu: in each section,
the description as '#' lines first, then the keys sorted by name (Perl's
`sort`, a byte-wise string order: dev10 before dev2), then the
lxc.environment.runtime lines (the 'env' key), then the other lxc.* lines
in their own order; a blank line, then '[name]', starts a section.
Exit 0 when it is; else 1, naming the first line out of place.
Usage: pve-write-order.py FILE
"""
import sys

RANK_COMMENT, RANK_KEY, RANK_ENV, RANK_LXC = 0, 1, 2, 3


def rank(line):
    if line.startswith("#"):
        return RANK_COMMENT, None
    key = line.split(":", 1)[0].split("=", 1)[0].strip()
    if key == "lxc.environment.runtime":
        return RANK_ENV, None
    if key.startswith("lxc."):
        return RANK_LXC, None
    return RANK_KEY, key.encode()


def main(path):
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "surrogateescape").replace("\r\n", "\n").split("\n")
    last = (RANK_COMMENT, None)
    for n, line in enumerate(lines, 1):
        if line == "" or (line.startswith("[") and line.rstrip().endswith("]")):
            last = (RANK_COMMENT, None)  # a new section starts over
            continue
        r = rank(line)
        if r[0] < last[0] or (r[0] == RANK_KEY == last[0] and r[1] < last[1]):
            print(f"{path}:{n}: '{line}' comes after '{last[1].decode() if last[1] else last[0]}'"
                  " but Proxmox's writer puts it before")
            return 1
        last = r
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
