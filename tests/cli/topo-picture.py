#!/usr/bin/env python3
"""topo --format svg and --format dot, looked at as a person would.

Each picture is rendered (rsvg-convert to PNG for the SVG, Graphviz's
`dot -Tsvg` for the DOT), then read as XML and checked against what must
be in it for each host: which GPUs sit under which NUMA node, root port and
PCIe switch, each GPU's address once, its device node and IOMMU group, the
link and peer-to-peer verdict of each pair, pairs across sockets marked,
an ACS-blocked pair naming its bridges. The expectations below are written
by hand from the example snapshots (each GPU's numa_node and pcie_path,
read in the YAML file: the root port is pcie_path[0], the switch's
upstream port pcie_path[1], its downstream port pcie_path[2]) and, for
the pairs, from the PCIe rules behind tests/hosts/*/p2p.expected; nothing
here is lxgpu's own output.

Usage: topo-picture.py LXGPU SOURCE_ROOT   (TAP)
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

lxgpu, src = sys.argv[1], sys.argv[2]
SVG = "{http://www.w3.org/2000/svg}"
CI = os.environ.get("CI") == "true"

n = 0
failed = 0


def check(ok, desc, detail=()):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + f" {n} - {desc}")
    for line in detail if not ok else ():
        print("# " + str(line))
    failed += 0 if ok else 1


def skip(desc, why):
    global n, failed
    n += 1
    if CI:
        print(f"not ok {n} - {desc}\n# cannot run here, and CI=true allows no skip: {why}")
        failed += 1
    else:
        print(f"ok {n} - {desc} # SKIP {why}")


def pairs_by_socket(sockets, same=("NODE", "ready"), cross=("SYS", "unknown")):
    """Every pair of GPU indexes: within one socket `same`, across `cross`."""
    where = {g: s for s, gpus in sockets.items() for g in gpus}
    gpus = sorted(where)
    return {(a, b): same if where[a] == where[b] else cross
            for i, a in enumerate(gpus) for b in gpus[i + 1:]}


# ---- what each host's picture must show (written from the snapshots) ----
# gpus: address -> (index, numa node ("-1": none given), root port, switch's
# upstream port or None, device node or DRM nodes, IOMMU line)
HOSTS = {
    "pve-8x-rtx-pro-6000": {
        "file": "examples/hosts/pve-8x-rtx-pro-6000.yaml",
        "gpus": {
            "0000:18:00.0": (0, "0", "0000:15:01.0", "0000:16:00.0", ["/dev/nvidia0"], "IOMMU group 40: identity"),
            "0000:39:00.0": (1, "0", "0000:36:01.0", "0000:37:00.0", ["/dev/nvidia1"], "IOMMU group 43: identity"),
            "0000:5a:00.0": (2, "0", "0000:57:01.0", "0000:58:00.0", ["/dev/nvidia2"], "IOMMU group 46: identity"),
            "0000:7b:00.0": (3, "0", "0000:78:01.0", "0000:79:00.0", ["/dev/nvidia3"], "IOMMU group 49: identity"),
            "0000:99:00.0": (4, "1", "0000:96:01.0", "0000:97:00.0", ["/dev/nvidia4"], "IOMMU group 52: identity"),
            "0000:ba:00.0": (5, "1", "0000:b7:01.0", "0000:b8:00.0", ["/dev/nvidia5"], "IOMMU group 55: identity"),
            "0000:db:00.0": (6, "1", "0000:d8:01.0", "0000:d9:00.0", ["/dev/nvidia6"], "IOMMU group 58: identity"),
            "0000:ec:00.0": (7, "1", "0000:e9:01.0", "0000:ea:00.0", ["/dev/nvidia7"], "IOMMU group 61: identity"),
        },
        # each GPU has its own root port (its own host bridge): within a
        # socket NODE; iommu=pt (identity) and no switch in common: ready;
        # across the sockets SYS, which the driver decides: unknown
        "pairs": pairs_by_socket({"0": [0, 1, 2, 3], "1": [4, 5, 6, 7]}),
        "blocked": {},
    },
    "p2p-switch-acs": {
        "file": "tests/hosts/p2p-switch-acs/expected.yaml",
        "gpus": {
            "0000:43:00.0": (0, "0", "0000:40:01.1", "0000:41:00.0", ["/dev/nvidia0"], "IOMMU group 20: identity"),
            "0000:44:00.0": (1, "0", "0000:40:01.1", "0000:41:00.0", ["/dev/nvidia1"], "IOMMU group 21: identity"),
            "0000:47:00.0": (2, "0", "0000:40:03.1", "0000:45:00.0", ["/dev/nvidia2"], "IOMMU group 22: identity"),
            "0000:48:00.0": (3, "0", "0000:40:03.1", "0000:45:00.0", ["/dev/nvidia3"], "IOMMU group 23: identity"),
            "0000:49:00.0": (4, "0", "0000:40:05.1", None, ["no driver"], "IOMMU group 24: identity"),
        },
        "pairs": "tests/hosts/p2p-switch-acs/p2p.expected",
        # the downstream ports with ACS control 0x1d (RR, CR) above GPUs 0 and 1
        "blocked": {(0, 1): ["0000:42:00.0", "0000:42:01.0"]},
    },
    "pve-h100-mig": {
        "file": "examples/hosts/pve-h100-mig.yaml",
        "gpus": {
            "0000:1b:00.0": (0, "0", "0000:18:01.0", "0000:19:00.0", ["/dev/nvidia0"], "IOMMU group 36: identity"),
            "0000:9b:00.0": (1, "1", "0000:98:01.0", "0000:99:00.0", ["/dev/nvidia1"], "IOMMU group 112: identity"),
        },
        "pairs": {(0, 1): ("SYS", "unknown")},
        "blocked": {},
    },
    "pve-rtx-4090": {
        "file": "examples/hosts/pve-rtx-4090.yaml",
        "gpus": {
            "0000:01:00.0": (0, "-1", "0000:00:01.1", None, ["/dev/nvidia0"], "IOMMU group 14: DMA-FQ"),
        },
        "pairs": {},
        "blocked": {},
    },
    # Proxmox VE 9 (tests/hosts/make-fixtures.py: numa_node -1, one root port)
    "pve9-rtx-5090": {
        "file": "examples/hosts/pve9-rtx-5090.yaml",
        "gpus": {
            "0000:01:00.0": (0, "-1", "0000:00:01.1", None, ["/dev/nvidia0"], "IOMMU group 16: DMA-FQ"),
        },
        "pairs": {},
        "blocked": {},
    },
    "pve9-kernel7-rtx-3090": {
        "file": "examples/hosts/pve9-kernel7-rtx-3090.yaml",
        "gpus": {
            "0000:2b:00.0": (0, "-1", "0000:00:03.1", None, ["/dev/nvidia0"], "IOMMU group 24: DMA-FQ"),
        },
        "pairs": {},
        "blocked": {},
    },
    "pve-uvm-not-loaded": {
        "file": "examples/hosts/pve-uvm-not-loaded.yaml",
        "gpus": {
            "0000:c1:00.0": (0, "0", "0000:c0:01.1", None, ["/dev/nvidia0"], "IOMMU group 32, type unknown"),
        },
        "pairs": {},
        "blocked": {},
    },
    "pve-vfio-split": {
        "file": "examples/hosts/pve-vfio-split.yaml",
        "gpus": {
            "0000:41:00.0": (0, "0", "0000:40:01.1", None, ["/dev/nvidia0"], "IOMMU group 27: DMA"),
            "0000:81:00.0": (1, "1", "0000:80:01.1", None, ["vfio-pci"], "IOMMU group 51: DMA"),
        },
        "pairs": {},  # one GPU bound to nvidia: no pair
        "blocked": {},
    },
    "pve-intel-igpu": {
        "file": "examples/hosts/pve-intel-igpu.yaml",
        "gpus": {
            # on the root bus itself: no bridge above it
            "0000:00:02.0": (0, "-1", None, None, ["/dev/dri/card0", "/dev/dri/renderD128"], "IOMMU off"),
        },
        "pairs": {},
        "blocked": {},
    },
    "pve-amd-rocm": {
        "file": "examples/hosts/pve-amd-rocm.yaml",
        "gpus": {
            "0000:03:00.0": (0, "-1", "0000:00:01.1", "0000:01:00.0",
                             ["/dev/dri/card1", "/dev/dri/renderD128"], "IOMMU group 15: DMA-FQ"),
        },
        "pairs": {},
        "blocked": {},
    },
}


def expected_pairs(host):
    pairs = host["pairs"]
    if isinstance(pairs, dict):
        return pairs
    out = {}
    for line in open(os.path.join(src, pairs), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        a, b, link, _, _, _, verdict = line.split()[:7]
        out[(int(a), int(b))] = (link, verdict)
    return out


def run(args, **kw):
    return subprocess.run(args, capture_output=True, **kw)


def texts(elem):
    """The visible words of an element: its <text> elements (not <title>)."""
    return ["".join(t.itertext()) for t in elem.iter(SVG + "text")]


def rect_of(elem):
    r = elem.find(SVG + "rect")
    return tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def ancestors(root):
    parent = {c: p for p in root.iter() for c in p}
    def up(e):
        while e in parent:
            e = parent[e]
            yield e
    return up


def self_contained(root, raw):
    bad = []
    for e in root.iter():
        tag = e.tag.replace(SVG, "")
        if tag in ("script", "image", "style", "foreignObject", "use", "a"):
            bad.append(f"<{tag}>")
        for k, v in e.attrib.items():
            if "href" in k or "url(" in v:
                bad.append(f"{tag} {k}={v}")
    if "@import" in raw or "@font-face" in raw:
        bad.append("@import/@font-face")
    return bad


def check_svg(name, host, work):
    out = os.path.join(work, name + ".svg")
    if os.path.exists(out):
        os.unlink(out)
    p = run([lxgpu, "--host", os.path.join(src, host["file"]), "topo", "--format", "svg", "-o", out])
    check(p.returncode == 0 and os.path.getsize(out) > 0,
          f"{name}: topo --format svg -o FILE exits 0 and writes it", [p.returncode, p.stderr.decode()])
    if p.returncode:
        return
    raw = open(out, encoding="utf-8").read()
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        check(False, f"{name}: the SVG is well-formed XML", [e])
        return
    check(root.tag == SVG + "svg", f"{name}: the document is an SVG", [root.tag])
    bad = self_contained(root, raw)
    check(not bad, f"{name}: self-contained (no script, image, style sheet or link)", bad)

    png = os.path.join(work, name + ".png")
    if shutil.which("rsvg-convert"):
        r = run(["rsvg-convert", out, "-o", png])
        size = png_size(png) if r.returncode == 0 else None
        check(size is not None and 400 <= size[0] <= 4000 and 150 <= size[1] <= 3000
              and os.path.getsize(png) > 5000,
              f"{name}: rsvg-convert renders it to a PNG of a readable size ({size})",
              [r.returncode, r.stderr.decode()])
    else:
        skip(f"{name}: rsvg-convert renders it", "rsvg-convert not installed (librsvg2-bin)")

    up = ancestors(root)
    all_text = texts(root)
    gpu_groups = {g.get("data-bdf"): g for g in root.iter(SVG + "g") if g.get("class") == "gpu"}
    for bdf, (index, numa, root_port, switch, nodes, iommu) in host["gpus"].items():
        shown = [t for t in all_text if bdf in t]
        check(len(shown) == 1, f"{name}: GPU {bdf} is written exactly once", shown)
        g = gpu_groups.get(bdf)
        if g is None:
            check(False, f"{name}: GPU {bdf} has a box", sorted(gpu_groups))
            continue
        words = " | ".join(texts(g))
        want = [f"GPU {index}", iommu] + nodes
        missing = [w for w in want if w not in words]
        check(not missing, f"{name}: GPU {bdf}'s box says {', '.join(want)}", missing + [words])
        groups = {e.get("class"): e for e in up(g) if e.tag == SVG + "g"}
        numa_g = groups.get("numa")
        check(numa_g is not None and numa_g.get("data-numa") == numa,
              f"{name}: GPU {bdf} is in NUMA node {numa}'s group",
              [numa_g.attrib if numa_g is not None else "none"])
        rp = groups.get("root-port")
        check((rp.get("data-bdf") if rp is not None else None) == root_port,
              f"{name}: GPU {bdf} is below root port {root_port}",
              [rp.attrib if rp is not None else "none"])
        sw = groups.get("switch")
        check((sw.get("data-bdf") if sw is not None else None) == switch,
              f"{name}: GPU {bdf} is below PCIe switch {switch}",
              [sw.attrib if sw is not None else "none"])
        # In the picture: the GPU's box is to the right of its NUMA node's
        # and switch's frames and within their height.
        gx, gy, gw, gh = rect_of(g)
        cy = gy + gh / 2
        for what, e in (("NUMA node", numa_g), ("switch", sw)):
            if e is None:
                continue
            frame = e.find(SVG + "rect")
            fx, fy, fw, fh = (float(frame.get(k)) for k in ("x", "y", "width", "height"))
            check(fy <= cy <= fy + fh and gx >= fx + fw - 1,
                  f"{name}: GPU {bdf}'s box is drawn beside its {what}'s frame, within its height",
                  [(gx, gy, gw, gh), (fx, fy, fw, fh)])

    pairs = expected_pairs(host)
    cells = [g for g in root.iter(SVG + "g") if "pair" in (g.get("class") or "").split()]
    if not pairs:
        check(not cells and any("no pair to judge" in t for t in all_text),
              f"{name}: no pair of GPUs bound to nvidia: says so, draws no pair", [len(cells)])
    for (a, b), (link, verdict) in sorted(pairs.items()):
        mine = [c for c in cells if c.get("data-gpus") == f"{a} {b}"]
        words = [texts(c) for c in mine]
        check(len(mine) == 2 and all(w == [link, verdict] for w in words),
              f"{name}: pair {a}-{b} is drawn twice as {link} {verdict}", words)
        cross = link == "SYS"
        marked = [("cross-socket" in c.get("class").split()) and
                  c.find(SVG + "rect").get("stroke-dasharray") is not None for c in mine]
        check(mine and all(m == cross for m in marked),
              f"{name}: pair {a}-{b} is {'' if cross else 'not '}marked as across sockets", marked)
    notes = [" ".join(texts(g)) for g in root.iter(SVG + "g") if g.get("class") == "p2p-note"]
    for (a, b), bridges in host["blocked"].items():
        said = [t for t in notes if re.search(rf"(^| ){a}-{b}( |$)", t) and "not-ready" in t]
        check(len(said) == 1 and all(br in said[0] for br in bridges),
              f"{name}: pair {a}-{b} is said blocked by ACS at {', '.join(bridges)}", notes)
        for br in bridges:
            box = [g for g in root.iter(SVG + "g") if g.get("data-bdf") == br]
            check(len(box) == 1 and box[0].get("data-blocks") == "p2p" and
                  any(f"redirects P2P {a}-{b}" in t for t in texts(box[0])),
                  f"{name}: bridge {br}'s box says it redirects P2P of {a}-{b}",
                  [texts(x) for x in box])
    if not host["blocked"]:
        check(not any("not-ready" in t for t in notes) and
              not any(g.get("data-blocks") for g in root.iter(SVG + "g")),
              f"{name}: no pair is said blocked, no bridge drawn as blocking", notes)


def check_dot(name, host, work):
    p = run([lxgpu, "--host", os.path.join(src, host["file"]), "topo", "--format", "dot"])
    check(p.returncode == 0 and p.stdout.startswith(b"digraph"),
          f"{name}: topo --format dot exits 0 and prints a digraph", [p.returncode, p.stderr.decode()])
    if p.returncode or not shutil.which("dot"):
        if not shutil.which("dot"):
            skip(f"{name}: dot -Tsvg renders it", "Graphviz's dot not installed (graphviz)")
        return
    r = run(["dot", "-Tsvg"], input=p.stdout)
    check(r.returncode == 0 and not r.stderr.strip(), f"{name}: dot -Tsvg renders it without a warning",
          [r.returncode, r.stderr.decode()])
    if r.returncode:
        return
    root = ET.fromstring(r.stdout)
    # Graphviz writes each node and each cluster as a <g> with its label's
    # text and its outline (a polygon or path); a GPU is inside a cluster
    # when its label's text lies within the cluster's outline.
    def outline(g):
        pts = []
        for e in g:
            if e.tag in (SVG + "polygon",):
                pts += [tuple(map(float, p.split(","))) for p in e.get("points").split()]
            elif e.tag == SVG + "path":
                nums = list(map(float, re.findall(r"-?[\d.]+", e.get("d"))))
                pts += list(zip(nums[0::2], nums[1::2]))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys)) if pts else None

    def anchor(g):
        t = g.find(SVG + "text")
        return float(t.get("x")), float(t.get("y"))

    # (Graphviz adds a node's or cluster's own class after its kind)
    nodes = [g for g in root.iter(SVG + "g") if "node" in (g.get("class") or "").split()]
    clusters = [g for g in root.iter(SVG + "g") if "cluster" in (g.get("class") or "").split()]
    for bdf, (index, numa, root_port, switch, devs, iommu) in host["gpus"].items():
        mine = [g for g in nodes if any(bdf in t for t in texts(g))]
        check(len(mine) == 1, f"{name}: dot: GPU {bdf} is one node", [texts(g) for g in mine])
        if len(mine) != 1:
            continue
        x, y = anchor(mine[0])
        want = {"numa": "NUMA node " + (numa if numa != "-1" else "-")}
        if switch:
            want["switch"] = "PCIe switch " + switch
        for what, label in want.items():
            frames = [c for c in clusters if label in " ".join(" ".join(texts(c)).split())]
            box = outline(frames[0]) if len(frames) == 1 else None
            check(box is not None and box[0] <= x <= box[2] and box[1] <= y <= box[3],
                  f"{name}: dot: GPU {bdf} is drawn inside the frame '{label}'", [box, (x, y)])
    pairs_table = [g for g in nodes if any("GPU pairs" in t for t in texts(g))]
    words = " ".join(texts(pairs_table[0])) if pairs_table else ""
    for (a, b), bridges in host["blocked"].items():
        check(all(br in words for br in bridges) and "not-ready" in words,
              f"{name}: dot: the pairs say {a}-{b} is blocked at {', '.join(bridges)}", [words])
    if expected_pairs(host) and any(v[0] == "SYS" for v in expected_pairs(host).values()):
        check("across sockets" in words, f"{name}: dot: the pairs say which cross sockets", [words])


def check_containers(work):
    """--containers: the holders from the configs, as audit reads them. A
    container's devN line naming /dev/nvidiaN holds the GPU whose driver
    minor is N (the snapshot's `minor`)."""
    pve = os.path.join(work, "pve")
    os.makedirs(os.path.join(pve, "lxc"), exist_ok=True)
    for d in ("lxc", "state", "cgroup"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    confs = {
        "101": "arch: amd64\nhostname: ml-train\nostype: debian\ndev0: /dev/nvidia0\n"
               "dev1: /dev/nvidiactl\ndev2: /dev/nvidia-uvm\n",
        "102": "arch: amd64\nhostname: web\nostype: debian\n",
        "103": "arch: amd64\nhostname: pair\nostype: debian\ndev0: /dev/nvidia0\n"
               "dev1: /dev/nvidia5\ndev2: /dev/nvidiactl\n",
    }
    for ct, text in confs.items():
        with open(os.path.join(pve, "lxc", ct + ".conf"), "w", encoding="utf-8") as f:
            f.write(text)
    # GPU address -> the containers that must be named in its box
    want = {"0000:18:00.0": ["CT 101 ml-train", "CT 103 pair"], "0000:ba:00.0": ["CT 103 pair"]}
    common = [lxgpu, "--host", os.path.join(src, "examples/hosts/pve-8x-rtx-pro-6000.yaml"),
              "--pve-dir", pve, "--lxc-path", os.path.join(work, "lxc"),
              "--state-dir", os.path.join(work, "state"), "--cgroup-root", os.path.join(work, "cgroup"),
              "topo", "--containers", "--format"]
    p = run(common + ["svg"])
    check(p.returncode == 0, "containers: topo --format svg --containers exits 0",
          [p.returncode, p.stderr.decode()])
    if p.returncode:
        return
    root = ET.fromstring(p.stdout)
    for g in root.iter(SVG + "g"):
        if g.get("class") != "gpu":
            continue
        bdf = g.get("data-bdf")
        words = texts(g)
        cts = [t for t in words if t.startswith("CT ")]
        expect = want.get(bdf, [])
        ok = (len(cts) == len(expect) and all(any(t.startswith(e) for t in cts) for e in expect)
              and (expect or "no container" in words))
        check(ok, f"containers: GPU {bdf} is held by {', '.join(expect) or 'no container'}", words)
    p = run(common + ["dot"])
    r = run(["dot", "-Tsvg"], input=p.stdout) if shutil.which("dot") and p.returncode == 0 else None
    if r is None:
        check(p.returncode == 0, "containers: topo --format dot --containers exits 0", [p.stderr.decode()])
        return
    check(r.returncode == 0, "containers: dot -Tsvg renders the DOT with containers", [r.stderr.decode()])
    words = " ".join(texts(ET.fromstring(r.stdout)))
    check(words.count("CT 101") == 1 and words.count("CT 103") == 2 and "CT 102" not in words,
          "containers: dot: a node per holding, none for a container without GPUs", [words])


def check_usage():
    host = os.path.join(src, "examples/hosts/pve-rtx-4090.yaml")
    for args, why in ((["topo", "--containers"], "--containers without a picture"),
                      (["topo", "--format", "svg", "--p2p"], "a picture with --p2p"),
                      (["scan", "--format", "svg"], "--format svg for scan")):
        p = run([lxgpu, "--host", host] + args)
        check(p.returncode == 2 and not p.stdout and p.stderr,
              f"usage: {why} is refused (exit 2, said on stderr)", [p.returncode, p.stdout[:200]])


with tempfile.TemporaryDirectory() as work:
    for name, host in HOSTS.items():
        check_svg(name, host, work)
        check_dot(name, host, work)
    # every example host is checked here
    examples = sorted(f[:-5] for f in os.listdir(os.path.join(src, "examples/hosts")) if f.endswith(".yaml"))
    missing = [e for e in examples if e not in HOSTS]
    check(not missing, "every example host has its expectations here", missing)
    check_containers(work)
    check_usage()

print(f"1..{n}")
sys.exit(1 if failed else 0)
