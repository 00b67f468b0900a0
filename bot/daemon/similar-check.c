/* The pipeline's similarity step (see similar-check.h). */
#include "bot/daemon/similar-check.h"

#include <string.h>

#include "config/datadir.h"
#include "kernel/git/repo.h"
#include "kernel/similar/simindex.h"
#include "kernel/similar/similar.h"

char *similar_check(const char *git_dir, const char *base_hex,
		    const char *mbox_path, GError **error)
{
	struct similar_options opts = { SIMILAR_DEFAULT_MIN_LINES,
					SIMILAR_DEFAULT_THRESHOLD };
	g_autoptr(gitrepo) repo = gitrepo_open(git_dir, error);
	g_autoptr(simindex) index = NULL;
	g_autoptr(similar_findings) f = NULL;
	g_autofree char *cache = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *mbox = NULL;
	struct gitoid commit;
	gsize len;

	if (!repo ||
	    !gitrepo_revparse(repo, base_hex ? base_hex : "HEAD", &commit,
			      error) ||
	    !g_file_get_contents(mbox_path, &mbox, &len, error))
		return NULL;
	cache = datadir_cache_dir();
	dir = g_build_filename(cache, "similar", NULL);
	index = simindex_open(repo, &commit, NULL, dir, NULL, error);
	if (!index)
		return NULL;
	f = similar_find(index, mbox, len, &opts);
	return similar_format(f);
}
