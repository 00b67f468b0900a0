/* The armbot command line as git spells it, parsed by GOptionContext: the
 * one table of the global options, compiled into both programs (armbot and
 * armbot-core), and git's forms of option values that GOptionContext lacks.
 *
 * `armbot [<global options>] <command> [<options>] [<operands>]`: -C and
 * --data-dir may also be given among the command's options (the command's
 * GOptionContext gets them as its "global" group); --version and --help
 * only before the command name, as in git. */
#pragma once

#include <glib.h>

/* What the options before the command name ask for. */
enum cmdline_action {
	CMDLINE_RUN, /* run the command named next (if any) */
	CMDLINE_VERSION, /* --version */
	CMDLINE_HELP, /* -h, --help: the usage, or the command's help */
};

/* Parse the global options before the command name, in POSIX order (they
 * end at the first operand: the command).  On return (*argv)[1], if
 * *argc > 1, is the command and the rest its arguments, unchanged.
 * Returns FALSE with @error on a usage error ("--" before the command is
 * one, as in git). */
gboolean cmdline_parse_global(int *argc, char ***argv, enum cmdline_action *out,
			      GError **error);

/* The global options accepted among a command's own options (-C,
 * --data-dir), as a new group for the command's GOptionContext. */
GOptionGroup *cmdline_global_group(void);

/* Rewrite in place the arguments of @argv[1..argc) that are options of
 * @options or of the global group in the forms git's parse-options takes
 * and GOptionContext does not (gitcli(7)): a value stuck to a short option
 * ("-Xfiles", "-l5", "-CREPO") becomes "--long=value", and an option whose
 * value is optional given without "=" ("--dirstat", "-X", "-M") becomes
 * "--long=": it never takes the next argument, which git reads as an
 * operand.  A callback of such an option thus sees "" for a value left
 * out.  Values given to options that take none ("--cumulative=3") are an
 * error, as in git.  Stops at "--".  New strings live until exit. */
gboolean cmdline_normalize(const GOptionEntry *options, int argc, char **argv,
			   GError **error);

/* The index in @argv of the "--" that ends the options of @options and of
 * the global group (an option's value "--" does not), or @argc. */
int cmdline_options_end(const GOptionEntry *options, int argc, char **argv);

/* -C REPO, --repo=REPO: the git repository a command reads instead of its
 * default; NULL if not given.  Owned by this module. */
const char *cmdline_repo(void);

/* --data-dir DIR, or NULL (see config/datadir.h for what comes next).
 * Owned by this module. */
const char *cmdline_data_dir(void);

/* `armbot --version`. */
void cmdline_print_version(void);
