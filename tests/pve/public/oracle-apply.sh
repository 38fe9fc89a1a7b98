#!/bin/sh
# Proxmox's own parser (pve-oracle, /work/shared/tools/pve-oracle) on every
# public config before and after `lxgpu apply` (as run-public.sh applies it):
# prints oracle-apply.txt (one line per config: name, warnings before,
# warnings after, new ones). Needs the extracted Proxmox code (get-lib.sh);
# not run by meson (CI has no Proxmox code). Usage:
#   oracle-apply.sh LXGPU EXAMPLES_DIR PUBLIC_DIR [PVE_PARSE] > oracle-apply.txt
# A warning is what PVE reports on a normal (non-strict) read, a devN that
# does not parse, an lxc.* key it rejects, or the strict read's error; the
# VMID is the same before and after, so the texts compare.
set -u
lxgpu=$1 examples=$2 public=$(cd "$3" && pwd)
parse=${4:-/work/shared/tools/pve-oracle/pve-parse}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh "$(dirname "$0")/run-public.sh" "$lxgpu" "$examples" "$public" "$work/after" >"$work/tap" ||
	{ echo "run-public.sh failed" >&2; exit 1; }

warnings() { # FILE: one warning a line
	cp "$1" "$work/100.conf"
	"$parse" "$work/100.conf" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ns, st = d.get("nonstrict") or {}, d.get("strict") or {}
w = ["warning: " + x for x in ns.get("warnings") or []]
if ns.get("error"): w.append("error: " + ns["error"])
if not st.get("ok", True) and st.get("error"): w.append("strict error: " + st["error"])
for c in d.get("dev_checks") or []:
    if not c.get("ok", True): w.append("%s %s: %s" % (c["section"], c["key"], c.get("error")))
for c in d.get("lxc_key_checks") or []:
    if c.get("result") != 1: w.append("lxc key %s: %s" % (c["key"], c.get("result")))
for x in w: print(" ".join(x.split()))
'
}

lib=/tmp/pve-perl
echo "# Proxmox's parser (pve-oracle; pve-container $(sed -n 's/^proxmox\/pve-container //p' "$lib/VERSIONS" 2>/dev/null))"
echo "# on each public config before and after lxgpu apply (run-public.sh's host and flags); made by oracle-apply.sh"
echo "# name warnings-before warnings-after [new: ...]"
for conf in "$public"/[0-9]*.conf "$public"/[0-9]*.lxc; do
	file=$(basename "$conf")
	warnings "$conf" | sort >"$work/before"
	if [ -f "$work/after/$file" ]; then
		warnings "$work/after/$file" | sort >"$work/after.w"
	else
		cp "$work/before" "$work/after.w" # apply refused: the file is unchanged
	fi
	new=$(comm -13 "$work/before" "$work/after.w" | paste -sd ';' -)
	line="$file $(wc -l <"$work/before") $(wc -l <"$work/after.w")"
	[ -z "$new" ] || line="$line new: $new"
	case $file in *.lxc) line="$line (plain LXC config, read as a PVE one)" ;; esac
	echo "$line"
done
