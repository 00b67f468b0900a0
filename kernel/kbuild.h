/* Kernel builds: one out-of-tree build directory (make O=) per (tree,
 * config) under the data dir, so that a series on top of a tree rebuilds
 * only what it touched.  ARCH=arm, CROSS_COMPILE=arm-linux-gnueabihf-,
 * ccache (its directory under $ARMBOT_CACHE_DIR), -j<cores>, and every
 * make runs in the sandbox with only the build dir and ccache writable. */
#pragma once

#include <glib.h>

#include "bot/runner.h"
#include "kernel/sandbox.h"

struct kbuild {
	char *src_dir; /* the kernel tree (read-only to the build) */
	char *build_dir; /* O=: <data>/kbuild/<tree>/<config> */
	char *fragment; /* config fragment on top of allnoconfig; NULL for a
			 * build configured by kbuild_configure_target() */
	char *ccache_dir; /* NULL: no ccache */
	guint jobs; /* 0: the number of cores */
	int nice; /* niceness of the build (10: a shared machine) */
	guint timeout_s; /* per make run; 0: none */
	struct sandbox *sandbox; /* owned */
};

/* How one make run ended: an outcome.  @ok is FALSE for a failed build,
 * whose output (head and tail, see runner.h) says why. */
struct kbuild_result {
	gboolean ok;
	char *how; /* "exit status 2", "timed out after ..." */
	GString *log;
	double seconds;
};

/* The build directory for @tree_key and @config_name under @data_dir. */
char *kbuild_dir(const char *data_dir, const char *tree_key,
		 const char *config_name);

/* A build of @src_dir in @build_dir (created) with @fragment (NULL: the
 * build is configured with kbuild_configure_target()); ccache in
 * @ccache_dir when not NULL.  NULL with @error when the sandbox cannot be
 * set up or a directory cannot be created. */
struct kbuild *kbuild_new(const char *src_dir, const char *build_dir,
			  const char *fragment, const char *ccache_dir,
			  GError **error);

/* make in the build dir with @targets (NULL: the default) and extra
 * NAME=VALUE @vars (may be NULL), e.g. C=1 for sparse, M=dir for an
 * external module.  FALSE only when make cannot run. */
gboolean kbuild_make(struct kbuild *kb, const char *const *targets,
		     const char *const *vars, struct kbuild_result *out,
		     GError **error);

/* Configure (allnoconfig + the fragment, when the fragment changed or
 * there is no .config) and build the kernel image and modules. */
gboolean kbuild_kernel(struct kbuild *kb, struct kbuild_result *out,
		       GError **error);

/* Configure the build dir from the tree's make target @target
 * (allmodconfig, multi_v5_defconfig), then append @fragment (config lines,
 * may be NULL) to the .config (Kconfig takes the last assignment of a
 * symbol), `make olddefconfig` and `make prepare`: what single objects
 * (make DIR/FILE.o) need.  Done once per build dir: the stamp
 * BUILD/armbot-configured records @target and @fragment, and later runs
 * rely on kbuild's own syncconfig and prepare.  *@configured is TRUE when
 * it ran now; @out->ok FALSE when one of the makes failed (its log in
 * @out; the stamp is not written). */
gboolean kbuild_configure_target(struct kbuild *kb, const char *target,
				 const char *fragment, gboolean *configured,
				 struct kbuild_result *out, GError **error);

/* Whether kbuild_configure_target() with these arguments has nothing to do
 * (the build dir is warm). */
gboolean kbuild_is_configured(struct kbuild *kb, const char *target,
			      const char *fragment);

/* Build the external module in @module_src against the build: its files
 * are copied to <build>/armbot-ext/<name> (only the ones that changed, so
 * that kbuild's timestamps stay meaningful).  On success @ko_out is the
 * path of <name>.ko, newly allocated. */
gboolean kbuild_external_module(struct kbuild *kb, const char *module_src,
				const char *name, const char *config_symbol,
				char **ko_out, struct kbuild_result *out,
				GError **error);

/* The kernel image to boot, newly allocated. */
char *kbuild_image(struct kbuild *kb);

void kbuild_result_clear(struct kbuild_result *result);
void kbuild_free(struct kbuild *kb);
typedef struct kbuild kbuild;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(kbuild, kbuild_free)
