/* A stored series as an mbox for git am, with the trailers given in the
 * replies folded in as `b4 am` does. */
#include "bot/mail/series-mbox.h"

#include <string.h>

#include "mailparse/message.h"
#include "mailparse/trailers.h"

/* Trailers in the replies to @message_id, at any depth (b4 am collects
 * them from the whole follow-up thread). */
static gboolean collect_trailers(struct store *st, const char *message_id,
				 GPtrArray *out, guint depth, GError **error)
{
	g_autoptr(GPtrArray) replies = store_replies(st, message_id, error);

	if (!replies)
		return FALSE;
	for (guint i = 0; i < replies->len && depth < 100; i++) {
		g_autoptr(GBytes)
			raw = store_message_raw(st, replies->pdata[i], error);
		g_autoptr(message) msg = NULL;
		g_autoptr(GPtrArray) found = NULL;
		g_autofree char *body = NULL;

		if (!raw || !(msg = message_parse(raw, error)))
			return FALSE;
		body = message_body_text(msg, NULL);
		found = trailers_parse(body);
		for (guint j = 0; j < found->len; j++)
			g_ptr_array_add(out, g_steal_pointer(&found->pdata[j]));
		if (!collect_trailers(st, replies->pdata[i], out, depth + 1,
				      error))
			return FALSE;
	}
	return TRUE;
}

/* A body we can edit as text: not base64 or quoted-printable */
static gboolean body_is_plain(const struct message *msg)
{
	const char *cte = message_header(msg, "Content-Transfer-Encoding");

	return !cte || !g_ascii_strcasecmp(cte, "7bit") ||
	       !g_ascii_strcasecmp(cte, "8bit");
}

gboolean series_mbox(struct store *st, gint64 id, GString *out, GError **error)
{
	g_autoptr(store_series) s = store_get_series(st, id, error);
	g_autoptr(GPtrArray) common =
		g_ptr_array_new_with_free_func((GDestroyNotify)trailer_free);

	if (!s)
		return FALSE;
	/* follow-ups to the cover letter are for every patch */
	if (s->cover && !collect_trailers(st, s->cover, common, 0, error))
		return FALSE;
	for (guint i = 0; i < s->patches->len; i++) {
		g_autoptr(GBytes) raw =
			store_message_raw(st, s->patches->pdata[i], error);
		g_autoptr(message) msg = NULL;
		g_autoptr(GPtrArray)
			extra = g_ptr_array_new_with_free_func(NULL);
		g_autoptr(GPtrArray) own = g_ptr_array_new_with_free_func(
			(GDestroyNotify)trailer_free);
		const char *data;
		gsize len, body_len;
		const char *body;

		if (!raw || !(msg = message_parse(raw, error)))
			return FALSE;
		if (!collect_trailers(st, s->patches->pdata[i], own, 0, error))
			return FALSE;
		g_ptr_array_extend(extra, common, NULL, NULL);
		g_ptr_array_extend(extra, own, NULL, NULL);
		data = g_bytes_get_data(raw, &len);
		body = message_body(msg, &body_len);
		if (len < 5 || memcmp(data, "From ", 5))
			g_string_append(
				out, "From git@z Thu Jan  1 00:00:00 1970\n");
		if (!extra->len || !body_is_plain(msg)) {
			g_string_append_len(out, data, len);
		} else {
			g_autofree char *text = g_strndup(body, body_len);
			g_autofree char *folded = trailers_fold(text, extra);

			g_string_append_len(out, data, body - data);
			g_string_append(out, folded);
		}
		if (len && data[len - 1] != '\n')
			g_string_append_c(out, '\n');
		g_string_append_c(out, '\n');
	}
	return TRUE;
}
