#!/bin/sh
# Host models through the cluster file system, on a made-up cluster
# directory laid out as pmxcfs lays out /etc/pve: nodes/<node>/{lxc,
# qemu-server}, lxc -> nodes/<local>/lxc, .rrd. Every node's model is made
# from an example host (examples/hosts) edited to the situation the case
# needs, and published with `lxgpu publish`; the expected values come from
# that situation:
#   - what pmxcfs allows (pve-cluster src/pmxcfs): files up to 1 MiB
#     (MEMDB_MAX_FILE_SIZE), mode 0640 (cfs_fuse_chmod), node names by the
#     LDH rule (memdb.c valid_nodename);
#   - a node's boot as the cluster sees it: pvestatd broadcasts
#     "pve2-node/<node>:<uptime>:<sublevel>:<ctime>:..." (pve-manager
#     PVE/Service/pvestatd.pm update_node_status), pmxcfs lists the entries
#     in .rrd (status.c cfs_rrd_dump, "key:data" lines; the IPC form ends in
#     a NUL, here too, which the file leaves out);
#   - a PVE config's /dev/nvidiaN is whichever GPU has minor N on the node
#     the container starts on.
# Usage: test-cluster.sh LXGPU EXAMPLES_DIR   (TAP output)
set -u
lxgpu=$1
examples=$2
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"

pve=$w/pve
here=$examples/pve-8x-rtx-pro-6000.yaml # node a: 8 GPUs, driver 590.48.01
boot0=1764500000                         # the publishers' boot (their /proc/stat btime)
now=$(date +%s)

mkdir -p "$w/proc/sys/kernel/random" "$w/lxc/101/rootfs/usr/lib/x86_64-linux-gnu" "$w/hosts"
printf 'cpu  10 0 10 1000 0 0 0 0 0 0\nintr 0\nctxt 100\nbtime %s\nprocesses 10\n' $boot0 >"$w/proc/stat"
echo 6f5e4d3c-2b1a-4098-8776-655443322110 >"$w/proc/sys/kernel/random/boot_id"
for n in a b c d e f g h m u x; do mkdir -p "$pve/nodes/$n/lxc" "$pve/nodes/$n/qemu-server"; done
ln -s nodes/a/lxc "$pve/lxc"
ln -s nodes/a/qemu-server "$pve/qemu-server"

# CT 101 on node a has GPU 1 of the 8 (0000:39:00.0 is /dev/nvidia1 there).
ct() { # ct FILE MINOR
	printf 'arch: amd64\nhostname: ct\nmemory: 4096\nostype: debian\nunprivileged: 1\n' >"$1"
	printf 'dev0: /dev/nvidia%s,mode=0666\ndev1: /dev/nvidiactl,mode=0666\n' "$2" >>"$1"
	printf 'dev2: /dev/nvidia-uvm,mode=0666\ndev3: /dev/nvidia-uvm-tools,mode=0666\n' >>"$1"
}
ct "$pve/nodes/a/lxc/101.conf" 1
# Its userspace is the driver of node a (the file its libcuda.so.1 leads to
# is what verify reads).
touch "$w/lxc/101/rootfs/usr/lib/x86_64-linux-gnu/libcuda.so.590.48.01"
ln -s libcuda.so.590.48.01 "$w/lxc/101/rootfs/usr/lib/x86_64-linux-gnu/libcuda.so.1"

# edit IN OUT PYTHON: the example host as a dict `h`, changed, written back.
edit() {
	python3 - "$1" "$2" "$3" <<'EOF' || { echo "Bail out! cannot make $2"; exit 1; }
import sys, yaml
h = yaml.safe_load(open(sys.argv[1]))
exec(sys.argv[3])
yaml.safe_dump(h, open(sys.argv[2], "w"), sort_keys=False)
EOF
}
publish() { # publish NODE MODEL
	"$lxgpu" -q --host "$2" --proc-dir "$w/proc" --pve-dir "$pve" publish --node "$1"
}

# b: the same kind of server, other cards in the same slots (other UUIDs).
edit "$here" "$w/b.yaml" 'for g in h["gpus"]: g["uuid"] = g["uuid"].replace("GPU-7c1e", "GPU-bbbb")'
# c: a workstation with one RTX 4090 at 0000:01:00.0.
cp "$examples/pve-rtx-4090.yaml" "$w/c.yaml"
# d: GPU 0000:39:00.0 given to vfio-pci; the driver numbers the 7 others 0..6.
edit "$here" "$w/d.yaml" '
g = h["gpus"][1]
g.update(driver="vfio-pci", minor=None, model=None, uuid=None, vbios=None)
for o in h["gpus"][2:]: o["minor"] -= 1
h["nodes"] = [n for n in h["nodes"] if n["path"] != "/dev/nvidia7"]'
# e: like b, and VM 300 passes 0000:39:00 (all functions) through.
cp "$w/b.yaml" "$w/e.yaml"
printf 'boot: order=scsi0\ncores: 8\nhostpci0: 39:00,pcie=1\nmemory: 16384\nname: vm300\n' \
	>"$pve/nodes/e/qemu-server/300.conf"
# f: like b, and VM 301 passes 0000:39:00 through by a cluster mapping
# (hostpciN: mapping=NAME; the address only in mapping/pci.cfg's map line for f).
cp "$w/b.yaml" "$w/f.yaml"
printf 'cores: 8\nhostpci0: mapping=big-gpu,pcie=1\nmemory: 16384\nname: vm301\n' \
	>"$pve/nodes/f/qemu-server/301.conf"
mkdir -p "$pve/mapping"
printf 'big-gpu\n\tmap id=10de:2bb5,node=b,path=0000:ba:00\n\tmap id=10de:2bb5,node=f,path=0000:39:00\n' \
	>"$pve/mapping/pci.cfg"
# g: GPUs probed in another order: 0000:39:00.0 is /dev/nvidia5 there, 0000:ba:00.0 /dev/nvidia1.
edit "$here" "$w/g.yaml" '
m = {g["bdf"]: g for g in h["gpus"]}
m["0000:39:00.0"]["minor"], m["0000:ba:00.0"]["minor"] = 5, 1'
# m: like b, but nvidia-uvm got major 505 at this boot (a's is 511).
edit "$w/b.yaml" "$w/m.yaml" '
for x in h["majors"]:
    if x["name"] == "nvidia-uvm": x["major"] = 505
for x in h["nodes"]:
    if x["path"].startswith("/dev/nvidia-uvm"): x["major"] = 505'
# h: like b with driver 570.172.08 loaded.
edit "$w/b.yaml" "$w/h.yaml" 'h["driver"]["version"] = "570.172.08"; h["driver"]["firmware"] = ["570.172.08"]'
# What an interrupted publish on b left (lxgpu's temporary name), and a file of someone else's.
touch -d '-2 min' "$pve/nodes/b/lxgpu-host.yaml.lxgpu-tmp-Ab12Cd" "$pve/nodes/b/notes.txt"
for n in b c d e f g h m u; do
	[ -f "$w/$n.yaml" ] || cp "$w/b.yaml" "$w/$n.yaml"
	publish $n "$w/$n.yaml" || { echo "Bail out! publish $n failed"; exit 1; }
done

# The cluster's status: b, d, e, g, h booted 20 s after boot0 as far as pvestatd
# says (their models are from this boot); c booted a day later (it has not
# published since); u has no entry (offline). PVE 9's key form for g.
rrd() { # rrd KEY BOOT
	printf '%s:%s::%s:0.12:64:0.01:0.001:540000000000:12000000000:8589930496:0:100861726720:3840647168:123456:654321\n' \
		"$1" $((now - $2)) "$now"
}
{
	for n in b d e f h m; do rrd "pve2-node/$n" $((boot0 + 20)); done
	rrd pve-node-9.0/g $((boot0 + 20))
	rrd pve2-node/c $((boot0 + 86400))
	printf 'pve2.3-vm/300:1234:vm300:running:0:%s:qemu:8:0.01:17179869184:1073741824:0:0:0:0\n' "$now"
	printf '\0'
} >"$pve/.rrd"

# ---- publish ----

f=$pve/nodes/b/lxgpu-host.yaml
check "publish writes nodes/<node>/lxgpu-host.yaml with mode 0640" \
	sh -c "[ \"\$(stat -c %a '$f')\" = 640 ]"
check "publish removes the temporary file an interrupted publish left, and nothing else" \
	sh -c "[ ! -e '$pve/nodes/b/lxgpu-host.yaml.lxgpu-tmp-Ab12Cd' ] && [ -e '$pve/nodes/b/notes.txt' ]"
t_stamp() {
	lx_json 0 "$w/scan.json" "$lxgpu" --host "$f" scan --format json || return 1
	jq -e --argjson b $boot0 --argjson t0 "$now" --argjson t1 "$(date +%s)" \
		'.published.node == "b" and .published.boot_time == $b and
		 .published.boot_id == "6f5e4d3c-2b1a-4098-8776-655443322110" and
		 .published.scanned_at >= $t0 and .published.scanned_at <= $t1' "$w/scan.json"
}
check "the published model reads back with --host, stamped with node, btime, boot id, scan time" t_stamp
t_same_gpus() {
	lx_json 0 "$w/scan.json" "$lxgpu" --host "$f" scan --format json &&
		jq -c '[.gpus[] | [.bdf, .uuid, .minor]]' "$w/scan.json" >"$w/got" &&
		python3 -c 'import sys, yaml, json; print(json.dumps([[g["bdf"], g["uuid"], g["minor"]] for g in yaml.safe_load(open(sys.argv[1]))["gpus"]], separators=(",", ":")))' \
			"$w/b.yaml" >"$w/want" && cat "$w/got" "$w/want" && cmp "$w/got" "$w/want"
}
check "the published model is the host's model (its GPUs)" t_same_gpus

t_fails() { # t_fails WHAT-STDERR-NAMES ARGS...: exit 2, a message, nothing written
	want=$1
	shift
	"$lxgpu" "$@" 2>"$w/err" >/dev/null
	rc=$?
	cat "$w/err"
	[ $rc -eq 2 ] && grep -q -- "$want" "$w/err"
}
check "publish to a --pve-dir that does not exist: exit 2, message" \
	t_fails "$w/nonexistent" --host "$here" --proc-dir "$w/proc" --pve-dir "$w/nonexistent" publish --node a
t_no_node_dir() {
	t_fails "nodes/zz" --host "$here" --proc-dir "$w/proc" --pve-dir "$pve" publish --node zz &&
		[ ! -e "$pve/nodes/zz" ]
}
check "publish as a node pmxcfs has no directory of: exit 2, a message naming nodes/zz, nothing made" \
	t_no_node_dir
check "publish --node with a name outside the LDH rule: exit 2" \
	t_fails "not a Proxmox node name" --host "$here" --proc-dir "$w/proc" --pve-dir "$pve" publish --node bad_name
t_readonly() {
	mkdir -p "$w/ro/nodes/a"
	if [ "$(id -u)" -eq 0 ]; then
		# root writes through any mode: a read-only bind mount, as pmxcfs without quorum.
		# shellcheck disable=SC2016 # the inner shell expands them
		unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" "$1" &&
			mount -o remount,bind,ro "$1" "$1" && exec "$2" --host "$3" --proc-dir "$4" \
			--pve-dir "$1" publish --node a' sh "$w/ro" "$lxgpu" "$here" "$w/proc" 2>"$w/err"
	else
		chmod 0555 "$w/ro/nodes/a"
		"$lxgpu" --host "$here" --proc-dir "$w/proc" --pve-dir "$w/ro" publish --node a 2>"$w/err"
	fi
	rc=$?
	chmod 0755 "$w/ro/nodes/a"
	cat "$w/err"
	[ $rc -eq 2 ] && grep -q "read-only" "$w/err" && [ -z "$(ls -A "$w/ro/nodes/a")" ]
}
check "publish on a read-only cluster file system: exit 2, message, no file" t_readonly
t_too_big() {
	edit "$here" "$w/big.yaml" 'h["gpus"][0]["model"] = "X" * (1100 * 1024)'
	t_fails "1048576" --host "$w/big.yaml" --proc-dir "$w/proc" --pve-dir "$pve" publish --node u &&
		lx_json 0 "$w/scan.json" "$lxgpu" --host "$pve/nodes/u/lxgpu-host.yaml" scan --format json &&
		jq_ok "$w/scan.json" '.gpus[0].model | length < 1000'
}
check "a model over 1 MiB is refused and the published one is left as it was" t_too_big

# ---- preflight CTID --to NODE ----

# pf NODE: preflight 101 --to NODE as JSON into $w/pf.json; its exit status
# (0 passes, 1 refused), or 3 when it is neither or pf.json does not parse
pf() {
	"$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 101 --to "$1" >"$w/pf.json"
	pf_rc=$?
	[ "$pf_rc" -le 1 ] && json_ok "$w/pf.json" || { echo "preflight --to $1: exit status $pf_rc"; return 3; }
	return $pf_rc
}
# has CODE: pf.json (parsed) has CODE; 2 when it does not parse
has() {
	json_ok "$w/pf.json" || return 2
	jq -e --arg c "$1" '[.findings[].code] | index($c) != null' "$w/pf.json" >/dev/null
}
t_to_b() {
	pf b
	rc=$?
	cat "$w/pf.json"
	[ $rc -eq 0 ] && jq -e '.verdict == "ok" and .gpus == [{"bdf": "0000:39:00.0",
		"uuid": "GPU-7c1e1111-3b2a-4f0e-9d61-0000005a0001", "there": "0000:39:00.0",
		"there_minor": 1}] and ([.findings[] | select(.severity == "error")] | length == 0)' \
		"$w/pf.json" && ! has LXG180 && ! has LXG181
}
check "--to b (the GPU's slot there holds the same kind of card, /dev/nvidia1): passes, exit 0" t_to_b
t_to() { # t_to NODE CODE...: refused with exit 1 and these codes
	node=$1
	shift
	pf "$node"
	rc=$?
	cat "$w/pf.json"
	[ $rc -eq 1 ] && jq -e '.verdict == "refused"' "$w/pf.json" >/dev/null || return 1
	for c in "$@"; do has "$c" || { echo "no $c"; return 1; }; done
}
check "--to c (one RTX 4090 at 0000:01:00.0): refused, LXG182 the GPU is not there" t_to c LXG182
check "--to c: its model is from before the boot .rrd reports: LXG180" t_to c LXG180
# 'lxgpu publish' runs on node c, which this run's --host (node a's model)
# and --lxc-path are not about: the printed command has neither
t_elsewhere_fix() {
	t_to c LXG180 >/dev/null || return 1
	jq -e '[.findings[] | select(.code == "LXG180" or .code == "LXG182") | .fix] | length == 2 and
		all(test("lxgpu publish") or test("lxgpu apply")) and all(test("--host|--lxc-path") | not)' "$w/pf.json" >/dev/null ||
		{ jq -c '.findings[]' "$w/pf.json"; return 1; }
}
check "--to c: the fixes to run on node c carry no option of this run (--host, --lxc-path)" t_elsewhere_fix
check "--to d (the GPU bound to vfio-pci there): refused, LXG183" t_to d LXG183
check "--to e (VM 300 passes 39:00 through there): refused, LXG013" t_to e LXG013
check "--to f (VM 301 holds 39:00 there through the cluster mapping's line for f): refused, LXG013" \
	t_to f LXG013
t_mapping_elsewhere() {
	cp "$pve/mapping/pci.cfg" "$w/pci.cfg.saved"
	# the mapping's line for f names another GPU; b's line names 39:00, but VM 301 is on f
	printf 'big-gpu\n\tmap id=10de:2bb5,node=b,path=0000:39:00\n\tmap id=10de:2bb5,node=f,path=0000:ba:00\n' \
		>"$pve/mapping/pci.cfg"
	pf f
	rc=$?
	cp "$w/pci.cfg.saved" "$pve/mapping/pci.cfg"
	cat "$w/pf.json"
	[ $rc -eq 0 ] && ! has LXG013
}
check "--to f when f's line of the mapping names another GPU: passes (only the target node's line counts)" \
	t_mapping_elsewhere
check "--to g (the GPU is /dev/nvidia5 there): refused, LXG184" t_to g LXG184
check "--to h (driver 570.172.08 there, libcuda.so.590.48.01 in the container): refused, LXG011" \
	t_to h LXG011
t_exclusive() {
	ct "$pve/nodes/b/lxc/203.conf" 1 # CT 203 on b has /dev/nvidia1 there: 0000:39:00.0
	lx_json 1 "$w/pf.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 101 --to b --exclusive
	rc=$?
	pf b
	rc2=$?
	rm -f "$pve/nodes/b/lxc/203.conf"
	cat "$w/pf.json"
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" \
		--format json preflight 101 --to b --exclusive >/dev/null
}
check "--to b --exclusive while CT 203 there has the GPU: refused (LXG012); without --exclusive passes" t_exclusive
t_exclusive_code() {
	ct "$pve/nodes/b/lxc/203.conf" 1
	lx_json 1 "$w/pf.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 101 --to b --exclusive
	rc=$?
	rm -f "$pve/nodes/b/lxc/203.conf"
	cat "$w/pf.json"
	[ $rc -eq 0 ] && jq -e '[.findings[] | select(.code == "LXG012") | .message] | length == 1 and (.[0] | test("container 203"))' "$w/pf.json"
}
check "... the finding names container 203" t_exclusive_code
# CT 102 on a: privileged, the hand-written recipe with a's uvm major (511).
{
	printf 'arch: amd64\nhostname: ct102\nostype: debian\n'
	printf 'lxc.cgroup2.devices.allow: c 195:* rwm\nlxc.cgroup2.devices.allow: c 511:* rwm\n'
	for d in nvidia1 nvidiactl nvidia-uvm nvidia-uvm-tools; do
		printf 'lxc.mount.entry: /dev/%s dev/%s none bind,optional,create=file\n' $d $d
	done
} >"$pve/nodes/a/lxc/102.conf"
t_major() {
	lx_json 0 "$w/pf.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 102 --to b || return 1
	lx_json 1 "$w/pf.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 102 --to m || return 1
	cat "$w/pf.json"
	# the rule for 511 reaches nothing on m (LXG001), and /dev/nvidia-uvm (505:0) is denied (LXG022)
	has LXG001 && has LXG022
}
check "a hand-written uvm major (511) passes to b (511 there too) and is refused on m (505): LXG001, LXG022" t_major
t_undated() {
	pf u
	cat "$w/pf.json"
	has LXG181 && ! has LXG180
}
check "--to u (no status of the node in .rrd): LXG181, not stale" t_undated
check "--to a node that published nothing: exit 2, message" \
	t_fails "no host model of node x" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" preflight 101 --to x
t_hosts_wins() {
	cp "$examples/pve-rtx-4090.yaml" "$w/hosts/b.yaml"
	lx_json 1 "$w/pf.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		preflight 101 --to b --hosts "$w/hosts" || return 1
	cat "$w/pf.json"
	has LXG182 && jq -e --arg f "$w/hosts/b.yaml" '.model.file == $f' "$w/pf.json"
}
check "--to with --hosts DIR: DIR/<node>.yaml wins (b's model from the 4090 host: refused)" t_hosts_wins

t_schema() { # the --to document, JSON and YAML, against docs/schema/preflight.json
	python3 -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema missing"; return 1; }
	for node in b c; do
		for fmt in json yaml; do
			"$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format $fmt \
				preflight 101 --to $node >"$w/doc.$fmt"
			[ $? -le 1 ] || return 1
		done
		python3 "$(dirname "$0")/validate-json.py" "$(dirname "$0")/../../docs/schema" preflight \
			"$w/doc.json" || return 1
		python3 "$(dirname "$0")/validate-json.py" "$(dirname "$0")/../../docs/schema" preflight \
			"$w/doc.yaml" --yaml || return 1
	done
}
check "preflight --to's JSON and YAML validate against docs/schema/preflight.json" t_schema

# ---- audit --cluster ----

ct "$pve/nodes/b/lxc/202.conf" 0 # /dev/nvidia0 there: 0000:18:00.0 in b's model
ct "$pve/nodes/c/lxc/301.conf" 0 # /dev/nvidia0 there: the 4090 at 0000:01:00.0
ct "$pve/nodes/u/lxc/801.conf" 0
ct "$pve/nodes/x/lxc/901.conf" 0 # x published nothing
# NVIDIA's LXC hook gives GPUs without a GPU line: still a GPU container there
printf 'unprivileged: 1\nlxc.environment: NVIDIA_VISIBLE_DEVICES=all\nlxc.hook.mount: /usr/share/lxc/hooks/nvidia\n' \
	>"$pve/nodes/x/lxc/902.conf"
audit() {
	lx_json sev "$w/audit.json" "$lxgpu" --host "$here" --pve-dir "$pve" --lxc-path "$w/lxc" --format json \
		audit --cluster "$@" || return 1
	cat "$w/audit.json"
}
ct_is() { # ct_is ID JQ-CONDITION (on that container's object)
	jq -e --arg id "$1" "[.containers[] | select(.container == \$id)] | length == 1 and (.[0] | $2)" \
		"$w/audit.json" >/dev/null
}
t_audit() {
	audit || return 1
	ct_is 202 '.node == "b" and .gpus == ["0000:18:00.0"]' &&
		ct_is 301 '.gpus == ["0000:01:00.0"] and ([.findings[].code] | index("LXG180") != null)' &&
		ct_is 801 '[.findings[].code] | index("LXG181") != null' &&
		ct_is 901 '.gpus == null and ([.findings[].code] | index("LXG021") != null)' &&
		ct_is 902 '[.findings[].code] | index("LXG021") != null' &&
		ct_is 202 '[.findings[].code] | (index("LXG180") == null and index("LXG181") == null)'
}
check "audit --cluster without --hosts reads the published models (GPUs by each node's minors; stale c, undated u, x without one)" t_audit
t_audit_hosts() {
	audit --hosts "$w/hosts" || return 1 # hosts/b.yaml: the 4090 host
	ct_is 202 '.gpus == ["0000:01:00.0"]' && ct_is 301 '.gpus == ["0000:01:00.0"]'
}
check "audit --cluster --hosts DIR: DIR/<node>.yaml wins over the published model" t_audit_hosts

tap_finish
