/* The sparse check of a series (see sparse-check.h): select the objects,
 * find the config that builds each, build them with sparse at the head, the
 * base and (per patch) every patch in between, and compare. */
#include "kernel/build/sparse-check.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "kernel/build/runner.h"
#include "kernel/build/buildlog.h"
#include "kernel/build/icecc-netns.h"
#include "kernel/build/kbuild.h"
#include "kernel/build/sparse-cache.h"
#include "kernel/build/sparse.h"
#include "kernel/git/lg2repo.h"
#include "kernel/tree/checkout.h"

/* Appended to every config before `make olddefconfig`:
 * - WERROR off: allmodconfig turns it on, and -Werror would stop an object
 *   at its first warning; we want every warning, reported, not fatal.
 * - GCC_PLUGINS off: the plugins are host code built against gcc's plugin
 *   headers (not installed in the sandbox), and they do not change what
 *   sparse or the compiler's warnings say about the source.
 * - DEBUG_INFO_BTF off: needs pahole and only concerns vmlinux.
 * - DEBUG_INFO_NONE: debug info only makes every object slower to build. */
#define COMMON_FRAGMENT                        \
	"# CONFIG_WERROR is not set\n"         \
	"# CONFIG_GCC_PLUGINS is not set\n"    \
	"# CONFIG_DEBUG_INFO_BTF is not set\n" \
	"CONFIG_DEBUG_INFO_NONE=y\n"

/* The configs armbot knows by name: the make target that configures
 * them and what is added on top.  "multi_v5": multi_v5_defconfig does not
 * enable OMAP1 (6.1: ARCH_OMAP1 depends on ATAGS, its boards on
 * UNUSED_BOARD_FILES), so the ARMv5 OMAP1 SoCs and boards are added, as
 * omap1_defconfig has them.  Any other name is a make target as is. */
static const struct known_config {
	const char *name;
	const char *target;
	const char *fragment;
} known_configs[] = {
	{ "allmodconfig", "allmodconfig", COMMON_FRAGMENT },
	{ "multi_v5", "multi_v5_defconfig",
	  COMMON_FRAGMENT "CONFIG_ATAGS=y\n"
			  "CONFIG_ARCH_OMAP1=y\n"
			  "CONFIG_ARCH_OMAP730=y\n"
			  "CONFIG_ARCH_OMAP850=y\n"
			  "CONFIG_ARCH_OMAP16XX=y\n"
			  "CONFIG_UNUSED_BOARD_FILES=y\n"
			  "CONFIG_MACH_OMAP_H2=y\n"
			  "CONFIG_MACH_OMAP_H3=y\n"
			  "CONFIG_MACH_HERALD=y\n"
			  "CONFIG_MACH_OMAP_OSK=y\n"
			  "CONFIG_MACH_NOKIA770=y\n"
			  "CONFIG_MACH_AMS_DELTA=y\n"
			  "CONFIG_MACH_OMAP_GENERIC=y\n" },
};

/* armbot's kbuild goals, written to BUILD/armbot.mk and included (make
 * --eval) into the top-level make and, through MAKEFLAGS, every sub-make;
 * only in the build dir (the outer make of an O= build just hands the goal
 * to the sub-make there).
 *
 * armbot-probe (ARMBOT_PROBE_DIRS=...): runs kbuild's own Makefile.build
 * (`$(build)=DIR`, as kbuild descends) on each directory and prints what
 * kbuild computed from its Makefile under this .config: the objects it
 * builds (composite objects resolved to their parts, lib-y included) and
 * the subdirectories it descends into.
 *
 * armbot-objects (ARMBOT_OBJS=..., ARMBOT_OBJ_DIRS=...): after prepare,
 * builds each object by descending straight into its directory, as
 * kbuild's single targets do (`$(build)=DIR need-builtin=1 DIR/F.o`).
 * `make DIR/F.o` itself is not used: for arch/arm/mach-X/F.o, kbuild 6.1
 * descends both into arch/arm/mach-X (listed by the top level through
 * ARCH_CORE) and into arch/arm, whose pattern rule builds the same object a
 * second time with arch/arm's flags, concurrently under -j, racing on its
 * .cmd and .d files. */
static const char armbot_makefile[] =
	"ifeq ($(CURDIR),%s)\n"
	"armbot-probe: $(addprefix armbot-probe/,$(ARMBOT_PROBE_DIRS))\n"
	"armbot-probe/%%:\n"
	"\t@$(MAKE) $(build)=$* armbot-probe-dir\n"
	"armbot-probe-dir:\n"
	"\t@echo 'armbot-probe $(obj) objects: $(real-obj-y) $(real-obj-m) "
	"$(lib-y) $(extra-y) subdirs: $(subdir-ym)'\n"
	"armbot-objects: $(addprefix armbot-dir/,$(ARMBOT_OBJ_DIRS))\n"
	"armbot-dir/%%: prepare\n"
	"\t$(Q)$(MAKE) $(build)=$* need-builtin=1 $(foreach o,$(ARMBOT_OBJS),"
	"$(if $(filter $*/,$(dir $o)),$o))\n"
	"endif\n"
	/* read before every makefile: the sub-makes that name no goal
	 * (kbuild's $(build)=scripts/basic...) must keep theirs */
	".DEFAULT_GOAL :=\n";

/* Write BUILD/armbot.mk (where the build is now: kbuild_output_path());
 * *@eval_out is the make option including it. */
static gboolean write_armbot_makefile(struct kbuild *kb, char **eval_out,
				      GError **error)
{
	g_autofree char *path =
		g_build_filename(kb->build_dir, "armbot.mk", NULL);
	g_autofree char *host = kbuild_output_path(kb, "armbot.mk", error);
	g_autofree char *text = g_strdup_printf(armbot_makefile, kb->build_dir);

	*eval_out = g_strconcat("--eval=include ", path, NULL);
	return host && g_file_set_contents(host, text, -1, error);
}

/* One config's build dir and what its kbuild builds. */
struct config_build {
	char *name;
	struct kbuild *kb;
	gboolean tried; /* configured (or failed to) in this run */
	gboolean usable;
	char *failure; /* why the config could not be prepared */
	GHashTable *objects; /* objects of the probed directories */
	GHashTable *subdirs; /* "dir\x1fsub" descents */
	GHashTable *probed; /* directories probed */
	GPtrArray *assigned; /* objects checked under this config */
};

/* The warnings of one run (one commit) over every config. */
struct run_warnings {
	GPtrArray *sparse; /* struct sparse_warning */
	GPtrArray *gcc;
	gboolean failed; /* a make did not succeed */
	GString *failure; /* how, and the log's tail */
};

struct check {
	const struct sparse_check_opts *opts;
	struct sparse_check_result *out;
	char *worktree;
	GPtrArray *configs; /* struct config_build */
	GHashTable *why; /* object -> why it is checked */
	/* the series' files (changed, before and after) and the sources of
	 * the objects checked: what a failure's excerpt may quote */
	GPtrArray *files;
	/* the fenced network namespace of the series' makes on icecream,
	 * loaded once for every config (icecc_netns_fence()); -1: none */
	int icecc_netns;
	GError *icecc_netns_error; /* why it could not be */
};

static void config_build_free(struct config_build *cb)
{
	if (!cb)
		return;
	g_free(cb->name);
	kbuild_free(cb->kb);
	g_free(cb->failure);
	g_hash_table_unref(cb->objects);
	g_hash_table_unref(cb->subdirs);
	g_hash_table_unref(cb->probed);
	g_ptr_array_unref(cb->assigned);
	g_free(cb);
}

static void run_warnings_clear(struct run_warnings *w)
{
	g_clear_pointer(&w->sparse, g_ptr_array_unref);
	g_clear_pointer(&w->gcc, g_ptr_array_unref);
	if (w->failure)
		g_string_free(w->failure, TRUE);
	w->failure = NULL;
}

static void run_warnings_init(struct run_warnings *w)
{
	w->sparse = g_ptr_array_new_with_free_func(
		(GDestroyNotify)sparse_warning_free);
	w->gcc = g_ptr_array_new_with_free_func(
		(GDestroyNotify)sparse_warning_free);
	w->failed = FALSE;
	w->failure = g_string_new(NULL);
}

static void skip_free(struct sparse_check_skip *s)
{
	g_free(s->path);
	g_free(s->reason);
	g_free(s);
}

static void object_free(struct sparse_check_object *o)
{
	g_free(o->object);
	g_free(o->config);
	g_free(o->why);
	g_free(o);
}

static void add_skip(struct sparse_check_result *out, const char *path,
		     const char *reason)
{
	struct sparse_check_skip *s = g_new0(struct sparse_check_skip, 1);

	s->path = g_strdup(path);
	s->reason = g_strdup(reason);
	g_ptr_array_add(out->not_checked, s);
}

const char *sparse_check_status_name(enum sparse_check_status status)
{
	switch (status) {
	case SPARSE_CHECK_OK:
		return "ok";
	case SPARSE_CHECK_WARN:
		return "warn";
	case SPARSE_CHECK_FAIL:
		return "fail";
	case SPARSE_CHECK_SKIPPED:
		return "skipped";
	}
	return "unknown";
}

void sparse_check_result_clear(struct sparse_check_result *result)
{
	g_free(result->reason);
	g_free(result->report);
	g_free(result->reproduce);
	g_free(result->build_note);
	g_clear_pointer(&result->steps, g_ptr_array_unref);
	g_clear_pointer(&result->checked, g_ptr_array_unref);
	g_clear_pointer(&result->not_checked, g_ptr_array_unref);
	memset(result, 0, sizeof(*result));
}

static void progress(struct check *c, enum sparse_check_stage stage,
		     const char *detail)
{
	if (c->opts->progress)
		c->opts->progress(stage, detail, c->opts->user_data);
}

static char *cache_dir(void)
{
	const char *env = g_getenv("ARMBOT_CACHE_DIR");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_cache_dir(), "armbot", NULL);
}

/* The tree's config list: tree.conf [tree] sparse-configs, else the
 * default.  A new NULL-terminated array. */
static char **tree_configs(const struct sparse_check_opts *opts)
{
	static const char *const defaults[] = { SPARSE_CHECK_DEFAULT_CONFIGS,
						NULL };
	g_autoptr(GKeyFile) kf = g_key_file_new();
	char **list;

	if (opts->configs)
		return g_strdupv((char **)opts->configs);
	if (g_key_file_load_from_file(kf, opts->tree->conf_path,
				      G_KEY_FILE_NONE, NULL)) {
		list = g_key_file_get_string_list(kf, "tree", "sparse-configs",
						  NULL, NULL);
		if (list && list[0])
			return list;
		g_strfreev(list);
	}
	return g_strdupv((char **)defaults);
}

/* ---- selection ---- */

static GPtrArray *commit_tree_diff(struct git_repository *repo,
				   const struct gitoid *a,
				   const struct gitoid *b, GError **error)
{
	GPtrArray *changes = lg2repo_diff_commits(repo, a, b);

	if (!changes)
		tree_set_git_error(error, "cannot diff the series");
	return changes;
}

/* Normalise "a/b/../c/./d" to "a/c/d"; NULL when it leaves the tree. */
static char *normalize_path(const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	g_autoptr(GPtrArray) kept = g_ptr_array_new();

	for (guint i = 0; parts[i]; i++) {
		if (!*parts[i] || !strcmp(parts[i], "."))
			continue;
		if (!strcmp(parts[i], "..")) {
			if (!kept->len)
				return NULL;
			g_ptr_array_remove_index(kept, kept->len - 1);
			continue;
		}
		g_ptr_array_add(kept, parts[i]);
	}
	g_ptr_array_add(kept, NULL);
	return g_strjoinv("/", (char **)kept->pdata);
}

/* Whether `#include <P>` or `#include "P"` in @c_file names @header: a
 * quoted name relative to the including file's directory, or either form
 * relative to an include directory ("include/", "arch/arm/include/",
 * "arch/arm/mach-X/include/"...), the -I paths kbuild passes. */
static gboolean include_names(const char *c_file, const char *p,
			      gboolean quoted, const char *header)
{
	g_autofree char *suffix = g_strconcat("/include/", p, NULL);
	g_autofree char *prefixed = g_strconcat("include/", p, NULL);

	if (quoted) {
		g_autofree char *dir = g_path_get_dirname(c_file);
		g_autofree char *rel = g_build_filename(dir, p, NULL);
		g_autofree char *norm = normalize_path(rel);

		if (norm && !strcmp(norm, header))
			return TRUE;
	}
	return !strcmp(header, prefixed) || g_str_has_suffix(header, suffix);
}

/* Components @a and @b share from the start: how near two files are. */
static guint common_dirs(const char *a, const char *b)
{
	guint n = 0;

	for (guint i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			n++;
	return n;
}

struct includer {
	char *path;
	char *header;
	guint nearness;
};

static void includer_free(struct includer *i)
{
	g_free(i->path);
	g_free(i->header);
	g_free(i);
}

static gint includer_cmp(gconstpointer pa, gconstpointer pb)
{
	const struct includer *a = *(struct includer *const *)pa;
	const struct includer *b = *(struct includer *const *)pb;

	if (a->nearness != b->nearness)
		return a->nearness > b->nearness ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* The .c files of the worktree that #include one of @headers, nearest to
 * the header first (most leading directories in common, then by path),
 * found with grep over the worktree's #include lines and resolved with
 * include_names().  Files under tools/, scripts/, Documentation/ and
 * samples/ are not kernel objects of an ARM build and are left out.
 * Adds at most @max to @objects (skipping those already there). */
static gboolean add_includers(struct check *c, GPtrArray *headers,
			      GPtrArray *objects, guint max, GError **error)
{
	static const char *const outside[] = { "tools/",	 "scripts/",
					       "Documentation/", "samples/",
					       "usr/",		 NULL };
	g_autoptr(GString) alt = g_string_new(NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) found =
		g_ptr_array_new_with_free_func((GDestroyNotify)includer_free);
	g_autoptr(GHashTable) seen =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable)
		per_header = g_hash_table_new(g_str_hash, g_str_equal);
	g_auto(GStrv) env = runner_env_new(NULL);
	g_auto(GStrv) lines = NULL;
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	gsize prefix = strlen(c->worktree) + 1;
	guint added = 0;

	for (guint i = 0; i < headers->len; i++) {
		g_autofree char *base = g_path_get_basename(headers->pdata[i]);
		g_autofree char *quoted = g_regex_escape_string(base, -1);

		g_string_append_printf(alt, "%s%s", i ? "|" : "", quoted);
	}
	g_ptr_array_add(argv, g_strdup("grep"));
	g_ptr_array_add(argv, g_strdup("-rHoE"));
	g_ptr_array_add(argv, g_strdup("--include=*.c"));
	g_ptr_array_add(argv,
			g_strdup_printf("^[[:space:]]*#[[:space:]]*include"
					"[[:space:]]*[<\"]([^>\"]*/)?(%s)[>\"]",
					alt->str));
	g_ptr_array_add(argv, g_strdup(c->worktree));
	g_ptr_array_add(argv, NULL);
	o.env = (const char *const *)env;
	o.timeout_ms = 600 * 1000;
	if (!runner_run((const char *const *)argv->pdata, &o, &r, error))
		return FALSE;
	/* grep: 0 found, 1 none found, 2 trouble */
	if (!r.exited || r.exit_status > 1) {
		g_autofree char *how = runner_result_describe(&r);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot search the includers of the touched "
			    "headers: grep %s",
			    how);
		runner_result_clear(&r);
		return FALSE;
	}
	lines = g_strsplit(r.output->str, "\n", -1);
	runner_result_clear(&r);
	for (guint i = 0; lines[i]; i++) {
		const char *path, *colon, *open;
		g_autofree char *file = NULL;
		g_autofree char *inc = NULL;
		gboolean quoted, skip = FALSE;
		const char *close;

		if (strlen(lines[i]) <= prefix)
			continue;
		path = lines[i] + prefix;
		colon = strstr(path, ".c:");
		if (!colon)
			continue;
		file = g_strndup(path, colon + 2 - path);
		for (guint k = 0; outside[k]; k++)
			skip |= g_str_has_prefix(file, outside[k]);
		open = strpbrk(colon + 3, "<\"");
		if (skip || !open)
			continue;
		quoted = *open == '"';
		close = strchr(open + 1, quoted ? '"' : '>');
		if (!close)
			continue;
		inc = g_strndup(open + 1, close - open - 1);
		for (guint h = 0; h < headers->len; h++) {
			const char *header = headers->pdata[h];
			struct includer *in;

			if (!include_names(file, inc, quoted, header))
				continue;
			if (g_hash_table_contains(seen, file))
				break;
			g_hash_table_add(seen, g_strdup(file));
			in = g_new0(struct includer, 1);
			in->path = g_strdup(file);
			in->header = g_strdup(header);
			in->nearness = common_dirs(file, header);
			g_ptr_array_add(found, in);
			break;
		}
	}
	g_ptr_array_sort(found, includer_cmp);
	for (guint i = 0; i < found->len; i++) {
		struct includer *in = found->pdata[i];
		g_autofree char *obj = g_strdup(in->path);

		obj[strlen(obj) - 1] = 'o';
		if (g_hash_table_contains(c->why, obj))
			continue;
		if (added == max) {
			guint n = GPOINTER_TO_UINT(
				g_hash_table_lookup(per_header, in->header));

			g_hash_table_insert(per_header, in->header,
					    GUINT_TO_POINTER(n + 1));
			continue;
		}
		g_hash_table_insert(c->why, g_strdup(obj),
				    g_strconcat("includes ", in->header, NULL));
		g_ptr_array_add(objects, g_steal_pointer(&obj));
		added++;
	}
	for (guint h = 0; h < headers->len; h++) {
		guint n = GPOINTER_TO_UINT(
			g_hash_table_lookup(per_header, headers->pdata[h]));
		g_autofree char *why = NULL;

		if (!n)
			continue;
		why = g_strdup_printf("%u more files include it: not checked "
				      "(at most %u includers are)",
				      n, max);
		add_skip(c->out, headers->pdata[h], why);
	}
	return TRUE;
}

/* The objects to check at @head: touched .c files, then includers of
 * touched headers.  Deleted .c files are reported as not checked. */
static gboolean select_objects(struct check *c, const struct gitoid *head,
			       GPtrArray *objects, GError **error)
{
	const struct sparse_check_opts *opts = c->opts;
	g_autoptr(GPtrArray) diff = NULL;
	g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func(g_free);

	diff = commit_tree_diff(opts->tree->repo, &opts->base, head, error);
	if (!diff)
		return FALSE;
	for (guint i = 0; i < diff->len; i++) {
		const struct lg2repo_change *d = diff->pdata[i];
		const char *path = d->new_path;

		g_ptr_array_add(c->files, g_strdup(path));
		if (strcmp(d->old_path, path))
			g_ptr_array_add(c->files, g_strdup(d->old_path));
		if (d->status == 'D') {
			if (g_str_has_suffix(d->old_path, ".c"))
				add_skip(c->out, d->old_path,
					 "deleted by the series");
			continue;
		}
		if (g_str_has_suffix(path, ".c")) {
			char *obj = g_strdup(path);

			obj[strlen(obj) - 1] = 'o';
			g_hash_table_insert(c->why, g_strdup(obj),
					    g_strdup("touched"));
			g_ptr_array_add(objects, obj);
		} else if (g_str_has_suffix(path, ".h")) {
			g_ptr_array_add(headers, g_strdup(path));
		}
		if (d->status == 'R' && g_str_has_suffix(d->old_path, ".h"))
			g_ptr_array_add(headers, g_strdup(d->old_path));
	}
	if (headers->len)
		return add_includers(c, headers, objects,
				     opts->max_includers ?
					     opts->max_includers :
					     SPARSE_CHECK_MAX_INCLUDERS,
				     error);
	return TRUE;
}

/* ---- configs and the kbuild probe ---- */

static gboolean checkout(struct check *c, const struct gitoid *commit,
			 GError **error)
{
	struct tree_checkout_stats stats;
	char hex[GITOID_HEXSZ + 1];
	gint64 t0 = g_get_monotonic_time();
	gboolean ok;

	gitoid_to_hex(commit, hex);
	ok = tree_checkout(c->opts->tree, hex, c->worktree, &stats, error);
	c->out->timings.checkout += (g_get_monotonic_time() - t0) / 1e6;
	return ok;
}

/* The make target that configures config @name and the fragment added on
 * top (known_configs; any other name is a target as is). */
static void config_target(const char *name, const char **target,
			  const char **fragment)
{
	*target = name;
	*fragment = COMMON_FRAGMENT;
	for (guint i = 0; i < G_N_ELEMENTS(known_configs); i++)
		if (!strcmp(known_configs[i].name, name)) {
			*target = known_configs[i].target;
			*fragment = known_configs[i].fragment;
		}
}

/* Configure @cb's build dir if it is cold (the stamp of
 * kbuild_configure_target()), at the series' base: configuring runs the
 * tree's Makefiles and Kconfig, which must be the tree's own to write its
 * build dir (kernel/build/kbuild.h); the worktree is at @head before and after.
 * A config that does not configure is not usable; the reason is kept. */
static gboolean prepare_config(struct check *c, struct config_build *cb,
			       const struct gitoid *head, GError **error)
{
	const char *target, *fragment;
	struct kbuild_result r;
	gboolean configured;
	gint64 t0;

	if (cb->tried)
		return TRUE;
	cb->tried = TRUE;

	config_target(cb->name, &target, &fragment);
	if (!kbuild_set_trust(cb->kb, KBUILD_TRUSTED, error))
		return FALSE;
	if (kbuild_is_configured(cb->kb, target, fragment)) {
		cb->usable = TRUE;
		return TRUE;
	}
	progress(c, SPARSE_CHECK_STAGE_CONFIG, cb->name);
	if (!checkout(c, &c->opts->base, error))
		return FALSE;
	t0 = g_get_monotonic_time();
	if (!kbuild_configure_target(cb->kb, target, fragment, &configured, &r,
				     error))
		return FALSE;
	c->out->timings.config += (g_get_monotonic_time() - t0) / 1e6;
	cb->usable = r.ok;
	if (!r.ok) {
		g_autofree char *said =
			buildlog_excerpt(r.log ? r.log->str : "", c->files,
					 c->worktree, cb->kb->build_dir, 10);

		cb->failure = g_strdup_printf("make %s failed (%s)%s%s",
					      cb->name, r.how,
					      *said ? ": " : "", said);
	}
	kbuild_result_clear(&r);
	return checkout(c, head, error);
}

/* Probe the directories of @objects (and their parents) not probed yet:
 * one make run (armbot-probe in armbot_makefile).  With @cache (the
 * head's, kernel/build/sparse-cache.h), what a probe of the same
 * directories printed for the same source is read back instead, and what
 * a probe that succeeded printed is kept. */
static gboolean probe_dirs(struct check *c, struct config_build *cb,
			   struct sparse_cache *cache, GPtrArray *objects,
			   GError **error)
{
	g_autoptr(GString) dirs = g_string_new(NULL);
	g_autofree char *eval = NULL;
	g_autofree char *dirs_var = NULL;
	static const char *const goal[] = { "armbot-probe", NULL };
	g_auto(GStrv) lines = NULL;
	g_autofree char *key = NULL;
	g_autofree char *kept = NULL, *unused = NULL;
	struct kbuild_result r;

	for (guint i = 0; i < objects->len; i++) {
		g_autofree char *dir = g_path_get_dirname(objects->pdata[i]);

		/* every ancestor, "." included: the descent must reach it */
		while (TRUE) {
			char *slash;
			g_autofree char *mk = g_build_filename(
				c->worktree, dir, "Makefile", NULL);
			g_autofree char *kb = g_build_filename(c->worktree, dir,
							       "Kbuild", NULL);

			if (!g_hash_table_contains(cb->probed, dir) &&
			    (g_file_test(mk, G_FILE_TEST_EXISTS) ||
			     g_file_test(kb, G_FILE_TEST_EXISTS))) {
				g_hash_table_add(cb->probed, g_strdup(dir));
				g_string_append_printf(dirs, " %s", dir);
			}
			if (!strcmp(dir, "."))
				break;
			slash = strrchr(dir, '/');
			if (slash)
				*slash = '\0';
			else
				strcpy(dir, ".");
		}
	}
	if (!dirs->len)
		return TRUE;
	dirs_var = g_strconcat("ARMBOT_PROBE_DIRS=", dirs->str + 1, NULL);
	/* not an object's name: objects end in ".o", with no '=' */
	key = g_strconcat("armbot-probe ", dirs_var, NULL);
	if (cache && sparse_cache_get(cache, key, &kept, &unused)) {
		lines = g_strsplit(kept, "\n", -1);
		goto parse;
	}
	if (!kbuild_set_trust(cb->kb, KBUILD_SERIES, error) ||
	    !write_armbot_makefile(cb->kb, &eval, error))
		return FALSE;
	{
		const char *vars[] = { "-k", eval, dirs_var, NULL };

		if (!kbuild_make(cb->kb, goal, vars, &r, error))
			return FALSE;
	}
	lines = g_strsplit(r.log ? r.log->str : "", "\n", -1);
	if (cache && r.ok) {
		g_autoptr(GString) said = g_string_new(NULL);

		for (guint i = 0; lines[i]; i++)
			if (g_str_has_prefix(lines[i], "armbot-probe "))
				g_string_append_printf(said, "%s\n", lines[i]);
		sparse_cache_put(cache, key, said->str, "");
	}
	kbuild_result_clear(&r);
parse:
	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) words = NULL;
		const char *dir;
		gboolean in_subdirs = FALSE;

		if (!g_str_has_prefix(lines[i], "armbot-probe "))
			continue;
		words = g_strsplit_set(lines[i], " ", -1);
		dir = words[1];
		for (guint k = 3; words[k]; k++) {
			const char *w = words[k];

			if (!*w)
				continue;
			if (!strcmp(w, "subdirs:")) {
				in_subdirs = TRUE;
				continue;
			}
			if (g_str_has_prefix(w, "./"))
				w += 2;
			if (in_subdirs)
				g_hash_table_add(cb->subdirs,
						 g_strconcat(dir, "\x1f", w,
							     NULL));
			else
				g_hash_table_add(cb->objects, g_strdup(w));
		}
	}
	return TRUE;
}

/* Whether kbuild descends into @dir under this config: some ancestor it
 * descends into ("." always) lists @dir among its subdirectories (the
 * top level lists arch/arm/mach-X directly, through ARCH_CORE). */
static gboolean dir_reached(struct config_build *cb, const char *dir)
{
	g_autofree char *up = g_strdup(dir);

	if (!strcmp(dir, "."))
		return TRUE;
	while (TRUE) {
		char *slash = strrchr(up, '/');
		g_autofree char *key = NULL;

		if (slash)
			*slash = '\0';
		else
			strcpy(up, ".");
		key = g_strconcat(up, "\x1f", dir, NULL);
		if (g_hash_table_contains(cb->subdirs, key) &&
		    dir_reached(cb, up))
			return TRUE;
		if (!strcmp(up, "."))
			return FALSE;
	}
}

/* Whether @cb's kbuild builds @object (after probe_dirs). */
static gboolean config_builds(struct config_build *cb, const char *object)
{
	g_autofree char *dir = g_path_get_dirname(object);

	return g_hash_table_contains(cb->objects, object) &&
	       dir_reached(cb, dir);
}

/* Assign each of @objects to the first config that builds it; the others
 * are not checked.  The worktree is at @head: the probe of the
 * directories runs the series' Makefiles, in the series' copy of each
 * build dir; what it printed is kept per root tree of @head, as the
 * head's objects are. */
static gboolean assign_configs(struct check *c, GPtrArray *objects,
			       const struct gitoid *head, GError **error)
{
	g_autoptr(GPtrArray) left = g_ptr_array_new();
	g_autoptr(GString) names = g_string_new(NULL);
	struct gitoid root;
	gboolean cached = !c->opts->no_cache &&
			  lg2repo_commit_tree(c->opts->tree->repo, head, &root);

	for (guint i = 0; i < objects->len; i++)
		g_ptr_array_add(left, objects->pdata[i]);
	for (guint k = 0; k < c->configs->len && left->len; k++) {
		struct config_build *cb = c->configs->pdata[k];

		g_string_append_printf(names, "%s%s", k ? ", " : "", cb->name);
		if (!prepare_config(c, cb, head, error))
			return FALSE;
		g_autoptr(sparse_cache) cache = NULL;

		if (!cb->usable)
			continue;
		if (cached)
			cache = sparse_cache_open_series(c->opts->data_dir,
							 c->opts->tree->name,
							 &root, cb->name,
							 cb->kb->build_dir);
		if (!probe_dirs(c, cb, cache, left, error))
			return FALSE;
		for (guint i = 0; i < left->len;) {
			if (config_builds(cb, left->pdata[i])) {
				g_ptr_array_add(cb->assigned, left->pdata[i]);
				g_ptr_array_remove_index(left, i);
			} else {
				i++;
			}
		}
	}
	for (guint i = 0; i < left->len; i++) {
		g_autofree char *src = g_strdup(left->pdata[i]);
		g_autofree char *why = NULL;
		GString *fails = g_string_new(NULL);

		src[strlen(src) - 1] = 'c';
		for (guint k = 0; k < c->configs->len; k++) {
			struct config_build *cb = c->configs->pdata[k];

			if (cb->failure)
				g_string_append_printf(fails, "; %s",
						       cb->failure);
		}
		why = g_strdup_printf(
			"%s; no config builds it (not built "
			"by %s)%s",
			(char *)g_hash_table_lookup(c->why, left->pdata[i]),
			names->str, fails->str);
		g_string_free(fails, TRUE);
		add_skip(c->out, src, why);
	}
	for (guint k = 0; k < c->configs->len; k++) {
		struct config_build *cb = c->configs->pdata[k];

		for (guint i = 0; i < cb->assigned->len; i++) {
			struct sparse_check_object *o =
				g_new0(struct sparse_check_object, 1);

			o->object = g_strdup(cb->assigned->pdata[i]);
			o->config = g_strdup(cb->name);
			o->why = g_strdup(
				g_hash_table_lookup(c->why, o->object));
			g_ptr_array_add(c->out->checked, o);
		}
	}
	return TRUE;
}

/* ---- runs ---- */

/* Split a `make -Otarget C=2` log into the compiler's and sparse's output
 * for @objects: with --output-sync=target each recipe's output comes out
 * whole, and kbuild's recipe for an object prints "  CC [M]  OBJ", the
 * compiler's messages, then "  CHECK   SRC" and sparse's messages.  Output
 * of other recipes (prepare's CALL, the CHECK of scripts/mod/empty.c) is
 * dropped.  The worktree prefix of absolute paths is removed. */
/* What one object's compile and sparse printed. */
struct obj_out {
	GString *gcc, *sparse;
};

static void obj_out_free(struct obj_out *o)
{
	g_string_free(o->gcc, TRUE);
	g_string_free(o->sparse, TRUE);
	g_free(o);
}

static struct obj_out *obj_out_of(GHashTable *outs, GPtrArray *order,
				  const char *object)
{
	struct obj_out *o = g_hash_table_lookup(outs, object);

	if (!o) {
		o = g_new0(struct obj_out, 1);
		o->gcc = g_string_new(NULL);
		o->sparse = g_string_new(NULL);
		g_hash_table_insert(outs, g_strdup(object), o);
		g_ptr_array_add(order, g_strdup(object));
	}
	return o;
}

/* The output of @objects in @log, per object into @outs (object ->
 * struct obj_out), objects in @order as the log first names them. */
static void split_log(const char *log, const char *worktree,
		      GHashTable *objects, GHashTable *outs, GPtrArray *order)
{
	g_autofree char *prefix = g_strconcat(worktree, "/", NULL);
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);
	g_autoptr(GHashTable) seen =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GString *into = NULL;

	for (guint i = 0; lines[i]; i++) {
		const char *line = lines[i];
		const char *rest;

		if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
			g_autofree char *path = NULL;

			into = NULL;
			rest = line + 2;
			if (g_str_has_prefix(rest, "CC ") ||
			    g_str_has_prefix(rest, "CHECK ")) {
				const char *p = strrchr(rest, ' ') + 1;

				if (g_str_has_prefix(p, prefix))
					p += strlen(prefix);
				path = g_strdup(p);
				if (g_str_has_suffix(path, ".c"))
					path[strlen(path) - 1] = 'o';
				/* one output per object and tool (an object
				 * listed twice is built once) */
				if (g_hash_table_contains(objects, path) &&
				    g_hash_table_add(seen,
						     g_strconcat(rest, NULL))) {
					struct obj_out *o =
						obj_out_of(outs, order, path);

					into = rest[1] == 'C' ? o->gcc :
								o->sparse;
				}
			}
			continue;
		}
		if (g_str_has_prefix(line, "make"))
			continue;
		if (!into)
			continue;
		if (g_str_has_prefix(line, prefix))
			line += strlen(prefix);
		g_string_append(into, line);
		g_string_append_c(into, '\n');
	}
}

/* Build @cb's assigned objects with sparse at the worktree's commit as
 * @trust and add their warnings to @w.  The objects are removed first so
 * that the compiler runs (ccache replays a cached compile's messages).
 * With @cache, an object whose output is cached is not built (*@hits
 * counts them), and the output of those built is kept when make
 * succeeded.  When every object is cached no make runs at all. */
static gboolean run_config(struct check *c, struct config_build *cb,
			   enum kbuild_trust trust, struct sparse_cache *cache,
			   struct run_warnings *w, guint *hits, GError **error)
{
	g_autoptr(GHashTable) outs = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, (GDestroyNotify)obj_out_free);
	g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) build = g_ptr_array_new();
	gboolean made_ok = TRUE;

	g_autoptr(GHashTable)
		objects = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) dirs =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GString) objs_var = g_string_new("ARMBOT_OBJS=");
	g_autoptr(GString) dirs_var = g_string_new("ARMBOT_OBJ_DIRS=");
	g_autoptr(GString) gcc = g_string_new(NULL);
	g_autoptr(GString) sparse = g_string_new(NULL);
	g_autofree char *eval = NULL;
	static const char *const goal[] = { "armbot-objects", NULL };
	struct kbuild_result r;

	for (guint i = 0; i < cb->assigned->len; i++) {
		const char *obj = cb->assigned->pdata[i];
		g_autofree char *gcc_text = NULL, *sparse_text = NULL;
		struct obj_out *o;

		if (cache &&
		    sparse_cache_get(cache, obj, &gcc_text, &sparse_text)) {
			o = obj_out_of(outs, order, obj);
			g_string_append(o->gcc, gcc_text);
			g_string_append(o->sparse, sparse_text);
			(*hits)++;
			continue;
		}
		g_ptr_array_add(build, (gpointer)obj);
	}
	if (!build->len)
		goto parse;
	if (!kbuild_set_trust(cb->kb, trust, error))
		return FALSE;
	for (guint i = 0; i < build->len; i++) {
		const char *obj = build->pdata[i];
		g_autofree char *dir = g_path_get_dirname(obj);
		g_autofree char *base = g_path_get_basename(obj);
		g_autofree char *cmd_rel =
			g_strdup_printf("%s/.%s.cmd", dir, base);
		g_autofree char *built = kbuild_output_path(cb->kb, obj, error);
		g_autofree char *cmd =
			built ? kbuild_output_path(cb->kb, cmd_rel, error) :
				NULL;

		if (!cmd)
			return FALSE;
		/* the compiler must run (ccache replays a cached compile's
		 * messages); the .cmd goes too: kbuild reads it first */
		g_unlink(built);
		g_unlink(cmd);
		g_string_append_printf(objs_var, "%s%s", i ? " " : "", obj);
		if (g_hash_table_add(dirs, g_strdup(dir)))
			g_string_append_printf(
				dirs_var, "%s%s",
				g_hash_table_size(dirs) > 1 ? " " : "", dir);
		g_hash_table_add(objects, (gpointer)obj);
	}
	if (!write_armbot_makefile(cb->kb, &eval, error))
		return FALSE;
	{
		const char *vars[] = { "-k",	      "--output-sync=target",
				       "C=2",	      "CHECK=sparse",
				       eval,	      objs_var->str,
				       dirs_var->str, NULL };

		if (!kbuild_make(cb->kb, goal, vars, &r, error))
			return FALSE;
	}
	if (!r.ok) {
		/* not the log's tail: the series' Makefiles print there */
		g_autofree char *said =
			buildlog_excerpt(r.log ? r.log->str : "", c->files,
					 c->worktree, cb->kb->build_dir, 15);

		w->failed = TRUE;
		made_ok = FALSE;
		g_string_append_printf(w->failure, "make (%s) %s\n%s", cb->name,
				       r.how, said);
	}
	split_log(r.log ? r.log->str : "", c->worktree, objects, outs, order);
	kbuild_result_clear(&r);
	/* only a make that succeeded said all there is to say of each */
	for (guint i = 0; cache && made_ok && i < build->len; i++) {
		struct obj_out *o = g_hash_table_lookup(outs, build->pdata[i]);

		sparse_cache_put(cache, build->pdata[i], o ? o->gcc->str : "",
				 o ? o->sparse->str : "");
	}
parse:
	for (guint i = 0; i < order->len; i++) {
		struct obj_out *o = g_hash_table_lookup(outs, order->pdata[i]);

		g_string_append(gcc, o->gcc->str);
		g_string_append(sparse, o->sparse->str);
	}
	{
		g_autoptr(GPtrArray) g = sparse_parse(gcc->str, "gcc");
		g_autoptr(GPtrArray) s = sparse_parse(sparse->str, "sparse");

		sparse_attach_source(g, c->worktree);
		sparse_attach_source(s, c->worktree);
		g_ptr_array_extend_and_steal(w->gcc, g_steal_pointer(&g));
		g_ptr_array_extend_and_steal(w->sparse, g_steal_pointer(&s));
	}
	return TRUE;
}

/* Check the worktree out at @commit and run every config's objects, as
 * @trust: the base is the tree's, the head and the patches the series'.
 * Their results are kept (kernel/build/sparse-cache.h): the base's per
 * commit, a series' commit's per root tree. */
static gboolean run_commit(struct check *c, const struct gitoid *commit,
			   enum kbuild_trust trust, struct run_warnings *w,
			   double *seconds, GError **error)
{
	gboolean trusted = trust == KBUILD_TRUSTED;
	gboolean cached = !c->opts->no_cache;
	guint *hits = trusted ? &c->out->base_cached : &c->out->series_cached;
	guint *built = trusted ? &c->out->base_computed :
				 &c->out->series_computed;
	struct gitoid root;
	gint64 t0;

	run_warnings_init(w);
	if (cached && !trusted &&
	    !lg2repo_commit_tree(c->opts->tree->repo, commit, &root))
		cached = FALSE; /* built; the check itself says if it fails */
	if (!checkout(c, commit, error))
		return FALSE;
	t0 = g_get_monotonic_time();
	for (guint k = 0; k < c->configs->len; k++) {
		struct config_build *cb = c->configs->pdata[k];

		g_autoptr(sparse_cache) cache = NULL;
		guint got = 0;

		if (!cb->assigned->len)
			continue;
		if (cached && trusted)
			cache = sparse_cache_open(c->opts->data_dir,
						  c->opts->tree->name, commit,
						  cb->name, cb->kb->build_dir);
		else if (cached)
			cache = sparse_cache_open_series(c->opts->data_dir,
							 c->opts->tree->name,
							 &root, cb->name,
							 cb->kb->build_dir);
		if (!run_config(c, cb, trust, cache, w, &got, error))
			return FALSE;
		*hits += got;
		*built += cb->assigned->len - got;
	}
	*seconds += (g_get_monotonic_time() - t0) / 1e6;
	return TRUE;
}

/* ---- comparison and report ---- */

static char *warning_key(const struct sparse_warning *w)
{
	return g_strdup_printf("%s\x1f%s\x1f%s\x1f%s\x1f%s", w->tool, w->file,
			       w->severity, w->message,
			       w->source ? w->source : "");
}

/* key -> number of warnings with that key in @w (sparse and gcc). */
static GHashTable *count_keys(const struct run_warnings *w)
{
	GHashTable *count =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GPtrArray *both[] = { w->sparse, w->gcc };

	for (guint b = 0; b < 2; b++)
		for (guint i = 0; i < both[b]->len; i++) {
			char *key = warning_key(both[b]->pdata[i]);
			guint n = GPOINTER_TO_UINT(
				g_hash_table_lookup(count, key));

			g_hash_table_replace(count, key,
					     GUINT_TO_POINTER(n + 1));
		}
	return count;
}

static guint count_of(GHashTable *count, const char *key)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(count, key));
}

static guint count_severity(GPtrArray *warnings, GArray *is_new,
			    const char *severity, gboolean only_new)
{
	guint n = 0;

	for (guint i = 0; i < warnings->len; i++) {
		const struct sparse_warning *w = warnings->pdata[i];

		if (strcmp(w->severity, severity))
			continue;
		if (!only_new || g_array_index(is_new, gboolean, i))
			n++;
	}
	return n;
}

static char *patch_subject(struct check *c, guint i)
{
	const struct sparse_check_opts *opts = c->opts;
	char *summary;

	if (opts->subjects && i < opts->subjects->len &&
	    opts->subjects->pdata[i])
		return g_strdup(opts->subjects->pdata[i]);
	summary = lg2repo_commit_summary(opts->tree->repo,
					 &g_array_index(opts->patches,
							struct gitoid, i));
	return summary ? summary : g_strdup("?");
}

static void report_warning(GString *out, const char *prefix,
			   const struct sparse_warning *w)
{
	g_autoptr(GPtrArray) one = g_ptr_array_new();
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	g_autoptr(GArray) flag = g_array_new(FALSE, FALSE, sizeof(gboolean));
	gboolean yes = TRUE;
	g_autoptr(GString) line = g_string_new(NULL);

	/* sparse_report() formats a warning as the robot does */
	g_ptr_array_add(one, (gpointer)w);
	g_array_append_val(flag, yes);
	sparse_report(line, "", one, flag, none);
	/* drop the empty title line and the ">> " it puts first */
	g_string_append_printf(out, "%s%s", prefix, line->str + 1 + 3);
}

/* A blank line between two sections of the report. */
static void section_break(GString *report)
{
	if (report->len && !g_str_has_suffix(report->str, "\n\n"))
		g_string_append_c(report, '\n');
}

/* Per patch: the patch that introduced each new head warning, the first
 * after which the warning's count stays above the base's.  @runs: base,
 * patch 1 .. patch n (= head). */
static void report_by_patch(struct check *c, GString *report,
			    struct run_warnings *runs, guint n_runs)
{
	g_autoptr(GPtrArray) counts = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_hash_table_unref);
	struct run_warnings *head = &runs[n_runs - 1];
	GPtrArray *both[] = { head->sparse, head->gcc };
	g_autoptr(GHashTable) done =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint n_patches = n_runs - 1;
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < n_runs; i++)
		g_ptr_array_add(counts, count_keys(&runs[i]));
	for (guint p = 1; p <= n_patches; p++) {
		g_autoptr(GString) section = g_string_new(NULL);

		for (guint b = 0; b < 2; b++)
			for (guint i = 0; i < both[b]->len; i++) {
				const struct sparse_warning *w =
					both[b]->pdata[i];
				g_autofree char *key = warning_key(w);
				guint base = count_of(counts->pdata[0], key);
				guint first = n_runs;

				if (g_hash_table_contains(done, key) ||
				    count_of(counts->pdata[n_runs - 1], key) <=
					    base)
					continue;
				for (guint j = n_runs - 1; j >= 1; j--) {
					if (count_of(counts->pdata[j], key) <=
					    base)
						break;
					first = j;
				}
				if (first != p)
					continue;
				g_hash_table_add(done, g_steal_pointer(&key));
				report_warning(section, ">> ", w);
			}
		for (guint j = 0; p < n_patches && j < runs[p].gcc->len; j++) {
			const struct sparse_warning *w = runs[p].gcc->pdata[j];
			g_autofree char *key = warning_key(w);

			/* an error of this patch that a later one fixed */
			if (!strcmp(w->severity, "error") &&
			    count_of(counts->pdata[p], key) >
				    count_of(counts->pdata[0], key) &&
			    count_of(counts->pdata[n_runs - 1], key) <=
				    count_of(counts->pdata[0], key))
				report_warning(section, ">> ", w);
		}
		if (section->len) {
			g_autofree char *subject = patch_subject(c, p - 1);

			section_break(report);
			g_string_append_printf(report,
					       "introduced by patch %u/%u "
					       "\"%s\":\n%s",
					       p, n_patches, subject,
					       section->str);
		}
	}
}

/* What a reader runs to see the same warnings, per config that checked
 * objects: the configuration, then the objects with sparse.  armbot's own
 * make builds them through armbot.mk's goal (see armbot_makefile); a
 * reader names the objects as make targets, which kbuild builds with the
 * same flags. */
static void build_reproduce(struct check *c)
{
	static const char *const sparse_vars[] = { "C=2", "CHECK=sparse",
						   NULL };
	g_autoptr(GString) s = g_string_new(NULL);

	c->out->steps = kbuild_steps_new();
	for (guint k = 0; k < c->configs->len; k++) {
		struct config_build *cb = c->configs->pdata[k];
		const char *target, *fragment;
		g_autoptr(GPtrArray) steps = NULL;
		g_autofree const char **objects = NULL;

		if (!cb->assigned->len)
			continue;
		config_target(cb->name, &target, &fragment);
		steps = kbuild_configure_target_steps(cb->kb, target, fragment);
		objects = g_new0(const char *, cb->assigned->len + 1);
		memcpy(objects, cb->assigned->pdata,
		       cb->assigned->len * sizeof(char *));
		kbuild_steps_add_command(steps,
					 kbuild_make_printable(cb->kb, objects,
							       sparse_vars));
		g_ptr_array_extend_and_steal(c->out->steps,
					     g_steal_pointer(&steps));
	}
	kbuild_steps_format(s, c->out->steps, "");
	c->out->reproduce = g_string_free(g_steal_pointer(&s), FALSE);
}

/* Compare @runs (base, then each run after a patch up to the head, or
 * base and head), fill in @out's counts, status and report. */
static void conclude(struct check *c, struct run_warnings *runs, guint n_runs)
{
	struct sparse_check_result *out = c->out;
	struct run_warnings *base = &runs[0], *head = &runs[n_runs - 1];
	g_autoptr(GArray) new_s = NULL;
	g_autoptr(GArray) new_g = NULL;
	g_autoptr(GPtrArray) fixed_s = NULL;
	g_autoptr(GPtrArray) fixed_g = NULL;
	g_autoptr(GString) report = g_string_new(NULL);
	guint n_patches = c->opts->patches->len;
	int broken_patch = -1;

	sparse_compare(base->sparse, head->sparse, &new_s, &fixed_s);
	sparse_compare(base->gcc, head->gcc, &new_g, &fixed_g);
	out->compile_errors = count_severity(head->gcc, new_g, "error", FALSE);
	out->new_compile_errors =
		count_severity(head->gcc, new_g, "error", TRUE);
	out->total_warnings =
		head->sparse->len +
		count_severity(head->gcc, new_g, "warning", FALSE);
	out->new_warnings =
		count_severity(head->sparse, new_s, "warning", TRUE) +
		count_severity(head->sparse, new_s, "error", TRUE) +
		count_severity(head->gcc, new_g, "warning", TRUE);
	out->fixed_warnings = fixed_s->len + fixed_g->len;
	if (head->failed) {
		/* objects that did not build say nothing: nothing is known
		 * to be fixed */
		g_ptr_array_set_size(fixed_s, 0);
		g_ptr_array_set_size(fixed_g, 0);
		out->fixed_warnings = 0;
	}

	/* a patch in the middle that does not compile (per patch) */
	for (guint p = 1; p + 1 < n_runs && broken_patch < 0; p++) {
		g_autoptr(GArray) is_new = NULL;
		g_autoptr(GPtrArray) gone = NULL;

		sparse_compare(base->gcc, runs[p].gcc, &is_new, &gone);
		if (count_severity(runs[p].gcc, is_new, "error", TRUE) ||
		    (runs[p].failed && !base->failed))
			broken_patch = (int)p;
	}

	if (out->new_compile_errors || (head->failed && !base->failed)) {
		out->status = SPARSE_CHECK_FAIL;
		out->reason = g_strdup("the series does not compile");
		g_string_append(report, "the series does not compile:\n");
		for (guint i = 0; i < head->gcc->len; i++)
			if (g_array_index(new_g, gboolean, i) &&
			    !strcmp(((struct sparse_warning *)
					     head->gcc->pdata[i])
					    ->severity,
				    "error"))
				report_warning(report, ">> ",
					       head->gcc->pdata[i]);
		if (!out->new_compile_errors) {
			g_auto(GStrv) lines =
				g_strsplit(head->failure->str, "\n", -1);

			for (guint i = 0; lines[i]; i++)
				if (*lines[i])
					g_string_append_printf(report, "| %s\n",
							       lines[i]);
		}
		g_string_append_c(report, '\n');
	} else if (broken_patch > 0) {
		g_autofree char *subject =
			patch_subject(c, (guint)broken_patch - 1);

		out->status = SPARSE_CHECK_FAIL;
		out->reason = g_strdup_printf("patch %d/%u does not compile",
					      broken_patch, n_patches);
		g_string_append_printf(report,
				       "patch %d/%u \"%s\" does not compile "
				       "(a later patch fixes it):\n",
				       broken_patch, n_patches, subject);
		if (runs[broken_patch].failure->len)
			g_string_append_printf(report, "%s\n",
					       runs[broken_patch].failure->str);
	} else if (out->new_warnings) {
		out->status = SPARSE_CHECK_WARN;
	} else {
		out->status = SPARSE_CHECK_OK;
	}

	section_break(report);
	sparse_report(report, SPARSE_TITLE, head->sparse, new_s, fixed_s);
	section_break(report);
	sparse_report(report, SPARSE_TITLE_CC, head->gcc, new_g, fixed_g);
	if (!head->sparse->len && !fixed_s->len && !head->gcc->len &&
	    !fixed_g->len && !head->failed)
		g_string_append(report, "no sparse or compiler warnings\n");
	if (n_runs > 2)
		report_by_patch(c, report, runs, n_runs);
	if (out->not_checked->len) {
		section_break(report);
		g_string_append(report, "not checked:\n");
		for (guint i = 0; i < out->not_checked->len; i++) {
			struct sparse_check_skip *s =
				out->not_checked->pdata[i];

			g_string_append_printf(report, "   %s: %s\n", s->path,
					       s->reason);
		}
	}
	while (g_str_has_suffix(report->str, "\n\n"))
		g_string_truncate(report, report->len - 1);
	out->report = g_string_free(g_steal_pointer(&report), FALSE);
}

/* ---- the check ---- */

/* The worktree lock `armbot boot` takes too: runs on one tree check the
 * worktree out in turn.  Returns the fd to keep, or -1. */
static int lock_worktree(const char *path, GError **error)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot open '%s': %s", path, g_strerror(errno));
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			g_set_error(error, G_IO_ERROR,
				    g_io_error_from_errno(errno),
				    "cannot lock '%s': %s", path,
				    g_strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

static gboolean check_run(struct check *c, int *lock_fd, GError **error)
{
	const struct sparse_check_opts *opts = c->opts;
	struct sparse_check_result *out = c->out;
	g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) names = tree_configs(opts);
	g_autofree char *cache = cache_dir();
	g_autofree char *ccache = NULL;
	g_autofree char *worktrees =
		g_build_filename(opts->data_dir, "worktrees", NULL);
	g_autofree char *lock_path = NULL;
	const char *key = opts->worktree_key ? opts->worktree_key :
					       opts->tree->name;
	guint n = opts->patches ? opts->patches->len : 0;
	struct run_warnings *runs;
	guint n_runs;
	const struct gitoid *head;
	gint64 t0;
	gboolean ok = FALSE;

	if (!n) {
		out->status = SPARSE_CHECK_SKIPPED;
		out->reason = g_strdup("no patch applied");
		out->report = g_strdup("not checked: no patch applied\n");
		return TRUE;
	}
	head = &g_array_index(opts->patches, struct gitoid, n - 1);
	c->worktree = g_build_filename(worktrees, key, NULL);
	lock_path = g_strconcat(c->worktree, ".lock", NULL);
	if (g_mkdir_with_parents(c->worktree, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", c->worktree,
			    g_strerror(errno));
		return FALSE;
	}
	*lock_fd = lock_worktree(lock_path, error);
	if (*lock_fd < 0)
		return FALSE;
	/* kbuild prints the sources by their resolved path: a data dir
	 * reached through a symlink must not hide every warning from
	 * split_log() */
	{
		char *real = realpath(c->worktree, NULL);

		if (real) {
			g_free(c->worktree);
			c->worktree = g_strdup(real);
			free(real);
		}
	}
	ccache = opts->ccache_dir ? g_strdup(opts->ccache_dir) :
				    kbuild_ccache_dir(cache, opts->tree->name);
	for (guint k = 0; names[k]; k++) {
		struct config_build *cb = g_new0(struct config_build, 1);
		g_autofree char *dir =
			kbuild_dir(opts->data_dir, key, names[k]);

		g_ptr_array_add(c->configs, cb);
		cb->name = g_strdup(names[k]);
		cb->objects = g_hash_table_new_full(g_str_hash, g_str_equal,
						    g_free, NULL);
		cb->subdirs = g_hash_table_new_full(g_str_hash, g_str_equal,
						    g_free, NULL);
		cb->probed = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
		cb->assigned = g_ptr_array_new();
		cb->kb = kbuild_new(c->worktree, dir, NULL, ccache, error);
		if (!cb->kb)
			return FALSE;
		cb->kb->jobs = opts->jobs;
		cb->kb->timeout_s = opts->timeout_s ? opts->timeout_s : 3600;
		if (opts->icecc.socket) {
			g_autofree char *note = kbuild_use_icecc_for_check(
				cb->kb, &opts->icecc, cache, opts->tree->name,
				&c->icecc_netns, &c->icecc_netns_error);

			if (!out->build_note)
				out->build_note = g_steal_pointer(&note);
		}
	}

	/* the head first: the objects are those of the head's tree */
	progress(c, SPARSE_CHECK_STAGE_SELECT, NULL);
	if (!checkout(c, head, error))
		return FALSE;
	t0 = g_get_monotonic_time();
	if (!select_objects(c, head, objects, error))
		return FALSE;
	out->timings.select += (g_get_monotonic_time() - t0) / 1e6;
	if (!objects->len) {
		out->status = SPARSE_CHECK_SKIPPED;
		out->reason = g_strdup("the series touches no .c file and no "
				       "header");
		out->report = g_strdup_printf("not checked: %s\n", out->reason);
		return TRUE;
	}
	for (guint i = 0; i < objects->len; i++) {
		char *src = g_strdup(objects->pdata[i]);

		src[strlen(src) - 1] = 'c';
		g_ptr_array_add(c->files, src);
	}
	t0 = g_get_monotonic_time();
	if (!assign_configs(c, objects, head, error))
		return FALSE;
	/* the probe is part of selecting; configuring is counted apart */
	out->timings.select +=
		(g_get_monotonic_time() - t0) / 1e6 - out->timings.config;
	build_reproduce(c);
	if (!out->checked->len) {
		g_autoptr(GString) report = g_string_new(NULL);

		out->status = SPARSE_CHECK_SKIPPED;
		out->reason = g_strdup("no config builds the files the series "
				       "touches");
		g_string_append_printf(report, "not checked: %s\n",
				       out->reason);
		for (guint i = 0; i < out->not_checked->len; i++) {
			struct sparse_check_skip *s =
				out->not_checked->pdata[i];

			g_string_append_printf(report, "   %s: %s\n", s->path,
					       s->reason);
		}
		out->report = g_string_free(g_steal_pointer(&report), FALSE);
		return TRUE;
	}

	n_runs = opts->per_patch ? n + 1 : 2;
	runs = g_new0(struct run_warnings, n_runs);
	progress(c, SPARSE_CHECK_STAGE_HEAD, NULL);
	if (!run_commit(c, head, KBUILD_SERIES, &runs[n_runs - 1],
			&out->timings.head, error))
		goto done;
	progress(c, SPARSE_CHECK_STAGE_BASE, NULL);
	if (!run_commit(c, &opts->base, KBUILD_TRUSTED, &runs[0],
			&out->timings.base, error))
		goto done;
	for (guint p = 1; p + 1 < n_runs; p++) {
		g_autofree char *detail = g_strdup_printf("%u/%u", p, n);

		progress(c, SPARSE_CHECK_STAGE_PATCH, detail);
		if (!run_commit(c,
				&g_array_index(opts->patches, struct gitoid,
					       p - 1),
				KBUILD_SERIES, &runs[p], &out->timings.patches,
				error))
			goto done;
	}
	conclude(c, runs, n_runs);
	ok = TRUE;
done:
	for (guint i = 0; i < n_runs; i++)
		run_warnings_clear(&runs[i]);
	g_free(runs);
	return ok;
}

gboolean sparse_check_run(const struct sparse_check_opts *opts,
			  struct sparse_check_result *out, GError **error)
{
	struct check c = { 0 };
	gint64 t0 = g_get_monotonic_time();
	int lock_fd = -1;
	gboolean ok;

	memset(out, 0, sizeof(*out));
	out->checked =
		g_ptr_array_new_with_free_func((GDestroyNotify)object_free);
	out->not_checked =
		g_ptr_array_new_with_free_func((GDestroyNotify)skip_free);
	c.opts = opts;
	c.out = out;
	c.configs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)config_build_free);
	c.why = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	c.files = g_ptr_array_new_with_free_func(g_free);
	c.icecc_netns = -1;
	ok = check_run(&c, &lock_fd, error);
	if (lock_fd >= 0)
		close(lock_fd);
	g_free(c.worktree);
	g_ptr_array_unref(c.configs);
	if (c.icecc_netns >= 0)
		close(c.icecc_netns);
	g_clear_error(&c.icecc_netns_error);
	g_hash_table_unref(c.why);
	g_ptr_array_unref(c.files);
	out->timings.total = (g_get_monotonic_time() - t0) / 1e6;
	return ok;
}
