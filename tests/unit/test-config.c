/* Config parsing, ownership and rewriting over the corpus in tests/pve/. */
#include "lxgpu/access.h"
#include "lxgpu/config.h"
#include "tap.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static struct lx_gpu_owned owned_8gpu(void)
{
	/* The 8-GPU example host: nvidia 195, caps-imex 508, caps 509, uvm 511. */
	struct lx_gpu_owned o = {0};
	static const unsigned majors[] = {195, 508, 509, 511};
	o.majors = lx_xcalloc(4, sizeof(unsigned));
	memcpy(o.majors, majors, sizeof(majors));
	o.n_majors = 4;
	o.drm_major = 226;
	return o;
}

static char *read_all(const char *path, size_t *len)
{
	char *data = NULL;
	struct lx_error err = {0};
	if (lx_read_file(path, 1 << 24, &data, len, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		exit(1);
	}
	return data;
}

/* The lines that are not GPU lines of the live section, joined. */
/* Whether a line obviously has nothing to do with a GPU, by a rule written
 * for this test alone (not lxgpu's ownership code, which is under test):
 * no "nvidia", no "/dev/dri", and no device rule for the GPU, DRM or a
 * dynamic-range major. Such lines must survive every rewrite. */
static bool plainly_not_gpu(const char *text)
{
	if (strstr(text, "nvidia") || strstr(text, "/dev/dri"))
		return false;
	const char *rule = strstr(text, "devices.allow");
	if (!rule)
		return true;
	const char *c = strstr(rule, "c ");
	long major = c ? strtol(c + 2, NULL, 10) : -1;
	return !(major == 195 || major == 226 || (major >= 234 && major <= 254) ||
		 (major >= 384 && major <= 511));
}

/* The lines of a text (in order) that plainly are not GPU lines. */
static char *kept_lines(const struct lx_conf *conf, const struct lx_gpu_owned *o)
{
	(void)o;
	struct lx_buf b = {0};
	for (size_t i = 0; i < conf->n; i++)
		if (plainly_not_gpu(conf->lines[i].text)) {
			lx_buf_append(&b, conf->lines[i].text, conf->lines[i].len);
			lx_buf_puts(&b, "\n");
		}
	return lx_buf_steal(&b);
}

/* Everything from the first section header on. */
static const char *sections_part(const char *text)
{
	const char *p = text;
	while (p && *p) {
		if (*p == '[')
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return "";
}

static void test_corpus_file(const char *path)
{
	size_t len;
	char *text = read_all(path, &len);
	struct lx_conf conf;
	lx_conf_parse(path, text, len, &conf);
	size_t out_len;
	char *out = lx_conf_serialize(&conf, &out_len);
	ok(out_len == len && memcmp(out, text, len) == 0, path);
	free(out);

	struct lx_gpu_owned o = owned_8gpu();
	struct lx_strv lines = {0};
	lx_strv_push(&lines, "dev0: /dev/nvidia0,mode=0666");
	lx_strv_push(&lines, "dev1: /dev/nvidiactl,mode=0666");
	struct lx_conf_rewrite rw = {.gpu_lines = &lines, .unprivileged = -1};
	size_t removed;
	char *new_text = lx_conf_rewrite(&conf, &o, &rw, &out_len, &removed);
	struct lx_conf after;
	lx_conf_parse(path, new_text, out_len, &after);
	ok(lx_conf_first_invalid(&after) == lx_conf_first_invalid(&conf) ||
		   lx_conf_first_invalid(&conf) != NULL,
	   "the rewrite parses");
	char *kept_before = kept_lines(&conf, &o), *kept_after = kept_lines(&after, &o);
	str_eq(kept_after, kept_before, "every other line kept, in order");
	str_eq(sections_part(new_text), sections_part(text), "snapshots and pending untouched");
	ok(strcmp(lx_conf_eol(&after), lx_conf_eol(&conf)) == 0 || conf.n == 0, "line ends kept");
	bool no_newline_before = len > 0 && text[len - 1] != '\n';
	bool no_newline_after = out_len > 0 && new_text[out_len - 1] != '\n';
	ok(no_newline_before == no_newline_after, "a missing final newline stays missing");

	/* Rewriting again with the same lines changes nothing. */
	size_t again_len, removed2;
	char *again = lx_conf_rewrite(&after, &o, &rw, &again_len, &removed2);
	ok(again_len == out_len && memcmp(again, new_text, out_len) == 0 && removed2 == 2,
	   "rewriting twice is idempotent");
	free(again);
	free(kept_before);
	free(kept_after);
	lx_conf_free(&after);
	free(new_text);
	lx_strv_free(&lines);
	lx_gpu_owned_free(&o);
	lx_conf_free(&conf);
	free(text);
}

static void test_corpus(const char *dir, size_t at_least)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct lx_strv files = {0};
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			lx_strv_push_owned(&files, lx_path_join(dir, de->d_name));
	if (d)
		closedir(d);
	lx_strv_sort(&files);
	ok(files.n >= at_least, "the corpus is all there");
	for (size_t i = 0; i < files.n; i++)
		test_corpus_file(files.items[i]);
	lx_strv_free(&files);
}

static void test_classification(void)
{
	const char *text = "#desc\n"
			   "arch: amd64\n"
			   "  indented: 1\n"
			   "dev0: /dev/nvidia0\n"
			   "dev1: path=/dev/ttyUSB0,mode=0660\n"
			   "lxc.cgroup2.devices.allow: c 195:* rwm\n"
			   "lxc.cgroup2.devices.allow = c 10:200 rwm\n"
			   "lxc.cgroup2.devices.allow: c 235:* rwm\n"
			   "lxc.cgroup2.devices.allow: c 226:128 rwm\n"
			   "lxc.cgroup2.devices.allow: a\n"
			   "lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind\n"
			   "lxc.mount.entry: /dev/dri dev/dri none bind,create=dir\n"
			   "memory:\n"
			   "[snap1]\n"
			   "dev0: /dev/nvidia0\n"
			   "[pve:pending]\n"
			   "[bad name]\n";
	struct lx_conf c;
	lx_conf_parse("t.conf", text, strlen(text), &c);
	int_eq((long long)c.n, 17, "17 lines");
	int_eq(c.lines[0].kind, LX_CONF_COMMENT, "comment");
	int_eq(c.lines[1].kind, LX_CONF_PVE_KEY, "pve key");
	int_eq(c.lines[2].kind, LX_CONF_INVALID, "indented key: PVE rejects it");
	int_eq(c.lines[6].kind, LX_CONF_LXC_KEY, "lxc key with =");
	str_eq(c.lines[6].value, "c 10:200 rwm", "its value");
	int_eq(c.lines[12].kind, LX_CONF_INVALID, "a PVE key needs a value");
	int_eq(c.lines[13].kind, LX_CONF_SECTION, "snapshot section");
	int_eq(c.lines[14].section, 13, "lines after it belong to it");
	int_eq(c.lines[15].kind, LX_CONF_SECTION, "pending section");
	int_eq(c.lines[16].kind, LX_CONF_INVALID, "a bad section name");
	ok(lx_conf_first_invalid(&c) == &c.lines[2], "first invalid line of the live section");
	str_eq(lx_conf_get(&c, "arch"), "amd64", "get");

	struct lx_gpu_owned o = owned_8gpu();
	/* c 235:* is a dynamic major that is not NVIDIA's on this host: another
	 * device's (or an earlier boot's), not lxgpu's, GPU lines beside it or not. */
	bool want[] = {false, false, false, true, false, true, false, false, false, false, true, false,
		       false, false, false, false, false};
	for (size_t i = 0; i < c.n; i++)
		if (!ok(lx_gpu_owned_line(&o, &c.lines[i]) == want[i], "ownership"))
			printf("#   line %zu: %s\n", i + 1, c.lines[i].text);
	lx_conf_free(&c);

	/* Without other GPU lines, a dynamic-range rule stays the user's. */
	const char *lone = "lxc.cgroup2.devices.allow: c 235:* rwm\n";
	lx_conf_parse("lone.conf", lone, strlen(lone), &c);
	ok(!lx_gpu_owned_line(&o, &c.lines[0]), "a lone dynamic-major rule is not owned");
	lx_conf_free(&c);
	lx_gpu_owned_free(&o);
}

static void test_devn_helpers(void)
{
	char *p = lx_conf_devn_path("path=/dev/nvidia0,mode=0666");
	str_eq(p, "/dev/nvidia0", "path= form");
	free(p);
	p = lx_conf_devn_path("/dev/ttyUSB0");
	str_eq(p, "/dev/ttyUSB0", "bare path");
	free(p);
	/* A property string: keys in any order, the default key anywhere. */
	p = lx_conf_devn_path("mode=0666,path=/dev/x");
	str_eq(p, "/dev/x", "path= after mode=");
	free(p);
	p = lx_conf_devn_path("gid=44,/dev/dri/renderD128");
	str_eq(p, "/dev/dri/renderD128", "the default key after another key");
	free(p);
	ok(lx_conf_devn_path("mode=0666") == NULL, "no path: not a devN PVE accepts");
	ok(lx_conf_devn_path("/dev/x,/dev/y") == NULL, "two paths");
	ok(lx_conf_devn_path("/dev/x,color=red") == NULL, "an unknown key");
	ok(lx_conf_devn_path("/tmp/x") == NULL, "a path outside /dev/");
	int_eq(lx_conf_devn_index("dev12"), 12, "dev12");
	int_eq(lx_conf_devn_index("dev256"), -1, "dev256 is out of range");
	int_eq(lx_conf_devn_index("dev01"), -1, "no leading zeros");
	int_eq(lx_conf_devn_index("devices"), -1, "not devN");
}

/* What Proxmox's own parser said about these (tests/pve/oracle/, from
 * corpus files 41, 44, 49, 51, 54, 55, 56); run-oracle.sh checks them all. */
static void test_pve_verdicts(void)
{
	const char *text = "tags: \n"
			   "hostname: x snapstate: delete\n"
			   "delete: swap\n"
			   "description: a\n"
			   "unprivileged: maybe\n"
			   "[pve:pending]\n"
			   "delete: swap\n"
			   "[s]\n";
	struct lx_conf c;
	lx_conf_parse("v.conf", text, strlen(text), &c);
	str_eq(c.lines[0].value, " ", "\"tags: \": PVE keeps one blank");
	str_eq(c.lines[1].key, "snapstate", "snapstate: is matched anywhere in a line");
	int_eq(c.lines[2].kind, LX_CONF_INVALID, "delete: outside [pve:pending] is dropped");
	int_eq(c.lines[6].kind, LX_CONF_PVE_KEY, "delete: in [pve:pending]");
	int_eq(c.lines[7].kind, LX_CONF_INVALID, "a one-letter section name");
	ok(lx_conf_unprivileged(&c, true), "unprivileged: maybe is Perl-true");
	lx_conf_free(&c);

	const char *crlf = "tags:\r\ncores:\r\n";
	lx_conf_parse("crlf.conf", crlf, strlen(crlf), &c);
	ok(c.lines[0].kind == LX_CONF_PVE_KEY && strcmp(c.lines[0].value, "\r") == 0,
	   "PVE splits on \\n: tags:\\r is a key whose value is a CR");
	lx_conf_free(&c);

	static const char *const bad[] = {"/dev/x,mode=666", "/dev/x,mode=01777", "/dev/../etc/x",
					  "/dev/x/.", "/dev/x,mode=0666,mode=0660", "/dev/x,uid=-1",
					  "/dev/x,uid= 5", "/dev", "/dev/x,deny-write=2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lx_devn d;
		struct lx_error err = {0};
		if (!ok(lx_conf_devn_parse(bad[i], &d, &err) < 0, "PVE rejects this devN"))
			printf("#   %s\n", bad[i]);
		lx_error_clear(&err);
	}
	static const char *const good[] = {"path=/dev/", "/dev/x,uid=+5", "/dev/x,uid=-0",
					   "path=0,/dev/x", "/dev/..x", "/dev/x,,mode=0777,"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct lx_devn d;
		struct lx_error err = {0};
		if (!ok(lx_conf_devn_parse(good[i], &d, &err) == 0, "PVE accepts this devN"))
			printf("#   %s: %s\n", good[i], err.message);
		else
			lx_devn_free(&d);
		lx_error_clear(&err);
	}
}

static void test_diff(void)
{
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
	const char *b = "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\n11\n12\n13";
	char *d = lx_diff_unified("a", a, strlen(a), "b", b, strlen(b));
	str_eq(d,
	       "--- a\n+++ b\n@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+four\n 5\n 6\n 7\n"
	       "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n\\ No newline at end of file\n",
	       "two hunks, context, missing newline");
	free(d);
	d = lx_diff_unified("a", a, strlen(a), "b", a, strlen(a));
	str_eq(d, "", "no difference, no output");
	free(d);
}

/* New Proxmox keys go where pve-container's write_pct_config puts them:
 * keys sorted by name (Perl's string sort: dev10 before dev2), then the
 * lxc.environment.runtime lines, then the other lxc lines; the expected
 * text is what pve-parse --write (tests/pve/oracle/README.md) wrote for it. */
static void test_pve_key_order(void)
{
	const char *text = "arch: amd64\ncores: 2\nentrypoint: /bin/ollama serve\nhostname: ai\n"
			   "ostype: unmanaged\nlxc.environment.runtime: OLLAMA_HOST=0.0.0.0\n"
			   "lxc.init.cmd: /bin/ollama serve\n";
	struct lx_conf c;
	lx_conf_parse("120.conf", text, strlen(text), &c);
	bool drop[16] = {false};
	struct lx_strv lines = {0};
	for (int i = 0; i < 12; i++)
		lx_strv_push_owned(&lines, lx_xasprintf("dev%d: /dev/nvidia%d", i, i));
	lx_strv_push(&lines, "lxc.cgroup2.devices.allow: c 195:* rwm");
	size_t len, removed;
	char *out = lx_conf_edit(&c, drop, NULL, -1, &lines, 1, &len, &removed);
	str_eq(out,
	       "arch: amd64\ncores: 2\ndev0: /dev/nvidia0\ndev1: /dev/nvidia1\ndev10: /dev/nvidia10\n"
	       "dev11: /dev/nvidia11\ndev2: /dev/nvidia2\ndev3: /dev/nvidia3\ndev4: /dev/nvidia4\n"
	       "dev5: /dev/nvidia5\ndev6: /dev/nvidia6\ndev7: /dev/nvidia7\ndev8: /dev/nvidia8\n"
	       "dev9: /dev/nvidia9\nentrypoint: /bin/ollama serve\nhostname: ai\nostype: unmanaged\n"
	       "unprivileged: 1\nlxc.environment.runtime: OLLAMA_HOST=0.0.0.0\n"
	       "lxc.init.cmd: /bin/ollama serve\nlxc.cgroup2.devices.allow: c 195:* rwm\n",
	       "devN and unprivileged keys sorted among the keys, lxc lines after the env lines");
	free(out);
	lx_strv_free(&lines);
	lx_conf_free(&c);
}

static char *rewrite_text(const char *text, size_t *len)
{
	struct lx_conf c;
	lx_conf_parse("edge.conf", text, strlen(text), &c);
	struct lx_gpu_owned o = owned_8gpu();
	struct lx_strv lines = {0};
	lx_strv_push(&lines, "dev0: /dev/nvidia0,mode=0666");
	struct lx_conf_rewrite rw = {.gpu_lines = &lines, .unprivileged = -1};
	size_t removed;
	char *out = lx_conf_rewrite(&c, &o, &rw, len, &removed);
	lx_strv_free(&lines);
	lx_gpu_owned_free(&o);
	lx_conf_free(&c);
	return out;
}

static void test_edge_rewrites(void)
{
	size_t len;
	char *out = rewrite_text("arch: amd64\nlxc.cgroup2.devices.allow: c 235:* rwm\n", &len);
	str_eq(out, "arch: amd64\ndev0: /dev/nvidia0,mode=0666\nlxc.cgroup2.devices.allow: c 235:* rwm\n",
	       "a rule for a dynamic major that is not NVIDIA's stays when GPU lines come (the devN "
	       "key among the keys, where Proxmox's writer puts it)");
	free(out);
	out = rewrite_text("lxc.arch: amd64\n\nlxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind", &len);
	str_eq(out, "lxc.arch: amd64\n\ndev0: /dev/nvidia0,mode=0666",
	       "the blank line stays; still no final newline");
	free(out);
	out = rewrite_text("arch: amd64\n\n", &len);
	str_eq(out, "arch: amd64\ndev0: /dev/nvidia0,mode=0666\n\n",
	       "new lines follow the live section's last line, before trailing blank lines");
	free(out);
	out = rewrite_text("#d\r\narch: amd64\r\n[snap]\r\nlxc.mount.entry: /dev/nvidia0 a b c\r\n", &len);
	str_eq(out, "#d\r\narch: amd64\r\ndev0: /dev/nvidia0,mode=0666\r\n[snap]\r\n"
		    "lxc.mount.entry: /dev/nvidia0 a b c\r\n",
	       "CRLF file: CRLF lines; the snapshot's GPU line is not touched");
	free(out);
	out = rewrite_text("arch: amd64\r\ncores: 1\r\nlxc.mount.entry: /dev/nvidia0 a\n"
			   "lxc.mount.entry: /dev/nvidia1 a\nlxc.mount.entry: /dev/nvidia2 a\n",
			   &len);
	str_eq(out, "arch: amd64\r\ncores: 1\r\ndev0: /dev/nvidia0,mode=0666\r\n",
	       "the replaced lines' ends do not vote on the new lines' end");
	free(out);
	out = rewrite_text("arch: amd64\r", &len);
	/* PVE splits on \n: it reads "arch: amd64\r" before and after (a \r\n
	 * added would make it "arch: amd64\r\r") */
	str_eq(out, "arch: amd64\r\ndev0: /dev/nvidia0,mode=0666",
	       "an unterminated last line ending in CR gets just a \\n: a CRLF line, as the new lines");
	free(out);
	out = rewrite_text("lxc.mount.entry: /dev/nvidia0 x\r\ne: 1\r\nf: 2\r\ng: 3\nh: 4\n"
			   "lxc.mount.entry: /dev/nvidiactl y",
			   &len);
	str_eq(out, "dev0: /dev/nvidia0,mode=0666\r\ne: 1\r\nf: 2\r\ng: 3\nh: 4",
	       "the line end is voted on the result (d loses its newline, CRLF wins)");
	char *twice = rewrite_text(out, &len);
	str_eq(twice, out, "and a second rewrite agrees");
	free(twice);
	free(out);
	struct lx_conf c;
	const char *flip = "arch: amd64\nunprivileged: 0\n";
	lx_conf_parse("flip.conf", flip, strlen(flip), &c);
	struct lx_gpu_owned o = owned_8gpu();
	struct lx_conf_rewrite rw = {.gpu_lines = NULL, .unprivileged = 1};
	size_t removed;
	out = lx_conf_rewrite(&c, &o, &rw, &len, &removed);
	str_eq(out, "arch: amd64\nunprivileged: 1\n", "unprivileged: 0 becomes 1 in place");
	free(out);
	rw.unprivileged = 0;
	out = lx_conf_rewrite(&c, &o, &rw, &len, &removed);
	str_eq(out, "arch: amd64\n", "unprivileged removed");
	free(out);
	lx_gpu_owned_free(&o);
	lx_conf_free(&c);
}

static void test_change_detection(void)
{
	char dir[] = "/tmp/lxgpu-txn-XXXXXX";
	ok(mkdtemp(dir) != NULL, "temp pve dir");
	char *lxc = lx_path_join(dir, "lxc");
	mkdir(lxc, 0755);
	char *path = lx_path_join(lxc, "100.conf");
	struct lx_error err = {0};
	lx_write_file_atomic(path, "arch: amd64\n", 12, 0640, &err);
	struct lx_conf_txn_options opts = {.pve_dir = dir, .lxc_path = dir, .lock_dir = dir,
					   .lock_timeout_s = 1};
	struct lx_conf_txn txn;
	ok(lx_conf_txn_begin(&opts, "100", &txn, &err) == 0, "begin");
	/* Someone else writes the file meanwhile (not taking PVE's lock). */
	lx_write_file_atomic(path, "arch: arm64\n", 12, 0640, &err);
	ok(lx_conf_txn_commit(&txn, "ours\n", 5, NULL, NULL, &err) < 0 &&
		   strstr(err.message, "changed while lxgpu was working"),
	   "a file changed since it was read is not replaced");
	lx_error_clear(&err);
	char *now = NULL;
	lx_read_file(path, 100, &now, NULL, &err);
	str_eq(now, "arch: arm64\n", "the other writer's version stays");
	free(now);
	struct lx_conf_txn second;
	ok(lx_conf_txn_begin(&opts, "100", &second, &err) < 0 && strstr(err.message, "held by another"),
	   "the lock is held while the first transaction lives");
	lx_error_clear(&err);
	lx_conf_txn_end(&txn);
	ok(lx_conf_txn_begin(&opts, "100", &second, &err) == 0, "and free after it ends");
	struct stat st;
	ok(lx_conf_txn_commit(&second, "arch: amd64\n", 12, NULL, NULL, &err) == 0 &&
		   stat(path, &st) == 0 && (st.st_mode & 0777) == 0640,
	   "commit keeps the mode");
	lx_conf_txn_end(&second);
	char *lock = lx_path_join(dir, "pve-config-100.lock");
	unlink(lock);
	unlink(path);
	rmdir(lxc);
	rmdir(dir);
	free(lock);
	free(path);
	free(lxc);
}

/* A line in a message: its bytes visible (hand-written from the bytes). */
static void test_line_shown(void)
{
	static const char text[] = "junk\0line\n"
				   "x\x01\xff\xc3\xa9\n"
				   "lxc.mount.entry /dev/nvidia0 dev/nvidia0 none bind,optional,create=file "
				   "### \xc3\xa9\xc3\xa9\n";
	struct lx_conf c;
	lx_conf_parse("t.conf", text, sizeof(text) - 1, &c);
	int_eq((long long)c.n, 3, "3 lines");
	char *s = lx_conf_line_shown(&c.lines[0]);
	str_eq(s, "junk\\x00line", "a NUL byte as \\x00, and the bytes after it");
	free(s);
	s = lx_conf_line_shown(&c.lines[1]);
	str_eq(s, "x\\x01\\xff\xc3\xa9", "a control and an invalid byte escaped, UTF-8 kept");
	free(s);
	/* 76 ASCII bytes and two 2-byte characters: 80 bytes, shown whole; with
	 * 77, the second character would end past 80. */
	s = lx_conf_line_shown(&c.lines[2]);
	str_eq(s,
	       "lxc.mount.entry /dev/nvidia0 dev/nvidia0 none bind,optional,create=file ### "
	       "\xc3\xa9\xc3\xa9",
	       "80 bytes: whole");
	free(s);
	lx_conf_free(&c);
	static const char longer[] = "lxc.mount.entry /dev/nvidia0 dev/nvidia0 none "
				     "bind,optional,create=file #### \xc3\xa9\xc3\xa9";
	lx_conf_parse("t.conf", longer, sizeof(longer) - 1, &c);
	s = lx_conf_line_shown(&c.lines[0]);
	str_eq(s,
	       "lxc.mount.entry /dev/nvidia0 dev/nvidia0 none bind,optional,create=file #### "
	       "\xc3\xa9...",
	       "cut at a character boundary within 80 bytes, marked");
	free(s);
	lx_conf_free(&c);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	test_classification();
	test_devn_helpers();
	test_pve_verdicts();
	test_diff();
	test_edge_rewrites();
	test_pve_key_order();
	test_change_detection();
	test_line_shown();
	test_corpus(argv[1], 30);
	char *lxc_dir = lx_xasprintf("%s/../lxc-configs", argv[1]);
	test_corpus(lxc_dir, 4);
	free(lxc_dir);
	return tap_done();
}
