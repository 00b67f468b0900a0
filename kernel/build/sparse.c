/* Warnings identified by content, not by line number: a series that moves
 * code shifts every line number below it, and a count comparison (as
 * netdev's bot does) misses a warning swapped for another. */
#include "kernel/build/sparse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sparse_warning_free(struct sparse_warning *w)
{
	if (!w)
		return;
	g_free(w->tool);
	g_free(w->file);
	g_free(w->severity);
	g_free(w->message);
	g_free(w->source);
	g_free(w);
}

/* "FILE:LINE:COL: REST" (gcc without -fno-show-column prints the column;
 * sparse always does).  Returns REST, or NULL for other lines. */
static const char *split_location(const char *line, char **file, guint *lineno,
				  guint *column)
{
	const char *p = line;

	/* the file name ends at the first ":<digits>:<digits>:" */
	while ((p = strchr(p, ':'))) {
		char *end;
		guint64 l, c;

		if (!g_ascii_isdigit(p[1])) {
			p++;
			continue;
		}
		l = g_ascii_strtoull(p + 1, &end, 10);
		if (*end != ':' || !g_ascii_isdigit(end[1])) {
			p++;
			continue;
		}
		c = g_ascii_strtoull(end + 1, &end, 10);
		if (*end != ':' || p == line) {
			p++;
			continue;
		}
		*file = g_strndup(line, p - line);
		*lineno = (guint)l;
		*column = (guint)c;
		return end + 1;
	}
	return NULL;
}

GPtrArray *sparse_parse(const char *log, const char *tool)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(
		(GDestroyNotify)sparse_warning_free);
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);
	struct sparse_warning *last = NULL;

	for (guint i = 0; lines[i]; i++) {
		g_autofree char *file = NULL;
		guint lineno, column;
		const char *rest =
			split_location(lines[i], &file, &lineno, &column);
		const char *sev = NULL;
		struct sparse_warning *w;

		if (!rest) {
			/* gcc's source excerpt, "In function", make's
			 * chatter: not part of any warning's identity */
			continue;
		}
		if (g_str_has_prefix(rest, " warning: "))
			sev = "warning";
		else if (g_str_has_prefix(rest, " error: "))
			sev = "error";
		else if (g_str_has_prefix(rest, " fatal error: "))
			sev = "error";
		if (!sev) {
			/* sparse: "FILE:L:C:    expected ..." continues the
			 * warning at the same place */
			if (last && g_str_has_prefix(rest, "    ") &&
			    !strcmp(last->file, file) && last->line == lineno) {
				g_autofree char *more =
					g_strstrip(g_strdup(rest));
				char *joined = g_strconcat(last->message,
							   " @@ ", more, NULL);

				g_free(last->message);
				last->message = joined;
			} else {
				/* a note: says where, is not a warning */
				last = NULL;
			}
			continue;
		}
		w = g_new0(struct sparse_warning, 1);
		w->tool = g_strdup(tool);
		w->file = g_steal_pointer(&file);
		w->line = lineno;
		w->column = column;
		w->severity = g_strdup(sev);
		w->message = g_strstrip(g_strdup(strchr(rest + 1, ':') + 1));
		g_ptr_array_add(out, w);
		last = w;
	}
	return out;
}

/* A warning's FILE is untrusted: the tree it names was written by the
 * series under test, and the log may be too.  Only regular files below
 * @src_dir are read: each component opened with O_NOFOLLOW, no "..", as
 * openat2(2) RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS would (not used: Linux
 * 5.6 and no glibc wrapper); O_NONBLOCK so that a FIFO does not hang the
 * worker; at most SPARSE_SOURCE_MAX bytes so that /dev/zero or a huge file
 * does not grow memory. */
#define SPARSE_SOURCE_MAX (4 * 1024 * 1024)

/* An fd open for reading on @file below @root, or -1. */
static int open_beneath(const char *root, const char *file)
{
	g_auto(GStrv) parts = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	const char *rel = file;
	int dir;

	if (g_path_is_absolute(file)) {
		gsize len = strlen(root);

		/* kbuild prints absolute names in O= builds */
		if (strncmp(file, root, len) || file[len] != '/')
			return -1;
		rel = file + len + 1;
	}
	parts = g_strsplit(rel, "/", -1);
	for (guint i = 0; parts[i]; i++) {
		if (!strcmp(parts[i], ".."))
			return -1;
		if (*parts[i] && strcmp(parts[i], "."))
			g_ptr_array_add(names, parts[i]);
	}
	if (!names->len)
		return -1;
	dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (guint i = 0; dir >= 0 && i < names->len; i++) {
		gboolean last = i + 1 == names->len;
		int next = openat(dir, names->pdata[i],
				  O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
					  (last ? O_NONBLOCK | O_NOCTTY :
						  O_DIRECTORY));

		close(dir);
		dir = next;
	}
	return dir;
}

/* The first SPARSE_SOURCE_MAX bytes of @file below @root, split in lines;
 * NULL when it is not a regular file there or cannot be read. */
static char **read_beneath(const char *root, const char *file)
{
	g_autofree char *buf = NULL;
	gsize len = 0;
	struct stat st;
	int fd = open_beneath(root, file);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	buf = g_malloc(MIN((gsize)st.st_size, SPARSE_SOURCE_MAX) + 1);
	while (len < (gsize)MIN(st.st_size, SPARSE_SOURCE_MAX)) {
		gssize n =
			read(fd, buf + len,
			     MIN((gsize)st.st_size, SPARSE_SOURCE_MAX) - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return g_strsplit(buf, "\n", -1);
}

void sparse_attach_source(GPtrArray *warnings, const char *src_dir)
{
	g_autoptr(GHashTable) files =
		g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
				      (GDestroyNotify)g_ptr_array_unref);
	g_autofree char *root = realpath(src_dir, NULL);
	GHashTableIter iter;
	gpointer key, value;

	/* one file in memory at a time */
	for (guint i = 0; i < warnings->len; i++) {
		struct sparse_warning *w = warnings->pdata[i];
		GPtrArray *same = g_hash_table_lookup(files, w->file);

		g_clear_pointer(&w->source, g_free);
		if (!same) {
			same = g_ptr_array_new();
			g_hash_table_insert(files, w->file, same);
		}
		g_ptr_array_add(same, w);
	}
	if (!root)
		return;
	g_hash_table_iter_init(&iter, files);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		GPtrArray *same = value;
		g_auto(GStrv) lines = read_beneath(root, key);
		guint n = lines ? g_strv_length(lines) : 0;

		for (guint i = 0; i < same->len; i++) {
			struct sparse_warning *w = same->pdata[i];

			if (w->line >= 1 && w->line <= n)
				w->source = g_strstrip(
					g_strdup(lines[w->line - 1]));
		}
	}
}

/* The identity of a warning: what does not move when lines do. */
static char *warning_key(const struct sparse_warning *w)
{
	return g_strdup_printf("%s\x1f%s\x1f%s\x1f%s\x1f%s", w->tool, w->file,
			       w->severity, w->message,
			       w->source ? w->source : "");
}

/* For each warning of @a, whether no warning of @b is left to match it. */
static GArray *unmatched(GPtrArray *a, GPtrArray *b)
{
	g_autoptr(GHashTable) count =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GArray *out = g_array_sized_new(FALSE, FALSE, sizeof(gboolean), a->len);

	for (guint i = 0; i < b->len; i++) {
		char *key = warning_key(b->pdata[i]);
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count, key));

		g_hash_table_replace(count, key, GUINT_TO_POINTER(n + 1));
	}
	for (guint i = 0; i < a->len; i++) {
		g_autofree char *key = warning_key(a->pdata[i]);
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count, key));
		gboolean none = n == 0;

		if (n)
			g_hash_table_replace(count, g_steal_pointer(&key),
					     GUINT_TO_POINTER(n - 1));
		g_array_append_val(out, none);
	}
	return out;
}

void sparse_compare(GPtrArray *base, GPtrArray *head, GArray **is_new_out,
		    GPtrArray **fixed_out)
{
	g_autoptr(GArray) gone = unmatched(base, head);

	*is_new_out = unmatched(head, base);
	*fixed_out = g_ptr_array_new();
	for (guint i = 0; i < base->len; i++)
		if (g_array_index(gone, gboolean, i))
			g_ptr_array_add(*fixed_out, base->pdata[i]);
}

/* "drivers/x.c:12:5: sparse: sparse: symbol ..." for sparse (kbuild's
 * CHECK output as the robot quotes it), "x.c:3:1: warning: ..." for the
 * compiler. */
static void report_line(GString *out, const char *prefix,
			const struct sparse_warning *w)
{
	g_string_append_printf(out, "%s%s:%u:%u: ", prefix, w->file, w->line,
			       w->column);
	if (!strcmp(w->tool, "sparse"))
		g_string_append_printf(out, "sparse: sparse: %s%s\n",
				       strcmp(w->severity, "error") ? "" :
								      "error: ",
				       w->message);
	else
		g_string_append_printf(out, "%s: %s\n", w->severity,
				       w->message);
}

void sparse_report(GString *out, const char *title, GPtrArray *head,
		   GArray *is_new, GPtrArray *fixed)
{
	if (head->len) {
		g_string_append_printf(out, "%s\n", title);
		for (guint i = 0; i < head->len; i++)
			report_line(out,
				    g_array_index(is_new, gboolean, i) ? ">> " :
									 "   ",
				    head->pdata[i]);
	}
	if (fixed->len) {
		if (head->len)
			g_string_append_c(out, '\n');
		g_string_append(out, "fixed warnings:\n");
		for (guint i = 0; i < fixed->len; i++)
			report_line(out, "   ", fixed->pdata[i]);
	}
}
