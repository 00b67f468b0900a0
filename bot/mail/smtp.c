/* One SMTP transaction through libcurl, with the outcome sorted into
 * temporary, permanent and configuration failures (see smtp.h). */
#include "bot/mail/smtp.h"

#include "config/secretfile.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMTP_DEFAULT_TIMEOUT 60

G_DEFINE_QUARK(smtp - error - quark, smtp_error)

gboolean smtp_read_credentials(const char *path, char **user_out,
			       char **password_out, GError **error)
{
	GError *local = NULL;
	char *text, *nl;

	text = secretfile_read(path, &local);
	if (!text) {
		g_set_error_literal(error, SMTP_ERROR, SMTP_ERROR_CONFIG,
				    local->message);
		g_error_free(local);
		return FALSE;
	}
	nl = strchr(text, '\n');
	if (!nl || nl == text) {
		g_set_error(error, SMTP_ERROR, SMTP_ERROR_CONFIG,
			    "credentials file '%s': want the user name on the "
			    "first line and the password on the second",
			    path);
		secretfile_free(text);
		return FALSE;
	}
	*user_out = g_strndup(text, nl - text);
	*password_out = g_strdup(nl + 1);
	secretfile_free(text);
	/* the line ends of the file are not part of the password */
	(*password_out)[strcspn(*password_out, "\r\n")] = '\0';
	(*user_out)[strcspn(*user_out, "\r")] = '\0';
	return TRUE;
}

/* The message with every line ending in CRLF (RFC 5321 2.3.8), which is
 * also what lets libcurl find the lines that need dot-stuffing. */
static GByteArray *to_crlf(GBytes *message)
{
	gsize len;
	const guint8 *p = g_bytes_get_data(message, &len);
	GByteArray *out = g_byte_array_sized_new(len + len / 32 + 2);

	for (gsize i = 0; i < len; i++) {
		if (p[i] == '\n' && (i == 0 || p[i - 1] != '\r'))
			g_byte_array_append(out, (const guint8 *)"\r", 1);
		g_byte_array_append(out, &p[i], 1);
	}
	return out;
}

struct upload {
	const guint8 *data;
	gsize len, pos;
};

static size_t read_cb(char *buf, size_t size, size_t nitems, void *data)
{
	struct upload *u = data;
	size_t n = MIN(size * nitems, u->len - u->pos);

	memcpy(buf, u->data + u->pos, n);
	u->pos += n;
	return n;
}

/* What the server said, from libcurl's protocol trace: the last reply
 * line, and recipients it refused. */
struct transcript {
	char *last_command; /* "RCPT TO:<x>" */
	char *last_error; /* the last 4xx/5xx reply: "550 5.1.1 ..." */
	GPtrArray *refused; /* "x: 550 ..." */
};

static int debug_cb(CURL *curl, curl_infotype type, char *data, size_t size,
		    void *userp)
{
	struct transcript *t = userp;
	g_autofree char *line = NULL;

	if (type != CURLINFO_HEADER_OUT && type != CURLINFO_HEADER_IN)
		return 0;
	line = g_strndup(data, size);
	g_strchomp(line);
	if (type == CURLINFO_HEADER_OUT) {
		/* never keep AUTH's base64 credentials */
		g_free(t->last_command);
		t->last_command = g_str_has_prefix(line, "AUTH") ?
					  g_strdup("AUTH") :
					  g_steal_pointer(&line);
		return 0;
	}
	/* multi-line replies (EHLO) end with "NNN text" */
	if (strlen(line) < 4 || line[3] == '-')
		return 0;
	if (line[0] != '4' && line[0] != '5')
		return 0;
	if (t->last_command && g_str_has_prefix(t->last_command, "RCPT TO:"))
		g_ptr_array_add(t->refused,
				g_strdup_printf("%s refused: %s",
						t->last_command + 8, line));
	g_free(t->last_error);
	t->last_error = g_steal_pointer(&line);
	return 0;
}

/* Sort a failed transfer: @code from libcurl, @response the last reply
 * code (0 when none). */
static enum smtp_error classify(CURLcode code, long response)
{
	/* RFC 4954 6: 530 authentication required, 534 mechanism too
	 * weak, 535 credentials invalid, 538 encryption required: ours to
	 * fix; 454 is a temporary authentication failure */
	if (response == 530 || response == 534 || response == 535 ||
	    response == 538)
		return SMTP_ERROR_CONFIG;
	if (response >= 400 && response < 500)
		return SMTP_ERROR_TEMPORARY;
	if (response >= 500 && response < 600)
		return code == CURLE_LOGIN_DENIED ? SMTP_ERROR_CONFIG :
						    SMTP_ERROR_PERMANENT;
	switch (code) {
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_LOGIN_DENIED:
	case CURLE_USE_SSL_FAILED:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_NOT_BUILT_IN:
		return SMTP_ERROR_CONFIG;
	default:
		/* unreachable, refused, reset, timed out: try again */
		return SMTP_ERROR_TEMPORARY;
	}
}

static const char *error_kind(enum smtp_error e)
{
	return e == SMTP_ERROR_TEMPORARY ? "temporary failure" :
	       e == SMTP_ERROR_PERMANENT ? "permanent failure" :
					   "configuration error";
}

static gpointer global_init(gpointer data)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return NULL;
}

gboolean smtp_send(const struct smtp_options *opts, const char *envelope_from,
		   GPtrArray *recipients, GBytes *message, GError **error)
{
	static GOnce once = G_ONCE_INIT;
	g_autoptr(GByteArray) data = NULL;
	struct upload up = { 0 };
	struct transcript t = { 0 };
	struct curl_slist *rcpt = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	g_autofree char *from = NULL;
	char *user = NULL, *password = NULL;
	g_autofree char *login = NULL;
	long response = 0;
	gboolean ok = FALSE;
	CURLcode code;
	CURL *curl;

	if (!opts->url || (!g_str_has_prefix(opts->url, "smtp://") &&
			   !g_str_has_prefix(opts->url, "smtps://"))) {
		g_set_error(error, SMTP_ERROR, SMTP_ERROR_CONFIG,
			    "bad SMTP URL '%s': want smtp://HOST[:PORT] or "
			    "smtps://HOST[:PORT]",
			    opts->url ? opts->url : "");
		return FALSE;
	}
	if (!recipients || !recipients->len) {
		g_set_error(error, SMTP_ERROR, SMTP_ERROR_PERMANENT,
			    "no recipient");
		return FALSE;
	}
	/* RFC 4954 4: AUTH PLAIN and LOGIN send the password as it is; over
	 * a connection without TLS anyone on the path reads it */
	if (opts->auth_file && g_str_has_prefix(opts->url, "smtp://") &&
	    opts->starttls == SMTP_STARTTLS_NEVER) {
		g_set_error(error, SMTP_ERROR, SMTP_ERROR_CONFIG,
			    "refusing AUTH without TLS to '%s': use smtps:// "
			    "or STARTTLS with an auth file",
			    opts->url);
		return FALSE;
	}
	if (opts->auth_file &&
	    !smtp_read_credentials(opts->auth_file, &user, &password, error))
		return FALSE;
	g_once(&once, global_init, NULL);
	curl = curl_easy_init();
	if (!curl) {
		g_set_error(error, SMTP_ERROR, SMTP_ERROR_TEMPORARY,
			    "cannot start libcurl");
		goto done;
	}

	data = to_crlf(message);
	up.data = data->data;
	up.len = data->len;
	t.refused = g_ptr_array_new_with_free_func(g_free);
	from = g_strdup_printf("<%s>", envelope_from ? envelope_from : "");
	for (guint i = 0; i < recipients->len; i++) {
		g_autofree char *r =
			g_strdup_printf("<%s>", (char *)recipients->pdata[i]);

		rcpt = curl_slist_append(rcpt, r);
	}

	curl_easy_setopt(curl, CURLOPT_URL, opts->url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT,
			 (long)(opts->timeout ? opts->timeout :
						SMTP_DEFAULT_TIMEOUT));
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
	/* one refused recipient (the author's address gone) must not keep
	 * the reply from the list: continue while one is accepted */
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(curl, CURLOPT_READDATA, &up);
	curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)data->len);
	curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &t);
	curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
	/* with credentials, STARTTLS is required: a server (or a man in the
	 * middle) that does not offer it gets no AUTH */
	if (g_str_has_prefix(opts->url, "smtp://"))
		curl_easy_setopt(curl, CURLOPT_USE_SSL,
				 opts->starttls == SMTP_STARTTLS_REQUIRED ||
						 user ?
					 (long)CURLUSESSL_ALL :
				 opts->starttls == SMTP_STARTTLS_NEVER ?
					 (long)CURLUSESSL_NONE :
					 (long)CURLUSESSL_TRY);
	if (opts->ca_file)
		curl_easy_setopt(curl, CURLOPT_CAINFO, opts->ca_file);
	if (opts->insecure) {
		curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, password);
		if (opts->auth_mechanism) {
			login = g_strdup_printf("AUTH=%s",
						opts->auth_mechanism);
			curl_easy_setopt(curl, CURLOPT_LOGIN_OPTIONS, login);
		}
	}

	code = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response);
	if (code == CURLE_OK) {
		for (guint i = 0; i < t.refused->len; i++)
			g_warning("smtp: recipient %s",
				  (char *)t.refused->pdata[i]);
		ok = TRUE;
	} else {
		enum smtp_error kind = classify(code, response);
		const char *why = *errbuf ? errbuf : curl_easy_strerror(code);

		/* every recipient refused: the last reply says why */
		if (response >= 400 && t.last_error)
			g_set_error(error, SMTP_ERROR, kind,
				    "%s: %s: server said: %s", opts->url,
				    error_kind(kind), t.last_error);
		else
			g_set_error(error, SMTP_ERROR, kind, "%s: %s: %s",
				    opts->url, error_kind(kind), why);
	}

done:
	if (curl)
		curl_easy_cleanup(curl);
	curl_slist_free_all(rcpt);
	g_free(t.last_command);
	g_free(t.last_error);
	g_clear_pointer(&t.refused, g_ptr_array_unref);
	g_free(user);
	secretfile_free(password);
	return ok;
}
