/* The kernel log: /dev/kmsg read without blocking, or a saved dmesg /
 * journalctl / syslog text, reduced to the current boot's messages. */
#include "lxgpu/doctor.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KMSG_RECORD_MAX (64u << 10)
#define KMSG_FILE_MAX (256u << 20)

static void add_line(struct lx_kmsg *k, char *text, char *raw, unsigned lineno, bool continuation)
{
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

void lx_kmsg_free(struct lx_kmsg *k)
{
	drop_lines(k);
	free(k->lines);
	free(k->source);
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
		else if (!strchr(" .:+-,<>", *p) && !isalpha((unsigned char)*p))
			return s;
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

/* A log shipper's record holding the kernel line as a quoted string:
 * journalctl -o json's "MESSAGE":"...", logfmt's msg="..." (Loki, Vector,
 * Promtail); the string with its escapes undone ("\\n" a newline: a
 * message of several lines), or NULL when the line is not such a record. */
static char *unwrap_quoted(const char *line)
{
	const char *v = NULL;
	const char *p = line + strspn(line, " \t");
	if (*p == '{') {
		v = strstr(p, "\"MESSAGE\":");
		if (v) {
			v += strlen("\"MESSAGE\":");
			v += strspn(v, " ");
		}
	} else {
		for (const char *m = strstr(line, "msg=\""); m && !v; m = strstr(m + 1, "msg=\""))
			if (m == line || m[-1] == ' ' || m[-1] == '\t')
				v = m + strlen("msg=");
	}
	if (!v || *v != '"')
		return NULL;
	struct lx_buf b = {0};
	for (v++; *v && *v != '"'; v++) {
		if (*v != '\\' || !v[1]) {
			lx_buf_printf(&b, "%c", *v);
			continue;
		}
		v++;
		char c = *v == 'n' ? '\n' : *v == 't' ? ' ' : *v == 'r' ? ' ' : *v;
		if (*v == 'u' && isxdigit((unsigned char)v[1]) && isxdigit((unsigned char)v[2]) &&
		    isxdigit((unsigned char)v[3]) && isxdigit((unsigned char)v[4])) {
			char hex[5] = {v[1], v[2], v[3], v[4], 0};
			unsigned long u = strtoul(hex, NULL, 16);
			c = u == 0x2019 || u == 0x2018 ? '\'' : u >= 0x20 && u < 0x7f ? (char)u : '?';
			v += 4;
		}
		lx_buf_printf(&b, "%c", c);
	}
	if (!b.data)
		lx_buf_puts(&b, "");
	return lx_buf_steal(&b);
}

/* The kernel prints ASCII apostrophes; a log that went through a word
 * processor or a forum has typographic ones (U+2018, U+2019). */
static char *plain_quotes(const char *s, size_t n)
{
	char *out = lx_xstrndup(s, n);
	char *w = out;
	for (const char *r = out; *r;) {
		if ((unsigned char)r[0] == 0xe2 && (unsigned char)r[1] == 0x80 &&
		    ((unsigned char)r[2] == 0x98 || (unsigned char)r[2] == 0x99)) {
			*w++ = '\'';
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return out;
}

void lx_kmsg_parse_text(const char *name, const char *text, size_t len, struct lx_kmsg *out)
{
	_cleanup_free_ unsigned *linenos = NULL;
	_cleanup_free_ char *ordered = unreverse(text, len, &linenos);
	if (ordered) {
		text = ordered;
		len = strlen(ordered);
	}
	memset(out, 0, sizeof(*out));
	out->source = lx_xstrdup(name);
	out->boots = 1;
	bool seen_any = false;
	const char *p = text, *end = text + len;
	for (unsigned physical = 0; p < end; physical++) {
		unsigned lineno = linenos ? linenos[physical] : physical + 1;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = lx_xstrndup(p, n);
		p += n + (nl != NULL);
		size_t rl = strlen(raw); /* a NUL byte ends the line */
		while (rl && (raw[rl - 1] == '\r' || raw[rl - 1] == ' '))
			raw[--rl] = '\0';
		if (is_boot_separator(raw)) {
			drop_lines(out);
			out->boots += seen_any;
			seen_any = false;
			free(raw);
			continue;
		}
		/* journalctl's other "-- ..." lines (Logs begin at, No entries,
		 * catalog text of -x) are not kernel messages. */
		if (lx_str_starts_with(raw, "-- ") || rl == 0) {
			free(raw);
			continue;
		}
		const char *body = skip_paste_marks(raw);
		bool indented = body[0] == ' ' || body[0] == '\t';
		_cleanup_free_ char *unwrapped = unwrap_quoted(body);
		if (unwrapped)
			indented = false;
		const char *msg = unwrapped ? unwrapped : body;
		while (*msg == ' ' || *msg == '\t')
			msg++;
		msg = skip_kmsg_header(msg);
		msg = skip_level(msg);
		msg = skip_talos(msg);
		msg = skip_iso_stamp(msg);
		msg = skip_bracket_stamp(msg);
		msg = skip_kernel_tag(msg);
		msg = skip_bracket_stamp(msg); /* "kernel: [   20.5] ..." of syslog */
		/* An indented line that had a stamp of its own is a new message. */
		bool continuation = indented && msg == body + strspn(body, " \t") && out->n > 0;
		if (!continuation && lx_str_starts_with(msg, "Linux version ") && seen_any) {
			drop_lines(out);
			out->boots++;
		}
		/* syslog writes a record's newlines as "#012", a shipper's quoted
		 * field as "\\n" (undone above): the parts after the first are
		 * its continuation, unless a part has a stamp of its own */
		const char *q = msg;
		bool first = true;
		while (first || *q) {
			const char *sep = strstr(q, "#012");
			const char *brk = unwrapped ? strchr(q, '\n') : NULL;
			size_t seplen = 4;
			if (brk && (!sep || brk < sep)) {
				sep = brk;
				seplen = 1;
			}
			size_t m = sep ? (size_t)(sep - q) : strlen(q);
			const char *part = q;
			bool own_stamp = false;
			if (unwrapped && !first) {
				part = skip_kernel_tag(skip_bracket_stamp(q));
				part = skip_bracket_stamp(part);
				own_stamp = part != q;
				m -= (size_t)(part - q);
			}
			add_line(out, plain_quotes(part, m), first ? lx_xstrdup(raw) : lx_xstrndup(part, m), lineno,
				 (continuation || !first) && !own_stamp);
			first = false;
			q = part + m + (sep ? seplen : 0);
			if (!sep)
				break;
		}
		seen_any = true;
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
