/* The journal: one message to the syslog socket, for what runs where no
 * terminal reads it (LXC's hooks, Proxmox's hookscript phases). */
#include "lxgpu/util.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int lx_journal_send(const char *socket_path, int priority, const char *tag, const char *message,
		    struct lx_error *err)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return lx_error_set(err, "%s: the socket path is too long", socket_path);
	memcpy(addr.sun_path, socket_path, strlen(socket_path) + 1);
	/* facility daemon (3) */
	_cleanup_free_ char *line =
		lx_xasprintf("<%d>%s[%d]: %s", 3 * 8 + (priority & 7), tag, (int)getpid(), message);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "cannot make a socket for the journal");
	/* Never wait on a journal that does not read: a start must not hang. */
	ssize_t sent = sendto(fd, line, strlen(line), MSG_NOSIGNAL | MSG_DONTWAIT,
			      (struct sockaddr *)&addr, sizeof(addr));
	int e = errno;
	close(fd);
	if (sent < 0)
		return lx_error_set_errno(err, e, "%s: cannot log to the journal", socket_path);
	return 0;
}
