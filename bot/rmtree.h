/* Removing a directory tree, as `rm -rf` without its shell. */
#pragma once

/* Remove @path and everything below it.  Symlinks are removed, never
 * followed (like git's remove_dir_recursively() in dir.c), so a link to a
 * directory outside @path leaves that directory alone; @path itself may be
 * a file or a link.  A directory its owner cannot read or write is made
 * readable and writable first (its owner may).  Best effort: errors are ignored, and what could
 * not be removed stays. */
void rmtree(const char *path);
