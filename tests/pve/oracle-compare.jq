# lxgpu's view of a config ($l: pve-conf-dump) against Proxmox's verdict on
# the same file ($p: shared/tools/pve-oracle/pve-parse, in oracle/). Prints
# {check: [mismatch, ...]}; every list empty means they agree.
#   jq -n --slurpfile l DUMP --slurpfile p ORACLE -f oracle-compare.jq
$l[0] as $l | $p[0] as $p |

def is_pending: (.name // "") | ascii_downcase == "pve:pending";
# PVE keeps one section per name: a later [name] (or [pve:pending]) replaces
# the earlier one.
def section_of($name):
  if $name == "main" then $l.live
  elif $name == "pve:pending" then ([$l.sections[] | select(is_pending)] | last)
  else ([$l.sections[] | select((is_pending | not) and .name == $name)] | last) end
  // {keys: [], lxc: []};
# PVE keys are a hash: the last line of a key wins.
def last_wins: reduce .[] as $k ({}; .[$k.key] = $k);
# check_type hands back booleans as 0/1 and integers as numbers; other values
# as they were written.
def same_value($pv):
  if ($pv | type) == "string" then .value == $pv
  else ((.value | test("^[0-9]+$")) and (.value | tonumber) == $pv) or .bool == $pv end;
def accepted_lxc: [$p.lxc_key_checks[] | select(.valid) | .key];
def unknown_lxc: [$p.lxc_key_checks[] | select(.result == 0) | .key];
def octal: reduce (.[1:] | explode[]) as $c (0; . * 8 + $c - 48);
# uid/gid: any digits parse; lxgpu saturates past LLONG_MAX, which jq cannot hold.
def same_id($pv):
  if $pv == null then . == -1
  elif ($pv | ltrimstr("+") | ltrimstr("-") | ltrimstr("0") | length) > 18 then . >= 9e18
  else . == ($pv | tonumber) end;

($p.nonstrict.warnings // []) as $warn |
"vm \($p.input.vmid) - unable to parse config: " as $unparsed |
(["main", "pve:pending"] + $p.nonstrict.snapshot_names) as $names |
{
  sections: (
    ([$l.sections[] | select(is_pending | not) | .name] | unique) as $ours |
    if $ours == $p.nonstrict.snapshot_names then []
    else ["snapshots: lxgpu \($ours), PVE \($p.nonstrict.snapshot_names)"] end),

  keys: [
    $names[] as $n |
    (if $n == "main" then $p.nonstrict.main
     elif $n == "pve:pending" then $p.nonstrict.pending
     else $p.nonstrict.snapshots[$n] end) as $ps |
    (section_of($n).keys | last_wins) as $all |
    ($all | del(.description)
      # PVE drops snapstate from the live section (it only means something in a snapshot)
      | if $n == "main" then del(.snapstate) else . end) as $ours |
    ($ps.keys | del(.env)) as $theirs |
    ((($ours | keys) - ($theirs | keys))[] | "\($n): lxgpu has \(.), PVE does not"),
    ((($theirs | keys) - ($ours | keys))[] | "\($n): PVE has \(.), lxgpu does not"),
    ($theirs | to_entries[] | select($ours[.key] != null) | . as $e |
      select($ours[$e.key] | same_value($e.value) | not) |
      "\($n): \($e.key): lxgpu '\($ours[$e.key].value)', PVE '\($e.value)'"),
    # the accessor agrees with last-wins in the live section
    (if $n == "main" then
      ($l.live.keys[] | select(.get != $all[.key].value) |
        "lx_conf_get(\(.key)) = '\(.get)', the last line says '\($all[.key].value)'")
    else empty end)
  ],

  lxc: [
    $names[] as $n |
    (if $n == "main" then $p.nonstrict.main
     elif $n == "pve:pending" then $p.nonstrict.pending
     else $p.nonstrict.snapshots[$n] end) as $ps |
    section_of($n).lxc as $ours |
    # lxc.environment.runtime lines go to "env", joined by NUL
    ([$ours[] | select(.[0] == "lxc.environment.runtime") | .[1]]
      | if length > 0 then join("\u0000") else null end) as $env |
    # keys PVE's table rejects or does not know lxgpu keeps as lxc lines (documented)
    ([$ours[] | select(.[0] as $k | accepted_lxc | index([$k]))
      | select(.[0] != "lxc.environment.runtime")]) as $kept |
    (if $env != $ps.keys.env then "\($n): env: lxgpu \($env), PVE \($ps.keys.env)" else empty end),
    (if $kept != ($ps.lxc // []) then "\($n): lxc lines: lxgpu \($kept), PVE \($ps.lxc)" else empty end)
  ],

  invalid: (
    # lines PVE could not parse at all, or dropped (delete: outside pending);
    # an lxc.* key PVE does not know is an lxc line to lxgpu (documented)
    ([$l.lines[] | select(.kind == "invalid" or (.kind == "lxc" and
        ((.raw | capture("^(?<k>lxc\\.[a-z0-9_.-]+)").k) as $k | unknown_lxc | index([$k]))))
      | .raw | if test("^delete:\\s*\\S") then "<delete: outside [pve:pending]>" else . end]
      | sort) as $ours |
    ([$warn[] | if startswith($unparsed) then ltrimstr($unparsed) | rtrimstr("\n")
      elif test("property 'delete' is only allowed") then "<delete: outside [pve:pending]>"
      else empty end] | sort) as $theirs |
    if $ours == $theirs then [] else ["lxgpu rejects \($ours), PVE \($theirs)"] end),

  devn: [
    ([$names[] | section_of(.).keys | last_wins | to_entries[] | select(.value.devn)] | length)
      as $ours |
    (if $ours != ($p.dev_checks | length) then
      "lxgpu reads \($ours) devN values, PVE \($p.dev_checks | length)" else empty end),
    ($p.dev_checks[] | . as $c |
      (section_of($c.section).keys | last_wins | .[$c.key]) as $k |
      if $k == null then "\($c.section) \($c.key): lxgpu does not have it"
      elif $k.value != $c.value then "\($c.key): value '\($k.value)', PVE '\($c.value)'"
      elif $k.devn.ok != $c.ok then
        "\($c.key) '\($c.value)': lxgpu ok=\($k.devn.ok) (\($k.devn.error)), PVE ok=\($c.ok) (\($c.error))"
      elif $c.ok and ($k.devn.path != $c.parsed.path
          or $k.devn.mode != ($c.parsed.mode // null | if . == null then -1 else octal end)
          or ($k.devn.uid | same_id($c.parsed.uid) | not)
          or ($k.devn.gid | same_id($c.parsed.gid) | not)
          or $k.devn.deny_write != (($c.parsed["deny-write"] // 0) == 1)) then
        "\($c.key) '\($c.value)': lxgpu \($k.devn), PVE \($c.parsed)"
      # dev0..dev255 are devices; PVE does not know dev256 or dev01
      elif ($k.devn_index >= 0) == ([$warn[] | select(contains("unknown setting '\($c.key)'"))]
          | length > 0) then
        "\($c.key): lx_conf_devn_index \($k.devn_index), PVE's warnings \($warn)"
      else empty end)
  ],

  unprivileged: (
    $p.nonstrict.main.keys.unprivileged as $v |
    # pve-container tests Perl truth of the stored value, or an lxc.idmap line
    (if $v == null then false elif ($v | type) == "number" then $v != 0
     else $v != "" and $v != "0" end) as $truth |
    (any($p.nonstrict.main.lxc[]?; .[0] == "lxc.idmap")) as $idmap |
    [
      (if $l.unprivileged.effective != ($truth or $idmap) then
        "lx_conf_unprivileged \($l.unprivileged.effective), PVE \($truth or $idmap) (value \($v))"
       else empty end),
      (if $v == null then (if $l.unprivileged.value != null then "lxgpu sees a value, PVE none" else empty end)
       elif ($v | type) == "number" then
         (if $l.unprivileged.bool != $v then "lx_pve_bool \($l.unprivileged.bool), PVE \($v)" else empty end)
       elif $l.unprivileged.bool != -1 then "lx_pve_bool \($l.unprivileged.bool), PVE kept '\($v)' (no boolean)"
       else empty end)
    ])
}
