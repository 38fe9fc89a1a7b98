#!/usr/bin/env python3
# Write docs/kmsg-catalogue.md from the table in src/doctor/catalogue.c
# (test-doctor checks that every row of the table is on the page).
# Usage: tools/gen-kmsg-catalogue.py   (from anywhere in the tree)
import os, re
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src=open(os.path.join(root,'src/doctor/catalogue.c')).read()
body=src[src.index('static const struct lx_kmsg_entry catalogue[] = {'):src.index('};\n\nconst struct lx_kmsg_entry *lx_kmsg_catalogue')]
body=re.sub(r'/\*.*?\*/','',body,flags=re.S)
entries=re.findall(r'\{\s*((?:"(?:[^"\\]|\\.)*"\s*|XID\(\d+\)\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*|XID\(\d+\)\s*|BDF\s*)+),\s*(LXG\d+)_\w+,\s*LX_SEVERITY_(\w+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*([\w| ]+)\}',body)
def cstr(s):
    parts=re.findall(r'"((?:[^"\\]|\\.)*)"|XID\((\d+)\)|(BDF)',s)
    out=''
    for a,x,b in parts:
        if b: out+='[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]'
        elif x: out+='NVRM: Xid \\((PCI:)?[0-9a-fA-F:.]+\\): %s,'%x
        else: out+=a.encode().decode('unicode_escape')
    return out
rows=[]
for e in entries:
    id_,pat,code,sev,cause,fix,flags=e
    rows.append((cstr(id_),cstr(pat),code,sev.lower(),cstr(cause),cstr(fix),flags.strip()))
def esc(s): return s.replace('|','\\|')
out=['# The kernel log catalogue','',
'`lxgpu doctor` reads the kernel log of the current boot (`/dev/kmsg`, or a',
'saved `dmesg` / `journalctl -k` text given with `--kmsg FILE`) and matches',
'every message against this table (`src/doctor/catalogue.c`, one row per',
'message; the first matching row wins). A match is a finding with the row\'s',
'code ([findings.md](findings.md)), severity, cause and fix, and the matched',
'line(s) as its `evidence`; the same cause on the same GPU is one finding',
'(counted). Only the current boot counts: in a saved log, the lines after the',
'last `-- Boot` separator (journalctl) or `Linux version` line (dmesg).',
'',
'Patterns are POSIX extended regular expressions over the message with its',
'timestamp, host and `kernel:` prefix removed; a message the kernel printed over',
'several lines (continuation lines, `NVRM:` lines of one message) is matched as',
'one line. Flags: `gpu` counts only when the line names a GPU of the host that nvidia drives',
'(or the nvidia driver as the device); `no-nvidia` only when nvidia or',
'nvidia_uvm is not loaded; `previous` quotes the message before it too.',
'',
'Each row has a real line from a public report in `tests/doctor/kmsg/<id>.log`',
'(sources in the README there); `test-doctor` checks that every row matches',
'its line, that no row matches clean boot logs, and that this page lists every',
'row of the table (the page is written by tools/gen-kmsg-catalogue.py).',
'',
'| id | code | severity | pattern | cause | fix | flags |',
'|---|---|---|---|---|---|---|']
want=len(re.findall(r'^\t\{"', body, re.M))
if want != len(rows):
    raise SystemExit('gen-kmsg-catalogue: read %d of the table\'s %d rows: teach it the new row\'s form' % (len(rows), want))
fl={'0':'','LX_KMSG_GPU_ONLY':'gpu','LX_KMSG_NVIDIA_MISSING':'no-nvidia','LX_KMSG_WITH_PREVIOUS':'previous'}
for r in rows:
    out.append('| `%s` | %s | %s | `%s` | %s | %s | %s |'%(r[0],r[2],r[3],esc(r[1]),esc(r[4]),esc(r[5]),fl.get(r[6],r[6])))
out.append('')
out.append('Xid numbers: the meaning given is NVIDIA\'s Xid catalogue\'s (docs.nvidia.com/deploy/xid-errors); a number without a row of its own gets the generic `xid` row.')
open(os.path.join(root,'docs/kmsg-catalogue.md'),'w').write('\n'.join(out)+'\n')
print(len(rows), 'rows')
