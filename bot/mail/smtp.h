/* Send one message by SMTP (RFC 5321) through libcurl: smtp:// with
 * STARTTLS (RFC 3207) required, opportunistic or off, or smtps://
 * (implicit TLS, RFC 8314); AUTH (RFC 4954) with credentials read from a
 * file only the bot can read.
 *
 * Failures are sorted for the caller's retry policy by the GError code:
 * SMTP_ERROR_TEMPORARY (the server is unreachable, times out, or answers
 * 4xx: retry later with backoff), SMTP_ERROR_PERMANENT (the server
 * refuses the message or every recipient with 5xx: retrying the same
 * message cannot help) and SMTP_ERROR_CONFIG (the local set-up is wrong:
 * URL, credentials file, TLS, authentication: nothing can be sent until
 * the operator fixes it; keep the message). */
#pragma once

#include <glib.h>

#define SMTP_ERROR smtp_error_quark()
GQuark smtp_error_quark(void);

enum smtp_error {
	SMTP_ERROR_TEMPORARY,
	SMTP_ERROR_PERMANENT,
	SMTP_ERROR_CONFIG,
};

enum smtp_starttls {
	SMTP_STARTTLS_OPPORTUNISTIC, /* when the server offers it */
	SMTP_STARTTLS_REQUIRED, /* fail (CONFIG) when it does not */
	SMTP_STARTTLS_NEVER,
};

struct smtp_options {
	const char *url; /* "smtp://host[:port]" or "smtps://host[:port]" */
	enum smtp_starttls starttls; /* smtp:// only */
	/* AUTH credentials: the first line is the user name, the second
	 * the password (taken verbatim: spaces, colons, anything).  The
	 * file must belong to the running user and not be readable or
	 * writable by group or others.  NULL: no AUTH.  With it, TLS is
	 * required: smtps:// or STARTTLS, never AUTH in clear. */
	const char *auth_file;
	/* SASL mechanism for AUTH ("PLAIN", "LOGIN"); NULL: the best one
	 * the server offers */
	const char *auth_mechanism;
	const char *ca_file; /* PEM CA bundle; NULL: the system's */
	gboolean insecure; /* do not verify the server's certificate */
	guint timeout; /* seconds for the whole transaction; 0: 60 */
};

#define SMTP_OPTIONS_INIT                                                     \
	{                                                                     \
		NULL, SMTP_STARTTLS_OPPORTUNISTIC, NULL, NULL, NULL, FALSE, 0 \
	}

/* Read the user name and password of @path (see auth_file).  Returns
 * FALSE with an SMTP_ERROR_CONFIG error when the file is missing, empty,
 * not the running user's, or readable by group or others. */
gboolean smtp_read_credentials(const char *path, char **user_out,
			       char **password_out, GError **error);

/* Send @message (RFC 5322, LF or CRLF line ends) from @envelope_from to
 * @recipients (char *, at least one) with @opts.  Lines are sent with
 * CRLF and dot-stuffed (RFC 5321 4.5.2).  A recipient the server refuses
 * while another is accepted is reported through g_warning() and does not
 * fail the send; TRUE means the server accepted the message (250 after
 * DATA). */
gboolean smtp_send(const struct smtp_options *opts, const char *envelope_from,
		   GPtrArray *recipients, GBytes *message, GError **error);
