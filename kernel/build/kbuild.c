/* Out-of-tree kernel builds through the sandbox (kbuild's O=, see
 * Documentation/kbuild/kbuild.rst and modules.rst for M=). */
#include "kernel/build/kbuild.h"

#include <errno.h>
#include <stdlib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/tree/rmtree.h"
#include "kernel/build/buildcopy.h"
#include "kernel/build/icecc-netns.h"
#include "kernel/build/icecc-proxy.h"
#include "kernel/build/icecc-watch.h"
#include "kernel/build/icecc.h"

#define KBUILD_HOSTCC_CCACHE "HOSTCC=ccache gcc"
/* On icecream: CCACHE_PREFIX=icecc sends every compile ccache runs to
 * the cluster with the one environment armbot made, the cross compiler's
 * (ICECC_VERSION), and a node then compiles the host programs
 * (scripts/kconfig/conf, fixdep) as ARM objects that the host's ld
 * refuses ("relocations in generic ELF (EM: 40)"), and ccache keeps
 * them.  The host compiler stays on this machine: icecc with
 * ICECC=disable runs the real compiler at once. */
#define KBUILD_HOSTCC_CCACHE_LOCAL "HOSTCC=env ICECC=disable ccache gcc"
/* the build dir as a reader names it, in the kernel tree: O=build */
#define KBUILD_PRINTABLE_DIR "build"
/* columns of a printable command line before it is continued */
#define KBUILD_PRINTABLE_WIDTH 160
/* the tree's ccache store: ccache does not clean a file storage itself,
 * kbuild trims it (`ccache --trim-dir`) to this size, at most hourly */
#define KBUILD_CCACHE_MAX_SIZE "2G"
#define KBUILD_CCACHE_TRIM_EVERY_S 3600
/* a file armbot reads from a build dir (a stamp, .config), a module */
#define KBUILD_MAX_READ (16u << 20)
#define KBUILD_MAX_MODULE (64u << 20)

char *kbuild_dir(const char *data_dir, const char *tree_key,
		 const char *config_name)
{
	return g_build_filename(data_dir, "kbuild", tree_key, config_name,
				NULL);
}

/* Replace *@path by its real path. */
static gboolean resolve_links(char **path, GError **error)
{
	char *real = realpath(*path, NULL);

	if (!real) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot resolve '%s': %s", *path,
			    g_strerror(errno));
		return FALSE;
	}
	g_free(*path);
	*path = g_strdup(real);
	free(real);
	return TRUE;
}

char *kbuild_ccache_dir(const char *cache_dir, const char *tree_key)
{
	return g_build_filename(cache_dir, "ccache", tree_key, NULL);
}

/* A directory @dir/@name, made if missing. */
static char *subdir(const char *dir, const char *name, GError **error)
{
	char *path = g_build_filename(dir, name, NULL);

	if (g_mkdir_with_parents(path, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", path, g_strerror(errno));
		g_free(path);
		return NULL;
	}
	return path;
}

/* Whether this make compiles through icecream: a trusted build's, and a
 * series' only inside the fenced network namespace
 * (kbuild_set_icecc_netns()), where its Makefiles and scripts reach
 * nothing but the nodes' daemon ports. */
static gboolean icecc_on(const struct kbuild *kb)
{
	return kb->icecc_socket &&
	       (kb->trust == KBUILD_TRUSTED || kb->icecc_netns >= 0);
}

/* The iceccd socket the sandbox shows: the host's to a trusted build; to
 * a series', a proxy's (kernel/build/icecc-proxy.h), started here once
 * per kbuild and stopped by kbuild_free(), which passes on only what a
 * compile sends: a series' Makefile that asks iceccd for a native
 * environment (ICECC_EXTRAFILES, host files packed outside the sandbox)
 * or names another environment is cut off.  When the proxy cannot start,
 * a path with no socket, where the client finds no daemon and compiles
 * locally. */
static const char *icecc_socket_shown(struct kbuild *kb)
{
	g_autoptr(GError) error = NULL;

	if (kb->trust == KBUILD_TRUSTED)
		return kb->icecc_socket;
	if (!kb->icecc_proxy) {
		kb->icecc_proxy = icecc_proxy_start(kb->icecc_socket,
						    kb->icecc_env, &error);
		if (!kb->icecc_proxy) {
			g_warning("series builds without iceccd: %s",
				  error->message);
			return "/dev/null";
		}
	}
	return icecc_proxy_socket(kb->icecc_proxy);
}

/* What the sandbox shows for kb->trust: the kernel tree read-only; the
 * build dir, or the series' copy at its path, read-write; the tree's
 * ccache read-write for a trusted build, else its store read-only and the
 * series' own ccache read-write; through icecream (a trusted build only)
 * the iceccd socket, the compiler tarball and the host's network. */
static void bind_dirs(struct kbuild *kb)
{
	g_autofree char *store =
		kb->ccache_dir ?
			g_build_filename(kb->ccache_dir, "store", NULL) :
			NULL;
	g_autofree char *own = g_build_filename(kb->series_dir, "ccache", NULL);

	sandbox_clear_binds(kb->sandbox);
	sandbox_add_readonly(kb->sandbox, kb->src_dir);
	/* the icecc client sends a job to the node the scheduler picks over
	 * TCP, from inside: a trusted build through icecream keeps the
	 * host's network; every other build has loopback only */
	sandbox_set_host_network(kb->sandbox,
				 icecc_on(kb) && kb->trust == KBUILD_TRUSTED);
	sandbox_set_netns(kb->sandbox,
			  icecc_on(kb) && kb->trust != KBUILD_TRUSTED ?
				  kb->icecc_netns :
				  -1);
	if (icecc_on(kb)) {
		sandbox_add_bind(kb->sandbox, icecc_socket_shown(kb),
				 ICECC_SANDBOX_SOCKET, FALSE);
		sandbox_add_readonly(kb->sandbox, kb->icecc_env);
	}
	if (kb->trust == KBUILD_TRUSTED) {
		sandbox_add_writable(kb->sandbox, kb->build_dir);
		if (kb->ccache_dir)
			sandbox_add_writable(kb->sandbox, kb->ccache_dir);
		return;
	}
	sandbox_add_bind(kb->sandbox, kb->series_build, kb->build_dir, TRUE);
	if (kb->ccache_dir) {
		sandbox_add_readonly(kb->sandbox, store);
		sandbox_add_writable(kb->sandbox, own);
	}
}

struct kbuild *kbuild_new(const char *src_dir, const char *build_dir,
			  const char *fragment, const char *ccache_dir,
			  GError **error)
{
	g_autoptr(kbuild) kb = g_new0(struct kbuild, 1);
	g_autofree char *parent = NULL;
	g_autofree char *name = NULL;
	g_autofree char *store = NULL;
	g_autofree char *stats = NULL;

	kb->icecc_netns = -1;
	kb->src_dir = g_canonicalize_filename(src_dir, NULL);
	kb->build_dir = g_canonicalize_filename(build_dir, NULL);
	kb->fragment = fragment ? g_canonicalize_filename(fragment, NULL) :
				  NULL;
	kb->ccache_dir =
		ccache_dir ? g_canonicalize_filename(ccache_dir, NULL) : NULL;
	kb->nice = 10;
	kb->timeout_s = 3600;
	if (!g_file_test(kb->src_dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "kernel tree '%s' not found", kb->src_dir);
		return NULL;
	}
	if (g_mkdir_with_parents(kb->build_dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", kb->build_dir,
			    g_strerror(errno));
		return NULL;
	}
	if (kb->ccache_dir &&
	    (!(store = subdir(kb->ccache_dir, "store", error)) ||
	     !(stats = subdir(kb->ccache_dir, "stats", error))))
		return NULL;
	/* kbuild records absolute paths (.cmd files, O=): the same dirs
	 * reached through a symbolic link must not look like new ones and
	 * rebuild everything */
	if (!resolve_links(&kb->src_dir, error) ||
	    !resolve_links(&kb->build_dir, error))
		return NULL;
	/* beside the build dirs of the tree, in no build dir */
	parent = g_path_get_dirname(kb->build_dir);
	name = g_path_get_basename(kb->build_dir);
	kb->series_dir = g_build_filename(parent, ".series", name, NULL);
	kb->series_build = g_build_filename(kb->series_dir, "build", NULL);
	kb->sandbox = sandbox_new(error);
	if (!kb->sandbox)
		return NULL;
	bind_dirs(kb);
	return g_steal_pointer(&kb);
}

/* The series' copy and ccache, back to the build dir and empty. */
static gboolean series_sync(struct kbuild *kb, GError **error)
{
	g_autofree char *manifest =
		g_build_filename(kb->series_dir, "manifest", NULL);
	g_autofree char *own = g_build_filename(kb->series_dir, "ccache", NULL);

	if (g_mkdir_with_parents(kb->series_dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", kb->series_dir,
			    g_strerror(errno));
		return FALSE;
	}
	if (!rmtree(own, error))
		return FALSE;
	if (kb->ccache_dir && g_mkdir(own, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", own, g_strerror(errno));
		return FALSE;
	}
	return buildcopy_sync(kb->build_dir, kb->series_build, manifest,
			      &kb->series_copy, error);
}

gboolean kbuild_set_trust(struct kbuild *kb, enum kbuild_trust trust,
			  GError **error)
{
	if (trust == KBUILD_SERIES && !kb->series_synced) {
		if (!series_sync(kb, error))
			return FALSE;
		kb->series_synced = TRUE;
	}
	kb->trust = trust;
	bind_dirs(kb);
	return TRUE;
}

const char *kbuild_output_dir(const struct kbuild *kb)
{
	return kb->trust == KBUILD_SERIES ? kb->series_build : kb->build_dir;
}

char *kbuild_output_path(const struct kbuild *kb, const char *rel,
			 GError **error)
{
	g_auto(GStrv) parts = g_strsplit(rel, "/", -1);
	g_autoptr(GString) path = g_string_new(kbuild_output_dir(kb));

	for (guint i = 0; parts[i]; i++) {
		gboolean last = !parts[i + 1];
		GStatBuf st;

		if (!*parts[i] || !strcmp(parts[i], ".") ||
		    !strcmp(parts[i], "..")) {
			g_set_error(error, G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "'%s' is not a path in the build dir", rel);
			return NULL;
		}
		g_string_append_printf(path, "/%s", parts[i]);
		if (g_lstat(path->str, &st) != 0)
			continue; /* made later, by armbot */
		if (S_ISLNK(st.st_mode) || (!last && !S_ISDIR(st.st_mode))) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
				    "'%s' in the build dir is %s, which armbot "
				    "does not follow",
				    path->str,
				    S_ISLNK(st.st_mode) ? "a symlink" :
							  "not a directory");
			return NULL;
		}
	}
	return g_strdup(path->str);
}

/* Trim the tree's ccache store to KBUILD_CCACHE_MAX_SIZE when the last
 * trim (the mtime of stats/trimmed) is an hour old: ccache does not clean
 * a file storage.  Only trusted builds write the store, and it only
 * grows, so after them. */
static void trim_ccache(const struct kbuild *kb)
{
	g_autofree char *stamp =
		g_build_filename(kb->ccache_dir, "stats", "trimmed", NULL);
	g_autofree char *store =
		g_build_filename(kb->ccache_dir, "store", NULL);
	const char *argv[] = { "ccache",	  "--trim-dir",		  store,
			       "--trim-max-size", KBUILD_CCACHE_MAX_SIZE, NULL };
	g_auto(GStrv) env = runner_env_new(NULL);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	GStatBuf st;

	if (g_stat(stamp, &st) == 0 &&
	    g_get_real_time() / G_USEC_PER_SEC - st.st_mtime <
		    KBUILD_CCACHE_TRIM_EVERY_S)
		return;
	o.env = (const char *const *)env;
	o.timeout_ms = 600000;
	o.merge_stderr = TRUE;
	if (!runner_run(argv, &o, &r, NULL))
		return;
	if (!runner_result_ok(&r))
		g_message("kbuild: cannot trim the ccache '%s': %s", store,
			g_strstrip(r.output->str));
	else
		g_file_set_contents(stamp, "", 0, NULL);
	runner_result_clear(&r);
}

const struct kbuild_arch *kbuild_arch_of(const struct kbuild *kb)
{
	return kb->arch ? kb->arch : kbuild_arch_default();
}

/* "CC=ccache CROSS-gcc": kbuild's CC through ccache.  Newly allocated. */
static char *cc_ccache(const struct kbuild *kb)
{
	return g_strconcat("CC=ccache ", kbuild_arch_of(kb)->cc, NULL);
}

/* The argv of make in @kb's build dir with @targets and @vars, as
 * kbuild_make() runs it before the sandbox wraps it: the one place it is
 * built (kbuild_make_printable() derives the reader's form from it).
 * NULL-terminated; the strings are owned by the array. */
static GPtrArray *make_argv(const struct kbuild *kb, const char *const *targets,
			    const char *const *vars)
{
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	guint jobs = kb->jobs ? kb->jobs : (guint)g_get_num_processors();

	if (icecc_on(kb) && kb->icecc_jobs > jobs)
		jobs = kb->icecc_jobs;
	g_ptr_array_add(argv, g_strdup("make"));
	g_ptr_array_add(argv,
			g_strconcat("ARCH=", kbuild_arch_of(kb)->name, NULL));
	g_ptr_array_add(argv,
			g_strconcat("CROSS_COMPILE=",
				    kbuild_arch_of(kb)->cross_compile, NULL));
	if (kb->ccache_dir) {
		/* kbuild's CC and HOSTCC are command lines: a wrapper fits */
		g_ptr_array_add(argv, cc_ccache(kb));
		g_ptr_array_add(argv,
				g_strdup(icecc_on(kb) ?
						 KBUILD_HOSTCC_CCACHE_LOCAL :
						 KBUILD_HOSTCC_CCACHE));
	}
	g_ptr_array_add(argv, g_strconcat("O=", kb->build_dir, NULL));
	g_ptr_array_add(argv, g_strdup_printf("-j%u", jobs));
	for (guint i = 0; vars && vars[i]; i++)
		g_ptr_array_add(argv, g_strdup(vars[i]));
	for (guint i = 0; targets && targets[i]; i++)
		g_ptr_array_add(argv, g_strdup(targets[i]));
	g_ptr_array_add(argv, NULL);
	return argv;
}

/* The jobs the scheduler handed out so far; 0 when it cannot say. */
static guint64 cluster_total(const struct kbuild *kb)
{
	struct icecc_cluster cl;
	guint64 total;

	if (!icecc_listcs(kb->icecc_scheduler, &cl, NULL))
		return 0;
	total = cl.total_jobs;
	icecc_cluster_clear(&cl);
	return total;
}

/* What a make through icecream took, for `armbot status`. */
static void record_icecc(const struct kbuild *kb, const GPtrArray *argv,
			 double seconds, guint64 before, GPtrArray *nodes,
			 double here_s, double elsewhere_s)
{
	g_autoptr(GError) error = NULL;
	struct icecc_last_build lb = { 0 };
	guint64 after = kb->icecc_scheduler ? cluster_total(kb) : 0;

	lb.when = g_get_real_time() / G_USEC_PER_SEC;
	lb.seconds = seconds;
	lb.local_jobs = kb->jobs ? kb->jobs : (guint)g_get_num_processors();
	for (guint i = 0; i < argv->len && argv->pdata[i]; i++)
		if (g_str_has_prefix(argv->pdata[i], "-j"))
			lb.jobs = (guint)g_ascii_strtoull(
				(char *)argv->pdata[i] + 2, NULL, 10);
	lb.cluster_jobs = after > before ? after - before : 0;
	lb.nodes = nodes;
	lb.here_seconds = here_s;
	lb.elsewhere_seconds = elsewhere_s;
	if (!icecc_last_build_write(kb->icecc_record, &lb, &error))
		g_message("kbuild: %s", error->message);
}

gboolean kbuild_use_icecc(struct kbuild *kb, const char *socket,
			  const char *scheduler, const char *cache_dir,
			  const char *tree, GError **error)
{
	g_autofree char *env = NULL;
	struct icecc_cluster cl;
	g_autoptr(GError) local = NULL;
	GStatBuf st;

	if (g_stat(socket, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "icecream: no iceccd socket at '%s'", socket);
		return FALSE;
	}
	env = icecc_env_tarball(cache_dir, kbuild_arch_of(kb)->cc, error);
	if (!env)
		return FALSE;
	g_free(kb->icecc_socket);
	g_free(kb->icecc_env);
	g_free(kb->icecc_scheduler);
	g_free(kb->icecc_record);
	kb->icecc_socket = g_strdup(socket);
	kb->icecc_env = g_steal_pointer(&env);
	kb->icecc_scheduler = g_strdup(scheduler);
	kb->icecc_record = icecc_last_build_path(cache_dir, tree);
	kb->icecc_jobs = 0;
	if (icecc_listcs(scheduler, &cl, &local)) {
		kb->icecc_jobs = MIN(icecc_cluster_slots(&cl), ICECC_MAX_JOBS);
		icecc_cluster_clear(&cl);
	} else {
		g_message("kbuild: %s; -j stays local", local->message);
	}
	bind_dirs(kb);
	return TRUE;
}

void kbuild_set_icecc_netns(struct kbuild *kb, int fd)
{
	kb->icecc_netns = fd;
	bind_dirs(kb);
}

char *kbuild_use_icecc_for_check(struct kbuild *kb, const struct icecc_use *use,
				 const char *cache_dir, const char *tree,
				 int *netns, GError **netns_error)
{
	g_autoptr(GError) error = NULL;

	if (!kbuild_use_icecc(kb, use->socket, use->scheduler, cache_dir, tree,
			      &error))
		return g_strdup_printf(
			"built locally (icecream unavailable: %s)",
			error->message);
	if (!use->series_netns)
		return g_strdup("the base on icecream, the series locally");
	if (*netns < 0 && !*netns_error)
		*netns = icecc_netns_fence(use->series_netns, use->scheduler,
					   netns_error);
	if (*netns < 0)
		return g_strdup_printf(
			"the base on icecream, the series locally (its network "
			"namespace cannot be fenced: %s)",
			(*netns_error)->message);
	kbuild_set_icecc_netns(kb, *netns);
	return g_strdup("the base and the series on icecream (the series in a "
			"network namespace fenced to the nodes)");
}

gboolean kbuild_make(struct kbuild *kb, const char *const *targets,
		     const char *const *vars, struct kbuild_result *out,
		     GError **error)
{
	g_autoptr(GPtrArray) argv = make_argv(kb, targets, vars);
	g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = NULL;
	guint64 icecc_before = 0;
	struct icecc_watch *watch = NULL;
	g_autoptr(GPtrArray) nodes = NULL;
	double here_s = 0, elsewhere_s = 0;
	gboolean ran;

	memset(out, 0, sizeof(*out));
	/* the build stamp in the image must not depend on who built it */
	g_ptr_array_add(extra, g_strdup("KBUILD_BUILD_USER=armbot"));
	g_ptr_array_add(extra, g_strdup("KBUILD_BUILD_HOST=armbot"));
	if (kb->ccache_dir && kb->trust == KBUILD_TRUSTED) {
		/* the results in the store only (ccache's "remote" file
		 * storage), the statistics in stats/ */
		g_ptr_array_add(extra,
				g_strconcat("CCACHE_DIR=", kb->ccache_dir,
					    "/stats", NULL));
		g_ptr_array_add(extra,
				g_strconcat("CCACHE_REMOTE_STORAGE=file:",
					    kb->ccache_dir, "/store", NULL));
		g_ptr_array_add(extra, g_strdup("CCACHE_REMOTE_ONLY=true"));
	} else if (kb->ccache_dir) {
		/* the store read, never written; the series' results in a
		 * ccache of its own, emptied for the next */
		g_ptr_array_add(extra,
				g_strconcat("CCACHE_DIR=", kb->series_dir,
					    "/ccache", NULL));
		g_ptr_array_add(extra,
				g_strconcat("CCACHE_REMOTE_STORAGE=file:",
					    kb->ccache_dir, "/store|read-only",
					    NULL));
	}
	if (icecc_on(kb)) {
		/* ccache runs icecc, which hands the compile to iceccd
		 * through the socket; HOME is the sandbox's /tmp */
		g_ptr_array_add(extra, g_strdup("CCACHE_PREFIX=icecc"));
		g_ptr_array_add(extra, g_strconcat("ICECC_VERSION=x86_64:",
						   kb->icecc_env, NULL));
		if (kb->icecc_scheduler) {
			icecc_before = cluster_total(kb);
			/* which node compiles what, for `armbot status` */
			watch = icecc_watch_start(kb->icecc_scheduler);
		}
	}
	g_ptr_array_add(extra, NULL);
	env = runner_env_new((const char *const *)extra->pdata);

	o.cwd = kb->src_dir;
	o.env = (const char *const *)env;
	o.timeout_ms = kb->timeout_s * 1000;
	o.merge_stderr = TRUE;
	o.nice = kb->nice;
	o.output_cap = 8u << 20;
	ran = sandbox_run(kb->sandbox, (const char *const *)argv->pdata, &o, &r,
			  error);
	if (watch)
		nodes = icecc_watch_stop(watch, &here_s, &elsewhere_s);
	if (!ran) {
		g_prefix_error(error, "make in '%s': ", kb->build_dir);
		return FALSE;
	}
	out->ok = runner_result_ok(&r);
	out->how = runner_result_describe(&r);
	out->seconds = r.elapsed_us / 1e6;
	out->log = g_steal_pointer(&r.output);
	runner_result_clear(&r);
	if (kb->ccache_dir && kb->trust == KBUILD_TRUSTED)
		trim_ccache(kb);
	if (icecc_on(kb))
		record_icecc(kb, argv, out->seconds, icecc_before, nodes,
			     here_s, elsewhere_s);
	return TRUE;
}

/* --- what a reader runs ------------------------------------------------ */

/* Where @dir occurs in @s as a whole path (followed by '/', a space or the
 * end), or NULL. */
static const char *find_dir(const char *s, const char *dir)
{
	gsize len = strlen(dir);

	for (const char *p = strstr(s, dir); p; p = strstr(p + 1, dir))
		if (p[len] == '\0' || p[len] == '/' || p[len] == ' ')
			return p;
	return NULL;
}

char *kbuild_printable_word(const struct kbuild *kb, const char *arg,
			    gboolean from_build_dir)
{
	const char *dirs[] = { kb->build_dir, kb->src_dir };
	const char *as[] = {
		from_build_dir ? "$PWD/" KBUILD_PRINTABLE_DIR :
				 KBUILD_PRINTABLE_DIR,
		from_build_dir ? "$PWD" : ".",
	};
	GString *out = g_string_new(NULL);
	const char *p = arg;

	while (*p) {
		const char *hit = NULL;
		guint which = 0;

		for (guint i = 0; i < G_N_ELEMENTS(dirs); i++) {
			const char *h = dirs[i] ? find_dir(p, dirs[i]) : NULL;

			if (h && (!hit || h < hit)) {
				hit = h;
				which = i;
			}
		}
		if (hit != p) {
			g_autofree char *before = hit ? g_strndup(p, hit - p) :
							g_strdup(p);
			g_autofree char *word = runner_shell_word(before);

			g_string_append(out, word);
		}
		if (!hit)
			break;
		/* "$PWD" is left for the shell to expand: kbuild does not
		 * build in a path with spaces anyway */
		g_string_append(out, as[which]);
		p = hit + strlen(dirs[which]);
	}
	if (!out->len)
		g_string_append(out, "''");
	return g_string_free(out, FALSE);
}

/* "-j8": make's job count, which does not change what is built. */
static gboolean is_jobs(const char *arg)
{
	return g_str_has_prefix(arg, "-j") && arg[2] &&
	       arg[2 + strspn(arg + 2, "0123456789")] == '\0';
}

void kbuild_printable_append(GString *line, const char *word,
			     gboolean may_break)
{
	const char *nl = strrchr(line->str, '\n');
	gsize col = nl ? line->len - (nl + 1 - line->str) : line->len;

	/* XCU 2.2.1: backslash-newline continues the command; past the
	 * width, so that a mail never breaks a word (RFC 5322 2.1.1: 998) */
	if (may_break && col && col + 1 + strlen(word) > KBUILD_PRINTABLE_WIDTH)
		g_string_append(line, " \\\n    ");
	else if (line->len)
		g_string_append_c(line, ' ');
	g_string_append(line, word);
}

char *kbuild_make_printable(const struct kbuild *kb, const char *const *targets,
			    const char *const *vars)
{
	g_autoptr(GPtrArray) argv = make_argv(kb, targets, vars);
	g_autofree char *o_var = g_strconcat("O=", kb->build_dir, NULL);
	g_autofree char *cc_var = cc_ccache(kb);
	GString *out = g_string_new(NULL);

	for (guint i = 0; argv->pdata[i]; i++) {
		const char *a = argv->pdata[i];
		g_autofree char *word = NULL;

		/* ccache is armbot's cache, not part of the build: without
		 * the wrapper kbuild runs the same compilers */
		if (kb->ccache_dir &&
		    (!strcmp(a, cc_var) || !strcmp(a, KBUILD_HOSTCC_CCACHE) ||
		     !strcmp(a, KBUILD_HOSTCC_CCACHE_LOCAL)))
			continue;
		if (!strcmp(a, o_var))
			word = g_strdup("O=" KBUILD_PRINTABLE_DIR);
		else if (is_jobs(a))
			word = g_strdup("-j$(nproc)");
		else
			/* make changes into O= before it reads any other
			 * path: those are made absolute */
			word = kbuild_printable_word(kb, a, TRUE);
		kbuild_printable_append(out, word, TRUE);
	}
	return g_string_free(out, FALSE);
}

void kbuild_step_free(struct kbuild_step *step)
{
	if (!step)
		return;
	g_free(step->command);
	g_free(step->file);
	g_free(step->text);
	g_free(step);
}

GPtrArray *kbuild_steps_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)kbuild_step_free);
}

void kbuild_steps_add_command(GPtrArray *steps, char *command)
{
	struct kbuild_step *s = g_new0(struct kbuild_step, 1);

	s->command = command;
	g_ptr_array_add(steps, s);
}

void kbuild_steps_add_file(GPtrArray *steps, char *file, char *text,
			   gboolean append)
{
	struct kbuild_step *s = g_new0(struct kbuild_step, 1);

	s->file = file;
	s->text = text;
	s->append = append;
	g_ptr_array_add(steps, s);
}

/* A here-document delimiter that no line of @text is. */
static char *heredoc_delimiter(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *d = g_string_new("EOF");

	for (guint i = 0; lines[i]; i++)
		if (!strcmp(lines[i], d->str)) {
			g_string_append_c(d, '_');
			i = (guint)-1;
		}
	return g_string_free(d, FALSE);
}

void kbuild_steps_format(GString *out, const GPtrArray *steps,
			 const char *indent)
{
	for (guint i = 0; steps && i < steps->len; i++) {
		const struct kbuild_step *s = steps->pdata[i];
		g_autofree char *delim = NULL;
		g_autofree char *file = NULL;
		gsize len;

		if (s->command) {
			g_auto(GStrv) lines = g_strsplit(s->command, "\n", -1);

			/* a continued command: every line indented */
			for (guint j = 0; lines[j]; j++)
				g_string_append_printf(out, "%s%s\n", indent,
						       lines[j]);
			continue;
		}
		/* XCU 2.7.4: a quoted delimiter keeps the text as it is; the
		 * text and the delimiter are not indented, as the shell
		 * would keep the indentation */
		delim = heredoc_delimiter(s->text);
		file = runner_shell_word(s->file);
		g_string_append_printf(out, "%scat %s %s <<'%s'\n", indent,
				       s->append ? ">>" : ">", file, delim);
		len = strlen(s->text);
		g_string_append(out, s->text);
		if (len && s->text[len - 1] != '\n')
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "%s\n", delim);
	}
}

/* The content of the regular file @path (not a symlink), at most @max
 * bytes: a build may have left anything in a build dir. */
static gboolean read_bounded(const char *path, gsize max, char **data_out,
			     gsize *len_out, GError **error)
{
	GStatBuf st;

	if (g_lstat(path, &st) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot read '%s': %s", path, g_strerror(errno));
		return FALSE;
	}
	if (!S_ISREG(st.st_mode) || (guint64)st.st_size > max) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot read '%s': not a regular file of at most "
			    "%" G_GSIZE_FORMAT " bytes",
			    path, max);
		return FALSE;
	}
	return g_file_get_contents(path, data_out, len_out, error);
}

/* TRUE when @path holds exactly @data. */
static gboolean same_content(const char *path, const char *data, gsize len)
{
	g_autofree char *old = NULL;
	gsize old_len;

	return read_bounded(path, len, &old, &old_len, NULL) &&
	       old_len == len && !memcmp(old, data, len);
}

/* Write @data to @path unless it already holds it: kbuild decides what to
 * rebuild from timestamps. */
static gboolean sync_file(const char *path, const char *data, gsize len,
			  gboolean *changed, GError **error)
{
	if (same_content(path, data, len))
		return TRUE;
	if (changed)
		*changed = TRUE;
	return g_file_set_contents(path, data, len, error);
}

/* kbuild_kernel()'s configuration: allnoconfig with KCONFIG_ALLCONFIG
 * naming BUILD/armbot.config, the fragment's copy (Documentation/kbuild/
 * kconfig.rst).  *@copy_out is the copy's path; the vars hold it. */
static const char *const allno_targets[] = { "allnoconfig", NULL };

static char *allconfig_var(const struct kbuild *kb, char **copy_out)
{
	*copy_out = g_build_filename(kb->build_dir, "armbot.config", NULL);
	return g_strconcat("KCONFIG_ALLCONFIG=", *copy_out, NULL);
}

gboolean kbuild_kernel(struct kbuild *kb, struct kbuild_result *out,
		       GError **error)
{
	g_autofree char *frag = NULL;
	g_autofree char *copy = NULL;
	g_autofree char *allconfig = allconfig_var(kb, &copy);
	g_autofree char *host_copy = NULL;
	g_autofree char *dotconfig = NULL;
	const char *vars[] = { allconfig, NULL };
	gboolean changed = FALSE;
	gsize len;
	double configure = 0;

	if (!g_file_get_contents(kb->fragment, &frag, &len, error))
		return FALSE;
	host_copy = kbuild_output_path(kb, "armbot.config", error);
	dotconfig = host_copy ? kbuild_output_path(kb, ".config", error) : NULL;
	if (!dotconfig || !sync_file(host_copy, frag, len, &changed, error))
		return FALSE;
	if (changed || !g_file_test(dotconfig, G_FILE_TEST_EXISTS)) {
		if (!kbuild_make(kb, allno_targets, vars, out, error))
			return FALSE;
		if (!out->ok) {
			/* a fragment applied again next time */
			g_unlink(host_copy);
			return TRUE;
		}
		configure = out->seconds;
		kbuild_result_clear(out);
	}
	if (!kbuild_make(kb, NULL, NULL, out, error))
		return FALSE;
	out->seconds += configure;
	return TRUE;
}

GPtrArray *kbuild_kernel_steps(const struct kbuild *kb, GError **error)
{
	g_autoptr(GPtrArray) steps = kbuild_steps_new();
	g_autofree char *frag = NULL;
	g_autofree char *copy = NULL;
	g_autofree char *allconfig = allconfig_var(kb, &copy);
	const char *vars[] = { allconfig, NULL };

	if (!g_file_get_contents(kb->fragment, &frag, NULL, error))
		return NULL;
	/* from a clean build dir: both makes, as a first run does them */
	kbuild_steps_add_command(steps,
				 g_strdup("mkdir -p " KBUILD_PRINTABLE_DIR));
	kbuild_steps_add_file(steps, kbuild_printable_word(kb, copy, FALSE),
			      g_steal_pointer(&frag), FALSE);
	kbuild_steps_add_command(steps, kbuild_make_printable(kb, allno_targets,
							      vars));
	kbuild_steps_add_command(steps, kbuild_make_printable(kb, NULL, NULL));
	return g_steal_pointer(&steps);
}

/* The stamp's content for @target and @fragment. */
static char *configured_stamp(const char *target, const char *fragment)
{
	return g_strdup_printf("%s\n%s", target, fragment ? fragment : "");
}

gboolean kbuild_is_configured(struct kbuild *kb, const char *target,
			      const char *fragment)
{
	g_autofree char *stamp =
		kbuild_output_path(kb, "armbot-configured", NULL);
	g_autofree char *dotconfig = kbuild_output_path(kb, ".config", NULL);
	g_autofree char *want = configured_stamp(target, fragment);

	return stamp && dotconfig && same_content(stamp, want, strlen(want)) &&
	       g_file_test(dotconfig, G_FILE_TEST_EXISTS);
}

/* The makes of kbuild_configure_target() after the first (the target
 * itself); the fragment is appended to .config before them. */
static const char *const configure_olddef[] = { "olddefconfig", NULL };
static const char *const configure_prepare[] = { "prepare", NULL };

gboolean kbuild_configure_target(struct kbuild *kb, const char *target,
				 const char *fragment, gboolean *configured,
				 struct kbuild_result *out, GError **error)
{
	const char *const first[] = { target, NULL };
	const char *const *steps[] = { first, configure_olddef,
				       configure_prepare };
	g_autofree char *stamp = NULL;
	g_autofree char *dotconfig = NULL;
	g_autofree char *want = configured_stamp(target, fragment);
	double seconds = 0;

	*configured = FALSE;
	memset(out, 0, sizeof(*out));
	stamp = kbuild_output_path(kb, "armbot-configured", error);
	dotconfig = stamp ? kbuild_output_path(kb, ".config", error) : NULL;
	if (!dotconfig)
		return FALSE;
	if (same_content(stamp, want, strlen(want)) &&
	    g_file_test(dotconfig, G_FILE_TEST_EXISTS)) {
		out->ok = TRUE;
		return TRUE;
	}
	*configured = TRUE;
	g_unlink(stamp);
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		if (i == 1 && fragment) {
			g_autofree char *config = NULL;
			g_autofree char *merged = NULL;
			gsize len;

			if (!read_bounded(dotconfig, KBUILD_MAX_READ, &config,
					  &len, error))
				return FALSE;
			merged = g_strconcat(config, fragment, NULL);
			if (!g_file_set_contents(dotconfig, merged, -1, error))
				return FALSE;
		}
		if (i > 0)
			kbuild_result_clear(out);
		if (!kbuild_make(kb, steps[i], NULL, out, error))
			return FALSE;
		seconds += out->seconds;
		out->seconds = seconds;
		if (!out->ok)
			return TRUE;
	}
	return g_file_set_contents(stamp, want, -1, error);
}

GPtrArray *kbuild_configure_target_steps(const struct kbuild *kb,
					 const char *target,
					 const char *fragment)
{
	GPtrArray *steps = kbuild_steps_new();
	const char *const first[] = { target, NULL };
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);

	kbuild_steps_add_command(steps, kbuild_make_printable(kb, first, NULL));
	if (fragment)
		kbuild_steps_add_file(
			steps, kbuild_printable_word(kb, dotconfig, FALSE),
			g_strdup(fragment), TRUE);
	kbuild_steps_add_command(
		steps, kbuild_make_printable(kb, configure_olddef, NULL));
	kbuild_steps_add_command(
		steps, kbuild_make_printable(kb, configure_prepare, NULL));
	return steps;
}

/* The make of kbuild_external_module() (Documentation/kbuild/modules.rst):
 * M= the module's copy in BUILD/armbot-ext/@name (*@dir_out), the module's
 * config symbol set to m on the command line. */
static const char *const module_targets[] = { "modules", NULL };

static void module_vars(const struct kbuild *kb, const char *name,
			const char *config_symbol, char **dir_out,
			char **mvar_out, char **cvar_out)
{
	*dir_out = g_build_filename(kb->build_dir, "armbot-ext", name, NULL);
	*mvar_out = g_strconcat("M=", *dir_out, NULL);
	*cvar_out = g_strconcat(config_symbol, "=m", NULL);
}

gboolean kbuild_external_module(struct kbuild *kb, const char *module_src,
				const char *name, const char *config_symbol,
				char **ko_out, struct kbuild_result *out,
				GError **error)
{
	g_autofree char *dir = NULL;
	g_autofree char *mvar = NULL;
	g_autofree char *cvar = NULL;
	g_autofree char *rel = g_build_filename("armbot-ext", name, NULL);
	g_autofree char *ko_rel = g_strdup_printf("%s/%s.ko", rel, name);
	g_autofree char *sandbox_dir = NULL;
	const char *vars[3];
	g_autoptr(GDir) d = NULL;
	const char *entry;

	*ko_out = NULL;
	module_vars(kb, name, config_symbol, &sandbox_dir, &mvar, &cvar);
	vars[0] = mvar;
	vars[1] = cvar;
	vars[2] = NULL;
	/* the module's copy, on the host: where the build left files */
	dir = kbuild_output_path(kb, rel, error);
	if (!dir)
		return FALSE;
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return FALSE;
	}
	d = g_dir_open(module_src, 0, error);
	if (!d)
		return FALSE;
	while ((entry = g_dir_read_name(d))) {
		g_autofree char *src =
			g_build_filename(module_src, entry, NULL);
		g_autofree char *dst_rel = g_build_filename(rel, entry, NULL);
		g_autofree char *dst = NULL;
		g_autofree char *data = NULL;
		gsize len;

		if (!g_file_test(src, G_FILE_TEST_IS_REGULAR))
			continue;
		dst = kbuild_output_path(kb, dst_rel, error);
		if (!dst || !g_file_get_contents(src, &data, &len, error) ||
		    !sync_file(dst, data, len, NULL, error))
			return FALSE;
	}
	if (!kbuild_make(kb, module_targets, vars, out, error))
		return FALSE;
	if (out->ok) {
		g_autoptr(GError) bad = NULL;
		g_autofree char *ko = kbuild_output_path(kb, ko_rel, &bad);
		GStatBuf st;

		/* what armbot reads next, from where the build wrote */
		if (ko && (g_lstat(ko, &st) != 0 || !S_ISREG(st.st_mode) ||
			   st.st_size > KBUILD_MAX_MODULE))
			g_set_error(&bad, G_IO_ERROR, G_IO_ERROR_FAILED,
				    "'%s' is not a regular file of at most %u "
				    "MiB",
				    ko, KBUILD_MAX_MODULE >> 20);
		if (bad) {
			/* the series' doing: a failed build, not an error */
			out->ok = FALSE;
			g_free(out->how);
			out->how = g_strdup("no module");
			g_string_append_printf(out->log, "armbot: %s\n",
					       bad->message);
			return TRUE;
		}
		*ko_out = g_steal_pointer(&ko);
	}
	return TRUE;
}

char *kbuild_external_module_printable(const struct kbuild *kb,
				       const char *name,
				       const char *config_symbol)
{
	g_autofree char *dir = NULL;
	g_autofree char *mvar = NULL;
	g_autofree char *cvar = NULL;

	module_vars(kb, name, config_symbol, &dir, &mvar, &cvar);
	{
		const char *vars[] = { mvar, cvar, NULL };

		return kbuild_make_printable(kb, module_targets, vars);
	}
}

char *kbuild_image_rel(const struct kbuild *kb)
{
	const struct kbuild_arch *arch = kbuild_arch_of(kb);

	return g_build_filename("arch", arch->name, "boot", arch->image, NULL);
}

char *kbuild_image(const struct kbuild *kb)
{
	g_autofree char *rel = kbuild_image_rel(kb);

	return g_build_filename(kb->build_dir, rel, NULL);
}

void kbuild_result_clear(struct kbuild_result *result)
{
	g_free(result->how);
	if (result->log)
		g_string_free(result->log, TRUE);
	memset(result, 0, sizeof(*result));
}

void kbuild_free(struct kbuild *kb)
{
	if (!kb)
		return;
	g_free(kb->src_dir);
	g_free(kb->build_dir);
	g_free(kb->fragment);
	g_free(kb->ccache_dir);
	g_free(kb->series_dir);
	g_free(kb->series_build);
	sandbox_free(kb->sandbox);
	icecc_proxy_free(kb->icecc_proxy);
	g_free(kb->icecc_socket);
	g_free(kb->icecc_env);
	g_free(kb->icecc_scheduler);
	g_free(kb->icecc_record);
	g_free(kb);
}
