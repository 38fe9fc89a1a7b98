/* The template engine: every construct and every error. */
#include "lxgpu/template.h"
#include "tap.h"

static struct lx_doc *context(void)
{
	struct lx_doc *c = lx_doc_new_map();
	lx_doc_map_set(c, "name", lx_doc_new_str("pve1"));
	lx_doc_map_set(c, "count", lx_doc_new_int(2));
	lx_doc_map_set(c, "zero", lx_doc_new_int(0));
	lx_doc_map_set(c, "yes", lx_doc_new_bool(true));
	lx_doc_map_set(c, "no", lx_doc_new_bool(false));
	lx_doc_map_set(c, "nothing", lx_doc_new_null());
	lx_doc_map_set(c, "empty", lx_doc_new_list());
	struct lx_doc *items = lx_doc_new_list();
	for (int i = 0; i < 3; i++) {
		struct lx_doc *m = lx_doc_new_map();
		char path[32];
		snprintf(path, sizeof(path), "/dev/nvidia%d", i);
		lx_doc_map_set(m, "path", lx_doc_new_str(path));
		lx_doc_map_set(m, "minor", lx_doc_new_int(i));
		struct lx_doc *tags = lx_doc_new_list();
		lx_doc_list_push(tags, lx_doc_new_str("a"));
		lx_doc_list_push(tags, lx_doc_new_str("b"));
		lx_doc_map_set(m, "tags", tags);
		lx_doc_list_push(items, m);
	}
	lx_doc_map_set(c, "items", items);
	struct lx_doc *host = lx_doc_new_map();
	lx_doc_map_set(host, "kernel", lx_doc_new_str("6.8"));
	lx_doc_map_set(c, "host", host);
	return c;
}

static void expect_render(const char *tmpl, const char *want, const char *what)
{
	struct lx_template *t = NULL;
	struct lx_error err = {0};
	char *out = NULL;
	struct lx_doc *ctx = context();
	if (lx_template_parse("t.tmpl", tmpl, &t, &err) < 0 ||
	    lx_template_render(t, ctx, &out, &err) < 0) {
		ok(false, what);
		printf("#   error: %s\n", err.message);
	} else {
		str_eq(out, want, what);
	}
	free(out);
	lx_error_clear(&err);
	lx_template_free(t);
	lx_doc_free(ctx);
}

static void expect_error(const char *tmpl, const char *needle, const char *what)
{
	struct lx_template *t = NULL;
	struct lx_error err = {0};
	char *out = NULL;
	struct lx_doc *ctx = context();
	int rc = lx_template_parse("bad.tmpl", tmpl, &t, &err);
	if (rc == 0)
		rc = lx_template_render(t, ctx, &out, &err);
	ok(rc < 0 && out == NULL, what);
	if (!ok(err.message && strstr(err.message, needle), "error names the template, line, cause"))
		printf("#   message: %s\n#   wanted:  %s\n", err.message ? err.message : "(none)",
		       needle);
	lx_error_clear(&err);
	lx_template_free(t);
	lx_doc_free(ctx);
}

static void test_constructs(void)
{
	expect_render("plain text\n", "plain text\n", "text passes through");
	expect_render("", "", "empty template");
	expect_render("host {{ name }} has {{count}} GPUs\n", "host pve1 has 2 GPUs\n", "variables");
	expect_render("{{ host.kernel }}", "6.8", "dotted path");
	expect_render("[{{ yes }}|{{ no }}|{{ nothing }}]", "[true|false|]", "bool and null");
	expect_render("a { b } {c} }}\n", "a { b } {c} }}\n", "lone braces are text");
	expect_render("{# a comment #}x{# another\nspanning lines #}y", "xy", "comments");
	expect_render("{% for i in items %}{{ i.path }} {% endfor %}",
		      "/dev/nvidia0 /dev/nvidia1 /dev/nvidia2 ", "for loop");
	expect_render("{% for i in items %}\n{{ loop.index }}/{{ loop.index0 }}:{{ i.minor }}\n{% endfor %}\n",
		      "1/0:0\n2/1:1\n3/2:2\n", "loop variables; tag lines vanish");
	expect_render("{% for i in items %}{% if loop.first %}[{% endif %}{{ i.minor }}"
		      "{% if not loop.last %},{% endif %}{% if loop.last %}]{% endif %}{% endfor %}",
		      "[0,1,2]", "first/last");
	expect_render("{% for i in items %}{% for t in i.tags %}{{ i.minor }}{{ t }}{{ loop.index }} "
		      "{% endfor %}{% endfor %}",
		      "0a1 0b2 1a1 1b2 2a1 2b2 ", "nested loops, inner loop variable wins");
	expect_render("{% for i in empty %}x{% endfor %}done", "done", "empty list");
	expect_render("{% if yes %}Y{% endif %}{% if no %}N{% endif %}", "Y", "if");
	expect_render("{% if no %}1{% elif zero %}2{% elif count == 2 %}3{% else %}4{% endif %}",
		      "3", "elif chain");
	expect_render("{% if no %}1{% else %}2{% endif %}", "2", "else");
	expect_render("{% if name == \"pve1\" and not no %}ok{% endif %}", "ok", "and, not, string ==");
	expect_render("{% if name != \"pve1\" or count == 2 %}ok{% endif %}", "ok", "or, !=");
	expect_render("{% if not (yes and no) %}ok{% endif %}", "ok", "parentheses");
	expect_render("{% if nothing or empty or zero or \"\" %}bad{% else %}falsy{% endif %}",
		      "falsy", "falsy values");
	expect_render("{% if items and host %}truthy{% endif %}", "truthy", "non-empty list and map");
	expect_render("{% if count == \"2\" %}bad{% else %}typed{% endif %}", "typed",
		      "int and string are not equal");
	expect_render("{% if -1 == -1 and true and not false %}ok{% endif %}", "ok", "literals");
	expect_render("{% if yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes and yes and yes and yes and "
		      "yes and yes and yes and yes and yes and yes and yes %}long{% endif %}",
		      "long", "a long chain is not deep nesting");
	expect_render("a\n  {% if yes %}\nb\n  {% endif %}\nc\n", "a\nb\nc\n",
		      "indented block tags vanish with their line");
	expect_render("x {% if yes %}y{% endif %} z\n", "x y z\n", "inline tags keep the text");
	expect_render("{% if yes %}\nlast line without newline{% endif %}",
		      "last line without newline", "no trailing newline");
}

static void test_errors(void)
{
	expect_error("{{ missing }}", "bad.tmpl:1: unknown variable 'missing'", "unknown variable");
	expect_error("a\nb\n{{ host.nope }}", "bad.tmpl:3: unknown variable 'host.nope'",
		     "unknown field");
	expect_error("{{ name.x }}", "cannot take 'x' of a string", "field of a string");
	expect_error("{{ items }}", "cannot print 'items'", "printing a list");
	expect_error("{% for x in name %}{% endfor %}", "not a list", "for over a string");
	expect_error("\n{% if yes %}\nno end\n", "bad.tmpl:2: '{% if %}' is never closed (missing 'endif')",
		     "unclosed if");
	expect_error("{% for i in items %}", "'{% for %}' is never closed (missing 'endfor')",
		     "unclosed for");
	expect_error("x {{ name", "bad.tmpl:1: '{{' is never closed with '}}'", "unclosed variable");
	expect_error("\n\n{# comment", "bad.tmpl:3: '{#' is never closed", "unclosed comment");
	expect_error("{% frobnicate %}", "bad.tmpl:1: unknown tag 'frobnicate'", "unknown tag");
	expect_error("{% endif %}", "'endif' without a matching opening tag", "stray endif");
	expect_error("{% if yes %}{% endfor %}", "'endfor' without a matching opening tag",
		     "mismatched end");
	expect_error("{% if yes %}{% else %}{% elif no %}{% endif %}", "'elif' after 'else'",
		     "elif after else");
	expect_error("{% if %}{% endif %}", "missing value", "if without condition");
	expect_error("{% if yes no %}{% endif %}", "unexpected 'no' after the expression",
		     "trailing words");
	expect_error("{% if name == \"x %}{% endif %}", "unterminated string", "open string");
	expect_error("{% for in items %}{% endfor %}", "expected 'for NAME in LIST'", "bad for");
	expect_error("{{ \"literal\" }}", "must name a variable", "printing a literal");
	expect_error("{% %}", "empty tag", "empty tag");
	expect_error("{{ a..b }}", "bad variable name", "bad path");
	expect_error("{% if (yes %}{% endif %}", "missing ')'", "unbalanced parenthesis");
	struct lx_buf deep = {0};
	for (int i = 0; i < 100; i++)
		lx_buf_puts(&deep, "{% if yes %}");
	expect_error(deep.data, "nested more than 64 deep", "deep nesting");
	lx_buf_free(&deep);
	for (int i = 0; i < 100; i++)
		lx_buf_puts(&deep, "not ");
	char *expr = lx_xasprintf("{%% if %syes %%}{%% endif %%}", deep.data);
	expect_error(expr, "nested too deeply", "deep expression");
	free(expr);
	lx_buf_free(&deep);
}

int main(void)
{
	test_constructs();
	test_errors();
	return tap_done();
}
