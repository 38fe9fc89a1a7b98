/* report: documents, JSON and YAML text forms, the YAML reader. */
#include "lxgpu/report.h"
#include "tap.h"

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

int main(void)
{
	test_json();
	test_yaml_round_trip();
	test_yaml_errors();
	test_yaml_scalars();
	return tap_done();
}
