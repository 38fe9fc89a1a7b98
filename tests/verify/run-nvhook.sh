#!/bin/sh
# verify over containers set up with NVIDIA's LXC hook (hooks/nvidia), from
# public guides and planted problems: each case names the codes it must give
# ("#expect:"), the nodes the hook mounts ("#nodes:", hand-written from
# libnvidia-container's rules: docs/nvidia-hook.md; "-" for none) and which
# of the hook's host tools exist ("#tools:" cli and/or hook: a scratch host
# root with /usr/bin/nvidia-container-cli and /usr/share/lxc/hooks/nvidia,
# passed as --subid-root; without the line the tools are not checked).
# Usage: run-nvhook.sh LXGPU EXAMPLES CASES
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) cases=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/none"
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/lxjson.sh"
lxc_config="$work/lxc-config"
cp -R "$(dirname "$0")/lxc-config" "$lxc_config"
find "$lxc_config" -name '*.conf' -exec sed -i "s|@LXC_CONFIG@|$lxc_config|g" {} +

t_case() {
	conf=$1
	host=$(sed -n 's/^#host: *//p' "$conf")
	want=$(sed -n 's/^#expect: *//p' "$conf" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
	nodes=$(sed -n 's/^#nodes: *//p' "$conf" | tr ' ' '\n' | sed '/^$/d;/^-$/d' | sort | tr '\n' ' ')
	set --
	if grep -q '^#tools:' "$conf"; then
		root="$work/root" && rm -rf "$root" && mkdir -p "$root/usr/bin" "$root/usr/share/lxc/hooks"
		for t in $(sed -n 's/^#tools: *//p' "$conf"); do
			case $t in
			cli) f="$root/usr/bin/nvidia-container-cli" ;;
			hook) f="$root/usr/share/lxc/hooks/nvidia" ;;
			*) echo "bad #tools: $t"; return 1 ;;
			esac
			printf '#!/bin/sh\nexit 0\n' >"$f" && chmod 755 "$f"
		done
		set -- --subid-root "$root"
	fi
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc" && cp "$conf" "$work/pve/lxc/700.conf"
	# exit status: 1 with an error finding, else 0 (lx_json sev)
	lx_json sev "$work/out" "$lxgpu" --host "$examples/${host:-pve-8x-rtx-pro-6000}.yaml" --pve-dir "$work/pve" \
		--lxc-path "$work/none" --lxc-config-dir "$lxc_config" "$@" verify 700 --format json || return 1
	got=$(jq -r '[.findings[].code] | unique | .[]' "$work/out" | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "codes: got '$got', want '$want'"; jq -r '.findings[] | "\(.code) \(.message)"' "$work/out"; cat "$work/out.err"; return 1; }
	got=$(jq -r '[.access.nodes[] | select(.via == "nvidia-hook") | .path] | sort | .[]' "$work/out" | tr '\n' ' ')
	[ "$got" = "$nodes" ] || { echo "hook nodes: got '$got', want '$nodes'"; return 1; }
	jq -e '.findings | all(.code and .severity and .message and .fix and (.container == "700"))' "$work/out" >/dev/null ||
		{ echo "incomplete finding"; return 1; }
}
for conf in "$cases"/*.conf; do
	check "verify nvidia-hook $(basename "$conf" .conf)" t_case "$conf"
done
# audit: the public guides' configs of the 8-GPU host are GPU containers
# (status ok: not "without GPUs"), the privileged one an error.
t_audit() {
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc"
	cp "$cases/clean-plex-idmap.conf" "$work/pve/lxc/801.conf"
	cp "$cases/clean-pve72-v1-keys.conf" "$work/pve/lxc/802.conf"
	cp "$cases/privileged.conf" "$work/pve/lxc/803.conf"
	lx_json 1 "$work/audit.json" "$lxgpu" --host "$examples/pve-8x-rtx-pro-6000.yaml" --pve-dir "$work/pve" \
		--lxc-path "$work/none" --lxc-config-dir "$lxc_config" audit --format json || return 1
	got=$(jq -r '[.containers[] | "\(.container):\(.status)"] | sort | join(" ")' "$work/audit.json")
	[ "$got" = "801:ok 802:ok 803:error" ] || { echo "audit: got '$got'"; jq -c '.containers[]' "$work/audit.json"; return 1; }
}
check "audit counts NVIDIA-hook containers as GPU containers" t_audit
# audit of the public guides' clean configs of the RTX 4090 host together,
# the hook's tools on the host: each a GPU container, ok, no finding.
t_audit_public() {
	rm -rf "$work/pve" "$work/root" && mkdir -p "$work/pve/lxc" "$work/root/usr/bin" "$work/root/usr/share/lxc/hooks"
	for f in "$work/root/usr/bin/nvidia-container-cli" "$work/root/usr/share/lxc/hooks/nvidia"; do
		printf '#!/bin/sh\nexit 0\n' >"$f" && chmod 755 "$f"
	done
	id=810 want=""
	for conf in "$cases"/clean-*.conf; do
		grep -qx '#host: pve-rtx-4090' "$conf" && grep -qx '#tools: cli hook' "$conf" || continue
		id=$((id + 1))
		cp "$conf" "$work/pve/lxc/$id.conf"
		want="$want $id:ok:0"
	done
	[ "$id" -ge 814 ] || { echo "only $((id - 810)) public configs"; return 1; }
	lx_json 0 "$work/audit.json" "$lxgpu" --host "$examples/pve-rtx-4090.yaml" --pve-dir "$work/pve" \
		--lxc-path "$work/none" --lxc-config-dir "$lxc_config" --subid-root "$work/root" audit --format json || return 1
	got=$(jq -r '[.containers[] | "\(.container):\(.status):\(.findings | length)"] | sort | join(" ")' "$work/audit.json")
	[ "$got" = "${want# }" ] || { echo "audit: got '$got', want '${want# }'"; jq -c '.containers[]' "$work/audit.json"; return 1; }
}
check "audit of the public guides' clean hook configs (RTX 4090 host): each ok, no finding" t_audit_public
# preflight: a start the hook fails is "will fail", one without CUDA
# "degraded"; its exit status is verify's rule over its reasons: 1 when
# one is an error (every will fail), so here the one verify gives the
# same container (LXG064, no compute, is a warning there: 0)
t_preflight() { # t_preflight CASE HOST VERDICT
	rm -rf "$work/pve" && mkdir -p "$work/pve/lxc" && cp "$cases/$1.conf" "$work/pve/lxc/700.conf"
	lx_json sev "$work/vf.json" "$lxgpu" --host "$examples/$2.yaml" --pve-dir "$work/pve" --lxc-path "$work/none" \
		--lxc-config-dir "$lxc_config" verify 700 --format json || return 1
	st=$lx_rc
	[ "$3" != "will fail" ] || [ $st = 1 ] || { echo "verify exits $st on a start that fails"; return 1; }
	lx_json $st "$work/pf.json" "$lxgpu" --host "$examples/$2.yaml" --pve-dir "$work/pve" --lxc-path "$work/none" \
		--lxc-config-dir "$lxc_config" preflight 700 --format json || return 1
	got=$(jq -r '.next_start[0].verdict' "$work/pf.json")
	[ "$got" = "$3" ] || { echo "preflight $1: got '$got', want '$3'"; jq -c . "$work/pf.json"; return 1; }
}
check "preflight: privileged hook container will fail" t_preflight privileged pve-8x-rtx-pro-6000 "will fail"
check "preflight: unknown GPU index will fail" t_preflight index-too-high pve-vfio-split "will fail"
check "preflight: no compute is degraded" t_preflight no-capabilities pve-8x-rtx-pro-6000 degraded
check "preflight: a guide's config is ok" t_preflight clean-compute-utility-video pve-rtx-4090 ok
tap_finish
