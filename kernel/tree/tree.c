/* The tree model: named bare repositories in DATA/trees/ with a key file
 * each.  See kernel/tree/tree.h. */
#include "kernel/tree/tree.h"

#include "kernel/git/lg2repo.h"
#include "kernel/tree/rmtree.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define TREE_GROUP "tree"

G_DEFINE_QUARK(armbot - tree - error - quark, tree_error)

void tree_set_git_error(GError **error, const char *what)
{
	g_set_error(error, TREE_ERROR, TREE_ERROR_GIT, "%s: %s", what,
		    lg2repo_last_error());
}

/* lg2repo's error as TREE_ERROR_GIT, the code tree.h promises */
static void tree_git_error(GError **error, GError *local)
{
	g_set_error_literal(error, TREE_ERROR, TREE_ERROR_GIT, local->message);
}

gboolean tree_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

gint64 tree_progress_log_interval(void)
{
	const char *env = g_getenv("ARMBOT_PROGRESS_INTERVAL");
	guint64 secs = 30;

	if (env && *env) {
		char *end;
		guint64 v = g_ascii_strtoull(env, &end, 10);

		if (!*end && v >= 1 && v <= 3600)
			secs = v;
	}
	return (gint64)secs * G_USEC_PER_SEC;
}

void tree_discard(struct tree *tree)
{
	if (!tree)
		return;
	/* only a tree that was never saved: never a configured one */
	if (!g_file_test(tree->conf_path, G_FILE_TEST_EXISTS)) {
		g_autoptr(GError) error = NULL;

		if (!rmtree(tree->dir, &error))
			g_warning("%s", error->message);
	}
	tree_free(tree);
}

void tree_free(struct tree *tree)
{
	if (!tree)
		return;
	g_free(tree->name);
	g_free(tree->dir);
	g_free(tree->git_dir);
	g_free(tree->conf_path);
	g_free(tree->url);
	g_strfreev(tree->branches);
	g_free(tree->head_branch);
	g_free(tree->version);
	lg2repo_free(tree->repo);
	g_free(tree);
}

gboolean tree_name_valid(const char *name)
{
	if (!name || !*name || name[0] == '.' || strlen(name) > 100)
		return FALSE;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("._-", *p))
			return FALSE;
	return TRUE;
}

static struct tree *tree_new(const char *data_dir, const char *name)
{
	struct tree *tree = g_new0(struct tree, 1);

	tree->name = g_strdup(name);
	tree->dir = g_build_filename(data_dir, "trees", name, NULL);
	tree->git_dir = g_build_filename(tree->dir, "repo.git", NULL);
	tree->conf_path = g_build_filename(tree->dir, "tree.conf", NULL);
	return tree;
}

static const char *tree_kind_name(enum tree_kind kind)
{
	return kind == TREE_KIND_DISTRO ? "distro" : "git";
}

/* tree_new() for a name that is valid; NULL with @error set for an invalid
 * name. */
static struct tree *tree_new_named(const char *data_dir, const char *name,
				   GError **error)
{
	if (!tree_name_valid(name)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
			    "invalid tree name '%s'", name ? name : "");
		return NULL;
	}
	return tree_new(data_dir, name);
}

struct tree *tree_open(const char *data_dir, const char *name, GError **error)
{
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	g_autofree char *kind = NULL;

	tree = tree_new_named(data_dir, name, error);
	if (!tree)
		return NULL;
	if (!g_key_file_load_from_file(kf, tree->conf_path, G_KEY_FILE_NONE,
				       &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
				    "no such tree '%s'", name);
		else
			g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
				    "cannot read '%s': %s", tree->conf_path,
				    local->message);
		return NULL;
	}
	kind = g_key_file_get_string(kf, TREE_GROUP, "kind", NULL);
	if (!g_strcmp0(kind, "distro")) {
		tree->kind = TREE_KIND_DISTRO;
	} else if (!g_strcmp0(kind, "git")) {
		tree->kind = TREE_KIND_GIT;
	} else {
		g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
			    "'%s': unknown tree kind '%s'", tree->conf_path,
			    kind ? kind : "");
		return NULL;
	}
	tree->url = g_key_file_get_string(kf, TREE_GROUP, "url", NULL);
	tree->branches = g_key_file_get_string_list(kf, TREE_GROUP, "branches",
						    NULL, NULL);
	if (!tree->branches)
		tree->branches = g_new0(char *, 1);
	tree->head_branch = g_key_file_get_string(kf, TREE_GROUP, "head", NULL);
	tree->version = g_key_file_get_string(kf, TREE_GROUP, "version", NULL);
	if (!tree->head_branch) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
			    "'%s': no head branch", tree->conf_path);
		return NULL;
	}
	tree->repo = lg2repo_open_bare(tree->git_dir, &local);
	if (!tree->repo) {
		tree_git_error(error, local);
		return NULL;
	}
	return g_steal_pointer(&tree);
}

gboolean tree_save(const struct tree *tree, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;

	/* keep keys this version does not know (later configuration) */
	g_key_file_load_from_file(kf, tree->conf_path, G_KEY_FILE_KEEP_COMMENTS,
				  NULL);
	g_key_file_set_string(kf, TREE_GROUP, "kind",
			      tree_kind_name(tree->kind));
	if (tree->url)
		g_key_file_set_string(kf, TREE_GROUP, "url", tree->url);
	g_key_file_set_string_list(
		kf, TREE_GROUP, "branches", (const char *const *)tree->branches,
		tree->branches ? g_strv_length(tree->branches) : 0);
	if (tree->head_branch)
		g_key_file_set_string(kf, TREE_GROUP, "head",
				      tree->head_branch);
	if (tree->version)
		g_key_file_set_string(kf, TREE_GROUP, "version", tree->version);
	if (!g_key_file_save_to_file(kf, tree->conf_path, &local)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_FAILED,
			    "cannot write '%s': %s", tree->conf_path,
			    local->message);
		return FALSE;
	}
	return TRUE;
}

struct tree *tree_create(const char *data_dir, const char *name,
			 enum tree_kind kind, GError **error)
{
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(GError) local = NULL;

	tree = tree_new_named(data_dir, name, error);
	if (!tree)
		return NULL;
	if (g_file_test(tree->conf_path, G_FILE_TEST_EXISTS)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_EXISTS,
			    "tree '%s' already exists", name);
		return NULL;
	}
	if (g_mkdir_with_parents(tree->dir, 0755) < 0) {
		int saved = errno;

		g_set_error(error, TREE_ERROR, TREE_ERROR_FAILED,
			    "cannot create '%s': %s", tree->dir,
			    g_strerror(saved));
		return NULL;
	}
	/* a half-made tree (no tree.conf) of an interrupted add is reused */
	tree->repo = lg2repo_init_bare(tree->git_dir, &local);
	if (!tree->repo) {
		tree_git_error(error, local);
		return NULL;
	}
	tree->kind = kind;
	tree->branches = g_new0(char *, 1);
	return g_steal_pointer(&tree);
}

static int tree_name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **tree_list(const char *data_dir, GError **error)
{
	g_autofree char *path = g_build_filename(data_dir, "trees", NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) dir = g_dir_open(path, 0, &local);
	const char *name;

	if (!dir) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			g_propagate_error(error, g_steal_pointer(&local));
			return NULL;
		}
	} else {
		while ((name = g_dir_read_name(dir))) {
			g_autofree char *conf =
				g_build_filename(path, name, "tree.conf", NULL);

			if (tree_name_valid(name) &&
			    g_file_test(conf, G_FILE_TEST_IS_REGULAR))
				g_ptr_array_add(names, g_strdup(name));
		}
	}
	g_ptr_array_sort(names, tree_name_cmp);
	g_ptr_array_add(names, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&names), FALSE);
}

char *tree_head_ref(const struct tree *tree)
{
	return g_strconcat("refs/heads/", tree->head_branch, NULL);
}

gboolean tree_head(struct tree *tree, struct gitoid *out, GError **error)
{
	g_autofree char *ref = tree_head_ref(tree);

	if (!lg2repo_ref_id(tree->repo, ref, out)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
			    "tree '%s' has no branch '%s'", tree->name,
			    tree->head_branch);
		return FALSE;
	}
	return TRUE;
}

gboolean tree_resolve(struct tree *tree, const char *rev, struct gitoid *out,
		      GError **error)
{
	if (!rev)
		return tree_head(tree, out, error);
	if (!lg2repo_revparse_commit(tree->repo, rev, out)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
			    "tree '%s' has no revision '%s'", tree->name, rev);
		return FALSE;
	}
	return TRUE;
}

gboolean tree_has_commit(struct tree *tree, const struct gitoid *oid)
{
	return lg2repo_has_commit(tree->repo, oid);
}
