/* The kernel log: /dev/kmsg read without blocking, or a saved dmesg /
 * journalctl / syslog text, reduced to the current boot's messages. */
#include "lxgpu/doctor.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KMSG_RECORD_MAX (64u << 10)
#define KMSG_FILE_MAX (256u << 20)

/* A page that renders Markdown (GitLab, GitHub, a forum) shows the DRM
 * core's "*ERROR*" as an emphasized "ERROR" when the log was pasted outside
 * a code block: "[drm:pwm_setup_backlight [i915]] ERROR Failed to own the
 * pwm chip". After a "[drm]" or "[drm:func [module]]" prefix the kernel
 * prints "*ERROR* " (drm_err(), DRM_ERROR(), DRM_DEV_ERROR()) and never a
 * bare "ERROR ", so the asterisks are put back. Takes text, returns it or
 * its mended copy. */
static char *markdown_error(char *text)
{
	for (char *p = strstr(text, "[drm"); p; p = strstr(p + 1, "[drm")) {
		int depth = 0;
		char *q = p;
		for (; *q; q++)
			if (*q == '[')
				depth++;
			else if (*q == ']' && --depth == 0)
				break;
		if (!*q)
			break;
		if (strncmp(q + 1, " ERROR ", 7) == 0) {
			char *mended = lx_xasprintf("%.*s *ERROR* %s", (int)(q + 1 - text), text, q + 8);
			free(text);
			return mended;
		}
	}
	return text;
}

static void add_line(struct lx_kmsg *k, char *text, char *raw, unsigned lineno, bool continuation)
{
	text = markdown_error(text);
	k->lines = lx_xrealloc(k->lines, (k->n + 1) * sizeof(*k->lines));
	k->lines[k->n++] = (struct lx_kmsg_line){text, raw, lineno, continuation};
}

static void drop_lines(struct lx_kmsg *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->lines[i].text);
		free(k->lines[i].raw);
	}
	k->n = 0;
}

/* A new boot begins: the lines so far are an earlier boot's. */
static void end_boot(struct lx_kmsg *k)
{
	if (k->n == 0)
		return;
	k->earlier = lx_xrealloc(k->earlier, (k->n_earlier + 1) * sizeof(*k->earlier));
	k->earlier[k->n_earlier++] = (struct lx_kmsg){.source = lx_xstrdup(k->source), .lines = k->lines,
						      .n = k->n, .boots = 1};
	k->lines = NULL;
	k->n = 0;
}

void lx_kmsg_free(struct lx_kmsg *k)
{
	drop_lines(k);
	free(k->lines);
	free(k->source);
	for (size_t i = 0; i < k->n_earlier; i++)
		lx_kmsg_free(&k->earlier[i]);
	free(k->earlier);
	memset(k, 0, sizeof(*k));
}

/* /dev/kmsg escapes non-printable bytes (and a record's newlines) as \xHH. */
static char *kmsg_unescape(const char *s, size_t n)
{
	struct lx_buf b = {0};
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2]) &&
		    isxdigit((unsigned char)s[i + 3])) {
			char hex[3] = {s[i + 2], s[i + 3], 0};
			char c = (char)strtol(hex, NULL, 16);
			lx_buf_append(&b, &c, 1);
			i += 3;
		} else {
			lx_buf_append(&b, &s[i], 1);
		}
	}
	return lx_buf_steal(&b);
}

/* One record: "PRI,SEQ,TS,FLAGS[,...];MESSAGE\n" then " KEY=VALUE\n" lines. */
static void add_record(struct lx_kmsg *k, const char *rec, size_t len)
{
	const char *semi = memchr(rec, ';', len);
	if (!semi)
		return;
	const char *msg = semi + 1;
	const char *end = memchr(msg, '\n', len - (size_t)(msg - rec));
	size_t mlen = end ? (size_t)(end - msg) : len - (size_t)(msg - rec);
	_cleanup_free_ char *text = kmsg_unescape(msg, mlen);
	/* The third field is the time since boot in microseconds: evidence
	 * quotes the record as dmesg prints it. */
	unsigned long long pri, seq, usec;
	_cleanup_free_ char *stamp = NULL;
	if (sscanf(rec, "%llu,%llu,%llu", &pri, &seq, &usec) == 3)
		stamp = lx_xasprintf("[%5llu.%06llu] ", usec / 1000000, usec % 1000000);
	bool first = true;
	for (char *p = text; first || *p;) {
		size_t n = strcspn(p, "\n");
		char *line = lx_xstrndup(p, n);
		char *raw = lx_xasprintf("%s%s", first && stamp ? stamp : first ? "" : "               ", line);
		add_line(k, line, raw, 0, !first);
		first = false;
		p += n + (p[n] == '\n');
	}
}

int lx_kmsg_read_device(const char *path, struct lx_kmsg *out, struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return lx_error_set_errno(err, errno, "%s: cannot open", path);
	out->source = lx_xstrdup(path);
	out->boots = 1;
	/* From the oldest record still in the ring. A fresh open starts there
	 * too, so a kernel that refuses the seek loses nothing. */
	(void)lseek(fd, 0, SEEK_SET);
	char *buf = lx_xmalloc(KMSG_RECORD_MAX);
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, buf, KMSG_RECORD_MAX - 1);
		if (n > 0) {
			buf[n] = '\0'; /* add_record scans the header as a string */
			add_record(out, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE)
			continue; /* records overwritten since the last read: go on with the next */
		if (n == 0 || errno == EAGAIN)
			break; /* the end of the ring */
		rc = lx_error_set_errno(err, errno, "%s: cannot read", path);
		break;
	}
	free(buf);
	close(fd);
	if (rc < 0)
		lx_kmsg_free(out);
	return rc;
}

/* "[  123.456789] ", "[Tue Dec  1 10:00:00 2026] ", "[  +0.000421] ". */
static const char *skip_bracket_stamp(const char *s)
{
	if (*s != '[')
		return s;
	const char *close = strchr(s, ']');
	if (!close || close - s > 40)
		return s;
	/* A time stamp holds digits and [.:+ ] only, or a date (letters too);
	 * dmesg -d adds the delta in "<...>". */
	bool digit = false;
	for (const char *p = s + 1; p < close; p++) {
		if (isdigit((unsigned char)*p))
			digit = true;
		else if (!strchr(" .:+-,<>", *p) && !isalpha((unsigned char)*p) && (unsigned char)*p < 0x80)
			return s; /* UTF-8: dmesg -T's day and month in the user's locale */
	}
	if (!digit)
		return s;
	s = close + 1;
	return *s == ' ' ? s + 1 : s;
}

/* journalctl's and syslog's "Dec 01 10:00:00 host kernel: ", an ISO time
 * stamp, short-monotonic's "host kernel: " after the bracket. */
static const char *skip_kernel_tag(const char *s)
{
	const char *tag = strstr(s, "kernel: ");
	if (!tag || tag - s > 96 || (tag > s && tag[-1] != ' '))
		return s;
	size_t prefix = (size_t)(tag - s);
	bool has_time = false, has_bracket = false;
	size_t spaces = 0;
	for (size_t i = 0; i < prefix; i++) {
		if (s[i] == ':' && i > 0 && isdigit((unsigned char)s[i - 1]))
			has_time = true;
		has_bracket |= s[i] == '[' || s[i] == ']';
		spaces += s[i] == ' ';
	}
	/* Either a time stamp and a host, or the host alone (one word). */
	if (prefix && !has_time && spaces != 1)
		return s;
	if (has_bracket && !has_time)
		return s;
	return tag + strlen("kernel: ");
}

/* talosctl dmesg: "10.20.30.29: kern:  notice: [2023-04-02T08:24:20.652394611Z]: "
 * (node, facility, level, the record's time), as the issues of
 * siderolabs/talos quote it; pasted without the node too ("kern:     err:
 * [...]: ", siderolabs/talos#8764). */
static const char *skip_talos_record(const char *s)
{
	const char *p = s;
	const char *facility = p;
	while (islower((unsigned char)*p))
		p++;
	if (p == facility || *p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	const char *level = p;
	while (islower((unsigned char)*p))
		p++;
	if (p == level || strncmp(p, ": [", 3) != 0)
		return NULL;
	const char *close = strchr(p + 3, ']');
	if (!close || close - p > 48 || strncmp(close, "]: ", 3) != 0)
		return NULL;
	return close + 3;
}

static const char *skip_talos(const char *s)
{
	const char *bare = skip_talos_record(s);
	if (bare)
		return bare;
	const char *p = s + strcspn(s, " ");
	if (p == s || p[-1] != ':' || *p != ' ')
		return s;
	const char *after = skip_talos_record(p + 1);
	return after ? after : s;
}

/* dmesg --time-format iso: "2025-01-25T10:34:54,859532+00:00 ". */
static const char *skip_iso_stamp(const char *s)
{
	const char *p = s;
	for (const char *shape = "dddd-dd-ddTdd:dd:dd"; *shape; shape++, p++)
		if (*shape == 'd' ? !isdigit((unsigned char)*p) : *p != *shape)
			return s;
	while (*p && *p != ' ' && p - s < 40)
		p++;
	return *p == ' ' ? p + 1 : s;
}

/* A /dev/kmsg record as `cat /dev/kmsg` shows it: "6,1234,5678901,-;". */
static const char *skip_kmsg_header(const char *s)
{
	const char *p = s;
	for (int field = 0; field < 3; field++) {
		const char *start = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start || *p != ',')
			return s;
		p++;
	}
	const char *semi = strchr(p, ';');
	if (!semi || semi - p > 32 || memchr(p, ' ', (size_t)(semi - p)))
		return s; /* flags and fields hold no space */
	return semi + 1;
}

/* "<6>" of dmesg -r ("<4> [24.01] " in the i915 CI's dmesg: a space before
 * the time); "kern  :info  : " of dmesg -x. */
static const char *skip_level(const char *s)
{
	if (*s == '<') {
		const char *p = s + 1;
		while (isdigit((unsigned char)*p))
			p++;
		if (p > s + 1 && *p == '>')
			return p[1] == ' ' && p[2] == '[' ? p + 2 : p + 1;
	}
	const char *p = s;
	while (islower((unsigned char)*p))
		p++;
	if (p > s && p - s <= 6) {
		while (*p == ' ')
			p++;
		if (*p == ':') {
			const char *q = p + 1;
			while (islower((unsigned char)*q))
				q++;
			while (*q == ' ')
				q++;
			if (q > p + 1 && *q == ':' && q[1] == ' ')
				return q + 2;
		}
	}
	return s;
}

/* What a paste adds around the kernel's bytes, undone before the text is
 * split into lines (no line is added or removed but by a lone CR):
 * - CRs before a LF (Windows) go; a lone CR (old Mac files) ends a line;
 * - terminal colour (dmesg --color=always, journalctl on a tty: ECMA-48's
 *   CSI "ESC [ params final"), also as less/cat -v show it ("^[[31m") and
 *   bare where the paste lost the ESC ("[31m": a digit, then only digits
 *   and ';' before the 'm', so amdgpu's "[mmhub0]" stays);
 * - a web page's HTML entities (&gt; &lt; &amp; &quot; &#39; &#x27; &apos;
 *   &nbsp;, any &#NN; / &#xHH; of an ASCII character);
 * - Unicode spaces (NBSP, U+2000-200A, U+202F, U+205F, U+3000) as a space,
 *   zero-width ones and the BOM dropped, typographic quotes (U+2018/2019,
 *   U+201C/201D) as the kernel's ASCII ones;
 * - a tab inside a line as a space (a leading one still indents). */
static size_t csi_len(const char *s, const char *end)
{
	const char *p = s;
	if (p < end && *p == 0x1b)
		p++;
	else if (end - p >= 2 && p[0] == '^' && p[1] == '[')
		p += 2;
	else
		return 0;
	if (p < end && *p == '[') {
		p++;
		while (p < end && (unsigned char)*p >= 0x20 && (unsigned char)*p <= 0x3f)
			p++;
		return p < end && (unsigned char)*p >= 0x40 && (unsigned char)*p <= 0x7e ? (size_t)(p + 1 - s) : 0;
	}
	return s[0] == 0x1b && p < end ? (size_t)(p + 1 - s) : 0; /* ESC and one more byte */
}

static size_t bare_sgr_len(const char *s, const char *end)
{
	const char *p = s + 1;
	if (!(p < end && isdigit((unsigned char)*p)))
		return 0;
	while (p < end && p - s < 16 && (isdigit((unsigned char)*p) || *p == ';'))
		p++;
	return p < end && *p == 'm' ? (size_t)(p + 1 - s) : 0;
}

/* An entity's character (ASCII, or ' ' for &nbsp;), 0 when s holds none. */
static char entity(const char *s, const char *end, size_t *len)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"&gt;", '>'}, {"&lt;", '<'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&nbsp;", ' '}};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		size_t n = strlen(named[i].name);
		if ((size_t)(end - s) >= n && memcmp(s, named[i].name, n) == 0) {
			*len = n;
			return named[i].c;
		}
	}
	if (end - s < 4 || s[1] != '#')
		return 0;
	bool hex = s[2] == 'x' || s[2] == 'X';
	const char *p = s + 2 + hex;
	unsigned long v = 0;
	const char *digits = p;
	while (p < end && p - digits < 6 && (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p))) {
		v = v * (hex ? 16 : 10) + (unsigned long)(isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10));
		p++;
	}
	if (p == digits || p >= end || *p != ';')
		return 0;
	*len = (size_t)(p + 1 - s);
	if (v == 0xa0)
		return ' ';
	if (v == 0x2018 || v == 0x2019)
		return '\'';
	if (v == 0x201c || v == 0x201d)
		return '"';
	return v >= 0x20 && v < 0x7f ? (char)v : 0;
}

/* A UTF-8 space, zero-width character or typographic quote: its ASCII
 * replacement ("" to drop it) and its length, or NULL. */
static const char *unicode_plain(const unsigned char *s, const unsigned char *end, size_t *len)
{
	if (end - s >= 2 && s[0] == 0xc2 && s[1] == 0xa0) {
		*len = 2;
		return " ";
	}
	if (end - s < 3)
		return NULL;
	*len = 3;
	if (s[0] == 0xe2 && s[1] == 0x80) {
		if (s[2] <= 0x8a || s[2] == 0xaf)
			return " ";
		if (s[2] >= 0x8b && s[2] <= 0x8d)
			return "";
		if (s[2] == 0x98 || s[2] == 0x99)
			return "'";
		if (s[2] == 0x9c || s[2] == 0x9d)
			return "\"";
	}
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0x9f)
		return " ";
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0xa0)
		return "";
	if (s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return " ";
	if (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		return "";
	return NULL;
}

/* A log saved as UTF-16 (Windows PowerShell's ">" writes UTF-16LE with
 * its BOM): as UTF-8, or NULL when s is none (BOM "FF FE", or NUL high
 * bytes in its first characters). */
static char *from_utf16le(const char *s, size_t n, size_t *out_len)
{
	const unsigned char *u = (const unsigned char *)s;
	bool bom = n >= 2 && u[0] == 0xff && u[1] == 0xfe;
	if (!bom && !(n >= 8 && u[0] && !u[1] && u[2] && !u[3] && u[4] && !u[5] && u[6] && !u[7]))
		return NULL;
	struct lx_buf b = {0};
	for (size_t i = bom ? 2 : 0; i + 1 < n; i += 2) {
		unsigned c = u[i] | (unsigned)u[i + 1] << 8;
		char enc[3];
		if (c < 0x80) {
			enc[0] = (char)c;
			lx_buf_append(&b, enc, 1);
		} else if (c < 0x800) {
			enc[0] = (char)(0xc0 | c >> 6);
			enc[1] = (char)(0x80 | (c & 0x3f));
			lx_buf_append(&b, enc, 2);
		} else if (c < 0xd800 || c > 0xdfff) {
			enc[0] = (char)(0xe0 | c >> 12);
			enc[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			enc[2] = (char)(0x80 | (c & 0x3f));
			lx_buf_append(&b, enc, 3);
		} else {
			lx_buf_append(&b, "?", 1); /* a surrogate: no kernel text */
		}
	}
	if (!b.data)
		lx_buf_puts(&b, "");
	*out_len = b.len;
	return lx_buf_steal(&b);
}

static char *plain_text(const char *s, size_t n, size_t *out_len)
{
	size_t wide_len = 0;
	_cleanup_free_ char *wide = from_utf16le(s, n, &wide_len);
	if (wide) {
		s = wide;
		n = wide_len;
	}
	struct lx_buf b = {0};
	const char *end = s + n;
	bool leading = true; /* still in a line's leading blanks */
	for (const char *p = s; p < end;) {
		size_t l = 0;
		const char *u;
		char c;
		if (*p == '\r') {
			const char *q = p;
			while (q < end && *q == '\r')
				q++;
			if (q == end || *q != '\n')
				lx_buf_append(&b, "\n", 1);
			p = q;
			leading = true;
		} else if ((l = csi_len(p, end)) || (*p == '[' && (l = bare_sgr_len(p, end)))) {
			p += l;
		} else if (*p == '&' && (c = entity(p, end, &l))) {
			lx_buf_append(&b, &c, 1);
			p += l;
			leading = false;
		} else if ((unsigned char)*p >= 0xc2 && (u = unicode_plain((const unsigned char *)p, (const unsigned char *)end, &l))) {
			lx_buf_puts(&b, u);
			p += l;
		} else {
			c = *p == '\t' && !leading ? ' ' : *p;
			leading = c == '\n' || (leading && (c == ' ' || c == '\t'));
			lx_buf_append(&b, &c, 1);
			p++;
		}
	}
	if (!b.data)
		lx_buf_puts(&b, "");
	*out_len = b.len;
	return lx_buf_steal(&b);
}

/* A log pasted into an issue or a forum post: markdown's quote markers
 * ("> ", nested "> > "), and inline-code backticks or a fence fused to a
 * line ("`[  12.3] ...", "```[ 0.0] ...") are the page's, not the log's. */
static const char *skip_paste_marks(const char *s)
{
	for (;;) {
		if (*s == '>')
			s += 1 + (s[1] == ' ');
		else if (*s == '`')
			s++;
		else
			return s;
	}
}

static bool is_boot_separator(const char *raw)
{
	return lx_str_starts_with(raw, "-- Boot ") || lx_str_starts_with(raw, "-- Reboot --");
}

/* When a line was logged, as far as its prefix says: dmesg's seconds
 * since boot ("[  12.3]"), dmesg -T's and syslog's/journalctl's dates
 * ("[Tue Dec  1 10:00:00 2026]", "Dec 01 10:00:00"), an ISO time. Only
 * the order matters: seconds, from any origin but the same per form. */
static bool line_time(const char *raw, double *t)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	const char *s = raw + strspn(raw, " \t");
	double sec;
	int n = 0;
	if (sscanf(s, "[%lf]%n", &sec, &n) == 1 && n > 0) {
		*t = sec;
		return true;
	}
	if (*s == '[' && isalpha((unsigned char)s[1]) && strlen(s) > 5)
		s += 5; /* "[Tue " of dmesg -T: then "Dec  1 10:00:00 2026]" */
	char mon[4];
	int day, hh, mm, ss, year = 0;
	if (sscanf(s, "%3s %d %d:%d:%d", mon, &day, &hh, &mm, &ss) == 5) {
		const char *m = strstr(months, mon);
		if (!m || strlen(mon) != 3 || (m - months) % 3)
			return false;
		const char *close = strchr(s, ']');
		if (close && close - s < 24)
			(void)sscanf(close - 4, "%d", &year);
		*t = ((((double)year * 12 + (double)((m - months) / 3)) * 31 + day) * 24 + hh) * 3600.0 + mm * 60 + ss;
		return true;
	}
	int y, mo;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &day, &hh, &mm, &ss) == 6) {
		*t = (((((double)y * 12 + mo) * 31 + day) * 24 + hh) * 3600.0) + mm * 60 + ss;
		return true;
	}
	return false;
}

/* journalctl -r (and dmesg piped through tac) print the newest message
 * first. Read oldest first, or a record's continuation lines and "the
 * cause before RmInitAdapter" come out backwards: when the times the lines
 * carry go down more often than up, the records (a line with its indented
 * continuation lines) are put back in order. NULL: the text is in order. */
static char *unreverse(const char *text, size_t len, unsigned **linenos)
{
	struct span {
		const char *start;
		size_t len;
		unsigned lineno, lines; /* the file's number of its first line, and how many */
	} *recs = NULL;
	unsigned lineno = 0;
	size_t n = 0, cap = 0, down = 0, up = 0;
	double last = 0;
	bool have_last = false;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		_cleanup_free_ char *line = lx_xstrndup(p, nl ? l - 1 : l);
		double t;
		bool timed = line_time(line, &t);
		bool indented = *p == ' ' || *p == '\t';
		lineno++;
		if (n && indented && !timed) {
			recs[n - 1].len += l; /* a continuation of the record before */
			recs[n - 1].lines++;
		} else {
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				recs = lx_xrealloc(recs, cap * sizeof(*recs));
			}
			recs[n++] = (struct span){p, l, lineno, 1};
		}
		if (timed) {
			if (have_last && t < last)
				down++;
			else if (have_last && t > last)
				up++;
			last = t;
			have_last = true;
		}
		p += l;
	}
	char *out = NULL;
	if (down >= 2 && down > 4 * up) {
		struct lx_buf b = {0};
		/* findings still name the lines as the file numbers them */
		*linenos = lx_xcalloc(lineno + 1, sizeof(**linenos));
		size_t at = 0;
		for (size_t i = n; i-- > 0;) {
			for (unsigned k = 0; k < recs[i].lines; k++)
				(*linenos)[at++] = recs[i].lineno + k;
			lx_buf_append(&b, recs[i].start, recs[i].len);
			if (recs[i].start[recs[i].len - 1] != '\n')
				lx_buf_append(&b, "\n", 1);
		}
		out = lx_buf_steal(&b);
	}
	free(recs);
	return out;
}

/* journalctl -o short-unix: "1733392807.123456 host kernel: ". */
static const char *skip_unix_stamp(const char *s)
{
	size_t secs = strspn(s, "0123456789");
	if (secs < 9 || secs > 11 || s[secs] != '.')
		return s;
	size_t frac = strspn(s + secs + 1, "0123456789");
	if (!frac || s[secs + 1 + frac] != ' ')
		return s;
	return s + secs + 1 + frac + 1;
}

/* A CRI log line (containerd, CRI-O: kubectl's and the node's container
 * logs) after its time: "stdout F " (F a full line, P a part of one). */
static const char *skip_cri_stream(const char *s)
{
	if ((lx_str_starts_with(s, "stdout ") || lx_str_starts_with(s, "stderr ")) && (s[7] == 'F' || s[7] == 'P') &&
	    s[8] == ' ')
		return s + 9;
	return s;
}

/* RFC 5424 (rsyslog's RSYSLOG_SyslogProtocol23Format, syslog-ng's
 * syslog()), after "<PRI>": "1 TIMESTAMP HOST APP-NAME PROCID MSGID SD MSG",
 * each header field one word or "-", SD "-" or "[...]" elements. */
static const char *skip_rfc5424(const char *s)
{
	if (s[0] != '1' || s[1] != ' ' || !(isdigit((unsigned char)s[2]) || s[2] == '-'))
		return s;
	const char *p = s + 2;
	for (int field = 0; field < 5; field++) {
		size_t n = strcspn(p, " ");
		if (!n || p[n] != ' ')
			return s;
		if (field == 0 && !(n == 1 && *p == '-') && !(n >= 19 && p[4] == '-' && p[10] == 'T'))
			return s; /* the time: "-" or RFC 3339 */
		p += n + 1;
	}
	if (*p == '-') {
		p++;
	} else {
		while (*p == '[') {
			for (p++; *p && *p != ']'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (*p != ']')
				return s;
			p++;
		}
	}
	return *p == ' ' ? p + 1 : *p ? s : p;
}

/* A forum's or a pastebin's frame around a line: a table's "| " border,
 * a line number ("12 ", "12: ", "12. ", "12 | "), docker compose's
 * "service-1  | ". A number or a name counts only before a time stamp. */
static bool stamped(const char *s)
{
	double t;
	return skip_bracket_stamp(s) != s || skip_iso_stamp(s) != s || skip_unix_stamp(s) != s ||
	       skip_kmsg_header(s) != s || (*s == '<' && skip_level(s) != s) || line_time(s, &t);
}

static const char *skip_frame(const char *s)
{
	if (*s == '|')
		return s + 1 + strspn(s + 1, " \t");
	size_t n = strcspn(s, " \t");
	if (!n || n > 64)
		return s;
	const char *p = s + n + strspn(s + n, " \t");
	if (*p == '|' && (p[1] == ' ' || p[1] == '\t')) {
		p += 1 + strspn(p + 1, " \t");
	} else {
		size_t digits = strspn(s, "0123456789");
		if (!digits || digits > 6 || (digits < n && !(digits + 1 == n && strchr(":.)", s[digits]))))
			return s;
	}
	return stamped(p) ? p : s;
}

/* A field line of journalctl -o verbose / export ("    MESSAGE=...",
 * "_TRANSPORT=kernel") or of a /dev/kmsg record (" SUBSYSTEM=pci",
 * " DEVICE=+pci:0000:01:00.0"): its key's length, 0 when s is none. */
static size_t field_key(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	return n >= 3 && s[n] == '=' && !isdigit((unsigned char)*s) ? n : 0;
}

/* "Dec  1 10:00:00" (".123456" too) at s: the end of it, or NULL. */
static const char *month_time(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	if (!isupper((unsigned char)s[0]) || !islower((unsigned char)s[1]) || !islower((unsigned char)s[2]) || s[3] != ' ')
		return NULL;
	char mon[4] = {s[0], s[1], s[2], 0};
	const char *m = strstr(months, mon);
	if (!m || (m - months) % 3)
		return NULL;
	const char *p = s + 4 + (s[4] == ' ');
	if (!isdigit((unsigned char)*p))
		return NULL;
	p += 1 + !!isdigit((unsigned char)p[1]);
	if (*p != ' ' || strspn(p + 1, "0123456789:") != 8)
		return NULL;
	p += 9;
	while (*p == '.' || isdigit((unsigned char)*p))
		p++;
	return p;
}

/* " host kernel: " at s (the host one word). */
static bool host_kernel_at(const char *s)
{
	if (*s != ' ')
		return false;
	const char *p = s + 1;
	for (int i = 0; *p && *p != ' '; p++)
		if (++i > 64)
			return false;
	return lx_str_starts_with(p, " kernel: ");
}

/* dmesg -T's stamp in any locale at s ("[Mon Dec  7 05:58:31 2026]", "[一 12月
 *  7 05:58:31 2026]", "[Пн дек  7 05:58:31 2026]"): names, day, then " HH:MM:SS
 * YYYY]", within 40 bytes. */
static bool date_stamp_at(const char *s)
{
	if (*s != '[')
		return false;
	const char *close = s + 1;
	while (*close && *close != ']' && close - s < 40)
		close++;
	if (*close != ']' || close - s < 16)
		return false;
	const char *t = close - 14; /* " HH:MM:SS YYYY" */
	if (*t != ' ' || strspn(t + 1, "0123456789") != 2 || t[3] != ':' || strspn(t + 4, "0123456789") != 2 ||
	    t[6] != ':' || strspn(t + 7, "0123456789") != 2 || t[9] != ' ' || strspn(t + 10, "0123456789") != 4)
		return false;
	for (const char *p = s + 1; p < t; p++)
		if (!isalnum((unsigned char)*p) && *p != ' ' && (unsigned char)*p < 0x80)
			return false;
	return true;
}

/* A line where a newline was lost: another message's stamp starts at s:
 * dmesg's ("[ 1234.567890]", six decimals as dmesg prints them; dmesg
 * -T's "[Mon Dec  7 05:58:31 2026]"), or syslog's / journalctl's
 * "Dec  1 10:00:00 host kernel: ", "2026-12-07T05:58:31+0000 host kernel: ". */
static bool merged_stamp_at(const char *s)
{
	if (*s == '[') {
		const char *p = s + 1 + strspn(s + 1, " ");
		size_t secs = strspn(p, "0123456789");
		if (secs && p[secs] == '.' && strspn(p + secs + 1, "0123456789") == 6 && p[secs + 7] == ']')
			return true;
		return date_stamp_at(s);
	}
	if (isdigit((unsigned char)*s)) {
		const char *e = skip_iso_stamp(s);
		return e != s && host_kernel_at(e - 1);
	}
	const char *t = month_time(s);
	return t && host_kernel_at(t);
}

static const char *find_merged(const char *s)
{
	for (const char *p = *s ? s + 1 : s; *p; p++)
		if ((*p == '[' || isupper((unsigned char)*p) || (isdigit((unsigned char)*p) && !isdigit((unsigned char)p[-1]))) &&
		    merged_stamp_at(p))
			return p;
	return NULL;
}

/* A JSON string's or number array's value after `"KEY"` and its ':' in
 * line, where KEY is one of keys (a key: after '{', ',' or a blank). */
static const char *json_value(const char *line, const char *const *keys)
{
	for (; *keys; keys++) {
		size_t kl = strlen(*keys);
		for (const char *k = strchr(line, '"'); k; k = strchr(k + 1, '"')) {
			if (strncmp(k + 1, *keys, kl) != 0 || k[1 + kl] != '"')
				continue;
			if (k > line && !strchr("{, \t", k[-1]))
				continue;
			const char *v = k + 2 + kl;
			v += strspn(v, " \t");
			if (*v != ':')
				continue;
			v += 1 + strspn(v + 1, " \t");
			if (*v == '"' || *v == '[')
				return v;
		}
	}
	return NULL;
}

/* A log shipper's record holding the kernel line as a quoted string:
 * journalctl -o json / json-pretty / json-seq / json-sse's "MESSAGE"
 * (a number array where the message has bytes JSON cannot hold), Docker's
 * json-file "log", a collector's "message" / "msg", logfmt's msg="..."
 * (Loki, Vector, Promtail); the string with its escapes undone ("\\n" a
 * newline: a message of several lines), or NULL when the line is none. */
static char *unwrap_quoted(const char *line)
{
	static const char *const keys[] = {"MESSAGE", "log", "message", "msg", NULL};
	const char *v = NULL;
	const char *p = line + strspn(line, " \t");
	if (*p == 0x1e) /* json-seq's record separator */
		p++;
	if (lx_str_starts_with(p, "data: ")) /* json-sse */
		p += strlen("data: ");
	if (*p == '{' || *p == '"') {
		v = json_value(p, keys);
	} else {
		for (const char *m = strstr(line, "msg=\""); m && !v; m = strstr(m + 1, "msg=\""))
			if (m == line || m[-1] == ' ' || m[-1] == '\t')
				v = m + strlen("msg=");
	}
	if (!v)
		return NULL;
	struct lx_buf b = {0};
	if (*v == '[') {
		for (v++; *v && *v != ']';) {
			char *e;
			unsigned long c = strtoul(v, &e, 10);
			if (e == v)
				break;
			char ch = c == '\n' || (c >= 0x20 && c < 0x7f) ? (char)c : c >= 0x80 && c < 0x100 ? (char)c : ' ';
			lx_buf_append(&b, &ch, 1);
			v = e + strspn(e, ", ");
		}
	} else {
		for (v++; *v && *v != '"'; v++) {
			if (*v != '\\' || !v[1]) {
				lx_buf_append(&b, v, 1);
				continue;
			}
			v++;
			char c = *v == 'n' ? '\n' : *v == 't' ? ' ' : *v == 'r' ? ' ' : *v;
			if (*v == 'u' && isxdigit((unsigned char)v[1]) && isxdigit((unsigned char)v[2]) &&
			    isxdigit((unsigned char)v[3]) && isxdigit((unsigned char)v[4])) {
				char hex[5] = {v[1], v[2], v[3], v[4], 0};
				unsigned long u = strtoul(hex, NULL, 16);
				c = u == 0x2019 || u == 0x2018 ? '\''
				    : u == 0x201c || u == 0x201d ? '"'
				    : u >= 0x20 && u < 0x7f ? (char)u
				    : u == 0xa0 ? ' '
						 : '?';
				v += 4;
			}
			lx_buf_append(&b, &c, 1);
		}
	}
	if (!b.data)
		lx_buf_puts(&b, "");
	return lx_buf_steal(&b);
}

/* A json-pretty field line other than MESSAGE ("_TRANSPORT" : "kernel",). */
static bool json_field_line(const char *s)
{
	if (*s != '"')
		return false;
	size_t n = strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (!n || s[1 + n] != '"')
		return false;
	const char *p = s + 2 + n;
	return p[strspn(p, " \t")] == ':' && !(n == 7 && strncmp(s + 1, "MESSAGE", 7) == 0);
}

/* A terminal (at its width) or a mail client (at 72 to 80 columns, at a
 * blank) wraps a long line: the rest comes on a line of its own with no
 * stamp. Such a line is joined to the message before it only when it
 * cannot be a message of its own: the line before had a stamp (or was a
 * record's indented continuation line, or such a rest) and was long
 * enough to wrap (40 columns: a wrap at 72 to 80 leaves a line that short
 * only before a long word, a path or a function's address), this one is
 * not indented (that is a record's continuation), has no stamp, is no
 * "NVRM: " line (NVIDIA prints a message line by line), the message stays
 * within a kernel record's length, and the cut is where a wrap cuts:
 * - a terminal's: the line before is as wide as the log's widest line,
 *   80 columns or more, and at least one other line is that wide too
 *   (every long line is cut at the same column); the cut is inside a word;
 * - a mail client's: no line of two words or more is wider than 80 (a
 *   word longer than that, a URL, stays whole on a line of its own) and
 *   this line's first word would not have fit on the line before (a
 *   greedy wrap moves a word down only then), or the line before leaves a
 *   "[" open that this one closes; the blank at the cut is dropped. */
#define WRAP_MIN 40
#define TERMINAL_MIN 79
#define MAIL_MAX 80
#define RECORD_MAX 1024
#define LINE_LONG 4096

struct parser {
	struct lx_kmsg *out;
	bool seen_any;
	bool wrap_ok;     /* the line before may have been wrapped */
	bool qp;          /* a raw mail's quoted-printable body */
	bool qp_soft;     /* the line before ended in its soft line break */
	size_t prev_len;  /* its length */
	size_t widest;    /* the log's longest line: a terminal's width */
	size_t n_widest;  /* lines that wide */
	size_t mail_widest; /* the longest line of two words or more: a mail
			     * client cannot cut one word (a URL, a path) */
	size_t repeated;  /* lines syslog's repetition notes added (REPEATS_MAX in a log) */
	size_t indent;    /* the indentation of the line that began the last record */
};

/* Whether TEXT leaves a "[" open at its end ("BAR 1: no space for [mem
 * size"), and whether TEXT closes one it did not open ("0x2000000000 64bit
 * pref]"). */
static bool leaves_bracket_open(const char *text)
{
	size_t depth = 0;
	for (; *text; text++)
		if (*text == '[')
			depth++;
		else if (*text == ']' && depth > 0)
			depth--;
	return depth > 0;
}

static bool closes_bracket(const char *text)
{
	size_t depth = 0;
	for (; *text; text++)
		if (*text == '[')
			depth++;
		else if (*text == ']' && depth-- == 0)
			return true;
	return false;
}

/* The separator that undoes the wrap of the line before at msg: "" (a
 * terminal's cut), " " (a mail client's), or NULL: no wrap. A mail
 * client that does not fill its lines greedily (some break before a word
 * that would have fit) still leaves a "[" the kernel opened on the line
 * before and closes on this one: a resource "[mem size 0x2000000000 64bit
 * pref]" is never two messages. */
static const char *wrap_join(const struct parser *ps, const char *msg)
{
	/* a shell prompt ("$ ", "# ", "root@pve:~# ") starts a command, not
	 * a wrap's rest */
	size_t word = strcspn(msg, " ");
	if (strchr("$#%", *msg) || (memchr(msg, '@', word) && word && strchr("$#", msg[word - 1])))
		return NULL;
	if (ps->prev_len == ps->widest && ps->widest >= TERMINAL_MIN && ps->n_widest >= 2)
		return "";
	if (ps->mail_widest <= MAIL_MAX && ps->prev_len + 1 + word > ps->mail_widest)
		return " ";
	if (ps->mail_widest <= MAIL_MAX && leaves_bracket_open(ps->out->lines[ps->out->n - 1].text) &&
	    closes_bracket(msg))
		return " ";
	return NULL;
}

static void join_wrapped(struct parser *ps, const char *sep, const char *msg, const char *raw)
{
	struct lx_kmsg_line *last = &ps->out->lines[ps->out->n - 1];
	char *text = lx_xasprintf("%s%s%s", last->text, sep, msg);
	char *r = lx_xasprintf("%s%s%s", last->raw, sep, raw + strspn(raw, " \t"));
	free(last->text);
	free(last->raw);
	last->text = text;
	last->raw = r;
}

/* syslog's notes of a repeated message: BSD syslogd's and sysklogd's "last
 * message repeated 41 times" (the message before it, again), rsyslog's
 * "message repeated 3 times: [ <message>]" (that message, again). Returns
 * how many more times it came (0: no such note); *text and *len the
 * repeated message for rsyslog's, NULL for the message before. */
#define REPEAT_MAX 255
/* what a log's notes add in all: a file of nothing but notes stays small */
#define REPEATS_MAX (16u * REPEAT_MAX)
static unsigned repeat_note(const char *msg, const char **text, size_t *len)
{
	const char *p = msg;
	bool before = lx_str_starts_with(p, "last message repeated ");
	if (!before && !lx_str_starts_with(p, "message repeated "))
		return 0;
	p += before ? strlen("last message repeated ") : strlen("message repeated ");
	size_t digits = strspn(p, "0123456789");
	if (digits == 0 || digits > 9)
		return 0;
	unsigned long times = strtoul(p, NULL, 10);
	p += digits;
	if (!lx_str_starts_with(p, " time"))
		return 0;
	*text = NULL;
	*len = 0;
	if (!before) {
		const char *open = strstr(p, ": [");
		const char *close = open ? strrchr(open, ']') : NULL;
		if (!close)
			return 0;
		open += 3;
		open += strspn(open, " ");
		*text = skip_bracket_stamp(open);
		*len = close > *text ? (size_t)(close - *text) : 0;
		if (*len == 0)
			return 0;
	}
	return times > REPEAT_MAX ? REPEAT_MAX : (unsigned)times;
}

/* Decodes quoted-printable's "=XX" (two upper-case hex digits) in place. */
static void qp_decode(char *s)
{
	char *w = s;
	for (const char *r = s; *r;) {
		if (r[0] == '=' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2]) &&
		    !islower((unsigned char)r[1]) && !islower((unsigned char)r[2])) {
			char hex[3] = {r[1], r[2], 0};
			*w++ = (char)strtol(hex, NULL, 16);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* One line (or one message of a line whose newlines were lost). */
static char *take_line(struct parser *ps, char *raw, unsigned lineno)
{
	struct lx_kmsg *out = ps->out;
	/* A long line (many messages whose newlines were lost) is read only
	 * up to its second stamp: the first may be this message's own, after
	 * a prefix; the scans below stay within one message and the next. */
	char *bound = NULL, bound_c = 0;
	char *merged = NULL, saved = 0;
	_cleanup_free_ char *unwrapped = NULL;
	if (strnlen(raw, LINE_LONG) == LINE_LONG) {
		const char *c1 = find_merged(raw);
		bound = c1 ? (char *)find_merged(c1) : NULL;
		if (bound) {
			bound_c = *bound;
			*bound = '\0';
		}
	}
	size_t rl = strlen(raw);
	/* blanks, and the closing backticks of a paste's inline code */
	while (rl && (raw[rl - 1] == ' ' || raw[rl - 1] == '\t' || raw[rl - 1] == '`'))
		raw[--rl] = '\0';
	/* A mail archive's raw view of a quoted-printable mail (its header
	 * says "Content-Transfer-Encoding: quoted-printable"): a line cut at
	 * 76 columns ends in "=" and goes on at the next line's start, and
	 * "=3D" is "=" (RFC 2045 6.7). The rest is joined to the line before
	 * (which keeps its number), the escapes decoded. */
	if (ps->qp) {
		qp_decode(raw);
		rl = strlen(raw);
		bool soft = rl && raw[rl - 1] == '=';
		if (soft)
			raw[--rl] = '\0';
		bool join = ps->qp_soft && out->n > 0;
		ps->qp_soft = soft;
		if (join) {
			join_wrapped(ps, "", raw, raw);
			goto done;
		}
	}
	bool was_wrap_ok = ps->wrap_ok;
	size_t prev_len = ps->prev_len;
	ps->wrap_ok = false;
	ps->prev_len = rl;
	if (is_boot_separator(raw)) {
		end_boot(out);
		out->boots += ps->seen_any;
		ps->seen_any = false;
		goto done;
	}
	/* journalctl's other "-- ..." lines (Logs begin at, No entries,
	 * catalog text of -x) are not kernel messages. */
	if (lx_str_starts_with(raw, "-- ") || rl == 0) {
		/* a blank line (or a code fence) ends a record: the next line
		 * begins one however far it is indented */
		if (rl == 0)
			ps->indent = SIZE_MAX;
		goto done;
	}
	char *body = (char *)skip_paste_marks(raw);
	if (*body == '|' && raw[rl - 1] == '|' && raw + rl - 1 > body) {
		/* a table row: its closing border too */
		raw[--rl] = '\0';
		while (rl && raw[rl - 1] == ' ')
			raw[--rl] = '\0';
	}
	body = (char *)skip_frame(body);
	/* A record's later lines are indented under its first. A paste
	 * indented as a whole (a mail's or a forum's code block: every line
	 * four blanks in) indents its messages too: only a line indented
	 * deeper than the line that began the record before is one of its
	 * later lines. */
	size_t indent = strspn(body, " \t");
	bool indented = indent > ps->indent;
	const char *start = body + strspn(body, " \t");
	if (json_field_line(start))
		goto done;
	unwrapped = unwrap_quoted(body);
	const char *msg = unwrapped ? unwrapped : start;
	bool own_stamp = unwrapped != NULL;
	size_t key = unwrapped ? 0 : field_key(start);
	if (key) {
		if (key != 7 || strncmp(start, "MESSAGE", 7) != 0)
			goto done; /* a record's field, not its message */
		msg = start + 8;
		own_stamp = true;
	}
	if (unwrapped || key) {
		indented = false;
		indent = 0;
	}
	msg += strspn(msg, " \t");
	const char *bare = msg;
	msg = skip_kmsg_header(msg);
	msg = skip_level(msg);
	msg = skip_rfc5424(msg);
	msg = skip_talos(msg);
	msg = skip_iso_stamp(msg);
	msg = skip_unix_stamp(msg);
	msg = skip_cri_stream(msg);
	msg = skip_bracket_stamp(msg);
	msg = skip_kernel_tag(msg);
	msg = skip_bracket_stamp(msg); /* "kernel: [   20.5] ..." of syslog */
	own_stamp |= msg != bare || stamped(bare); /* a stamp before another program's name too */
	/* another message fused to this one (a lost newline): it is read as
	 * a line of its own after this one */
	merged = unwrapped ? NULL : (char *)find_merged(msg);
	if (merged) {
		saved = *merged;
		*merged = '\0';
		rl = (size_t)(merged - raw);
		while (rl && raw[rl - 1] == ' ')
			raw[--rl] = '\0';
		ps->prev_len = rl;
	}
	/* a message syslog wrote once for several: as often as it came
	 * (the rows that count repetitions) */
	const char *again = NULL;
	size_t again_len = 0;
	unsigned times = repeat_note(msg, &again, &again_len);
	const char *host = month_time(bare);
	if (!times && host && *host == ' ') {
		/* syslogd's own line: "Aug 14 16:13:12 host last message repeated ..." */
		host += 1 + strcspn(host + 1, " ");
		times = *host == ' ' ? repeat_note(host + 1, &again, &again_len) : 0;
	}
	if (times) {
		/* a note after nothing, or after a message's later line, repeats nothing */
		bool whole = out->n > 0 && !out->lines[out->n - 1].continuation;
		_cleanup_free_ char *text = again ? lx_xstrndup(again, again_len)
						  : whole ? lx_xstrdup(out->lines[out->n - 1].text) : NULL;
		for (unsigned t = 0; text && t < times && ps->repeated < REPEATS_MAX; t++, ps->repeated++)
			add_line(out, lx_xstrdup(text), lx_xstrdup(raw), lineno, false);
		ps->seen_any = true;
		if (merged)
			*merged = saved;
		goto done;
	}
	/* An indented line that had a stamp of its own is a new message. */
	bool continuation = indented && !own_stamp && out->n > 0;
	const char *wrap_sep = NULL;
	if (!indented && !own_stamp && was_wrap_ok && out->n > 0 && !lx_str_starts_with(msg, "NVRM:") &&
	    strlen(out->lines[out->n - 1].text) + rl < RECORD_MAX) {
		ps->prev_len = prev_len;
		wrap_sep = wrap_join(ps, msg);
		ps->prev_len = rl;
	}
	if (wrap_sep) {
		join_wrapped(ps, wrap_sep, msg, raw);
		ps->wrap_ok = rl >= WRAP_MIN;
	} else {
		if (!continuation)
			ps->indent = indent;
		if (!continuation && lx_str_starts_with(msg, "Linux version ") && ps->seen_any) {
			end_boot(out);
			out->boots++;
		}
		/* syslog writes a record's newlines as "#012", /dev/kmsg as
		 * "\\x0a" (talosctl dmesg and `cat /dev/kmsg` show it so), a
		 * shipper's quoted field as "\\n" (undone above): the parts after
		 * the first are its continuation, unless a part has a stamp of its
		 * own */
		const char *q = msg;
		bool first = true;
		while (first || *q) {
			const char *sep = strstr(q, "#012");
			const char *kmsg_nl = strstr(q, "\\x0a");
			if (kmsg_nl && (!sep || kmsg_nl < sep))
				sep = kmsg_nl;
			const char *brk = unwrapped ? strchr(q, '\n') : NULL;
			size_t seplen = 4;
			if (brk && (!sep || brk < sep)) {
				sep = brk;
				seplen = 1;
			}
			size_t m = sep ? (size_t)(sep - q) : strlen(q);
			const char *part = q;
			bool part_stamp = false;
			if (unwrapped && !first) {
				part = skip_kernel_tag(skip_bracket_stamp(q));
				part = skip_bracket_stamp(part);
				part_stamp = part != q;
				m -= (size_t)(part - q);
			}
			add_line(out, lx_xstrndup(part, m), first ? lx_xstrdup(raw) : lx_xstrndup(part, m), lineno,
				 (continuation || !first) && !part_stamp);
			first = false;
			q = part + m + (sep ? seplen : 0);
			if (!sep)
				break;
		}
		ps->wrap_ok = (own_stamp || continuation) && !unwrapped && rl >= WRAP_MIN;
	}
	ps->seen_any = true;
	if (merged)
		*merged = saved;
done:
	if (bound) {
		*bound = bound_c;
		if (!merged)
			merged = bound;
	}
	return merged;
}

void lx_kmsg_parse_text(const char *name, const char *text, size_t len, struct lx_kmsg *out)
{
	size_t plen = 0;
	_cleanup_free_ char *plain = plain_text(text, len, &plen);
	text = plain;
	len = plen;
	_cleanup_free_ unsigned *linenos = NULL;
	_cleanup_free_ char *ordered = unreverse(text, len, &linenos);
	if (ordered) {
		text = ordered;
		len = strlen(ordered);
	}
	memset(out, 0, sizeof(*out));
	out->source = lx_xstrdup(name);
	out->boots = 1;
	struct parser ps = {.out = out,
			    .qp = memmem(text, len, "Content-Transfer-Encoding: quoted-printable",
					 strlen("Content-Transfer-Encoding: quoted-printable")) != NULL};
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t n = (size_t)(e - p);
		while (n && p[n - 1] == ' ')
			n--;
		if (n > ps.widest) {
			ps.widest = n;
			ps.n_widest = 0;
		}
		ps.n_widest += n == ps.widest;
		size_t lead = strspn(p, " \t");
		if (n > ps.mail_widest && lead < n && memchr(p + lead, ' ', n - lead))
			ps.mail_widest = n;
		p = e + 1;
	}
	const char *p = text;
	for (unsigned physical = 0; p < end; physical++) {
		unsigned lineno = linenos ? linenos[physical] : physical + 1;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = lx_xstrndup(p, n); /* a NUL byte ends the line */
		p += n + (nl != NULL);
		for (char *seg = raw; seg;)
			seg = take_line(&ps, seg, lineno);
		free(raw);
	}
}

int lx_kmsg_read_file(const char *path, struct lx_kmsg *out, struct lx_error *err)
{
	char *text = NULL;
	size_t len = 0;
	if (lx_read_file(path, KMSG_FILE_MAX, &text, &len, err) < 0) {
		memset(out, 0, sizeof(*out));
		return lx_error_prefix(err, "--kmsg");
	}
	lx_kmsg_parse_text(path, text, len, out);
	free(text);
	return 0;
}

/* nv.c's banner "NVRM: loading NVIDIA UNIX [Open ]Kernel Module [for
 * x86_64 ] <version> ...": the module the lines after it came from. */
char *lx_kmsg_module_version_before(const struct lx_kmsg *log, size_t line)
{
	for (size_t i = line < log->n ? line + 1 : log->n; i-- > 0;) {
		const char *t = strstr(log->lines[i].text, "NVRM: loading NVIDIA UNIX ");
		const char *km = t ? strstr(t, "Kernel Module") : NULL;
		if (!km)
			continue;
		const char *p = km + strlen("Kernel Module");
		if (lx_str_starts_with(p, " for "))
			p += strcspn(p + 5, " ") + 5;
		p += strspn(p, " ");
		size_t n = strspn(p, "0123456789.");
		if (n && isdigit((unsigned char)*p))
			return lx_xstrndup(p, n);
	}
	return NULL;
}
