/* Kernel builds: one out-of-tree build directory (make O=) per (tree,
 * config) under the data dir, so that a series on top of a tree rebuilds
 * only what it touched.  ARCH= and CROSS_COMPILE= of the build's arch
 * (kernel/build/arch.h: arm, arm-linux-gnueabihf-, unless set), ccache,
 * -j<cores>, and every make runs in the sandbox (kernel/build/sandbox.h)
 * with the kernel tree read-only and only its build dir and ccache
 * writable.
 *
 * Whose code a make builds decides where (enum kbuild_trust): a commit of
 * the tree itself builds in the build dir and fills the tree's ccache; a
 * series builds in a copy of the build dir made for it (kernel/
 * buildcopy.h), shown to make at the build dir's path, and reads the
 * tree's ccache without writing it (a ccache of its own takes its
 * results).  Nothing a series' build writes is seen by the next series:
 * ccache keys a result by the hash of its inputs, so a compile cannot
 * poison another's entry, but a process that may write the cache
 * directory could write any entry, and a build dir holds host programs
 * (scripts/basic/fixdep, ...) that every later build runs. */
#pragma once

#include <glib.h>

#include "kernel/build/icecc-proxy.h"
#include "kernel/build/icecc.h"

#include "kernel/build/arch.h"
#include "kernel/build/buildcopy.h"
#include "kernel/build/runner.h"
#include "kernel/build/sandbox.h"

/* Whose code the next make builds. */
enum kbuild_trust {
	/* a commit of the tree (a series' base): in the build dir itself,
	 * writing the tree's ccache */
	KBUILD_TRUSTED,
	/* what a series changed: in the series' copy of the build dir, the
	 * tree's ccache read-only */
	KBUILD_SERIES,
};

struct kbuild {
	char *src_dir; /* the kernel tree (read-only to the build) */
	/* ARCH=, the cross compiler, the image (kernel/build/arch.h); NULL:
	 * arm.  Set after kbuild_new(), before the first make and
	 * kbuild_use_icecc(); read through kbuild_arch_of() */
	const struct kbuild_arch *arch;
	char *build_dir; /* O=: <data>/kbuild/<tree>/<config> */
	char *fragment; /* config fragment on top of allnoconfig; NULL for a
			 * build configured by kbuild_configure_target() */
	/* the tree's ccache, <cache>/ccache/<tree>: store/ (ccache's file
	 * storage, written by trusted builds only) and stats/ (their
	 * CCACHE_DIR); NULL: no ccache */
	char *ccache_dir;
	/* <data>/kbuild/<tree>/.series/<config>: build/ (the copy),
	 * ccache/ (the series' own CCACHE_DIR), manifest */
	char *series_dir;
	char *series_build; /* <series_dir>/build */
	enum kbuild_trust trust; /* KBUILD_TRUSTED at first */
	gboolean series_synced; /* the copy was brought back in this life */
	struct buildcopy_stats series_copy; /* what that took */
	guint jobs; /* 0: the number of cores */
	int nice; /* niceness of the build (10: a shared machine) */
	guint timeout_s; /* per make run; 0: none */
	struct sandbox *sandbox; /* owned */
	/* compiles through icecream (kbuild_use_icecc()); NULL: local */
	char *icecc_socket; /* the host's iceccd socket */
	char *icecc_env; /* the compiler tarball */
	char *icecc_scheduler; /* for listcs; may be NULL */
	char *icecc_record; /* where each make records what it took */
	guint icecc_jobs; /* make's -j: what the cluster offers */
	/* a series' make through icecream: the fenced network namespace
	 * (kbuild_set_icecc_netns(), borrowed); -1: a series builds
	 * locally */
	int icecc_netns;
	/* the series' iceccd socket, filtered (kernel/build/icecc-proxy.h);
	 * NULL until a series' sandbox needs it; owned */
	struct icecc_proxy *icecc_proxy;
};

/* How one make run ended: an outcome.  @ok is FALSE for a failed build,
 * whose output (head and tail, see runner.h) says why. */
struct kbuild_result {
	gboolean ok;
	char *how; /* "exit status 2", "timed out after ..." */
	GString *log;
	double seconds;
};

/* The arch @kb builds for: kb->arch, or arm.  Static. */
const struct kbuild_arch *kbuild_arch_of(const struct kbuild *kb);

/* The build directory for @tree_key and @config_name under @data_dir. */
char *kbuild_dir(const char *data_dir, const char *tree_key,
		 const char *config_name);

/* The tree's ccache directory for @tree_key under @cache_dir. */
char *kbuild_ccache_dir(const char *cache_dir, const char *tree_key);

/* A build of @src_dir in @build_dir (created) with @fragment (NULL: the
 * build is configured with kbuild_configure_target()); ccache in
 * @ccache_dir (kbuild_ccache_dir()) when not NULL.  A kbuild serves one
 * series (see kbuild_set_trust()).  NULL with @error when the sandbox
 * cannot be set up or a directory cannot be created. */
struct kbuild *kbuild_new(const char *src_dir, const char *build_dir,
			  const char *fragment, const char *ccache_dir,
			  GError **error);

/* Compile through icecream from now on (trusted builds; a series' too
 * after kbuild_set_icecc_netns()): the sandbox shows the host's iceccd
 * socket @socket read-only at ICECC_SANDBOX_SOCKET and the compiler
 * tarball (icecc_env_tarball() under @cache_dir), and keeps the host's
 * network namespace (a series': the fenced one), through which the icecc
 * client sends each job to its node; ccache stays in front
 * with icecc as its prefix; -j becomes the job slots the scheduler
 * @scheduler (NULL: 127.0.0.1) lists, bounded by ICECC_MAX_JOBS, or the
 * cores when it cannot be asked.  Each make records its wall time and -j
 * in icecc_last_build_path(@cache_dir, @tree).  FALSE with @error when
 * the socket is not there or the tarball cannot be made. */
gboolean kbuild_use_icecc(struct kbuild *kb, const char *socket,
			  const char *scheduler, const char *cache_dir,
			  const char *tree, GError **error);

/* Let a series' make compile through icecream too, after
 * kbuild_use_icecc(): inside the network namespace open at @fd, fenced to
 * the scheduler's nodes (icecc_netns_fence(), kernel/build/icecc-netns.h),
 * entered before bwrap; -1: a series builds locally.  @fd is borrowed:
 * it stays open while @kb builds. */
void kbuild_set_icecc_netns(struct kbuild *kb, int fd);

/* A check's builds on icecream (the sparse check's and the boot's) as
 * @use says: kbuild_use_icecc(), and with its series_netns a series' make
 * too, in that
 * namespace fenced once per check: *@netns (-1 the first time) and
 * *@netns_error (NULL the first time) keep the fence or why it failed
 * for the check's next kbuild.  An unreachable cluster is the
 * infrastructure's failure, never the series': the build is then local.
 * Returns where the makes compile ("the base on icecream, the series
 * locally", "built locally (icecream unavailable: WHY)", ...), newly
 * allocated. */
char *kbuild_use_icecc_for_check(struct kbuild *kb, const struct icecc_use *use,
				 const char *cache_dir, const char *tree,
				 int *netns, GError **netns_error);

/* Build what follows as @trust.  The first switch to KBUILD_SERIES in a
 * kbuild's life brings the series' copy back to what the build dir holds
 * (buildcopy_sync()) and empties the series' ccache; later ones in the
 * same life keep them (a series' later patches build on its earlier
 * ones).  FALSE with @error when the copy cannot be made. */
gboolean kbuild_set_trust(struct kbuild *kb, enum kbuild_trust trust,
			  GError **error);

/* Where the build dir's files are on the host now: the build dir, or the
 * series' copy.  The sandbox shows it at kb->build_dir, the path every
 * make argument names. */
const char *kbuild_output_dir(const struct kbuild *kb);

/* The host path of @rel in kbuild_output_dir(), for armbot's own reads
 * and writes between makes.  NULL with @error when a directory on the way
 * is a symlink or not a directory, or @rel itself is a symlink: a
 * series' make may plant one to have armbot read or write outside (no
 * make runs while armbot uses the path, so it cannot change after the
 * check).  Newly allocated. */
char *kbuild_output_path(const struct kbuild *kb, const char *rel,
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
 * host path of <name>.ko (kbuild_output_path()), newly allocated. */
gboolean kbuild_external_module(struct kbuild *kb, const char *module_src,
				const char *name, const char *config_symbol,
				char **ko_out, struct kbuild_result *out,
				GError **error);

/* The kernel image to boot (arch/ARCH/boot/IMAGE in the build dir), newly
 * allocated. */
char *kbuild_image(const struct kbuild *kb);

/* The same relative to the build dir, for kbuild_output_path().  Newly
 * allocated. */
char *kbuild_image_rel(const struct kbuild *kb);

/* ---- what a reader runs ----
 *
 * A reply says how to reproduce a build without armbot: the same make
 * command lines in the reader's kernel tree, with the build dir named
 * "build" (O=build), without armbot's sandbox, ccache or environment, and
 * with no path of armbot's data or cache dir.  They are derived from the
 * argv that kbuild_make() runs, never written a second time. */

/* One step of it: a shell command line, or a file to write first. */
struct kbuild_step {
	char *command; /* or NULL, and: */
	char *file; /* the file, relative to the kernel tree */
	char *text; /* its content */
	gboolean append; /* added to the end of @file (>>) */
};

void kbuild_step_free(struct kbuild_step *step);

/* A new array of struct kbuild_step; the add functions take ownership of
 * their strings. */
GPtrArray *kbuild_steps_new(void);
void kbuild_steps_add_command(GPtrArray *steps, char *command);
void kbuild_steps_add_file(GPtrArray *steps, char *file, char *text,
			   gboolean append);

/* Append @steps to @out as shell text: each command on a line after
 * @indent, a file as `cat > FILE <<'EOF'`, its text and the delimiter (a
 * here-document: neither is indented, the shell would keep it). */
void kbuild_steps_format(GString *out, const GPtrArray *steps,
			 const char *indent);

/* @arg as a reader's shell word: the build dir written "build" and the
 * kernel tree "." (relative to the kernel tree), or, with
 * @from_build_dir (what make reads after it changed into O=),
 * "$PWD/build" and "$PWD"; the rest quoted (runner_shell_word()).  Newly
 * allocated. */
char *kbuild_printable_word(const struct kbuild *kb, const char *arg,
			    gboolean from_build_dir);

/* Append shell word @word to the command @line after a space; with
 * @may_break, a line that would pass 160 columns is continued first (a
 * backslash, a newline, 4 spaces). */
void kbuild_printable_append(GString *line, const char *word,
			     gboolean may_break);

/* The command line of kbuild_make(@kb, @targets, @vars) as a reader runs
 * it in the kernel tree: O=build, -j$(nproc), no ccache wrapper, the
 * other paths as kbuild_printable_word() writes them.  Newly allocated. */
char *kbuild_make_printable(const struct kbuild *kb, const char *const *targets,
			    const char *const *vars);

/* The steps of kbuild_kernel() from a clean build dir: the fragment
 * written to build/armbot.config, allnoconfig with it, the build.  NULL
 * with @error when the fragment cannot be read. */
GPtrArray *kbuild_kernel_steps(const struct kbuild *kb, GError **error);

/* The steps of kbuild_configure_target(@target, @fragment): the make of
 * @target, @fragment appended to build/.config, olddefconfig, prepare. */
GPtrArray *kbuild_configure_target_steps(const struct kbuild *kb,
					 const char *target,
					 const char *fragment);

/* The make of kbuild_external_module(@name, @config_symbol), printable
 * (its sources are expected in build/armbot-ext/@name).  Newly
 * allocated. */
char *kbuild_external_module_printable(const struct kbuild *kb,
				       const char *name,
				       const char *config_symbol);

void kbuild_result_clear(struct kbuild_result *result);
void kbuild_free(struct kbuild *kb);
typedef struct kbuild kbuild;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(kbuild, kbuild_free)
