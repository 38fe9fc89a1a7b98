#!/bin/sh
# --style include on made-up hosts: a temp --proc-dir laid out as the driver
# does (devices, modules, driver/nvidia/gpus), a temp --dev-dir whose nodes
# ensure-nodes makes (root: mknod), a --pve-dir / --lxc-path with the
# container's config and a --state-dir. Expected values come from the
# made-up host itself, not from lxgpu: the majors written into its
# /proc/devices (195 nvidia, UVM nvidia-uvm), each GPU's "Device Minor" at
# its PCI address, and the config lines Proxmox and LXC read
# (pve-container's raw-key form "lxc.include: PATH", LXC's "key = value").
# Usage: test-include.sh LXGPU   (TAP output)
set -u
lxgpu=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP mknod needs root"
	exit 0
fi

h="$work/host"
state="$work/state"
inc="$state/lxc/101.conf"
# host UVM MINOR_A [MINOR_B]: GPU A at 0000:41:00.0, GPU B at 0000:42:00.0
# (left out when MINOR_B is empty: the card is gone).
. "$(dirname "$0")/../lib/proc-host.sh"
host() { proc_host "$h" "$@"; }
lx() {
	"$lxgpu" --proc-dir "$h/proc" --dev-dir "$h/dev" --firmware-dir "$work/none" --run-dir "$work/none" \
		--pve-dir "$h/pve" --lxc-path "$h/lxc" --state-dir "$state" "$@" >"$work/out" 2>"$work/err"
}
apply() { lx --backup-dir "$work/backups" --lock-dir "$work" apply "$@"; }
fail() { cat "$work/out" "$work/err"; return 1; }
# The record apply keeps of CT 101 (GPU A, as recorded before any change).
record() { # STYLE GPU_PCI...
	style=$1
	shift
	mkdir -p "$state/containers"
	{
		printf 'schema: 1\nid: "101"\nconfig_path: %s\nstyle: %s\nunprivileged: false\ndri: false\ncaps: false\nexclusive: false\nrecorded_at: "2026-12-01T00:00:00Z"\ngpus:\n' \
			"$h/pve/lxc/101.conf" "$style"
		for pci in "$@"; do
			case $pci in
			0000:41:00.0) printf -- '- pci: "%s"\n  uuid: GPU-aaaaaaaa-0000-0000-0000-000000000041\n  minor: 0\n' "$pci" ;;
			*) printf -- '- pci: "%s"\n  uuid: GPU-bbbbbbbb-0000-0000-0000-000000000042\n  minor: 1\n' "$pci" ;;
			esac
		done
	} >"$state/containers/101.yaml"
}
# The lines of the include file that are config (no comments).
lines() { grep -v '^#' "$1"; }

host 511 0 1
lx ensure-nodes || fail

# The hand recipe (FACTS section 4) plus the user's own lines, a snapshot.
cat >"$h/pve/lxc/101.conf" <<'CONF'
# my notes
arch: amd64
hostname: ct
memory: 2048
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.cgroup2.devices.allow: c 509:* rwm
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file
lxc.mount.entry: /dev/nvidiactl dev/nvidiactl none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,optional,create=file
lxc.cgroup2.devices.allow: c 242:* rwm
lxc.mount.entry: /srv/data srv/data none bind,create=dir 0 0
ostype: debian

[before-gpu]
arch: amd64
hostname: ct
CONF
cp "$h/pve/lxc/101.conf" "$work/original.conf"

t_apply() {
	apply 101 --style include --gpus 0000:41:00.0 || fail || return 1
	# Every line but the NVIDIA ones is kept in place, byte for byte:
	# hidraw's rule (242 is in /proc/devices) and the recipe's 509 rule (no
	# device has 509 on this host, so nothing says it is NVIDIA's: it stays,
	# and apply says so). The NVIDIA lines give way to one lxc.include line
	# where the first of them was.
	grep -v -e '^lxc.mount.entry: /dev/nvidia' "$work/original.conf" |
		sed "s|^lxc.cgroup2.devices.allow: c 195:\\* rwm\$|lxc.include: $inc|" >"$work/want.conf"
	diff -u "$work/want.conf" "$h/pve/lxc/101.conf" || return 1
	grep -qF "'lxc.cgroup2.devices.allow: c 509:* rwm' is kept" "$work/err" || fail || return 1
	# The include file: LXC's key = value lines with this host's numbers.
	printf '%s\n' 'lxc.cgroup2.devices.allow = c 195:0 rw' 'lxc.cgroup2.devices.allow = c 195:255 rw' \
		'lxc.cgroup2.devices.allow = c 511:0 rw' 'lxc.cgroup2.devices.allow = c 511:1 rw' \
		'lxc.mount.entry = /dev/nvidia0 dev/nvidia0 none bind,create=file' \
		'lxc.mount.entry = /dev/nvidiactl dev/nvidiactl none bind,create=file' \
		'lxc.mount.entry = /dev/nvidia-uvm dev/nvidia-uvm none bind,create=file' \
		'lxc.mount.entry = /dev/nvidia-uvm-tools dev/nvidia-uvm-tools none bind,create=file' >"$work/want.inc"
	lines "$inc" | diff -u "$work/want.inc" - || return 1
	head -1 "$inc" | grep -q '^# lxgpu include file' &&
		# the record ensure-nodes rewrites it from: style include, the GPU by PCI address
		grep -qx 'style: include' "$state/containers/101.yaml" &&
		grep -qx -- '- pci: "\{0,1\}0000:41:00.0"\{0,1\}' "$state/containers/101.yaml" ||
		{ cat "$state/containers/101.yaml"; return 1; }
}
check "apply --style include: hand recipe replaced by one lxc.include line, user lines and the snapshot kept" t_apply

t_again() {
	cp "$h/pve/lxc/101.conf" "$work/c1" && cp "$inc" "$work/i1" &&
		apply 101 || fail || return 1
	cmp -s "$work/c1" "$h/pve/lxc/101.conf" && cmp -s "$work/i1" "$inc" &&
		grep -q 'already has these GPU lines; nothing written' "$work/out" || fail
}
check "a second apply (the style taken from the config) writes nothing" t_again

t_dry() {
	apply 101 --dry-run
	[ $? -eq 0 ] && [ ! -s "$work/out" ] || fail
}
check "apply --dry-run after it: no diff, exit 0" t_dry
t_gen_paste() {
	# what is pasted into a PVE config: the one line, no '#' line (PVE would
	# make it the CT's description)
	lx generate 101 --style include --no-comments || fail
	[ "$(cat "$work/out")" = "lxc.include: $inc" ] || fail
}
check "generate --style include --no-comments: only the lxc.include line" t_gen_paste

t_gen_all() {
	# Without --gpus, generate gives every GPU (its --help), in the include
	# style too: both made-up GPUs' nodes (minors 0 and 1 at 195), not "No
	# GPU". The apply command it names, run as printed, writes that file.
	printf 'arch: amd64\nhostname: new\nostype: debian\n' >"$h/pve/lxc/102.conf"
	lx generate 102 --style include --comments || fail || return 1
	sed -n '/^# ---- .*102.conf ----$/,$p' "$work/out" | tail -n +2 >"$work/gen.inc"
	grep -qx 'lxc.cgroup2.devices.allow = c 195:0 rw' "$work/gen.inc" &&
		grep -qx 'lxc.cgroup2.devices.allow = c 195:1 rw' "$work/gen.inc" &&
		grep -qx 'lxc.mount.entry = /dev/nvidia1 dev/nvidia1 none bind,create=file' "$work/gen.inc" &&
		! grep -q 'No GPU' "$work/gen.inc" || fail || return 1
	cmd=$(sed -n "s/^# '\(lxgpu apply 102 [^']*\)' writes .*/\1/p" "$work/out")
	[ "$cmd" = "lxgpu apply 102 --style include --gpus all" ] || fail || return 1
	eval "apply ${cmd#lxgpu apply }" || fail || return 1
	cmp "$work/gen.inc" "$state/lxc/102.conf" || fail
}
check "generate --style include without --gpus: every GPU, and the apply it names writes that file" t_gen_all

t_caps_kept() {
	# A MIG capability the user gives by hand: its bind and its rule stay
	# (which capabilities a container gets is the user's choice).
	mkdir -p "$h/dev/nvidia-caps" && { [ -e "$h/dev/nvidia-caps/nvidia-cap1" ] || mknod -m 0400 "$h/dev/nvidia-caps/nvidia-cap1" c 508 1; } &&
		cat >"$h/pve/lxc/103.conf" <<'CONF'
arch: amd64
lxc.cgroup2.devices.allow: c 195:* rwm
lxc.cgroup2.devices.allow: c 508:* rw
lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file
lxc.mount.entry: /dev/nvidia-caps/nvidia-cap1 dev/nvidia-caps/nvidia-cap1 none bind,create=file
ostype: debian
CONF
	apply 103 --style include --gpus 0000:41:00.0 || fail || return 1
	grep -qx 'lxc.cgroup2.devices.allow: c 508:\* rw' "$h/pve/lxc/103.conf" &&
		grep -qx 'lxc.mount.entry: /dev/nvidia-caps/nvidia-cap1 dev/nvidia-caps/nvidia-cap1 none bind,create=file' "$h/pve/lxc/103.conf" &&
		! grep -q 'c 195:\*\|/dev/nvidia0' "$h/pve/lxc/103.conf" && ! grep -q 'nvidia-caps' "$state/lxc/103.conf" ||
		{ cat "$h/pve/lxc/103.conf" "$state/lxc/103.conf"; fail; }
}
check "capability lines the user wrote (bind and its 508 rule) stay in the config" t_caps_kept

t_plain_lxc() {
	mkdir -p "$h/lxc/web"
	printf 'lxc.uts.name = web\nlxc.rootfs.path = dir:/srv/web\nlxc.include = /usr/share/lxc/config/common.conf\n' \
		>"$h/lxc/web/config"
	apply web --style include --gpus 0000:42:00.0 || fail || return 1
	printf 'lxc.uts.name = web\nlxc.rootfs.path = dir:/srv/web\nlxc.include = /usr/share/lxc/config/common.conf\nlxc.include = %s\n' \
		"$state/lxc/web.conf" | diff -u - "$h/lxc/web/config" &&
		lines "$state/lxc/web.conf" | grep -qx 'lxc.mount.entry = /dev/nvidia1 dev/nvidia1 none bind,create=file'
}
check "plain LXC: 'lxc.include = PATH' appended, GPU B's /dev/nvidia1 in the file" t_plain_lxc

t_not_ours() {
	mkdir -p "$h/lxc/mine" && printf 'lxc.uts.name = mine\n' >"$h/lxc/mine/config" &&
		printf 'lxc.mount.entry = /dev/fuse dev/fuse none bind,create=file\n' >"$state/lxc/mine.conf"
	apply mine --style include --gpus 0
	rc=$?
	[ $rc -eq 2 ] && grep -q "is not lxgpu's include file" "$work/err" &&
		[ "$(cat "$state/lxc/mine.conf")" = 'lxc.mount.entry = /dev/fuse dev/fuse none bind,create=file' ] &&
		[ "$(cat "$h/lxc/mine/config")" = 'lxc.uts.name = mine' ] || { echo "exit $rc"; fail; }
}
check "a file at the include path that lxgpu did not write: exit 2, nothing written" t_not_ours

t_fresh() {
	record include 0000:41:00.0
	lx verify 101
	rc=$?
	! grep -q 'LXG04' "$work/out" || { echo "exit $rc"; fail; }
}
check "verify right after apply: no include finding" t_fresh

t_stale() {
	# nvidia-uvm came back with major 509 (the node is still 511:0).
	host 509 0 1
	lx verify 101
	rc=$?
	[ $rc -eq 1 ] && grep -q "LXG042 .*it has 'lxc.cgroup2.devices.allow = c 511:0 rw' where the host needs 'lxc.cgroup2.devices.allow = c 509:0 rw'" "$work/out" ||
		{ echo "exit $rc"; fail; }
}
check "uvm major 511 -> 509: verify reports the stale include (LXG042), exit 1" t_stale
# preflight says the same finding with verify's severity (an error), and
# its exit status follows it (the start is degraded)
t_stale_preflight() {
	lx verify 101 --format json
	json_ok "$work/out" || fail || return 1
	vsev=$(jq -r '[.findings[] | select(.code == "LXG042") | .severity] | unique | join(",")' "$work/out")
	lx preflight 101 --format json
	rc=$?
	[ "$vsev" = error ] && [ $rc -eq 1 ] && json_ok "$work/out" && jq -e '.next_start[0] | .verdict == "degraded" and
		([.reasons[] | select(.code == "LXG042") | .severity] | unique) == ["error"]' "$work/out" >/dev/null ||
		{ echo "exit $rc, verify's LXG042: $vsev"; fail; }
}
check "the stale include in preflight: LXG042 an error as in verify, exit 1" t_stale_preflight

t_dry_en() {
	cp "$inc" "$work/i2"
	lx ensure-nodes --dry-run || fail || return 1
	cmp -s "$work/i2" "$inc" && grep -q "^would rewrite $inc (CT 101)" "$work/out" || fail
}
check "ensure-nodes --dry-run: says it would rewrite the file, leaves it" t_dry_en

t_regen() {
	lx ensure-nodes || fail || return 1
	lines "$inc" | grep -c ' 509:' | grep -qx 2 && ! grep -q ' 511:' "$inc" &&
		grep -q "^rewrite $inc (CT 101)" "$work/out" || { cat "$inc"; fail; }
	ls -i "$inc" >"$work/ino"
	lx verify 101
	! grep -q 'LXG04' "$work/out" || fail
}
check "ensure-nodes rewrites it with 509; verify is then clean of include findings" t_regen

t_idem() {
	lx ensure-nodes && ls -i "$inc" | cmp -s - "$work/ino" && ! grep -q "rewrite" "$work/out" || fail
}
check "a second ensure-nodes leaves the file alone (same inode)" t_idem

t_renumber() {
	# The two GPUs' minors swapped: 0000:41:00.0 is /dev/nvidia1 now.
	host 509 1 0
	lx ensure-nodes || fail || return 1
	lines "$inc" | grep -qx 'lxc.mount.entry = /dev/nvidia1 dev/nvidia1 none bind,create=file' &&
		lines "$inc" | grep -qx 'lxc.cgroup2.devices.allow = c 195:1 rw' &&
		! grep -q 'nvidia0\| 195:0 ' "$inc" || { cat "$inc"; fail; }
}
check "GPU minors swapped: the file follows 0000:41:00.0 to /dev/nvidia1, never /dev/nvidia0" t_renumber

t_bus_renumbered() {
	# The bus numbered anew: card A (its UUID) is at 0000:61:00.0 now, still
	# /dev/nvidia1. The file follows the card, not the address.
	host 509 1 0
	g="$h/proc/driver/nvidia/gpus"
	mv "$g/0000:41:00.0" "$g/0000:61:00.0" &&
		sed -i 's/0000:41:00.0/0000:61:00.0/' "$g/0000:61:00.0/information" || return 1
	lx ensure-nodes -v || fail || return 1
	lines "$inc" | grep -qx 'lxc.cgroup2.devices.allow = c 195:1 rw' && ! grep -q 'nvidia0\| 195:0 ' "$inc" &&
		grep -q 'GPU GPU-aaaaaaaa-0000-0000-0000-000000000041, recorded at 0000:41:00.0, is at 0000:61:00.0 now: the include file follows it' "$work/err" ||
		{ cat "$inc"; fail; }
	host 509 1 0
}
check "a bus numbered anew: the file follows the card's UUID to its new address" t_bus_renumbered

t_gone() {
	record include 0000:41:00.0 0000:42:00.0
	host 509 1
	lx ensure-nodes
	rc=$?
	[ $rc -eq 1 ] && grep -q 'GPU 0000:42:00.0 (recorded as /dev/nvidia1) is not on this host any more: left out of' "$work/err" &&
		! grep -q 'nvidia0' "$inc" && lines "$inc" | grep -qx 'lxc.cgroup2.devices.allow = c 195:1 rw' ||
		{ echo "exit $rc"; cat "$inc"; fail; }
	lx verify 101
	grep -q 'LXG044 .*GPU 0000:42:00.0' "$work/out" || fail
}
check "a recorded GPU gone: left out of the file and said, exit 1; verify LXG044" t_gone

t_missing() {
	rm "$inc"
	lx verify 101
	rc=$?
	[ $rc -eq 1 ] && grep -q "LXG040 .*includes $inc, which does not exist" "$work/out" || { echo "exit $rc"; fail; }
	lx preflight 101
	rc=$?
	[ $rc -eq 1 ] && grep -q 'will fail' "$work/out" || { echo "exit $rc"; fail; }
	lx ensure-nodes
	[ -f "$inc" ] && grep -q "^create $inc (CT 101)" "$work/out" || fail
}
check "include file missing: verify LXG040, preflight will fail, ensure-nodes makes it again" t_missing

# A root for --next-boot: a kernel whose nvidia module (an ELF object with
# a .modinfo section, as a .ko is) is the loaded version, its GSP firmware,
# and, with UNIT, lxgpu's boot unit enabled.
boot_root() { # DIR UNIT|none
	r=$1
	rm -rf "$r" && mkdir -p "$r/boot" "$r/lib/modules/6.8.12-9-pve/updates/dkms" "$r/lib/firmware/nvidia/590.48.01" &&
		: >"$r/boot/vmlinuz-6.8.12-9-pve" && : >"$r/lib/firmware/nvidia/590.48.01/gsp_ga10x.bin" &&
		printf '__attribute__((section(".modinfo"), used)) static const char a[] = "license=Dual MIT/GPL";\n__attribute__((section(".modinfo"), used)) static const char b[] = "version=590.48.01";\nint nvidia_probe(void) { return 0; }\n' \
			>"$work/mod.c" && ${CC:-cc} -c -o "$r/lib/modules/6.8.12-9-pve/updates/dkms/nvidia.ko" "$work/mod.c" || return 1
	[ "$2" = none ] && return 0
	mkdir -p "$r/etc/systemd/system/multi-user.target.wants"
	"$lxgpu" ensure-nodes --print-boot-unit >"$r/etc/systemd/system/lxgpu-nodes.service" &&
		ln -s ../lxgpu-nodes.service "$r/etc/systemd/system/multi-user.target.wants/lxgpu-nodes.service"
}
t_next_boot() {
	command -v "${CC:-cc}" >/dev/null || { echo "no C compiler to make the module"; return 1; }
	boot_root "$work/root-none" none && boot_root "$work/root-unit" unit || return 1
	record include 0000:41:00.0 && { lx ensure-nodes; grep -q "lxc.include" "$h/pve/lxc/101.conf"; } || fail || return 1
	# exit status 1: the reason is LXG042, an error as verify says a stale
	# include file (docs/findings.md), the start degraded
	lx preflight 101 --next-boot --root "$work/root-none" --kernel 6.8.12-9-pve --format json
	[ $? -eq 1 ] && json_ok "$work/out" && jq -e '.next_boot.containers[0] | .verdict == "degraded" and
		([.reasons[] | select(.message | test("nothing runs lxgpu ensure-nodes at boot")) | [.code, .severity]]
			== [["LXG042", "error"]])' \
		"$work/out" >/dev/null || fail || return 1
	lx preflight 101 --next-boot --root "$work/root-unit" --kernel 6.8.12-9-pve --format json
	[ $? -eq 0 ] && json_ok "$work/out" && jq -e '.next_boot.containers[0] | .verdict == "ok" and
		([.reasons[] | select(.message | test("lxgpu-nodes.service \\(enabled\\) runs lxgpu ensure-nodes"))] | length == 1)' \
		"$work/out" >/dev/null || fail
}
check "preflight --next-boot: degraded without a boot unit running ensure-nodes, ok with lxgpu's" t_next_boot

t_no_record() {
	rm "$state/containers/101.yaml"
	lx verify 101
	grep -q 'LXG043' "$work/out" || fail
}
check "no record: verify says ensure-nodes cannot rewrite it (LXG043)" t_no_record

t_corrupt() {
	record include 0000:41:00.0
	cp "$inc" "$work/i3"
	printf 'schema: 1\nid: "101"\ngpus: [\n' >"$state/containers/101.yaml"
	lx ensure-nodes
	rc=$?
	[ $rc -eq 2 ] && grep -q "101.yaml" "$work/err" && cmp -s "$work/i3" "$inc" || { echo "exit $rc"; fail; }
}
check "a corrupt record: exit 2 naming it, its include file left as it is" t_corrupt

t_rollback() {
	# Undo the include-style apply after the GUI changed another line: the
	# lxc.include line is apply's, the memory change the user's.
	printf 'arch: amd64\nhostname: r\nostype: debian\n' >"$h/pve/lxc/104.conf"
	apply 104 --style include --gpus 0000:41:00.0 || fail || return 1
	backup=$(cd "$work/backups" && ls 104-* | tail -1)
	sed -i 's/^hostname: r$/hostname: r\nmemory: 4096/' "$h/pve/lxc/104.conf"
	lx --backup-dir "$work/backups" --lock-dir "$work" rollback 104 "$backup" || fail || return 1
	printf 'arch: amd64\nhostname: r\nmemory: 4096\nostype: debian\n' | diff -u - "$h/pve/lxc/104.conf"
}
check "rollback of an include-style apply takes the lxc.include line out, keeps a later edit" t_rollback

# The include file is part of apply's transaction (issue 19 item 8): backed
# up with the config, written only once the backup is, and put back by
# rollback, which steps back through applies. Expected: the files' own
# earlier bytes (copies taken here), and the config with the admin's edit
# made by sed.
t_include_backed_up() {
	host 509 1 0 # both GPUs (the test before took B away)
	printf 'arch: amd64\nhostname: t\nostype: debian\n' >"$h/pve/lxc/105.conf"
	cp "$h/pve/lxc/105.conf" "$work/c105.orig"
	rm -f "$work/backups"/105-*
	apply 105 --style include --gpus 0000:41:00.0 || fail || return 1
	cp "$h/pve/lxc/105.conf" "$work/c105.a" && cp "$state/lxc/105.conf" "$work/i105.a" || fail || return 1
	# Another GPU: the config's one line stays, only the include file changes.
	apply 105 --style include --gpus 0000:42:00.0 || fail || return 1
	cmp -s "$work/c105.a" "$h/pve/lxc/105.conf" && ! cmp -s "$work/i105.a" "$state/lxc/105.conf" &&
		[ "$(ls "$work/backups" | grep -c '^105-')" -eq 2 ] || { ls "$work/backups"; fail; return 1; }
	b=$(ls "$work/backups"/105-* | sort | tail -1)
	tar -tzf "$b" | grep -qx 'include.before' && tar -tzf "$b" | grep -qx 'include.written' ||
		{ tar -tzf "$b"; return 1; }
	sed -i 's/^hostname: t$/hostname: t\nmemory: 4096/' "$h/pve/lxc/105.conf"
	sed 's/^hostname: t$/hostname: t\nmemory: 4096/' "$work/c105.a" >"$work/c105.a.want"
	sed 's/^hostname: t$/hostname: t\nmemory: 4096/' "$work/c105.orig" >"$work/c105.orig.want"
	lx --backup-dir "$work/backups" --lock-dir "$work" rollback 105 || fail || return 1
	cmp "$work/i105.a" "$state/lxc/105.conf" && cmp "$work/c105.a.want" "$h/pve/lxc/105.conf" ||
		{ diff -u "$work/i105.a" "$state/lxc/105.conf"; return 1; }
	lx --backup-dir "$work/backups" --lock-dir "$work" rollback 105 latest || fail || return 1
	cmp "$work/c105.orig.want" "$h/pve/lxc/105.conf" && [ ! -e "$state/lxc/105.conf" ] ||
		{ diff -u "$work/c105.orig.want" "$h/pve/lxc/105.conf"; ls -l "$state/lxc"; return 1; }
}
check "include file backed up with the config; two rollbacks: the include file's and the config's earlier bytes" t_include_backed_up

# crafted_rollback CT EDIT: an include-style apply of CT, its backup unpacked,
# EDIT run in the unpacked dir, packed again (every file there), and rolled back; the config and
# include file as they were before the rollback are kept as $work/c.CT and
# $work/i.CT, the rollback's exit status in $rc.
crafted_rollback() {
	printf 'arch: amd64\nhostname: c%s\nostype: debian\n' "$1" >"$h/pve/lxc/$1.conf"
	rm -f "$work/backups/$1"-*
	apply "$1" --style include --gpus 0000:41:00.0 || fail || return 1
	b=$(ls "$work/backups/$1"-* | sort | tail -1)
	rm -rf "$work/craft" && mkdir -p "$work/craft" && tar -xzf "$b" -C "$work/craft" || return 1
	(cd "$work/craft" && $2) || return 1
	(cd "$work/craft" && tar -czf "$work/crafted-$1.tar.gz" $(ls -A)) || return 1
	cp "$h/pve/lxc/$1.conf" "$work/c.$1" && cp "$state/lxc/$1.conf" "$work/i.$1" || return 1
	lx --backup-dir "$work/backups" --lock-dir "$work" rollback "$1" "$work/crafted-$1.tar.gz" >"$work/out" 2>"$work/err"
	rc=$?
	# Nothing written: the config's and the include file's bytes as they were.
	[ $rc -eq 2 ] && cmp -s "$work/c.$1" "$h/pve/lxc/$1.conf" && cmp -s "$work/i.$1" "$state/lxc/$1.conf" ||
		{ echo "exit $rc"; cat "$work/err"; diff -u "$work/c.$1" "$h/pve/lxc/$1.conf"; return 1; }
}
forget_ct() { rm -f "$h/pve/lxc/$1.conf" "$state/lxc/$1.conf" "$work/backups/$1"-*; }

# A crafted backup (issue 28 item 1): its meta.yaml names another include
# path. Expected: exit 2, the named path never created (the file system is
# the oracle), nothing written.
meta_names_evil() {
	grep -q '^include_path:' meta.yaml && sed -i "s|^include_path:.*|include_path: $work/evil/cron.d/x|" meta.yaml
}
t_backup_names_path() {
	crafted_rollback 176 meta_names_evil && [ ! -e "$work/evil" ] && grep -q "include file" "$work/err" ||
		{ ls -R "$work/evil" 2>/dev/null; return 1; }
	forget_ct 176
}
check "a backup whose meta names another include path: refused, exit 2, nothing written" t_backup_names_path

# A crafted backup (issue 28 item 2): its config from before the change has
# lines that are no GPU lines and not in what lxgpu wrote, while today's
# config is what lxgpu wrote (the old verbatim path). Expected: exit 2, no
# apparmor line in 177.conf.
before_adds_lines() {
	[ -f config ] && printf 'lxc.apparmor.profile: unconfined\nlxc.mount.entry: / mnt/host none rbind,create=dir 0 0\n' >>config
}
t_backup_extra_lines() {
	crafted_rollback 177 before_adds_lines && grep -q "does not match" "$work/err" &&
		! grep -q apparmor "$h/pve/lxc/177.conf" || return 1
	forget_ct 177
}
check "a backup whose config before has lines lxgpu did not write: refused, exit 2, nothing written" t_backup_extra_lines
# A crafted backup (found writing the backup fuzz target): the include
# file's text to put back holds a NUL byte, which the write cut short there
# (rollback said "restored", exit 0). Expected: exit 2, nothing written.
before_has_nul() {
	printf '# lxgpu include file\nlxc.mount.entry: /dev/nvidia0\000 dev/x none bind\n' >include.before
}
t_backup_include_nul() {
	crafted_rollback 178 before_has_nul && grep -q "NUL byte" "$work/err" || return 1
	forget_ct 178
}
check "a backup whose include text to put back holds a NUL byte: refused, exit 2, nothing written" t_backup_include_nul
host 509 1 # as the tests before left it

t_include_not_alone() {
	# The config cannot be replaced (a read-only directory): nothing of the
	# change stays, the include file neither.
	printf 'arch: amd64\nhostname: ro\nostype: debian\n' >"$h/pve/lxc/106.conf"
	cp "$h/pve/lxc/106.conf" "$work/c106.orig"
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; shift; exec "$@"' \
		sh "$h/pve/lxc" "$lxgpu" --proc-dir "$h/proc" --dev-dir "$h/dev" --firmware-dir "$work/none" \
		--run-dir "$work/none" --pve-dir "$h/pve" --lxc-path "$h/lxc" --state-dir "$state" \
		--backup-dir "$work/backups" --lock-dir "$work" apply 106 --style include --gpus 0000:41:00.0 \
		>"$work/out" 2>"$work/err"
	rc=$?
	[ "$rc" -eq 2 ] && cmp -s "$work/c106.orig" "$h/pve/lxc/106.conf" && [ ! -e "$state/lxc/106.conf" ] &&
		! ls "$work/backups" | grep -q '^106-' || { echo "exit $rc"; ls -l "$state/lxc"; fail; }
}
if command -v unshare >/dev/null; then
	check "a config that cannot be replaced: exit 2, no include file written, no backup" t_include_not_alone
fi

t_style_away() {
	record include 0000:41:00.0
	apply 101 --style devn || fail || return 1
	! grep -q '^lxc.include' "$h/pve/lxc/101.conf" && grep -q '^dev0: /dev/nvidia1' "$h/pve/lxc/101.conf" ||
		{ cat "$h/pve/lxc/101.conf"; fail; }
}
check "apply --style devn takes the lxc.include line out again" t_style_away

tap_finish
