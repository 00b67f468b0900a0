/* git mailinfo's rules over one mail; see mailparse/mailinfo.h.
 *
 * This follows git 2.39.5's mailinfo.c function by function (the names in
 * the comments are git's), because byte-for-byte equality with `git am` is
 * the point.  git reads the mail through stdio, and some of its output
 * depends on stdio's sticky end-of-file flag, so the mail is read through a
 * small reader that behaves the same way (struct reader).  git's strbufs
 * become GStrings; where git uses C-string functions on a buffer that may
 * hold NUL bytes, we do the same so that a NUL cuts the same things off. */
#include "mailparse/mailinfo.h"

#include <string.h>

#include "mailparse/charset.h"
#include "mailparse/msgid.h"
#include "mailparse/rfc2047.h"
#include "mailparse/transfer.h"

/* git mailinfo.h: content[0] stays NULL, so four nested boundaries fit */
#define MAX_BOUNDARIES 5

enum header_index { HDR_FROM, HDR_SUBJECT, HDR_DATE, HDR_COUNT };
static const char *const header_names[HDR_COUNT] = { "From", "Subject",
						     "Date" };

G_DEFINE_QUARK(mailinfo - error - quark, mailinfo_error)

enum transfer_encoding { TE_DONTCARE, TE_QP, TE_BASE64 };

/* stdio as git uses it on the mail: getc/ungetc to peek, getdelim for
 * lines, and an end-of-file flag that stays set once a read hits the end
 * (glibc), so that a later getdelim returns EOF without touching its
 * buffer */
struct reader {
	const char *buf;
	gsize len;
	gsize pos;
	gboolean eof;
};

struct mailinfo {
	const struct mailinfo_options *opts;
	struct reader in;
	struct charset_converter *conv;

	GString *name;
	GString *email;
	GString *charset; /* of the current part's text */
	GString *log_message;
	GString *patch;
	GString *inbody_header_accum;
	GString *p_hdr_data[HDR_COUNT]; /* mail (and part) headers */
	GString *s_hdr_data[HDR_COUNT]; /* in-body headers */
	GString *content[MAX_BOUNDARIES];
	int content_top;
	enum transfer_encoding transfer_encoding;
	char *message_id; /* for --message-id */
	char *last_message_id;
	char *undecodable; /* the first header decode_header() gave up on */
	const char *decoding; /* the header being decoded */
	gboolean format_flowed;
	gboolean delsp;
	gboolean have_quoted_cr;
	gboolean header_stage;
	int filter_stage;
	guint patch_lines;
	gboolean input_error;
	GString *diagnostics;
};

/* git's isspace() (sane_ctype): only space, \t, \n and \r */
static inline gboolean git_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int reader_getc(struct reader *r)
{
	if (r->pos >= r->len) {
		r->eof = TRUE;
		return -1;
	}
	return (unsigned char)r->buf[r->pos++];
}

static void reader_ungetc(struct reader *r)
{
	r->pos--;
	r->eof = FALSE;
}

/* strbuf_getwholeline(): the next line with its '\n'; FALSE at the end,
 * leaving @sb alone if the end had already been seen */
static gboolean reader_getwholeline(struct reader *r, GString *sb)
{
	const char *nl;
	gsize n;

	if (r->eof)
		return FALSE;
	g_string_truncate(sb, 0);
	if (r->pos >= r->len) {
		r->eof = TRUE;
		return FALSE;
	}
	nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
	if (nl) {
		n = nl - (r->buf + r->pos) + 1;
	} else {
		n = r->len - r->pos;
		r->eof = TRUE;
	}
	g_string_append_len(sb, r->buf + r->pos, n);
	r->pos += n;
	return TRUE;
}

/* strbuf_getline_lf(): the same without the '\n' */
static gboolean reader_getline(struct reader *r, GString *sb)
{
	if (!reader_getwholeline(r, sb))
		return FALSE;
	if (sb->str[sb->len - 1] == '\n')
		g_string_truncate(sb, sb->len - 1);
	return TRUE;
}

static void gstring_rtrim(GString *sb)
{
	while (sb->len > 0 && git_isspace((unsigned char)sb->str[sb->len - 1]))
		sb->len--;
	sb->str[sb->len] = '\0';
}

/* strbuf_trim() */
static void gstring_trim(GString *sb)
{
	gsize skip = 0;

	gstring_rtrim(sb);
	while (skip < sb->len && git_isspace((unsigned char)sb->str[skip]))
		skip++;
	g_string_erase(sb, 0, skip);
}

static void gstring_set(GString **slot, const GString *value)
{
	if (!*slot)
		*slot = g_string_sized_new(value->len);
	g_string_truncate(*slot, 0);
	g_string_append_len(*slot, value->str, value->len);
}

static void gstring_clear(GString **slot)
{
	if (*slot)
		g_string_free(*slot, TRUE);
	*slot = NULL;
}

/* ASCII strcasestr() on C strings */
static const char *ascii_strcasestr(const char *hay, const char *needle)
{
	gsize n = strlen(needle);

	for (; *hay; hay++)
		if (!g_ascii_strncasecmp(hay, needle, n))
			return hay;
	return NULL;
}

/* git's vreportf(): at most 4095 bytes, control characters but tab and
 * newline shown as '?', then a newline */
static void mi_report(struct mailinfo *mi, GString *msg)
{
	if (msg->len > 4095)
		g_string_truncate(msg, 4095);
	for (gsize i = 0; i < msg->len; i++) {
		unsigned char c = msg->str[i];

		if (!c) {
			g_string_truncate(msg, i);
			break;
		}
		if ((c < 0x20 || c == 0x7f) && c != '\t' && c != '\n')
			msg->str[i] = '?';
	}
	g_string_append_len(mi->diagnostics, msg->str, msg->len);
	g_string_append_c(mi->diagnostics, '\n');
}

static void mi_error(struct mailinfo *mi, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
static void mi_error(struct mailinfo *mi, const char *fmt, ...)
{
	g_autoptr(GString) msg = g_string_new("error: ");
	va_list ap;

	va_start(ap, fmt);
	g_string_append_vprintf(msg, fmt, ap);
	va_end(ap);
	mi_report(mi, msg);
}

/* cleanup_space(): every run of whitespace becomes one space (in one pass:
 * git removes each run with a memmove, quadratic on hostile input) */
static void cleanup_space(GString *sb)
{
	gsize rd = 0, wr = 0;
	const gsize len = sb->len;

	while (rd < len) {
		char c = sb->str[rd++];

		if (git_isspace((unsigned char)c)) {
			sb->str[wr++] = ' ';
			while (rd < len &&
			       git_isspace((unsigned char)sb->str[rd]))
				rd++;
		} else {
			sb->str[wr++] = c;
		}
	}
	g_string_truncate(sb, wr);
}

/* get_sane_name(): the name unless empty, too long or address-like */
static void get_sane_name(GString *out, const GString *name,
			  const GString *email)
{
	const GString *src = name;

	if (!name->len || 60 < name->len || strpbrk(name->str, "@<>"))
		src = email;
	else if (name == out)
		return;
	if (src == out)
		return;
	g_string_truncate(out, 0);
	g_string_append_len(out, src->str, src->len);
}

/* parse_bogus_from(): "John Doe <johndoe>", an address without '@' */
static void parse_bogus_from(struct mailinfo *mi, const GString *line)
{
	const char *bra, *ket;

	if (mi->email->len)
		return;
	bra = strchr(line->str, '<');
	if (!bra)
		return;
	ket = strchr(bra, '>');
	if (!ket)
		return;
	g_string_truncate(mi->email, 0);
	g_string_append_len(mi->email, bra + 1, ket - bra - 1);
	g_string_truncate(mi->name, 0);
	g_string_append_len(mi->name, line->str, bra - line->str);
	gstring_trim(mi->name);
	get_sane_name(mi->name, mi->name, mi->email);
}

/* unquote_quoted_pair() with unquote_quoted_string() and unquote_comment():
 * RFC 5322 quoted strings lose their quotes and backslashes, comments keep
 * their parentheses.  git recurses into nested comments; we count depth.
 * git also reads past the terminating NUL of an unterminated string or
 * comment; we stop there. */
static void unquote_quoted_pair(GString *line)
{
	g_autoptr(GString) out = g_string_sized_new(line->len);
	const char *in = line->str;
	gsize depth = 0; /* inside a comment */
	gboolean quoted = FALSE; /* inside a quoted string */
	gboolean literal = FALSE;
	int c;

	while ((c = (unsigned char)*in++) != 0) {
		if (literal) {
			literal = FALSE;
		} else if (quoted) {
			if (c == '\\') {
				literal = TRUE;
				continue;
			}
			if (c == '"') {
				quoted = FALSE;
				continue;
			}
		} else if (depth) {
			if (c == '\\') {
				literal = TRUE;
				continue;
			}
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
		} else if (c == '"') {
			quoted = TRUE;
			continue;
		} else if (c == '(') {
			depth = 1;
		}
		g_string_append_c(out, c);
	}
	g_string_truncate(line, 0);
	g_string_append_len(line, out->str, out->len);
}

/* handle_from(): the address around the '@', the rest is the name */
static void handle_from(struct mailinfo *mi, const GString *from)
{
	g_autoptr(GString) f = g_string_new_len(from->str, from->len);
	char *at;
	gsize el;

	unquote_quoted_pair(f);
	at = strchr(f->str, '@');
	if (!at) {
		parse_bogus_from(mi, from);
		return;
	}
	/* if we already have one email, don't take any confusing lines */
	if (mi->email->len && strchr(at + 1, '@'))
		return;
	/* pick up the string around '@', possibly delimited with <> */
	while (at > f->str) {
		char c = at[-1];

		if (git_isspace((unsigned char)c))
			break;
		if (c == '<') {
			at[-1] = ' ';
			break;
		}
		at--;
	}
	el = strcspn(at, " \n\t\r\v\f>");
	g_string_truncate(mi->email, 0);
	g_string_append_len(mi->email, at, el);
	g_string_erase(f, at - f->str, el + (at[el] ? 1 : 0));

	/* the remainder is the name: "John Doe <john.doe@xz>",
	 * "john.doe@xz (John Doe)", "John (zzz) Doe <john.doe@xz> (Comment)" */
	cleanup_space(f);
	gstring_trim(f);
	if (f->str[0] == '(' && f->len && f->str[f->len - 1] == ')') {
		g_string_erase(f, 0, 1);
		g_string_truncate(f, f->len - 1);
	}
	get_sane_name(mi->name, f, mi->email);
}

/* slurp_attr(): the value of a "name=" attribute, quoted or up to "; \t";
 * git does not parse MIME parameters, it searches for the text */
static gboolean slurp_attr(const char *line, const char *name, GString *attr)
{
	const char *ap = ascii_strcasestr(line, name);
	const char *ends;

	g_string_truncate(attr, 0);
	if (!ap)
		return FALSE;
	ap += strlen(name);
	if (*ap == '"') {
		ap++;
		ends = "\"";
	} else {
		ends = "; \t";
	}
	g_string_append_len(attr, ap, strcspn(ap, ends));
	return TRUE;
}

static gboolean has_attr_value(const char *line, const char *name,
			       const char *value)
{
	g_autoptr(GString) sb = g_string_new(NULL);

	return slurp_attr(line, name, sb) &&
	       !g_ascii_strcasecmp(sb->str, value);
}

/* handle_content_type() */
static void handle_content_type(struct mailinfo *mi, const GString *line)
{
	g_autoptr(GString) boundary = g_string_new(NULL);

	mi->format_flowed = has_attr_value(line->str, "format=", "flowed");
	mi->delsp = has_attr_value(line->str, "delsp=", "yes");
	if (slurp_attr(line->str, "boundary=", boundary)) {
		g_string_prepend(boundary, "--");
		if (++mi->content_top >= MAX_BOUNDARIES) {
			mi_error(mi, "Too many boundaries to handle");
			mi->input_error = TRUE;
			mi->content_top = MAX_BOUNDARIES - 1;
			return;
		}
		mi->content[mi->content_top] = g_steal_pointer(&boundary);
	}
	slurp_attr(line->str, "charset=", mi->charset);
}

static void handle_content_transfer_encoding(struct mailinfo *mi,
					     const GString *line)
{
	if (ascii_strcasestr(line->str, "base64"))
		mi->transfer_encoding = TE_BASE64;
	else if (ascii_strcasestr(line->str, "quoted-printable"))
		mi->transfer_encoding = TE_QP;
	else
		mi->transfer_encoding = TE_DONTCARE;
}

static gboolean is_multipart_boundary(struct mailinfo *mi, const GString *line)
{
	const GString *top = mi->content[mi->content_top];

	return top->len <= line->len && !memcmp(line->str, top->str, top->len);
}

/* cleanup_subject(): strip "Re:", ":", blanks and "[...]" from the start;
 * with -b keep brackets that do not contain "PATCH".  git removes each
 * piece with a memmove; everything before git's cursor is kept and every
 * removal happens at the cursor, so one pass gives the same string. */
static void cleanup_subject(GString *subject, gboolean keep_non_patch)
{
	g_autoptr(GString) out = g_string_sized_new(subject->len);
	const char *s = subject->str;
	const gsize len = subject->len;
	gsize rd = 0;

	while (rd < len) {
		const char *pos;
		gsize remove;
		gboolean stop = FALSE;

		switch (s[rd]) {
		case 'r':
		case 'R':
			if (len - rd <= 3) {
				stop = TRUE;
				break;
			}
			if ((s[rd + 1] == 'e' || s[rd + 1] == 'E') &&
			    s[rd + 2] == ':') {
				rd += 3;
				continue;
			}
			/* git moves on by one and stops */
			g_string_append_c(out, s[rd++]);
			stop = TRUE;
			break;
		case ' ':
		case '\t':
		case ':':
			rd++;
			continue;
		case '[':
			pos = strchr(s + rd, ']');
			if (!pos) {
				stop = TRUE;
				break;
			}
			remove = pos - (s + rd) + 1;
			if (!keep_non_patch ||
			    (7 <= remove &&
			     g_strstr_len(s + rd, remove, "PATCH"))) {
				rd += remove;
			} else {
				g_string_append_len(out, s + rd, remove);
				rd += remove;
				/* keep a space after the ']' */
				if (git_isspace((unsigned char)s[rd]))
					g_string_append_c(out, s[rd++]);
			}
			continue;
		default:
			stop = TRUE;
			break;
		}
		if (stop)
			break;
	}
	g_string_append_len(out, s + rd, len - rd);
	g_string_truncate(subject, 0);
	g_string_append_len(subject, out->str, out->len);
	gstring_trim(subject);
}

/* skip_header(): "Name:" case-insensitively, then the value after any
 * whitespace */
static gboolean skip_header(const GString *line, const char *hdr,
			    const char **outval)
{
	gsize n = strlen(hdr);
	const char *val;

	if (g_ascii_strncasecmp(line->str, hdr, n))
		return FALSE;
	val = line->str + n;
	if (*val++ != ':')
		return FALSE;
	while (git_isspace((unsigned char)*val))
		val++;
	*outval = val;
	return TRUE;
}

/* is_format_patch_separator(): the "From <sha1> Mon Sep 17 00:00:00 2001"
 * line of git format-patch */
static gboolean is_format_patch_separator(const char *line, gsize len)
{
	static const char sample[] = "From e6807f3efca28b30decfecb1732a56c7db"
				     "1137ee Mon Sep 17 00:00:00 2001\n";
	const char *cp;

	if (len != strlen(sample))
		return FALSE;
	if (strncmp(line, "From ", 5))
		return FALSE;
	cp = line + 5;
	if (strspn(cp, "0123456789abcdef") != 40)
		return FALSE;
	cp += 40;
	return !memcmp(sample + (cp - line), cp, strlen(sample) - (cp - line));
}

/* convert_to_utf8(): re-code @line from @charset to the output charset;
 * FALSE (and git's error) when iconv cannot */
static gboolean convert_to_utf8(struct mailinfo *mi, GString *line,
				const char *charset)
{
	g_autoptr(GError) error = NULL;

	if (charset_recode(mi->conv, line, mi->opts->charset, charset, &error))
		return TRUE;
	mi->input_error = TRUE;
	mi_error(mi, "%s", error->message);
	return FALSE;
}

/* decode_header(): RFC 2047 encoded words (mailparse/rfc2047.h).  A
 * malformed header is kept as it was and makes git exit 1 (silently,
 * unless a charset was the problem). */
static void decode_header(struct mailinfo *mi, GString *it)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) out = rfc2047_decode(
		it->str, it->len, mi->opts->charset, mi->conv, &error);

	if (out) {
		g_string_truncate(it, 0);
		g_string_append_len(it, out->str, out->len);
		return;
	}
	if (g_error_matches(error, RFC2047_ERROR, RFC2047_ERROR_CHARSET))
		mi_error(mi, "%s", error->message);
	mi->input_error = TRUE;
	if (!mi->undecodable)
		mi->undecodable = g_strdup(mi->decoding ? mi->decoding : "?");
}

/* parse_header(): does @line hold header @hdr?  Then its value, decoded,
 * is appended to @val */
static gboolean parse_header(struct mailinfo *mi, const GString *line,
			     const char *hdr, GString *val)
{
	const char *val_str;

	if (!skip_header(line, hdr, &val_str))
		return FALSE;
	g_string_append(val, val_str);
	mi->decoding = hdr;
	decode_header(mi, val);
	mi->decoding = NULL;
	return TRUE;
}

/* check_header(): From/Subject/Date into @hdr_data (only the first of each
 * unless @overwrite), and the MIME headers that steer the body */
static gboolean check_header(struct mailinfo *mi, const GString *line,
			     GString **hdr_data, gboolean overwrite)
{
	g_autoptr(GString) sb = g_string_new(NULL);

	for (int i = 0; i < HDR_COUNT; i++) {
		if ((!hdr_data[i] || overwrite) &&
		    parse_header(mi, line, header_names[i], sb)) {
			gstring_set(&hdr_data[i], sb);
			return TRUE;
		}
	}
	if (parse_header(mi, line, "Content-Type", sb)) {
		handle_content_type(mi, sb);
		return TRUE;
	}
	if (parse_header(mi, line, "Content-Transfer-Encoding", sb)) {
		handle_content_transfer_encoding(mi, sb);
		return TRUE;
	}
	if (parse_header(mi, line, "Message-ID", sb)) {
		g_free(mi->last_message_id);
		mi->last_message_id = g_strdup(sb->str);
		if (mi->opts->add_message_id) {
			g_free(mi->message_id);
			mi->message_id = g_strdup(sb->str);
		}
		return TRUE;
	}
	return FALSE;
}

/* is_inbody_header(): a From/Subject/Date line not seen in the body yet */
static gboolean is_inbody_header(const struct mailinfo *mi, const GString *line)
{
	const char *val;

	for (int i = 0; i < HDR_COUNT; i++)
		if (!mi->s_hdr_data[i] &&
		    skip_header(line, header_names[i], &val))
			return TRUE;
	return FALSE;
}

static void decode_transfer_encoding(struct mailinfo *mi, GString *line)
{
	g_autoptr(GString) ret = NULL;

	switch (mi->transfer_encoding) {
	case TE_QP:
		ret = transfer_decode_qp(line->str, FALSE);
		break;
	case TE_BASE64:
		ret = transfer_decode_base64(line->str);
		break;
	case TE_DONTCARE:
	default:
		return;
	}
	g_string_truncate(line, 0);
	g_string_append_len(line, ret->str, ret->len);
}

gboolean mailinfo_is_patch_break(const char *line, gsize len)
{
	/* a "diff -" header, or CVS "Index: " */
	if (g_str_has_prefix(line, "diff -") ||
	    g_str_has_prefix(line, "Index: "))
		return TRUE;
	/* "--- <filename>" starts patches without headers, "---<sp>*" is a
	 * manual separator */
	if (len < 4)
		return FALSE;
	if (g_str_has_prefix(line, "---")) {
		if (line[3] == ' ' && !git_isspace((unsigned char)line[4]))
			return TRUE;
		for (gsize i = 3; i < len; i++) {
			unsigned char c = line[i];

			if (c == '\n')
				return TRUE;
			if (!git_isspace(c))
				break;
		}
	}
	return FALSE;
}

gboolean mailinfo_is_scissors_line(const char *line)
{
	const char *c;
	int scissors = 0, gap = 0;
	const char *first_nonblank = NULL, *last_nonblank = NULL;
	int perforation = 0, in_perforation = 0;
	gsize visible;

	for (c = line; *c; c++) {
		if (git_isspace((unsigned char)*c)) {
			if (in_perforation) {
				perforation++;
				gap++;
			}
			continue;
		}
		last_nonblank = c;
		if (!first_nonblank)
			first_nonblank = c;
		if (*c == '-') {
			in_perforation = 1;
			perforation++;
			continue;
		}
		if (g_str_has_prefix(c, ">8") || g_str_has_prefix(c, "8<") ||
		    g_str_has_prefix(c, ">%") || g_str_has_prefix(c, "%<")) {
			in_perforation = 1;
			perforation += 2;
			scissors += 2;
			c++;
			continue;
		}
		in_perforation = 0;
	}
	/* git: the mark must be at least 8 bytes long ("-- >8 --"), the
	 * perforation more than a third of the visible width, dashes and
	 * scissors more than half of the perforation */
	if (first_nonblank && last_nonblank)
		visible = last_nonblank - first_nonblank + 1;
	else
		visible = 0;
	return scissors && 8 <= visible && visible < (gsize)perforation * 3 &&
	       gap * 2 < perforation;
}

static void flush_inbody_header_accum(struct mailinfo *mi)
{
	if (!mi->inbody_header_accum->len)
		return;
	/* it holds a line that is_inbody_header() took: this cannot fail */
	check_header(mi, mi->inbody_header_accum, mi->s_hdr_data, FALSE);
	g_string_truncate(mi->inbody_header_accum, 0);
}

/* check_inbody_header(): is @line (still) part of the in-body headers? */
static gboolean check_inbody_header(struct mailinfo *mi, const GString *line)
{
	if (mi->inbody_header_accum->len &&
	    (line->str[0] == ' ' || line->str[0] == '\t')) {
		if (mi->opts->use_scissors > 0 &&
		    mailinfo_is_scissors_line(line->str)) {
			/* a scissors line, not a continuation line */
			flush_inbody_header_accum(mi);
			return FALSE;
		}
		if (mi->inbody_header_accum->len &&
		    mi->inbody_header_accum->str[mi->inbody_header_accum->len -
						 1] == '\n')
			g_string_truncate(mi->inbody_header_accum,
					  mi->inbody_header_accum->len - 1);
		g_string_append_len(mi->inbody_header_accum, line->str,
				    line->len);
		return TRUE;
	}
	flush_inbody_header_accum(mi);
	if (g_str_has_prefix(line->str, ">From") &&
	    git_isspace((unsigned char)line->str[5]))
		return is_format_patch_separator(line->str + 1, line->len - 1);
	if (g_str_has_prefix(line->str, "[PATCH]") &&
	    git_isspace((unsigned char)line->str[7])) {
		gstring_set(&mi->s_hdr_data[HDR_SUBJECT], line);
		return TRUE;
	}
	if (is_inbody_header(mi, line)) {
		g_string_append_len(mi->inbody_header_accum, line->str,
				    line->len);
		return TRUE;
	}
	return FALSE;
}

/* handle_commit_msg(): TRUE when @line starts the patch */
static gboolean handle_commit_msg(struct mailinfo *mi, GString *line)
{
	if (mi->header_stage) {
		if (!line->len || (line->len == 1 && line->str[0] == '\n')) {
			if (mi->inbody_header_accum->len) {
				flush_inbody_header_accum(mi);
				mi->header_stage = FALSE;
			}
			return FALSE;
		}
	}
	if (mi->opts->use_inbody_headers && mi->header_stage) {
		mi->header_stage = check_inbody_header(mi, line);
		if (mi->header_stage)
			return FALSE;
	} else {
		/* only the first (blank) line of the message is trimmed when
		 * in-body headers are ignored */
		mi->header_stage = FALSE;
	}
	/* normalize the log message to UTF-8 */
	if (!convert_to_utf8(mi, line, mi->charset->str))
		return FALSE;
	if (mi->opts->use_scissors > 0 &&
	    mailinfo_is_scissors_line(line->str)) {
		g_string_truncate(mi->log_message, 0);
		mi->header_stage = TRUE;
		/* purge the in-body headers read so far: a clean restart */
		for (int i = 0; i < HDR_COUNT; i++)
			gstring_clear(&mi->s_hdr_data[i]);
		return FALSE;
	}
	if (mailinfo_is_patch_break(line->str, line->len)) {
		/* git 2.39 spells it "Message-Id" (later gits "Message-ID") */
		if (mi->message_id)
			g_string_append_printf(mi->log_message,
					       "Message-Id: %s\n",
					       mi->message_id);
		return TRUE;
	}
	g_string_append_len(mi->log_message, line->str, line->len);
	return FALSE;
}

static void handle_filter(struct mailinfo *mi, GString *line)
{
	if (mi->filter_stage == 0) {
		if (!handle_commit_msg(mi, line))
			return;
		mi->filter_stage = 1;
	}
	g_string_append_len(mi->patch, line->str, line->len);
	mi->patch_lines++;
}

/* is_rfc2822_header(): RFC 5322 3.6.8 field-name = 1*ftext ":" (ftext is
 * %d33-57 / %d59-126), or an mbox "From " line */
static gboolean is_rfc2822_header(const GString *line)
{
	const char *cp = line->str;
	int ch;

	if (g_str_has_prefix(cp, "From ") || g_str_has_prefix(cp, ">From "))
		return TRUE;
	while ((ch = (unsigned char)*cp++)) {
		if (ch == ':')
			return TRUE;
		if ((33 <= ch && ch <= 57) || (59 <= ch && ch <= 126))
			continue;
		break;
	}
	return FALSE;
}

/* read_one_header_line(): one header, RFC 5322 folding undone (each
 * continuation line rtrimmed and joined with one space) */
static gboolean read_one_header_line(struct mailinfo *mi, GString *line)
{
	g_autoptr(GString) continuation = NULL;

	if (!reader_getline(&mi->in, line))
		return FALSE;
	gstring_rtrim(line);
	if (!line->len || !is_rfc2822_header(line)) {
		g_string_append_c(line, '\n');
		return FALSE;
	}
	continuation = g_string_new(NULL);
	for (;;) {
		int peek = reader_getc(&mi->in);

		if (peek < 0)
			break;
		reader_ungetc(&mi->in);
		if (peek != ' ' && peek != '\t')
			break;
		if (!reader_getline(&mi->in, continuation))
			break;
		continuation->str[0] = ' ';
		gstring_rtrim(continuation);
		g_string_append_len(line, continuation->str, continuation->len);
	}
	return TRUE;
}

static gboolean find_boundary(struct mailinfo *mi, GString *line)
{
	while (reader_getline(&mi->in, line))
		if (mi->content[mi->content_top] &&
		    is_multipart_boundary(mi, line))
			return TRUE;
	return FALSE;
}

/* handle_boundary(): at a boundary line; an end boundary pops the stack
 * and skips to the next boundary, else the part's headers are read.
 * FALSE at the end of the input. */
static gboolean handle_boundary(struct mailinfo *mi, GString *line)
{
	/* git releases its "\n" after the first end boundary, so further
	 * end boundaries in a row pass an empty line on */
	g_autoptr(GString) newline = g_string_new("\n");

	for (;;) {
		GString *top = mi->content[mi->content_top];

		if (!(line->len >= top->len + 2 &&
		      !memcmp(line->str + top->len, "--", 2)))
			break;
		/* an end boundary: pop it */
		gstring_clear(&mi->content[mi->content_top]);
		if (--mi->content_top < 0) {
			/* git: cannot happen, is_multipart_boundary() fails
			 * first */
			mi_error(mi, "Detected mismatched boundaries, "
				     "can't recover");
			mi->input_error = TRUE;
			mi->content_top = 0;
			return FALSE;
		}
		handle_filter(mi, newline);
		g_string_truncate(newline, 0);
		if (mi->input_error)
			return FALSE;
		if (!find_boundary(mi, line))
			return FALSE;
	}
	mi->transfer_encoding = TE_DONTCARE;
	g_string_truncate(mi->charset, 0);
	while (read_one_header_line(mi, line))
		check_header(mi, line, mi->p_hdr_data, FALSE);
	if (!reader_getline(&mi->in, line))
		return FALSE;
	g_string_append_c(line, '\n');
	return TRUE;
}

/* handle_filter_flowed(): RFC 3676 format=flowed joins soft line breaks;
 * without it, only the quoted-CR check */
static void handle_filter_flowed(struct mailinfo *mi, GString *line,
				 GString *prev)
{
	gsize len = line->len;

	if (!mi->format_flowed) {
		if (len >= 2 && line->str[len - 2] == '\r' &&
		    line->str[len - 1] == '\n') {
			mi->have_quoted_cr = TRUE;
			if (mi->opts->quoted_cr == MAILINFO_QUOTED_CR_STRIP) {
				g_string_truncate(line, len - 2);
				g_string_append_c(line, '\n');
				len--;
			}
		}
		handle_filter(mi, line);
		return;
	}
	/* git reads line->buf[-1] on an empty line; take it as no newline */
	if (len && line->str[len - 1] == '\n') {
		len--;
		if (len && line->str[len - 1] == '\r')
			len--;
	}
	/* keep the signature separator as it is */
	if (g_str_has_prefix(line->str, "-- ") && len == 3) {
		if (prev->len) {
			handle_filter(mi, prev);
			g_string_truncate(prev, 0);
		}
		handle_filter(mi, line);
		return;
	}
	/* unstuff a space-stuffed line */
	if (len && line->str[0] == ' ') {
		g_string_erase(line, 0, 1);
		len--;
	}
	/* save a flowed line for later, without the soft line break */
	if (len && line->str[len - 1] == ' ') {
		g_string_append_len(prev, line->str, len - (mi->delsp ? 1 : 0));
		return;
	}
	g_string_prepend_len(line, prev->str, prev->len);
	g_string_truncate(prev, 0);
	handle_filter(mi, line);
}

static void summarize_quoted_cr(struct mailinfo *mi)
{
	if (mi->have_quoted_cr &&
	    mi->opts->quoted_cr == MAILINFO_QUOTED_CR_WARN)
		g_string_append(mi->diagnostics,
				"warning: quoted CRLF detected\n");
}

/* A decoded quoted-printable or base64 line may hold several lines or
 * none: pass whole lines on and keep the rest in @prev.  git prepends
 * @prev to the line; appending to it instead keeps this linear on long
 * binary attachments.  @prev never holds a '\n', so the first one is in
 * the new text. */
static void handle_decoded_lines(struct mailinfo *mi, GString *line,
				 GString **prev)
{
	g_autoptr(GString) joined = *prev;
	gsize start = 0, search = joined->len;
	const char *nl;

	*prev = g_string_new(NULL);
	g_string_append_len(joined, line->str, line->len);
	while (start < joined->len) {
		g_autoptr(GString) piece = NULL;
		gsize end;

		nl = memchr(joined->str + search, '\n', joined->len - search);
		if (!nl) {
			/* a partial line, saved for later */
			if (start == 0) {
				/* nothing was passed on, so @prev is empty */
				g_string_free(*prev, TRUE);
				*prev = g_steal_pointer(&joined);
			} else {
				g_string_append_len(*prev, joined->str + start,
						    joined->len - start);
			}
			break;
		}
		end = nl - joined->str + 1;
		piece = g_string_new_len(joined->str + start, end - start);
		handle_filter_flowed(mi, piece, *prev);
		start = search = end;
	}
}

/* handle_body(): the body, part by part, line by line */
static void handle_body(struct mailinfo *mi, GString *line)
{
	g_autoptr(GString) prev = g_string_new(NULL);

	/* skip up to the first boundary */
	if (mi->content[mi->content_top] && !find_boundary(mi, line))
		return;
	do {
		if (mi->content[mi->content_top] &&
		    is_multipart_boundary(mi, line)) {
			/* flush any leftover */
			if (prev->len) {
				handle_filter(mi, prev);
				g_string_truncate(prev, 0);
			}
			summarize_quoted_cr(mi);
			mi->have_quoted_cr = FALSE;
			if (!handle_boundary(mi, line))
				return;
		}
		decode_transfer_encoding(mi, line);
		switch (mi->transfer_encoding) {
		case TE_BASE64:
		case TE_QP:
			handle_decoded_lines(mi, line, &prev);
			break;
		default:
			handle_filter_flowed(mi, line, prev);
		}
		if (mi->input_error)
			break;
	} while (reader_getwholeline(&mi->in, line));

	if (prev->len)
		handle_filter(mi, prev);
	summarize_quoted_cr(mi);
	flush_inbody_header_accum(mi);
}

/* output_header_lines(): one "Subject: " line per line of the value */
static void output_header_lines(GString *out, const char *hdr,
				const GString *data)
{
	const char *sp = data->str;

	for (;;) {
		const char *ep = strchr(sp, '\n');
		int len = ep ? (int)(ep - sp) : (int)strlen(sp);

		g_string_append_printf(out, "%s: %.*s\n", hdr, len, sp);
		if (!ep)
			break;
		sp = ep + 1;
	}
}

/* handle_info(): the info block, from the in-body headers if a patch
 * followed them, else from the mail's */
static void handle_info(struct mailinfo *mi, struct mailinfo_result *r)
{
	for (int i = 0; i < HDR_COUNT; i++) {
		GString *hdr;

		if (mi->patch_lines && mi->s_hdr_data[i])
			hdr = mi->s_hdr_data[i];
		else if (mi->p_hdr_data[i])
			hdr = mi->p_hdr_data[i];
		else
			continue;
		if (memchr(hdr->str, '\0', hdr->len)) {
			mi_error(mi, "a NUL byte in '%s' is not allowed.",
				 header_names[i]);
			mi->input_error = TRUE;
		}
		switch (i) {
		case HDR_SUBJECT:
			if (!mi->opts->keep_subject) {
				cleanup_subject(hdr, mi->opts->keep_non_patch);
				cleanup_space(hdr);
			}
			output_header_lines(r->info, "Subject", hdr);
			r->subject = g_strdup(hdr->str);
			break;
		case HDR_FROM:
			cleanup_space(hdr);
			handle_from(mi, hdr);
			g_string_append_printf(r->info,
					       "Author: %s\nEmail: %s\n",
					       mi->name->str, mi->email->str);
			r->author = g_strdup(mi->name->str);
			r->email = g_strdup(mi->email->str);
			break;
		default:
			cleanup_space(hdr);
			g_string_append_printf(r->info, "%s: %s\n",
					       header_names[i], hdr->str);
			r->date = g_strdup(hdr->str);
			break;
		}
	}
	g_string_append_c(r->info, '\n');
}

static void mailinfo_clear(struct mailinfo *mi)
{
	g_string_free(mi->name, TRUE);
	g_string_free(mi->email, TRUE);
	g_string_free(mi->charset, TRUE);
	g_string_free(mi->inbody_header_accum, TRUE);
	for (int i = 0; i < HDR_COUNT; i++) {
		gstring_clear(&mi->p_hdr_data[i]);
		gstring_clear(&mi->s_hdr_data[i]);
	}
	for (int i = 0; i < MAX_BOUNDARIES; i++)
		gstring_clear(&mi->content[i]);
	g_free(mi->message_id);
	g_free(mi->last_message_id);
	g_free(mi->undecodable);
	charset_converter_free(mi->conv);
}

/* The RFC 5322 threading headers, which git mailinfo does not look at */
static void fill_threading(struct mailinfo_result *r, GBytes *raw)
{
	struct msgid_headers h;

	msgid_headers_parse(raw, &h);
	r->msgid = g_steal_pointer(&h.message_id);
	r->in_reply_to = g_steal_pointer(&h.in_reply_to);
	r->references = g_steal_pointer(&h.references);
	msgid_headers_clear(&h);
}

/* One line naming why git mailinfo fails: the first error git printed,
 * else the header whose encoded words git silently gave up on. */
static char *describe_failure(const struct mailinfo *mi)
{
	const char *msg = mi->diagnostics->str;
	const char *nl;

	while (*msg && !g_str_has_prefix(msg, "error: ")) {
		nl = strchr(msg, '\n');
		msg = nl ? nl + 1 : msg + strlen(msg);
	}
	if (*msg) {
		msg += strlen("error: ");
		nl = strchr(msg, '\n');
		return g_strndup(msg, nl ? (gsize)(nl - msg) : strlen(msg));
	}
	return g_strdup_printf("malformed RFC 2047 encoded word in the %s "
			       "header",
			       mi->undecodable ? mi->undecodable : "mail's");
}

struct mailinfo_result *mailinfo_run(GBytes *raw,
				     const struct mailinfo_options *opts)
{
	struct mailinfo_result *r = g_new0(struct mailinfo_result, 1);
	struct mailinfo mi = { 0 };
	g_autoptr(GString) line = g_string_new(NULL);
	gsize len;
	int peek;

	r->info = g_string_new(NULL);
	r->msg = g_string_new(NULL);
	r->patch = g_string_new(NULL);
	r->diagnostics = g_string_new(NULL);

	mi.opts = opts;
	mi.in.buf = raw ? g_bytes_get_data(raw, &len) : NULL;
	mi.in.len = raw ? len : 0;
	mi.conv = charset_converter_new();
	mi.name = g_string_new(NULL);
	mi.email = g_string_new(NULL);
	mi.charset = g_string_new(NULL);
	mi.inbody_header_accum = g_string_new(NULL);
	mi.log_message = r->msg;
	mi.patch = r->patch;
	mi.diagnostics = r->diagnostics;
	mi.header_stage = TRUE;

	do {
		peek = reader_getc(&mi.in);
		if (peek < 0) {
			r->empty = TRUE;
			r->failed = TRUE;
			r->problem = g_strdup("empty patch");
			fill_threading(r, raw);
			mailinfo_clear(&mi);
			return r;
		}
	} while (git_isspace(peek));
	reader_ungetc(&mi.in);

	/* the mail's own headers: a later From/Subject/Date wins */
	while (read_one_header_line(&mi, line))
		check_header(&mi, line, mi.p_hdr_data, TRUE);
	handle_body(&mi, line);
	handle_info(&mi, r);

	r->message_id = g_steal_pointer(&mi.last_message_id);
	fill_threading(r, raw);
	r->failed = mi.input_error;
	if (r->failed)
		r->problem = describe_failure(&mi);
	mailinfo_clear(&mi);
	return r;
}

gboolean mailinfo_parse(struct mailinfo_result **out, GBytes *raw,
			const struct mailinfo_options *opts, GError **error)
{
	g_autoptr(mailinfo_result) r = mailinfo_run(raw, opts);

	*out = NULL;
	if (r->failed) {
		g_set_error(error, MAILINFO_ERROR, 0, "%s", r->problem);
		return FALSE;
	}
	*out = g_steal_pointer(&r);
	return TRUE;
}

void mailinfo_result_free(struct mailinfo_result *r)
{
	if (!r)
		return;
	g_free(r->author);
	g_free(r->email);
	g_free(r->subject);
	g_free(r->date);
	g_free(r->message_id);
	g_free(r->problem);
	g_free(r->msgid);
	g_free(r->in_reply_to);
	g_clear_pointer(&r->references, g_ptr_array_unref);
	g_string_free(r->info, TRUE);
	g_string_free(r->msg, TRUE);
	g_string_free(r->patch, TRUE);
	g_string_free(r->diagnostics, TRUE);
	g_free(r);
}

char *mailinfo_cleanup_subject(const char *subject, gboolean keep_non_patch)
{
	g_autoptr(GString) s = g_string_new(subject);

	cleanup_subject(s, keep_non_patch);
	cleanup_space(s);
	return g_string_free(g_steal_pointer(&s), FALSE);
}
