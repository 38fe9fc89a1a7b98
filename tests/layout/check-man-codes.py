#!/usr/bin/env python3
# The man page lists doctor's codes: the list under *doctor* in
# docs/lxgpu.1.scd ("- LXGnnn ...") holds exactly the codes of
# src/report/finding-table.c that doctor owns (LXG100-LXG199 but the
# fleet's LXG180-LXG184: audit --cluster and preflight --to), each once;
# no scdoc markup the page would show
# literally; the README's table of example hosts is the tree's. Usage: check-man-codes.py SOURCE_ROOT  (TAP)
import re, sys

root = sys.argv[1]
table = open(root + '/src/report/finding-table.c').read()
codes = {int(c) for c in re.findall(r'\{"LXG(\d{3})"', table)}
fleet = set(range(180, 185))
doctor = {c for c in codes if 100 <= c < 200 and c not in fleet}

man = open(root + '/docs/lxgpu.1.scd').read()
m = re.search(r'^\*doctor\*.*?(?=^\*[a-z])', man, re.S | re.M)
section = m.group(0) if m else ''
listed = [int(c) for c in re.findall(r'^\t- LXG(\d{3}) ', section, re.M)]

n = 0
def report(good, what, detail=''):
    global n
    n += 1
    print(('ok %d - %s' if good else 'not ok %d - %s') % (n, what))
    if not good and detail:
        print('# ' + detail)
    return good

fails = 0
fails += not report(bool(section), 'docs/lxgpu.1.scd has a *doctor* section')
fails += not report(len(doctor) > 20, 'finding-table.c has doctor codes', 'found %d' % len(doctor))
missing = sorted(doctor - set(listed))
extra = sorted(set(listed) - doctor)
dup = sorted({c for c in listed if listed.count(c) > 1})
fails += not report(not missing, "the man page lists every doctor code of finding-table.c",
                    'missing: ' + ' '.join('LXG%03d' % c for c in missing))
fails += not report(not extra, "the man page lists no code finding-table.c lacks",
                    'not in the table: ' + ' '.join('LXG%03d' % c for c in extra))
fails += not report(not dup, 'each code once', 'twice: ' + ' '.join('LXG%03d' % c for c in dup))
fails += not report(listed == sorted(listed), 'in order')
# scdoc underlines _WORD_ only as a word of its own: glued to a word
# ("gi_X_/ci_Y_") the page shows the underscores (issue 32)
glued = re.findall(r'[a-z0-9]_[A-Z]+_|_[A-Z]+_[a-z0-9]', man)
fails += not report(not glued, 'no _PLACEHOLDER_ glued to a word (scdoc prints it as it is)',
                    'found: ' + ' '.join(glued))
# the README's example-host table lists every snapshot of examples/hosts,
# each once, and the count it says (issue 32)
import os
readme = open(root + '/README.md').read()
hosts = sorted(f for f in os.listdir(root + '/examples/hosts') if f.endswith('.yaml'))
m = re.search(r'^## Example hosts\n(.*?)(?=^## )', readme, re.S | re.M)
rows = re.findall(r'^\| `([^`]+\.yaml)` \|', m.group(1) if m else '', re.M)
fails += not report(sorted(rows) == hosts and len(set(rows)) == len(rows),
                    "the README's example-host table lists examples/hosts/*.yaml, each once",
                    'table: %s; tree: %s' % (rows, hosts))
words = {1: 'one', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine'}
said = re.search(r'holds snapshots of (\w+) host shapes', m.group(1) if m else '')
fails += not report(bool(said) and said.group(1) == words.get(len(hosts), str(len(hosts))),
                    'it says how many there are', said.group(0) if said else 'no count')
print('1..%d' % n)
sys.exit(1 if fails else 0)
