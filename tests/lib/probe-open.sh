# Sourced into a script that sees a running container (the real-LXC tests
# run it in their private mount namespace).
# probe_open LXCPATH NAME PATH MODE [USER]: open PATH inside the container
# for reading (r), writing (w) or both (rw), as root or as USER of its
# /etc/passwd (busybox su: that uid, its gid and its /etc/group groups),
# and print what the kernel said:
# allowed (it opened, or ENXIO: no driver behind a node the device cgroup
# lets through), eperm (the device cgroup denies it), eacces (the file
# mode), missing, not-a-device. A path that is not a node is told apart
# first: a write would create it.
probe_open() {
	case $4 in r) redir="< $3" ;; w) redir="> $3" ;; *) redir="<> $3" ;; esac
	probe="if [ ! -e $3 ]; then echo NOENT; elif [ ! -c $3 ] && [ ! -b $3 ]; then echo NOTDEV; else : $redir && echo OPENED; fi"
	if [ -n "${5:-}" ]; then
		msg=$(lxc-attach -P "$1" -n "$2" -- su -s /bin/sh "$5" -c "$probe" 2>&1 | grep -v '^lxc-attach')
	else
		msg=$(lxc-attach -P "$1" -n "$2" -- /bin/sh -c "$probe" 2>&1 | grep -v '^lxc-attach')
	fi
	case $msg in
	*NOENT*) echo missing ;;
	*NOTDEV*) echo not-a-device ;;
	*OPENED*) echo allowed ;;
	*"No such device or address"* | *"No such device"*) echo allowed ;;
	*"Operation not permitted"*) echo eperm ;;
	*"Permission denied"*) echo eacces ;;
	*"No such file"* | *"nonexistent"* | *"can't open"*) echo missing ;;
	*) echo "other($msg)" ;;
	esac
}
