/* Threading headers with libetpan; see mailparse/msgid.h. */
#include "mailparse/msgid.h"

#include <libetpan/libetpan.h>
#include <string.h>

static void add_ids(GPtrArray *out, clist *ids)
{
	for (clistiter *it = clist_begin(ids); it; it = clist_next(it))
		g_ptr_array_add(out, g_strdup(clist_content(it)));
}

void msgid_headers_parse(GBytes *raw, struct msgid_headers *out)
{
	struct mailimf_fields *fields = NULL;
	gsize len = 0;
	const char *buf = raw ? g_bytes_get_data(raw, &len) : NULL;
	size_t idx = 0;

	memset(out, 0, sizeof(*out));
	out->references = g_ptr_array_new_with_free_func(g_free);
	if (!buf)
		return;
	/* git mailinfo skips leading whitespace; an mbox "From " line is
	 * not a header for libetpan */
	while (idx < len && g_ascii_isspace(buf[idx]))
		idx++;
	if (len - idx >= 5 && !memcmp(buf + idx, "From ", 5)) {
		const char *nl = memchr(buf + idx, '\n', len - idx);

		if (!nl)
			return;
		idx = nl - buf + 1;
	}
	if (mailimf_fields_parse(buf, len, &idx, &fields) != MAILIMF_NO_ERROR)
		return;
	for (clistiter *it = clist_begin(fields->fld_list); it;
	     it = clist_next(it)) {
		struct mailimf_field *f = clist_content(it);

		switch (f->fld_type) {
		case MAILIMF_FIELD_MESSAGE_ID:
			g_free(out->message_id);
			out->message_id =
				g_strdup(f->fld_data.fld_message_id->mid_value);
			break;
		case MAILIMF_FIELD_IN_REPLY_TO: {
			clist *ids = f->fld_data.fld_in_reply_to->mid_list;

			g_free(out->in_reply_to);
			out->in_reply_to = clist_begin(ids) ?
						   g_strdup(clist_content(
							   clist_begin(ids))) :
						   NULL;
			break;
		}
		case MAILIMF_FIELD_REFERENCES:
			g_ptr_array_set_size(out->references, 0);
			add_ids(out->references,
				f->fld_data.fld_references->mid_list);
			break;
		default:
			break;
		}
	}
	mailimf_fields_free(fields);
}

void msgid_headers_clear(struct msgid_headers *h)
{
	g_clear_pointer(&h->message_id, g_free);
	g_clear_pointer(&h->in_reply_to, g_free);
	g_clear_pointer(&h->references, g_ptr_array_unref);
}
