#include "mailparse/message.h"

#include <libetpan/libetpan.h>
#include <string.h>

#include "mailparse/date.h"
#include "mailparse/mailinfo.h"
#include "mailparse/rfc2047.h"

G_DEFINE_QUARK(message - error - quark, message_error)

static void header_free(gpointer data)
{
	struct message_header *h = data;

	g_free(h->name);
	g_free(h->value);
	g_free(h);
}

/* RFC 5322 3.2.2: unfolding removes the CRLF that precedes white space */
static char *unfold(const char *value)
{
	GString *out = g_string_new(NULL);

	for (const char *s = value; *s; s++) {
		if (*s == '\r' || *s == '\n')
			continue;
		g_string_append_c(out, *s);
	}
	g_strstrip(out->str);
	out->len = strlen(out->str);
	return g_string_free(out, FALSE);
}

char *message_angle_text(const char *value)
{
	const char *lt = strrchr(value, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;
	g_autofree char *text = lt && gt ? g_strndup(lt + 1, gt - lt - 1) :
					   g_strdup(value);

	g_strstrip(text);
	return g_ascii_strdown(text, -1);
}

char *message_decode_header(const char *value)
{
	g_autofree char *unfolded = unfold(value ? value : "");
	g_autoptr(GString) decoded =
		rfc2047_decode(unfolded, strlen(unfolded), "UTF-8", NULL, NULL);

	/* git's rules, so that the subject kept here is the one git am
	 * commits; where git gives up on the header it keeps it as it was.
	 * Unencoded 8-bit text is taken as UTF-8 and repaired if it is
	 * not. */
	if (!decoded)
		return g_utf8_make_valid(unfolded, -1);
	return g_utf8_make_valid(decoded->str, decoded->len);
}

/* Message-IDs in @value: every "<...>", or the bare word when a mailer
 * forgot the brackets.  Appended to @out without brackets. */
static void extract_ids(const char *value, GPtrArray *out)
{
	const char *s = value;
	guint before = out->len;

	while ((s = strchr(s, '<'))) {
		const char *end = strchr(s, '>');

		if (!end)
			break;
		if (end > s + 1) {
			g_autofree char *id = g_strndup(s + 1, end - s - 1);

			g_strstrip(id);
			if (*id && !strpbrk(id, " \t\r\n"))
				g_ptr_array_add(out, g_steal_pointer(&id));
		}
		s = end + 1;
	}
	if (out->len == before) {
		g_autofree char *bare = unfold(value);

		if (*bare && !strpbrk(bare, " \t<>"))
			g_ptr_array_add(out, g_steal_pointer(&bare));
	}
}

static char *first_id(const char *value)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);

	extract_ids(value, ids);
	return ids->len ? g_strdup(ids->pdata[0]) : NULL;
}

static void add_mailbox(struct message *msg, struct mailimf_mailbox *mb,
			gboolean from)
{
	if (!mb || !mb->mb_addr_spec)
		return;
	if (from && !msg->from_email) {
		msg->from_email = g_ascii_strdown(mb->mb_addr_spec, -1);
		if (mb->mb_display_name && *mb->mb_display_name)
			msg->from_name =
				message_decode_header(mb->mb_display_name);
	} else if (!from) {
		g_ptr_array_add(msg->to, g_ascii_strdown(mb->mb_addr_spec, -1));
	}
}

static void add_address_list(struct message *msg,
			     struct mailimf_address_list *list)
{
	if (!list)
		return;
	for (clistiter *it = clist_begin(list->ad_list); it;
	     it = clist_next(it)) {
		struct mailimf_address *ad = clist_content(it);

		if (ad->ad_type == MAILIMF_ADDRESS_MAILBOX) {
			add_mailbox(msg, ad->ad_data.ad_mailbox, FALSE);
		} else if (ad->ad_data.ad_group &&
			   ad->ad_data.ad_group->grp_mb_list) {
			clist *l = ad->ad_data.ad_group->grp_mb_list->mb_list;

			for (clistiter *g = clist_begin(l); g;
			     g = clist_next(g))
				add_mailbox(msg, clist_content(g), FALSE);
		}
	}
}

/* The value of the last field @name of @header, its folded lines joined
 * (RFC 5322 2.2.3), as git mailinfo reads a header it keeps (a later one
 * wins); NULL when there is none. */
static char *last_field(const char *header, const char *name)
{
	g_auto(GStrv) lines = g_strsplit(header, "\n", -1);
	g_autoptr(GString) value = NULL;
	gsize n = strlen(name);
	gboolean in_field = FALSE;

	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (in_field && (l[0] == ' ' || l[0] == '\t')) {
			g_string_append(value, l);
			continue;
		}
		in_field = !g_ascii_strncasecmp(l, name, n) && l[n] == ':';
		if (!in_field)
			continue;
		if (!value)
			value = g_string_new(NULL);
		g_string_assign(value, l + n + 1);
	}
	return value ? g_string_free(g_steal_pointer(&value), FALSE) : NULL;
}

/* The Date as git am reads it into the author date (mailparse/date.h);
 * 0 when there is none or git would refuse it. */
static gint64 mail_date(const char *header)
{
	g_autofree char *raw = last_field(header, "Date");
	g_autofree char *value = raw ? message_decode_header(raw) : NULL;
	gint64 timestamp;
	int offset;

	if (!value || !date_parse(value, &timestamp, &offset))
		return 0;
	return timestamp;
}

/* A From that libetpan cannot parse: take what looks like an address */
static void lenient_from(struct message *msg, const char *value)
{
	g_autofree char *v = message_decode_header(value);
	const char *lt = strrchr(v, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (msg->from_email)
		return;
	if (lt && gt) {
		g_autofree char *name = g_strndup(v, lt - v);

		msg->from_email = g_ascii_strdown(lt + 1, gt - lt - 1);
		g_strstrip(name);
		if (*name)
			msg->from_name = g_steal_pointer(&name);
	} else {
		msg->from_email = g_ascii_strdown(v, -1);
	}
}

static void take_field(struct message *msg, struct mailimf_field *f)
{
	switch (f->fld_type) {
	case MAILIMF_FIELD_MESSAGE_ID:
		if (!msg->message_id && f->fld_data.fld_message_id->mid_value)
			msg->message_id =
				g_strdup(f->fld_data.fld_message_id->mid_value);
		break;
	case MAILIMF_FIELD_IN_REPLY_TO:
		if (!msg->in_reply_to) {
			clist *l = f->fld_data.fld_in_reply_to->mid_list;

			if (clist_begin(l))
				msg->in_reply_to =
					g_strdup(clist_content(clist_begin(l)));
		}
		break;
	case MAILIMF_FIELD_REFERENCES:
		if (!msg->references->len)
			for (clistiter *it = clist_begin(
				     f->fld_data.fld_references->mid_list);
			     it; it = clist_next(it))
				g_ptr_array_add(msg->references,
						g_strdup(clist_content(it)));
		break;
	case MAILIMF_FIELD_FROM:
		if (f->fld_data.fld_from->frm_mb_list)
			for (clistiter *it = clist_begin(
				     f->fld_data.fld_from->frm_mb_list->mb_list);
			     it; it = clist_next(it))
				add_mailbox(msg, clist_content(it), TRUE);
		break;
	case MAILIMF_FIELD_TO:
		add_address_list(msg, f->fld_data.fld_to->to_addr_list);
		break;
	case MAILIMF_FIELD_CC:
		add_address_list(msg, f->fld_data.fld_cc->cc_addr_list);
		break;
	case MAILIMF_FIELD_SUBJECT:
		if (!msg->subject)
			msg->subject = message_decode_header(
				f->fld_data.fld_subject->sbj_value);
		break;
	case MAILIMF_FIELD_OPTIONAL_FIELD: {
		struct mailimf_optional_field *o =
			f->fld_data.fld_optional_field;
		struct message_header *h = g_new0(struct message_header, 1);

		h->name = g_strdup(o->fld_name);
		h->value = unfold(o->fld_value);
		g_ptr_array_add(msg->headers, h);
		/* typed headers whose value libetpan could not parse end
		 * up here: recover them leniently */
		if (!g_ascii_strcasecmp(h->name, "Message-ID") &&
		    !msg->message_id)
			msg->message_id = first_id(h->value);
		else if (!g_ascii_strcasecmp(h->name, "In-Reply-To") &&
			 !msg->in_reply_to)
			msg->in_reply_to = first_id(h->value);
		else if (!g_ascii_strcasecmp(h->name, "References") &&
			 !msg->references->len)
			extract_ids(h->value, msg->references);
		else if (!g_ascii_strcasecmp(h->name, "From"))
			lenient_from(msg, h->value);
		else if (!g_ascii_strcasecmp(h->name, "Subject") &&
			 !msg->subject)
			msg->subject = message_decode_header(h->value);
		break;
	}
	default:
		break;
	}
}

/* Where the header ends: after the first empty line (LF or CRLF), or the
 * end of a message that has no body. */
static gsize find_body(const char *data, gsize len, gsize start,
		       gsize *header_end)
{
	for (gsize i = start; i < len; i++) {
		if (data[i] != '\n')
			continue;
		if (i + 1 < len && data[i + 1] == '\n') {
			*header_end = i + 1;
			return i + 2;
		}
		if (i + 2 < len && data[i + 1] == '\r' && data[i + 2] == '\n') {
			*header_end = i + 1;
			return i + 3;
		}
	}
	*header_end = len;
	return len;
}

struct message *message_parse(GBytes *raw, GError **error)
{
	g_autoptr(message) msg = g_new0(struct message, 1);
	gsize len;
	const char *data = g_bytes_get_data(raw, &len);
	gsize start = 0, header_end;
	size_t index = 0;
	struct mailimf_fields *fields = NULL;
	g_autofree char *header = NULL;

	msg->raw = g_bytes_ref(raw);
	msg->references = g_ptr_array_new_with_free_func(g_free);
	msg->to = g_ptr_array_new_with_free_func(g_free);
	msg->headers = g_ptr_array_new_with_free_func(header_free);
	if (len >= 5 && !memcmp(data, "From ", 5)) {
		const char *nl = memchr(data, '\n', len);

		start = nl ? (gsize)(nl - data) + 1 : len;
	}
	msg->body_offset = find_body(data, len, start, &header_end);
	/* libetpan wants a NUL-free, terminated header block */
	header = g_strndup(data + start, header_end - start);
	if (!*header || !strchr(header, ':')) {
		g_set_error(error, MESSAGE_ERROR, 1, "no mail header");
		return NULL;
	}
	if (mailimf_fields_parse(header, strlen(header), &index, &fields) !=
		    MAILIMF_NO_ERROR ||
	    !fields) {
		g_set_error(error, MESSAGE_ERROR, 1,
			    "cannot parse the mail header");
		return NULL;
	}
	for (clistiter *it = clist_begin(fields->fld_list); it;
	     it = clist_next(it))
		take_field(msg, clist_content(it));
	mailimf_fields_free(fields);
	msg->date = mail_date(header);
	if (!msg->message_id && !msg->from_email && !msg->subject &&
	    !msg->date) {
		g_set_error(error, MESSAGE_ERROR, 1,
			    "no From, Subject, Date or Message-ID header");
		return NULL;
	}
	if (msg->message_id &&
	    (!*msg->message_id || strlen(msg->message_id) > 995)) {
		/* RFC 5322 2.1.1: no line is longer than 998 */
		g_clear_pointer(&msg->message_id, g_free);
	}
	if (!msg->message_id) {
		g_autofree char *sum =
			g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, raw);

		msg->message_id = g_strdup_printf("%s@armbot.invalid", sum);
		msg->message_id_synthesised = TRUE;
	}
	/* a References header alone threads as well (RFC 5322 3.6.4) */
	if (!msg->in_reply_to && msg->references->len)
		msg->in_reply_to = g_strdup(
			msg->references->pdata[msg->references->len - 1]);
	if (!msg->from_email)
		msg->from_email = g_strdup("");
	if (!msg->subject)
		msg->subject = g_strdup("");
	return g_steal_pointer(&msg);
}

const char *message_header(const struct message *msg, const char *name)
{
	for (guint i = 0; i < msg->headers->len; i++) {
		struct message_header *h = msg->headers->pdata[i];

		if (!g_ascii_strcasecmp(h->name, name))
			return h->value;
	}
	return NULL;
}

const char *message_body(const struct message *msg, gsize *len)
{
	gsize size;
	const char *data = g_bytes_get_data(msg->raw, &size);

	*len = size - msg->body_offset;
	return data + msg->body_offset;
}

char *message_body_text(const struct message *msg, char **patch)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	/* mailinfo_run(), which never fails: a mail git am refuses (a
	 * header in an unknown charset) still has its text and patch */
	g_autoptr(mailinfo_result) mi = mailinfo_run(msg->raw, &opts);

	if (patch)
		*patch = g_utf8_make_valid(mi->patch->str, mi->patch->len);
	g_string_append_len(mi->msg, mi->patch->str, mi->patch->len);
	return g_utf8_make_valid(mi->msg->str, mi->msg->len);
}

char *message_author(const struct message *msg)
{
	if (msg->from_name && *msg->from_name)
		return g_strdup_printf("%s <%s>", msg->from_name,
				       msg->from_email);
	return g_strdup(msg->from_email);
}

void message_free(struct message *msg)
{
	if (!msg)
		return;
	g_bytes_unref(msg->raw);
	g_free(msg->message_id);
	g_free(msg->in_reply_to);
	g_clear_pointer(&msg->references, g_ptr_array_unref);
	g_free(msg->from_name);
	g_free(msg->from_email);
	g_clear_pointer(&msg->to, g_ptr_array_unref);
	g_free(msg->subject);
	g_clear_pointer(&msg->headers, g_ptr_array_unref);
	g_free(msg);
}
