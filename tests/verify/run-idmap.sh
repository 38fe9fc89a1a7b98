#!/bin/sh
# The id map against the host's subordinate ids (issue 19, item 12), on a
# made-up --subid-root: where newuidmap and newgidmap are installed and
# privileged (setuid, as LXC requires before it uses them), LXC maps the
# ids with them and they allow root only its ranges in /etc/subuid and
# /etc/subgid (shadow's have_range: ranges one after another count as one)
# and its own id 0. What real LXC then does is tests/integration/lxc-idmap.sh
# ("newgidmap: gid range [44-45) -> [44-45) not allowed", the start fails);
# here every case of the rule, without root.
# Usage: run-idmap.sh LXGPU EXAMPLES   (TAP; jq)
set -u
lxgpu=$1 examples=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
host=$examples/pve-rtx-4090.yaml
pve=$work/pve sub=$work/subids
mkdir -p "$pve/lxc" "$work/lxc" "$sub/etc" "$sub/usr/bin"
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +

tools() { # present|absent|unprivileged
	rm -f "$sub/usr/bin/newuidmap" "$sub/usr/bin/newgidmap"
	[ "$1" = absent ] && return
	for t in newuidmap newgidmap; do
		printf '#!/bin/sh\nexit 1\n' >"$sub/usr/bin/$t"
		if [ "$1" = present ]; then chmod 4755 "$sub/usr/bin/$t"; else chmod 755 "$sub/usr/bin/$t"; fi
	done
}
ids() { printf '%s\n' $1 >"$sub/etc/subuid"; printf '%s\n' $2 >"$sub/etc/subgid"; }
ct() { # ID EXTRA-LINES: an unprivileged PVE container with GPU 0
	printf 'arch: amd64\nhostname: ct\nostype: debian\nrootfs: local-lvm:vm-%s-disk-0,size=8G\nunprivileged: 1\ndev0: /dev/nvidia0,mode=0666\n' "$1" \
		>"$pve/lxc/$1.conf"
	printf '%s' "$2" >>"$pve/lxc/$1.conf"
}
passthrough='lxc.idmap: u 0 100000 65536
lxc.idmap: g 0 100000 44
lxc.idmap: g 44 44 1
lxc.idmap: g 45 100045 65491
'
ct 101 "$passthrough"
ct 102 ""

lx() {
	"$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$work/lxc" --lxc-config-dir "$lxc_config" \
		--subid-root "$sub" "$@"
}
# refused ID FIX...: LXG023 for each FIX ("root:44:1 to /etc/subgid"), no other LXG023.
refused() {
	id=$1
	shift
	lx_json 1 "$work/out" lx verify "$id" --format json || return 1
	want=$#
	got=$(jq '[.findings[] | select(.code == "LXG023")] | length' "$work/out")
	[ "$got" -eq "$want" ] || { jq -c '[.findings[] | [.code, .message]]' "$work/out"; return 1; }
	for fix in "$@"; do
		jq -e --arg f "add the line '${fix%% to *}' to ${fix##* to }" \
			'[.findings[] | select(.code == "LXG023") | .fix] | index($f)' "$work/out" >/dev/null ||
			{ echo "no fix '$fix'"; jq -c '[.findings[] | [.code, .fix]]' "$work/out"; return 1; }
	done
}
allowed() {
	lx_json sev "$work/out" lx verify "$1" --format json &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG023")] | length == 0'
}

tools present
ids root:100000:65536 root:100000:65536
check "g 44 44 1, subgid without root:44:1: LXG023, the fix names root:44:1 for /etc/subgid" refused 101 "root:44:1 to /etc/subgid"
t_message() {
	jq_ok "$work/out" '[.findings[] | select(.code == "LXG023") | .message] | first |
		contains("lxc.idmap g 44 44 1") and contains("newgidmap: gid range [44-45) -> [44-45) not allowed")'
}
check "the message names the map line and newgidmap's refusal" t_message
t_line() {
	jq_ok "$work/out" '[.findings[] | select(.code == "LXG023") | .line] | first == 9'
}
check "it points at the config's line 9 (lxc.idmap: g 44 44 1)" t_line
t_preflight() {
	out=$(lx preflight 101 2>&1)
	echo "$out" | grep -q "will fail" && echo "$out" | grep -q "root:44:1" || { echo "$out"; return 1; }
}
check "preflight: will fail, naming root:44:1" t_preflight
ids root:100000:65536 "root:100000:65536 root:44:1"
check "with root:44:1 in subgid: allowed" allowed 101
ids root:100000:65536 "root:100000:30000 root:130000:35536 0:44:1"
check "ranges one after another and an owner given as 0: allowed" allowed 101
ids "" ""
check "PVE's default map with no ranges for root: both refused, the fixes name both files" \
	refused 102 "root:100000:65536 to /etc/subuid" "root:100000:65536 to /etc/subgid"
ids root:100000:65536 root:100000:65536
check "PVE's default map with root:100000:65536 in both: allowed" allowed 102
ids "" ""
tools absent
check "no newuidmap/newgidmap: LXC maps the ids itself, allowed" allowed 101
tools unprivileged
check "newuidmap/newgidmap not setuid: LXC does not use them, allowed" allowed 101
tools present
t_snapshot() {
	lx_json sev "$work/out" "$lxgpu" --host "$host" --pve-dir "$pve" --lxc-path "$work/lxc" \
		--lxc-config-dir "$lxc_config" verify 101 --format json &&
		jq_ok "$work/out" '[.findings[] | select(.code == "LXG023")] | length == 0'
}
check "a --host snapshot without --subid-root: this machine's files are not its host's, not read" t_snapshot
t_bad_dir() {
	lx verify 101 --subid-root "$work/none" >/dev/null 2>"$work/err"
	[ $? -eq 2 ] && grep -q -- "--subid-root $work/none" "$work/err"
}
check "--subid-root of a directory that does not exist: exit 2, named" t_bad_dir

tap_finish
