/* What the unit tests that work on real git repositories share: a scratch
 * directory, git's environment pinned, git and shell scripts run in it,
 * files written into it.  Every helper asserts (or g_error()s) instead of
 * returning an error: a failure is the test's failure.  Remove a scratch
 * directory with rmtree() (kernel/tree/rmtree.h). */
#pragma once

#include <glib.h>

/* The NULL-terminated argument vector of its arguments, for the @args of
 * scratch_git() and scratch_git_ok(). */
#define SCRATCH_ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A new directory made from @tmpl, a basename with "XXXXXX" in it, in the
 * temporary directory (g_dir_make_tmp()); its path, owned by the caller. */
char *scratch_dir_new(const char *tmpl);

/* The whole environment git is run in: nothing of the test's own but PATH;
 * HOME is @home, no system configuration (GIT_CONFIG_NOSYSTEM), LC_ALL=C,
 * and the identities of git's test suite (t/test-lib.sh); the author and
 * committer dates are @author_date and @committer_date unless NULL, in
 * which case git takes the current time.  Owned by the caller
 * (g_strfreev()). */
char **scratch_git_environ(const char *home, const char *author_date,
			   const char *committer_date);

/* Run `git -C @dir @args...` with the environment @env, its stderr thrown
 * away; TRUE if it exited with 0.  Its whole stdout, NUL-terminated and
 * owned by the caller, in *@out unless @out is NULL. */
gboolean scratch_git(const char *const *env, const char *dir, char **out,
		     const char *const *args);

/* As scratch_git(), for git that must succeed (g_error() otherwise); its
 * stdout, owned by the caller. */
char *scratch_git_ok(const char *const *env, const char *dir,
		     const char *const *args);

/* Run the shell script @script with `/bin/sh -ec` in @dir with the
 * environment @env; it must succeed (g_error() with its stderr
 * otherwise).  Its stdout, which may hold any byte, with a NUL after it,
 * owned by the caller; its length without that NUL in *@len unless @len is
 * NULL. */
char *scratch_sh(const char *const *env, const char *dir, const char *script,
		 gsize *len);

/* Write @text to @name below @dir, making the directories on the way. */
void scratch_write_file(const char *dir, const char *name, const char *text);
