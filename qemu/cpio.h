/* Writing initramfs archives: the cpio "newc" format the kernel unpacks
 * (Documentation/driver-api/early-userspace/buffer-format.rst), written by
 * libarchive.  The same calls give the same bytes: no time, owner or
 * inode number of the host goes in. */
#pragma once

#include <glib.h>

struct cpio;

struct cpio *cpio_new(void);

/* Add a directory, a regular file or a character device node.  Names
 * are relative ("dev/console"); parents must be added first. */
void cpio_add_dir(struct cpio *c, const char *name, guint mode);
void cpio_add_file(struct cpio *c, const char *name, guint mode,
		   const void *data, gsize len);
void cpio_add_chardev(struct cpio *c, const char *name, guint mode, guint major,
		      guint minor);

/* Close the archive with its TRAILER!!! entry and return it, or NULL with
 * @error when libarchive refused an entry.  @c is freed either way. */
GBytes *cpio_finish(struct cpio *c, GError **error);

/* Accepts NULL. */
void cpio_free(struct cpio *c);
