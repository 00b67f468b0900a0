/* armbot mailinfo: git mailinfo, byte for byte (mailparse/mailinfo.c).
 *
 *   armbot mailinfo [<options>] <msg> <patch> < mail > info
 *   armbot mailinfo [<options>] --each <mbox|dir> <outdir>
 *
 * The second form parses many mails in one process: every file of a
 * directory (as git mailsplit leaves them, in name order), every message of
 * a maildir, or every message of an mbox, writing <outdir>/<name>/ info,
 * msg, patch, err (what git prints on stderr) and status (git's exit
 * status).  An <outdir> of "-" parses without writing anything. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bot/cli/command.h"
#include "mailparse/mailbox.h"
#include "mailparse/mailinfo.h"

enum charset_policy { CHARSET_DEFAULT, CHARSET_NO_REENCODE, CHARSET_EXPLICIT };

static enum charset_policy charset_policy;
static int use_scissors; /* -1 unset, else the last of --[no-]scissors */
static int use_inbody_headers; /* the last of --[no-]inbody-headers */

/* git's parse-options: the last of each pair wins */
static gboolean set_scissors(const char *name, const char *value, gpointer data,
			     GError **error)
{
	use_scissors = strcmp(name, "--no-scissors") != 0;
	return TRUE;
}

static gboolean set_inbody(const char *name, const char *value, gpointer data,
			   GError **error)
{
	use_inbody_headers = strcmp(name, "--no-inbody-headers") != 0;
	return TRUE;
}

/* -u/--utf8, -n/--no-reencode, --encoding=ENC: the last one wins */
static gboolean set_policy(const char *name, const char *value, gpointer data,
			   GError **error)
{
	if (!strcmp(name, "--encoding"))
		charset_policy = CHARSET_EXPLICIT;
	else if (!strcmp(name, "-n") || !strcmp(name, "--no-reencode"))
		charset_policy = CHARSET_NO_REENCODE;
	else
		charset_policy = CHARSET_DEFAULT;
	return TRUE;
}

/* Write @data to @path as fopen("w") does: in place, so that /dev/null and
 * other special files work as for git. */
static gboolean write_file(const char *path, const GString *data,
			   GError **error)
{
	FILE *f = fopen(path, "w");
	gboolean ok;

	if (!f) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", path, g_strerror(errno));
		return FALSE;
	}
	ok = fwrite(data->str, 1, data->len, f) == data->len;
	if (fclose(f) != 0)
		ok = FALSE;
	if (!ok)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_IO,
			    "cannot write '%s'", path);
	return ok;
}

/* One mail to one set of outputs.  @patch_name is how git would name the
 * patch file in its "empty patch" error. */
static int run_one(GBytes *raw, const struct mailinfo_options *opts,
		   const char *msg_path, const char *patch_path,
		   const char *patch_name, GString *info, GString *err)
{
	g_autoptr(mailinfo_result) r = mailinfo_run(raw, opts);
	g_autoptr(GError) error = NULL;

	/* git opens (and so truncates) both files before reading the mail */
	if (!write_file(msg_path, r->msg, &error) ||
	    !write_file(patch_path, r->patch, &error)) {
		g_string_append_printf(err, "%s\n", error->message);
		return 1;
	}
	g_string_append_len(err, r->diagnostics->str, r->diagnostics->len);
	if (r->empty)
		g_string_append_printf(err, "error: empty patch: '%s'\n",
				       patch_name);
	else if (r->failed && !strstr(r->diagnostics->str, "error: "))
		/* git exits 1 without a word here; we name the problem */
		g_string_append_printf(err, "error: %s\n", r->problem);
	g_string_append_len(info, r->info->str, r->info->len);
	return r->failed ? 1 : 0;
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The mails of @src: the plain files of a directory (git mailsplit's
 * output), else whatever mailbox_open() reads.  Each comes with a name. */
static gboolean collect_mails(const char *src, gboolean mboxrd,
			      GPtrArray *names, GPtrArray *mails,
			      GError **error)
{
	g_autofree char *cur = g_build_filename(src, "cur", NULL);
	g_autofree char *new_dir = g_build_filename(src, "new", NULL);

	if (g_file_test(src, G_FILE_TEST_IS_DIR) &&
	    !g_file_test(cur, G_FILE_TEST_IS_DIR) &&
	    !g_file_test(new_dir, G_FILE_TEST_IS_DIR)) {
		g_autoptr(GDir) dir = g_dir_open(src, 0, error);
		g_autoptr(GPtrArray)
			files = g_ptr_array_new_with_free_func(g_free);
		const char *name;

		if (!dir)
			return FALSE;
		while ((name = g_dir_read_name(dir))) {
			g_autofree char *path =
				g_build_filename(src, name, NULL);

			if (name[0] != '.' &&
			    g_file_test(path, G_FILE_TEST_IS_REGULAR))
				g_ptr_array_add(files, g_strdup(name));
		}
		g_ptr_array_sort(files, compare_names);
		for (guint i = 0; i < files->len; i++) {
			g_autofree char *path =
				g_build_filename(src, files->pdata[i], NULL);
			char *contents;
			gsize len;

			if (!g_file_get_contents(path, &contents, &len, error))
				return FALSE;
			g_ptr_array_add(names, g_strdup(files->pdata[i]));
			g_ptr_array_add(mails, g_bytes_new_take(contents, len));
		}
		return TRUE;
	} else {
		struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
		g_autoptr(mailbox) mb = NULL;
		GBytes *raw;

		mopts.mboxrd = mboxrd;
		mb = mailbox_open(src, &mopts, error);
		if (!mb)
			return FALSE;
		for (guint n = 1;; n++) {
			if (!mailbox_next(mb, &raw, error))
				return FALSE;
			if (!raw)
				break;
			g_ptr_array_add(names, g_strdup_printf("%04u", n));
			g_ptr_array_add(mails, raw);
		}
		return TRUE;
	}
}

static int run_each(const char *src, const char *outdir, gboolean mboxrd,
		    const struct mailinfo_options *opts)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) mails =
		g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	g_autoptr(GError) error = NULL;
	guint failed = 0;

	if (!collect_mails(src, mboxrd, names, mails, &error))
		return command_fail(error);
	/* "-": parse only, for timing the parser without the file system */
	if (!strcmp(outdir, "-")) {
		for (guint i = 0; i < mails->len; i++) {
			g_autoptr(mailinfo_result)
				r = mailinfo_run(mails->pdata[i], opts);

			if (r->failed)
				failed++;
		}
		printf("%u mails, %u where git mailinfo fails\n", mails->len,
		       failed);
		return 0;
	}
	for (guint i = 0; i < mails->len; i++) {
		g_autofree char *dir =
			g_build_filename(outdir, names->pdata[i], NULL);
		g_autofree char *msg = g_build_filename(dir, "msg", NULL);
		g_autofree char *patch = g_build_filename(dir, "patch", NULL);
		g_autofree char *info_path =
			g_build_filename(dir, "info", NULL);
		g_autofree char *err_path = g_build_filename(dir, "err", NULL);
		g_autofree char *status_path =
			g_build_filename(dir, "status", NULL);
		g_autoptr(GString) info = g_string_new(NULL);
		g_autoptr(GString) err = g_string_new(NULL);
		g_autoptr(GString) status = NULL;
		int rc;

		if (g_mkdir_with_parents(dir, 0777) < 0) {
			fprintf(stderr, "error: cannot create '%s': %s\n", dir,
				g_strerror(errno));
			return 1;
		}
		rc = run_one(mails->pdata[i], opts, msg, patch, "patch", info,
			     err);
		status = g_string_new(NULL);
		g_string_printf(status, "%d\n", rc);
		if (!write_file(info_path, info, &error) ||
		    !write_file(err_path, err, &error) ||
		    !write_file(status_path, status, &error))
			return command_fail(error);
		if (rc)
			failed++;
	}
	printf("%u mails, %u where git mailinfo fails\n", mails->len, failed);
	return 0;
}

int cmd_mailinfo(struct armbot_context *ctx, int argc, char **argv)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	gboolean each = FALSE, mboxrd = FALSE;
	g_autofree char *quoted_cr = NULL;
	GOptionEntry options[] = {
		{ "keep-subject", 'k', 0, G_OPTION_ARG_NONE, &opts.keep_subject,
		  "keep the subject as it is (-k)", NULL },
		{ "keep-non-patch", 'b', 0, G_OPTION_ARG_NONE,
		  &opts.keep_non_patch,
		  "strip only brackets that contain PATCH (-b)", NULL },
		{ "message-id", 'm', 0, G_OPTION_ARG_NONE, &opts.add_message_id,
		  "copy Message-ID to the end of the commit message", NULL },
		{ "utf8", 'u', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_policy, "re-code metadata to UTF-8 (default)", NULL },
		{ "no-reencode", 'n', G_OPTION_FLAG_NO_ARG,
		  G_OPTION_ARG_CALLBACK, set_policy,
		  "disable charset re-coding of metadata", NULL },
		{ "encoding", 0, 0, G_OPTION_ARG_CALLBACK, set_policy,
		  "as git 2.39.5: no re-coding at all", "ENC" },
		{ "scissors", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_scissors, "drop everything before a scissors line",
		  NULL },
		{ "no-scissors", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_scissors, "ignore scissors lines", NULL },
		{ "inbody-headers", 0, G_OPTION_FLAG_NO_ARG,
		  G_OPTION_ARG_CALLBACK, set_inbody,
		  "use From/Subject/Date in the body (default)", NULL },
		{ "no-inbody-headers", 0, G_OPTION_FLAG_NO_ARG,
		  G_OPTION_ARG_CALLBACK, set_inbody,
		  "ignore From/Subject/Date in the body", NULL },
		{ "quoted-cr", 0, 0, G_OPTION_ARG_STRING, &quoted_cr,
		  "nowarn, warn or strip: what to do with quoted CRLF",
		  "ACTION" },
		{ "each", 0, 0, G_OPTION_ARG_NONE, &each,
		  "parse every mail of <mbox|dir> into <outdir>/<name>/",
		  NULL },
		{ "mboxrd", 0, 0, G_OPTION_ARG_NONE, &mboxrd,
		  "with --each on an mbox: unquote >From lines (mboxrd)",
		  NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) info = NULL;
	g_autoptr(GString) err = NULL;
	int rc;

	charset_policy = CHARSET_DEFAULT;
	use_scissors = -1;
	use_inbody_headers = 1;
	if (!command_parse_options(
		    "mailinfo", "<msg> <patch> < mail > info",
		    "Split a mail into author, subject, message and patch, "
		    "exactly as git mailinfo.\n"
		    "With --each: armbot mailinfo [<options>] --each "
		    "<mbox|dir> <outdir>",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 3) {
		return command_usage_error("mailinfo",
					   "expected two arguments");
	}
	/* git 2.39.5's builtin/mailinfo.c never stores the --encoding
	 * charset: the policy is "explicit" with no charset, so nothing is
	 * re-coded, as with -n */
	opts.charset = charset_policy == CHARSET_DEFAULT ? "UTF-8" : NULL;
	opts.use_scissors = use_scissors;
	opts.use_inbody_headers = use_inbody_headers;
	if (quoted_cr) {
		if (!strcmp(quoted_cr, "nowarn"))
			opts.quoted_cr = MAILINFO_QUOTED_CR_NOWARN;
		else if (!strcmp(quoted_cr, "warn"))
			opts.quoted_cr = MAILINFO_QUOTED_CR_WARN;
		else if (!strcmp(quoted_cr, "strip"))
			opts.quoted_cr = MAILINFO_QUOTED_CR_STRIP;
		else {
			fprintf(stderr,
				"error: bad action '%s' for '--quoted-cr'\n",
				quoted_cr);
			return COMMAND_USAGE_ERROR;
		}
	}
	if (each)
		return run_each(argv[1], argv[2], mboxrd, &opts);

	if (!mailbox_read_stdin(&raw, &error))
		return command_fail(error);
	info = g_string_new(NULL);
	err = g_string_new(NULL);
	rc = run_one(raw, &opts, argv[1], argv[2], argv[2], info, err);
	fwrite(err->str, 1, err->len, stderr);
	fwrite(info->str, 1, info->len, stdout);
	return rc;
}
