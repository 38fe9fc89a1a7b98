/* config/rollback.c: a backup's GPU lines back into today's config, every
 * other line as it is today. Expected texts are written by hand from that
 * rule. */
#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "tap.h"

static unsigned majors[] = {195, 511};
static const struct lx_gpu_owned owned = {.majors = majors, .n_majors = 2, .drm_major = 226};

static const char before[] = "arch: amd64\n"
			     "memory: 4096\n"
			     "lxc.cgroup2.devices.allow: c 195:* rwm\n"
			     "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
			     "hostname: gpu\n";
static const char written[] = "arch: amd64\n"
			      "memory: 4096\n"
			      "dev0: /dev/nvidia0\n"
			      "dev1: /dev/nvidiactl\n"
			      "hostname: gpu\n";

/* Roll today's text back with the backup above; returns the rc. */
static int roll(const char *today_text, const char *wrote, bool force, struct lx_rollback *rb,
		struct lx_error *err)
{
	struct lx_conf today;
	lx_conf_parse("100.conf", today_text, strlen(today_text), &today);
	int rc = lx_conf_rollback(&today, "b.tar.gz", before, strlen(before), wrote,
				  wrote ? strlen(wrote) : 0, &owned, force, rb, err);
	lx_conf_free(&today);
	return rc;
}

static void test_unchanged(void)
{
	struct lx_rollback rb;
	struct lx_error err = {0};
	int_eq(roll(written, written, false, &rb, &err), 0, "unchanged since: rolls back");
	str_eq(rb.text, before, "the backup's very bytes");
	int_eq(rb.removed, 2, "two GPU lines out");
	int_eq(rb.restored, 2, "two GPU lines back");
	lx_rollback_free(&rb);
}

static void test_other_edits_kept(void)
{
	const char today[] = "arch: amd64\r\n"
			     "memory: 8192\r\n"
			     "dev0: /dev/nvidia0\r\n"
			     "dev1: /dev/nvidiactl\r\n"
			     "hostname: gpu\r\n"
			     "swap: 512\r\n"
			     "\r\n"
			     "[pve:pending]\r\n"
			     "dev0: /dev/nvidia0\r\n"
			     "memory: 2048\r\n";
	const char want[] = "arch: amd64\r\n"
			    "memory: 8192\r\n"
			    "lxc.cgroup2.devices.allow: c 195:* rwm\r\n"
			    "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\r\n"
			    "hostname: gpu\r\n"
			    "swap: 512\r\n"
			    "\r\n"
			    "[pve:pending]\r\n"
			    "dev0: /dev/nvidia0\r\n"
			    "memory: 2048\r\n";
	struct lx_rollback rb;
	struct lx_error err = {0};
	/* The file was converted to CRLF by hand: GPU line texts are the same. */
	int_eq(roll(today, written, false, &rb, &err), 0, "edits elsewhere: rolls back");
	str_eq(rb.text, want, "GPU lines back in their place, other edits and pending kept");
	lx_rollback_free(&rb);
}

static void test_gpu_lines_edited(void)
{
	const char today[] = "arch: amd64\n"
			     "memory: 4096\n"
			     "dev0: /dev/nvidia0,mode=0666\n"
			     "dev1: /dev/nvidiactl\n"
			     "hostname: gpu\n";
	struct lx_rollback rb;
	struct lx_error err = {0};
	int_eq(roll(today, written, false, &rb, &err), -1, "GPU line edited: refused");
	ok(rb.text == NULL, "no text");
	ok(err.message && strstr(err.message, "changed since lxgpu wrote them"), "says why");
	ok(rb.gpu_diff && strstr(rb.gpu_diff, "\n-dev0: /dev/nvidia0\n+dev0: /dev/nvidia0,mode=0666\n"),
	   "the diff: what lxgpu wrote -> today");
	lx_error_clear(&err);
	lx_rollback_free(&rb);
	int_eq(roll(today, written, true, &rb, &err), 0, "--force: rolls back");
	str_eq(rb.text, before, "the backup's GPU lines replace the edited ones");
	lx_rollback_free(&rb);
}

static void test_not_recorded(void)
{
	const char today[] = "arch: amd64\n"
			     "memory: 8192\n"
			     "dev0: /dev/nvidia0\n"
			     "hostname: gpu\n"
			     "\n"
			     "[snap]\n"
			     "memory: 4096\n";
	const char want[] = "arch: amd64\n"
			    "memory: 8192\n"
			    "lxc.cgroup2.devices.allow: c 195:* rwm\n"
			    "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
			    "hostname: gpu\n"
			    "\n"
			    "[snap]\n"
			    "memory: 4096\n";
	struct lx_rollback rb;
	struct lx_error err = {0};
	int_eq(roll(today, NULL, false, &rb, &err), -1, "old backup: refused");
	ok(err.message && strstr(err.message, "does not record what lxgpu wrote"), "says why");
	lx_error_clear(&err);
	lx_rollback_free(&rb);
	int_eq(roll(today, NULL, true, &rb, &err), 0, "old backup, --force: rolls back");
	str_eq(rb.text, want, "GPU lines only; the snapshot and memory stay");
	lx_rollback_free(&rb);
}

static void test_privilege(void)
{
	const char flipped[] = "arch: amd64\n"
			       "memory: 4096\n"
			       "unprivileged: 1\n"
			       "dev0: /dev/nvidia0\n"
			       "dev1: /dev/nvidiactl\n"
			       "hostname: gpu\n";
	const char today[] = "arch: amd64\n"
			     "memory: 1024\n"
			     "unprivileged: 1\n"
			     "dev0: /dev/nvidia0\n"
			     "dev1: /dev/nvidiactl\n"
			     "hostname: gpu\n";
	const char want[] = "arch: amd64\n"
			    "memory: 1024\n"
			    "lxc.cgroup2.devices.allow: c 195:* rwm\n"
			    "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
			    "hostname: gpu\n";
	struct lx_rollback rb;
	struct lx_error err = {0};
	int_eq(roll(today, flipped, false, &rb, &err), 0, "privilege flip: rolls back");
	str_eq(rb.text, want, "the unprivileged key lxgpu set is gone again");
	lx_rollback_free(&rb);
}

int main(void)
{
	test_unchanged();
	test_other_edits_kept();
	test_gpu_lines_edited();
	test_not_recorded();
	test_privilege();
	return tap_done();
}
