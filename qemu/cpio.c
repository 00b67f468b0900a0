/* Initramfs archives with libarchive's newc writer; see qemu/cpio.h.
 *
 * libarchive writes what each entry says, so the entries say only what
 * does not vary: mtime 0, uid and gid 0, inode numbers counted from 1 in
 * the order of the calls.  Blocking is off (bytes per block 0): the
 * archive ends after its TRAILER!!! entry, not padded to 10 KiB. */
#include "qemu/cpio.h"

#include <archive.h>
#include <archive_entry.h>
#include <gio/gio.h>
#include <sys/stat.h>

struct cpio {
	struct archive *a;
	GByteArray *out;
	guint ino;
	char *error; /* libarchive's first complaint, for cpio_finish() */
};

typedef struct archive_entry archive_entry;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(archive_entry, archive_entry_free)

static la_ssize_t write_out(struct archive *a, void *data, const void *buf,
			    size_t len)
{
	struct cpio *c = data;

	g_byte_array_append(c->out, buf, len);
	return len;
}

/* Keep the first error: the later ones follow from it. */
static void note_error(struct cpio *c)
{
	if (!c->error)
		c->error = g_strdup(archive_error_string(c->a) ?
					    archive_error_string(c->a) :
					    "unknown libarchive error");
}

struct cpio *cpio_new(void)
{
	struct cpio *c = g_new0(struct cpio, 1);

	c->out = g_byte_array_new();
	c->ino = 1;
	c->a = archive_write_new();
	if (archive_write_set_format_cpio_newc(c->a) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(c->a, 0) != ARCHIVE_OK ||
	    archive_write_open(c->a, c, NULL, write_out, NULL) != ARCHIVE_OK)
		note_error(c);
	return c;
}

static void add_entry(struct cpio *c, const char *name, guint mode,
		      guint rmajor, guint rminor, const void *data, gsize len)
{
	g_autoptr(archive_entry) e = archive_entry_new();

	if (c->error)
		return;
	archive_entry_set_pathname(e, name);
	archive_entry_set_mode(e, mode);
	archive_entry_set_ino(e, c->ino++);
	archive_entry_set_nlink(e, S_ISDIR(mode) ? 2 : 1);
	archive_entry_set_rdevmajor(e, rmajor);
	archive_entry_set_rdevminor(e, rminor);
	archive_entry_set_size(e, len);
	if (archive_write_header(c->a, e) != ARCHIVE_OK ||
	    (len && archive_write_data(c->a, data, len) != (la_ssize_t)len))
		note_error(c);
}

void cpio_add_dir(struct cpio *c, const char *name, guint mode)
{
	add_entry(c, name, S_IFDIR | (mode & 07777), 0, 0, NULL, 0);
}

void cpio_add_file(struct cpio *c, const char *name, guint mode,
		   const void *data, gsize len)
{
	add_entry(c, name, S_IFREG | (mode & 07777), 0, 0, data, len);
}

void cpio_add_chardev(struct cpio *c, const char *name, guint mode, guint major,
		      guint minor)
{
	add_entry(c, name, S_IFCHR | (mode & 07777), major, minor, NULL, 0);
}

GBytes *cpio_finish(struct cpio *c, GError **error)
{
	GBytes *b = NULL;

	/* archive_write_close() writes the TRAILER!!! entry */
	if (!c->error && archive_write_close(c->a) != ARCHIVE_OK)
		note_error(c);
	if (c->error)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot write the cpio archive: %s", c->error);
	else
		b = g_byte_array_free_to_bytes(g_steal_pointer(&c->out));
	cpio_free(c);
	return b;
}

void cpio_free(struct cpio *c)
{
	if (!c)
		return;
	archive_write_free(c->a);
	g_clear_pointer(&c->out, g_byte_array_unref);
	g_free(c->error);
	g_free(c);
}
