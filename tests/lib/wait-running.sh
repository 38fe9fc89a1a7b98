# Sourced, or put into a script that runs in the real-LXC tests' private
# mount namespace (as probe-open.sh is).
# wait_running LXCPATH NAME [TRIES]: wait until container NAME is RUNNING,
# looking TRIES times (default 40) a quarter of a second apart; 1 if it
# never is.
wait_running() {
	for _ in $(seq "${3:-40}"); do
		[ "$(lxc-info -P "$1" -n "$2" -s -H 2>/dev/null)" = RUNNING ] && return 0
		sleep 0.25
	done
	return 1
}

# wait_init_scope LXCPATH NAME: wait (at most 40 looks, as wait_running)
# until the running container's init has moved itself to init.scope, as
# systemd does (lxc_pve_init's init); 1 if it never does.
wait_init_scope() {
	wait_pid=$(lxc-info -P "$1" -n "$2" -p -H)
	for _ in $(seq 40); do
		grep -q 'init.scope' "/proc/$wait_pid/cgroup" && return 0
		sleep 0.25
	done
	return 1
}
