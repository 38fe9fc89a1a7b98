# Sourced by tests that read lxgpu's text output as a terminal shows it.
#
# on_tty COLS OUT COMMAND [ARGS...]: runs COMMAND on a pseudo-terminal COLS
#   columns wide (script(1) from util-linux; stty sets the size lxgpu reads
#   with TIOCGWINSZ), COLUMNS=COLS in its environment too; its standard
#   output into OUT with the terminal's \r dropped, its standard error into
#   OUT.err (not on the terminal: it would mix with the output); NO_COLOR
#   set, so what is read is the words. Returns
#   COMMAND's exit status. The words are run as given (each quoted for the
#   shell script runs).
# on_tty_stderr COLS OUT COMMAND [ARGS...]: the same for a command whose
#   text is its standard error (the guard): that on the terminal into OUT,
#   its standard output into OUT.out.
on_tty_stderr() {
	_redirect=1
	on_tty "$@"
	_rc=$?
	_redirect=
	return $_rc
}
on_tty() {
	_cols=$1 _out=$2
	shift 2
	_runner="$_out.run"
	{
		printf 'stty cols %s rows 24 2>/dev/null\nCOLUMNS=%s NO_COLOR=1 exec' "$_cols" "$_cols"
		for _a; do printf " '%s'" "$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")"; done
		if [ -n "${_redirect:-}" ]; then printf ' >%s\n' "'$_out.out'"; else printf ' 2>%s\n' "'$_out.err'"; fi
	} >"$_runner"
	script -qec "sh '$_runner'" /dev/null </dev/null >"$_out.raw"
	_rc=$?
	tr -d '\r' <"$_out.raw" >"$_out"
	return $_rc
}
