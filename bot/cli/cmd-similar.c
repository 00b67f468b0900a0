/* armbot similar: why a series grows arch/arm (kernel/similar/).
 *
 *   armbot -C REPO similar [--rev REV] [--min-lines N] [--threshold P]
 *          [--no-cache] [--stats] [PATCH...]
 *
 * Indexes the C files of REV's tree (default HEAD; cached under
 * $ARMBOT_CACHE_DIR/similar, rebuilt incrementally), then prints, for the
 * patches in the files (or standard input), each near-copy of existing code
 * and each driver added in the wrong place, one line each.  Without -C only
 * the drivers in the wrong place. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "kernel/git/repo.h"
#include "kernel/similar/simindex.h"
#include "kernel/similar/similar.h"

static char *read_input(int argc, char **argv, GError **error)
{
	GString *all = g_string_new(NULL);

	if (argc < 2) {
		char buf[65536];
		size_t n;

		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			g_string_append_len(all, buf, n);
		return g_string_free(all, FALSE);
	}
	for (int i = 1; i < argc; i++) {
		g_autofree char *text = NULL;
		gsize len;

		if (!g_file_get_contents(argv[i], &text, &len, error)) {
			g_string_free(all, TRUE);
			return NULL;
		}
		g_string_append_len(all, text, len);
		g_string_append_c(all, '\n');
	}
	return g_string_free(all, FALSE);
}

int cmd_similar(struct armbot_context *ctx, int argc, char **argv)
{
	const char *repo_path;
	g_autofree char *rev = NULL;
	gint min_lines = SIMILAR_DEFAULT_MIN_LINES;
	gint threshold = SIMILAR_DEFAULT_THRESHOLD;
	gboolean no_cache = FALSE, stats_wanted = FALSE;
	GOptionEntry options[] = {
		{ "rev", 0, 0, G_OPTION_ARG_STRING, &rev,
		  "the tree to compare with (default HEAD)", "REV" },
		{ "min-lines", 0, 0, G_OPTION_ARG_INT, &min_lines,
		  "compare hunks of existing files that add at least N lines "
		  "(default 30)",
		  "N" },
		{ "threshold", 0, 0, G_OPTION_ARG_INT, &threshold,
		  "report a near-copy from P percent similar (default 60)",
		  "P" },
		COMMAND_OPTION_NO_CACHE(no_cache, "build the index"),
		COMMAND_OPTION_STATS(stats_wanted,
				     "the index's size and times"),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(simindex) index = NULL;
	g_autoptr(similar_findings) f = NULL;
	g_autofree char *patch = NULL;
	g_autofree char *text = NULL;
	struct similar_options opts;
	gint64 t0, t1, t2;

	if (!command_parse_options(
		    "similar", "[PATCH...]",
		    "Print the near-copies of existing code (winnowed "
		    "fingerprints of normalised C tokens) and the drivers added "
		    "under arch/arm/mach-* or plat-* that the patches hold.  "
		    "With -C REPO the tree of --rev is indexed (cached under "
		    "$ARMBOT_CACHE_DIR/similar).",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (min_lines < 1 || threshold < 1 || threshold > 100) {
		fprintf(stderr, "error: --min-lines must be at least 1 and "
				"--threshold from 1 to 100\n");
		return COMMAND_USAGE_ERROR;
	}
	opts = (struct similar_options){ min_lines, threshold };
	repo_path = cmdline_repo();
	t0 = g_get_monotonic_time();
	if (repo_path) {
		struct gitoid commit;
		g_autoptr(gitrepo) repo =
			command_repo_rev(repo_path, rev, &commit, &error);
		g_autofree char *dir = no_cache ? NULL :
						  command_cache_dir("similar");
		struct simindex_stats st;

		if (!repo)
			return command_fail(error);
		index = simindex_open(repo, &commit, NULL, dir, &st, &error);
		if (!index)
			return command_fail(error);
		if (stats_wanted)
			fprintf(stderr,
				"index: %u files (%u reused), %u fingerprints, "
				"%s, %.3f s\n",
				simindex_files(index), st.reused,
				simindex_prints(index),
				st.from_cache ? "read from the cache" : "built",
				(g_get_monotonic_time() - t0) / 1e6);
	}
	patch = read_input(argc, argv, &error);
	if (!patch)
		return command_fail(error);
	t1 = g_get_monotonic_time();
	f = similar_find(index, patch, strlen(patch), &opts);
	t2 = g_get_monotonic_time();
	if (stats_wanted)
		fprintf(stderr, "query: %.3f ms\n", (t2 - t1) / 1e3);
	text = similar_format(f);
	if (text)
		fputs(text, stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
