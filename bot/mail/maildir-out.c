/* Maildir delivery: tmp/, fsync, link into new/, fsync the directory. */
#include "bot/mail/maildir-out.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean fail_errno(GError **error, int err, const char *what,
			   const char *path)
{
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err),
		    "cannot %s '%s': %s", what, path, g_strerror(err));
	return FALSE;
}

static gboolean fsync_dir(const char *path, GError **error)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return fail_errno(error, errno, "open", path);
	if (fsync(fd) < 0) {
		err = errno;
		close(fd);
		return fail_errno(error, err, "sync", path);
	}
	close(fd);
	return TRUE;
}

/* "TIME.M<usec>P<pid>Q<n>.HOST": the unique name of maildir(5), with
 * '/' and ':' of the host name written as \057 and \072. */
static char *unique_name(void)
{
	static gint counter;
	gint64 now = g_get_real_time();
	g_autoptr(GString) host = g_string_new(NULL);

	for (const char *p = g_get_host_name(); *p; p++) {
		if (*p == '/')
			g_string_append(host, "\\057");
		else if (*p == ':')
			g_string_append(host, "\\072");
		else
			g_string_append_c(host, *p);
	}
	return g_strdup_printf("%" G_GINT64_FORMAT ".M%06dP%dQ%d.%s",
			       now / G_USEC_PER_SEC,
			       (int)(now % G_USEC_PER_SEC), (int)getpid(),
			       g_atomic_int_add(&counter, 1) + 1, host->str);
}

gboolean maildir_out_deliver(const char *dir, GBytes *message, char **name_out,
			     GError **error)
{
	static const char *const subdirs[] = { "tmp", "new", "cur" };
	g_autofree char *tmp_dir = g_build_filename(dir, "tmp", NULL);
	g_autofree char *new_dir = g_build_filename(dir, "new", NULL);
	g_autofree char *name = NULL;
	g_autofree char *tmp_path = NULL;
	g_autofree char *new_path = NULL;
	gsize len, done = 0;
	const char *data = g_bytes_get_data(message, &len);
	int fd, err;

	for (guint i = 0; i < G_N_ELEMENTS(subdirs); i++) {
		g_autofree char *sub = g_build_filename(dir, subdirs[i], NULL);

		if (g_mkdir_with_parents(sub, 0700) < 0)
			return fail_errno(error, errno, "create maildir", sub);
	}
	/* O_EXCL: a name taken (a clash of clocks and pids) is retried */
	for (int attempt = 0;; attempt++) {
		g_free(name);
		g_free(tmp_path);
		name = unique_name();
		tmp_path = g_build_filename(tmp_dir, name, NULL);
		fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST || attempt == 10)
			return fail_errno(error, errno, "create", tmp_path);
	}
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		done += n;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	/* link, not rename: an existing name in new/ is never replaced */
	new_path = g_build_filename(new_dir, name, NULL);
	if (link(tmp_path, new_path) < 0)
		goto fail;
	unlink(tmp_path);
	if (!fsync_dir(new_dir, error)) {
		unlink(new_path);
		return FALSE;
	}
	if (name_out)
		*name_out = g_steal_pointer(&name);
	return TRUE;

fail:
	err = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp_path);
	return fail_errno(error, err, "deliver into", tmp_path);
}
