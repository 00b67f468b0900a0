/* armbot sendmail: send one message from stdin the way the bot sends its
 * replies (bot/mail/smtp.c), or deliver it into a maildir (bot/mail/maildir-out.c).
 * For operators testing their SMTP set-up, and for the tests.
 *
 *   armbot sendmail --smtp URL [--starttls=try|required|never]
 *                   [--auth-file F] [--from ADDR] [RCPT...] < message
 *   armbot sendmail --maildir DIR < message
 *
 * Without RCPT the recipients are the message's To and Cc; without
 * --from the envelope sender is its From.  The exit status follows
 * sendmail's (sysexits.h): 75 for a temporary failure worth retrying, 69
 * for a permanent one, 78 for a configuration error. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/command.h"
#include "bot/mail/maildir-out.h"
#include "bot/mail/smtp.h"
#include "mailparse/message.h"

#define EX_UNAVAILABLE 69
#define EX_TEMPFAIL 75
#define EX_CONFIG 78
#define MESSAGE_MAX (64 * 1024 * 1024)

static GBytes *read_stdin(GError **error)
{
	g_autoptr(GByteArray) buf = g_byte_array_new();
	guint8 chunk[65536];

	for (;;) {
		ssize_t n = read(0, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_set_error(error, G_FILE_ERROR,
				    g_file_error_from_errno(errno), "%s",
				    g_strerror(errno));
			return NULL;
		}
		if (n == 0)
			break;
		g_byte_array_append(buf, chunk, n);
		if (buf->len > MESSAGE_MAX) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
				    "message larger than %d bytes",
				    MESSAGE_MAX);
			return NULL;
		}
	}
	return g_byte_array_free_to_bytes(g_steal_pointer(&buf));
}

static gboolean parse_starttls(const char *s, enum smtp_starttls *out)
{
	if (!s || !strcmp(s, "try"))
		*out = SMTP_STARTTLS_OPPORTUNISTIC;
	else if (!strcmp(s, "required"))
		*out = SMTP_STARTTLS_REQUIRED;
	else if (!strcmp(s, "never"))
		*out = SMTP_STARTTLS_NEVER;
	else
		return FALSE;
	return TRUE;
}

int cmd_sendmail(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *url = NULL, *starttls = NULL, *auth_file = NULL;
	g_autofree char *mechanism = NULL, *ca_file = NULL, *from = NULL;
	g_autofree char *maildir = NULL;
	gboolean insecure = FALSE;
	int timeout = 0;
	GOptionEntry options[] = {
		{ "smtp", 0, 0, G_OPTION_ARG_STRING, &url,
		  "the server: smtp://HOST[:PORT] or smtps://HOST[:PORT]",
		  "URL" },
		{ "starttls", 0, 0, G_OPTION_ARG_STRING, &starttls,
		  "STARTTLS on smtp://: try (default), required, never",
		  "WHEN" },
		{ "auth-file", 0, 0, G_OPTION_ARG_FILENAME, &auth_file,
		  "AUTH with the user (first line) and password (second "
		  "line) of FILE, which must be mode 600",
		  "FILE" },
		{ "auth-mechanism", 0, 0, G_OPTION_ARG_STRING, &mechanism,
		  "SASL mechanism (PLAIN, LOGIN); default: the server's best",
		  "MECH" },
		{ "ca-file", 0, 0, G_OPTION_ARG_FILENAME, &ca_file,
		  "verify the server against the CAs of FILE", "FILE" },
		{ "insecure", 0, 0, G_OPTION_ARG_NONE, &insecure,
		  "do not verify the server's certificate", NULL },
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout,
		  "seconds for the whole transaction (default 60)", "S" },
		{ "from", 0, 0, G_OPTION_ARG_STRING, &from,
		  "envelope sender (default: the From address)", "ADDR" },
		{ "maildir", 0, 0, G_OPTION_ARG_FILENAME, &maildir,
		  "deliver into the maildir DIR instead of sending", "DIR" },
		G_OPTION_ENTRY_NULL
	};
	struct smtp_options opts = SMTP_OPTIONS_INIT;
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(message) msg = NULL;
	g_autoptr(GPtrArray) rcpt = g_ptr_array_new_with_free_func(g_free);

	if (!command_parse_options(
		    "sendmail", "[RCPT...] < MESSAGE",
		    "Send one message by SMTP as armbot sends its replies, "
		    "or deliver it into a maildir.\nExit status: 0 sent, 75 "
		    "temporary failure, 69 permanent failure, 78 "
		    "configuration error.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (!url == !maildir || timeout < 0 ||
	    !parse_starttls(starttls, &opts.starttls)) {
		return command_usage_error(
			"sendmail",
			"want one of --smtp URL and --maildir DIR, --starttls=try|required|never");
	}

	raw = read_stdin(&error);
	if (!raw) {
		fprintf(stderr, "error: cannot read the message: %s\n",
			error->message);
		return 1;
	}
	if (maildir) {
		g_autofree char *name = NULL;

		if (!maildir_out_deliver(maildir, raw, &name, &error))
			return command_fail_status(error, EX_TEMPFAIL);
		printf("new/%s\n", name);
		return 0;
	}

	msg = message_parse(raw, &error);
	if (!msg) {
		fprintf(stderr, "error: not a message: %s\n", error->message);
		return 1;
	}
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(rcpt, g_strdup(argv[i]));
	for (guint i = 0; argc < 2 && i < msg->to->len; i++)
		g_ptr_array_add(rcpt, g_strdup(msg->to->pdata[i]));
	if (!rcpt->len) {
		fprintf(stderr, "error: no recipient: give RCPT or a To "
				"header\n");
		return COMMAND_USAGE_ERROR;
	}

	opts.url = url;
	opts.auth_file = auth_file;
	opts.auth_mechanism = mechanism;
	opts.ca_file = ca_file;
	opts.insecure = insecure;
	opts.timeout = timeout;
	if (!smtp_send(&opts, from ? from : msg->from_email, rcpt, raw,
		       &error)) {
		return command_fail_status(
			error,
			error->code == SMTP_ERROR_TEMPORARY ? EX_TEMPFAIL :
			error->code == SMTP_ERROR_PERMANENT ? EX_UNAVAILABLE :
							      EX_CONFIG);
	}
	return 0;
}
