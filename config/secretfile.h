/* Files that hold a password (SMTP auth-file, IMAP password-file): they
 * must be regular files of the running user, with no access for group or
 * others, and their contents are wiped from memory when freed. */
#pragma once

#include <glib.h>

/* The contents of @path (at most 4096 bytes, NUL-terminated; free with
 * secretfile_free).  NULL with a G_FILE_ERROR error naming the file when
 * it cannot be read, is not a regular file, is not the running user's or
 * is accessible by group or others (with its mode). */
char *secretfile_read(const char *path, GError **error);

/* Overwrite and free @s; NULL is accepted. */
void secretfile_free(char *s);
