/* Removing a directory tree with nftw(3).  See kernel/tree/rmtree.h. */
#define _GNU_SOURCE /* nftw() and its FTW_* flags */
#include "kernel/tree/rmtree.h"

#include <errno.h>
#include <ftw.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* nftw() passes its callback no data of the caller: the first failure of
 * this thread's walk */
static _Thread_local char *first_error;
static _Thread_local int first_errno;

static void note_failure(const char *path, int err)
{
	if (first_error)
		return;
	first_errno = err;
	first_error = g_strdup_printf("cannot remove '%s': %s", path,
				      g_strerror(err));
}

/* FTW_DEPTH: a directory comes after everything in it.  FTW_PHYS: a link
 * comes as itself (FTW_SL), never as what it points at. */
static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	int r;

	switch (type) {
	case FTW_DP:
		r = rmdir(path);
		break;
	case FTW_DNR:
		/* unreadable: what is in it stays, and so does it */
		note_failure(path, EACCES);
		return 0;
	default: /* FTW_F, FTW_SL, FTW_SLN, FTW_NS */
		r = unlink(path);
		break;
	}
	if (r != 0 && errno != ENOENT)
		note_failure(path, errno);
	return 0; /* best effort: go on with the rest */
}

/* Before the contents of a directory are read (pre-order): a directory
 * whose owner cannot read, enter or write it (a build in the sandbox
 * writes as our uid and may chmod what it made) is made so, if it is
 * ours; the removal that follows then can empty it. */
static int open_up(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	if (type == FTW_D && (st->st_mode & 0700) != 0700)
		chmod(path, (st->st_mode & 07777) | 0700);
	return 0;
}

static void remove_walk(const char *path)
{
	g_clear_pointer(&first_error, g_free);
	/* FTW_MOUNT: what is mounted below @path is another file system,
	 * left alone (and so its mount point stays) */
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) !=
		    0 &&
	    errno != ENOENT)
		note_failure(path, errno);
}

gboolean rmtree(const char *path, GError **error)
{
	remove_walk(path);
	if (first_error && (first_errno == EACCES || first_errno == EPERM)) {
		/* only then a second walk: most trees have no such
		 * directory, and build dirs are large */
		nftw(path, open_up, 16, FTW_PHYS | FTW_MOUNT);
		remove_walk(path);
	}
	if (first_error) {
		g_set_error_literal(error, G_IO_ERROR,
				    g_io_error_from_errno(first_errno),
				    first_error);
		g_clear_pointer(&first_error, g_free);
		return FALSE;
	}
	return TRUE;
}
