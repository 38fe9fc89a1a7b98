#!/bin/sh
# apply over the public corpus (tests/pve/public: configs people posted, with
# expectations written from the posters' reports, not from lxgpu). For every
# config: a host model (the 8-GPU example host, its nvidia-uvm/nvidia-caps
# majors moved to the poster's when the .expect gives host-majors:), the config
# placed as a PVE container (NN-name.conf) or a plain LXC one (NN-name.lxc),
# `lxgpu apply` with no --gpus when gpus: names GPUs, else --gpus 0; then,
# from the .expect only: keep: lines present byte for byte and in their order,
# snapshot/pending sections identical, the gpus: GPUs still given, a second
# apply writes nothing, --dry-run exits 0. An apply that refuses (exit 2, file
# unchanged, the line named) passes only where problem: says something is
# broken. Usage:
#   run-public.sh LXGPU EXAMPLES_DIR PUBLIC_DIR [RESULT_DIR]   (TAP output)
# RESULT_DIR, when given, receives each config as apply left it (NN-name.conf
# or .lxc), for tools that look at the outputs (pve-oracle).
# Needs python3 with PyYAML (python3-yaml) for the host models.
set -u
lxgpu=$1 examples=$(cd "$2" && pwd) public=$(cd "$3" && pwd) results=${4:-}
base_host="$examples/pve-8x-rtx-pro-6000.yaml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../../lib/lxjson.sh"
mkdir -p "$work/pve/lxc" "$work/lxc" "$work/locks" "$work/backups" "$work/lxc-config" "$work/hosts"
[ -z "$results" ] || mkdir -p "$results"
# LXC's distribution includes the posted plain-LXC configs name (its
# templates made them), as LXC and lxc-templates install them; common.conf
# is left out: the model's built-in lines stand for it. A missing include
# fails the start, so without them the posted configs would not start here.
for f in /usr/share/lxc/config/*.common.conf /usr/share/lxc/config/*.userns.conf; do
	[ -f "$f" ] && cp "$f" "$work/lxc-config/"
done

# Checks that fail because of lxgpu, reported and waiting for a fix: they
# print as `not ok ... # TODO lxgpu: REASON` (TAP: not a failure; an `ok` with
# TODO, once fixed, tells to remove the entry). Only failures attributed to
# lxgpu belong here; a wrong expectation is fixed in its .expect.
todo_reason() { # NAME CHECK
	case "$1:$2" in
	*) return 1 ;;
	esac
}

n=0 failed=0
# result NAME CHECK DESCRIPTION STATUS [MESSAGE_FILE]
result() {
	name=$1 what=$2 desc=$3 st=$4 msg=${5:-}
	n=$((n + 1))
	reason=$(todo_reason "$name" "$what") && todo=" # TODO lxgpu: $reason" || todo=
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $name: $desc$todo"
	else
		echo "not ok $n - $name: $desc$todo"
		[ -n "$todo" ] || { failed=$((failed + 1)); case_bad=1; }
		[ -n "$todo" ] && case_todo=1
		[ -n "$msg" ] && [ -s "$msg" ] && sed 's/^/# /' "$msg"
	fi
	return 0
}

# make_host MAJORS OUT: the example host with each NAME=N of MAJORS (from
# host-majors:) given major N, in the majors table and on the nodes of that
# name (/dev/nvidia-uvm and /dev/nvidia-uvm-tools for nvidia-uvm; /dev/
# nvidia-caps/* for nvidia-caps). Another device the table has at N is taken
# out (on the poster's host N was the NVIDIA module's; the example's uio or
# gpiochip there would be a second driver on one major).
make_host() {
	python3 - "$base_host" "$2" "$1" "$3" <<'PY'
import re, sys, yaml
src, out, spec, conf = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
doc = yaml.safe_load(open(src))
# The capability nodes the config names were on the poster's host (scripts
# write those lines only when the host has them): the model has them too.
caps_major = [m["major"] for m in doc["majors"] if m["name"] == "nvidia-caps"][0]
have = set(n["path"] for n in doc.get("nodes") or [])
for p in sorted(set(re.findall(r"/dev/nvidia-caps/nvidia-cap(\d+)", open(conf, errors="replace").read()))):
    path = "/dev/nvidia-caps/nvidia-cap" + p
    if path not in have:
        doc.setdefault("nodes", []).append({"path": path, "type": "char", "major": caps_major,
                                            "minor": int(p), "mode": "0400", "uid": 0, "gid": 0})
# So was nvidia-modeset, when the config names it (the display driver).
if "/dev/nvidia-modeset" in open(conf, errors="replace").read() and "/dev/nvidia-modeset" not in have:
    doc["nodes"].append({"path": "/dev/nvidia-modeset", "type": "char", "major": 195, "minor": 254,
                         "mode": "0666", "uid": 0, "gid": 0})
doc["nodes"].sort(key=lambda n: n["path"])
want = dict((k, int(v)) for k, v in (s.split("=", 1) for s in spec))
majors = doc["majors"]
for name, new in want.items():
    mine = [m for m in majors if m["name"] == name]
    if not mine:
        sys.exit("host-majors: %s: the example host has no such major" % name)
    old = mine[0]["major"]
    if all(m["major"] == new for m in mine):
        continue
    majors[:] = [m for m in majors if m["major"] != new or m["name"] in want]
    for m in mine:
        m["major"] = new
    for node in doc.get("nodes") or []:
        p = node["path"]
        if node["major"] == old and (p == "/dev/" + name or p.startswith("/dev/" + name + "-")
                                     or p.startswith("/dev/" + name + "/")):
            node["major"] = new
majors.sort(key=lambda m: m["major"])
with open(out, "w") as f:
    yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=False, explicit_start=True)
PY
}

# finish_case: the config's own line, after its checks
finish_case() {
	n=$((n + 1))
	if [ $case_bad -ne 0 ]; then
		echo "not ok $n - $file"
		failed=$((failed + 1))
	elif [ $case_todo -ne 0 ]; then
		echo "not ok $n - $file # TODO lxgpu: see the checks above"
	else
		echo "ok $n - $file"
	fi
}

field() { sed -n "s/^$1: //p" "$2"; }        # FIELD EXPECT: the field's lines
strip_cr() { tr -d '\r' <"$1"; }
sections() { strip_cr "$1" | sed -n '/^\[/,$p'; } # from the first [section] on

# keep_seq CONFIG KEEPFILE: the config's lines that are keep: lines, in order
keep_seq() { strip_cr "$1" | grep -Fx -f "$2" || true; }

for conf in "$public"/[0-9]*.conf "$public"/[0-9]*.lxc; do
	[ -e "$conf" ] || continue
	file=$(basename "$conf")
	name=${file%.*}
	exp="$public/$name.expect"
	case_bad=0 case_todo=0
	m="$work/msg"
	: >"$m"

	# 1. the host model
	majors=$(field host-majors "$exp")
	# A config reported working had rules that fit its host: without the
	# poster's majors, the first dynamic major its rules name was their
	# nvidia-uvm (and a second one nvidia-caps).
	if [ -z "$majors" ] && case $(field problem "$exp") in none*) true ;; *) false ;; esac &&
		case $(field gpus "$exp") in none | '') false ;; *) true ;; esac; then
		majors=$(sed -n '/^\[/q; s/^lxc\.cgroup2\{0,1\}\.devices\.allow *[:=] *c \([0-9][0-9]*\):.*/\1/p' "$conf" |
			awk '($1 >= 234 && $1 <= 254) || ($1 >= 384 && $1 <= 511)' | awk '!seen[$1]++' | head -n 2 |
			awk 'NR == 1 { printf "nvidia-uvm=%s", $1 } NR == 2 { printf " nvidia-caps=%s", $1 }')
	fi
	host="$base_host"
	if [ -n "$majors" ] || grep -q 'nvidia-caps/nvidia-cap\|/dev/nvidia-modeset' "$conf"; then
		host="$work/hosts/$name.yaml"
		st=0
		if make_host "$majors" "$host" "$conf" >"$m" 2>&1; then
			"$lxgpu" --host "$host" scan >"$work/scan" 2>&1 || { st=1; cat "$work/scan" >>"$m"; }
		else
			st=1
		fi
		[ $st -eq 0 ] && { grep -q "nvidia-uvm" "$host" || { echo "no nvidia-uvm in the model" >>"$m"; st=1; }; }
		result "$name" host "host model ($majors) loads" $st "$m"
		[ "$st" -eq 0 ] || { finish_case; continue; }
	fi

	# 2. the config in place, apply
	case $file in
	*.lxc)
		id=$name cfg="$work/lxc/$name/config"
		mkdir -p "$work/lxc/$name" ;;
	*)
		num=${name%%-*}; id=$((900300 + ${num#0})) cfg="$work/pve/lxc/$id.conf" ;;
	esac
	cp "$conf" "$cfg"
	# A plain LXC post is a fragment: the container's config included LXC's
	# common.conf (every template's does), or it could not have started.
	case $file in
	*.lxc) grep -q '^lxc.include' "$conf" ||
		{ echo "lxc.include = /usr/share/lxc/config/common.conf"; cat "$conf"; } >"$cfg" ;;
	esac
	cp "$cfg" "$work/posted"

	# verify first, on the config as posted: a config its poster reported
	# working gets no error; a reported problem gets its finding (the code
	# for each problem word is the one docs/findings.md gives it).
	"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
		--lxc-config-dir "$work/lxc-config" verify "$id" --format json >"$work/verify.json" 2>"$m"
	vrc=$?
	codes=$(jq -r '[.findings[] | "\(.code)/\(.severity)"] | join(" ")' "$work/verify.json" 2>/dev/null)
	problem=$(field problem "$exp")
	st=0
	case $problem in
	none*)
		errors=$(jq -r '[.findings[] | select(.severity == "error") | "\(.code): \(.message)"] | .[]' "$work/verify.json")
		[ "$vrc" -le 1 ] && json_ok "$work/verify.json" >>"$m" && [ -z "$errors" ] || { st=1; echo "$errors" >>"$m"; }
		desc="verify: no error on a config reported working" ;;
	unknown* | '') desc="verify runs (problem not known)"; [ "$vrc" -le 1 ] && json_ok "$work/verify.json" >>"$m" || st=1 ;;
	*)
		word=${problem%%:*}
		case $word in
		over-broad) want_code=LXG007 ;;
		wrong-cgroup-version) want_code=LXG006 ;;
		in-snapshot) # LXG005 is about GPU lines; other devices' are not lxgpu's
			case $problem in *nvidia* | *dri*) want_code=LXG005 ;; *) want_code="" ;; esac ;;
		stale-major) want_code=LXG001 ;;
		missing-uvm) want_code=LXG008 ;;
		no-rule) want_code=LXG022 ;;
		*) want_code="" ;;
		esac
		desc="verify finds the reported problem ($word: ${want_code:-no code})"
		if [ -n "$want_code" ]; then
			case " $codes " in *" $want_code/"*) ;; *) st=1; echo "findings: $codes" >>"$m" ;; esac
		fi ;;
	esac
	result "$name" verify "$desc" $st "$m"
	cp "$work/posted" "$cfg"
	gpus=$(field gpus "$exp")
	case $gpus in
	none | '') gpuarg="--gpus 0" want=0 ;;
	*) gpuarg='' want=$(echo "$gpus" | tr ',' ' ') ;;
	esac
	lx() {
		# shellcheck disable=SC2086
		"$lxgpu" --host "$host" --pve-dir "$work/pve" --lxc-path "$work/lxc" \
			--lxc-config-dir "$work/lxc-config" --lock-dir "$work/locks" \
			--backup-dir "$work/backups" --state-dir "$work/state" apply "$id" $gpuarg "$@"
	}
	lx >"$work/out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && [ -z "$gpuarg" ] && grep -q "no GPU yet" "$work/out"; then
		# apply found none of the GPUs the config names: a failure of its
		# own; the checks below then run with the gpus: as --gpus
		{ echo "apply (no --gpus): exit 2, the config's GPUs ($gpus) not found:"; cat "$work/out"; } >"$m"
		result "$name" current "apply (no --gpus) finds the GPUs the config names ($gpus)" 1 "$m"
		cmp -s "$conf" "$cfg" || { echo "Bail out! $name: the refused apply changed the file"; exit 1; }
		gpuarg="--gpus $gpus"
		lx >"$work/out" 2>&1
		rc=$?
	fi
	problem=$(field problem "$exp")
	broken=yes
	case $problem in none* | unknown*) broken=no ;; esac
	if [ $rc -eq 2 ]; then
		{
			echo "apply exit 2 (problem: $problem):"
			cat "$work/out"
			cmp "$conf" "$cfg" || { echo "and the file changed:"; diff -u "$conf" "$cfg"; }
		} >"$m"
		st=0
		cmp -s "$conf" "$cfg" || st=1
		grep -Eq ':[0-9]+:' "$work/out" || { echo "the message names no line (file:N)" >>"$m"; st=1; }
		[ $broken = yes ] || { echo "refused, but the poster reports no problem" >>"$m"; st=1; }
		# the message, as a comment, also when the refusal is accepted
		[ $st -ne 0 ] || sed 's/^/# /' "$m"
		result "$name" apply "apply refuses (exit 2): file unchanged, line named" $st "$m"
		finish_case
		continue
	fi
	{ echo "apply $gpuarg: exit $rc"; cat "$work/out"; } >"$m"
	st=0
	[ $rc -eq 0 ] || st=1
	result "$name" apply "apply ${gpuarg:-(no --gpus)} exits 0" $st "$m"
	[ -z "$results" ] || cp "$cfg" "$results/$file"
	diff -u "$conf" "$cfg" >"$work/diff"

	# 3. keep: lines present byte for byte, in their order
	field keep "$exp" >"$work/keep"
	: >"$m"
	while IFS= read -r l; do
		strip_cr "$cfg" | grep -Fxq -- "$l" || echo "keep: line missing: $l" >>"$m"
	done <"$work/keep"
	st=0
	[ -s "$m" ] && { st=1; cat "$work/diff" >>"$m"; }
	result "$name" keep "every keep: line still there, byte for byte" $st "$m"
	st=0
	if [ -s "$work/keep" ]; then
		# lines missing altogether fail the check above, not this one
		keep_seq "$cfg" "$work/keep" >"$work/keep.after"
		keep_seq "$conf" "$work/keep" | grep -Fx -f "$work/keep.after" >"$work/keep.before"
		diff -u "$work/keep.before" "$work/keep.after" >"$m" || { st=1; cat "$work/diff" >>"$m"; }
	fi
	result "$name" order "keep: lines in their order (none moved, dropped or repeated)" $st "$m"

	# nothing outside the live section
	sections "$conf" >"$work/sec.before"
	sections "$cfg" >"$work/sec.after"
	st=0
	diff -u "$work/sec.before" "$work/sec.after" >"$m" || st=1
	result "$name" sections "snapshot and pending sections identical" $st "$m"

	# the GPUs still (or now) given
	: >"$m"
	for g in $want; do
		grep -q "/dev/nvidia$g\([^0-9]\|$\)" "$cfg" || echo "no /dev/nvidia$g in the result" >>"$m"
	done
	st=0
	[ -s "$m" ] && { st=1; cat "$work/diff" >>"$m"; }
	result "$name" gpus "GPU(s) $(echo "$want" | tr ' ' ',') given" $st "$m"

	# 4. idempotent: a second apply writes nothing, the dry run finds nothing
	cp "$cfg" "$work/after"
	lx >"$work/out2" 2>&1
	rc=$?
	st=0
	{ [ $rc -eq 0 ] && grep -q "nothing written" "$work/out2"; } || st=1
	{ echo "second apply: exit $rc"; cat "$work/out2"; diff -u "$work/after" "$cfg"; } >"$m"
	cmp -s "$work/after" "$cfg" || st=1
	result "$name" again "a second apply writes nothing" $st "$m"
	cp "$work/after" "$cfg"
	lx --dry-run >"$work/out3" 2>&1
	rc=$?
	{ echo "apply --dry-run: exit $rc"; cat "$work/out3"; } >"$m"
	st=0
	[ $rc -eq 0 ] || st=1
	result "$name" dryrun "apply --dry-run then exits 0" $st "$m"

	finish_case
done
echo "1..$n"
[ $failed -eq 0 ] && [ $n -gt 0 ]
