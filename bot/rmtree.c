/* Removing a directory tree.  See bot/rmtree.h. */
#include "bot/rmtree.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

void rmtree(const char *path)
{
	g_autoptr(GDir) dir = NULL;
	const char *name;
	GStatBuf st;

	/* lstat(): a link to a directory is a link, removed by unlink() */
	if (g_lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		g_unlink(path);
		return;
	}
	/* a directory its owner made unreadable or read-only (a build in
	 * the sandbox writes as our uid): ours to open and empty */
	if ((st.st_mode & 0700) != 0700)
		g_chmod(path, (st.st_mode & 07777) | 0700);
	dir = g_dir_open(path, 0, NULL);
	while (dir && (name = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		rmtree(child);
	}
	g_rmdir(path);
}
