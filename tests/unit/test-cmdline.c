/* Unit tests for bot/cli/cmdline.c: git's option forms rewritten for
 * GOptionContext, where the options end, the global options. */
#include "bot/cli/cmdline.h"

#include <string.h>

static gboolean ignore(const char *name, const char *value, gpointer data,
		       GError **error)
{
	return TRUE;
}

/* a command's table with every arity: armbot dirstat's shapes */
static const GOptionEntry options[] = {
	{ "dirstat", 'X', G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
	  ignore, NULL, NULL },
	{ "cumulative", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, ignore,
	  NULL, NULL },
	{ "path", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
	{ "json", 'j', 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
	{ "rename-limit", 'l', 0, G_OPTION_ARG_INT, NULL, NULL, NULL },
	G_OPTION_ENTRY_NULL
};

struct tcase {
	const char *in; /* arguments, split at spaces */
	const char *out; /* after cmdline_normalize(), or NULL: an error */
	int end; /* cmdline_options_end() */
};

static void test_normalize(void)
{
	static const struct tcase cases[] = {
		/* optional values: stuck form only (issue 18) */
		{ "dirstat --dirstat base head", "dirstat --dirstat= base head",
		  4 },
		{ "dirstat -X base head", "dirstat --dirstat= base head", 4 },
		{ "dirstat base head --dirstat",
		  "dirstat base head --dirstat=", 4 },
		{ "dirstat --dirstat=lines,3 a b",
		  "dirstat --dirstat=lines,3 a b", 4 },
		{ "dirstat -Xfiles,0 a b", "dirstat --dirstat=files,0 a b", 4 },
		{ "dirstat -X= a", "dirstat --dirstat== a", 3 },
		/* values stuck to short options, or the next argument */
		{ "dirstat -l5 a", "dirstat --rename-limit=5 a", 3 },
		{ "dirstat -l 5 a", "dirstat -l 5 a", 4 },
		{ "dirstat -CREPO a", "dirstat --repo=REPO a", 3 },
		{ "dirstat -C -X a", "dirstat -C -X a", 4 },
		{ "dirstat --repo -X a", "dirstat --repo -X a", 4 },
		{ "dirstat --path -X a", "dirstat --path -X a", 4 },
		{ "dirstat --data-dir --dirstat a",
		  "dirstat --data-dir --dirstat a", 4 },
		/* "--" ends the options, unless it is a value */
		{ "dirstat a -- --dirstat -X", "dirstat a -- --dirstat -X", 2 },
		{ "dirstat --path -- a -- b", "dirstat --path -- a -- b", 4 },
		{ "dirstat -X a b --", "dirstat --dirstat= a b --", 4 },
		/* no value where git takes none */
		{ "dirstat --cumulative=3 a", NULL, 3 },
		{ "dirstat --json=yes a", NULL, 3 },
		{ "dirstat --cumulative --json -j a",
		  "dirstat --cumulative --json -j a", 5 },
		/* unknown options and clusters are GOptionContext's */
		{ "dirstat --no-such -X", "dirstat --no-such --dirstat=", 3 },
		{ "dirstat -jX a", "dirstat -jX a", 3 },
		{ "dirstat - a", "dirstat - a", 3 },
		/* a value missing at the end */
		{ "dirstat --path", "dirstat --path", 2 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct tcase *c = &cases[i];
		/* argv points at these, and at strings cmdline.c owns */
		g_auto(GStrv) words = g_strsplit(c->in, " ", -1);
		int argc = (int)g_strv_length(words);
		g_autofree char **argv =
			g_memdup2(words, (argc + 1) * sizeof(char *));
		g_autoptr(GError) error = NULL;
		gboolean ok;

		g_test_message("%s", c->in);
		g_assert_cmpint(cmdline_options_end(options, argc, argv), ==,
				c->end);
		ok = cmdline_normalize(options, argc, argv, &error);
		if (!c->out) {
			g_assert_false(ok);
			g_assert_error(error, G_OPTION_ERROR,
				       G_OPTION_ERROR_BAD_VALUE);
			g_assert_nonnull(
				strstr(error->message, "takes no value"));
		} else {
			g_autofree char *got = NULL;

			g_assert_no_error(error);
			g_assert_true(ok);
			got = g_strjoinv(" ", argv);
			g_assert_cmpstr(got, ==, c->out);
		}
	}
}

/* parse "armbot ..." as cmdline_parse_global() does; what is left */
static char *parse(const char *line, enum cmdline_action *action, gboolean *ok,
		   GError **error)
{
	/* parsing moves argv's pointers about: the strings are freed from
	 * @words */
	g_auto(GStrv) words = g_strsplit(line, " ", -1);
	int argc = (int)g_strv_length(words);
	g_autofree char **argv = g_memdup2(words, (argc + 1) * sizeof(char *));
	char **args = argv;

	*ok = cmdline_parse_global(&argc, &args, action, error);
	args[argc] = NULL;
	return g_strjoinv(" ", args);
}

/* Command lines cmdline_parse_global() refuses, with the error each gets
 * (@code -1: any error). */
static void assert_refused(void)
{
	static const struct {
		const char *line;
		int code;
	} cases[] = {
		{ "armbot --no-such dirstat", G_OPTION_ERROR_UNKNOWN_OPTION },
		{ "armbot --data-dir", -1 },
		{ "armbot -- dirstat -X", G_OPTION_ERROR_UNKNOWN_OPTION },
		{ "armbot --version=2", G_OPTION_ERROR_BAD_VALUE },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		enum cmdline_action action;
		g_autoptr(GError) error = NULL;
		g_autofree char *rest = NULL;
		gboolean ok;

		g_test_message("%s", cases[i].line);
		rest = parse(cases[i].line, &action, &ok, &error);
		g_assert_false(ok);
		g_assert_nonnull(error);
		if (cases[i].code >= 0)
			g_assert_error(error, G_OPTION_ERROR, cases[i].code);
	}
}

static void test_global(void)
{
	enum cmdline_action action;
	g_autoptr(GError) error = NULL;
	g_autofree char *rest = NULL;
	gboolean ok;

	rest = parse("armbot --data-dir d -C r dirstat --dirstat a b", &action,
		     &ok, &error);
	g_assert_no_error(error);
	g_assert_true(ok);
	/* the options end at the command: its own are left alone */
	g_assert_cmpstr(rest, ==, "armbot dirstat --dirstat a b");
	g_assert_cmpint(action, ==, CMDLINE_RUN);
	g_assert_cmpstr(cmdline_data_dir(), ==, "d");
	g_assert_cmpstr(cmdline_repo(), ==, "r");
	g_free(rest);

	rest = parse("armbot --data-dir=e -Cs --repo t status --data-dir x",
		     &action, &ok, &error);
	g_assert_true(ok);
	g_assert_cmpstr(rest, ==, "armbot status --data-dir x");
	g_assert_cmpstr(cmdline_data_dir(), ==, "e");
	g_assert_cmpstr(cmdline_repo(), ==, "t");
	g_free(rest);

	rest = parse("armbot --version", &action, &ok, &error);
	g_assert_true(ok);
	g_assert_cmpint(action, ==, CMDLINE_VERSION);
	g_free(rest);

	rest = parse("armbot --help dirstat", &action, &ok, &error);
	g_assert_true(ok);
	g_assert_cmpint(action, ==, CMDLINE_HELP);
	g_assert_cmpstr(rest, ==, "armbot dirstat");

	assert_refused();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/cmdline/normalize", test_normalize);
	g_test_add_func("/cmdline/global", test_global);
	return g_test_run();
}
