/* Findings as text, documents, and Prometheus labels. */
#include "lxgpu/report.h"
#include "lxgpu/findings.h"

#include <string.h>

const char *lx_severity_sgr(enum lx_severity s)
{
	return s == LX_SEVERITY_ERROR ? "\033[31m" : s == LX_SEVERITY_WARNING ? "\033[33m" : "\033[36m";
}

/* The parts of a fix in turn: prose, then a command (in backticks), then
 * prose, ...; a backtick left open runs to the end. */
struct fix_part {
	const char *text;
	size_t len;
	bool command;
};
static bool next_fix_part(const char **p, struct fix_part *part)
{
	if (!**p)
		return false;
	bool command = **p == '`';
	const char *start = *p + command;
	size_t len = strcspn(start, "`");
	*part = (struct fix_part){start, len, command};
	*p = start + len + (command && start[len] == '`');
	return true;
}

void lx_fix_commands(const char *fix, struct lx_strv *out)
{
	struct fix_part part;
	for (const char *p = fix ? fix : ""; next_fix_part(&p, &part);)
		if (part.command && part.len)
			lx_strv_push_owned(out, lx_xstrndup(part.text, part.len));
}

char *lx_fix_quote(const char *text)
{
	char *q = lx_xstrdup(text ? text : "");
	for (char *c = q; (c = strchr(c, '`')) != NULL; c++)
		*c = '\'';
	return q;
}

/* Prose between commands, trimmed of what only joined it to the command
 * before; nothing when no word is left, or only the "then" between two
 * commands (they print one below the other, in order). */
static char *prose_of(const struct fix_part *part, bool after_command)
{
	const char *s = part->text, *end = part->text + part->len;
	while (s < end && (*s == ' ' || (after_command && strchr(",;.", *s))))
		s++;
	while (end > s && end[-1] == ' ')
		end--;
	bool words = false;
	for (const char *c = s; c < end; c++)
		words |= ((unsigned char)*c >= 0x80 || (*c >= '0' && *c <= '9') ||
			  ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z'));
	if (!words || (after_command && end - s == 4 && strncmp(s, "then", 4) == 0))
		return NULL;
	return lx_xstrndup(s, (size_t)(end - s));
}

void lx_report_fix_text(struct lx_buf *b, const char *fix, size_t indent, size_t width)
{
	bool labelled = false, after_command = false;
	struct fix_part part;
	for (const char *p = fix; next_fix_part(&p, &part);) {
		if (part.command) {
			if (!part.len)
				continue;
			if (!labelled)
				lx_buf_printf(b, "%*sfix:\n", (int)indent, "");
			_cleanup_free_ char *raw = lx_xstrndup(part.text, part.len);
			_cleanup_free_ char *command = lx_text_escape(raw);
			lx_buf_printf(b, "%*s%s\n", (int)(indent + LX_FIX_COMMAND_OFFSET), "", command);
			labelled = after_command = true;
			continue;
		}
		_cleanup_free_ char *raw = prose_of(&part, after_command);
		if (!raw)
			continue;
		_cleanup_free_ char *prose = lx_text_escape(raw);
		_cleanup_free_ char *line = labelled ? lx_xasprintf("%*s%s", (int)indent + 5, "", prose)
						     : lx_xasprintf("%*sfix: %s", (int)indent, "", prose);
		_cleanup_free_ char *wrapped = lx_text_wrap(line, width, indent + 5);
		lx_buf_printf(b, "%s\n", wrapped);
		labelled = true;
	}
}

/* A finding's strings come from the config (paths, values): escaped, so a
 * line with ESC bytes or invalid UTF-8 cannot drive the terminal. */
void lx_report_finding_text(struct lx_buf *b, const struct lx_finding *f, bool color, size_t width)
{
	const char *on = color ? lx_severity_sgr(f->severity) : "", *off = color ? LX_SGR_RESET : "";
	struct lx_buf head = {0};
	lx_buf_printf(&head, "  %s%-7s%s %s", on, lx_severity_name(f->severity), off,
		      lx_finding_info(f->code)->code);
	if (f->file && f->line) {
		_cleanup_free_ char *file = lx_text_escape(f->file);
		lx_buf_printf(&head, " %s:%d", file, f->line);
	} else if (f->node) {
		_cleanup_free_ char *node = lx_text_escape(f->node);
		lx_buf_printf(&head, " %s", node);
	}
	_cleanup_free_ char *message = lx_text_escape(f->message);
	lx_buf_printf(&head, ": %s", message);
	_cleanup_free_ char *wrapped = lx_text_wrap(head.data, width, LX_FINDING_FIX_INDENT);
	lx_buf_free(&head);
	lx_buf_printf(b, "%s\n", wrapped);
	if (f->fix)
		lx_report_fix_text(b, f->fix, LX_FINDING_FIX_INDENT, width);
	if (f->evidence) {
		/* Log lines are the kernel's and a container's bytes: escaped, one per line. */
		const char *p = f->evidence;
		for (bool first = true; *p; first = false) {
			size_t n = strcspn(p, "\n");
			_cleanup_free_ char *line = lx_xstrndup(p, n);
			_cleanup_free_ char *text = lx_text_escape(line);
			_cleanup_free_ char *shown = lx_xasprintf("            %s %s", first ? "evidence:" : "         ", text);
			_cleanup_free_ char *w = lx_text_wrap(shown, width, LX_FINDING_FIX_INDENT + 5);
			lx_buf_printf(b, "%s\n", w);
			p += n + (p[n] == '\n');
		}
	}
}

char *lx_report_findings_text(const struct lx_findings *findings, bool color, size_t width)
{
	struct lx_buf b = {0};
	size_t count[3] = {0};
	for (int sev = LX_SEVERITY_ERROR; sev >= LX_SEVERITY_INFO; sev--)
		for (size_t i = 0; i < findings->n; i++)
			if ((int)findings->items[i].severity == sev) {
				lx_report_finding_text(&b, &findings->items[i], color, width);
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
		struct lx_strv commands = {0};
		lx_fix_commands(f->fix, &commands);
		lx_doc_map_set(d, "commands", lx_doc_new_str_list(&commands));
		lx_strv_free(&commands);
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
