/* The template engine: parse once into a tree, render against a document. */
#include "lxgpu/template.h"

#include <ctype.h>
#include <string.h>

/* ---- expressions ---- */

enum expr_kind { EX_PATH, EX_STR, EX_INT, EX_BOOL, EX_NOT, EX_AND, EX_OR, EX_EQ, EX_NE };

struct expr {
	enum expr_kind kind;
	char *text; /* EX_PATH, EX_STR */
	long long integer;
	bool boolean;
	struct expr *left, *right; /* EX_NOT uses left */
};

static void expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->left);
	expr_free(e->right);
	free(e->text);
	free(e);
}

static struct expr *expr_new(enum expr_kind kind)
{
	struct expr *e = lx_xcalloc(1, sizeof(*e));
	e->kind = kind;
	return e;
}

/* ---- template tree ---- */

enum node_kind { NODE_TEXT, NODE_VAR, NODE_IF, NODE_FOR };

struct node;
struct node_list {
	struct node **items;
	size_t n;
};

struct if_branch {
	struct expr *cond; /* NULL for else */
	struct node_list body;
};

struct node {
	enum node_kind kind;
	int line;
	char *text;        /* NODE_TEXT */
	struct expr *expr; /* NODE_VAR: the path; NODE_FOR: the list */
	char *loop_var;    /* NODE_FOR */
	struct node_list body;
	struct if_branch *branches; /* NODE_IF */
	size_t n_branches;
};

struct lx_template {
	char *name;
	struct node_list body;
};

static void node_list_free(struct node_list *l);

static void node_free(struct node *n)
{
	free(n->text);
	expr_free(n->expr);
	free(n->loop_var);
	node_list_free(&n->body);
	for (size_t i = 0; i < n->n_branches; i++) {
		expr_free(n->branches[i].cond);
		node_list_free(&n->branches[i].body);
	}
	free(n->branches);
	free(n);
}

static void node_list_free(struct node_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		node_free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

static void node_list_push(struct node_list *l, struct node *n)
{
	l->items = lx_xrealloc(l->items, (l->n + 1) * sizeof(*l->items));
	l->items[l->n++] = n;
}

void lx_template_free(struct lx_template *t)
{
	if (!t)
		return;
	node_list_free(&t->body);
	free(t->name);
	free(t);
}

/* ---- what a template reads ---- */

static bool expr_uses(const struct expr *e, const char *name)
{
	if (!e)
		return false;
	if (e->kind == EX_PATH) {
		size_t len = strcspn(e->text, ".");
		if (strlen(name) == len && strncmp(e->text, name, len) == 0)
			return true;
	}
	return expr_uses(e->left, name) || expr_uses(e->right, name);
}

static bool list_uses(const struct node_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct node *n = l->items[i];
		if (expr_uses(n->expr, name) || list_uses(&n->body, name))
			return true;
		for (size_t b = 0; b < n->n_branches; b++)
			if (expr_uses(n->branches[b].cond, name) ||
			    list_uses(&n->branches[b].body, name))
				return true;
	}
	return false;
}

bool lx_template_uses(const struct lx_template *tmpl, const char *name)
{
	return list_uses(&tmpl->body, name);
}

/* ---- parsing ---- */

/* Blocks and parentheses nest at most this deep: templates are small, and
 * the parser recurses. */
#define MAX_NESTING 64

struct parser {
	const char *name;
	const char *src;
	size_t pos;
	int line; /* line of src[pos] */
	int depth;
	struct lx_error *err;
};

/* A tag's words, for the block parser. */
struct tag {
	int line;
	char *keyword; /* if, elif, else, endif, for, endfor */
	char *rest;    /* after the keyword, stripped */
};

static void tag_clear(struct tag *t)
{
	free(t->keyword);
	free(t->rest);
	memset(t, 0, sizeof(*t));
}

/* Every template error names the template and the line. */
__attribute__((format(printf, 4, 0))) static int template_error(struct lx_error *err,
								const char *name, int line,
								const char *fmt, va_list ap)
{
	_cleanup_free_ char *msg = lx_xvasprintf(fmt, ap);
	return lx_error_set(err, "template %s:%d: %s", name, line, msg);
}

__attribute__((format(printf, 3, 4))) static int parse_error(struct parser *p, int line,
							     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	template_error(p->err, p->name, line, fmt, ap);
	va_end(ap);
	return -1;
}

static void advance(struct parser *p, size_t to)
{
	for (size_t i = p->pos; i < to; i++)
		if (p->src[i] == '\n')
			p->line++;
	p->pos = to;
}

/* Expression tokens over one tag's text. */
struct expr_lexer {
	struct parser *p;
	int line;
	const char *s;
	size_t pos;
	int depth;
};

static void skip_space(struct expr_lexer *x)
{
	while (isspace((unsigned char)x->s[x->pos]))
		x->pos++;
}

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Accept a keyword or operator at the cursor. */
static bool accept(struct expr_lexer *x, const char *word)
{
	skip_space(x);
	size_t n = strlen(word);
	if (strncmp(x->s + x->pos, word, n) != 0)
		return false;
	if (isalpha((unsigned char)word[0]) && is_word_char(x->s[x->pos + n]))
		return false;
	x->pos += n;
	return true;
}

static struct expr *parse_or(struct expr_lexer *x);

/* left KIND right; NULL (and left freed) when right failed to parse. */
static struct expr *expr_join(enum expr_kind kind, struct expr *left, struct expr *right)
{
	if (!right) {
		expr_free(left);
		return NULL;
	}
	struct expr *e = expr_new(kind);
	e->left = left;
	e->right = right;
	return e;
}

static struct expr *parse_primary(struct expr_lexer *x)
{
	skip_space(x);
	const char *s = x->s + x->pos;
	if (*s == '(') {
		x->pos++;
		struct expr *e = parse_or(x);
		if (e && !accept(x, ")")) {
			expr_free(e);
			parse_error(x->p, x->line, "missing ')' in '%s'", x->s);
			return NULL;
		}
		return e;
	}
	if (*s == '"') {
		struct lx_buf b = {0};
		size_t i = 1;
		while (s[i] && s[i] != '"') {
			if (s[i] == '\\' && s[i + 1])
				i++;
			lx_buf_append(&b, s + i, 1);
			i++;
		}
		if (s[i] != '"') {
			lx_buf_free(&b);
			parse_error(x->p, x->line, "unterminated string in '%s'", x->s);
			return NULL;
		}
		x->pos += i + 1;
		struct expr *e = expr_new(EX_STR);
		e->text = lx_buf_steal(&b);
		return e;
	}
	if (isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))) {
		size_t n = 1;
		while (isdigit((unsigned char)s[n]))
			n++;
		_cleanup_free_ char *digits = lx_xstrndup(s, n);
		struct expr *e = expr_new(EX_INT);
		if (!lx_parse_int(digits, -1000000000000LL, 1000000000000LL, &e->integer)) {
			expr_free(e);
			parse_error(x->p, x->line, "bad number '%s'", digits);
			return NULL;
		}
		x->pos += n;
		return e;
	}
	bool is_true = accept(x, "true");
	if (is_true || accept(x, "false")) {
		struct expr *e = expr_new(EX_BOOL);
		e->boolean = is_true;
		return e;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		size_t n = 0;
		while (is_word_char(s[n]))
			n++;
		struct expr *e = expr_new(EX_PATH);
		e->text = lx_xstrndup(s, n);
		if (e->text[n - 1] == '.' || strstr(e->text, "..")) {
			parse_error(x->p, x->line, "bad variable name '%s'", e->text);
			expr_free(e);
			return NULL;
		}
		x->pos += n;
		return e;
	}
	parse_error(x->p, x->line, *s ? "unexpected '%s' in an expression" : "missing value%s", s);
	return NULL;
}

static struct expr *parse_not_inner(struct expr_lexer *x);

static struct expr *parse_not(struct expr_lexer *x)
{
	if (x->depth >= MAX_NESTING) {
		parse_error(x->p, x->line, "expression nested too deeply");
		return NULL;
	}
	x->depth++;
	struct expr *e = parse_not_inner(x);
	x->depth--;
	return e;
}

static struct expr *parse_not_inner(struct expr_lexer *x)
{
	if (accept(x, "not")) {
		struct expr *inner = parse_not(x);
		if (!inner)
			return NULL;
		struct expr *e = expr_new(EX_NOT);
		e->left = inner;
		return e;
	}
	struct expr *left = parse_primary(x);
	if (!left)
		return NULL;
	enum expr_kind kind;
	if (accept(x, "=="))
		kind = EX_EQ;
	else if (accept(x, "!="))
		kind = EX_NE;
	else
		return left;
	return expr_join(kind, left, parse_primary(x));
}

static struct expr *parse_binary(struct expr_lexer *x, const char *op, enum expr_kind kind,
				 struct expr *(*operand)(struct expr_lexer *))
{
	struct expr *left = operand(x);
	while (left && accept(x, op))
		left = expr_join(kind, left, operand(x));
	return left;
}

static struct expr *parse_and(struct expr_lexer *x)
{
	return parse_binary(x, "and", EX_AND, parse_not);
}

static struct expr *parse_or(struct expr_lexer *x)
{
	return parse_binary(x, "or", EX_OR, parse_and);
}

/* A whole expression: nothing may follow it. */
static struct expr *parse_expression(struct parser *p, int line, const char *text)
{
	struct expr_lexer x = {.p = p, .line = line, .s = text};
	struct expr *e = parse_or(&x);
	skip_space(&x);
	if (e && x.s[x.pos]) {
		parse_error(p, line, "unexpected '%s' after the expression", x.s + x.pos);
		expr_free(e);
		return NULL;
	}
	return e;
}

static bool only_blanks(const char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/* Read the next piece: text up to a tag (returned as a text node), a
 * {{ }} (a var node), or a {% %} tag (in *tag). Comments are skipped.
 * Returns 1 for a node or tag, 0 at the end, -1 on error. */
static int next_piece(struct parser *p, struct node **out, struct tag *tag)
{
	*out = NULL;
	for (;;) {
		const char *s = p->src;
		if (!s[p->pos])
			return 0;
		const char *open = strchr(s + p->pos, '{');
		while (open && open[1] != '{' && open[1] != '%' && open[1] != '#')
			open = strchr(open + 1, '{');
		size_t start = open ? (size_t)(open - s) : strlen(s);
		char kind = open ? open[1] : 0;
		const char *close_mark = kind == '{' ? "}}" : kind == '%' ? "%}" : "#}";
		const char *close = open ? strstr(open + 2, close_mark) : NULL;
		if (open && !close) {
			int line = p->line;
			for (size_t i = p->pos; i < start; i++)
				line += s[i] == '\n';
			return parse_error(p, line, "'%.2s' is never closed with '%s'", open, close_mark);
		}
		size_t end = close ? (size_t)(close - s) + 2 : start;
		/* A block tag or comment alone on its line takes the line with it. */
		size_t line_start = start;
		while (line_start > 0 && s[line_start - 1] != '\n')
			line_start--;
		size_t line_end = end;
		while (s[line_end] && s[line_end] != '\n')
			line_end++;
		bool alone = kind && kind != '{' && line_start >= p->pos &&
			     only_blanks(s, line_start, start) && only_blanks(s, end, line_end);
		size_t text_end = alone ? line_start : start;
		if (text_end > p->pos) {
			struct node *n = lx_xcalloc(1, sizeof(*n));
			n->kind = NODE_TEXT;
			n->line = p->line;
			n->text = lx_xstrndup(s + p->pos, text_end - p->pos);
			advance(p, text_end);
			*out = n;
			return 1;
		}
		if (!kind) {
			advance(p, start);
			return 0;
		}
		int line = p->line;
		for (size_t i = p->pos; i < start; i++)
			line += s[i] == '\n';
		_cleanup_free_ char *inner = lx_xstrndup(s + start + 2, end - start - 4);
		lx_str_strip(inner);
		advance(p, alone ? (s[line_end] ? line_end + 1 : line_end) : end);
		if (kind == '#')
			continue;
		if (kind == '{') {
			struct node *n = lx_xcalloc(1, sizeof(*n));
			n->kind = NODE_VAR;
			n->line = line;
			n->expr = parse_expression(p, line, inner);
			if (!n->expr) {
				node_free(n);
				return -1;
			}
			if (n->expr->kind != EX_PATH) {
				node_free(n);
				return parse_error(p, line, "'{{ %s }}' must name a variable", inner);
			}
			*out = n;
			return 1;
		}
		size_t kw = strcspn(inner, " \t");
		tag->line = line;
		tag->keyword = lx_xstrndup(inner, kw);
		tag->rest = lx_str_strip(lx_xstrdup(inner + kw));
		if (!*tag->keyword) {
			tag_clear(tag);
			return parse_error(p, line, "empty tag '{%% %%}'");
		}
		return 1;
	}
}

static int parse_block(struct parser *p, struct node_list *body, const char *const *ends,
		       struct tag *end_tag, const char *opener, int opener_line);
static int parse_block_body(struct parser *p, struct node_list *body, const char *const *ends,
			    struct tag *end_tag, const char *opener, int opener_line);

static bool tag_is(const struct tag *t, const char *keyword)
{
	return t->keyword && strcmp(t->keyword, keyword) == 0;
}

static int parse_if(struct parser *p, struct tag *open, struct node **out)
{
	static const char *const ends[] = {"elif", "else", "endif", NULL};
	struct node *n = lx_xcalloc(1, sizeof(*n));
	n->kind = NODE_IF;
	n->line = open->line;
	struct expr *cond = parse_expression(p, open->line, open->rest);
	if (!cond) {
		node_free(n);
		return -1;
	}
	bool seen_else = false;
	for (;;) {
		n->branches = lx_xrealloc(n->branches, (n->n_branches + 1) * sizeof(*n->branches));
		struct if_branch *br = &n->branches[n->n_branches++];
		memset(br, 0, sizeof(*br));
		br->cond = cond;
		struct tag end = {0};
		if (parse_block(p, &br->body, ends, &end, "if", n->line) < 0) {
			node_free(n);
			return -1;
		}
		if (tag_is(&end, "endif")) {
			int bad = *end.rest ? parse_error(p, end.line, "'endif' takes nothing after it") : 0;
			tag_clear(&end);
			if (bad) {
				node_free(n);
				return -1;
			}
			break;
		}
		if (seen_else) {
			parse_error(p, end.line, "'%s' after 'else'", end.keyword);
			tag_clear(&end);
			node_free(n);
			return -1;
		}
		if (tag_is(&end, "else")) {
			seen_else = true;
			cond = NULL;
			if (*end.rest) {
				parse_error(p, end.line, "'else' takes no condition (use elif)");
				tag_clear(&end);
				node_free(n);
				return -1;
			}
		} else {
			cond = parse_expression(p, end.line, end.rest);
			if (!cond) {
				tag_clear(&end);
				node_free(n);
				return -1;
			}
		}
		tag_clear(&end);
	}
	*out = n;
	return 0;
}

static int parse_for(struct parser *p, struct tag *open, struct node **out)
{
	static const char *const ends[] = {"endfor", NULL};
	/* "name in path" */
	const char *r = open->rest;
	size_t n1 = strcspn(r, " \t");
	_cleanup_free_ char *var = lx_xstrndup(r, n1);
	const char *in = r + n1;
	while (*in == ' ' || *in == '\t')
		in++;
	if (!*var || !lx_str_starts_with(in, "in ") || strchr(var, '.'))
		return parse_error(p, open->line, "expected 'for NAME in LIST', got 'for %s'", r);
	for (const char *c = var; *c; c++)
		if (!is_word_char(*c))
			return parse_error(p, open->line, "bad loop variable '%s'", var);
	struct node *n = lx_xcalloc(1, sizeof(*n));
	n->kind = NODE_FOR;
	n->line = open->line;
	n->loop_var = lx_xstrdup(var);
	n->expr = parse_expression(p, open->line, in + 3);
	if (!n->expr || n->expr->kind != EX_PATH) {
		if (n->expr)
			parse_error(p, open->line, "'for' needs a list variable after 'in'");
		node_free(n);
		return -1;
	}
	struct tag end = {0};
	if (parse_block(p, &n->body, ends, &end, "for", n->line) < 0) {
		node_free(n);
		return -1;
	}
	tag_clear(&end);
	*out = n;
	return 0;
}

/* Parse nodes until one of `ends` (NULL-terminated; none at the top level). */
static int parse_block(struct parser *p, struct node_list *body, const char *const *ends,
		       struct tag *end_tag, const char *opener, int opener_line)
{
	if (opener && ++p->depth > MAX_NESTING)
		return parse_error(p, opener_line, "blocks nested more than %d deep", MAX_NESTING);
	int rc = parse_block_body(p, body, ends, end_tag, opener, opener_line);
	if (opener)
		p->depth--;
	return rc;
}

static int parse_block_body(struct parser *p, struct node_list *body, const char *const *ends,
			    struct tag *end_tag, const char *opener, int opener_line)
{
	for (;;) {
		struct node *n = NULL;
		struct tag tag = {0};
		int r = next_piece(p, &n, &tag);
		if (r < 0)
			return -1;
		if (r == 0) {
			if (opener)
				return parse_error(p, opener_line, "'{%% %s %%}' is never closed (missing '%s')",
						   opener, ends[strcmp(opener, "if") == 0 ? 2 : 0]);
			return 0;
		}
		if (n) {
			node_list_push(body, n);
			continue;
		}
		for (size_t i = 0; ends && ends[i]; i++)
			if (tag_is(&tag, ends[i])) {
				*end_tag = tag;
				return 0;
			}
		int rc;
		if (tag_is(&tag, "if"))
			rc = parse_if(p, &tag, &n);
		else if (tag_is(&tag, "for"))
			rc = parse_for(p, &tag, &n);
		else if (tag_is(&tag, "elif") || tag_is(&tag, "else") || tag_is(&tag, "endif") ||
			 tag_is(&tag, "endfor"))
			rc = parse_error(p, tag.line, "'%s' without a matching opening tag", tag.keyword);
		else
			rc = parse_error(p, tag.line, "unknown tag '%s'", tag.keyword);
		tag_clear(&tag);
		if (rc < 0)
			return -1;
		node_list_push(body, n);
	}
}

int lx_template_parse(const char *name, const char *text, struct lx_template **out,
		      struct lx_error *err)
{
	struct parser p = {.name = name, .src = text, .line = 1, .err = err};
	struct lx_template *t = lx_xcalloc(1, sizeof(*t));
	t->name = lx_xstrdup(name);
	*out = NULL;
	if (parse_block(&p, &t->body, NULL, NULL, NULL, 0) < 0) {
		lx_template_free(t);
		return -1;
	}
	*out = t;
	return 0;
}

/* ---- rendering ---- */

struct scope_entry {
	const char *name;
	const struct lx_doc *value;
};

struct renderer {
	const struct lx_template *tmpl;
	const struct lx_doc *context;
	struct scope_entry *scopes;
	size_t n_scopes;
	struct lx_buf out;
	struct lx_error *err;
};

__attribute__((format(printf, 3, 4))) static int render_error(struct renderer *r, int line,
							      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	template_error(r->err, r->tmpl->name, line, fmt, ap);
	va_end(ap);
	return -1;
}

static int lookup(struct renderer *r, int line, const char *path, const struct lx_doc **out)
{
	_cleanup_free_ char *copy = lx_xstrdup(path);
	char *save = NULL;
	char *first = strtok_r(copy, ".", &save);
	const struct lx_doc *v = NULL;
	for (size_t i = r->n_scopes; i > 0 && !v; i--)
		if (strcmp(r->scopes[i - 1].name, first) == 0)
			v = r->scopes[i - 1].value;
	if (!v)
		v = lx_doc_map_get(r->context, first);
	if (!v)
		return render_error(r, line, "unknown variable '%s'", path);
	for (char *part = strtok_r(NULL, ".", &save); part; part = strtok_r(NULL, ".", &save)) {
		if (v->kind != LX_DOC_MAP)
			return render_error(r, line, "'%s': cannot take '%s' of %s", path, part,
					    lx_doc_kind_name(v->kind));
		v = lx_doc_map_get(v, part);
		if (!v)
			return render_error(r, line, "unknown variable '%s'", path);
	}
	*out = v;
	return 0;
}

/* An evaluated value: a document from the context, or a literal. */
struct value {
	const struct lx_doc *doc; /* NULL for literals */
	struct lx_doc literal;
};

static const struct lx_doc *value_doc(const struct value *v)
{
	return v->doc ? v->doc : &v->literal;
}

static bool truthy(const struct lx_doc *d)
{
	switch (d->kind) {
	case LX_DOC_NULL: return false;
	case LX_DOC_BOOL: return d->boolean;
	case LX_DOC_INT: return d->integer != 0;
	case LX_DOC_STR: return d->str[0] != '\0';
	case LX_DOC_LIST:
	case LX_DOC_MAP: return d->n > 0;
	}
	return false;
}

/* Scalars by value; a list or map only equals itself. */
static bool docs_equal(const struct lx_doc *a, const struct lx_doc *b)
{
	return a == b || lx_doc_scalar_equal(a, b);
}

static int eval(struct renderer *r, int line, const struct expr *e, struct value *out)
{
	memset(out, 0, sizeof(*out));
	struct value a, b;
	switch (e->kind) {
	case EX_PATH: return lookup(r, line, e->text, &out->doc);
	case EX_STR:
		out->literal.kind = LX_DOC_STR;
		out->literal.str = e->text;
		return 0;
	case EX_INT:
		out->literal.kind = LX_DOC_INT;
		out->literal.integer = e->integer;
		return 0;
	case EX_BOOL:
		out->literal.kind = LX_DOC_BOOL;
		out->literal.boolean = e->boolean;
		return 0;
	case EX_NOT:
		if (eval(r, line, e->left, &a) < 0)
			return -1;
		out->literal.kind = LX_DOC_BOOL;
		out->literal.boolean = !truthy(value_doc(&a));
		return 0;
	case EX_AND:
	case EX_OR:
		if (eval(r, line, e->left, &a) < 0)
			return -1;
		out->literal.kind = LX_DOC_BOOL;
		if (truthy(value_doc(&a)) == (e->kind == EX_OR)) {
			out->literal.boolean = e->kind == EX_OR;
			return 0;
		}
		if (eval(r, line, e->right, &b) < 0)
			return -1;
		out->literal.boolean = truthy(value_doc(&b));
		return 0;
	case EX_EQ:
	case EX_NE:
		if (eval(r, line, e->left, &a) < 0 || eval(r, line, e->right, &b) < 0)
			return -1;
		out->literal.kind = LX_DOC_BOOL;
		out->literal.boolean = docs_equal(value_doc(&a), value_doc(&b)) == (e->kind == EX_EQ);
		return 0;
	}
	return render_error(r, line, "bad expression");
}

static int render_list(struct renderer *r, const struct node_list *l);

static int render_for(struct renderer *r, const struct node *n)
{
	const struct lx_doc *list;
	if (lookup(r, n->line, n->expr->text, &list) < 0)
		return -1;
	if (list->kind != LX_DOC_LIST)
		return render_error(r, n->line, "'for' over '%s', which is %s, not a list",
				    n->expr->text, lx_doc_kind_name(list->kind));
	r->scopes = lx_xrealloc(r->scopes, (r->n_scopes + 2) * sizeof(*r->scopes));
	size_t base = r->n_scopes;
	r->n_scopes += 2;
	int rc = 0;
	for (size_t i = 0; i < list->n && rc == 0; i++) {
		struct lx_doc *loop = lx_doc_new_map();
		lx_doc_map_set(loop, "index", lx_doc_new_int((long long)i + 1));
		lx_doc_map_set(loop, "index0", lx_doc_new_int((long long)i));
		lx_doc_map_set(loop, "first", lx_doc_new_bool(i == 0));
		lx_doc_map_set(loop, "last", lx_doc_new_bool(i + 1 == list->n));
		r->scopes[base] = (struct scope_entry){"loop", loop};
		r->scopes[base + 1] = (struct scope_entry){n->loop_var, list->items[i]};
		rc = render_list(r, &n->body);
		lx_doc_free(loop);
	}
	r->n_scopes = base;
	return rc;
}

static int render_node(struct renderer *r, const struct node *n)
{
	const struct lx_doc *v;
	switch (n->kind) {
	case NODE_TEXT:
		lx_buf_puts(&r->out, n->text);
		return 0;
	case NODE_VAR:
		if (lookup(r, n->line, n->expr->text, &v) < 0)
			return -1;
		switch (v->kind) {
		case LX_DOC_NULL: return 0;
		case LX_DOC_BOOL: lx_buf_puts(&r->out, v->boolean ? "true" : "false"); return 0;
		case LX_DOC_INT: lx_buf_printf(&r->out, "%lld", v->integer); return 0;
		case LX_DOC_STR: lx_buf_puts(&r->out, v->str); return 0;
		default:
			return render_error(r, n->line, "cannot print '%s': it is %s", n->expr->text,
					    lx_doc_kind_name(v->kind));
		}
	case NODE_IF:
		for (size_t i = 0; i < n->n_branches; i++) {
			const struct if_branch *br = &n->branches[i];
			struct value cond;
			if (br->cond && eval(r, n->line, br->cond, &cond) < 0)
				return -1;
			if (!br->cond || truthy(value_doc(&cond)))
				return render_list(r, &br->body);
		}
		return 0;
	case NODE_FOR: return render_for(r, n);
	}
	return 0;
}

static int render_list(struct renderer *r, const struct node_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (render_node(r, l->items[i]) < 0)
			return -1;
	return 0;
}

int lx_template_render(const struct lx_template *tmpl, const struct lx_doc *context, char **out,
		       struct lx_error *err)
{
	struct renderer r = {.tmpl = tmpl, .context = context, .err = err};
	*out = NULL;
	int rc = render_list(&r, &tmpl->body);
	free(r.scopes);
	if (rc < 0) {
		lx_buf_free(&r.out);
		return -1;
	}
	*out = lx_buf_steal(&r.out);
	return 0;
}
