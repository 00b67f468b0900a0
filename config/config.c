/* armbot.conf: loading, defaults and validation; see config/config.h and
 * config/armbot.conf.example. */
#include "config/config.h"

#include <gio/gio.h>
#include <string.h>

#include "config/keyfile.h"
#include "config/policy.h"
#include "config/treefile.h"

char *config_find(const char *option)
{
	const char *env = g_getenv("ARMBOT_CONFIG");
	g_autofree char *xdg = NULL;

	if (option && *option)
		return g_strdup(option);
	if (env && *env)
		return g_strdup(env);
	xdg = g_build_filename(g_get_user_config_dir(), "armbot", "armbot.conf",
			       NULL);
	if (g_file_test(xdg, G_FILE_TEST_EXISTS))
		return g_steal_pointer(&xdg);
	return NULL;
}

static void policy_defaults(struct config_policy *p)
{
	p->checks = CONFIG_CHECK_ALL;
	p->reply = CONFIG_REPLY_ALWAYS;
	p->reply_to = CONFIG_REPLY_TO_LIST;
	p->list_cap = 20;
	p->rfc = TRUE;
	p->update_interval = CONFIG_UPDATE_INTERVAL_DEFAULT;
}

static void patchwork_free(struct config_patchwork *p)
{
	g_free(p->list);
	g_free(p->url);
	g_free(p->token_file);
	g_free(p->ca_file);
	g_free(p);
}

static void list_free(struct config_list *l)
{
	g_free(l->address);
	if (l->patchwork)
		patchwork_free(l->patchwork);
	g_free(l);
}

struct armbot_config *config_new_default(void)
{
	struct armbot_config *c = g_new0(struct armbot_config, 1);

	c->name = g_strdup("armbot");
	c->address = g_strdup("armbot@localhost");
	c->sources = g_new0(char *, 1);
	c->web_archive_urls = g_new0(char *, 1);
	c->smtp_starttls = CONFIG_STARTTLS_OPPORTUNISTIC;
	c->web_listen = g_strdup("127.0.0.1");
	c->web_port = 8080;
	policy_defaults(&c->defaults);
	c->trees =
		g_ptr_array_new_with_free_func((GDestroyNotify)treefile_free);
	c->lists = g_ptr_array_new_with_free_func((GDestroyNotify)list_free);
	return c;
}

void config_free(struct armbot_config *c)
{
	if (!c)
		return;
	g_free(c->path);
	g_free(c->name);
	g_free(c->address);
	g_free(c->data_dir);
	g_free(c->trees_dir);
	g_strfreev(c->sources);
	g_free(c->smtp_url);
	g_free(c->smtp_auth_file);
	g_free(c->smtp_auth_mechanism);
	g_free(c->smtp_ca_file);
	g_free(c->smtp_from);
	g_free(c->outbox);
	g_free(c->web_listen);
	g_free(c->web_base_url);
	g_strfreev(c->web_archive_urls);
	g_clear_pointer(&c->trees, g_ptr_array_unref);
	g_clear_pointer(&c->lists, g_ptr_array_unref);
	g_free(c);
}

const struct config_patchwork *
config_patchwork_for(const struct armbot_config *config, const char *list)
{
	const struct config_list *l = config_list(config, list);

	return l ? l->patchwork : NULL;
}

const struct config_list *config_list(const struct armbot_config *config,
				      const char *address)
{
	for (guint i = 0; address && i < config->lists->len; i++) {
		const struct config_list *l = config->lists->pdata[i];

		if (!g_ascii_strcasecmp(l->address, address))
			return l;
	}
	return NULL;
}

const struct treefile *config_tree(const struct armbot_config *config,
				   const char *name)
{
	for (guint i = 0; i < config->trees->len; i++) {
		const struct treefile *tf = config->trees->pdata[i];

		if (!strcmp(tf->name, name))
			return tf;
	}
	return NULL;
}

char *config_outbox_dir(const struct armbot_config *config,
			const char *data_dir)
{
	if (config && config->outbox)
		return g_strdup(config->outbox);
	return g_build_filename(data_dir, "outbox", NULL);
}

/* A path of the file, made absolute against the file's directory. */
static char *file_path(const char *base_dir, const char *value)
{
	if (!value)
		return NULL;
	return g_canonicalize_filename(value, base_dir);
}

/* An RFC 5321 mailbox, roughly: local@domain, no blanks or brackets. */
static gboolean address_valid(const char *a)
{
	const char *at = strrchr(a, '@');

	return at && at != a && at[1] && !strpbrk(a, " \t<>,;\"()");
}

/* Validate an address-valued key, replacing it with NULL when bad. */
static void check_address(struct keyfile *k, const char *group, const char *key,
			  char **value)
{
	if (*value && !address_valid(*value)) {
		keyfile_error(k, group, key,
			      "'%s' is not a mail address (local@domain)",
			      *value);
		g_clear_pointer(value, g_free);
	}
}

static const char *const bot_keys[] = { "name",	     "address", "data-dir",
					"trees-dir", "dry-run", NULL };
static const char *const sources_keys[] = { "urls", NULL };
static const char *const smtp_keys[] = {
	"url",	   "starttls", "auth-file", "auth-mechanism",
	"ca-file", "timeout",  "from",	    NULL,
};
static const char *const outbox_keys[] = { "maildir", NULL };
static const char *const web_keys[] = { "listen", "port", "base-url",
					"archive-url", NULL };
static const char *const defaults_keys[] = {
	"checks", "reply",	  "reply-to",	     "list-cap",
	"rfc",	  "unknown-base", "update-interval", NULL,
};
static const char *const kcidb_keys[] = { "export", NULL };
static const char *const list_keys[] = { "weekly",
					 "early-verdict",
					 "patchwork-url",
					 "patchwork-token-file",
					 "patchwork-ca-file",
					 NULL };
static const struct keyfile_group config_groups[] = {
	{ "bot", bot_keys },	 { "sources", sources_keys },
	{ "smtp", smtp_keys },	 { "outbox", outbox_keys },
	{ "web", web_keys },	 { "defaults", defaults_keys },
	{ "kcidb", kcidb_keys }, { "list ", list_keys },
};

static const char *const source_schemes[] = {
	"imap://", "imaps://", "nntp://", "nntps://", "http://", "https://",
};

/* A host is given after the scheme of @url. */
static gboolean url_has_host(const char *url)
{
	g_autoptr(GUri) uri = g_uri_parse(url, G_URI_FLAGS_NONE, NULL);

	return uri && g_uri_get_host(uri) && *g_uri_get_host(uri);
}

/* The TLS options of an imap(s)://, nntp(s):// or http(s):// source
 * (bot/sources/imap.c, nntp.c, http.c): tls= is only "no", which only a URL without
 * implicit TLS can say, and ca-file= names a file.  FALSE when an error
 * was reported (the URL named without its password). */
static gboolean source_tls_options_ok(struct keyfile *k, const char *u)
{
	g_autoptr(GUri) uri = g_uri_parse(u, G_URI_FLAGS_HAS_PASSWORD, NULL);
	g_autoptr(GHashTable) params = NULL;
	g_autofree char *shown = NULL;
	const char *tls, *ca;
	gboolean ok = TRUE;

	if (!uri || !g_uri_get_query(uri))
		return TRUE;
	params = g_uri_parse_params(g_uri_get_query(uri), -1, "&",
				    G_URI_PARAMS_NONE, NULL);
	if (!params)
		return TRUE;
	shown = g_uri_to_string_partial(uri, G_URI_HIDE_PASSWORD);
	tls = g_hash_table_lookup(params, "tls");
	ca = g_hash_table_lookup(params, "ca-file");
	if (tls && strcmp(tls, "no")) {
		keyfile_error(k, "sources", "urls",
			      "source '%s': tls=%s: only tls=no (no STARTTLS, "
			      "a password in clear) is known",
			      shown, tls);
		ok = FALSE;
	} else if (tls && g_str_has_suffix(g_uri_get_scheme(uri), "s")) {
		keyfile_error(k, "sources", "urls",
			      "source '%s': tls=no, but %s:// is TLS from the "
			      "first byte",
			      shown, g_uri_get_scheme(uri));
		ok = FALSE;
	}
	if (ca && !g_file_test(ca, G_FILE_TEST_IS_REGULAR)) {
		keyfile_error(k, "sources", "urls",
			      "source '%s': no such ca-file '%s'", shown, ca);
		ok = FALSE;
	}
	return ok;
}

static void read_sources(struct keyfile *k, const char *dir,
			 struct armbot_config *c)
{
	g_auto(GStrv) urls = keyfile_list(k, "sources", "urls");
	g_autoptr(GStrvBuilder) out = g_strv_builder_new();

	for (guint i = 0; urls && urls[i]; i++) {
		const char *u = urls[i];
		gboolean known = FALSE;

		if (g_str_has_prefix(u, "maildir:")) {
			g_autofree char *path = file_path(dir, u + 8);

			if (!u[8]) {
				keyfile_error(k, "sources", "urls",
					      "source 'maildir:' has no path");
				continue;
			}
			if (!g_file_test(path, G_FILE_TEST_IS_DIR)) {
				keyfile_error(k, "sources", "urls",
					      "source '%s': no such maildir "
					      "'%s'",
					      u, path);
				continue;
			}
			{
				g_autofree char *m =
					g_strconcat("maildir:", path, NULL);

				g_strv_builder_add(out, m);
			}
			continue;
		}
		for (guint j = 0; j < G_N_ELEMENTS(source_schemes); j++)
			known = known || g_str_has_prefix(u, source_schemes[j]);
		if (!known) {
			keyfile_error(k, "sources", "urls",
				      "source '%s': not maildir:PATH or an "
				      "imap(s)://, nntp(s):// or http(s):// "
				      "URL",
				      u);
			continue;
		}
		if (!url_has_host(u)) {
			keyfile_error(k, "sources", "urls",
				      "source '%s': no host", u);
			continue;
		}
		if ((g_str_has_prefix(u, "imap") ||
		     g_str_has_prefix(u, "nntp") ||
		     g_str_has_prefix(u, "http")) &&
		    !source_tls_options_ok(k, u))
			continue;
		g_strv_builder_add(out, u);
	}
	g_strfreev(c->sources);
	c->sources = g_strv_builder_end(out);
}

static void read_smtp(struct keyfile *k, const char *dir,
		      struct armbot_config *c)
{
	g_autofree char *auth = keyfile_string(k, "smtp", "auth-file", NULL);
	g_autofree char *ca = keyfile_string(k, "smtp", "ca-file", NULL);
	g_autofree char *tls = keyfile_string(k, "smtp", "starttls", NULL);
	static const char *const tls_names[] = { "opportunistic", "required",
						 "never" };

	c->smtp_url = keyfile_string(k, "smtp", "url", NULL);
	if (c->smtp_url && !g_str_has_prefix(c->smtp_url, "smtp://") &&
	    !g_str_has_prefix(c->smtp_url, "smtps://")) {
		keyfile_error(k, "smtp", "url",
			      "'%s' is not an smtp:// or smtps:// URL",
			      c->smtp_url);
		g_clear_pointer(&c->smtp_url, g_free);
	} else if (c->smtp_url && !url_has_host(c->smtp_url)) {
		keyfile_error(k, "smtp", "url", "'%s' has no host",
			      c->smtp_url);
		g_clear_pointer(&c->smtp_url, g_free);
	}
	for (guint i = 0; tls && i < G_N_ELEMENTS(tls_names); i++)
		if (!strcmp(tls, tls_names[i])) {
			c->smtp_starttls = i;
			g_clear_pointer(&tls, g_free);
			break;
		}
	if (tls)
		keyfile_error(k, "smtp", "starttls",
			      "starttls must be opportunistic, required or "
			      "never, not '%s'",
			      tls);
	if (auth) {
		c->smtp_auth_file = file_path(dir, auth);
		if (!g_file_test(c->smtp_auth_file, G_FILE_TEST_IS_REGULAR))
			keyfile_error(k, "smtp", "auth-file",
				      "no such file '%s'", c->smtp_auth_file);
	}
	if (ca) {
		c->smtp_ca_file = file_path(dir, ca);
		if (!g_file_test(c->smtp_ca_file, G_FILE_TEST_IS_REGULAR))
			keyfile_error(k, "smtp", "ca-file", "no such file '%s'",
				      c->smtp_ca_file);
	}
	c->smtp_auth_mechanism =
		keyfile_string(k, "smtp", "auth-mechanism", NULL);
	c->smtp_timeout = keyfile_uint(k, "smtp", "timeout", 0, 0, 3600);
	c->smtp_from = keyfile_string(k, "smtp", "from", NULL);
	check_address(k, "smtp", "from", &c->smtp_from);
	if (!keyfile_has(k, "smtp", "url")) {
		g_auto(GStrv)
			keys = g_key_file_get_keys(k->kf, "smtp", NULL, NULL);

		if (keys && keys[0])
			keyfile_error(k, "smtp", keys[0],
				      "'%s' without an smtp url", keys[0]);
	}
}

/* An archive-url template: http(s)://host..., one "%s" and no other
 * '%' but "%%". */
static gboolean archive_template_ok(const char *t)
{
	guint subst = 0;

	if ((!g_str_has_prefix(t, "http://") &&
	     !g_str_has_prefix(t, "https://")))
		return FALSE;
	for (const char *p = strchr(t, '%'); p; p = strchr(p + 2, '%')) {
		if (p[1] == 's')
			subst++;
		else if (p[1] != '%')
			return FALSE;
	}
	if (subst != 1)
		return FALSE;
	/* GUri refuses "%s" as a bad escape: the host of the filled URL */
	{
		g_auto(GStrv) parts = g_strsplit(t, "%", -1);
		g_autofree char *filled = g_strjoinv("25", parts);

		return url_has_host(filled);
	}
}

/* [web] archive-url: "TEMPLATE" (every list), or "ADDRESS TEMPLATE" and
 * "* TEMPLATE" entries; kept as "ADDRESS TEMPLATE", the address
 * lowercased. */
static void read_archive_urls(struct keyfile *k, struct armbot_config *c)
{
	g_auto(GStrv) entries = keyfile_list(k, "web", "archive-url");
	g_autoptr(GStrvBuilder) out = g_strv_builder_new();

	for (guint i = 0; entries && entries[i]; i++) {
		g_autofree char *e = g_strstrip(g_strdup(entries[i]));
		char *sp = strpbrk(e, " \t");
		const char *addr = "*", *t = e;

		if (!*e)
			continue;
		if (sp) {
			*sp = '\0';
			addr = e;
			t = g_strchug(sp + 1);
		}
		if (strcmp(addr, "*") && !address_valid(addr)) {
			keyfile_error(k, "web", "archive-url",
				      "'%s' is not a list address", addr);
			continue;
		}
		if (!archive_template_ok(t)) {
			keyfile_error(k, "web", "archive-url",
				      "'%s' is not an http:// or https:// URL "
				      "with one %%s for the Message-ID",
				      t);
			continue;
		}
		{
			g_autofree char *low = g_ascii_strdown(addr, -1);

			g_autofree char *e2 = g_strdup_printf("%s %s", low, t);

			g_strv_builder_add(out, e2);
		}
	}
	g_strfreev(c->web_archive_urls);
	c->web_archive_urls = g_strv_builder_end(out);
}

static void read_web(struct keyfile *k, struct armbot_config *c)
{
	g_autofree char *listen = keyfile_string(k, "web", "listen", NULL);

	if (listen) {
		g_autoptr(GInetAddress)
			a = g_inet_address_new_from_string(listen);

		if (!a && strcmp(listen, "localhost"))
			keyfile_error(k, "web", "listen",
				      "'%s' is not an IP address", listen);
		else {
			g_free(c->web_listen);
			c->web_listen = g_steal_pointer(&listen);
		}
	}
	c->web_port = keyfile_uint(k, "web", "port", 8080, 0, 65535);
	read_archive_urls(k, c);
	c->web_base_url = keyfile_string(k, "web", "base-url", NULL);
	if (c->web_base_url &&
	    ((!g_str_has_prefix(c->web_base_url, "http://") &&
	      !g_str_has_prefix(c->web_base_url, "https://")) ||
	     !url_has_host(c->web_base_url))) {
		keyfile_error(k, "web", "base-url",
			      "'%s' is not an http:// or https:// URL",
			      c->web_base_url);
		g_clear_pointer(&c->web_base_url, g_free);
	}
}

/* The patchwork keys of [list ADDRESS] @g: patchwork-url (http:// or
 * https://, with a host) and patchwork-token-file go together,
 * patchwork-ca-file is optional.  NULL when the list has none. */
static struct config_patchwork *read_patchwork(struct keyfile *k,
					       const char *dir, const char *g,
					       const char *address)
{
	struct config_patchwork *p;
	g_autofree char *token = NULL, *ca = NULL;

	if (!keyfile_has(k, g, "patchwork-url")) {
		if (keyfile_has(k, g, "patchwork-token-file") ||
		    keyfile_has(k, g, "patchwork-ca-file"))
			keyfile_error(k, g, NULL, "[%s] has no patchwork-url",
				      g);
		return NULL;
	}
	p = g_new0(struct config_patchwork, 1);
	p->list = g_strdup(address);
	p->url = keyfile_string(k, g, "patchwork-url", NULL);
	while (p->url && g_str_has_suffix(p->url, "/"))
		p->url[strlen(p->url) - 1] = '\0';
	if ((!g_str_has_prefix(p->url, "http://") &&
	     !g_str_has_prefix(p->url, "https://")) ||
	    !url_has_host(p->url))
		keyfile_error(k, g, "patchwork-url",
			      "'%s' is not an http:// or https:// URL", p->url);
	token = keyfile_string(k, g, "patchwork-token-file", NULL);
	if (!token) {
		keyfile_error(k, g, NULL, "[%s] has no patchwork-token-file",
			      g);
	} else {
		p->token_file = file_path(dir, token);
		if (!g_file_test(p->token_file, G_FILE_TEST_IS_REGULAR))
			keyfile_error(k, g, "patchwork-token-file",
				      "no such file '%s'", p->token_file);
	}
	ca = keyfile_string(k, g, "patchwork-ca-file", NULL);
	if (ca) {
		p->ca_file = file_path(dir, ca);
		if (!g_file_test(p->ca_file, G_FILE_TEST_IS_REGULAR))
			keyfile_error(k, g, "patchwork-ca-file",
				      "no such file '%s'", p->ca_file);
	}
	return p;
}

/* [list ADDRESS]: one group per list, the address after "list ". */
static void read_lists(struct keyfile *k, const char *dir,
		       struct armbot_config *c)
{
	g_auto(GStrv) groups = keyfile_groups(k, "list ");

	for (guint i = 0; groups[i]; i++) {
		g_autofree char *address = g_ascii_strdown(
			g_strstrip(groups[i] + strlen("list ")), -1);
		struct config_list *l;

		if (!address_valid(address)) {
			keyfile_error(k, groups[i], NULL,
				      "[%s]: '%s' is not a mail address"
				      " (local@domain)",
				      groups[i], address);
			continue;
		}
		if (config_list(c, address)) {
			keyfile_error(k, groups[i], NULL,
				      "[%s]: list %s is configured twice",
				      groups[i], address);
			continue;
		}
		l = g_new0(struct config_list, 1);
		l->address = g_steal_pointer(&address);
		l->weekly = keyfile_bool(k, groups[i], "weekly", FALSE);
		l->early_verdict =
			keyfile_bool(k, groups[i], "early-verdict", FALSE);
		l->patchwork = read_patchwork(k, dir, groups[i], l->address);
		g_ptr_array_add(c->lists, l);
	}
}

/* Read @path into a new configuration, appending every error to
 * @errors. */
static struct armbot_config *read_config(const char *path, GPtrArray *errors)
{
	g_autoptr(armbot_config) c = config_new_default();
	g_autoptr(GError) error = NULL;
	g_autoptr(keyfile) k = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *data_dir = NULL, *trees_dir = NULL, *outbox = NULL;
	g_autoptr(GPtrArray) trees = NULL;

	if (!path)
		return g_steal_pointer(&c);
	k = keyfile_load(path, &error);
	if (!k) {
		g_ptr_array_add(errors, g_strdup_printf("%s: %s", path,
							error->message));
		return NULL;
	}
	c->path = g_canonicalize_filename(path, NULL);
	dir = g_path_get_dirname(c->path);
	keyfile_check_keys(k, config_groups, G_N_ELEMENTS(config_groups));

	g_free(c->name);
	c->name = keyfile_string(k, "bot", "name", "armbot");
	g_free(c->address);
	c->address = keyfile_string(k, "bot", "address", "armbot@localhost");
	check_address(k, "bot", "address", &c->address);
	if (!c->address)
		c->address = g_strdup("armbot@localhost");
	data_dir = keyfile_string(k, "bot", "data-dir", NULL);
	c->data_dir = file_path(dir, data_dir);
	trees_dir = keyfile_string(k, "bot", "trees-dir", "trees.d");
	c->trees_dir = file_path(dir, trees_dir);
	if (keyfile_has(k, "bot", "trees-dir") &&
	    !g_file_test(c->trees_dir, G_FILE_TEST_IS_DIR))
		keyfile_error(k, "bot", "trees-dir", "no such directory '%s'",
			      c->trees_dir);
	c->dry_run = keyfile_bool(k, "bot", "dry-run", FALSE);

	read_sources(k, dir, c);
	read_smtp(k, dir, c);
	outbox = keyfile_string(k, "outbox", "maildir", NULL);
	c->outbox = file_path(dir, outbox);
	read_web(k, c);
	read_lists(k, dir, c);

	config_policy_read(k, "defaults", &c->defaults);
	c->defaults.list_cap =
		keyfile_uint(k, "defaults", "list-cap", 20, 0, 100000);
	c->kcidb_export = keyfile_bool(k, "kcidb", "export", FALSE);

	for (guint i = 0; i < k->errors->len; i++)
		g_ptr_array_add(errors, g_strdup(k->errors->pdata[i]));

	trees = treefile_load_dir(c->trees_dir, &c->defaults, errors, NULL);
	if (trees) {
		g_ptr_array_unref(c->trees);
		c->trees = g_steal_pointer(&trees);
	}
	return g_steal_pointer(&c);
}

gboolean config_check(const char *path, GPtrArray *errors)
{
	g_autofree char *found = config_find(path);
	guint before = errors->len;
	g_autoptr(armbot_config) c = NULL;

	if (path && !g_file_test(path, G_FILE_TEST_EXISTS)) {
		g_ptr_array_add(errors,
				g_strdup_printf("%s: no such file", path));
		return FALSE;
	}
	c = read_config(found, errors);
	return c && errors->len == before;
}

struct armbot_config *config_load(const char *path, GError **error)
{
	g_autofree char *found = config_find(path);
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(armbot_config) c = NULL;

	if (found && !g_file_test(found, G_FILE_TEST_EXISTS)) {
		g_set_error(error, CONFIG_ERROR, CONFIG_ERROR_NOT_FOUND,
			    "%s: no such file", found);
		return NULL;
	}
	c = read_config(found, errors);
	if (errors->len) {
		g_set_error_literal(error, CONFIG_ERROR, CONFIG_ERROR_INVALID,
				    errors->pdata[0]);
		return NULL;
	}
	return g_steal_pointer(&c);
}
