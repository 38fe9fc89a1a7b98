/* Text from untrusted input (container configs, snapshots) made safe to
 * print: valid UTF-8 always, and for terminals no control characters.
 *
 * The one rule: a byte that is not part of a valid UTF-8 sequence is written
 * as the four characters \xNN (two lower-case hex digits). Text output also
 * writes control characters so (C0 but tab, DEL, and the C1 range
 * U+0080..U+009F, each byte of its UTF-8 form), so that a config line with
 * ESC bytes cannot drive the terminal. JSON and YAML writers apply the first
 * half of the rule and escape control characters their own way. */
#include "lxgpu/util.h"

#include <string.h>

size_t lx_utf8_char_len(const char *str, size_t left)
{
	const unsigned char *s = (const unsigned char *)str;
	if (left == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t n;
	unsigned cp;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0; /* a continuation byte, 0xc0/0xc1 (always overlong), or above U+10FFFF */
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are
	 * invalid (RFC 3629); libyaml's emitter refuses them. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool lx_utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = lx_utf8_char_len(s + i, len - i);
		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

static void put_hex(struct lx_buf *b, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";
	char esc[4] = {'\\', 'x', digits[c >> 4], digits[c & 0xf]};
	lx_buf_append(b, esc, sizeof(esc));
}

void lx_buf_append_escaped(struct lx_buf *b, const char *s, size_t len, unsigned flags)
{
	bool controls = flags & LX_ESC_CONTROLS;
	bool lines = flags & LX_ESC_KEEP_LINES;
	for (size_t i = 0; i < len;) {
		size_t n = lx_utf8_char_len(s + i, len - i);
		unsigned char c = (unsigned char)s[i];
		if (n == 0) {
			put_hex(b, c);
			i++;
			continue;
		}
		bool control = false;
		if (controls) {
			if (n == 1)
				control = (c < 0x20 && c != '\t') || c == 0x7f;
			else if (n == 2 && c == 0xc2)
				control = (unsigned char)s[i + 1] < 0xa0; /* U+0080..U+009F */
			/* Line ends stay in multi-line text: "\n", and "\r" right before it. */
			if (lines && (c == '\n' || (c == '\r' && i + 1 < len && s[i + 1] == '\n')))
				control = false;
		}
		if (control)
			for (size_t k = 0; k < n; k++)
				put_hex(b, (unsigned char)s[i + k]);
		else
			lx_buf_append(b, s + i, n);
		i += n;
	}
}

char *lx_utf8_sanitize(const char *s)
{
	struct lx_buf b = {0};
	lx_buf_append_escaped(&b, s, strlen(s), 0);
	return lx_buf_steal(&b);
}

char *lx_text_escape(const char *s)
{
	return lx_text_escape_bytes(s ? s : "", s ? strlen(s) : 0);
}

char *lx_text_escape_bytes(const char *s, size_t len)
{
	struct lx_buf b = {0};
	lx_buf_append_escaped(&b, s, len, LX_ESC_CONTROLS);
	return lx_buf_steal(&b);
}

char *lx_text_escape_lines(const char *s, size_t len)
{
	struct lx_buf b = {0};
	lx_buf_append_escaped(&b, s, len, LX_ESC_CONTROLS | LX_ESC_KEEP_LINES);
	return lx_buf_steal(&b);
}

/* Bytes of the colour sequence at p (ESC [ params m), or 0. */
static size_t sgr_len(const char *p)
{
	if (p[0] != '\033' || p[1] != '[')
		return 0;
	size_t n = 2;
	while (p[n] && (p[n] == ';' || (p[n] >= '0' && p[n] <= '9')))
		n++;
	return p[n] == 'm' ? n + 1 : 0;
}

/* One line (no newline) of len bytes, wrapped into b. */
static void wrap_line(struct lx_buf *b, const char *line, size_t len, size_t width, size_t indent)
{
	/* Its own leading spaces are not a place to break. */
	size_t lead = 0;
	while (lead < len && line[lead] == ' ')
		lead++;
	size_t col = 0, start = 0, brk = 0; /* brk: the space to break at, 0: none yet */
	for (size_t i = 0; i < len;) {
		size_t esc = sgr_len(line + i);
		if (esc) {
			i += esc;
			continue;
		}
		/* the last space that fits, or the first after a word too long */
		if (line[i] == ' ' && i > lead && (col <= width || brk == start))
			brk = i;
		bool starts_char = ((unsigned char)line[i] & 0xc0) != 0x80;
		col += starts_char;
		i++;
		if (col > width && brk > start) {
			lx_buf_append(b, line + start, brk - start);
			lx_buf_puts(b, "\n");
			for (size_t k = 0; k < indent; k++)
				lx_buf_puts(b, " ");
			start = brk + 1;
			/* the columns from the break on, after the indent */
			col = indent;
			for (size_t k = start; k < i;)
				if ((esc = sgr_len(line + k)))
					k += esc;
				else
					col += (((unsigned char)line[k++] & 0xc0) != 0x80);
			brk = start; /* no break before the first word of the new line */
			lead = start;
		}
	}
	lx_buf_append(b, line + start, len - start);
}

char *lx_text_wrap(const char *text, size_t width, size_t indent)
{
	if (!width || width < indent + 20)
		return lx_xstrdup(text);
	struct lx_buf b = {0};
	lx_buf_puts(&b, ""); /* "" for an empty text, not NULL */
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		wrap_line(&b, p, n, width, indent);
		if (p[n] == '\n')
			lx_buf_puts(&b, "\n");
		p += n + (p[n] == '\n');
	}
	return lx_buf_steal(&b);
}
