/* A LAVA server's REST API (see qemu/lava-client.h). */
#include "qemu/lava-client.h"

#include <curl/curl.h>
#include <json-glib/json-glib.h>
#include <string.h>

#define MAX_ANSWER (64u << 20)
#define MAX_CONSOLE (16u << 20)
#define REQUEST_TIMEOUT_S 60

struct lava_client {
	char *base; /* ends in '/' */
	char *auth; /* "Authorization: Token ..." */
	char *ca_file;
};

struct lava_client *lava_client_new(const char *url, const char *token,
				    const char *ca_file)
{
	struct lava_client *c = g_new0(struct lava_client, 1);

	curl_global_init(CURL_GLOBAL_DEFAULT);
	c->base = g_str_has_suffix(url, "/") ? g_strdup(url) :
					       g_strconcat(url, "/", NULL);
	c->auth = g_strdup_printf("Authorization: Token %s", token);
	c->ca_file = g_strdup(ca_file);
	return c;
}

void lava_client_free(struct lava_client *c)
{
	if (!c)
		return;
	g_free(c->base);
	if (c->auth)
		memset(c->auth, 0, strlen(c->auth));
	g_free(c->auth);
	g_free(c->ca_file);
	g_free(c);
}

static size_t on_data(char *ptr, size_t size, size_t n, void *data)
{
	GString *s = data;

	if (s->len + size * n > MAX_ANSWER)
		return 0;
	g_string_append_len(s, ptr, (gssize)(size * n));
	return size * n;
}

/* One request to @path under the base; @body: POST it as JSON.  The
 * answer's body, or NULL with @error (LAVA_CLIENT_*). */
static GString *request(struct lava_client *c, const char *path,
			const char *body, GError **error)
{
	g_autofree char *url = g_strconcat(c->base, path, NULL);
	GString *answer = g_string_new(NULL);
	struct curl_slist *headers = NULL;
	CURL *curl = curl_easy_init();
	CURLcode rc;
	long status = 0;

	headers = curl_slist_append(headers, c->auth);
	headers = curl_slist_append(headers, "Accept: application/json");
	if (body)
		headers = curl_slist_append(headers,
					    "Content-Type: application/json");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)REQUEST_TIMEOUT_S);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
	if (c->ca_file)
		curl_easy_setopt(curl, CURLOPT_CAINFO, c->ca_file);
	if (body)
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	if (rc != CURLE_OK) {
		g_set_error(error, LAVA_CLIENT_ERROR, LAVA_CLIENT_UNREACHABLE,
			    "LAVA server %s: %s", c->base,
			    curl_easy_strerror(rc));
	} else if (status >= 500 || status == 0) {
		g_set_error(error, LAVA_CLIENT_ERROR, LAVA_CLIENT_UNREACHABLE,
			    "LAVA server %s: HTTP %ld on %s", c->base, status,
			    path);
	} else if (status >= 300) {
		g_set_error(error, LAVA_CLIENT_ERROR, LAVA_CLIENT_REFUSED,
			    "LAVA server %s: HTTP %ld on %s: %.200s", c->base,
			    status, path, answer->str);
	} else {
		return answer;
	}
	g_string_free(answer, TRUE);
	return NULL;
}

guint64 lava_client_submit(struct lava_client *c, const char *definition,
			   GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *body = NULL;
	g_autoptr(GString) answer = NULL;
	GError *e = NULL;
	guint64 id;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "definition");
	json_builder_add_string_value(b, definition);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	body = json_generator_to_data(gen, NULL);
	answer = request(c, "api/v0.2/jobs/", body, error);
	if (!answer)
		return 0;
	id = lava_submit_answer_parse(answer->str, answer->len, &e);
	if (!id) {
		g_set_error(error, LAVA_CLIENT_ERROR, LAVA_CLIENT_BAD_ANSWER,
			    "%s", e->message);
		g_error_free(e);
	}
	return id;
}

gboolean lava_client_status(struct lava_client *c, guint64 id,
			    struct lava_job_status *out, GError **error)
{
	g_autofree char *path =
		g_strdup_printf("api/v0.2/jobs/%" G_GUINT64_FORMAT "/", id);
	g_autoptr(GString) answer = request(c, path, NULL, error);
	GError *e = NULL;

	memset(out, 0, sizeof(*out));
	if (!answer)
		return FALSE;
	if (!lava_job_status_parse(answer->str, answer->len, out, &e)) {
		g_set_error(error, LAVA_CLIENT_ERROR, LAVA_CLIENT_BAD_ANSWER,
			    "job %" G_GUINT64_FORMAT ": %s", id, e->message);
		g_error_free(e);
		return FALSE;
	}
	return TRUE;
}

gboolean lava_client_log(struct lava_client *c, guint64 id,
			 struct lava_log *out, GError **error)
{
	g_autofree char *path = g_strdup_printf(
		"api/v0.2/jobs/%" G_GUINT64_FORMAT "/logs/", id);
	g_autoptr(GString) answer = request(c, path, NULL, error);

	memset(out, 0, sizeof(*out));
	if (!answer)
		return FALSE;
	lava_log_parse(answer->str, answer->len, MAX_CONSOLE, out);
	return TRUE;
}
