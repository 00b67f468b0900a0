/* Tree files (trees.d/NAME.conf, or kept in the store); see
 * config/treefile.h. */
#include "config/treefile.h"

#include <string.h>

#include "config/keyfile.h"
#include "config/policy.h"
#include "kernel/git/repo.h"
#include "kernel/tree/tree.h"

void treefile_free(struct treefile *tf)
{
	if (!tf)
		return;
	g_free(tf->name);
	g_free(tf->path);
	g_free(tf->origin);
	g_free(tf->url);
	g_strfreev(tf->branches);
	maintainers_section_free(tf->paths);
	g_strfreev(tf->lists);
	g_strfreev(tf->maintainers);
	g_strfreev(tf->sparse_configs);
	g_free(tf->boot.lava_url);
	g_free(tf->boot.lava_token_file);
	g_free(tf->boot.lava_ca_file);
	g_free(tf->boot.lava_serve_host);
	g_free((char *)tf->icecc.socket);
	g_free((char *)tf->icecc.scheduler);
	g_free((char *)tf->icecc.series_netns);
	g_free(tf);
}

static const char *const tree_keys[] = {
	"url",
	"branches",
	"lists",
	"maintainers",
	"checks",
	"sparse-configs",
	"reply",
	"reply-to",
	"rfc",
	"unknown-base",
	"update-interval",
	"boot-runner",
	"lava-url",
	"lava-token-file",
	"lava-ca-file",
	"lava-serve-host",
	"lava-fallback",
	"lava-retries",
	"build-distribute",
	"icecc-socket",
	"icecc-scheduler",
	"icecc-series-netns",
	NULL,
};
static const char *const paths_keys[] = { "F", "X", "N", NULL };
static const struct keyfile_group tree_groups[] = {
	{ "tree", tree_keys },
	{ "paths", paths_keys },
};

static gboolean address_valid(const char *a)
{
	const char *at = strrchr(a, '@');

	return at && at != a && at[1] && !strpbrk(a, " \t<>,;\"()");
}

/* A list of addresses ("Name <addr>" or addr), lowercased. */
static char **read_addresses(struct keyfile *k, const char *key)
{
	g_auto(GStrv) items = keyfile_list(k, "tree", key);
	g_autoptr(GStrvBuilder) out = g_strv_builder_new();

	for (guint i = 0; items && items[i]; i++) {
		g_autofree char *a = maintainers_address(items[i]);

		if (!address_valid(a)) {
			keyfile_error(k, "tree", key,
				      "'%s' is not a mail address", items[i]);
			continue;
		}
		g_strv_builder_add(out, a);
	}
	return g_strv_builder_end(out);
}

/* A URL git can fetch ("scheme://..." or scp-like "host:path"), else a
 * local path made absolute against @base_dir that must exist. */
static char *read_url(struct keyfile *k, const char *base_dir)
{
	g_autofree char *url = keyfile_string(k, "tree", "url", NULL);
	g_autofree char *path = NULL;
	const char *colon;

	if (!url)
		return NULL;
	if (strstr(url, "://"))
		return g_steal_pointer(&url);
	colon = strchr(url, ':');
	if (colon && (!strchr(url, '/') || colon < strchr(url, '/')))
		return g_steal_pointer(&url); /* git@host:path */
	path = g_canonicalize_filename(url, base_dir);
	if (!g_file_test(path, G_FILE_TEST_IS_DIR)) {
		keyfile_error(k, "tree", "url", "no such repository '%s'",
			      path);
		return NULL;
	}
	return g_steal_pointer(&path);
}

static void read_patterns(struct keyfile *k, struct treefile *tf)
{
	static const struct {
		const char *key;
		enum maintainers_pattern_kind kind;
	} kinds[] = { { "F", MAINTAINERS_F },
		      { "X", MAINTAINERS_X },
		      { "N", MAINTAINERS_N } };

	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++) {
		g_auto(GStrv) items = keyfile_list(k, "paths", kinds[i].key);
		guint line = keyfile_line(k, "paths", kinds[i].key);

		for (guint j = 0; items && items[j]; j++) {
			g_autoptr(GError) error = NULL;

			if (!maintainers_section_add_pattern(
				    tf->paths, kinds[i].kind, items[j], line,
				    NULL, NULL, &error))
				keyfile_error(k, "paths", kinds[i].key,
					      "%s: %s", kinds[i].key,
					      error->message);
		}
	}
	if (keyfile_has(k, "paths", "X") && !keyfile_has(k, "paths", "F") &&
	    !keyfile_has(k, "paths", "N"))
		keyfile_error(k, "paths", "X",
			      "X: excludes from nothing: no F: or N:");
}

/* A path made absolute against @base_dir, or NULL. */
static char *read_path(struct keyfile *k, const char *key, const char *base_dir)
{
	g_autofree char *v = keyfile_string(k, "tree", key, NULL);

	return v ? g_canonicalize_filename(v, base_dir) : NULL;
}

/* boot-runner and the lava-* keys (struct treefile_boot). */
static void read_boot(struct keyfile *k, const char *base_dir,
		      struct treefile_boot *b)
{
	g_autofree char *runner =
		keyfile_string(k, "tree", "boot-runner", NULL);
	g_autofree char *fallback =
		keyfile_string(k, "tree", "lava-fallback", NULL);

	if (runner && strcmp(runner, "local") && strcmp(runner, "lava"))
		keyfile_error(k, "tree", "boot-runner",
			      "boot-runner must be local or lava, not '%s'",
			      runner);
	b->lava = !g_strcmp0(runner, "lava");
	b->lava_url = keyfile_string(k, "tree", "lava-url", NULL);
	if (b->lava_url && !g_str_has_prefix(b->lava_url, "http://") &&
	    !g_str_has_prefix(b->lava_url, "https://"))
		keyfile_error(k, "tree", "lava-url",
			      "lava-url must be an http:// or https:// URL");
	b->lava_token_file = read_path(k, "lava-token-file", base_dir);
	b->lava_ca_file = read_path(k, "lava-ca-file", base_dir);
	b->lava_serve_host = keyfile_string(k, "tree", "lava-serve-host", NULL);
	if (b->lava_serve_host && !g_hostname_is_ip_address(b->lava_serve_host))
		keyfile_error(k, "tree", "lava-serve-host",
			      "lava-serve-host must be an IP address");
	if (fallback && strcmp(fallback, "local") && strcmp(fallback, "none"))
		keyfile_error(k, "tree", "lava-fallback",
			      "lava-fallback must be local or none, not '%s'",
			      fallback);
	b->lava_fallback_local = !g_strcmp0(fallback, "local");
	b->lava_retries = keyfile_uint(k, "tree", "lava-retries", 1, 0, 10);
	if (b->lava && (!b->lava_url || !b->lava_token_file))
		keyfile_error(k, "tree", "boot-runner",
			      "boot-runner = lava needs lava-url and "
			      "lava-token-file");
}

/* "HOST" or "HOST:PORT", PORT 1..65534 (its text interface is PORT+1). */
static gboolean scheduler_valid(const char *s)
{
	const char *colon = strrchr(s, ':');
	g_autofree char *host = colon ? g_strndup(s, colon - s) : g_strdup(s);
	guint64 port = 0;

	if (!*host || strspn(host, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") !=
			      strlen(host))
		return FALSE;
	if (!colon)
		return TRUE;
	return g_ascii_string_to_unsigned(colon + 1, 10, 1, 65534, &port, NULL);
}

/* build-distribute, icecc-socket, icecc-scheduler, icecc-series-netns
 * (trees.d files only:
 * treefile_parse() refuses them in a tree registered by mail, which must
 * not name a socket of the host). */
static void read_distribute(struct keyfile *k, struct treefile *tf)
{
	g_autofree char *how =
		keyfile_string(k, "tree", "build-distribute", NULL);
	g_autofree char *sock = keyfile_string(k, "tree", "icecc-socket", NULL);
	g_autofree char *sched =
		keyfile_string(k, "tree", "icecc-scheduler", NULL);
	g_autofree char *netns =
		keyfile_string(k, "tree", "icecc-series-netns", NULL);

	if (how && strcmp(how, "icecream") && strcmp(how, "local"))
		keyfile_error(k, "tree", "build-distribute",
			      "'%s' is not local or icecream", how);
	tf->icecream = how && !strcmp(how, "icecream");
	if (sock && !g_path_is_absolute(sock))
		keyfile_error(k, "tree", "icecc-socket",
			      "'%s' is not an absolute path", sock);
	if (sched && !scheduler_valid(sched))
		keyfile_error(k, "tree", "icecc-scheduler",
			      "'%s' is not HOST or HOST:PORT", sched);
	if (netns && !g_path_is_absolute(netns))
		keyfile_error(k, "tree", "icecc-series-netns",
			      "'%s' is not an absolute path", netns);
	if (netns && !tf->icecream)
		keyfile_error(k, "tree", "icecc-series-netns",
			      "set without build-distribute = icecream");
	if ((sock || sched) && !tf->icecream)
		keyfile_error(k, "tree",
			      sock ? "icecc-socket" : "icecc-scheduler",
			      "set without build-distribute = icecream");
	if (tf->icecream)
		tf->icecc.socket = sock ? g_steal_pointer(&sock) :
					  g_strdup("/var/run/icecc/"
						   "iceccd.socket");
	tf->icecc.scheduler = g_steal_pointer(&sched);
	tf->icecc.series_netns = g_steal_pointer(&netns);
}

static struct treefile *read_tree(struct keyfile *k, const char *name,
				  const char *origin, const char *base_dir,
				  const struct config_policy *defaults)
{
	g_autoptr(treefile) tf = g_new0(struct treefile, 1);
	g_auto(GStrv) branches = NULL;
	g_auto(GStrv) configs = NULL;

	tf->name = g_strdup(name);
	tf->origin = g_strdup(origin);
	tf->paths = maintainers_section_new(name);
	tf->policy = *defaults;
	keyfile_check_keys(k, tree_groups, G_N_ELEMENTS(tree_groups));
	if (!tree_name_valid(name))
		keyfile_error(k, "", NULL,
			      "'%s' is not a tree name ([A-Za-z0-9._-], not "
			      "starting with '.')",
			      name);
	if (!g_key_file_has_group(k->kf, "tree") && k->errors->len == 0)
		keyfile_error(k, "", NULL, "no [tree] group");
	tf->url = read_url(k, base_dir);
	if (!strcmp(name, TREE_DISTRO_NAME)) {
		if (tf->url)
			keyfile_error(k, "tree", "url",
				      "the distro tree %s comes from the %s "
				      "package, not a url",
				      TREE_DISTRO_NAME, TREE_DISTRO_PACKAGE);
	} else if (!keyfile_has(k, "tree", "url") &&
		   g_key_file_has_group(k->kf, "tree")) {
		keyfile_error(k, "tree", NULL, "[tree] has no url");
	}
	branches = keyfile_list(k, "tree", "branches");
	for (guint i = 0; branches && branches[i]; i++) {
		g_autofree char *ref =
			g_strconcat("refs/heads/", branches[i], NULL);

		/* a branch is refs/heads/NAME, a well-formed ref name by
		 * git's check_refname_format() */
		if (!gitrepo_refname_valid(ref))
			keyfile_error(k, "tree", "branches",
				      "'%s' is not a branch name", branches[i]);
	}
	tf->branches = branches ? g_steal_pointer(&branches) :
				  g_new0(char *, 1);
	tf->lists = read_addresses(k, "lists");
	tf->maintainers = read_addresses(k, "maintainers");
	configs = keyfile_list(k, "tree", "sparse-configs");
	for (guint i = 0; configs && configs[i]; i++)
		if (strspn(configs[i],
			   "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
			    strlen(configs[i]) ||
		    configs[i][0] == '.')
			keyfile_error(k, "tree", "sparse-configs",
				      "'%s' is not a defconfig name",
				      configs[i]);
	tf->sparse_configs = configs ? g_steal_pointer(&configs) :
				       g_new0(char *, 1);
	read_distribute(k, tf);
	config_policy_read(k, "tree", &tf->policy);
	read_boot(k, base_dir, &tf->boot);
	read_patterns(k, tf);
	return g_steal_pointer(&tf);
}

/* Hand the error @m to @errors or, when NULL, to @error. */
static void hand_error(char *m, GPtrArray *errors, GError **error)
{
	if (errors) {
		g_ptr_array_add(errors, m);
	} else {
		g_set_error_literal(error, CONFIG_ERROR, CONFIG_ERROR_INVALID,
				    m);
		g_free(m);
	}
}

/* Hand the errors of @k to @errors or, when NULL, the first to @error. */
static gboolean hand_errors(struct keyfile *k, GPtrArray *errors,
			    GError **error)
{
	if (!k->errors->len)
		return TRUE;
	if (errors) {
		for (guint i = 0; i < k->errors->len; i++)
			g_ptr_array_add(errors, g_strdup(k->errors->pdata[i]));
	} else {
		g_set_error_literal(error, CONFIG_ERROR, CONFIG_ERROR_INVALID,
				    k->errors->pdata[0]);
	}
	return FALSE;
}

struct treefile *treefile_parse(const char *name, const char *origin,
				const char *data,
				const struct config_policy *defaults,
				GPtrArray *errors, GError **error)
{
	g_autoptr(keyfile) k = keyfile_parse(origin, data, strlen(data));
	g_autoptr(treefile) tf = read_tree(k, name, origin, "/", defaults);
	static const char *const file_only[] = {
		"boot-runner",	   "lava-url",		 "lava-token-file",
		"lava-ca-file",	   "lava-serve-host",	 "lava-fallback",
		"lava-retries",	   "build-distribute",	 "icecc-socket",
		"icecc-scheduler", "icecc-series-netns",
	};

	/* a tree registered by mail names no files of this machine */
	for (guint i = 0; i < G_N_ELEMENTS(file_only); i++)
		if (keyfile_has(k, "tree", file_only[i]))
			keyfile_error(k, "tree", file_only[i],
				      "%s is for trees.d files only",
				      file_only[i]);
	if (!hand_errors(k, errors, error))
		return NULL;
	return g_steal_pointer(&tf);
}

struct treefile *treefile_load(const char *path,
			       const struct config_policy *defaults,
			       GPtrArray *errors, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(keyfile) k = keyfile_load(path, &local);
	g_autofree char *base = g_path_get_basename(path);
	g_autofree char *dir = g_path_get_dirname(path);
	g_autofree char *parent = g_path_get_basename(dir);
	g_autofree char *origin = g_build_filename(parent, base, NULL);
	g_autoptr(treefile) tf = NULL;

	if (!k) {
		hand_error(g_strdup_printf("%s: %s", path, local->message),
			   errors, error);
		return NULL;
	}
	if (g_str_has_suffix(base, ".conf"))
		base[strlen(base) - 5] = '\0';
	tf = read_tree(k, base, origin, dir, defaults);
	tf->path = g_strdup(path);
	if (!hand_errors(k, errors, error))
		return NULL;
	return g_steal_pointer(&tf);
}

static gint treefile_cmp(gconstpointer a, gconstpointer b)
{
	const struct treefile *x = *(struct treefile **)a;
	const struct treefile *y = *(struct treefile **)b;

	return strcmp(x->name, y->name);
}

static gint names_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char **)a, *(char **)b);
}

GPtrArray *treefile_load_dir(const char *dir,
			     const struct config_policy *defaults,
			     GPtrArray *errors, GError **error)
{
	g_autoptr(GPtrArray) trees =
		g_ptr_array_new_with_free_func((GDestroyNotify)treefile_free);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) folded =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GDir) d = NULL;
	g_autoptr(GError) local = NULL;
	const char *entry;
	gboolean ok = TRUE;

	if (!dir || !g_file_test(dir, G_FILE_TEST_IS_DIR))
		return g_steal_pointer(&trees);
	d = g_dir_open(dir, 0, &local);
	if (!d) {
		hand_error(g_strdup_printf("%s: %s", dir, local->message),
			   errors, error);
		return NULL;
	}
	while ((entry = g_dir_read_name(d)))
		if (g_str_has_suffix(entry, ".conf") && entry[0] != '.')
			g_ptr_array_add(names, g_strdup(entry));
	g_ptr_array_sort(names, names_cmp);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path =
			g_build_filename(dir, names->pdata[i], NULL);
		g_autofree char *key = NULL;
		struct treefile *tf;
		const char *other;

		tf = treefile_load(path, defaults, errors,
				   ok && !errors ? error : NULL);
		if (!tf) {
			ok = FALSE;
			if (!errors)
				return NULL;
			continue;
		}
		/* subject prefixes name trees in any case: names that
		 * differ only in case would be ambiguous */
		key = g_utf8_casefold(tf->name, -1);
		other = g_hash_table_lookup(folded, key);
		if (other) {
			hand_error(
				g_strdup_printf(
					"%s: tree name '%s' is already used by %s",
					path, tf->name, other),
				errors, error);
			treefile_free(tf);
			ok = FALSE;
			if (!errors)
				return NULL;
			continue;
		}
		g_hash_table_insert(folded, g_steal_pointer(&key),
				    g_strdup(tf->origin));
		g_ptr_array_add(trees, tf);
	}
	if (!ok && !errors)
		return NULL;
	g_ptr_array_sort(trees, treefile_cmp);
	return g_steal_pointer(&trees);
}

struct treefile *treefile_new_distro(const struct config_policy *defaults)
{
	struct treefile *tf = g_new0(struct treefile, 1);

	tf->name = g_strdup(TREE_DISTRO_NAME);
	tf->origin = g_strdup("the distro tree");
	tf->branches = g_new0(char *, 1);
	tf->paths = maintainers_section_new(TREE_DISTRO_NAME);
	tf->lists = g_new0(char *, 1);
	tf->maintainers = g_new0(char *, 1);
	tf->sparse_configs = g_new0(char *, 1);
	tf->policy = *defaults;
	return tf;
}

/* Set @key to @list unless it is empty. */
static void set_list(GKeyFile *kf, const char *group, const char *key,
		     const char *const *list)
{
	if (list && list[0])
		g_key_file_set_string_list(kf, group, key, list,
					   g_strv_length((char **)list));
}

char *treefile_to_data(const struct treefile *tf)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *checks = config_checks_string(tf->policy.checks);
	g_auto(GStrv) check_list = g_strsplit(checks, ", ", -1);
	GPtrArray *pats[3] = { g_ptr_array_new(), g_ptr_array_new(),
			       g_ptr_array_new() };
	static const char *const keys[] = { "F", "X", "N" };

	if (tf->url)
		g_key_file_set_string(kf, "tree", "url", tf->url);
	set_list(kf, "tree", "branches", (const char *const *)tf->branches);
	set_list(kf, "tree", "lists", (const char *const *)tf->lists);
	set_list(kf, "tree", "maintainers",
		 (const char *const *)tf->maintainers);
	g_key_file_set_string_list(kf, "tree", "checks",
				   (const char *const *)check_list,
				   g_strv_length(check_list));
	set_list(kf, "tree", "sparse-configs",
		 (const char *const *)tf->sparse_configs);
	g_key_file_set_string(kf, "tree", "reply",
			      config_reply_name(tf->policy.reply));
	g_key_file_set_string(kf, "tree", "reply-to",
			      config_reply_to_name(tf->policy.reply_to));
	g_key_file_set_boolean(kf, "tree", "rfc", tf->policy.rfc);
	g_key_file_set_string(
		kf, "tree", "unknown-base",
		config_unknown_base_name(tf->policy.unknown_base));
	/* update-interval is not written: how often the bot fetches is the
	 * operator's to set ([defaults]), not a maintainer's by mail, so a
	 * tree registered by mail follows the [defaults] of the day */
	for (guint i = 0; i < tf->paths->patterns->len; i++) {
		const struct maintainers_pattern *p =
			tf->paths->patterns->pdata[i];

		g_ptr_array_add(pats[p->kind], p->text);
	}
	for (guint i = 0; i < 3; i++) {
		g_ptr_array_add(pats[i], NULL);
		set_list(kf, "paths", keys[i],
			 (const char *const *)pats[i]->pdata);
		g_ptr_array_unref(pats[i]);
	}
	return g_key_file_to_data(kf, NULL, NULL);
}
