/* Removing a directory tree, as `rm -rf --one-file-system` without its
 * shell. */
#pragma once

#include <glib.h>

/* Remove @path and everything below it, with nftw(3) depth first.
 * Symlinks are removed, never followed (like git's
 * remove_dir_recursively() in dir.c), so a link to a directory outside
 * @path leaves that directory alone; @path itself may be a file or a link.
 * File systems mounted below @path are not entered.  A directory of ours
 * that we cannot read or write (a build may chmod what it made) is made
 * readable and writable first.  Best effort: what can
 * go goes; then FALSE with @error naming the first path that could not be
 * removed and why.  A @path that does not exist is no error. */
gboolean rmtree(const char *path, GError **error);
