/* template: a small text template engine. It knows nothing about GPUs.
 *
 * Syntax (a subset of Jinja's):
 *   {{ path }}                       a value from the context: name, name.field, loop.index
 *   {% if EXPR %} {% elif EXPR %} {% else %} {% endif %}
 *   {% for name in path %} ... {% endfor %}   over a list; loop.index (1-based),
 *                                    loop.index0, loop.first, loop.last inside
 *   {# comment #}
 *   EXPR: path, "string", integer, true, false, not, ==, !=, and, or, ( )
 *
 * A line that holds only a {% %} or {# #} tag (and white space) vanishes
 * entirely, so block tags can sit on lines of their own. Truthiness: null,
 * false, 0, "" and empty lists and maps are false.
 *
 * Errors name the template and line: an unknown variable, an unclosed
 * block, a bad tag, printing a list. */
#ifndef LXGPU_TEMPLATE_H
#define LXGPU_TEMPLATE_H

#include "lxgpu/report.h"
#include "lxgpu/util.h"

struct lx_template;

int lx_template_parse(const char *name, const char *text, struct lx_template **out,
		      struct lx_error *err);
/* Render with a context map; *out is the text. */
int lx_template_render(const struct lx_template *tmpl, const struct lx_doc *context, char **out,
		       struct lx_error *err);
/* Does the template read the context's top-level name (a path that starts
 * with it, also where a loop variable of that name hides it)? */
bool lx_template_uses(const struct lx_template *tmpl, const char *name);
void lx_template_free(struct lx_template *tmpl);

#endif
