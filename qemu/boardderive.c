/* The paths of a tree that select a board: see qemu/boardderive.h. */
#include "qemu/boardderive.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "config/datadir.h"
#include "kernel/git/object.h"
#include "qemu/dtsscan.h"

#define DERIVE_VERSION "armbot boardderive 1"
/* bounds on what an untrusted tree makes us read and keep */
#define DTS_SIZE_MAX (4u << 20) /* one .dts, .dtsi or .h */
#define C_SIZE_MAX (8u << 20) /* one driver */
#define CLOSURE_MAX 4096 /* files in one board's device tree */
#define FILES_MAX 50000 /* files parsed in all */
#define DTS_MAX 100000 /* .dts of the tree */
#define LINK_HOPS_MAX 8
#define LINK_SIZE_MAX 1024
/* folders and their entries read from the tree (Linux 6.1: ~5,000 and
 * ~85,000), closure steps of all the .dts (6.1: ~50,000) */
#define DIRS_MAX 100000
#define ENTRIES_MAX 4000000
#define STEPS_MAX 5000000
#define WALK_DEPTH_MAX 16
#define CACHE_SIZE_MAX (64u << 20)
#define CACHE_KEEP 256 /* derivations kept in the cache dir (~17 KB each) */
#define KCONFIG_SIZE_MAX (1u << 20)
#define FRAGMENT_SIZE_MAX (256u << 10)
/* cpp's and dtc's include folder, kernel scripts/Makefile.lib DTC_INCLUDE */
#define INCLUDE_PREFIXES "scripts/dtc/include-prefixes/"

struct dir_entry {
	guint32 mode;
	struct gitoid oid;
};

/* One parsed .dts, .dtsi or .h. */
struct dtsfile {
	GPtrArray *includes; /* canonical paths of the files it includes */
	GPtrArray *compatibles; /* every compatible string it names */
	GPtrArray *root; /* the compatibles of its root node */
};

static void dtsfile_free(gpointer p)
{
	struct dtsfile *f = p;

	g_ptr_array_unref(f->includes);
	g_ptr_array_unref(f->compatibles);
	g_ptr_array_unref(f->root);
	g_free(f);
}

static void derived_board_free(gpointer p)
{
	struct boardderive_board *b = p;

	g_free(b->dts);
	g_hash_table_unref(b->files);
	g_hash_table_unref(b->compatibles);
	g_hash_table_unref(b->machs);
	g_free(b);
}

void boardderive_free(struct boardderive *d)
{
	if (!d)
		return;
	g_ptr_array_unref(d->boards);
	g_hash_table_unref(d->dirs);
	g_hash_table_unref(d->drivers);
	g_free(d);
}

/* ---- the tree: folders, paths, symlinks ---- */

/* The entries of folder @dir ("" or "a/b/"), read once. */
static GHashTable *dir_table(struct boardderive *d, const char *dir)
{
	GHashTable *t = g_hash_table_lookup(d->dirs, dir);
	g_autoptr(GBytes) data = NULL;
	struct gitoid oid = d->tree;
	struct gittree_iter it;
	struct gittree_entry e;
	enum gitobj_type type;

	if (t)
		return t;
	if (g_hash_table_size(d->dirs) >= DIRS_MAX || d->entries >= ENTRIES_MAX)
		return NULL;
	if (*dir) {
		gsize n = strlen(dir);
		const char *slash = g_strrstr_len(dir, n - 1, "/");
		g_autofree char *parent =
			g_strndup(dir, slash ? (gsize)(slash - dir + 1) : 0);
		g_autofree char *name =
			g_strndup(slash ? slash + 1 : dir,
				  n - 1 - (slash ? slash + 1 - dir : 0));
		GHashTable *pt = dir_table(d, parent);
		struct dir_entry *pe = pt ? g_hash_table_lookup(pt, name) :
					    NULL;

		if (!pe || pe->mode != GITMODE_TREE)
			return NULL;
		oid = pe->oid;
	}
	data = gitodb_read(d->repo->odb, &oid, &type, NULL);
	if (!data || type != GITOBJ_TREE)
		return NULL;
	t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	gittree_iter_init(&it, data);
	while (d->entries < ENTRIES_MAX && gittree_iter_next(&it, &e, NULL)) {
		struct dir_entry *de = g_new(struct dir_entry, 1);

		d->entries++;
		de->mode = e.mode;
		de->oid = *e.oid;
		g_hash_table_replace(t, g_strndup(e.name, e.name_len), de);
	}
	g_hash_table_insert(d->dirs, g_strdup(dir), t);
	return t;
}

/* @path with "." and empty components dropped and ".." applied; NULL
 * when ".." leaves the tree or @path is empty. */
static char *path_normalize(const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	g_autoptr(GPtrArray) out = g_ptr_array_new();

	for (guint i = 0; parts[i]; i++) {
		if (!*parts[i] || !strcmp(parts[i], "."))
			continue;
		if (!strcmp(parts[i], "..")) {
			if (!out->len)
				return NULL;
			g_ptr_array_set_size(out, out->len - 1);
			continue;
		}
		g_ptr_array_add(out, parts[i]);
	}
	if (!out->len)
		return NULL;
	g_ptr_array_add(out, NULL);
	return g_strjoinv("/", (char **)out->pdata);
}

/* The blob @oid when it is at most @max bytes. */
static GBytes *blob_read(struct boardderive *d, const struct gitoid *oid,
			 gsize max)
{
	enum gitobj_type type;
	gsize size;

	if (!gitodb_read_header(d->repo->odb, oid, &type, &size, NULL) ||
	    type != GITOBJ_BLOB || size > max)
		return NULL;
	return gitodb_read(d->repo->odb, oid, &type, NULL);
}

/* The blob at @path, symlinks followed (at most LINK_HOPS_MAX), and its
 * path without them (@canonical, newly allocated; may be NULL). */
static gboolean tree_lookup(struct boardderive *d, const char *path,
			    struct gitoid *out, char **canonical)
{
	g_autofree char *p = path_normalize(path);

	for (guint hop = 0; p && hop <= LINK_HOPS_MAX; hop++) {
		g_auto(GStrv) parts = g_strsplit(p, "/", -1);
		g_autoptr(GString) dir = g_string_new(NULL);
		char *next = NULL;

		for (guint i = 0; parts[i]; i++) {
			GHashTable *t = dir_table(d, dir->str);
			struct dir_entry *e =
				t ? g_hash_table_lookup(t, parts[i]) : NULL;
			gboolean last = !parts[i + 1];

			if (!e)
				return FALSE;
			if (e->mode == GITMODE_LINK) {
				g_autoptr(GBytes) target = NULL;
				g_autoptr(GString) np = g_string_new(dir->str);
				gsize len;
				const char *s;

				target = blob_read(d, &e->oid, LINK_SIZE_MAX);
				if (!target)
					return FALSE;
				s = g_bytes_get_data(target, &len);
				if (!len || s[0] == '/' || memchr(s, 0, len))
					return FALSE;
				g_string_append_len(np, s, len);
				for (guint j = i + 1; parts[j]; j++)
					g_string_append_printf(np, "/%s",
							       parts[j]);
				next = path_normalize(np->str);
				break;
			}
			if (last) {
				if (e->mode != GITMODE_BLOB &&
				    e->mode != GITMODE_BLOB_EXECUTABLE)
					return FALSE;
				*out = e->oid;
				if (canonical)
					*canonical = g_steal_pointer(&p);
				return TRUE;
			}
			if (e->mode != GITMODE_TREE)
				return FALSE;
			g_string_append_printf(dir, "%s/", parts[i]);
		}
		g_free(p);
		p = next;
	}
	return FALSE;
}

/* ---- the device tree sources ---- */

/* The file an include of @from names ('"X' or '<X'), as cpp with the
 * kernel's dtc_cpp_flags and dtc -i find it; NULL when missing. */
static char *include_resolve(struct boardderive *d, const char *from,
			     const char *raw)
{
	struct gitoid oid;
	char *path = NULL;

	if (raw[0] == '"') {
		const char *slash = strrchr(from, '/');
		g_autofree char *rel = g_strdup_printf(
			"%.*s%s", slash ? (int)(slash - from + 1) : 0, from,
			raw + 1);

		if (tree_lookup(d, rel, &oid, &path))
			return path;
	}
	{
		g_autofree char *inc =
			g_strconcat(INCLUDE_PREFIXES, raw + 1, NULL);

		if (tree_lookup(d, inc, &oid, &path))
			return path;
	}
	return NULL;
}

/* The work of one derivation: the files parsed so far. */
struct derive_ctx {
	struct boardderive *d;
	GHashTable *parsed; /* path -> struct dtsfile *, NULL: unreadable */
	struct boardderive_stats *stats;
	guint steps; /* files added to closures, all .dts together */
};

static struct dtsfile *dtsfile_get(struct derive_ctx *c, const char *path)
{
	struct dtsfile *f;
	g_autoptr(GBytes) data = NULL;
	g_auto(dtsscan) scan = { NULL, NULL, NULL };
	struct gitoid oid;
	gsize len;
	const char *text;

	if (g_hash_table_contains(c->parsed, path))
		return g_hash_table_lookup(c->parsed, path);
	if (g_hash_table_size(c->parsed) >= FILES_MAX)
		return NULL;
	if (!tree_lookup(c->d, path, &oid, NULL) ||
	    !(data = blob_read(c->d, &oid, DTS_SIZE_MAX))) {
		g_hash_table_insert(c->parsed, g_strdup(path), NULL);
		return NULL;
	}
	f = g_new0(struct dtsfile, 1);
	dtsscan_init(&scan);
	text = g_bytes_get_data(data, &len);
	dtsscan_source(&scan, text, len);
	f->compatibles = g_steal_pointer(&scan.compatibles);
	f->root = g_steal_pointer(&scan.root);
	f->includes = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < scan.includes->len; i++) {
		char *inc =
			include_resolve(c->d, path, scan.includes->pdata[i]);

		if (inc)
			g_ptr_array_add(f->includes, inc);
	}
	c->stats->files_parsed++;
	g_hash_table_insert(c->parsed, g_strdup(path), f);
	return f;
}

/* The files of @dts's device tree: path -> the file including it ("" for
 * @dts).  Cycles end where a file is seen again. */
static GHashTable *closure(struct derive_ctx *c, const char *dts)
{
	GHashTable *files =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);

	g_hash_table_insert(files, g_strdup(dts), g_strdup(""));
	g_ptr_array_add(stack, g_strdup(dts));
	while (stack->len) {
		g_autofree char *p =
			g_ptr_array_steal_index(stack, stack->len - 1);
		struct dtsfile *f = dtsfile_get(c, p);

		for (guint i = 0; f && i < f->includes->len; i++) {
			const char *inc = f->includes->pdata[i];

			if (g_hash_table_contains(files, inc) ||
			    g_hash_table_size(files) >= CLOSURE_MAX ||
			    c->steps >= STEPS_MAX)
				continue;
			c->steps++;
			g_hash_table_insert(files, g_strdup(inc), g_strdup(p));
			g_ptr_array_add(stack, g_strdup(inc));
		}
	}
	return files;
}

/* The vendor of a compatible ("fsl" of "fsl,imx6q-uart"), or NULL. */
static char *vendor_of(const char *compat)
{
	const char *comma = strchr(compat, ',');

	return comma && comma > compat ? g_strndup(compat, comma - compat) :
					 NULL;
}

/* The vendors of the root compatibles of @dts's device tree: its own
 * root node's, or when it has none, those of the files it includes. */
static GHashTable *root_vendors(struct derive_ctx *c, const char *dts,
				GHashTable *files)
{
	GHashTable *v =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	struct dtsfile *own = dtsfile_get(c, dts);
	GHashTableIter it;
	gpointer key;

	for (guint i = 0; own && i < own->root->len; i++) {
		char *vendor = vendor_of(own->root->pdata[i]);

		if (vendor)
			g_hash_table_add(v, vendor);
	}
	if (g_hash_table_size(v))
		return v;
	g_hash_table_iter_init(&it, files);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		struct dtsfile *f = dtsfile_get(c, key);

		for (guint i = 0; f && i < f->root->len; i++) {
			char *vendor = vendor_of(f->root->pdata[i]);

			if (vendor)
				g_hash_table_add(v, vendor);
		}
	}
	return v;
}

/* Calls @visit(@d, path, entry, @data) on every file below @dir that is
 * not a symlink, in folders down to WALK_DEPTH_MAX, skipping the folders
 * whose path ends in @skip (may be NULL); @visit returns FALSE to stop. */
typedef gboolean (*walk_fn)(struct boardderive *d, const char *path,
			    const struct dir_entry *e, gpointer data);

static gboolean walk_files(struct boardderive *d, const char *dir, guint depth,
			   const char *skip, walk_fn visit, gpointer data)
{
	GHashTable *t = dir_table(d, dir);
	GHashTableIter it;
	gpointer key, value;

	if (!t || depth > WALK_DEPTH_MAX)
		return TRUE;
	g_hash_table_iter_init(&it, t);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const struct dir_entry *e = value;
		g_autofree char *path = g_strconcat(dir, key, NULL);

		if (e->mode == GITMODE_TREE) {
			g_autofree char *sub = g_strconcat(path, "/", NULL);

			if ((!skip || !g_str_has_suffix(sub, skip)) &&
			    !walk_files(d, sub, depth + 1, skip, visit, data))
				return FALSE;
		} else if (e->mode != GITMODE_LINK &&
			   !visit(d, path, e, data)) {
			return FALSE;
		}
	}
	return TRUE;
}

/* walk_files() visitor: the .dts files, into @data (a GPtrArray). */
static gboolean add_dts(struct boardderive *d, const char *path,
			const struct dir_entry *e, gpointer data)
{
	GPtrArray *out = data;

	(void)d;
	(void)e;
	if (out->len >= DTS_MAX)
		return FALSE;
	if (g_str_has_suffix(path, ".dts"))
		g_ptr_array_add(out, g_strdup(path));
	return TRUE;
}

/* What is known of one compatible or file of a board's device tree: the
 * vendors every .dts using it shares so far. */
struct shared {
	gboolean seen;
	GHashTable *vendors;
};

static void shared_free(gpointer p)
{
	struct shared *s = p;

	g_clear_pointer(&s->vendors, g_hash_table_unref);
	g_free(s);
}

static gboolean not_in(gpointer key, gpointer value, gpointer other)
{
	return !g_hash_table_contains(other, key);
}

static void shared_meet(struct shared *s, GHashTable *vendors)
{
	GHashTableIter it;
	gpointer key;

	if (s->seen) {
		g_hash_table_foreach_remove(s->vendors, not_in, vendors);
		return;
	}
	s->seen = TRUE;
	s->vendors =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_iter_init(&it, vendors);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_hash_table_add(s->vendors, g_strdup(key));
}

/* Whether every .dts using @key shares a vendor in its root compatibles
 * (@vendor: that one, the compatible's own). */
static gboolean shared_by_one_vendor(GHashTable *table, const char *key,
				     const char *vendor)
{
	struct shared *s = g_hash_table_lookup(table, key);

	if (!s || !s->seen)
		return FALSE;
	return vendor ? g_hash_table_contains(s->vendors, vendor) :
			g_hash_table_size(s->vendors) > 0;
}

static gint path_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The .dts of @dtb for @arch among @all (sorted): arch/ARCH/boot/dts/
 * NAME.dts, or one in a vendor folder below. */
static char *find_dts(GPtrArray *all, const char *arch, const char *dtb)
{
	g_autofree char *prefix = g_strdup_printf("arch/%s/boot/dts/", arch);
	g_autofree char *name =
		g_strdup_printf("/%.*s.dts", (int)strlen(dtb) - 4, dtb);

	for (guint i = 0; i < all->len; i++) {
		const char *p = all->pdata[i];

		if (g_str_has_prefix(p, prefix) &&
		    g_str_has_suffix(p, name + 1) &&
		    (strlen(p) == strlen(prefix) + strlen(name) - 1 ||
		     g_str_has_suffix(p, name)))
			return g_strdup(p);
	}
	return NULL;
}

static struct boardderive_board *derived_board_new(const struct board *b)
{
	struct boardderive_board *db = g_new0(struct boardderive_board, 1);

	db->board = b;
	db->files =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	db->compatibles =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	db->machs =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return db;
}

/* The derivation of the device trees (boardderive.h): each board's
 * closure and compatibles, kept when one vendor shares them. */
static void derive(struct boardderive *d, const struct board_map *map,
		   struct boardderive_stats *stats)
{
	struct derive_ctx c = { d, NULL, stats, 0 };
	g_autoptr(GHashTable) parsed = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, dtsfile_free);
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) closures = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_hash_table_unref);
	g_autoptr(GHashTable) compats = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, shared_free);
	g_autoptr(GHashTable) files = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, shared_free);

	c.parsed = parsed;
	walk_files(d, "arch/arm/boot/dts/", 0, NULL, add_dts, all);
	walk_files(d, "arch/arm64/boot/dts/", 0, NULL, add_dts, all);
	g_ptr_array_sort(all, path_cmp);
	/* each board's device tree; what it holds is a candidate */
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		struct boardderive_board *db = derived_board_new(b);
		GHashTable *cl;
		GHashTableIter it;
		gpointer key;

		g_ptr_array_add(d->boards, db);
		db->dts = b->dtb ? find_dts(all, b->arch, b->dtb) : NULL;
		cl = db->dts ? closure(&c, db->dts) :
			       g_hash_table_new(g_str_hash, g_str_equal);
		g_ptr_array_add(closures, cl);
		g_hash_table_iter_init(&it, cl);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			struct dtsfile *f = dtsfile_get(&c, key);

			if (!g_hash_table_contains(files, key))
				g_hash_table_insert(files, g_strdup(key),
						    g_new0(struct shared, 1));
			for (guint j = 0; f && j < f->compatibles->len; j++) {
				const char *cp = f->compatibles->pdata[j];

				if (strchr(cp, ',') &&
				    !g_hash_table_contains(compats, cp))
					g_hash_table_insert(
						compats, g_strdup(cp),
						g_new0(struct shared, 1));
			}
		}
	}
	/* every .dts of the tree narrows the vendors of what it uses */
	for (guint i = 0; i < all->len; i++) {
		g_autoptr(GHashTable) cl = closure(&c, all->pdata[i]);
		g_autoptr(GHashTable)
			vendors = root_vendors(&c, all->pdata[i], cl);
		GHashTableIter it;
		gpointer key;

		stats->dts_read++;
		if (!g_hash_table_size(vendors))
			continue; /* an overlay or a fragment: no board */
		g_hash_table_iter_init(&it, cl);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			struct dtsfile *f = dtsfile_get(&c, key);
			struct shared *s = g_hash_table_lookup(files, key);

			if (s)
				shared_meet(s, vendors);
			for (guint j = 0; f && j < f->compatibles->len; j++) {
				s = g_hash_table_lookup(
					compats, f->compatibles->pdata[j]);
				if (s)
					shared_meet(s, vendors);
			}
		}
	}
	/* keep what one vendor's boards share; the .dts itself always */
	for (guint i = 0; i < d->boards->len; i++) {
		struct boardderive_board *db = d->boards->pdata[i];
		GHashTableIter it;
		gpointer key, value;

		g_hash_table_iter_init(&it, closures->pdata[i]);
		while (g_hash_table_iter_next(&it, &key, &value)) {
			struct dtsfile *f = dtsfile_get(&c, key);

			if (!strcmp(key, db->dts) ||
			    shared_by_one_vendor(files, key, NULL))
				g_hash_table_insert(db->files, g_strdup(key),
						    g_strdup(value));
			for (guint j = 0; f && j < f->compatibles->len; j++) {
				const char *cp = f->compatibles->pdata[j];
				g_autofree char *vendor = vendor_of(cp);

				if (vendor &&
				    shared_by_one_vendor(compats, cp, vendor) &&
				    !g_hash_table_contains(db->compatibles, cp))
					g_hash_table_insert(db->compatibles,
							    g_strdup(cp),
							    g_strdup(key));
			}
		}
	}
}

/* the drivers' values: NULL for a path the tree does not have */
static void array_unref(gpointer p)
{
	if (p)
		g_ptr_array_unref(p);
}

/* ---- the platform code: the mach-*, plat-* Kconfig symbols ---- */

/* The config lines of @b: its fragment's, or those of its one fragment
 * file (relative to the source dir); NULL when there are none. */
static char **fragment_lines(const struct board *b)
{
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	gsize len;

	if (!b->fragment || !b->fragment[0] || b->fragment[1] ||
	    strchr(b->fragment[0], '='))
		return g_strdupv(b->fragment);
	path = g_build_filename(datadir_source_dir(), b->fragment[0], NULL);
	if (!g_file_get_contents(path, &text, &len, NULL) ||
	    len > FRAGMENT_SIZE_MAX)
		return NULL;
	return g_strsplit(text, "\n", -1);
}

/* The symbols @text (a Kconfig file) defines ("config X",
 * "menuconfig X") into @out, X -> @folder. */
static void kconfig_symbols(const char *text, gsize len, const char *folder,
			    GHashTable *out)
{
	g_autofree char *copy = g_strndup(text, len);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) words = NULL;

		g_strstrip(lines[i]);
		if (!g_str_has_prefix(lines[i], "config") &&
		    !g_str_has_prefix(lines[i], "menuconfig"))
			continue;
		words = g_strsplit_set(lines[i], " \t", -1);
		for (guint w = 1; words[0] && words[w]; w++) {
			if (!*words[w])
				continue;
			if (!strcmp(words[0], "config") ||
			    !strcmp(words[0], "menuconfig"))
				g_hash_table_insert(out, g_strdup(words[w]),
						    g_strdup(folder));
			break;
		}
	}
}

/* Each non-fallback board's arch/ARCH/mach-X/ and plat-X/ folders whose
 * Kconfig defines a symbol the board's config enables (CONFIG_ARCH_MXC=y:
 * arch/arm/mach-imx/).  Read at every derivation (a few small files),
 * since the fragments are armbot's, not the tree's. */
static void derive_machs(struct boardderive *d)
{
	g_autoptr(GHashTable) arm = NULL, arm64 = NULL;

	for (guint i = 0; i < d->boards->len; i++) {
		struct boardderive_board *db = d->boards->pdata[i];
		const struct board *b = db->board;
		GHashTable **syms = strcmp(b->arch, "arm64") ? &arm : &arm64;
		g_auto(GStrv) lines = NULL;

		if (b->fallback)
			continue;
		if (!*syms) {
			g_autofree char *dir =
				g_strdup_printf("arch/%s/", b->arch);
			GHashTable *t = dir_table(d, dir);
			GHashTableIter it;
			gpointer key, value;

			*syms = g_hash_table_new_full(g_str_hash, g_str_equal,
						      g_free, g_free);
			g_hash_table_iter_init(&it, t ? t : *syms);
			while (t && g_hash_table_iter_next(&it, &key, &value)) {
				const struct dir_entry *e = value;
				g_autofree char *folder = NULL;
				g_autofree char *kconfig = NULL;
				g_autoptr(GBytes) data = NULL;
				struct gitoid oid;
				gsize len;
				const char *text;

				if (e->mode != GITMODE_TREE ||
				    (!g_str_has_prefix(key, "mach-") &&
				     !g_str_has_prefix(key, "plat-")))
					continue;
				folder = g_strconcat(dir, key, "/", NULL);
				kconfig = g_strconcat(folder, "Kconfig", NULL);
				if (!tree_lookup(d, kconfig, &oid, NULL) ||
				    !(data = blob_read(d, &oid,
						       KCONFIG_SIZE_MAX)))
					continue;
				text = g_bytes_get_data(data, &len);
				kconfig_symbols(text, len, folder, *syms);
			}
		}
		lines = fragment_lines(b);
		for (guint j = 0; lines && lines[j]; j++) {
			g_autofree char *sym = NULL;
			const char *folder;
			const char *l = g_strstrip(lines[j]);

			if (!g_str_has_prefix(l, "CONFIG_") ||
			    !g_str_has_suffix(l, "=y"))
				continue;
			sym = g_strndup(l + 7, strlen(l) - 9);
			folder = g_hash_table_lookup(*syms, sym);
			if (folder && !g_hash_table_contains(db->machs, folder))
				g_hash_table_insert(db->machs, g_strdup(folder),
						    g_steal_pointer(&sym));
		}
	}
}

/* ---- the cache ---- */

/* What the derivation depends on besides the commit: the boards' names,
 * archs and DTBs. */
static char *cache_name(const struct gitoid *commit,
			const struct board_map *map)
{
	g_autoptr(GString) s = g_string_new(DERIVE_VERSION "\n");
	g_autofree char *key = NULL;

	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];

		g_string_append_printf(s, "%s\t%s\t%s\n", b->name, b->arch,
				       b->dtb ? b->dtb : "-");
	}
	key = g_compute_checksum_for_string(G_CHECKSUM_SHA1, s->str, s->len);
	return g_strdup_printf("%s-%.12s.txt", gitoid_hex(commit), key);
}

/* "board NAME\tDTS", "file PATH\tINCLUDER", "compat C\tFILE" lines. */
static GString *cache_format(const struct boardderive *d)
{
	GString *s = g_string_new(DERIVE_VERSION "\n");

	for (guint i = 0; i < d->boards->len; i++) {
		const struct boardderive_board *db = d->boards->pdata[i];
		GHashTableIter it;
		gpointer key, value;

		g_string_append_printf(s, "board %s\t%s\n", db->board->name,
				       db->dts ? db->dts : "-");
		g_hash_table_iter_init(&it, db->files);
		while (g_hash_table_iter_next(&it, &key, &value))
			g_string_append_printf(s, "file %s\t%s\n", (char *)key,
					       (char *)value);
		g_hash_table_iter_init(&it, db->compatibles);
		while (g_hash_table_iter_next(&it, &key, &value))
			g_string_append_printf(s, "compat %s\t%s\n",
					       (char *)key, (char *)value);
	}
	return s;
}

/* Read a cache file written by cache_format() for @map; FALSE (and
 * nothing kept) when it is not one. */
static gboolean cache_parse(struct boardderive *d, const struct board_map *map,
			    const char *text, gsize len)
{
	g_auto(GStrv) lines = NULL;
	struct boardderive_board *db = NULL;
	guint next = 0;

	if (len > CACHE_SIZE_MAX || memchr(text, 0, len) ||
	    !g_str_has_prefix(text, DERIVE_VERSION "\n"))
		return FALSE;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 1; lines[i]; i++) {
		char *line = lines[i];
		char *tab = strchr(line, '\t');

		if (!*line)
			continue;
		if (!tab)
			goto bad;
		*tab++ = 0;
		if (g_str_has_prefix(line, "board ")) {
			const struct board *b;

			if (next >= map->boards->len)
				goto bad;
			b = map->boards->pdata[next++];
			if (strcmp(line + 6, b->name))
				goto bad;
			db = derived_board_new(b);
			g_ptr_array_add(d->boards, db);
			db->dts = strcmp(tab, "-") ? g_strdup(tab) : NULL;
		} else if (db && g_str_has_prefix(line, "file ")) {
			g_hash_table_insert(db->files, g_strdup(line + 5),
					    g_strdup(tab));
		} else if (db && g_str_has_prefix(line, "compat ")) {
			g_hash_table_insert(db->compatibles, g_strdup(line + 7),
					    g_strdup(tab));
		} else {
			goto bad;
		}
	}
	if (next == map->boards->len)
		return TRUE;
bad:
	g_ptr_array_set_size(d->boards, 0);
	return FALSE;
}

/* Keep the CACHE_KEEP newest derivations of @dir (a series' base
 * changes with the tree), and @name, the one just written. */
static void cache_prune(const char *dir, const char *name)
{
	g_autoptr(GDir) gd = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(gint64));
	const char *ent;

	while (gd && (ent = g_dir_read_name(gd))) {
		char *path = g_build_filename(dir, ent, NULL);
		GStatBuf st;
		gint64 t;

		if (strlen(ent) != strlen(name) || !strcmp(ent, name) ||
		    !g_str_has_suffix(ent, ".txt") || g_stat(path, &st) < 0) {
			g_free(path);
			continue;
		}
		t = st.st_mtime;
		g_ptr_array_add(paths, path);
		g_array_append_val(times, t);
	}
	while (paths->len >= CACHE_KEEP) {
		guint oldest = 0;

		for (guint i = 1; i < paths->len; i++)
			if (g_array_index(times, gint64, i) <
			    g_array_index(times, gint64, oldest))
				oldest = i;
		g_unlink(paths->pdata[oldest]);
		g_ptr_array_remove_index(paths, oldest);
		g_array_remove_index(times, oldest);
	}
}

struct boardderive *
boardderive_new(struct gitrepo *repo, const struct gitoid *commit,
		const struct board_map *map, const char *cache_dir,
		struct boardderive_stats *stats, GError **error)
{
	g_autoptr(boardderive) d = g_new0(struct boardderive, 1);
	struct boardderive_stats local;
	g_autofree char *name = NULL;
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	gint64 t0 = g_get_monotonic_time();
	gsize len;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	d->repo = repo;
	d->boards = g_ptr_array_new_with_free_func(derived_board_free);
	d->dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					(GDestroyNotify)g_hash_table_unref);
	d->drivers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   array_unref);
	if (!gitrepo_peel(repo, commit, GITOBJ_TREE, &d->tree, error)) {
		g_prefix_error(error, "cannot read the tree of %s: ",
			       gitoid_hex(commit));
		return NULL;
	}
	if (cache_dir) {
		name = cache_name(commit, map);
		path = g_build_filename(cache_dir, name, NULL);
		if (g_file_get_contents(path, &text, &len, NULL) &&
		    cache_parse(d, map, text, len)) {
			stats->from_cache = TRUE;
			derive_machs(d);
			stats->seconds = (g_get_monotonic_time() - t0) / 1e6;
			return g_steal_pointer(&d);
		}
	}
	derive(d, map, stats);
	derive_machs(d);
	if (cache_dir) {
		g_autoptr(GString) s = cache_format(d);
		g_autoptr(GError) local_error = NULL;

		/* a cache that cannot be written costs the next run time,
		 * not this one its answer */
		if (g_mkdir_with_parents(cache_dir, 0755) < 0 ||
		    !g_file_set_contents(path, s->str, s->len, &local_error))
			g_warning("cannot write %s: %s", path,
				  local_error ? local_error->message :
						g_strerror(errno));
		else
			cache_prune(cache_dir, name);
	}
	stats->seconds = (g_get_monotonic_time() - t0) / 1e6;
	return g_steal_pointer(&d);
}

/* ---- drivers ---- */

/* Whether @path is C source that may hold a driver (not a device tree). */
static gboolean driver_path(const char *path)
{
	return g_str_has_suffix(path, ".c") && !strstr(path, "/boot/dts/");
}

/* The compatibles of the driver at @path, read once; NULL when there is
 * no such file at the derivation's commit. */
static GPtrArray *driver_get(struct boardderive *d, const char *path)
{
	g_autoptr(GBytes) data = NULL;
	GPtrArray *c = NULL;
	struct gitoid oid;
	gsize len;
	const char *text;

	if (g_hash_table_contains(d->drivers, path))
		return g_hash_table_lookup(d->drivers, path);
	if (tree_lookup(d, path, &oid, NULL) &&
	    (data = blob_read(d, &oid, C_SIZE_MAX))) {
		text = g_bytes_get_data(data, &len);
		c = dtsscan_driver_compatibles(text, len);
	}
	g_hash_table_insert(d->drivers, g_strdup(path), c);
	return c;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *boardderive_match(struct boardderive *d, const struct board *board,
			const char *path)
{
	const struct boardderive_board *db = NULL;
	const char *includer;
	GPtrArray *compats;
	GHashTableIter it;
	gpointer key, value;

	for (guint i = 0; i < d->boards->len && !db; i++) {
		const struct boardderive_board *x = d->boards->pdata[i];

		if (!strcmp(x->board->name, board->name))
			db = x;
	}
	if (!db)
		return NULL;
	includer = g_hash_table_lookup(db->files, path);
	if (includer && !*includer)
		return g_strdup_printf("the .dts of %s", board->dtb);
	if (includer)
		return g_strdup_printf("in %s, included by %s", board->dtb,
				       base_name(includer));
	g_hash_table_iter_init(&it, db->machs);
	while (g_hash_table_iter_next(&it, &key, &value))
		if (g_str_has_prefix(path, key))
			return g_strdup_printf(
				"the board's config enables %s of %sKconfig",
				(char *)value, (char *)key);
	if (!db->dts || !driver_path(path) ||
	    !g_hash_table_size(db->compatibles) ||
	    !(compats = driver_get(d, path)))
		return NULL;
	for (guint i = 0; i < compats->len; i++)
		if (g_hash_table_contains(db->compatibles, compats->pdata[i]))
			return g_strdup_printf("driver of %s in %s",
					       (char *)compats->pdata[i],
					       board->dtb);
	return NULL;
}

static char *match_cb(const struct board *b, const char *path, gpointer data)
{
	return boardderive_match(data, b, path);
}

GPtrArray *boardderive_select(struct boardderive *d,
			      const struct board_map *map,
			      const char *const *paths, guint n)
{
	return board_select_with(map, paths, n, match_cb, d);
}

/* walk_files() visitor: a driver file whose compatibles one of the
 * boards' device trees names, into that board's array of @data. */
static gboolean add_driver(struct boardderive *d, const char *path,
			   const struct dir_entry *e, gpointer data)
{
	GPtrArray *out = data;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GPtrArray) c = NULL;
	gsize len;
	const char *text;

	if (!driver_path(path))
		return TRUE;
	bytes = blob_read(d, &e->oid, C_SIZE_MAX);
	if (!bytes)
		return TRUE;
	text = g_bytes_get_data(bytes, &len);
	c = dtsscan_driver_compatibles(text, len);
	for (guint i = 0; c->len && i < d->boards->len; i++) {
		const struct boardderive_board *db = d->boards->pdata[i];

		for (guint j = 0; j < c->len; j++)
			if (g_hash_table_contains(db->compatibles,
						  c->pdata[j])) {
				g_ptr_array_add(out->pdata[i], g_strdup(path));
				break;
			}
	}
	return TRUE;
}

GPtrArray *boardderive_drivers(struct boardderive *d)
{
	static const char *const dirs[] = { "drivers/", "sound/", "arch/arm/",
					    "arch/arm64/", NULL };
	GPtrArray *out = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);

	for (guint i = 0; i < d->boards->len; i++)
		g_ptr_array_add(out, g_ptr_array_new_with_free_func(g_free));
	for (guint i = 0; dirs[i]; i++)
		walk_files(d, dirs[i], 0, "/boot/dts/", add_driver, out);
	for (guint i = 0; i < out->len; i++)
		g_ptr_array_sort(out->pdata[i], path_cmp);
	return out;
}
