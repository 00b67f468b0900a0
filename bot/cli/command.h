/* The armbot subcommands, git style: `armbot <command> [options]`.
 * Each command lives in bot/cli/cmd-NAME.c and is listed in bot/cli/main.c;
 * the global options are bot/cli/cmdline.h's. */
#pragma once

#include <glib.h>

struct dirstat_report;
struct dirstat_verdict;

/* What every subcommand gets from the global options. */
struct armbot_context {
	char *data_dir; /* --data-dir, ARMBOT_DATA_DIR or $XDG_DATA_HOME/armbot */
	/* `armbot dirstat --mbox`: the line figures of the patches in a
	 * mailbox (GPtrArray of dirstat_filestat).  Reading mail links
	 * libetpan, which the lean front program (bot/cli/front.c) leaves out:
	 * set by armbot-core only; without it the command returns
	 * COMMAND_NEEDS_CORE. */
	GPtrArray *(*mbox_filestats)(const char *mbox, GError **error);
	/* `armbot dirstat --json`: bot/common/dirstat-json.h.  json-glib
	 * loads GObject and GIO at start-up, which the front program leaves
	 * out too (README, "armbot dirstat"): set by armbot-core only; without
	 * them the command returns COMMAND_NEEDS_CORE. */
	char *(*dirstat_report_json)(const struct dirstat_report *report);
	char *(*dirstat_verdict_json)(const struct dirstat_verdict *v);
};

/* A subcommand: argv[0] is the command's name.  Returns the process exit
 * status. */
typedef int (*armbot_command_fn)(struct armbot_context *ctx, int argc,
				 char **argv);

struct armbot_command {
	const char *name;
	armbot_command_fn run;
	const char *summary; /* one line for `armbot help` */
};

int cmd_ingest(struct armbot_context *ctx, int argc, char **argv);
int cmd_deliver(struct armbot_context *ctx, int argc, char **argv);
int cmd_series(struct armbot_context *ctx, int argc, char **argv);
int cmd_mailinfo(struct armbot_context *ctx, int argc, char **argv);
int cmd_patch_id(struct armbot_context *ctx, int argc, char **argv);
int cmd_tree(struct armbot_context *ctx, int argc, char **argv);
int cmd_am(struct armbot_context *ctx, int argc, char **argv);
int cmd_sparse(struct armbot_context *ctx, int argc, char **argv);
int cmd_dirstat(struct armbot_context *ctx, int argc, char **argv);
int cmd_boot(struct armbot_context *ctx, int argc, char **argv);
int cmd_check(struct armbot_context *ctx, int argc, char **argv);
int cmd_run(struct armbot_context *ctx, int argc, char **argv);
int cmd_status(struct armbot_context *ctx, int argc, char **argv);
int cmd_sendmail(struct armbot_context *ctx, int argc, char **argv);
int cmd_config(struct armbot_context *ctx, int argc, char **argv);
int cmd_subscribe(struct armbot_context *ctx, int argc, char **argv);
int cmd_unsubscribe(struct armbot_context *ctx, int argc, char **argv);
int cmd_lists(struct armbot_context *ctx, int argc, char **argv);
int cmd_boards(struct armbot_context *ctx, int argc, char **argv);
int cmd_serve(struct armbot_context *ctx, int argc, char **argv);
int cmd_weekly(struct armbot_context *ctx, int argc, char **argv);
int cmd_similar(struct armbot_context *ctx, int argc, char **argv);

/* Parse @argv with @options for command @name; on a usage error print it
 * with the command's help hint and return FALSE.  Shared by every cmd-*.c so
 * that usage errors look the same everywhere (exit status 129, like git). */
gboolean command_parse_options(const char *name, const char *parameters,
			       const char *description, GOptionEntry *options,
			       int *argc, char ***argv);

#define COMMAND_USAGE_ERROR 129

/* A subcommand of a command that has several (`armbot tree add`). */
struct command_sub {
	const char *name;
	armbot_command_fn run; /* argv[0] is the subcommand's name */
};

/* Run the subcommand of command @name that argv[1] names, among the
 * @n_subs of @subs.  Without one, or for -h and --help, print @usage:
 * on standard error with COMMAND_USAGE_ERROR when none is given, else on
 * standard output with 0.  An unknown one is a usage error. */
int command_run_sub(struct armbot_context *ctx, const char *name,
		    const char *usage, const struct command_sub *subs,
		    guint n_subs, int argc, char **argv);

/* A usage error of command @name: prints "error: MESSAGE" and the hint
 * "usage: see 'armbot help NAME'" on standard error and returns
 * COMMAND_USAGE_ERROR. */
int command_usage_error(const char *name, const char *format, ...)
	G_GNUC_PRINTF(2, 3);
/* A command that failed: prints "error: MESSAGE" of @error on standard
 * error, as git's error() does, and returns 1, the exit status. */
int command_fail(const GError *error);
/* The same with the command's own exit status @status (EX_TEMPFAIL, 2),
 * which it returns. */
int command_fail_status(const GError *error, int status);
/* git's die(): a value git's own options refuse (`--dirstat=bogus`) */
#define COMMAND_FATAL_ERROR 128
/* Not an exit status: the command line needs what only armbot-core links
 * (`armbot dirstat --mbox` reads mail); the front program execs it. */
#define COMMAND_NEEDS_CORE (-1)

/* The --config FILE option of every command that reads armbot.conf, for
 * its GOptionEntry array; the name goes to @file (a char *, NULL when the
 * option is not given).  command_config() reads it. */
#define COMMAND_OPTION_CONFIG(file)                                                     \
	{                                                                               \
		"config", 'c', 0, G_OPTION_ARG_FILENAME, &(file),                       \
			"the configuration file (default: $ARMBOT_CONFIG, else "        \
			"$XDG_CONFIG_HOME/armbot/armbot.conf when it exists, else the " \
			"embedded defaults; see 'armbot help config')",                 \
			"FILE"                                                          \
	}

/* --incomplete-timeout HOURS of the commands that assemble series
 * (ingest, deliver, series), into @hours (a double, 6 by default). */
#define COMMAND_OPTION_INCOMPLETE_TIMEOUT(hours)                           \
	{                                                                  \
		"incomplete-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &(hours), \
			"hours after which an incomplete series stops "    \
			"waiting (default 6)",                             \
			"HOURS"                                            \
	}

/* -j, --jobs N of the commands that build a kernel (boot, check,
 * sparse), into @jobs (a gint, 0 by default: the number of cores). */
#define COMMAND_OPTION_JOBS(jobs)                                            \
	{                                                                    \
		"jobs", 'j', 0, G_OPTION_ARG_INT, &(jobs),                   \
			"parallel make jobs (default: the number of cores)", \
			"N"                                                  \
	}

/* --tree NAME of the commands that work on one of the kernel trees
 * (am, boot, check, sparse), into @name (a char *, NULL by default: the
 * distro tree); @what the tree is for, a string literal ("apply to"). */
#define COMMAND_OPTION_TREE(name, what)                                    \
	{                                                                  \
		"tree", 0, 0, G_OPTION_ARG_STRING, &(name),                \
			"the tree to " what " (default: the distro tree)", \
			"NAME"                                             \
	}

/* --allow-root of the daemons, into @allow (a gboolean) for
 * command_check_root(); @verb what the command does, a string literal
 * ("run", "serve"). */
#define COMMAND_OPTION_ALLOW_ROOT(allow, verb)                               \
	{                                                                    \
		"allow-root", 0, 0, G_OPTION_ARG_NONE, &(allow),             \
			verb " even as root (by default it refuses: run it " \
			     "as a service user)",                           \
			NULL                                                 \
	}

struct armbot_config;

/* The configuration of --config @file (NULL: config_find()'s choice,
 * config/config.h), for every command that reads it (in
 * bot/cli/command-config.c: armbot-core only).  NULL when it cannot be used: then @error has the
 * first problem ("FILE:LINE: message") and, unless @errors is NULL, every
 * problem is appended to @errors (config_check()). */
struct armbot_config *command_config(const char *file, GPtrArray *errors,
				     GError **error);

struct store;

/* The store of the data dir (bot/store/store.h), the dir made first if
 * need be (datadir_ensure(), config/datadir.h), for every command that
 * reads or writes it (in bot/cli/command-store.c: armbot-core only).
 * NULL with @error when either cannot be made or opened. */
struct store *command_store(struct armbot_context *ctx, GError **error);

/* The file of that store, for what opens it elsewhere (a thread), the
 * data dir made first if need be; NULL with @error when it cannot be. */
char *command_store_path(struct armbot_context *ctx, GError **error);

/* The daemons (`armbot run`, `armbot serve`) do not run as root unless
 * @allow_root (--allow-root): they take input from anyone (@why says
 * what), and what they make in the data dir would be root's.  Returns
 * FALSE after printing why and how to run command @name instead; with
 * @allow_root, TRUE after a warning. */
gboolean command_check_root(const char *name, const char *why,
			    gboolean allow_root);

struct gitrepo;
struct gitoid;

/* The repository at @path (-C REPO) and in *@out its revision @rev (HEAD
 * when NULL), for the commands that derive something from a tree; NULL
 * with @error when either cannot be read (in bot/cli/command-repo.c). */
struct gitrepo *command_repo_rev(const char *path, const char *rev,
				 struct gitoid *out, GError **error);

/* $ARMBOT_CACHE_DIR/@name (config/datadir.h), where such a command keeps
 * what it derived.  Newly allocated. */
char *command_cache_dir(const char *name);

/* --no-cache of such a command, into @no_cache (a gboolean): @what it
 * derives, a string literal ("derive", "build the index"), it then
 * derives in memory, without command_cache_dir(). */
#define COMMAND_OPTION_NO_CACHE(no_cache, what)                              \
	{                                                                    \
		"no-cache", 0, 0, G_OPTION_ARG_NONE, &(no_cache),            \
			what " in memory, neither read nor write the cache", \
			NULL                                                 \
	}

/* --stats of such a command, into @wanted (a gboolean): print @what
 * (a string literal) the derivation took on standard error. */
#define COMMAND_OPTION_STATS(wanted, what)                       \
	{                                                        \
		"stats", 0, 0, G_OPTION_ARG_NONE, &(wanted),     \
			"print " what " on standard error", NULL \
	}

struct am_series;

/* Print what `armbot boot` and `armbot sparse` say of series @s that
 * am_apply_mbox() applied (kernel/patch/am.h): a warning on how its base
 * was chosen, "base: ID", "series: N patches, head ID"; and when it did
 * not apply, "series does not apply:" and a line "| N/M SUBJECT: REASON"
 * for each patch that failed ("| no patches" for none), and FALSE (in
 * bot/cli/command-series.c: armbot-core only). */
gboolean command_print_series(const struct am_series *s);

/* The data directory for this run (see config/datadir.h), resolved after the
 * command's options are parsed.  Owned by @ctx. */
const char *command_data_dir(struct armbot_context *ctx);
