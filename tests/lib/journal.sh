# A stand-in journal for the tests: a datagram socket, as journald's
# /dev/log is, whose messages are appended to a file, one per line.
#   journal_start SOCKET FILE   (sets journal_pid; kill it on exit)
#   logged TEXT                 succeeds once FILE holds TEXT (waits up to 5 s)
journal_start() {
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[1] + ".ready", "w").close()
with open(sys.argv[2], "ab", buffering=0) as out:
    while True:
        out.write(s.recv(65536) + b"\n")
' "$1" "$2" &
	journal_pid=$!
	journal_file=$2
	# python3 starts in well under a second, but not on a loaded machine.
	for _ in $(seq 100); do [ -e "$1.ready" ] && return 0; sleep 0.1; done
	return 1
}

logged() {
	for _ in $(seq 50); do grep -qF -- "$1" "$journal_file" 2>/dev/null && return 0; sleep 0.1; done
	echo "journal lacks: $1"
	cat "$journal_file"
	return 1
}
