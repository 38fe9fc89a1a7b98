/* report: documents, JSON and YAML text forms, the YAML reader. */
#include "lxgpu/host.h"
#include "lxgpu/report.h"
#include "lxgpu/judge.h"
#include "lxgpu/predict.h"
#include "lxgpu/walk.h"
#include "tap.h"

#include <iconv.h>

static struct lx_doc *sample(void)
{
	struct lx_doc *m = lx_doc_new_map();
	lx_doc_map_set(m, "name", lx_doc_new_str("gpu \"zero\"\n\ttab"));
	lx_doc_map_set(m, "count", lx_doc_new_int(-3));
	lx_doc_map_set(m, "on", lx_doc_new_bool(true));
	lx_doc_map_set(m, "none", lx_doc_new_str(NULL));
	lx_doc_map_set(m, "version", lx_doc_new_str("590.48.01"));
	lx_doc_map_set(m, "yes_word", lx_doc_new_str("yes"));
	lx_doc_map_set(m, "hex", lx_doc_new_str("0x10de"));
	lx_doc_map_set(m, "empty", lx_doc_new_str(""));
	lx_doc_map_set(m, "list", lx_doc_new_list());
	struct lx_doc *l = lx_doc_new_list();
	lx_doc_list_push(l, lx_doc_new_int(1));
	lx_doc_list_push(l, lx_doc_new_map());
	lx_doc_map_set(m, "items", l);
	return m;
}

static void test_json(void)
{
	struct lx_doc *d = sample();
	char *json = lx_doc_to_json(d);
	str_eq(json,
	       "{\n  \"name\": \"gpu \\\"zero\\\"\\n\\ttab\",\n  \"count\": -3,\n  \"on\": true,\n"
	       "  \"none\": null,\n  \"version\": \"590.48.01\",\n  \"yes_word\": \"yes\",\n"
	       "  \"hex\": \"0x10de\",\n  \"empty\": \"\",\n  \"list\": [],\n  \"items\": [\n"
	       "    1,\n    {}\n  ]\n}\n",
	       "JSON rendering");
	free(json);
	lx_doc_free(d);
}

static void test_yaml_round_trip(void)
{
	struct lx_doc *d = sample();
	char *yaml = lx_doc_to_yaml(d);
	struct lx_doc *back = NULL;
	struct lx_error err = {0};
	ok(lx_doc_from_yaml("t.yaml", yaml, strlen(yaml), &back, &err) == 0, "own YAML parses");
	if (!back) {
		printf("# %s\n%s", err.message, yaml);
		return;
	}
	char *j1 = lx_doc_to_json(d), *j2 = lx_doc_to_json(back);
	str_eq(j2, j1, "YAML round trip keeps every type and value");
	int_eq(lx_doc_map_get(back, "version")->kind, LX_DOC_STR, "version stays a string");
	int_eq(lx_doc_map_get(back, "count")->kind, LX_DOC_INT, "integer");
	int_eq(lx_doc_map_get(back, "none")->kind, LX_DOC_NULL, "null");
	int_eq(lx_doc_map_get(back, "count")->line, 3, "line numbers are recorded");
	ok(strstr(yaml, "yes_word: \"yes\"") != NULL, "YAML 1.1 booleans are quoted");
	ok(strstr(yaml, "hex: \"0x10de\"") != NULL, "hex-looking strings are quoted");
	free(j1);
	free(j2);
	free(yaml);
	lx_doc_free(back);
	lx_doc_free(d);
}

static void expect_yaml_error(const char *text, const char *needle, const char *what)
{
	struct lx_doc *d = NULL;
	struct lx_error err = {0};
	int rc = lx_doc_from_yaml("bad.yaml", text, strlen(text), &d, &err);
	ok(rc < 0 && d == NULL, what);
	if (!ok(err.message && strstr(err.message, needle), "error message says where and what"))
		printf("#   message: %s\n#   wanted:  %s\n", err.message ? err.message : "(none)",
		       needle);
	lx_error_clear(&err);
	lx_doc_free(d);
}

static void test_yaml_errors(void)
{
	expect_yaml_error("", "empty file", "empty input");
	expect_yaml_error("a: 1\nb: [1, 2\n", "bad.yaml:", "unclosed flow list");
	expect_yaml_error("a: 1\na: 2\n", "bad.yaml:2: duplicate key 'a'", "duplicate key");
	expect_yaml_error("a: &x 1\nb: *x\n", "anchors", "anchors");
	expect_yaml_error("a: 1\n---\nb: 2\n", "more than one YAML document", "two documents");
	expect_yaml_error("? [1]\n: 2\n", "keys must be plain strings", "non-scalar key");
	expect_yaml_error("a: !!binary aGVsbG8=\n", "unsupported YAML tag", "unknown tag");
	expect_yaml_error("a: 99999999999999999999\n", "out of range", "huge integer");
	expect_yaml_error("a: \"\\0\"\n", "NUL byte", "NUL in a value");
	expect_yaml_error("a:\n  - b\n - c\n", "bad.yaml:3", "bad indentation");
}

static void test_yaml_scalars(void)
{
	const char *text = "a: 12\nb: -4\nc: '12'\nd: ~\ne: false\nf: !!str 7\ng: 1.5\nh:\n";
	struct lx_doc *d = NULL;
	struct lx_error err = {0};
	ok(lx_doc_from_yaml("s.yaml", text, strlen(text), &d, &err) == 0, "scalars parse");
	int_eq(lx_doc_map_get(d, "a")->integer, 12, "plain integer");
	int_eq(lx_doc_map_get(d, "b")->integer, -4, "negative integer");
	int_eq(lx_doc_map_get(d, "c")->kind, LX_DOC_STR, "quoted number is a string");
	int_eq(lx_doc_map_get(d, "d")->kind, LX_DOC_NULL, "~ is null");
	int_eq(lx_doc_map_get(d, "e")->kind, LX_DOC_BOOL, "false is a boolean");
	int_eq(lx_doc_map_get(d, "f")->kind, LX_DOC_STR, "!!str tag makes a string");
	int_eq(lx_doc_map_get(d, "g")->kind, LX_DOC_STR, "floats are not numbers here");
	int_eq(lx_doc_map_get(d, "h")->kind, LX_DOC_NULL, "empty value is null");
	lx_doc_free(d);
}


/* ---- untrusted bytes through every writer ---- */

/* Valid UTF-8 by glibc's decoder, not by the code under test. */
static bool iconv_utf8(const char *s)
{
	iconv_t cd = iconv_open("UTF-8", "UTF-8");
	if (cd == (iconv_t)-1)
		return false;
	size_t in_left = strlen(s), out_left = 4 * in_left + 4;
	char *out = malloc(out_left), *in = (char *)s, *o = out;
	size_t rc = iconv(cd, &in, &in_left, &o, &out_left);
	iconv_close(cd);
	free(out);
	return rc != (size_t)-1 && in_left == 0;
}

/* No byte below 0x20 but the newline, no DEL, no C1 (as UTF-8: c2 80..9f). */
static bool no_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0))
			return false;
	return true;
}

static void test_escape_rule(void)
{
	struct {
		const char *in, *utf8, *text;
	} cases[] = {
		/* Expected values written from the rule in util.h. */
		{"plain /dev/nvidia0", "plain /dev/nvidia0", "plain /dev/nvidia0"},
		{"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
		{"a\xff" "b\xfe", "a\\xffb\\xfe", "a\\xffb\\xfe"},
		{"latin1 \xe9t\xe9", "latin1 \\xe9t\\xe9", "latin1 \\xe9t\\xe9"},
		{"overlong \xc0\xaf", "overlong \\xc0\\xaf", "overlong \\xc0\\xaf"},
		{"surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80", "surrogate \\xed\\xa0\\x80"},
		{"past \xf4\x90\x80\x80", "past \\xf4\\x90\\x80\\x80", "past \\xf4\\x90\\x80\\x80"},
		{"cut \xe2\x82", "cut \\xe2\\x82", "cut \\xe2\\x82"},
		{"lone \x80 cont", "lone \\x80 cont", "lone \\x80 cont"},
		{"\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"},
		{"bell\x07 tab\t cr\r nl\n del\x7f", "bell\x07 tab\t cr\r nl\n del\x7f",
		 "bell\\x07 tab\t cr\\x0d nl\\x0a del\\x7f"},
		{"c1 \xc2\x9b" "2J nbsp\xc2\xa0", "c1 \xc2\x9b" "2J nbsp\xc2\xa0", "c1 \\xc2\\x9b" "2J nbsp\xc2\xa0"},
		{"back\\slash", "back\\slash", "back\\slash"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *u = lx_utf8_sanitize(cases[i].in), *t = lx_text_escape(cases[i].in);
		str_eq(u, cases[i].utf8, "invalid bytes become \\xNN, valid UTF-8 stays");
		str_eq(t, cases[i].text, "text: invalid bytes and control characters become \\xNN");
		ok(iconv_utf8(u) && iconv_utf8(t), "the results are valid UTF-8 (iconv)");
		free(u);
		free(t);
	}
	const char lines[] = "-a\x1b\r\n+b\rc\xff\n";
	char *l = lx_text_escape_lines(lines, sizeof(lines) - 1);
	str_eq(l, "-a\\x1b\r\n+b\\x0dc\\xff\n", "multi-line text keeps its line ends only");
	free(l);
	char *empty = lx_text_escape(NULL);
	str_eq(empty, "", "NULL escapes to nothing");
	free(empty);
}

/* Keys and values with bytes a config or snapshot may hold. */
static struct lx_doc *hostile(void)
{
	struct lx_doc *m = lx_doc_new_map();
	lx_doc_map_set(m, "hostname", lx_doc_new_str("bad\xff\xfename"));
	lx_doc_map_set(m, "esc", lx_doc_new_str("\x1b]0;pwn\x07"));
	lx_doc_map_set(m, "k\xe9y", lx_doc_new_str("c1 \xc2\x9b" "2J"));
	struct lx_doc *l = lx_doc_new_list();
	lx_doc_list_push(l, lx_doc_new_str("/dev/nvidia9\xe9"));
	lx_doc_list_push(l, lx_doc_new_str("yes\xff"));
	lx_doc_list_push(l, lx_doc_new_str("tab\tcr\rdel\x7f"));
	lx_doc_list_push(l, lx_doc_new_str("\xed\xa0\x80"));
	lx_doc_map_set(m, "lines", l);
	return m;
}

static void test_writers_hostile(void)
{
	struct lx_doc *d = hostile();
	char *json = lx_doc_to_json(d);
	str_eq(json,
	       "{\n  \"hostname\": \"bad\\\\xff\\\\xfename\",\n  \"esc\": \"\\u001b]0;pwn\\u0007\",\n"
	       "  \"k\\\\xe9y\": \"c1 \\u009b2J\",\n  \"lines\": [\n    \"/dev/nvidia9\\\\xe9\",\n"
	       "    \"yes\\\\xff\",\n    \"tab\\tcr\\rdel\\u007f\",\n    \"\\\\xed\\\\xa0\\\\x80\"\n"
	       "  ]\n}\n",
	       "JSON: invalid bytes as \\\\xNN, controls as \\u escapes");
	ok(iconv_utf8(json) && no_controls(json), "JSON is valid UTF-8 without raw controls");

	char *yaml = lx_doc_to_yaml(d);
	ok(yaml != NULL && iconv_utf8(yaml) && no_controls(yaml),
	   "YAML is valid UTF-8 without raw controls");
	struct lx_doc *back = NULL;
	struct lx_error err = {0};
	if (ok(lx_doc_from_yaml("hostile.yaml", yaml, strlen(yaml), &back, &err) == 0,
	       "the YAML parses (libyaml)")) {
		str_eq(lx_doc_map_get(back, "hostname")->str, "bad\\xff\\xfename", "YAML value");
		str_eq(lx_doc_map_get(back, "esc")->str, "\x1b]0;pwn\x07", "YAML keeps controls, escaped");
		str_eq(lx_doc_map_get(back, "k\\xe9y")->str, "c1 \xc2\x9b" "2J", "YAML key");
		const struct lx_doc *l = lx_doc_map_get(back, "lines");
		if (ok(l && l->n == 4, "YAML list")) {
			str_eq(l->items[0]->str, "/dev/nvidia9\\xe9", "YAML list value");
			str_eq(l->items[1]->str, "yes\\xff", "YAML list value");
			str_eq(l->items[2]->str, "tab\tcr\rdel\x7f", "YAML list value");
			str_eq(l->items[3]->str, "\\xed\\xa0\\x80", "YAML list value");
		}
	} else {
		printf("# %s\n", err.message);
		lx_error_clear(&err);
	}
	lx_doc_free(back);
	free(yaml);
	free(json);
	lx_doc_free(d);

	char *label = lx_prometheus_label("ct\xff\"1\"\n");
	str_eq(label, "ct\\\\xff\\\"1\\\"\\n", "Prometheus label: \\xNN, then its own escapes");
	free(label);
}

static void test_text_hostile(void)
{
	struct lx_findings f = {0};
	lx_findings_add(&f, LXG001_STALE_MAJOR, "101", "/etc/pve/lxc/101.conf", 7,
			"/dev/nvidia0\x1b]0;x\x07", lx_xstrdup("rule \xff\x1b[2J\r gone"),
			lx_xstrdup("remove \xc2\x9b" "line"));
	for (int color = 0; color <= 1; color++) {
		char *text = lx_report_findings_text(&f, color, 0);
		ok(strstr(text, ": rule \\xff\\x1b[2J\\x0d gone\n") != NULL, "findings text: message escaped");
		ok(strstr(text, "fix: remove \\xc2\\x9b" "line\n") != NULL, "findings text: fix escaped");
		ok(iconv_utf8(text), "findings text is valid UTF-8");
		if (!color)
			ok(no_controls(text), "findings text has no control characters");
		free(text);
	}
	lx_findings_free(&f);
	/* Nothing NVIDIA: the file names only its hostname and kernel. */
	struct lx_host h = {0};
	h.hostname = lx_xstrdup("pve\x1b]0;x\x07");
	h.kernel = lx_xstrdup("6.8\xff");
	struct lx_host_warnings w = {0};
	char *text = lx_host_text(&h, &w, false, 0);
	const char *want = "Host pve\\x1b]0;x\\x07, kernel 6.8\\xff, cgroup ";
	ok(strncmp(text, want, strlen(want)) == 0, "scan text: escaped");
	ok(iconv_utf8(text) && no_controls(text), "scan text is valid UTF-8 without controls");
	free(text);
	free(h.hostname);
	free(h.kernel);
}

/* A fix's commands (in backticks) print whole, each on a line of its own
 * at the command column, below the prose that explains them, whatever the
 * width; the prose wraps. Expected text written by hand. */
static void test_fix_text(void)
{
	const char *fix = "by hand: remove line 10 from /etc/pve/lxc/101.conf (apply keeps rules it "
			  "cannot tell are its own); then `lxgpu --pve-dir /srv/pve apply 101 --style devn` "
			  "(devN entries never hard-code a major), then `pct reboot 101`";
	struct lx_buf b = {0};
	lx_report_fix_text(&b, fix, 4, 40);
	str_eq(b.data,
	       "    fix: by hand: remove line 10 from\n"
	       "         /etc/pve/lxc/101.conf (apply\n"
	       "         keeps rules it cannot tell are\n"
	       "         its own); then\n"
	       "           lxgpu --pve-dir /srv/pve apply 101 --style devn\n"
	       "         (devN entries never hard-code a\n"
	       "         major), then\n"
	       "           pct reboot 101\n",
	       "fix text at 40 columns: prose wrapped, commands whole on their own lines");
	lx_buf_free(&b);
	lx_report_fix_text(&b, "`lxgpu apply 101`", 2, 0);
	str_eq(b.data, "  fix:\n         lxgpu apply 101\n", "a fix that is one command: under the label");
	lx_buf_free(&b);
	struct lx_strv c = {0};
	lx_fix_commands(fix, &c);
	ok(c.n == 2 && strcmp(c.items[0], "lxgpu --pve-dir /srv/pve apply 101 --style devn") == 0 &&
		   strcmp(c.items[1], "pct reboot 101") == 0,
	   "the commands of a fix, in order");
	lx_strv_free(&c);
	char *q = lx_fix_quote("lxc.hook.mount: `rm -rf /`");
	str_eq(q, "lxc.hook.mount: 'rm -rf /'", "config text quoted in a fix: its backticks are quotes");
	lx_fix_commands(q, &c);
	ok(c.n == 0, "... and no command");
	lx_strv_free(&c);
	free(q);
}

/* A table fitted to a terminal: the wrapping column gives up width down to
 * its longest word, its cell continues below; a number column stays
 * right-aligned. Expected text written by hand. */
static void test_table(void)
{
	static const char *const titles[] = {"ID", "NAME", "N"};
	static const char *const row[] = {"101", "a long name here", "7"};
	struct lx_table t;
	lx_table_init(&t, 3, titles);
	t.wrap = 1u << 1;
	t.right = 1u << 2;
	lx_table_add_row(&t, row);
	char *text = lx_table_text(&t, 20, 0);
	str_eq(text,
	       "ID   NAME          N\n"
	       "101  a long name   7\n"
	       "     here\n",
	       "table at 20 columns: NAME wraps in its cell");
	free(text);
	text = lx_table_text(&t, 0, 2);
	str_eq(text,
	       "  ID   NAME              N\n"
	       "  101  a long name here  7\n",
	       "not a terminal: each column as wide as its widest cell");
	free(text);
	text = lx_table_text(&t, 8, 0);
	ok(strstr(text, "\n101  a     7\n") != NULL, "narrower than the words: each word on a line");
	free(text);
	lx_table_free(&t);
}

static void test_yaml_nesting(void)
{
	/* 64 levels of block mappings parse; 65 are one too many, and the
	 * error names the line of the 65th (the mapping at depth d starts on
	 * line d). */
	struct lx_buf b = {0};
	for (int i = 0; i < 64; i++)
		lx_buf_printf(&b, "%*sk:\n", 2 * i, "");
	lx_buf_printf(&b, "%*s1\n", 2 * 64, "");
	struct lx_doc *d = NULL;
	struct lx_error err = {0};
	ok(lx_doc_from_yaml("deep.yaml", b.data, b.len, &d, &err) == 0, "64 levels parse");
	lx_doc_free(d);
	lx_error_clear(&err);
	lx_buf_free(&b);
	for (int i = 0; i < 65; i++)
		lx_buf_printf(&b, "%*sk:\n", 2 * i, "");
	lx_buf_printf(&b, "%*s1\n", 2 * 65, "");
	expect_yaml_error(b.data, "bad.yaml:65: nested deeper than 64 levels", "65 levels: an error");
	lx_buf_free(&b);
	/* 10000 flow lists on line 2: an error, not a crash. */
	lx_buf_puts(&b, "a: 1\nb: ");
	for (int i = 0; i < 10000; i++)
		lx_buf_puts(&b, "[");
	for (int i = 0; i < 10000; i++)
		lx_buf_puts(&b, "]");
	lx_buf_puts(&b, "\n");
	expect_yaml_error(b.data, "bad.yaml:2: nested deeper than 64 levels", "10000 levels: an error");
	lx_buf_free(&b);
}

int main(void)
{
	test_json();
	test_yaml_round_trip();
	test_yaml_errors();
	test_yaml_scalars();
	test_escape_rule();
	test_writers_hostile();
	test_text_hostile();
	test_yaml_nesting();
	test_fix_text();
	test_table();
	return tap_done();
}
