#include "bot/sources/ingest.h"

#include <stdio.h>

#include "mailparse/message.h"
#include "mailparse/series.h"

gboolean ingest_message(struct store *st, GBytes *raw, const char *position,
			struct ingest_counts *counts, GPtrArray *new_ids,
			char **message_id, GError **error)
{
	g_autoptr(GError) bad = NULL;
	g_autoptr(message) msg = message_parse(raw, &bad);
	g_autoptr(series_message) info = NULL;
	gboolean added;

	if (!msg) {
		/* kept anyway, so that nothing received is lost */
		fprintf(stderr, "error: %s: %s\n", position, bad->message);
		if (!store_add_reject(st, raw, position, bad->message, &added,
				      error))
			return FALSE;
		counts->unparseable++;
		return TRUE;
	}
	if (message_id)
		*message_id = g_strdup(msg->message_id);
	info = series_message_from(msg, g_get_real_time() / G_USEC_PER_SEC);
	if (!store_add_message(st, msg, info, position, &added, error))
		return FALSE;
	if (added) {
		counts->added++;
		counts->kinds[info->kind]++;
		if (new_ids)
			g_ptr_array_add(new_ids, g_strdup(msg->message_id));
	} else {
		counts->duplicate++;
	}
	return TRUE;
}

gboolean ingest_mailbox(struct store *st, const char *path,
			const struct mailbox_options *opts,
			struct ingest_counts *counts, GError **error)
{
	g_autoptr(mailbox) mb = mailbox_open(path, opts, error);

	if (!mb)
		return FALSE;
	for (;;) {
		g_autoptr(GBytes) raw = NULL;

		if (!mailbox_next(mb, &raw, error))
			return FALSE;
		if (!raw)
			return TRUE;
		if (!ingest_message(st, raw, mailbox_position(mb), counts, NULL,
				    NULL, error))
			return FALSE;
	}
}

gboolean ingest_assemble(struct store *st, gint64 timeout, GError **error)
{
	struct series_options opts = SERIES_OPTIONS_INIT;
	g_autoptr(GPtrArray) messages = store_load_series_messages(st, error);
	g_autoptr(series_assembly) assembly = NULL;

	if (!messages)
		return FALSE;
	opts.now = g_get_real_time() / G_USEC_PER_SEC;
	opts.incomplete_timeout = timeout;
	assembly = series_assemble(messages, &opts);
	return store_save_assembly(st, assembly, error);
}

void ingest_counts_add(struct ingest_counts *to,
		       const struct ingest_counts *from)
{
	to->added += from->added;
	to->duplicate += from->duplicate;
	to->unparseable += from->unparseable;
	for (int k = 0; k <= CLASSIFY_BOT; k++)
		to->kinds[k] += from->kinds[k];
}

void ingest_counts_print(const struct ingest_counts *counts)
{
	printf("%u new, %u duplicate, %u unparseable\n", counts->added,
	       counts->duplicate, counts->unparseable);
	for (int k = 0; k <= CLASSIFY_BOT; k++)
		printf("%s%s %u", k ? ", " : "new: ", classify_kind_name(k),
		       counts->kinds[k]);
	printf("\n");
}
