#include "mailparse/mailbox.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct mailbox {
	char *path;
	GPtrArray *messages; /* GBytes, for mbox, single message and stdin */
	GPtrArray *files; /* maildir file paths, sorted */
	guint next;
	char *position;
	gboolean numbered; /* an mbox: positions are "path:N" */
	gboolean keep_cr;
};

/* git builtin/mailsplit.c is_from_line(): "From " and something with a
 * colon-separated time followed by a year after 1990.  @len counts the
 * newline, as git's does. */
gboolean mailbox_is_from_line(const char *line, gsize len)
{
	const char *colon;
	const char *start = line + 5;
	const char *end = line + len;
	const char *y;
	long year = 0;

	if (len < 20 || memcmp("From ", line, 5))
		return FALSE;
	colon = line + len - 2;
	for (;;) {
		if (colon < start)
			return FALSE;
		if (*--colon == ':')
			break;
	}
	if (!g_ascii_isdigit(colon[-4]) || !g_ascii_isdigit(colon[-2]) ||
	    !g_ascii_isdigit(colon[-1]) || !g_ascii_isdigit(colon[1]) ||
	    !g_ascii_isdigit(colon[2]))
		return FALSE;
	/* strtol(colon + 3): leading blanks, a sign, digits; bounded here
	 * because the line need not be NUL-terminated */
	y = colon + 3;
	while (y < end && g_ascii_isspace(*y))
		y++;
	if (y < end && (*y == '+' || *y == '-')) {
		if (*y == '-')
			return FALSE;
		y++;
	}
	while (y < end && g_ascii_isdigit(*y) && year < 100000)
		year = year * 10 + (*y++ - '0');
	return year > 90;
}

/* mboxrd: one or more '>' then "From " */
static gboolean is_gtfrom(const char *line, gsize len)
{
	gsize ngt = 0;

	while (ngt < len && line[ngt] == '>')
		ngt++;
	return ngt > 0 && len - ngt >= 5 && !memcmp(line + ngt, "From ", 5);
}

/* Append one line (with its newline, if any) as git's split_one() writes
 * it. */
static void append_line(GByteArray *out, const char *line, gsize len,
			gboolean mboxrd, gboolean keep_cr)
{
	if (!keep_cr && len > 1 && line[len - 1] == '\n' &&
	    line[len - 2] == '\r') {
		if (mboxrd && is_gtfrom(line, len))
			line++, len--;
		g_byte_array_append(out, (const guint8 *)line, len - 2);
		g_byte_array_append(out, (const guint8 *)"\n", 1);
		return;
	}
	if (mboxrd && is_gtfrom(line, len))
		line++, len--;
	g_byte_array_append(out, (const guint8 *)line, len);
}

GPtrArray *mailbox_split_mbox(GBytes *data, gboolean mboxrd, gboolean keep_cr)
{
	GPtrArray *out =
		g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	gsize size;
	const char *buf = g_bytes_get_data(data, &size);
	const char *end = buf + size;
	const char *p = buf;
	GByteArray *cur = NULL;
	gboolean bare;

	/* git skips leading whitespace before the first line */
	while (p < end && g_ascii_isspace(*p))
		p++;
	if (p == end)
		return out;
	bare = FALSE;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize len = nl ? (gsize)(nl - p + 1) : (gsize)(end - p);
		if (!cur) {
			bare = !mailbox_is_from_line(p, len);
			cur = g_byte_array_new();
		} else if (!bare && mailbox_is_from_line(p, len)) {
			g_ptr_array_add(out, g_byte_array_free_to_bytes(cur));
			cur = g_byte_array_new();
		}
		append_line(cur, p, len, mboxrd, keep_cr);
		p += len;
	}
	if (cur)
		g_ptr_array_add(out, g_byte_array_free_to_bytes(cur));
	return out;
}

gboolean mailbox_read_stdin(GBytes **out, GError **error)
{
	g_autoptr(GByteArray) buf = g_byte_array_new();
	char chunk[65536];

	for (;;) {
		ssize_t n = read(0, chunk, sizeof(chunk));

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			g_set_error(error, G_FILE_ERROR,
				    g_file_error_from_errno(errno),
				    "cannot read standard input: %s",
				    g_strerror(errno));
			return FALSE;
		}
		g_byte_array_append(buf, (const guint8 *)chunk, n);
	}
	*out = g_byte_array_free_to_bytes(g_steal_pointer(&buf));
	return TRUE;
}

static gboolean read_file(const char *path, GBytes **out, GError **error)
{
	char *contents = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &contents, &len, error))
		return FALSE;
	*out = g_bytes_new_take(contents, len);
	return TRUE;
}

/* See mailparse/mailbox.h.  O_NOFOLLOW refuses the link, O_NONBLOCK keeps
 * the open of a FIFO from blocking, fstat() refuses what is not a file. */
gboolean mailbox_read_maildir_file(const char *path, GBytes **out,
				   GError **error)
{
	g_autoptr(GByteArray) buf = g_byte_array_new();
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
				    O_NOCTTY);
	int saved;

	if (fd < 0) {
		saved = errno;
		g_set_error(error, G_FILE_ERROR,
			    saved == ELOOP ? G_FILE_ERROR_INVAL :
					     g_file_error_from_errno(saved),
			    "cannot open '%s': %s", path,
			    saved == ELOOP ? "a symbolic link" :
					     g_strerror(saved));
		return FALSE;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "cannot read '%s': not a regular file", path);
		return FALSE;
	}
	for (;;) {
		guint8 chunk[65536];
		gssize n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			close(fd);
			g_set_error(error, G_FILE_ERROR,
				    g_file_error_from_errno(saved),
				    "cannot read '%s': %s", path,
				    g_strerror(saved));
			return FALSE;
		}
		if (n == 0)
			break;
		g_byte_array_append(buf, chunk, n);
	}
	close(fd);
	*out = g_byte_array_free_to_bytes(g_steal_pointer(&buf));
	return TRUE;
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Maildir: the files of cur/ and new/, each sorted by name as git mailsplit
 * does (names start with the delivery time, so this is arrival order). */
static gboolean list_maildir(struct mailbox *mb, GError **error)
{
	static const char *const subdirs[] = { "cur", "new" };

	mb->files = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < G_N_ELEMENTS(subdirs); i++) {
		g_autofree char *dir_path =
			g_build_filename(mb->path, subdirs[i], NULL);
		g_autoptr(GDir) dir = NULL;
		g_autoptr(GPtrArray) names = g_ptr_array_new();
		const char *name;
		g_autoptr(GError) local = NULL;

		dir = g_dir_open(dir_path, 0, &local);
		if (!dir) {
			if (g_error_matches(local, G_FILE_ERROR,
					    G_FILE_ERROR_NOENT))
				continue;
			g_propagate_error(error, g_steal_pointer(&local));
			return FALSE;
		}
		while ((name = g_dir_read_name(dir)))
			if (name[0] != '.')
				g_ptr_array_add(names, (gpointer)name);
		g_ptr_array_sort(names, compare_strings);
		for (guint j = 0; j < names->len; j++)
			g_ptr_array_add(mb->files,
					g_build_filename(dir_path,
							 names->pdata[j],
							 NULL));
	}
	return TRUE;
}

static gboolean is_maildir(const char *path)
{
	g_autofree char *cur = g_build_filename(path, "cur", NULL);
	g_autofree char *new_dir = g_build_filename(path, "new", NULL);

	return g_file_test(cur, G_FILE_TEST_IS_DIR) ||
	       g_file_test(new_dir, G_FILE_TEST_IS_DIR);
}

GBytes *mailbox_convert_single(GBytes *data, gboolean mboxrd, gboolean keep_cr)
{
	g_autoptr(GByteArray) out = g_byte_array_new();
	gsize size;
	const char *p = g_bytes_get_data(data, &size);
	const char *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize len = nl ? (gsize)(nl - p + 1) : (gsize)(end - p);

		append_line(out, p, len, mboxrd, keep_cr);
		p += len;
	}
	return g_byte_array_free_to_bytes(g_steal_pointer(&out));
}

struct mailbox *mailbox_open(const char *path,
			     const struct mailbox_options *opts, GError **error)
{
	struct mailbox_options defaults = MAILBOX_OPTIONS_INIT;
	g_autoptr(mailbox) mb = g_new0(struct mailbox, 1);
	g_autoptr(GBytes) data = NULL;
	enum mailbox_format format;
	gboolean mboxrd;

	if (!opts)
		opts = &defaults;
	format = opts->format;
	mboxrd = opts->mboxrd || format == MAILBOX_MBOXRD;
	mb->path = g_strdup(path);
	mb->keep_cr = opts->keep_cr;
	if (strcmp(path, "-") && (format == MAILBOX_MAILDIR ||
				  (format == MAILBOX_AUTO &&
				   g_file_test(path, G_FILE_TEST_IS_DIR)))) {
		if (!is_maildir(path)) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
				    "'%s' is not a maildir (no cur/ or new/)",
				    path);
			return NULL;
		}
		if (!list_maildir(mb, error))
			return NULL;
		return g_steal_pointer(&mb);
	}
	if (!strcmp(path, "-") ? !mailbox_read_stdin(&data, error) :
				 !read_file(path, &data, error))
		return NULL;
	if (format == MAILBOX_AUTO) {
		gsize size;
		const char *p = g_bytes_get_data(data, &size);
		const char *end = p + size;
		const char *nl;

		while (p < end && g_ascii_isspace(*p))
			p++;
		nl = memchr(p, '\n', end - p);
		format = mailbox_is_from_line(p, nl ? (gsize)(nl - p + 1) :
						      (gsize)(end - p)) ?
				 MAILBOX_MBOX :
				 MAILBOX_MESSAGE;
	}
	if (format == MAILBOX_MESSAGE) {
		mb->messages = g_ptr_array_new_with_free_func(
			(GDestroyNotify)g_bytes_unref);
		if (g_bytes_get_size(data) > 0)
			g_ptr_array_add(mb->messages,
					mailbox_convert_single(data, mboxrd,
							       opts->keep_cr));
	} else {
		mb->numbered = TRUE;
		mb->messages = mailbox_split_mbox(data, mboxrd, opts->keep_cr);
	}
	return g_steal_pointer(&mb);
}

gboolean mailbox_next(struct mailbox *mb, GBytes **out, GError **error)
{
	*out = NULL;
	g_clear_pointer(&mb->position, g_free);
	if (mb->files) {
		GBytes *raw = NULL;
		const char *file;

		for (;;) {
			g_autoptr(GError) local = NULL;

			if (mb->next >= mb->files->len)
				return TRUE;
			file = mb->files->pdata[mb->next++];
			if (mailbox_read_maildir_file(file, &raw, &local))
				break;
			/* not mail: left where it is, the rest read */
			if (!g_error_matches(local, G_FILE_ERROR,
					     G_FILE_ERROR_INVAL)) {
				mb->position = g_strdup(file);
				g_propagate_error(error,
						  g_steal_pointer(&local));
				return FALSE;
			}
			g_warning("%s", local->message);
		}
		mb->position = g_strdup(file);
		*out = mailbox_convert_single(raw, FALSE, mb->keep_cr);
		g_bytes_unref(raw);
		return TRUE;
	}
	if (mb->next >= mb->messages->len)
		return TRUE;
	mb->next++;
	mb->position = mb->numbered ?
			       g_strdup_printf("%s:%u", mb->path, mb->next) :
			       g_strdup(mb->path);
	*out = g_bytes_ref(mb->messages->pdata[mb->next - 1]);
	return TRUE;
}

const char *mailbox_position(const struct mailbox *mb)
{
	return mb->position ? mb->position : mb->path;
}

void mailbox_free(struct mailbox *mb)
{
	if (!mb)
		return;
	g_free(mb->path);
	g_free(mb->position);
	g_clear_pointer(&mb->messages, g_ptr_array_unref);
	g_clear_pointer(&mb->files, g_ptr_array_unref);
	g_free(mb);
}
