/* access/rollback.c: a backup's GPU lines back into today's config, every
 * other line as it is today. Expected texts are written by hand from that
 * rule. */
#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

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

/* Another device's lines among the GPU lines (a Coral TPU: major 500 is no
 * NVIDIA major, so apply kept them in place): each GPU line goes back after
 * the line it followed in the backup, also when that line was edited since
 * (the memory line: it then goes where today's first GPU line is). */
static void test_other_device_between(void)
{
	static const char old[] = "arch: amd64\n"
				  "memory: 4096\n"
				  "lxc.cgroup2.devices.allow: c 195:* rwm\n"
				  "lxc.cgroup2.devices.allow: c 500:0 rwm\n"
				  "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
				  "lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file\n"
				  "hostname: gpu\n";
	static const char wrote[] = "arch: amd64\n"
				    "memory: 4096\n"
				    "dev0: /dev/nvidia0\n"
				    "dev1: /dev/nvidiactl\n"
				    "lxc.cgroup2.devices.allow: c 500:0 rwm\n"
				    "lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file\n"
				    "hostname: gpu\n";
	static const char today_text[] = "arch: amd64\n"
					 "memory: 8192\n"
					 "dev0: /dev/nvidia0\n"
					 "dev1: /dev/nvidiactl\n"
					 "lxc.cgroup2.devices.allow: c 500:0 rwm\n"
					 "lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file\n"
					 "hostname: gpu\n"
					 "swap: 512\n";
	static const char want[] = "arch: amd64\n"
				   "memory: 8192\n"
				   "lxc.cgroup2.devices.allow: c 195:* rwm\n"
				   "lxc.cgroup2.devices.allow: c 500:0 rwm\n"
				   "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
				   "lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file\n"
				   "hostname: gpu\n"
				   "swap: 512\n";
	struct lx_conf today;
	lx_conf_parse("100.conf", today_text, strlen(today_text), &today);
	struct lx_rollback rb;
	struct lx_error err = {0};
	int_eq(lx_conf_rollback(&today, "b.tar.gz", old, strlen(old), wrote, strlen(wrote), &owned,
				false, &rb, &err),
	       0, "another device's lines between: rolls back");
	str_eq(rb.text, want, "each GPU line after the line it followed; the Coral lines untouched");
	int_eq(rb.removed, 2, "the two devN lines out");
	int_eq(rb.restored, 2, "the two NVIDIA lines back");
	lx_rollback_free(&rb);
	lx_conf_free(&today);
}

/* Backups: what rollback latest undoes, and the include file's entries. */
static char *backup(const char *dir, const char *action, const char *undoes, const char *inc_before,
		    const char *inc_written)
{
	struct lx_backup_meta m = {.ctid = "100", .config_path = "/x/100.conf", .time = "t",
				   .lxgpu_version = "v", .hostname = "h", .command = "c",
				   .written = "w\n", .written_len = 2, .action = (char *)action,
				   .undoes = (char *)undoes};
	if (inc_before || inc_written) {
		m.include_path = "/s/lxc/100.conf";
		m.include_before = (char *)inc_before;
		m.include_before_len = inc_before ? strlen(inc_before) : 0;
		m.include_written = (char *)inc_written;
		m.include_written_len = inc_written ? strlen(inc_written) : 0;
	}
	char *name = NULL;
	struct lx_error err = {0};
	if (lx_backup_write(dir, "old\n", 4, &m, &name, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		exit(1);
	}
	return name;
}

static void test_latest_apply(void)
{
	char tmpl[] = "/tmp/lxgpu-test-backups.XXXXXX";
	const char *dir = mkdtemp(tmpl);
	if (!dir) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	char *latest = NULL;
	struct lx_error err = {0};
	/* a backup of an lxgpu that did not record its action: apply's */
	char *b1 = backup(dir, NULL, NULL, NULL, "inc 1\n");
	char *b2 = backup(dir, "apply", NULL, "inc 1\n", "inc 2\n");
	int_eq(lx_backup_latest_apply(dir, "100", &latest, &err), 0, "latest: read");
	str_eq(latest, b2, "two applies: the second");
	free(latest);
	char *r1 = backup(dir, "rollback", b2, NULL, NULL);
	lx_backup_latest_apply(dir, "100", &latest, &err);
	str_eq(latest, b1, "after a rollback of the second: the first, not the rollback");
	free(latest);
	char *r2 = backup(dir, "rollback", b1, NULL, NULL);
	lx_backup_latest_apply(dir, "100", &latest, &err);
	ok(latest == NULL, "both applies rolled back: none left");
	free(latest);
	char *r3 = backup(dir, "rollback", r2, NULL, NULL);
	lx_backup_latest_apply(dir, "100", &latest, &err);
	str_eq(latest, b1, "the last rollback undone (by name): the first apply is in effect again");
	free(latest);

	/* The include file's texts come back as written; none before: NULL. */
	_cleanup_free_ char *p1 = lx_path_join(dir, b1), *p2 = lx_path_join(dir, b2);
	struct lx_backup_meta m;
	char *text = NULL;
	size_t len;
	int_eq(lx_backup_read(p2, &text, &len, &m, &err), 0, "read back");
	str_eq(m.action, "apply", "its action");
	str_eq(m.include_path, "/s/lxc/100.conf", "the include file's path");
	str_eq(m.include_before, "inc 1\n", "its text before");
	str_eq(m.include_written, "inc 2\n", "what was written");
	lx_backup_meta_free(&m);
	free(text);
	int_eq(lx_backup_read(p1, &text, &len, &m, &err), 0, "read back");
	ok(m.action == NULL && m.include_before == NULL, "no action recorded; no include file before");
	str_eq(m.include_written, "inc 1\n", "what was written");
	lx_backup_meta_free(&m);
	free(text);

	struct lx_strv names;
	lx_backup_list(dir, "100", &names, &err);
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *p = lx_path_join(dir, names.items[i]);
		unlink(p);
	}
	lx_strv_free(&names);
	rmdir(dir);
	free(b1);
	free(b2);
	free(r1);
	free(r2);
	free(r3);
}

int main(void)
{
	test_unchanged();
	test_other_edits_kept();
	test_gpu_lines_edited();
	test_not_recorded();
	test_privilege();
	test_other_device_between();
	test_latest_apply();
	return tap_done();
}
