/* Findings as text, documents, and Prometheus labels. */
#include "lxgpu/report.h"
#include "lxgpu/findings.h"

#include <string.h>

/* A finding's strings come from the config (paths, values): escaped, so a
 * line with ESC bytes or invalid UTF-8 cannot drive the terminal. */
static void finding_text(struct lx_buf *b, const struct lx_finding *f, bool color)
{
	const char *on = "", *off = color ? "\033[0m" : "";
	if (color)
		on = f->severity == LX_SEVERITY_ERROR ? "\033[31m"
		     : f->severity == LX_SEVERITY_WARNING ? "\033[33m" : "\033[36m";
	lx_buf_printf(b, "  %s%-7s%s %s", on, lx_severity_name(f->severity), off,
		      lx_finding_info(f->code)->code);
	if (f->file && f->line) {
		_cleanup_free_ char *file = lx_text_escape(f->file);
		lx_buf_printf(b, " %s:%d", file, f->line);
	} else if (f->node) {
		_cleanup_free_ char *node = lx_text_escape(f->node);
		lx_buf_printf(b, " %s", node);
	}
	_cleanup_free_ char *message = lx_text_escape(f->message);
	lx_buf_printf(b, ": %s\n", message);
	if (f->fix) {
		_cleanup_free_ char *fix = lx_text_escape(f->fix);
		lx_buf_printf(b, "%*sfix: %s\n", LX_FINDING_FIX_INDENT, "", fix);
	}
	if (f->evidence) {
		/* Log lines are the kernel's and a container's bytes: escaped, one per line. */
		const char *p = f->evidence;
		for (bool first = true; *p; first = false) {
			size_t n = strcspn(p, "\n");
			_cleanup_free_ char *line = lx_xstrndup(p, n);
			_cleanup_free_ char *text = lx_text_escape(line);
			lx_buf_printf(b, "            %s %s\n", first ? "evidence:" : "         ", text);
			p += n + (p[n] == '\n');
		}
	}
}

char *lx_report_findings_text(const struct lx_findings *findings, bool color)
{
	struct lx_buf b = {0};
	size_t count[3] = {0};
	for (int sev = LX_SEVERITY_ERROR; sev >= LX_SEVERITY_INFO; sev--)
		for (size_t i = 0; i < findings->n; i++)
			if ((int)findings->items[i].severity == sev) {
				finding_text(&b, &findings->items[i], color);
				count[sev]++;
			}
	/* The severity words everywhere (JSON, Prometheus, docs): error, warning, info. */
	lx_buf_printf(&b, "%zu error%s, %zu warning%s, %zu info\n", count[LX_SEVERITY_ERROR],
		      count[LX_SEVERITY_ERROR] == 1 ? "" : "s", count[LX_SEVERITY_WARNING],
		      count[LX_SEVERITY_WARNING] == 1 ? "" : "s", count[LX_SEVERITY_INFO]);
	return lx_buf_steal(&b);
}

struct lx_doc *lx_report_findings_doc(const struct lx_findings *findings)
{
	struct lx_doc *list = lx_doc_new_list();
	for (size_t i = 0; i < findings->n; i++) {
		const struct lx_finding *f = &findings->items[i];
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "code", lx_doc_new_str(lx_finding_info(f->code)->code));
		lx_doc_map_set(d, "severity", lx_doc_new_str(lx_severity_name(f->severity)));
		lx_doc_map_set(d, "container", lx_doc_new_str(f->container));
		lx_doc_map_set(d, "file", lx_doc_new_str(f->file));
		lx_doc_map_set(d, "line", f->line ? lx_doc_new_int(f->line) : lx_doc_new_null());
		/* "node" is a Proxmox node elsewhere (audit): the device node has its own key. */
		lx_doc_map_set(d, "device_path", lx_doc_new_str(f->node));
		lx_doc_map_set(d, "message", lx_doc_new_str(f->message));
		lx_doc_map_set(d, "fix", lx_doc_new_str(f->fix));
		if (f->evidence)
			lx_doc_map_set(d, "evidence", lx_doc_new_str(f->evidence));
		lx_doc_list_push(list, d);
	}
	return list;
}

char *lx_prometheus_label(const char *value)
{
	/* The exposition format is UTF-8: util.h's \xNN rule first. */
	_cleanup_free_ char *text = lx_utf8_sanitize(value ? value : "");
	struct lx_buf b = {0};
	for (const char *p = text; *p; p++) {
		if (*p == '\\' || *p == '"')
			lx_buf_printf(&b, "\\%c", *p);
		else if (*p == '\n')
			lx_buf_puts(&b, "\\n");
		else
			lx_buf_append(&b, p, 1);
	}
	return lx_buf_steal(&b);
}
