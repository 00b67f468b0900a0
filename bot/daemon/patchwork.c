/* Checks on a list's patchwork instance (see bot/daemon/patchwork.h). */
#include "bot/daemon/patchwork.h"

#include <curl/curl.h>
#include <string.h>

#include "bot/common/jsonout.h"
#include "bot/common/log.h"
#include "bot/store/pwchecks.h"
#include "config/secretfile.h"

#define BODY_MAX (1024 * 1024) /* of an answer */
#define DESCRIPTION_MAX 250 /* patchwork's CharField(max_length=255) */
#define BATCH 50 /* rows posted per round */

static const char *state_of(enum report_status s)
{
	return report_status_pick(s, NULL, "success", "warning", "fail");
}

gboolean patchwork_queue(const struct armbot_config *config, struct store *st,
			 const struct store_series *series,
			 const struct pipeline_outcome *out,
			 const char *target_url, guint *queued, GError **error)
{
	const struct config_patchwork *pw =
		config_patchwork_for(config, out->list);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	*queued = 0;
	/* dry-run sends nothing, to the list or to patchwork */
	if (!pw || !series->patches || config->dry_run)
		return TRUE;
	for (guint i = 0; i < series->patches->len; i++) {
		for (int k = 0; k < REPORT_N_CHECKS; k++) {
			const struct pipeline_check *c = &out->checks[k];
			struct store_pwcheck row = { 0 };
			g_autofree char *context = g_strconcat(
				"armbot-", report_check_name(k), NULL);
			g_autofree char *desc = NULL;
			const char *what =
				c->summary ? c->summary :
					     report_status_name(c->status);

			if (!state_of(c->status))
				continue;
			desc = g_strdup_printf("%s on %s: %s",
					       report_check_name(k),
					       out->tree_name, what);
			if (g_utf8_strlen(desc, -1) > DESCRIPTION_MAX)
				*g_utf8_offset_to_pointer(
					desc, DESCRIPTION_MAX) = '\0';
			row.series_id = series->id;
			row.tree = out->tree_name;
			row.list = pw->list;
			row.message_id = series->patches->pdata[i];
			row.context = context;
			row.state = (char *)state_of(c->status);
			row.target_url = (char *)target_url;
			row.description = desc;
			if (!store_pwcheck_queue(st, &row, now, error))
				return FALSE;
			(*queued)++;
		}
	}
	return TRUE;
}

static size_t on_body(char *data, size_t size, size_t n, void *user)
{
	GString *body = user;

	if (body->len + size * n > BODY_MAX)
		return 0;
	g_string_append_len(body, data, size * n);
	return size * n;
}

/* One request: GET when @json is NULL, else POST of @json.  The HTTP
 * status in *@code (0 when there was no answer, with @why set). */
static gboolean request(const struct config_patchwork *pw, const char *token,
			const char *url, const char *json, long *code,
			GString *body, char **why)
{
	CURL *curl = curl_easy_init();
	struct curl_slist *headers = NULL;
	g_autofree char *auth =
		g_strdup_printf("Authorization: Token %s", token);
	char errbuf[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	*code = 0;
	if (!curl) {
		*why = g_strdup("cannot set up libcurl");
		return FALSE;
	}
	headers = curl_slist_append(headers, auth);
	headers = curl_slist_append(headers, "Accept: application/json");
	if (json)
		headers = curl_slist_append(headers,
					    "Content-Type: application/json");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
	if (pw->ca_file)
		curl_easy_setopt(curl, CURLOPT_CAINFO, pw->ca_file);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "armbot/" ARMBOT_VERSION);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, body);
	if (json)
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json);
	rc = curl_easy_perform(curl);
	if (rc == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
	else
		*why = g_strdup_printf("%s: %s", url,
				       *errbuf ? errbuf :
						 curl_easy_strerror(rc));
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	return rc == CURLE_OK;
}

/* The id of the patch with Message-ID @msgid: 0 with *@why when patchwork
 * has none (yet) or cannot be asked; *@permanent when it refused. */
static gint64 patch_id(const struct config_patchwork *pw, const char *token,
		       const char *msgid, char **why, gboolean *permanent)
{
	g_autofree char *q = g_strdup_printf("<%s>", msgid);
	g_autofree char *esc = g_uri_escape_string(q, NULL, FALSE);
	g_autofree char *url =
		g_strdup_printf("%s/api/1.2/patches/?msgid=%s", pw->url, esc);
	g_autoptr(GString) body = g_string_new(NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonNode *root;
	JsonArray *a;
	long code;

	if (!request(pw, token, url, NULL, &code, body, why))
		return 0;
	if (code != 200) {
		*why = g_strdup_printf("GET %s: HTTP %ld", url, code);
		*permanent = code == 401 || code == 403 || code == 400;
		return 0;
	}
	if (!json_parser_load_from_data(parser, body->str, body->len, NULL) ||
	    !(root = json_parser_get_root(parser)) ||
	    !JSON_NODE_HOLDS_ARRAY(root)) {
		*why = g_strdup_printf("GET %s: not a JSON list", url);
		return 0;
	}
	a = json_node_get_array(root);
	for (guint i = 0; i < json_array_get_length(a); i++) {
		JsonNode *n = json_array_get_element(a, i);
		JsonObject *o = JSON_NODE_HOLDS_OBJECT(n) ?
					json_node_get_object(n) :
					NULL;

		if (o && json_object_has_member(o, "id") &&
		    json_object_get_int_member(o, "id") > 0)
			return json_object_get_int_member(o, "id");
	}
	*why = g_strdup_printf("patchwork has no patch <%s> (yet)", msgid);
	return 0;
}

/* Post row @c; FALSE with *@why when it failed. */
static gboolean post(const struct config_patchwork *pw, const char *token,
		     const struct store_pwcheck *c, char **why,
		     gboolean *permanent)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(GString) body = g_string_new(NULL);
	g_autofree char *json = NULL, *url = NULL;
	gint64 id = patch_id(pw, token, c->message_id, why, permanent);
	long code;

	if (!id)
		return FALSE;
	json_builder_begin_object(b);
	jsonout_string(b, "state", c->state);
	if (c->target_url)
		jsonout_string(b, "target_url", c->target_url);
	jsonout_string(b, "context", c->context);
	jsonout_string(b, "description", c->description);
	json_builder_end_object(b);
	json = jsonout_finish(b);
	url = g_strdup_printf("%s/api/1.2/patches/%" G_GINT64_FORMAT "/checks/",
			      pw->url, id);
	if (!request(pw, token, url, json, &code, body, why))
		return FALSE;
	if (code == 201 || code == 200)
		return TRUE;
	*permanent = code == 400 || code == 401 || code == 403;
	*why = g_strdup_printf("POST %s: HTTP %ld %.200s", url, code,
			       body->str);
	return FALSE;
}

gboolean patchwork_post_due(const struct armbot_config *config,
			    struct store *st, guint *posted, GError **error)
{
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	g_autoptr(GPtrArray) due = store_pwcheck_due(st, now, BATCH, error);
	/* a list whose instance did not answer waits for the next round */
	g_autoptr(GHashTable) down = g_hash_table_new(g_str_hash, g_str_equal);

	*posted = 0;
	if (!due)
		return FALSE;
	for (guint i = 0; i < due->len; i++) {
		const struct store_pwcheck *c = due->pdata[i];
		const struct config_patchwork *pw =
			config_patchwork_for(config, c->list);
		g_autoptr(GError) ferr = NULL;
		g_autofree char *why = NULL;
		char *token = NULL;
		gboolean ok = FALSE, permanent = FALSE;
		gint64 wait;

		if (g_hash_table_contains(down, c->list))
			continue;
		if (!pw) {
			why = g_strdup_printf("no [patchwork %s] in the "
					      "configuration",
					      c->list);
		} else if (!(token = secretfile_read(pw->token_file, &ferr))) {
			why = g_strdup(ferr->message);
		} else {
			g_strstrip(token);
			ok = post(pw, token, c, &why, &permanent);
			secretfile_free(token);
		}
		if (ok) {
			if (!store_pwcheck_posted(st, c->id, now, error))
				return FALSE;
			(*posted)++;
			continue;
		}
		if (!permanent && pw)
			g_hash_table_add(down, c->list);
		wait = MIN((gint64)60 << MIN(c->attempts, 10), 6 * 3600);
		bot_log("patchwork",
			"series %" G_GINT64_FORMAT " <%s> %s: %s%s",
			c->series_id, c->message_id, c->context, why,
			permanent || c->attempts + 1 >= PATCHWORK_MAX_ATTEMPTS ?
				" (giving up)" :
				" (will retry)");
		if (!store_pwcheck_retry(st, c->id, why, now + wait,
					 permanent ||
						 c->attempts + 1 >=
							 PATCHWORK_MAX_ATTEMPTS,
					 error))
			return FALSE;
	}
	return TRUE;
}
