/* The armbot command line: the global options and git's option forms on
 * GOptionContext; see bot/cli/cmdline.h. */
#include "bot/cli/cmdline.h"

#include <stdio.h>
#include <string.h>

static char *global_repo;
static char *global_data_dir;
static gboolean global_version;
static gboolean global_help;
/* strings cmdline_normalize() put into argv: argv may point at them */
static GPtrArray *rewritten;

static gboolean set_global(const char *name, const char *value, gpointer data,
			   GError **error)
{
	char **slot = !strcmp(name, "--data-dir") ? &global_data_dir :
						    &global_repo;

	g_free(*slot);
	*slot = g_strdup(value);
	return TRUE;
}

/* The global options: the one definition both programs parse with.  These
 * are accepted before the command name and among the command's options
 * (the last one given wins)... */
static const GOptionEntry global_settings[] = {
	{ "repo", 'C', G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK,
	  set_global,
	  "the git repository to read (dirstat, am, patch-id; default: the "
	  "current directory)",
	  "REPO" },
	{ "data-dir", 0, G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK,
	  set_global, "where armbot keeps its state", "DIR" },
	G_OPTION_ENTRY_NULL
};

/* ...these say what to run instead of a command, before its name only (as
 * `git --version`; `armbot dirstat --help` is the command's GOptionContext
 * help) */
static const GOptionEntry global_actions[] = {
	{ "version", 0, 0, G_OPTION_ARG_NONE, &global_version,
	  "print the version", NULL },
	{ "help", 'h', 0, G_OPTION_ARG_NONE, &global_help,
	  "print the commands, or the help of the command named next", NULL },
	G_OPTION_ENTRY_NULL
};

/* How an option takes its value, as git's parse-options flags say it. */
enum arity {
	ARITY_NONE, /* PARSE_OPT_NOARG */
	ARITY_OPTIONAL, /* PARSE_OPT_OPTARG: stuck form only */
	ARITY_REQUIRED, /* stuck or the next argument */
};

static enum arity entry_arity(const GOptionEntry *e)
{
	if (e->arg == G_OPTION_ARG_NONE || (e->arg == G_OPTION_ARG_CALLBACK &&
					    (e->flags & G_OPTION_FLAG_NO_ARG)))
		return ARITY_NONE;
	if (e->arg == G_OPTION_ARG_CALLBACK &&
	    (e->flags & G_OPTION_FLAG_OPTIONAL_ARG))
		return ARITY_OPTIONAL;
	return ARITY_REQUIRED;
}

/* The entry of @tables (NULL-terminated list of NULL-terminated arrays)
 * named @name (@len bytes) or, if @name is NULL, with short name @c. */
static const GOptionEntry *entry_find(const GOptionEntry *const *tables,
				      const char *name, gsize len, char c)
{
	for (; *tables; tables++)
		for (const GOptionEntry *e = *tables; e->long_name; e++)
			if (name ? strlen(e->long_name) == len &&
					    !strncmp(e->long_name, name, len) :
				   e->short_name == c)
				return e;
	return NULL;
}

static char *keep(char *s)
{
	if (!rewritten)
		rewritten = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(rewritten, s);
	return s;
}

/* Walk @argv[1..argc) as git's parse-options reads it, knowing each
 * option's arity from @tables: returns the index where the options end (a
 * "--", or the first operand if @stop_at_operand, else argc).  With
 * @rewrite, rewrite git's forms as cmdline_normalize() says; -1 with
 * @error for a value given to an option that takes none. */
static int scan(const GOptionEntry *const *tables, gboolean stop_at_operand,
		gboolean rewrite, int argc, char **argv, GError **error)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const GOptionEntry *e;

		if (!strcmp(arg, "--"))
			break;
		if (arg[0] != '-' || !arg[1]) {
			if (stop_at_operand)
				break;
			continue;
		}
		if (arg[1] == '-') {
			const char *name = arg + 2;
			const char *eq = strchr(name, '=');

			e = entry_find(tables, name,
				       eq ? (gsize)(eq - name) : strlen(name),
				       0);
			if (!e)
				continue; /* GOptionContext's to judge */
			switch (entry_arity(e)) {
			case ARITY_NONE:
				if (eq && rewrite) {
					g_set_error(
						error, G_OPTION_ERROR,
						G_OPTION_ERROR_BAD_VALUE,
						"option '--%s' takes no value",
						e->long_name);
					return -1;
				}
				break;
			case ARITY_OPTIONAL:
				if (!eq && rewrite)
					argv[i] = keep(
						g_strconcat(arg, "=", NULL));
				break;
			case ARITY_REQUIRED:
				if (!eq)
					i++; /* its value, whatever it looks like */
				break;
			}
			continue;
		}
		/* a short option; only the first of a cluster is looked at */
		e = entry_find(tables, NULL, 0, arg[1]);
		if (!e || entry_arity(e) == ARITY_NONE)
			continue;
		if (arg[2] || entry_arity(e) == ARITY_OPTIONAL) {
			if (rewrite)
				argv[i] = keep(g_strdup_printf(
					"--%s=%s", e->long_name, arg + 2));
		} else {
			i++;
		}
	}
	return MIN(i, argc);
}

gboolean cmdline_normalize(const GOptionEntry *options, int argc, char **argv,
			   GError **error)
{
	const GOptionEntry *tables[] = { global_settings, options, NULL };

	return scan(tables, FALSE, TRUE, argc, argv, error) >= 0;
}

int cmdline_options_end(const GOptionEntry *options, int argc, char **argv)
{
	const GOptionEntry *tables[] = { global_settings, options, NULL };

	return scan(tables, FALSE, FALSE, argc, argv, NULL);
}

gboolean cmdline_parse_global(int *argc, char ***argv, enum cmdline_action *out,
			      GError **error)
{
	const GOptionEntry *tables[] = { global_settings, global_actions,
					 NULL };
	g_autoptr(GOptionContext) context = g_option_context_new(NULL);
	int end = scan(tables, TRUE, TRUE, *argc, *argv, error);

	if (end < 0)
		return FALSE;
	/* git: "unknown option: --" (GOptionContext would drop it or not
	 * depending on what follows) */
	if (end < *argc && !strcmp((*argv)[end], "--")) {
		g_set_error(error, G_OPTION_ERROR,
			    G_OPTION_ERROR_UNKNOWN_OPTION,
			    "unknown option '--' before the command");
		return FALSE;
	}
	/* strict POSIX: the options end at the command name, whose own
	 * options are its GOptionContext's */
	g_option_context_set_strict_posix(context, TRUE);
	g_option_context_set_help_enabled(context, FALSE);
	g_option_context_add_main_entries(context, global_settings, NULL);
	g_option_context_add_main_entries(context, global_actions, NULL);
	if (!g_option_context_parse(context, argc, argv, error))
		return FALSE;
	*out = global_help    ? CMDLINE_HELP :
	       global_version ? CMDLINE_VERSION :
				CMDLINE_RUN;
	return TRUE;
}

GOptionGroup *cmdline_global_group(void)
{
	GOptionGroup *group =
		g_option_group_new("global", "Global options (any command):",
				   "Show the global options", NULL, NULL);

	g_option_group_add_entries(group, global_settings);
	return group;
}

const char *cmdline_repo(void)
{
	return global_repo;
}

const char *cmdline_data_dir(void)
{
	return global_data_dir;
}

void cmdline_print_version(void)
{
	printf("armbot version %s\n", ARMBOT_VERSION);
}
