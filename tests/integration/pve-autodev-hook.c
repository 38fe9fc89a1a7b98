/* pve-autodev-hook: what pve-container's autodev hook does, for the
 * real-LXC tests on machines without Proxmox's code (CI, the LXC 6.0/7.0
 * roots). Written from reading proxmox/pve-container
 * 94f558522ef61f9858c39c264d0ac4e697e49268: src/lxc-pve-autodev-hook lines
 * 13-40 (the devN part), src/PVE/LXC/Tools.pm lxc_hook (lines 17-84) and
 * for_devices (lines 86-119); pve-common's PVE::Tools::mknod is mknodat(2)
 * at AT_FDCWD. No Proxmox code is in this file. lxc-access runs the real
 * hook instead where Proxmox's code is (tools/pve-oracle), and both must
 * give the verdicts recorded from the real one in pve-hook-verdicts/.
 *
 * As the real hook:
 * - LXC calls it as an old-style hook (pve-container's drop-in sets no
 *   lxc.hook.version): "NAME lxc autodev" (version 1: LXC_NAME,
 *   LXC_HOOK_SECTION, LXC_HOOK_TYPE). A NAME that is not all digits, or
 *   another section or type: nothing. LXC_ROOTFS_MOUNT, LXC_ROOTFS_PATH
 *   and LXC_CONFIG_FILE must be set.
 * - It reads /var/lib/lxc/NAME/passthrough/devices (the prestart hook's
 *   list; none: nothing to do), lines "b|c:MAJOR:MINOR:/dev/REST": another
 *   line, a REST with "..", or 10:237 (loop-control) is warned about and
 *   skipped.
 * - For each: ROOT/dev/REST's directory is made (mkpath), then
 *   mknod(ROOT/dev/REST, S_IFREG, 0), a new empty file, or it dies with
 *   "Could not mknod ROOT/dev/REST: <strerror>" (a path that is already
 *   there: "File exists"); then /var/lib/lxc/NAME/passthrough/dev/REST is
 *   bound onto it, or it dies ("Bind mount of device REST into container
 *   failed: <strerror>"). Perl's die exits with errno as its status.
 * The real hook's second list (passthrough/mounts: block devices of
 * mount points with quotas) is not done: a CT here has none, and this
 * stand-in dies if one is there. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void die(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(err ? err : 255);
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* File::Path::mkpath: each missing directory, 0777 less the umask. */
static void mkpath(const char *dir)
{
	char p[4096];
	if (snprintf(p, sizeof(p), "%s", dir) >= (int)sizeof(p))
		die(ENAMETOOLONG, "mkdir %s: %s\n", dir, strerror(ENAMETOOLONG));
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = '\0';
		struct stat st;
		if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode))
			die(EEXIST, "mkdir %s: %s\n", p, strerror(EEXIST));
		if (stat(p, &st) < 0 && mkdir(p, 0777) < 0 && errno != EEXIST)
			die(errno, "mkdir %s: %s\n", p, strerror(errno));
		*s = c;
		if (!c)
			break;
	}
}

static const char *digits(const char *s, unsigned long *v)
{
	if (*s < '0' || *s > '9')
		return NULL;
	*v = strtoul(s, (char **)&s, 10);
	return s;
}

/* A line of the list: ^(b|c):(\d+):(\d+):/dev/(\S+)\s*$ (REST into rest). */
static int parse_entry(const char *line, unsigned long *major, unsigned long *minor, char *rest,
		       size_t size)
{
	const char *s = line;
	if ((*s != 'b' && *s != 'c') || s[1] != ':' || !(s = digits(s + 2, major)) || *s != ':' ||
	    !(s = digits(s + 1, minor)) || strncmp(s, ":/dev/", 6) != 0)
		return 0;
	s += 6;
	size_t n = strcspn(s, " \t\r\n\f\v");
	if (n == 0 || n >= size || s[strspn(s + n, " \t\r\n\f\v") + n] != '\0')
		return 0;
	memcpy(rest, s, n);
	rest[n] = '\0';
	return 1;
}

int main(int argc, char **argv)
{
	const char *name, *section, *type;
	const char *version = getenv("LXC_HOOK_VERSION");
	if (!version || strcmp(version, "0") == 0) {
		if (argc < 4)
			die(0, "missing hook parameters, expected to be called by lxc as hook\n");
		name = argv[1], section = argv[2], type = argv[3];
	} else if (strcmp(version, "1") == 0) {
		name = getenv("LXC_NAME"), section = getenv("LXC_HOOK_SECTION");
		type = getenv("LXC_HOOK_TYPE");
		if (!name || !section || !type || !*name || !*section || !*type)
			die(0, "missing LXC_NAME, LXC_HOOK_SECTION or LXC_HOOK_TYPE\n");
	} else {
		die(0, "lxc.hook.version %s not supported!\n", version);
	}
	if (!all_digits(name) || strcmp(section, "lxc") != 0 || strcmp(type, "autodev") != 0)
		return 0;
	const char *root = getenv("LXC_ROOTFS_MOUNT");
	if (!root || !*root)
		die(0, "missing LXC_ROOTFS_MOUNT env var\n");
	const char *path_var = getenv("LXC_ROOTFS_PATH"), *conf = getenv("LXC_CONFIG_FILE");
	if (!path_var || !*path_var)
		die(0, "missing LXC_ROOTFS_PATH env var\n");
	if (!conf || !*conf)
		die(0, "missing LXC_CONFIG_FILE env var\n");

	char list[4096], mounts[4096];
	snprintf(list, sizeof(list), "/var/lib/lxc/%s/passthrough/devices", name);
	snprintf(mounts, sizeof(mounts), "/var/lib/lxc/%s/passthrough/mounts", name);
	if (access(mounts, F_OK) == 0)
		die(0, "pve-autodev-hook (stand-in): %s is not done here\n", mounts);
	FILE *f = fopen(list, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		die(errno, "failed to open device list: %s\n", strerror(errno));
	}
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		char rest[4096];
		unsigned long major, minor;
		if (!parse_entry(line, &major, &minor, rest, sizeof(rest))) {
			fprintf(stderr, "invalid %s entry: %s\n", list, line);
			continue;
		}
		if (strstr(rest, "..")) {
			fprintf(stderr, "skipping illegal device node entry: %s\n", rest);
			continue;
		}
		if (major == 10 && minor == 237) {
			fprintf(stderr, "skipping illegal device entry (loop-control) for: %s\n", rest);
			continue;
		}
		char target[8192], dir[8192], source[8192];
		snprintf(target, sizeof(target), "%s/dev/%s", root, rest);
		/* "$root/" . dirname("/dev/REST") */
		snprintf(dir, sizeof(dir), "%s//dev/%s", root, rest);
		*strrchr(dir, '/') = '\0';
		mkpath(dir);
		if (mknodat(AT_FDCWD, target, S_IFREG, 0) < 0)
			die(errno, "Could not mknod %s: %s\n", target, strerror(errno));
		snprintf(source, sizeof(source), "/var/lib/lxc/%s/passthrough/dev/%s", name, rest);
		if (mount(source, target, NULL, MS_BIND, NULL) < 0)
			die(errno, "Bind mount of device %s into container failed: %s\n", rest,
			    strerror(errno));
	}
	fclose(f);
	return 0;
}
