/* What every subcommand shares: the global options and option parsing. */
#include "bot/cli/command.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/cmdline.h"
#include "config/datadir.h"

/* The one place where every command's options are parsed, so that the global
 * options (bot/cli/cmdline.h) are accepted after the command name too, and
 * git's option forms are read as git reads them. */
gboolean command_parse_options(const char *name, const char *parameters,
			       const char *description, GOptionEntry *options,
			       int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *title = g_strdup_printf("armbot %s", name);
	g_autoptr(GOptionContext) context = g_option_context_new(parameters);

	g_option_context_add_group(context, cmdline_global_group());
	if (options)
		g_option_context_add_main_entries(context, options, NULL);
	if (description)
		g_option_context_set_summary(context, description);
	/* GOptionContext uses g_get_prgname() for its usage line */
	g_set_prgname(title);
	if (!cmdline_normalize(options, *argc, *argv, &error) ||
	    !g_option_context_parse(context, argc, argv, &error)) {
		command_usage_error(name, "%s", error->message);
		return FALSE;
	}
	return TRUE;
}

int command_run_sub(struct armbot_context *ctx, const char *name,
		    const char *usage, const struct command_sub *subs,
		    guint n_subs, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? COMMAND_USAGE_ERROR : 0;
	}
	for (guint i = 0; i < n_subs; i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].run(ctx, argc - 1, argv + 1);
	return command_usage_error(name, "unknown %s subcommand", name);
}

int command_usage_error(const char *name, const char *format, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, format);
	vfprintf(stderr, format, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: see 'armbot help %s'\n", name);
	return COMMAND_USAGE_ERROR;
}

int command_fail(const GError *error)
{
	return command_fail_status(error, 1);
}

int command_fail_status(const GError *error, int status)
{
	fprintf(stderr, "error: %s\n", error->message);
	return status;
}

gboolean command_check_root(const char *name, const char *why,
			    gboolean allow_root)
{
	if (geteuid() != 0)
		return TRUE;
	if (allow_root) {
		fprintf(stderr,
			"warning: armbot %s running as root "
			"(--allow-root)\n",
			name);
		return TRUE;
	}
	fprintf(stderr,
		"error: armbot %s refuses to run as root: %s, and the files it "
		"makes in the data dir would belong to root\n"
		"hint: run it as a service user, e.g. 'sudo -u armbot armbot "
		"%s' (README: Running as a service user), or pass "
		"--allow-root to run it as root anyway\n",
		name, why, name);
	return FALSE;
}

/* Resolve the data dir once options are parsed; see bot/cli/command.h. */
const char *command_data_dir(struct armbot_context *ctx)
{
	if (!ctx->data_dir)
		ctx->data_dir = datadir_resolve(cmdline_data_dir());
	return ctx->data_dir;
}
