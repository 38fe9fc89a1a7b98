# Run lxgpu and read its JSON so that a crash is never read as "no finding"
# (issue 33). Every shell test that reads lxgpu's JSON goes through it.
# Source it (after tap.sh), then in a t_* function:
#   lx_json 0 "$work/out" "$lxgpu" --host H verify 101 --format json &&
#       no_finding "$work/out" &&
#       jq_ok "$work/out" '[.findings[].code] == ["LXG008"]'
#
#   lx_json WANT OUT CMD...  runs CMD, stdout to OUT, stderr to OUT.err; fails
#                 (saying why, showing both) unless its exit status is in
#                 WANT and OUT is one non-empty JSON document. WANT: "0",
#                 "1", "0|1", or "sev": what the README's rule gives for
#                 the findings in OUT (1 when one has severity "error", in
#                 .findings, .containers[].findings or preflight's
#                 .next_start[].reasons, .next_boot.containers[].reasons;
#                 else 0). Sets lx_rc to CMD's exit status.
#   json_ok FILE  FILE is one non-empty JSON document (python3's parser:
#                 jq on empty input exits 0 on jq 1.6 and 4 on jq 1.7, so
#                 jq's exit status is never the test of "it parsed").
#   jq_ok FILE FILTER [JQ-ARGS...]  json_ok, then jq -e FILTER is true;
#                 otherwise fails, printing FILE's findings.
#   jq_val FILE FILTER [JQ-ARGS...] json_ok, then jq -r FILTER's output
#                 (use as: v=$(jq_val F '.x') || return 1).
#   no_finding FILE [FILTER]  json_ok, and FILTER (default .findings) is a
#                 parsed, empty list; a missing key or a null is a failure.
#   codes_in FILE [FILTER]  json_ok, then the unique sorted codes of
#                 FILTER's findings (default .findings), one line, space-
#                 separated (use as: c=$(codes_in F) || return 1).

json_ok() {
	[ -s "$1" ] || { echo "no output in $1 (empty: not JSON, not \"no finding\")"; return 1; }
	python3 -c '
import json, sys
try:
    with open(sys.argv[1]) as f:
        json.load(f)
except ValueError as e:
    sys.exit("%s does not parse as JSON: %s" % (sys.argv[1], e))' "$1" 2>&1 ||
		{ head -c 2000 "$1" | sed 's/^/  | /'; return 1; }
}

lx_json() {
	_lj_want=$1 _lj_out=$2
	shift 2
	"$@" >"$_lj_out" 2>"$_lj_out.err"
	_lj_rc=$?
	lx_rc=$_lj_rc
	json_ok "$_lj_out" || { echo "(exit status $_lj_rc of: $*)"; sed 's/^/  stderr: /' "$_lj_out.err"; return 1; }
	if [ "$_lj_want" = sev ]; then
		_lj_want=$(jq -r '[(.findings // [])[], ((.containers // [])[] | (.findings // [])[]),
			((.next_start // [])[], (.next_boot.containers // [])[] | (.reasons // [])[])] |
			if any(.severity == "error") then 1 else 0 end' "$_lj_out") || return 1
	fi
	case "|$_lj_want|" in
	*"|$_lj_rc|"*) ;;
	*)
		echo "exit status $_lj_rc, wanted $_lj_want, of: $*"
		head -c 4000 "$_lj_out" | sed 's/^/  stdout: /'
		sed 's/^/  stderr: /' "$_lj_out.err"
		return 1
		;;
	esac
}

# the findings of FILE, one a line, to say what was there when a check fails
lxj_show() {
	jq -c '(.findings // [])[], ((.containers // [])[] | .container as $c | (.findings // [])[] | {container: $c} + .)' \
		"$1" 2>/dev/null | head -40 | sed 's/^/  finding: /'
}

jq_ok() {
	_lj_f=$1 _lj_filter=$2
	shift 2
	json_ok "$_lj_f" || return 1
	jq -e "$@" "$_lj_filter" "$_lj_f" >/dev/null && return 0
	echo "not true in $_lj_f: $_lj_filter"
	lxj_show "$_lj_f"
	return 1
}

jq_val() {
	_lj_f=$1 _lj_filter=$2
	shift 2
	json_ok "$_lj_f" >&2 || return 1
	jq -r "$@" "$_lj_filter" "$_lj_f"
}

no_finding() {
	json_ok "$1" || return 1
	jq -e "(${2:-.findings}) | type == \"array\" and length == 0" "$1" >/dev/null && return 0
	echo "wanted no finding (${2:-.findings} an empty list) in $1, got:"
	jq -c "${2:-.findings}" "$1" 2>&1 | head -c 4000 | sed 's/^/  /'
	return 1
}

codes_in() {
	json_ok "$1" >&2 || return 1
	jq -r "[(${2:-.findings})[].code] | unique | join(\" \")" "$1"
}
