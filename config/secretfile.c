/* Password files: see secretfile.h. */
#include "config/secretfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SECRETFILE_MAX 4096

void secretfile_free(char *s)
{
	if (s) {
		explicit_bzero(s, strlen(s));
		g_free(s);
	}
}

char *secretfile_read(const char *path, GError **error)
{
	struct stat st;
	char buf[SECRETFILE_MAX + 1];
	char *out;
	ssize_t n;
	int fd;

	/* checked on the open file, not the name: no race with a rename */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot open credentials file '%s': %s", path,
			    g_strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "credentials file '%s' is not a regular file",
			    path);
		close(fd);
		return NULL;
	}
	if (st.st_uid != geteuid()) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_PERM,
			    "credentials file '%s' belongs to uid %u, not to "
			    "the bot (uid %u)",
			    path, (guint)st.st_uid, (guint)geteuid());
		close(fd);
		return NULL;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_PERM,
			    "credentials file '%s' is accessible by group or "
			    "others (mode %04o): make it mode 600",
			    path, (guint)(st.st_mode & 07777));
		close(fd);
		return NULL;
	}
	n = read(fd, buf, SECRETFILE_MAX);
	close(fd);
	if (n < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot read credentials file '%s': %s", path,
			    g_strerror(errno));
		return NULL;
	}
	out = g_strndup(buf, n);
	explicit_bzero(buf, sizeof(buf));
	return out;
}
