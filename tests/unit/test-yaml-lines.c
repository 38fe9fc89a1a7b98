/* report: the line reader of lxgpu's YAML subset against libyaml.
 *
 * The oracle is libyaml (through lxgpu's libyaml reader): wherever the line
 * reader takes a text, its tree must be the libyaml reader's, value for
 * value and line for line; what it leaves must be what it cannot be sure
 * of. Args: directories of YAML files (every *.yaml in them is compared),
 * the first of them lxgpu's own example hosts, which the line reader must
 * take. */
#include "lxgpu/host.h"
#include "src/report/doc-arena.h"
#include "tap.h"

#include <dirent.h>

/* Both readers on text. Returns what the line reader did (1 taken, 0 left);
 * a taken text must match libyaml's tree. */
static int compare(const char *what, const char *text, size_t len)
{
	struct lx_doc *fast = NULL, *slow = NULL;
	struct lx_error err = {0};
	int taken = lx_yaml_read_lines(text, len, &fast);
	int slow_rc = lx_yaml_read_libyaml(what, text, len, &slow, &err);
	if (taken == 1) {
		if (!ok(slow_rc == 0, what))
			printf("#   line reader took a text libyaml refuses: %s\n", err.message);
		else if (!ok(lx_doc_identical(fast, slow), what))
			printf("#   trees differ\n");
	}
	lx_error_clear(&err);
	lx_doc_free(fast);
	lx_doc_free(slow);
	return taken;
}

struct snippet {
	const char *text;
	int taken; /* 1: the line reader must take it; 0: it must leave it */
};

static const struct snippet snippets[] = {
	/* The shapes lxgpu writes. */
	{"---\na: 1\nb: x\n", 1},
	{"a:\n- 1\n- two\nb: []\nc: {}\n", 1},
	{"gpus:\n- index: 0\n  bars:\n  - index: 0\n    start: \"0x0\"\n  drm: []\n- index: 1\n", 1},
	{"- - a\n  - b\n- - c\n", 1},
	{"a:\n  b:\n    c: d\n  e: f\ng: h\n", 1},
	{"a:\nb: 2\n", 1},                      /* null value: on the key's line */
	{"a:\n\n# c\n  b: 1\n", 1},             /* blank and comment lines between */
	{"a: 1 # comment\nb: x#y\n", 1},
	{"a: \"q\\\"uo\\\\te\\n\\t\\x41\\u0042\"\n", 1},
	{"a: 'it''s'\n'k y': \"v: #\"\n", 1},
	{"key : v\n", 1},
	{"a: null\nb: ~\nc: true\nd: False\ne: -12\nf: +3\ng: 007\nh: 1.5\ni: yes\n", 1},
	{"a: \"12\"\nb: '~'\nc: \"\"\n", 1},
	{"url: http://x:80/y\n", 1},
	{"a: -x\nb: --\n", 1},
	{"  a: 1\n  b: 2\n", 1},                /* an indented root */
	{"a:\n    - 1\n    - 2\n", 1},
	{"a: 1", 1},                            /* no newline at the end */
	{"# lxgpu snapshot\n---\na: 1\n", 1},   /* a comment before the document */
	{"- a:\n  - b\n  c: d\n", 1},
	{"- a:\n    b: 1\n- c\n", 1},
	{"a: b:c\nd: 50%\ne: x'y\"z\nf: .5\n", 1},
	{"a:   # nothing\nb: \"\"\n\"\": ''\n", 1},
	{"a:\n  - 1\n  # c\n  - 2\nb: 3\n", 1},
	/* What it leaves to libyaml. */
	{"a: |\n  text\n", 0},
	{"a: >\n  text\n", 0},
	{"a: &x 1\nb: *x\n", 0},
	{"a: !!str 1\n", 0},
	{"a: [1, 2]\n", 0},
	{"a: {b: 1}\n", 0},
	{"a: b\n  c\n", 0},                     /* a plain scalar over two lines */
	{"a: \"b\n  c\"\n", 0},
	{"? a\n: b\n", 0},
	{"a: 1\na: 2\n", 0},                    /* duplicate key: libyaml's reader says so */
	{"a: 99999999999999999999\n", 0},       /* out of range: likewise */
	{"a:\tb\n", 0},
	{"a: 1\r\n", 0},
	{"a: \"\\xe9\"\n", 0},
	{"a: caf\xc3\xa9\n", 0},
	{"--- x\n", 0},
	{"a: 1\n---\nb: 2\n", 0},
	{"a: 1\n...\n", 0},
	{"a: 1\n--- \nb: 2\n", 0},
	{"  ---\na: 1\n", 0},
	{"... i\":\n", 0},                     /* found by fuzz-yaml-lines */
	{"...\na: 1\n", 0},
	{"---x: 1\n", 0},
	{"%YAML 1.1\n---\na: 1\n", 0},
	{"-\n  a: 1\n", 0},
	{"a:\n    b: 1\n  c: 2\n", 0},
	{"a: 1\n- b\n", 0},
	{"a: b: c\n", 0},
	{"a: b:\n", 0},
	{"a: \"x\" y\n", 0},
	{"just a scalar\n", 0},
	{"", 0},
	{"# only a comment\n", 0},
	{"a: \"\\0\"\n", 0},
	/* Flow indicators inside a block plain scalar are characters to libyaml
	 * too (a model name "UHD Graphics [770]"); at its start they are tokens. */
	{"a: x, y\n", 1},
	{"model: Alder Lake-S GT1 [UHD Graphics 770]\n", 1},
	{"a: x]\n", 1},
	{"a: x}{, [\n", 1},
	{"- a [b] c\n", 1},
	{"k[0]: v\n", 1},
	{"a: [x] y\n", 0},
	{"a: ]x\n", 0},
	{"a: ,x\n", 0},
	{"- {x} y\n", 0},
	{"a: @x\n", 0},
};

static void test_snippets(void)
{
	for (size_t i = 0; i < sizeof(snippets) / sizeof(snippets[0]); i++) {
		const struct snippet *s = &snippets[i];
		char what[160];
		int n = snprintf(what, sizeof(what), "snippet %zu: ", i);
		for (const char *p = s->text; *p && n < 120; p++)
			n += snprintf(what + n, sizeof(what) - (size_t)n, *p == '\n' ? "\\n" : "%c", *p);
		int taken = compare(what, s->text, strlen(s->text));
		if (!ok(taken == s->taken, what))
			printf("#   line reader %s it\n", taken ? "took" : "left");
	}
}

/* libyaml takes a key only up to 1024 characters ("could not find
 * expected ':'" past that); long values are fine. */
static void test_long(void)
{
	for (size_t n = 1000; n <= 1100; n += 50) {
		struct lx_buf b = {0};
		for (size_t i = 0; i < n; i++)
			lx_buf_append(&b, "k", 1);
		lx_buf_puts(&b, ": 1\nv: ");
		for (size_t i = 0; i < n; i++)
			lx_buf_append(&b, "v", 1);
		lx_buf_puts(&b, "\n");
		char what[64];
		snprintf(what, sizeof(what), "a key of %zu characters", n);
		compare(what, b.data, b.len);
		lx_buf_free(&b);
	}
}

/* Strings that need quoting, as lxgpu's writer writes them. */
static void test_written(void)
{
	static const char *const strings[] = {
		"plain", "", "yes", "null", "0x10de", "12", "-3", "a: b", "a #b", "#x", "- x", "[x]",
		"{x}", "x, y", "'q'", "\"dq\"", "back\\slash", "tab\there", "new\nline", "  lead",
		"trail  ", "&anchor", "*alias", "!tag", "%dir", "@at", "`tick", "|", ">", "?", ":",
		"-", "--", "---", "...", "a:b", "http://x", "ctl\x01", "caf\xc3\xa9", "bad\xff",
	};
	struct lx_doc *m = lx_doc_new_map();
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		lx_doc_map_set(m, strings[i], lx_doc_new_str(strings[i]));
		lx_doc_list_push(list, lx_doc_new_str(strings[i]));
	}
	lx_doc_map_set(m, "all", list);
	char *text = lx_doc_to_yaml(m);
	compare("lxgpu's writer, hard strings", text, strlen(text));
	free(text);
	lx_doc_free(m);

	/* Each one alone, so one the line reader leaves does not hide others. */
	size_t taken = 0, total = 0;
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		struct lx_doc *one = lx_doc_new_map();
		lx_doc_map_set(one, strings[i], lx_doc_new_str(strings[i]));
		char *t = lx_doc_to_yaml(one);
		char what[80];
		snprintf(what, sizeof(what), "written string %zu", i);
		taken += (size_t)compare(what, t, strlen(t));
		total++;
		free(t);
		lx_doc_free(one);
	}
	printf("# the line reader took %zu of %zu written strings\n", taken, total);
	ok(taken * 2 > total, "the line reader takes most strings lxgpu writes");
}

static bool is_yaml(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

static void test_dir(const char *dir, bool must_take)
{
	DIR *d = opendir(dir);
	if (!ok(d != NULL, dir))
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (!is_yaml(e->d_name))
			continue;
		_cleanup_free_ char *path = lx_path_join(dir, e->d_name);
		_cleanup_free_ char *text = NULL;
		size_t len;
		struct lx_error err = {0};
		if (!ok(lx_read_file(path, 1u << 24, &text, &len, &err) == 0, path)) {
			lx_error_clear(&err);
			continue;
		}
		int taken = compare(path, text, len);
		if (must_take)
			ok(taken == 1, path);

		/* The host model as lxgpu saves it must be taken too. */
		struct lx_host host;
		if (lx_snapshot_parse(path, text, len, &host, &err) == 0) {
			char *saved = lx_snapshot_to_yaml(&host);
			ok(compare(path, saved, strlen(saved)) == 1, "saved snapshot taken");
			free(saved);
			lx_host_free(&host);
		}
		lx_error_clear(&err);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	test_snippets();
	test_long();
	test_written();
	for (int i = 1; i < argc; i++)
		test_dir(argv[i], i == 1);
	return tap_done();
}
