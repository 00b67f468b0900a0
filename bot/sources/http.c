/* http://HOST[:PORT]/INBOX/ and https:// (bot/sources/source.h): a public-inbox
 * inbox, as lore.kernel.org serves it, read with libcurl.  Query options:
 * interval=SECONDS (default 300: public-inbox hosts ask for a polite
 * poll), since=YYYYMMDD (where the first fetch starts; default: the
 * whole inbox), ca-file=PATH (PEM CAs to trust for https:// instead of
 * the system's).  https:// is verified (chain and host name) by libcurl
 * either way; there is no option to turn that off.
 *
 * public-inbox (1.9, PublicInbox::View::paginate_recent) serves the 25
 * newest messages at INBOX/new.atom and, with ?t=YYYYMMDDhhmmss-, the 25
 * oldest messages received at or after that time, oldest first; the
 * entries' <updated> is that received time.  The cursor is the newest
 * received time stored: each poll asks new.atom (conditionally, with the
 * ETag or Last-Modified of the last answer) and, when it holds no message
 * already known (there may be a gap), walks forward from the cursor page
 * by page.  Each message is read from INBOX/MSGID/raw (an mboxrd);
 * Message-IDs already stored, through this source or another, are not
 * fetched again.  When a series that grew in a poll is still incomplete,
 * its whole thread is read once from INBOX/MSGID/t.mbox.gz, in case parts
 * of it were missed. */
#include "bot/sources/source.h"

#include <curl/curl.h>
#include <string.h>

#include "bot/store/sources.h"

#define PAGE 25 /* public-inbox's feedmax default */
#define MAX_RESPONSE (64 << 20)

struct http {
	struct source *src;
	char *base; /* the inbox URL, ending in '/' */
	char *since; /* YYYYMMDDhhmmss or NULL */
	char *ca_file; /* ?ca-file=, or NULL: the system's trust store */
	CURL *curl;
};

static gboolean http_open(struct source *src, const char *url, GError **error)
{
	struct http *h = g_new0(struct http, 1);
	g_autofree char *since = source_url_option(url, "since");
	g_autoptr(GUri) uri = NULL;
	g_autofree char *bare = NULL;

	source_set_priv(src, h);
	h->src = src;
	h->ca_file = source_url_option(url, "ca-file");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	uri = g_uri_parse(url, G_URI_FLAGS_ENCODED, NULL);
	if (!uri || !g_uri_get_host(uri) || !*g_uri_get_host(uri)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "bad inbox URL '%s'", url);
		return FALSE;
	}
	bare = g_strndup(url, strcspn(url, "?#"));
	h->base = g_str_has_suffix(bare, "/") ? g_strdup(bare) :
						g_strconcat(bare, "/", NULL);
	if (since) {
		if (strlen(since) != 8 || strspn(since, "0123456789") != 8) {
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
				    "since=%s: not YYYYMMDD", since);
			return FALSE;
		}
		h->since = g_strconcat(since, "000000", NULL);
	}
	return TRUE;
}

struct response {
	GByteArray *body;
	long status;
	char *etag;
	char *last_modified;
};

static void response_clear(struct response *r)
{
	g_clear_pointer(&r->body, g_byte_array_unref);
	g_clear_pointer(&r->etag, g_free);
	g_clear_pointer(&r->last_modified, g_free);
}

static size_t on_body(char *data, size_t size, size_t n, void *user)
{
	struct response *r = user;

	if (r->body->len + size * n > MAX_RESPONSE)
		return 0; /* aborts the transfer */
	g_byte_array_append(r->body, (const guint8 *)data, size * n);
	return size * n;
}

static size_t on_header(char *data, size_t size, size_t n, void *user)
{
	struct response *r = user;
	g_autofree char *line = g_strstrip(g_strndup(data, size * n));
	char **field = NULL;

	if (!g_ascii_strncasecmp(line, "ETag:", 5))
		field = &r->etag;
	else if (!g_ascii_strncasecmp(line, "Last-Modified:", 14))
		field = &r->last_modified;
	if (field) {
		g_free(*field);
		*field = g_strdup(g_strstrip(strchr(line, ':') + 1));
	}
	return size * n;
}

/* source_stop() does not wait for a slow transfer to end */
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct http *h = user;

	return source_cancelled(h->src);
}

/* GET @url into @out; conditional when @etag or @modified is set.  A
 * status other than 2xx, 304 and 404 is an error. */
static gboolean http_get(struct http *h, const char *url, const char *etag,
			 const char *modified, struct response *out,
			 GError **error)
{
	struct curl_slist *headers = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	if (!h->curl && !(h->curl = curl_easy_init())) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "cannot start libcurl");
		return FALSE;
	}
	curl_easy_reset(h->curl);
	out->body = g_byte_array_new();
	if (etag) {
		g_autofree char *v = g_strconcat("If-None-Match: ", etag, NULL);

		headers = curl_slist_append(headers, v);
	}
	if (modified) {
		g_autofree char *v =
			g_strconcat("If-Modified-Since: ", modified, NULL);

		headers = curl_slist_append(headers, v);
	}
	curl_easy_setopt(h->curl, CURLOPT_URL, url);
	curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	if (h->ca_file)
		curl_easy_setopt(h->curl, CURLOPT_CAINFO, h->ca_file);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h->curl, CURLOPT_USERAGENT, "armbot/" ARMBOT_VERSION);
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h->curl, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(h->curl, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(h->curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h->curl, CURLOPT_HEADERDATA, out);
	curl_easy_setopt(h->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h->curl, CURLOPT_XFERINFODATA, h);
	rc = curl_easy_perform(h->curl);
	curl_slist_free_all(headers);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, NULL);
	if (rc != CURLE_OK) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "GET %s: %s", url,
			    *errbuf ? errbuf : curl_easy_strerror(rc));
		response_clear(out);
		return FALSE;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &out->status);
	if ((out->status < 200 || out->status > 299) && out->status != 304 &&
	    out->status != 404) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "GET %s: HTTP status %ld", url, out->status);
		response_clear(out);
		return FALSE;
	}
	return TRUE;
}

/* An Atom entry as public-inbox writes it. */
struct entry {
	char *href; /* the message's URL, ending in '/' */
	char *mid; /* its Message-ID, unescaped */
	char t[15]; /* <updated> as YYYYMMDDhhmmss */
};

static void entry_free(gpointer p)
{
	struct entry *e = p;

	g_free(e->href);
	g_free(e->mid);
	g_free(e);
}

struct atom_parse {
	GPtrArray *entries;
	struct entry *cur;
	gboolean in_updated;
	GString *text;
};

static void atom_start(GMarkupParseContext *ctx, const char *name,
		       const char **names, const char **values, gpointer data,
		       GError **error)
{
	struct atom_parse *p = data;
	const GSList *stack = g_markup_parse_context_get_element_stack(ctx);
	const char *parent = stack->next ? stack->next->data : "";

	if (!strcmp(name, "entry") && !p->cur) {
		p->cur = g_new0(struct entry, 1);
	} else if (p->cur && !strcmp(parent, "entry") &&
		   !strcmp(name, "link")) {
		const char *href = NULL, *rel = NULL;

		for (int i = 0; names[i]; i++)
			if (!strcmp(names[i], "href"))
				href = values[i];
			else if (!strcmp(names[i], "rel"))
				rel = values[i];
		if (href && (!rel || !strcmp(rel, "alternate")) &&
		    !p->cur->href)
			p->cur->href = g_strdup(href);
	} else if (p->cur && !strcmp(parent, "entry") &&
		   !strcmp(name, "updated")) {
		p->in_updated = TRUE;
		g_string_truncate(p->text, 0);
	}
}

static void atom_text(GMarkupParseContext *ctx, const char *text, gsize len,
		      gpointer data, GError **error)
{
	struct atom_parse *p = data;

	if (p->in_updated)
		g_string_append_len(p->text, text, len);
}

/* The message's id from its URL ".../INBOX/MSGID/" (public-inbox
 * escapes it as a path segment, PublicInbox::Hval::mid_href). */
static char *href_mid(const char *href)
{
	g_autofree char *trim = g_strndup(href, strlen(href) - 1);
	const char *slash = strrchr(trim, '/');

	return slash ? g_uri_unescape_string(slash + 1, NULL) : NULL;
}

static void atom_end(GMarkupParseContext *ctx, const char *name, gpointer data,
		     GError **error)
{
	struct atom_parse *p = data;

	if (p->in_updated && !strcmp(name, "updated")) {
		/* 2020-06-20T21:25:56Z -> 20200620212556 */
		guint n = 0;

		p->in_updated = FALSE;
		for (const char *c = p->text->str; *c && n < 14; c++)
			if (g_ascii_isdigit(*c))
				p->cur->t[n++] = *c;
		p->cur->t[n] = 0;
		if (n != 14)
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_PROTOCOL,
				    "entry <updated> '%s' is not a time",
				    p->text->str);
	} else if (p->cur && !strcmp(name, "entry") &&
		   !g_markup_parse_context_get_element_stack(ctx)->next->next) {
		struct entry *e = g_steal_pointer(&p->cur);

		if (!e->href || !g_str_has_suffix(e->href, "/") || !*e->t ||
		    !(e->mid = href_mid(e->href)) || !*e->mid) {
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_PROTOCOL,
				    "entry without a message link or time");
			entry_free(e);
			return;
		}
		g_ptr_array_add(p->entries, e);
	}
}

/* The entries of an Atom feed (struct entry *), or NULL with @error. */
static GPtrArray *atom_parse(const GByteArray *body, GError **error)
{
	static const GMarkupParser parser = { atom_start, atom_end, atom_text,
					      NULL, NULL };
	struct atom_parse p = { 0 };
	g_autoptr(GMarkupParseContext) ctx = NULL;
	gboolean ok;

	p.entries = g_ptr_array_new_with_free_func(entry_free);
	p.text = g_string_new(NULL);
	ctx = g_markup_parse_context_new(
		&parser, G_MARKUP_PREFIX_ERROR_POSITION, &p, NULL);
	ok = g_markup_parse_context_parse(ctx, (const char *)body->data,
					  body->len, error) &&
	     g_markup_parse_context_end_parse(ctx, error);
	g_string_free(p.text, TRUE);
	if (p.cur)
		entry_free(p.cur);
	if (!ok) {
		g_ptr_array_unref(p.entries);
		g_prefix_error(error, "malformed atom feed: ");
		if (error && *error) {
			(*error)->domain = SOURCE_ERROR;
			(*error)->code = SOURCE_ERROR_PROTOCOL;
		}
		return NULL;
	}
	return p.entries;
}

/* A fetch in progress: messages waiting to be committed. */
struct pending {
	struct source *src;
	struct store *st;
	GPtrArray *raws;
	GPtrArray *positions;
	char cursor[15]; /* to record with them; "" for none */
	char *etag, *last_modified; /* to record with them */
	GHashTable *fetched; /* Message-IDs read in this fetch */
	GPtrArray *threads; /* "thread:MSGID" read, to mark done with them */
};

static gboolean write_cursor(struct store *st, gpointer data, GError **error)
{
	struct pending *p = data;
	const char *key = source_url(p->src);

	if (*p->cursor &&
	    !store_sources_set(st, key, "received", p->cursor, error))
		return FALSE;
	if (p->etag && !store_sources_set(st, key, "etag", p->etag, error))
		return FALSE;
	if (p->last_modified && !store_sources_set(st, key, "last-modified",
						   p->last_modified, error))
		return FALSE;
	for (guint i = 0; i < p->threads->len; i++)
		if (!store_sources_mark_done(st, key, p->threads->pdata[i],
					     error))
			return FALSE;
	return TRUE;
}

static gboolean flush(struct pending *p, GError **error)
{
	if (!source_store_batch(p->src, p->st, p->raws, p->positions,
				write_cursor, p, error))
		return FALSE;
	g_ptr_array_set_size(p->raws, 0);
	g_ptr_array_set_size(p->positions, 0);
	g_ptr_array_set_size(p->threads, 0);
	return TRUE;
}

/* Add the messages of the mboxrd @body. */
static void add_mbox(struct pending *p, const GByteArray *body,
		     const char *position)
{
	g_autoptr(GBytes) data = g_bytes_new(body->data, body->len);
	g_autoptr(GPtrArray) msgs = mailbox_split_mbox(data, TRUE, FALSE);

	for (guint i = 0; i < msgs->len; i++) {
		g_ptr_array_add(p->raws, g_bytes_ref(msgs->pdata[i]));
		g_ptr_array_add(p->positions, g_strdup(position));
	}
}

/* Read the messages of @entries not yet stored. */
static gboolean fetch_entries(struct pending *p, GPtrArray *entries,
			      GError **error)
{
	struct http *h = source_priv(p->src);

	for (guint i = 0; i < entries->len; i++) {
		struct entry *e = entries->pdata[i];
		g_autofree char *url = NULL;
		struct response r = { 0 };
		gboolean have;

		if (g_hash_table_contains(p->fetched, e->mid))
			continue;
		if (!store_has_message(p->st, e->mid, &have, error))
			return FALSE;
		if (have)
			continue;
		url = g_strconcat(e->href, "raw", NULL);
		if (!http_get(h, url, NULL, NULL, &r, error))
			return FALSE;
		g_hash_table_add(p->fetched, g_strdup(e->mid));
		if (r.status == 404)
			g_warning("%s: gone from the inbox", url);
		else
			add_mbox(p, r.body, url);
		response_clear(&r);
	}
	return TRUE;
}

static gint compare_t(gconstpointer a, gconstpointer b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;

	return strcmp(x->t, y->t);
}

/* Walk the inbox forward from p->cursor. */
static gboolean walk(struct pending *p, GError **error)
{
	struct http *h = source_priv(p->src);
	guint batch = source_options(p->src)->batch ?: 200;

	while (!source_cancelled(p->src)) {
		g_autofree char *url = g_strdup_printf(
			"%snew.atom?t=%s-", h->base,
			*p->cursor ? p->cursor : "19700101000000");
		g_autoptr(GPtrArray) entries = NULL;
		struct response r = { 0 };
		char newest[15];

		if (!http_get(h, url, NULL, NULL, &r, error))
			return FALSE;
		if (r.status != 200) {
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_PROTOCOL,
				    "GET %s: HTTP status %ld: not a "
				    "public-inbox inbox",
				    url, r.status);
			response_clear(&r);
			return FALSE;
		}
		entries = atom_parse(r.body, error);
		response_clear(&r);
		if (!entries)
			return FALSE;
		g_ptr_array_sort(entries, compare_t);
		if (!fetch_entries(p, entries, error))
			return FALSE;
		strcpy(newest,
		       entries->len ?
			       ((struct entry *)entries->pdata[entries->len - 1])
				       ->t :
			       p->cursor);
		/* fewer than a page after the cursor: the end, and
		 * public-inbox then shows the newest page instead (read
		 * above too), recognised by entries older than the cursor */
		if (entries->len < PAGE ||
		    (entries->len &&
		     strcmp(((struct entry *)entries->pdata[0])->t, p->cursor) <
			     0)) {
			if (strcmp(newest, p->cursor) > 0)
				strcpy(p->cursor, newest);
			return flush(p, error);
		}
		if (strcmp(newest, p->cursor) <= 0) {
			/* a whole page received in one second: step past
			 * it (more than a page in one second would be
			 * missed here; a later thread fetch may find them) */
			GDateTime *t = NULL;
			g_autofree char *iso = g_strdup_printf(
				"%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", newest,
				newest + 4, newest + 6, newest + 8, newest + 10,
				newest + 12);
			g_autoptr(GDateTime)
				base = g_date_time_new_from_iso8601(iso, NULL);

			if (!base) {
				g_set_error(error, SOURCE_ERROR,
					    SOURCE_ERROR_PROTOCOL,
					    "bad time %s", newest);
				return FALSE;
			}
			t = g_date_time_add_seconds(base, 1);
			g_autofree char *s =
				g_date_time_format(t, "%Y%m%d%H%M%S");
			g_date_time_unref(t);
			g_strlcpy(newest, s, sizeof(newest));
		}
		strcpy(p->cursor, newest);
		if (p->raws->len >= batch && !flush(p, error))
			return FALSE;
	}
	return TRUE;
}

/* Read the whole thread of each incomplete series that got messages in
 * this fetch, once per thread. */
static gboolean fetch_threads(struct pending *p, GError **error)
{
	struct http *h = source_priv(p->src);
	g_autoptr(GPtrArray) series = NULL;

	if (!g_hash_table_size(p->fetched))
		return TRUE;
	if (!(series = store_list_series(p->st, error)))
		return FALSE;
	for (guint i = 0; i < series->len && !source_cancelled(p->src); i++) {
		struct store_series *s = series->pdata[i];
		const char *root = s->cover	   ? s->cover :
				   s->patches->len ? s->patches->pdata[0] :
						     NULL;
		g_autofree char *name = NULL;
		g_autofree char *escaped = NULL;
		g_autofree char *url = NULL;
		g_autoptr(GConverter) gunzip = NULL;
		g_autoptr(GInputStream) in = NULL;
		g_autoptr(GInputStream) z = NULL;
		g_autoptr(GByteArray) mbox = g_byte_array_new();
		struct response r = { 0 };
		gboolean touched = FALSE, done;

		if (strcmp(s->state, "incomplete") || !root)
			continue;
		touched = s->cover &&
			  g_hash_table_contains(p->fetched, s->cover);
		for (guint j = 0; j < s->patches->len && !touched; j++)
			touched = g_hash_table_contains(p->fetched,
							s->patches->pdata[j]);
		if (!touched)
			continue;
		name = g_strconcat("thread:", root, NULL);
		if (!store_sources_done(p->st, source_url(p->src), name, &done,
					error))
			return FALSE;
		if (done)
			continue;
		escaped = g_uri_escape_string(root, "@!$&'()*+,;=:", FALSE);
		url = g_strdup_printf("%s%s/t.mbox.gz", h->base, escaped);
		if (!http_get(h, url, NULL, NULL, &r, error))
			return FALSE;
		if (r.status == 200) {
			guint8 buf[65536];
			gssize n;

			gunzip = G_CONVERTER(g_zlib_decompressor_new(
				G_ZLIB_COMPRESSOR_FORMAT_GZIP));
			in = g_memory_input_stream_new_from_data(
				g_memdup2(r.body->data, r.body->len),
				r.body->len, g_free);
			z = g_converter_input_stream_new(in, gunzip);
			while ((n = g_input_stream_read(z, buf, sizeof(buf),
							NULL, error)) > 0 &&
			       mbox->len < MAX_RESPONSE)
				g_byte_array_append(mbox, buf, n);
			if (n < 0) {
				response_clear(&r);
				g_prefix_error(error, "%s: ", url);
				return FALSE;
			}
			add_mbox(p, mbox, url);
		}
		response_clear(&r);
		g_ptr_array_add(p->threads, g_steal_pointer(&name));
	}
	return flush(p, error);
}

static gboolean http_fetch(struct source *src, struct store *st, GError **error)
{
	struct http *h = source_priv(src);
	const char *key = source_url(src);
	g_autofree char *url = g_strconcat(h->base, "new.atom", NULL);
	g_autofree char *etag = NULL;
	g_autofree char *modified = NULL;
	g_autofree char *cursor = NULL;
	g_autoptr(GPtrArray) entries = NULL;
	g_autoptr(GPtrArray) raws =
		g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	g_autoptr(GPtrArray) positions = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) fetched =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) threads = g_ptr_array_new_with_free_func(g_free);
	struct pending p = { src,  st,	 raws,	  positions, "",
			     NULL, NULL, fetched, threads };
	struct response r = { 0 };
	gboolean gap = TRUE, ok;

	if (!store_sources_get(st, key, "etag", &etag, error) ||
	    !store_sources_get(st, key, "last-modified", &modified, error) ||
	    !store_sources_get(st, key, "received", &cursor, error))
		return FALSE;
	if (cursor)
		g_strlcpy(p.cursor, cursor, sizeof(p.cursor));
	else if (h->since)
		g_strlcpy(p.cursor, h->since, sizeof(p.cursor));
	if (!http_get(h, url, cursor ? etag : NULL, cursor ? modified : NULL,
		      &r, error))
		return FALSE;
	if (r.status == 304) {
		response_clear(&r);
		return TRUE;
	}
	if (r.status != 200) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_PROTOCOL,
			    "GET %s: HTTP status %ld: not a public-inbox inbox",
			    url, r.status);
		response_clear(&r);
		return FALSE;
	}
	p.etag = g_steal_pointer(&r.etag);
	p.last_modified = g_steal_pointer(&r.last_modified);
	entries = atom_parse(r.body, error);
	response_clear(&r);
	if (!entries)
		goto fail;
	/* one entry already stored on the newest page: no gap since */
	if (cursor) {
		for (guint i = 0; i < entries->len && gap; i++) {
			struct entry *e = entries->pdata[i];

			if (!store_has_message(st, e->mid, &gap, error))
				goto fail;
			gap = !gap;
		}
		if (entries->len < PAGE)
			gap = FALSE;
	}
	if (!gap) {
		g_ptr_array_sort(entries, compare_t);
		if (!fetch_entries(&p, entries, error))
			goto fail;
		if (entries->len &&
		    strcmp(((struct entry *)entries->pdata[entries->len - 1])->t,
			   p.cursor) > 0)
			strcpy(p.cursor,
			       ((struct entry *)entries->pdata[entries->len - 1])
				       ->t);
		ok = flush(&p, error);
	} else {
		ok = walk(&p, error);
	}
	ok = ok && fetch_threads(&p, error);
	g_free(p.etag);
	g_free(p.last_modified);
	return ok;
fail:
	g_free(p.etag);
	g_free(p.last_modified);
	return FALSE;
}

static gboolean http_wait(struct source *src, GCancellable *cancellable,
			  GError **error)
{
	source_sleep(cancellable, source_options(src)->interval ?: 300);
	return TRUE;
}

static void http_disconnect(struct source *src)
{
	struct http *h = source_priv(src);

	g_clear_pointer(&h->curl, curl_easy_cleanup);
}

static void http_free(gpointer priv)
{
	struct http *h = priv;

	g_clear_pointer(&h->curl, curl_easy_cleanup);
	g_free(h->base);
	g_free(h->since);
	g_free(h->ca_file);
	g_free(h);
}

const struct source_ops source_http_ops = {
	.name = "http",
	.open = http_open,
	.fetch = http_fetch,
	.wait = http_wait,
	.disconnect = http_disconnect,
	.free = http_free,
};
