/* command_repo_rev() and command_cache_dir(), see bot/cli/command.h:
 * what the commands that derive something from a tree (boards, similar)
 * share. */
#include "bot/cli/command.h"

#include "config/datadir.h"
#include "kernel/git/repo.h"

struct gitrepo *command_repo_rev(const char *path, const char *rev,
				 struct gitoid *out, GError **error)
{
	g_autoptr(gitrepo) repo = gitrepo_open(path, error);

	if (!repo || !gitrepo_revparse(repo, rev ? rev : "HEAD", out, error))
		return NULL;
	return g_steal_pointer(&repo);
}

char *command_cache_dir(const char *name)
{
	g_autofree char *cache = datadir_cache_dir();

	return g_build_filename(cache, name, NULL);
}
