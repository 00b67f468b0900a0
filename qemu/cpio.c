/* cpio newc: a 110-byte ASCII header ("070701" and 13 eight-digit hex
 * fields), the NUL-terminated name, padding to 4 bytes, the data, padding
 * to 4 bytes; the archive ends with an entry named "TRAILER!!!". */
#include "qemu/cpio.h"

#include <string.h>
#include <sys/stat.h>

struct cpio {
	GByteArray *out;
	guint ino;
};

struct cpio *cpio_new(void)
{
	struct cpio *c = g_new0(struct cpio, 1);

	c->out = g_byte_array_new();
	c->ino = 1;
	return c;
}

static void pad4(struct cpio *c)
{
	static const guint8 zeros[4];

	g_byte_array_append(c->out, zeros, (4 - c->out->len % 4) % 4);
}

static void add_entry(struct cpio *c, const char *name, guint mode, guint nlink,
		      guint rmajor, guint rminor, const void *data, gsize len)
{
	g_autofree char *hdr = NULL;
	gsize namesize = strlen(name) + 1;

	/* mtime 0 and uid/gid 0: the same inputs give the same archive */
	hdr = g_strdup_printf("070701%08X%08X%08X%08X%08X%08X%08X%08X%08X"
			      "%08X%08X%08X%08X",
			      c->ino++, mode, 0u, 0u, nlink, 0u, (guint)len, 0u,
			      0u, rmajor, rminor, (guint)namesize, 0u);
	g_byte_array_append(c->out, (const guint8 *)hdr, strlen(hdr));
	g_byte_array_append(c->out, (const guint8 *)name, namesize);
	pad4(c);
	if (len) {
		g_byte_array_append(c->out, data, len);
		pad4(c);
	}
}

void cpio_add_dir(struct cpio *c, const char *name, guint mode)
{
	add_entry(c, name, S_IFDIR | (mode & 07777), 2, 0, 0, NULL, 0);
}

void cpio_add_file(struct cpio *c, const char *name, guint mode,
		   const void *data, gsize len)
{
	add_entry(c, name, S_IFREG | (mode & 07777), 1, 0, 0, data, len);
}

void cpio_add_chardev(struct cpio *c, const char *name, guint mode, guint major,
		      guint minor)
{
	add_entry(c, name, S_IFCHR | (mode & 07777), 1, major, minor, NULL, 0);
}

GBytes *cpio_finish(struct cpio *c)
{
	GBytes *b;

	c->ino = 0;
	add_entry(c, "TRAILER!!!", 0, 1, 0, 0, NULL, 0);
	b = g_byte_array_free_to_bytes(c->out);
	g_free(c);
	return b;
}

void cpio_free(struct cpio *c)
{
	if (!c)
		return;
	g_byte_array_unref(c->out);
	g_free(c);
}
