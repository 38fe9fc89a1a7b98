/* config/record.c: the GPU records of containers. Expected values are the
 * record's documented fields (include/lxgpu/record.h, docs/guard.md) and
 * the files a hand-made state directory holds. */
#include "lxgpu/record.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_dir(void)
{
	char *dir = lx_xstrdup("/tmp/lxgpu-test-record-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	return dir;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static void test_round_trip(const char *state)
{
	struct lx_record_gpu gpus[] = {
		{.pci = "0000:01:00.0", .uuid = "GPU-11111111-2222-3333-4444-555555555555", .minor = 1},
		{.pci = "0000:41:00.0", .uuid = NULL, .minor = LX_UNKNOWN},
	};
	struct lx_record rec = {.id = "101", .config_path = "/etc/pve/lxc/101.conf", .style = "devn",
				.unprivileged = true, .exclusive = true, .gpus = gpus, .n_gpus = 2,
				.recorded_at = "2026-12-01T10:00:00Z"};
	struct lx_error err = {0};
	int_eq(lx_record_store(state, &rec, &err), 0, "store makes the state dir and writes");
	_cleanup_free_ char *path = lx_record_path(state, "101");
	struct stat st;
	ok(stat(path, &st) == 0 && S_ISREG(st.st_mode), "the record is <state>/containers/101.yaml");

	struct lx_record back;
	bool found = false;
	int_eq(lx_record_load(state, "101", &back, &found, &err), 0, "load");
	ok(found, "found");
	str_eq(back.id, "101", "id (a number-like string stays a string)");
	str_eq(back.config_path, "/etc/pve/lxc/101.conf", "config_path");
	str_eq(back.style, "devn", "style");
	ok(back.unprivileged && back.exclusive && !back.dri && !back.caps, "flags");
	int_eq((long long)back.n_gpus, 2, "two GPUs");
	str_eq(back.gpus[0].pci, "0000:01:00.0", "GPU 0 pci");
	str_eq(back.gpus[0].uuid, "GPU-11111111-2222-3333-4444-555555555555", "GPU 0 uuid");
	int_eq(back.gpus[0].minor, 1, "GPU 0 minor");
	ok(back.gpus[1].uuid == NULL, "GPU 1 has no uuid");
	int_eq(back.gpus[1].minor, LX_UNKNOWN, "GPU 1 minor unknown");
	str_eq(back.recorded_at, "2026-12-01T10:00:00Z", "recorded_at");
	lx_record_free(&back);

	int_eq(lx_record_load(state, "102", &back, &found, &err), 0, "no record: not an error");
	ok(!found, "no record: not found");
}

static void test_list_remove(const char *state)
{
	struct lx_record rec = {.id = "my-ct.1", .style = "lxc", .gpus = NULL, .n_gpus = 0};
	struct lx_error err = {0};
	int_eq(lx_record_store(state, &rec, &err), 0, "store an LXC name");
	/* an interrupted store leaves a temp file: not a record */
	_cleanup_free_ char *tmp = lx_xasprintf("%s/containers/9.yaml.lxgpu-tmp-AbCdEf", state);
	write_text(tmp, "x");
	struct lx_strv ids;
	int_eq(lx_record_list(state, &ids, &err), 0, "list");
	int_eq((long long)ids.n, 2, "two records");
	if (ids.n == 2) {
		str_eq(ids.items[0], "101", "sorted: 101");
		str_eq(ids.items[1], "my-ct.1", "sorted: my-ct.1");
	}
	lx_strv_free(&ids);
	int_eq(lx_record_remove(state, "my-ct.1", &err), 0, "remove");
	int_eq(lx_record_remove(state, "my-ct.1", &err), 0, "remove again: no record is fine");
	int_eq(lx_record_list(state, &ids, &err), 0, "list again");
	int_eq((long long)ids.n, 1, "one record left");
	lx_strv_free(&ids);
	int_eq(lx_record_list("/nonexistent/lxgpu-state", &ids, &err), 0,
	       "no state dir: an empty list");
	int_eq((long long)ids.n, 0, "none");
	unlink(tmp);
}

static void test_bad_ids(const char *state)
{
	struct lx_error err = {0};
	struct lx_record rec;
	bool found;
	const char *bad[] = {"", "../101", "a/b", ".hidden", "-x", "1 0"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(!lx_record_id_is_valid(bad[i]), "not an id");
		ok(lx_record_load(state, bad[i], &rec, &found, &err) < 0 && err.message,
		   "load refuses a bad id");
		lx_error_clear(&err);
	}
	ok(lx_record_id_is_valid("100") && lx_record_id_is_valid("gpu_ct-2.test"), "ids");
}

/* A corrupt record: an error naming the file and the line, never "none". */
static void expect_corrupt(const char *state, const char *text, const char *want, const char *what)
{
	_cleanup_free_ char *path = lx_record_path(state, "200");
	write_text(path, text);
	struct lx_record rec;
	bool found = true;
	struct lx_error err = {0};
	int rc = lx_record_load(state, "200", &rec, &found, &err);
	ok(rc < 0 && !found, what);
	_cleanup_free_ char *full = lx_xasprintf("%s%s", path, want);
	if (!ok(err.message && strstr(err.message, full), "error names file:line and the field"))
		printf("#   got: %s\n#   want inside: %s\n", err.message ? err.message : "(null)", full);
	lx_error_clear(&err);
	unlink(path);
}

static void test_corrupt(const char *state)
{
	expect_corrupt(state, "schema: 1\nid: \"200\"\ngpus:\n- pci: 0000:01:00.0\n  minor: 300\n",
		       ":5: field 'gpus[0].minor'", "minor out of range");
	expect_corrupt(state, "schema: 1\nid: \"200\"\ngpus:\n- pci: nope\n",
		       ":4: field 'gpus[0].pci'", "bad PCI address");
	expect_corrupt(state, "schema: 1\nid: \"200\"\ncolour: red\ngpus: []\n",
		       ":3: field 'colour': unknown field", "unknown field");
	expect_corrupt(state, "schema: 1\nid: \"200\"\n", ":1: field 'gpus': missing",
		       "gpus missing");
	expect_corrupt(state, "schema: 1\nid: \"200\"\ngpus: [\n", ":", "cut short: YAML error");
	expect_corrupt(state, "schema: 2\nid: \"200\"\ngpus: []\n", ":1: field 'schema'",
		       "newer schema");
	expect_corrupt(state, "schema: 1\nid: \"200\"\nexclusive: 1\ngpus: []\n",
		       ":3: field 'exclusive': must be a boolean", "exclusive not a bool");
	expect_corrupt(state,
		       "schema: 1\nid: \"200\"\ngpus:\n- pci: 0000:01:00.0\n- pci: 0000:01:00.0\n",
		       ":5: field 'gpus[1].pci': this GPU is listed twice", "GPU twice");
	expect_corrupt(state, "schema: 1\nid: \"201\"\ngpus: []\n", ": the record is of container '201'",
		       "record of another container");
}

static void test_time(void)
{
	_cleanup_free_ char *t = lx_record_time_now();
	ok(t && strlen(t) == 20 && t[19] == 'Z', "ISO time in UTC");
}

int main(void)
{
	char *dir = tmp_dir();
	/* the state dir itself does not exist yet: store makes it */
	char *state = lx_path_join(dir, "state");
	test_round_trip(state);
	test_list_remove(state);
	test_bad_ids(state);
	test_corrupt(state);
	test_time();
	_cleanup_free_ char *cmd = lx_xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not clean %s\n", dir);
	free(state);
	free(dir);
	return tap_done();
}
