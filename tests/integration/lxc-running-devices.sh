#!/bin/sh
# Integration: what verify says a running container's device cgroup allows
# is what the kernel enforces. Real LXC containers started the Proxmox way
# (pve-container's cgroup keys, an init that moves to ns/init.scope as
# systemd does), with GPU 0's nodes mknod'ed in a private /dev, on this
# machine's cgroup v1 (hybrid) layout and on a pure cgroup v2 hierarchy
# (FACTS section 7), where the rules are device programs verify reads back
# and evaluates:
# - "good" allows every planned node: no LXG018;
# - "late" starts without the nvidia-uvm rule (and nvidia-uvm-tools read
#   only); its config is fixed on disk while it runs: LXG018 names
#   /dev/nvidia-uvm with "restart pending";
# - for every planned node of both, verify's "running" verdicts (read,
#   write, read-write) are what opening the node inside gives (ENXIO:
#   allowed, no driver behind it; EPERM: denied);
# - on v2 without CAP_SYS_ADMIN the programs cannot be read: LXG026
#   "could not check", every verdict unknown, never a pass.
# Usage: lxc-running-devices.sh LXGPU EXAMPLES_DIR   (TAP; root, lxc, setpriv)
set -u
lxgpu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
examples=$(cd "$2" && pwd)
host="$examples/pve-8x-rtx-pro-6000.yaml"

. "$(dirname "$0")/../lib/lxc-env.sh"
lxc_require "the real-LXC running-devices test" lxc-create lxc-start lxc-attach lxc-info lxc-stop lxc-destroy unshare setpriv busybox jq
lxc_workdir lxgpu-rundev
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

# GPU 0's planned nodes in the model: "path major minor".
"$lxgpu" --host "$host" scan --format json | jq -r '.nodes[] |
	select(.path | test("^/dev/nvidia(0|ctl|-uvm|-uvm-tools)$")) | "\(.path) \(.major) \(.minor)"' \
	>"$work/nodes"
[ "$(wc -l <"$work/nodes")" -eq 4 ] || { echo "Bail out! the model lacks GPU 0's nodes"; exit 1; }
num() { awk -v p="$1" '$1 == p { print $2 ":" $3 }' "$work/nodes"; }
gpu=$(num /dev/nvidia0) ctl=$(num /dev/nvidiactl) uvm=$(num /dev/nvidia-uvm) tools=$(num /dev/nvidia-uvm-tools)

# make_ct ID DEVKEY RULES: a busybox container as PVE starts it (its cgroup
# keys; common.conf's deny-all and basics), GPU 0's nodes bind-mounted,
# RULES (lines "c M:m ACC") allowed with DEVKEY.
make_ct() {
	id=$1 devkey=$2 rules=$3
	lxc_sandbox_create "$id" --pve || return 1
	# After common.conf: it sets ttys and automounts this sandbox cannot give.
	{
		echo 'lxc.include = /usr/share/lxc/config/common.conf'
		lxc_sandbox_conf
		lxc_pve_conf "$id"
	} >>"$conf"
	echo "$rules" | while read -r rule; do
		[ -n "$rule" ] && echo "$devkey.allow = $rule" >>"$conf"
	done
	while read -r path _; do
		echo "lxc.mount.entry = $path ${path#/} none bind,create=file" >>"$conf"
	done <"$work/nodes"
	lxc_pve_init "$id" 'exec /sbin/init'
}

# Runs in a private mount namespace (cgroup2 at /sys/fs/cgroup for v2): a
# private /dev with the nodes, the containers started, late's config fixed,
# verify, then every node opened r, w and rw inside.
cat "$(dirname "$0")/../lib/private-dev.sh" "$(dirname "$0")/../lib/probe-open.sh" \
	"$(dirname "$0")/../lib/wait-running.sh" >"$work/inside.sh"
cat >>"$work/inside.sh" <<'INSIDE'
set -u
layout=$1 lxgpu=$2 model=$3 lxcpath=$4 out=$5 nodes=$6 good=$7 late=$8 fix=$9
if [ "$layout" = v2 ]; then
	umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup || exit 3
fi
private_dev
while read -r path major minor; do
	mknod -m 0666 "$path" c "$major" "$minor" || exit 3
done <"$nodes"
for id in "$good" "$late"; do
	if ! lxc-start -P "$lxcpath" -n "$id" -l DEBUG -o "$lxcpath/$id.log" ||
		! wait_running "$lxcpath" "$id" || ! wait_init_scope "$lxcpath" "$id"; then
		echo "start failed" >"$out/start-$id"
		exit 0
	fi
	echo started >"$out/start-$id"
done
# The fix on disk, while it runs: the rule it was started without.
echo "$fix" >>"$lxcpath/$late/config"
for id in "$good" "$late"; do
	"$lxgpu" --host "$model" --lxc-path "$lxcpath" verify "$id" --format json \
		>"$out/verify-$id.json" 2>"$out/verify-$id.err"
	echo $? >"$out/verify-$id.rc"
	# Without CAP_SYS_ADMIN the kernel keeps the device programs to itself.
	setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin "$lxgpu" --host "$model" \
		--lxc-path "$lxcpath" verify "$id" --format json >"$out/nocap-$id.json" 2>"$out/nocap-$id.err"
	echo $? >"$out/nocap-$id.rc"
	# One open per mode; the shell's redirection error names the errno.
	while read -r path _; do
		for m in r w rw; do
			case $(probe_open "$lxcpath" "$id" "$path" "$m") in
			allowed) r=allowed ;;
			eperm) r=denied ;;
			missing | not-a-device) r=missing ;;
			*) r="other($path $m)" ;;
			esac
			echo "$path $m $r"
		done
	done <"$nodes" >"$out/observed-$id"
done
for id in "$good" "$late"; do
	lxc-stop -P "$lxcpath" -n "$id" -k >/dev/null 2>&1
done
exit 0
INSIDE

base=500
for layout in $(lxc_layouts); do
	# the v1 half needs a host whose LXC uses the v1 devices controller
	if [ "$layout" = v1 ] && ! v1_why=$(lxc_cgroup_v1_here); then
		skip "cgroup v1: every check of this half" "$v1_why"
		continue
	fi
	base=$((base + 100))
	good=$((base + 1)) late=$((base + 2))
	dir="$work/$layout"
	mkdir -p "$dir"
	# v1: a hybrid layout, the devices controller is v1 (FACTS section 7).
	model_layout=$layout devkey=lxc.cgroup2.devices source="device programs"
	[ "$layout" = v1 ] && model_layout=hybrid devkey=lxc.cgroup.devices source=devices.list
	sed "s/^cgroup: .*/cgroup: $model_layout/" "$host" >"$dir/host.yaml"

	t_setup() {
		make_ct "$good" "$devkey" "c $gpu rw
c $ctl rw
c $uvm rw
c $tools rw" || return 1
		make_ct "$late" "$devkey" "c $gpu rw
c $ctl rw
c $tools r" || return 1
		unshare -m --propagation private sh "$work/inside.sh" "$layout" "$lxgpu" "$dir/host.yaml" \
			"$lxcpath" "$dir" "$work/nodes" "$good" "$late" "$devkey.allow = c $uvm rw" ||
			{ echo "could not set up the $layout namespace"; return 1; }
		for id in "$good" "$late"; do
			[ "$(cat "$dir/start-$id" 2>/dev/null)" = started ] ||
				{ echo "$id did not start"; grep ERROR "$lxcpath/$id.log" | tail -5; return 1; }
		done
	}
	check "cgroup $layout: containers started the Proxmox way with GPU 0's nodes" t_setup

	t_read() { # ID
		f="$dir/verify-$1.json"
		jq -e --arg s "$source" '.state == "running" and .running.checked and
			.running.source == $s and (.running.nodes | length) == 4' "$f" >/dev/null ||
			{ echo "running view not read:"; cat "$f" "$dir/verify-$1.err"; return 1; }
		if [ "$layout" = v2 ]; then
			jq -e '.running.programs | length > 0' "$f" >/dev/null ||
				{ echo "no device program read"; jq .running "$f"; return 1; }
		fi
		jq -e '[.findings[] | select(.code == "LXG026")] | length == 0' "$f" >/dev/null ||
			{ jq -r '.findings[] | "\(.code) \(.message)"' "$f"; return 1; }
	}
	check "cgroup $layout: verify reads the running device cgroup ($source)" t_read "$good"

	t_good() {
		f="$dir/verify-$good.json"
		json_ok "$f" && jq -e '[.findings[] | select(.code == "LXG018")] | length == 0' "$f" >/dev/null ||
			{ jq -r '.findings[] | "\(.code) \(.device_path) \(.message)"' "$f"; return 1; }
		jq -e '[.running.nodes[] | select(.read_write != "allowed")] | length == 0' "$f" >/dev/null ||
			{ jq .running "$f"; return 1; }
	}
	check "cgroup $layout: every planned node allowed: clean of LXG018" t_good

	t_late() {
		f="$dir/verify-$late.json"
		uvm_f=$(jq -c '[.findings[] | select(.code == "LXG018" and .device_path == "/dev/nvidia-uvm")]' "$f")
		echo "$uvm_f" | jq -e 'length == 1 and .[0].severity == "error" and
			(.[0].message | test("restart pending")) and (.[0].fix | test("restart pending"))' \
			>/dev/null || { jq -r '.findings[] | "\(.code) \(.device_path) \(.message) / \(.fix)"' "$f"; return 1; }
		# nvidia-uvm-tools is still read-only in the fixed config: denied, no restart helps.
		jq -e '[.findings[] | select(.code == "LXG018" and .device_path == "/dev/nvidia-uvm-tools")] |
			length == 1 and (.[0].message | test("restart pending") | not)' "$f" >/dev/null ||
			{ jq -r '.findings[] | "\(.code) \(.device_path) \(.message)"' "$f"; return 1; }
		[ "$(cat "$dir/verify-$late.rc")" = 1 ] || { echo "exit $(cat "$dir/verify-$late.rc")"; return 1; }
	}
	check "cgroup $layout: started without the uvm rule, fixed on disk: LXG018 /dev/nvidia-uvm, restart pending" t_late

	t_match() { # ID
		f="$dir/verify-$1.json" rc=0
		while read -r path m seen; do
			case $m in r) key="read" ;; w) key="write" ;; *) key="read_write" ;; esac
			said=$(jq -r --arg p "$path" --arg k "$key" '.running.nodes[] | select(.path == $p) | .[$k]' "$f")
			[ "$said" = "$seen" ] && continue
			echo "$path open($m): the kernel says $seen, verify said '$said'"
			rc=1
		done <"$dir/observed-$1"
		[ "$(wc -l <"$dir/observed-$1")" -eq 12 ] || { echo "probes:"; cat "$dir/observed-$1"; rc=1; }
		return $rc
	}
	check "cgroup $layout: verify's verdicts are what opening the nodes gives (every-rule container)" \
		t_match "$good"
	check "cgroup $layout: verify's verdicts are what opening the nodes gives (started without uvm)" \
		t_match "$late"
	if [ "$layout" = v2 ]; then
		t_nocap() {
			f="$dir/nocap-$late.json"
			jq -e '.state == "running" and (.running.checked | not) and
				([.running.nodes[] | select(.read != "unknown" or .read_write != "unknown")] | length == 0) and
				([.findings[] | select(.code == "LXG026" and .severity == "warning" and
					(.message | test("^could not check the running device cgroup: ")))] | length == 1) and
				([.findings[] | select(.code == "LXG018")] | length == 0)' "$f" >/dev/null ||
				{ jq '{running, findings: [.findings[] | "\(.code) \(.severity) \(.message)"]}' "$f"
				  cat "$dir/nocap-$late.err"; return 1; }
		}
		t_nocap_good() { # no error finding, still not clean: exit 2
			[ "$(cat "$dir/nocap-$good.rc")" = 2 ] ||
				{ echo "exit $(cat "$dir/nocap-$good.rc")"; jq -r '.findings[] | "\(.code) \(.message)"' "$dir/nocap-$good.json"; return 1; }
		}
		check "cgroup v2: without CAP_SYS_ADMIN: \"could not check the running device cgroup\", never a pass" t_nocap
		check "cgroup v2: without CAP_SYS_ADMIN a container with every rule exits 2 (could not check)" t_nocap_good
	fi
	[ -f "$dir/observed-$late" ] && echo "# $layout, started without uvm: $(tr '\n' ';' <"$dir/observed-$late")"
done
tap_finish
