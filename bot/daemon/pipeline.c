/* The checks of one series on one tree (see bot/daemon/pipeline.h). */
#include "bot/daemon/pipeline.h"

#include <errno.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/resource.h>

#include "config/datadir.h"
#include "kernel/build/runner.h"
#include "bot/mail/series-mbox.h"
#include "bot/daemon/similar-check.h"
#include "kernel/git/lg2repo.h"
#include "kernel/patch/am.h"
#include "kernel/base/baseguess.h"
#include "kernel/build/buildlog.h"
#include "kernel/diff/diffrename.h"
#include "bot/common/dirstat-json.h"
#include "kernel/diff/dirstat.h"
#include "kernel/git/repo.h"
#include "kernel/diff/patchstat.h"
#include "kernel/build/sparse-check.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"
#include "kernel/diff/treediff.h"
#include "mailparse/mailbox.h"
#include "mailparse/listid.h"
#include "mailparse/mailinfo.h"
#include "mailparse/message.h"
#include "qemu/boardderive.h"
#include "qemu/boards.h"
#include "qemu/boot.h"
#include "qemu/ktap.h"

G_DEFINE_QUARK(pipeline - error - quark, pipeline_error)

#define TAIL_LINES 30 /* of a failed build or boot, in the reply */
#define HUNK_LINES 40 /* of a hunk that does not apply */
#define DIAG_LINES 20 /* per failed KUnit case */

static const char *const stage_names[PIPELINE_N_STAGES] = {
	[PIPELINE_STAGE_SERIES] = "series",
	[PIPELINE_STAGE_TREE] = "tree",
	[PIPELINE_STAGE_BASE] = "base",
	[PIPELINE_STAGE_APPLY] = "apply",
	[PIPELINE_STAGE_DIRSTAT] = "dirstat",
	[PIPELINE_STAGE_SPARSE] = "sparse",
	[PIPELINE_STAGE_BOOT_BASE] = "boot (base)",
	[PIPELINE_STAGE_BOOT_HEAD] = "boot (series)",
	[PIPELINE_STAGE_BOARDS] = "boot (board)",
	[PIPELINE_STAGE_REPORT] = "report",
};

const char *pipeline_stage_name(enum pipeline_stage stage)
{
	return stage < PIPELINE_N_STAGES ? stage_names[stage] : "?";
}

/* What one run works with. */
struct run {
	const struct pipeline_options *opts;
	struct pipeline_outcome *out;
	struct store_series *series;
	struct message *parent; /* the cover, or the first patch */
	struct tree *tree;
	struct am_series *am;
	char *mbox_path;
	GPtrArray *subjects; /* of the applied patches, in order */
	GArray *commits; /* struct gitoid of the applied patches */
	GPtrArray *files; /* the paths base..head changes (before, after) */
	struct baseguess_result guess;
	/* checks that run beside the others (run_checks()): progress()
	 * reports from their threads one at a time */
	GMutex progress_lock;
	struct sparse_beside *sparse_beside;
	/* sparse's worktree and build dirs when the boot runs too, in turn
	 * or beside it (sparse_check_opts.worktree_key); NULL: the tree's */
	char *sparse_worktree_key;
};

static void progress(struct run *r, enum pipeline_stage stage,
		     const char *detail)
{
	if (!r->opts->progress)
		return;
	g_mutex_lock(&r->progress_lock);
	r->opts->progress(stage, detail, r->opts->user_data);
	g_mutex_unlock(&r->progress_lock);
}

static void set_check(struct pipeline_check *c, enum report_status status,
		      const char *reason, char *summary, char *detail)
{
	g_free(c->reason);
	g_free(c->summary);
	g_free(c->detail);
	c->status = status;
	c->reason = g_strdup(reason);
	c->summary = summary;
	c->detail = detail;
}

static void skip_check(struct pipeline_check *c, const char *reason)
{
	set_check(c, REPORT_STATUS_SKIPPED, reason, NULL, NULL);
}

/* Say how a reader reproduces check @c without armbot: @what the steps
 * do, @steps (struct kbuild_step, a reference is taken; may be NULL),
 * @note (taken; may be NULL). */
static void set_repro(struct pipeline_check *c, const char *what,
		      GPtrArray *steps, char *note)
{
	g_free(c->repro_what);
	g_clear_pointer(&c->repro_steps, g_ptr_array_unref);
	g_free(c->repro_note);
	c->repro_what = g_strdup(what);
	c->repro_steps = steps ? g_ptr_array_ref(steps) : NULL;
	c->repro_note = note;
}

/* Keep @text as @name in the log directory; a log that cannot be written
 * is not a reason to fail the check, so this only warns. */
static void write_log(struct run *r, const char *name, const char *text,
		      gssize len)
{
	g_autofree char *path = g_build_filename(r->out->log_dir, name, NULL);
	g_autoptr(GError) error = NULL;

	if (!g_file_set_contents(path, text ? text : "", text ? len : 0,
				 &error))
		g_warning("cannot keep the log: %s", error->message);
}

/* Text with every line prefixed by @indent; the last @max lines only
 * (0: all). */
static char *indent_lines(const char *text, const char *indent, guint max)
{
	g_autofree char *tail = max ? runner_tail_lines(text, max) :
				      g_strdup(text);
	g_auto(GStrv) lines = g_strsplit(tail, "\n", -1);
	GString *out = g_string_new(NULL);

	for (guint i = 0; lines[i]; i++) {
		if (!lines[i][0] && !lines[i + 1])
			break;
		g_string_append_printf(out, "%s%s\n", indent, lines[i]);
	}
	return g_string_free(out, FALSE);
}

/* The parts of the series and where to reply. */
static gboolean load_series(struct run *r, struct store *st, gint64 id,
			    GError **error)
{
	struct pipeline_outcome *out = r->out;
	g_autoptr(GBytes) raw = NULL;
	const char *parent_id, *post, *list_id;

	r->series = store_get_series(st, id, error);
	if (!r->series)
		return FALSE;
	if (!r->series->patches->len) {
		g_set_error(error, PIPELINE_ERROR, 0,
			    "series %" G_GINT64_FORMAT " has no patches", id);
		return FALSE;
	}
	parent_id = r->series->cover ? r->series->cover :
				       r->series->patches->pdata[0];
	raw = store_message_raw(st, parent_id, error);
	if (!raw || !(r->parent = message_parse(raw, error)))
		return FALSE;
	out->parent_message_id = g_strdup(parent_id);
	out->author_email = g_strdup(r->parent->from_email);
	/* the list's posting address: List-Post, else the List-Id of a
	 * list host that names lists LIST.HOST (infradead, vger) */
	post = message_header(r->parent, "List-Post");
	list_id = message_header(r->parent, "List-Id");
	if (post && strstr(post, "mailto:")) {
		const char *a = strstr(post, "mailto:") + 7;
		gsize n = strcspn(a, ">?, \t");

		if (n)
			out->list = g_ascii_strdown(a, n);
	} else if (list_id && strchr(list_id, '<')) {
		out->list = listid_to_address(list_id);
	}
	out->log_dir = g_strdup_printf("%s/logs/series-%" G_GINT64_FORMAT,
				       r->opts->data_dir, id);
	return TRUE;
}

/* The mbox the tree's am applies, kept with the logs. */
static gboolean write_mbox(struct run *r, struct store *st, GError **error)
{
	g_autoptr(GString) mbox = g_string_new(NULL);

	if (!series_mbox(st, r->series->id, mbox, error))
		return FALSE;
	r->mbox_path = g_build_filename(r->out->log_dir, "series.mbox", NULL);
	return g_file_set_contents(r->mbox_path, mbox->str, mbox->len, error);
}

static char *tree_description(const struct tree *tree)
{
	if (tree->kind == TREE_KIND_DISTRO)
		return g_strdup_printf("Debian %s %s", TREE_DISTRO_PACKAGE,
				       tree->version ? tree->version : "");
	return g_strdup_printf("branch %s of %s",
			       tree->head_branch ? tree->head_branch : "HEAD",
			       tree->url ? tree->url : tree->name);
}

/* The mail of the @number-th patch (1-based, among the mails with a
 * patch) of the series' mbox, through git mailinfo's eyes. */
static struct mailinfo_result *nth_patch(const char *mbox, guint number)
{
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct mailinfo_options miopts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailbox) mb = mailbox_open(mbox, &mopts, NULL);
	guint seen = 0;

	while (mb) {
		g_autoptr(GBytes) msg = NULL;
		g_autoptr(mailinfo_result) mi = NULL;

		if (!mailbox_next(mb, &msg, NULL) || !msg)
			return NULL;
		if (!mailinfo_parse(&mi, msg, &miopts, NULL) || !mi->patch->len)
			continue;
		if (++seen == number)
			return g_steal_pointer(&mi);
	}
	return NULL;
}

/* The hunk of @patch that @reason ("hunk #N @@ ... @@ does not apply:
 * ...") names, in the file diff of @path: what the author needs to see. */
static char *failed_hunk(const char *patch, const char *path,
			 const char *reason)
{
	const char *at = reason ? strstr(reason, "@@ -") : NULL;
	const char *end = at ? strstr(at + 4, " @@") : NULL;
	g_autofree char *header = NULL;
	g_autofree char *file_line = NULL;
	const char *file, *hunk;
	GString *out;
	guint n = 0;

	if (!end || !path)
		return NULL;
	header = g_strndup(at, end + 3 - at);
	file_line = g_strdup_printf("+++ b/%s\n", path);
	file = strstr(patch, file_line);
	if (!file) {
		g_free(file_line);
		file_line = g_strdup_printf("--- a/%s\n", path);
		file = strstr(patch, file_line);
	}
	hunk = file ? strstr(file, header) : NULL;
	if (!hunk)
		return NULL;
	out = g_string_new(NULL);
	while (*hunk && n < HUNK_LINES) {
		const char *nl = strchr(hunk, '\n');
		gsize len = nl ? (gsize)(nl - hunk) : strlen(hunk);

		if (n &&
		    (!strncmp(hunk, "@@ ", 3) || !strncmp(hunk, "diff ", 5) ||
		     !strncmp(hunk, "--", 2)))
			break;
		g_string_append(out, "| ");
		g_string_append_len(out, hunk, len);
		g_string_append_c(out, '\n');
		n++;
		hunk = nl ? nl + 1 : hunk + len;
	}
	return g_string_free(out, FALSE);
}

/* Where the series goes: already applied, its base-commit:, the commit
 * its blob ids name, or the head (kernel/base/baseguess.h). */
static gboolean find_base(struct run *r, GError **error)
{
	struct pipeline_outcome *out = r->out;
	g_autoptr(baseguess_series)
		bs = baseguess_series_from_mbox(r->mbox_path, error);

	progress(r, PIPELINE_STAGE_BASE, NULL);
	if (!bs || !baseguess_run(r->tree, bs, &r->guess, error))
		return FALSE;
	out->base_reason = g_strdup(r->guess.reason);
	switch (r->guess.how) {
	case BASEGUESS_APPLIED:
		out->base_how = REPORT_BASE_APPLIED;
		out->base_known = TRUE;
		out->base_commit = g_strdup(gitoid_hex(&r->guess.commit));
		out->applied_commits = g_ptr_array_ref(r->guess.applied);
		out->not_tested = g_strdup_printf(
			"the series is applied already (patch 1/%u is commit "
			"%.12s)",
			r->guess.applied->len,
			(char *)r->guess.applied->pdata[0]);
		break;
	case BASEGUESS_COMMIT:
		out->base_how = REPORT_BASE_COMMIT;
		/* without its prerequisites a failure may be theirs */
		out->base_known = !r->guess.prerequisites_missing;
		break;
	case BASEGUESS_BLOBS:
		out->base_how = REPORT_BASE_GUESSED;
		out->base_known = TRUE;
		break;
	case BASEGUESS_HEAD:
		out->base_how = r->series->base_commit ?
					REPORT_BASE_COMMIT_MISSING :
					REPORT_BASE_TREE_HEAD;
		break;
	case BASEGUESS_UNKNOWN:
		out->base_how = REPORT_BASE_UNKNOWN;
		break;
	}
	return TRUE;
}

static gboolean apply(struct run *r, GError **error)
{
	struct pipeline_outcome *out = r->out;
	struct pipeline_check *c = &out->checks[REPORT_CHECK_APPLY];
	struct am_options am_opts = AM_OPTIONS_INIT;
	g_autofree char *head_ref = tree_head_ref(r->tree);
	g_autofree char *base = NULL;
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GString) detail = g_string_new(NULL);
	gint64 t0 = g_get_monotonic_time();
	guint n;

	progress(r, PIPELINE_STAGE_APPLY, NULL);
	am_opts.committer_name = r->opts->bot_name;
	am_opts.committer_email = r->opts->bot_address;
	/* the base found; else the head (am would take a base-commit: the
	 * tree has, but then find_base() found it) */
	if (r->guess.how == BASEGUESS_COMMIT || r->guess.how == BASEGUESS_BLOBS)
		base = g_strdup(gitoid_hex(&r->guess.commit));
	else
		base = g_strdup(head_ref);
	am_opts.base = base;
	if (!am_apply_mbox(&r->am, r->tree->repo, head_ref, r->mbox_path,
			   &am_opts, error))
		return FALSE;
	out->base_commit = g_strdup(gitoid_hex(&r->am->base));
	out->head_commit = g_strdup(gitoid_hex(&r->am->head));
	n = r->am->patches->len;
	g_string_append_printf(log, "base: %s (%s)\n", out->base_commit,
			       out->base_reason);
	if (r->am->base_note)
		g_string_append_printf(log, "base: %s\n", r->am->base_note);
	for (guint i = 0; i < n; i++) {
		const struct am_patch *p = r->am->patches->pdata[i];

		g_string_append_printf(log, "%u/%u %s: %s%s\n", p->number, n,
				       p->subject,
				       p->applied ? "applied" : "failed: ",
				       p->applied ? "" : p->reason);
		if (p->applied) {
			g_array_append_val(r->commits, p->commit);
			g_ptr_array_add(r->subjects, g_strdup(p->subject));
			continue;
		}
		g_string_append_printf(detail,
				       "Patch %u/%u \"%s\" does not apply:\n"
				       "  %s%s%s\n",
				       p->number, n, p->subject,
				       p->path ? p->path : "",
				       p->path ? ": " : "", p->reason);
		{
			g_autoptr(mailinfo_result)
				mi = nth_patch(r->mbox_path, p->number);
			g_autofree char *hunk = mi ? failed_hunk(mi->patch->str,
								 p->path,
								 p->reason) :
						     NULL;

			if (hunk)
				g_string_append_printf(detail, "\n%s", hunk);
		}
		g_string_append_c(detail, '\n');
	}
	write_log(r, "apply.log", log->str, log->len);
	c->seconds = (g_get_monotonic_time() - t0) / 1e6;
	timing_add(&r->out->timing, TIMING_APPLY, c->seconds);
	if (!n)
		set_check(c, REPORT_STATUS_FAIL, NULL,
			  g_strdup("no patch in the series"),
			  g_strdup("The series holds no patch that git am "
				   "would apply.\n"));
	else if (r->am->failed)
		set_check(c, REPORT_STATUS_FAIL, NULL,
			  g_strdup_printf("%u of %u patches do not apply",
					  r->am->failed, n),
			  g_string_free(g_steal_pointer(&detail), FALSE));
	else
		set_check(c, REPORT_STATUS_OK, NULL,
			  g_strdup_printf("%u/%u patches", n, n), NULL);
	return TRUE;
}

/* Line figures of base..head with git's default rename detection, read
 * by the same object reader as `armbot dirstat`. */
static GPtrArray *tree_filestats(struct run *r, GError **error)
{
	struct diffrename_options ropts = DIFFRENAME_OPTIONS_INIT;
	g_autoptr(gitrepo) repo = gitrepo_open(r->tree->git_dir, error);
	g_autoptr(treediff) q = NULL;
	struct gitoid tb, th;

	if (!repo)
		return NULL;
	if (!gitrepo_peel(repo, &r->am->base, GITOBJ_TREE, &tb, error) ||
	    !gitrepo_peel(repo, &r->am->head, GITOBJ_TREE, &th, error)) {
		g_prefix_error(error, "cannot read the series' commits: ");
		return NULL;
	}
	q = treediff_new(repo, &tb, &th, error);
	if (!q || !diffrename_detect(q, &ropts, error))
		return NULL;
	return dirstat_filestats_from_tree(q, error);
}

static gboolean dirstat(struct run *r, GError **error)
{
	struct pipeline_outcome *out = r->out;
	struct dirstat_options dopts = DIRSTAT_OPTIONS_INIT;
	g_autoptr(GPtrArray) fs = NULL;
	g_autoptr(dirstat_report) report = NULL;
	gint64 t0 = g_get_monotonic_time();

	progress(r, PIPELINE_STAGE_DIRSTAT, NULL);
	/* what the reply shows: lines, cumulative, limit 3%, signed */
	dopts.mode = DIRSTAT_LINES;
	dopts.permille = 30;
	dopts.cumulative = TRUE;
	dopts.is_signed = TRUE;
	/* a series that does not apply is counted from its diffs as
	 * mailed: lines need only the diff text */
	fs = !r->am || r->am->failed || !r->am->patches->len ?
		     patchstat_mbox(r->mbox_path, NULL, NULL, error) :
		     tree_filestats(r, error);
	if (!fs)
		return FALSE;
	for (guint i = 0; i < fs->len; i++) {
		const struct dirstat_filestat *f = fs->pdata[i];

		g_ptr_array_add(r->files, g_strdup(f->path));
		if (f->old_path && strcmp(f->old_path, f->path))
			g_ptr_array_add(r->files, g_strdup(f->old_path));
	}
	report = dirstat_report_from_filestats(fs, &dopts, error);
	if (!report)
		return FALSE;
	out->dirstat = dirstat_report_format(report);
	out->verdict =
		dirstat_verdict_compute(fs, DIRSTAT_VERDICT_DEFAULT_PATH);
	out->verdict_json = dirstat_json_verdict(out->verdict);
	/* the verdict is arch/arm's; the reply also says what the series
	 * does to arch/arm64 when it touches it */
	out->arm64 = dirstat_verdict_compute(fs, "arch/arm64");
	write_log(r, "dirstat.txt", out->dirstat, -1);
	timing_add(&out->timing, TIMING_DIRSTAT,
		   (g_get_monotonic_time() - t0) / 1e6);
	/* the verdict is final once the whole series applied */
	if (r->opts->verdict_known && r->am && !r->am->failed &&
	    r->am->patches->len)
		r->opts->verdict_known(out, r->opts->verdict_data);
	return TRUE;
}

/* Why it grows arch/arm: never fails the series (a note in the log) */
static gboolean similar(struct run *r, GError **error)
{
	g_autoptr(GError) e = NULL;
	const char *base = r->am && !r->am->failed ? gitoid_hex(&r->am->base) :
						     r->out->base_commit;

	r->out->similar =
		similar_check(r->tree->git_dir, base, r->mbox_path, &e);
	if (e)
		write_log(r, "similar.txt", e->message, -1);
	else if (r->out->similar)
		write_log(r, "similar.txt", r->out->similar, -1);
	return TRUE;
}

static void on_sparse_progress(enum sparse_check_stage stage,
			       const char *detail, gpointer user_data)
{
	static const char *const names[] = {
		[SPARSE_CHECK_STAGE_SELECT] = "selecting files",
		[SPARSE_CHECK_STAGE_CONFIG] = "configuring",
		[SPARSE_CHECK_STAGE_HEAD] = "series",
		[SPARSE_CHECK_STAGE_BASE] = "base",
		[SPARSE_CHECK_STAGE_PATCH] = "patch",
	};
	struct run *r = user_data;
	g_autofree char *text =
		detail ? g_strdup_printf("%s %s", names[stage], detail) :
			 g_strdup(names[stage]);

	progress(r, PIPELINE_STAGE_SPARSE, text);
}

/* The reader's sparse run (sparse_check_result's steps), at the series'
 * head; the base is HEAD~N once the N patches are applied. */
static void sparse_repro(struct run *r, struct pipeline_check *c,
			 const struct sparse_check_result *res)
{
	g_autofree char *what = g_strdup_printf(
		"the objects armbot checked, built with sparse at the "
		"series, and the same at the base (git checkout HEAD~%u) "
		"for the warnings that were there before",
		r->commits->len);

	if (res->steps && res->steps->len)
		set_repro(c, what, res->steps, NULL);
}

/* sparse_check_run()'s options for @r's series, its commits read from
 * @tree's repository. */
static void sparse_opts(struct run *r, struct tree *tree,
			struct sparse_check_opts *so)
{
	so->data_dir = r->opts->data_dir;
	so->tree = tree;
	so->base = r->am->base;
	so->patches = r->commits;
	so->subjects = r->subjects;
	so->per_patch = r->opts->per_patch;
	so->configs = r->opts->sparse_configs;
	so->jobs = r->opts->jobs;
	so->no_cache = r->opts->no_base_cache;
	so->icecc = r->opts->icecc;
	so->worktree_key = r->sparse_worktree_key;
	so->progress = on_sparse_progress;
	so->user_data = r;
}

/* The sparse line of the reply, its log and times, from @res. */
static void sparse_record(struct run *r, const struct sparse_check_result *res)
{
	struct pipeline_check *c = &r->out->checks[REPORT_CHECK_SPARSE];
	g_autoptr(GString) log = g_string_new(NULL);

	c->seconds = res->timings.total;
	/* the file selection, configuring and checkouts count as the
	 * head's: the base's is its compile and sparse alone */
	timing_add(&r->out->timing, TIMING_SPARSE_BASE, res->timings.base);
	timing_add(&r->out->timing, TIMING_SPARSE_HEAD,
		   res->timings.total - res->timings.base);
	if (res->report)
		g_string_append(log, res->report);
	g_string_append_printf(log,
			       "base: %u objects from the cache, %u built\n"
			       "series commits: %u objects from the cache, "
			       "%u built\n",
			       res->base_cached, res->base_computed,
			       res->series_cached, res->series_computed);
	g_string_append_printf(
		log,
		"time: %.1f s (select %.1f, config %.1f, checkout %.1f, "
		"head %.1f, base %.1f, patches %.1f)\n",
		res->timings.total, res->timings.select, res->timings.config,
		res->timings.checkout, res->timings.head, res->timings.base,
		res->timings.patches);
	if (res->build_note)
		g_string_append_printf(log, "build: %s\n", res->build_note);
	if (res->reproduce)
		g_string_append_printf(log, "reproduce:\n%s\n", res->reproduce);
	write_log(r, "sparse.log", log->str, log->len);
	switch (res->status) {
	case SPARSE_CHECK_OK:
		set_check(c, REPORT_STATUS_OK, NULL,
			  res->fixed_warnings ?
				  g_strdup_printf("no new warnings, %u fixed",
						  res->fixed_warnings) :
				  g_strdup("no new warnings"),
			  NULL);
		break;
	case SPARSE_CHECK_WARN:
		/* the commands are in the reply's "To reproduce" */
		set_check(c, REPORT_STATUS_WARN, NULL,
			  g_strdup_printf("%u new warning%s, %u fixed",
					  res->new_warnings,
					  res->new_warnings == 1 ? "" : "s",
					  res->fixed_warnings),
			  g_strdup(res->report));
		sparse_repro(r, c, res);
		break;
	case SPARSE_CHECK_FAIL:
		set_check(c, REPORT_STATUS_FAIL, NULL,
			  res->new_compile_errors ?
				  g_strdup_printf("does not compile: %u new "
						  "error%s",
						  res->new_compile_errors,
						  res->new_compile_errors == 1 ?
							  "" :
							  "s") :
				  g_strdup_printf("does not build: %s",
						  res->reason ? res->reason :
								"see the log"),
			  g_strdup(res->report));
		sparse_repro(r, c, res);
		break;
	case SPARSE_CHECK_SKIPPED:
		skip_check(c, res->reason ? res->reason : "nothing to check");
		break;
	}
}

static gboolean sparse(struct run *r, GError **error)
{
	struct sparse_check_opts so = SPARSE_CHECK_OPTS_INIT;
	struct sparse_check_result res = { 0 };
	gboolean ok;

	progress(r, PIPELINE_STAGE_SPARSE, NULL);
	sparse_opts(r, r->tree, &so);
	ok = sparse_check_run(&so, &res, error);
	if (ok)
		sparse_record(r, &res);
	sparse_check_result_clear(&res);
	return ok;
}

/* Overlap (issue 24).  sparse at the base and the series and the
 * build, boot and suite of the rpm-virt kernel are independent: with a
 * worktree and build dirs of its own (DATA/worktrees/TREE.sparse, whenever
 * the boot runs too: the boot's checkouts of base and head then never
 * make sparse's objects stale, nor the reverse), sparse runs in a thread
 * beside the boot row and is joined after it; its reply line is written
 * then, in the thread that runs the checks.  The CPU budget: both run
 * with the same make -j at the same priority (SPARSE_BESIDE_NICE; a
 * per-thread attribute on Linux, inherited by the processes it spawns),
 * measured best by bench/e2e.sh: warm, sparse at the series is the
 * reply's critical path (about 3 times the build and boot), and at nice
 * 10 it lost more than the build gained (README, "Reply time").
 * ARMBOT_PIPELINE_SERIAL=1 in the environment runs every row in turn,
 * with the same worktrees. */
#define SPARSE_BESIDE_NICE 0

struct sparse_beside {
	struct run *r;
	struct tree *tree; /* its own: a libgit2 repository is not shared
			      between threads */
	GThread *thread;
	struct sparse_check_result res;
	gboolean ok;
	GError *error;
	gint64 started, ended; /* monotonic */
	gint done; /* atomic: the thread has ended */
};

/* Whether the rows may run beside each other. */
static gboolean overlap_wanted(void)
{
	const char *serial = g_getenv("ARMBOT_PIPELINE_SERIAL");

	return !serial || !*serial || !strcmp(serial, "0");
}

static gpointer sparse_beside_thread(gpointer data)
{
	struct sparse_beside *sb = data;
	struct sparse_check_opts so = SPARSE_CHECK_OPTS_INIT;

	if (SPARSE_BESIDE_NICE &&
	    setpriority(PRIO_PROCESS, 0, SPARSE_BESIDE_NICE) != 0)
		g_debug("sparse beside the boot: cannot lower its priority: %s",
			g_strerror(errno));
	sparse_opts(sb->r, sb->tree, &so);
	sb->ok = sparse_check_run(&so, &sb->res, &sb->error);
	sb->ended = g_get_monotonic_time();
	g_atomic_int_set(&sb->done, 1);
	return NULL;
}

/* Start sparse in a thread of its own (joined by sparse_join()). */
static gboolean sparse_start(struct run *r, GError **error)
{
	struct sparse_beside *sb = g_new0(struct sparse_beside, 1);

	progress(r, PIPELINE_STAGE_SPARSE, NULL);
	sb->r = r;
	sb->tree =
		tree_open_or_default(r->opts->data_dir, r->tree->name, error);
	if (!sb->tree) {
		g_free(sb);
		return FALSE;
	}
	sb->started = g_get_monotonic_time();
	sb->thread = g_thread_new("sparse", sparse_beside_thread, sb);
	r->sparse_beside = sb;
	progress(r, PIPELINE_STAGE_SPARSE, "beside the build and boot");
	return TRUE;
}

/* Wait for the sparse thread and write its line.  The outcome says how
 * long sparse ran beside the rest (the stage times add up to more than
 * the reply's time by that much). */
static gboolean sparse_join(struct run *r, GError **error)
{
	struct sparse_beside *sb = r->sparse_beside;
	gint64 joined = g_get_monotonic_time();
	gboolean ok;

	if (!sb)
		return TRUE;
	if (!g_atomic_int_get(&sb->done))
		progress(r, PIPELINE_STAGE_SPARSE, "waiting for it");
	g_thread_join(sb->thread);
	ok = sb->ok;
	if (ok)
		sparse_record(r, &sb->res);
	else
		g_propagate_error(error, g_steal_pointer(&sb->error));
	r->out->overlap_seconds += (MIN(joined, sb->ended) - sb->started) / 1e6;
	r->out->overlap_seconds = MAX(r->out->overlap_seconds, 0);
	sparse_check_result_clear(&sb->res);
	g_clear_error(&sb->error);
	tree_free(sb->tree);
	g_free(sb);
	r->sparse_beside = NULL;
	return ok;
}

/* The KUnit cases of @cases with their diagnostics. */
static void append_cases(GString *out, const char *what, GPtrArray *cases,
			 gboolean details)
{
	for (guint i = 0; i < cases->len; i++) {
		const struct ktap_case *k = cases->pdata[i];

		g_string_append_printf(
			out, "%s: %s.%s%s\n", what, k->suite, k->name,
			k->status == KTAP_CRASHED ? " (crashed)" : "");
		for (guint j = 0; details && k->diagnostics &&
				  j < MIN(k->diagnostics->len, DIAG_LINES);
		     j++)
			g_string_append_printf(
				out, "    %s\n",
				(char *)k->diagnostics->pdata[j]);
	}
}

static void keep_run_logs(struct run *r, const char *which,
			  const struct boot_run *run)
{
	g_autofree char *build = g_strdup_printf("build-%s.log", which);
	g_autofree char *console = g_strdup_printf("console-%s.log", which);

	if (run->build.log)
		write_log(r, build, run->build.log->str, run->build.log->len);
	if (run->vm.console)
		write_log(r, console, run->vm.console->str,
			  run->vm.console->len);
}

static void on_boot_wait(void)
{
}

static gboolean not_ok(const struct pipeline_check *c)
{
	return c->status == REPORT_STATUS_WARN ||
	       c->status == REPORT_STATUS_FAIL;
}

/* The reader's build, and boot, of the rpm-virt kernel for the checks of
 * it that are not ok: the steps of @bs (boot_session_steps()). */
static void boot_repro(struct run *r, struct boot_session *bs,
		       const struct boot_run *head)
{
	struct pipeline_check *build = &r->out->checks[REPORT_CHECK_BUILD];
	struct pipeline_check *bootc = &r->out->checks[REPORT_CHECK_BOOT];
	struct pipeline_check *rpm = &r->out->checks[REPORT_CHECK_RUNTIME_PM];
	g_autoptr(GPtrArray) steps = NULL;
	g_autoptr(GError) error = NULL;

	if (not_ok(build)) {
		/* the module's make only when it is what fails */
		steps = boot_session_steps(bs, head->module_failed, FALSE,
					   &error);
		set_repro(build,
			  "the " BOOT_CONFIG_NAME " kernel, allnoconfig with "
			  "armbot's qemu/virt.config",
			  steps,
			  head->module_failed ?
				  g_strdup("The kernel builds; the last make, "
					   "of armbot's runtime-PM KUnit "
					   "module rpm_test, fails.  Its "
					   "sources are qemu/guest/rpm-test/ in "
					   "armbot's, copied to "
					   "build/armbot-ext/rpm_test.") :
				  NULL);
	} else if (not_ok(bootc) || not_ok(rpm)) {
		g_autofree char *initramfs =
			boot_session_printable_initramfs(bs);
		const char *what =
			"the " BOOT_CONFIG_NAME " kernel, allnoconfig with "
			"armbot's qemu/virt.config, booted in QEMU's virt "
			"machine (which makes its own device tree)";
		const char *note_fmt =
			"%s is armbot's test initramfs: a static init "
			"that loads rpm_test.ko, the runtime-PM KUnit "
			"suite (qemu/guest/rpm-test/ in armbot's sources) "
			"built against this kernel, and powers the "
			"machine off.  armbot makes it (`armbot boot "
			"--tree %s SERIES.mbox` leaves it in its build "
			"dir); a kernel that does not reach userspace "
			"fails the same way with any initramfs.";

		steps = boot_session_steps(bs, FALSE, TRUE, &error);
		if (not_ok(bootc))
			set_repro(bootc, what, steps,
				  g_strdup_printf(note_fmt, initramfs,
						  r->tree->name));
		if (not_ok(rpm))
			set_repro(rpm, what, steps,
				  g_strdup_printf(note_fmt, initramfs,
						  r->tree->name));
	}
	if (error)
		g_warning("cannot say how to reproduce the build: %s",
			  error->message);
}

/* CONFIG_CC_VERSION_TEXT of @build_dir's .config ("arm-linux-gnueabihf-gcc
 * (Debian 12.2.0-14) 12.2.0"), or NULL. */
static char *cc_version_text(const char *build_dir)
{
	static const char key[] = "CONFIG_CC_VERSION_TEXT=\"";
	g_autofree char *path = g_build_filename(build_dir, ".config", NULL);
	g_autofree char *config = NULL;
	const char *p, *end;

	if (!g_file_get_contents(path, &config, NULL, NULL))
		return NULL;
	p = strstr(config, key);
	if (!p || (p != config && p[-1] != '\n'))
		return NULL;
	p += sizeof(key) - 1;
	end = strchr(p, '"');
	return end ? g_strndup(p, end - p) : NULL;
}

/* The build, boot and suite times of one boot_session_run(): the boot
 * until init started (the guest's uptime then), the suite from there to
 * QEMU's exit. */
static void boot_times(struct run *r, const struct boot_run *run)
{
	struct timing *t = &r->out->timing;
	double boot = run->vm.uptime >= 0 && run->vm.uptime <= run->vm.seconds ?
			      run->vm.uptime :
			      run->vm.seconds;

	timing_add(t, TIMING_BUILD, run->build.seconds + run->module_seconds);
	if (!run->built)
		return;
	timing_add(t, TIMING_BOOT, boot);
	timing_add(t, TIMING_SUITE, run->vm.seconds - boot);
}

static gboolean boot(struct run *r, GError **error)
{
	struct pipeline_check *build = &r->out->checks[REPORT_CHECK_BUILD];
	struct pipeline_check *bootc = &r->out->checks[REPORT_CHECK_BOOT];
	struct pipeline_check *rpm = &r->out->checks[REPORT_CHECK_RUNTIME_PM];
	struct boot_options bo = { 0 };
	g_autoptr(boot_session) bs = NULL;
	struct boot_run base = { 0 }, head = { 0 };
	struct ktap_diff diff = { 0 };
	gboolean have_base = FALSE, ok = FALSE;
	const char *why;

	bo.data_dir = r->opts->data_dir;
	bo.tree = r->tree;
	bo.timeout_s = r->opts->boot_timeout_s;
	bo.jobs = r->opts->jobs;
	bo.icecc = r->opts->icecc;
	bo.runner = r->opts->boot_runner;
	bo.find_job = r->opts->find_job;
	bo.save_job = r->opts->save_job;
	bo.job_data = r->opts->job_data;
	/* a base booted for an earlier series is not booted again */
	bo.reuse_trusted = !r->opts->no_base_cache;
	bs = boot_session_open(&bo, on_boot_wait, error);
	if (!bs)
		return FALSE;
	progress(r, PIPELINE_STAGE_BOOT_BASE, NULL);
	if (!boot_session_run(bs, &r->am->base, KBUILD_TRUSTED, &base, error))
		goto out;
	keep_run_logs(r, "base", &base);
	boot_times(r, &base);
	have_base = base.built && virt_result_ok(&base.vm);
	progress(r, PIPELINE_STAGE_BOOT_HEAD, NULL);
	/* a series that changes no file the base's build read has the
	 * base's kernel: its boot is the base's (a DTS of another board, a
	 * driver this config does not build, documentation) */
	if (!(bo.reuse_trusted && have_base &&
	      boot_session_run_unaffected(bs, &r->am->base, &base,
					  (const char *const *)r->files->pdata,
					  r->files->len, &head)) &&
	    !boot_session_run(bs, &r->am->head, KBUILD_SERIES, &head, error))
		goto out;
	keep_run_logs(r, "series", &head);
	boot_times(r, &head);
	ok = TRUE;

	build->seconds = head.build.seconds + head.module_seconds;
	if (!head.built) {
		const struct kbuild *kb = boot_session_kbuild(bs);
		/* never the log's tail: the series' Makefiles print there */
		g_autofree char *lines = buildlog_excerpt(
			head.build.log ? head.build.log->str : "", r->files,
			kb->src_dir, kb->build_dir, TAIL_LINES);
		g_autofree char *excerpt = indent_lines(lines, "| ", 0);

		set_check(build,
			  base.built ? REPORT_STATUS_FAIL : REPORT_STATUS_WARN,
			  NULL,
			  g_strdup_printf("%s%s", head.build.how,
					  base.built ? "" :
						       " (the base fails too)"),
			  g_strdup_printf(
				  "The kernel (%s, ARCH=arm) does not build "
				  "with the series (%s)%s\n%s",
				  BOOT_CONFIG_NAME, head.build.how,
				  *excerpt ? "; what the compiler and make "
					     "said about its files:" :
					     ".  Neither the compiler nor "
					     "make named one of its files; "
					     "the rest of the build's output "
					     "is not quoted.",
				  excerpt));
		skip_check(bootc, "the kernel does not build");
		skip_check(rpm, "the kernel does not build");
		goto out;
	}
	r->out->compiler = cc_version_text(boot_session_kbuild(bs)->build_dir);
	{
		/* where it compiled, when the tree is on icecream */
		const char *note = boot_session_build_note(bs);

		if (head.unaffected)
			set_check(build, REPORT_STATUS_OK, NULL,
				  g_strdup_printf("%s, not rebuilt: the series "
						  "changes no file it reads",
						  BOOT_CONFIG_NAME),
				  NULL);
		else
			set_check(build, REPORT_STATUS_OK, NULL,
				  g_strdup_printf(
					  "%s, %.0f s%s%s%s", BOOT_CONFIG_NAME,
					  build->seconds, note ? " (" : "",
					  note ? note : "", note ? ")" : ""),
				  NULL);
	}

	bootc->seconds = head.vm.seconds;
	if (head.vm.canceled) {
		/* the lab's decision, not the kernel's result: said as such,
		 * never as a failure of the series */
		skip_check(bootc,
			   head.vm.how ? head.vm.how : "canceled by LAVA");
		skip_check(rpm, "the boot was canceled by LAVA");
		goto out;
	}
	why = boot_failure_reason(&head.vm);
	if (why) {
		g_autofree char *tail =
			indent_lines(head.vm.console->str, "| ", TAIL_LINES);

		set_check(bootc,
			  have_base ? REPORT_STATUS_FAIL : REPORT_STATUS_WARN,
			  NULL,
			  g_strdup_printf("%s%s", why,
					  have_base ? "" :
						      " (the base fails too)"),
			  g_strdup_printf("qemu-system-arm -M virt: %s after "
					  "%.1f s; the last %d console "
					  "lines:\n%s",
					  why, head.vm.seconds, TAIL_LINES,
					  tail));
	} else {
		set_check(bootc, REPORT_STATUS_OK, NULL,
			  g_strdup_printf("userspace at %.1f s%s",
					  head.vm.uptime,
					  head.unaffected ? " (the base's "
							    "kernel)" :
							    ""),
			  NULL);
	}
	/* where it booted (qemu/runner.h): "booted on LAVA job 12, ..." */
	if (head.booted_where || head.fell_back) {
		g_autofree char *old = bootc->summary;

		bootc->summary = g_strdup_printf(
			"%s (%s%s)", old ? old : "",
			head.booted_where ? head.booted_where : "booted here: ",
			head.booted_where ? "" : head.fell_back);
	}

	ktap_compare(have_base ? base.ktap : NULL, head.ktap, &diff);
	rpm->seconds = head.vm.seconds;
	if (!head.ktap || !head.ktap->cases->len) {
		set_check(rpm, REPORT_STATUS_FAIL, NULL,
			  g_strdup("no KUnit results"),
			  g_strdup("The runtime-PM KUnit suite printed no "
				   "results (see the boot's console).\n"));
	} else if (diff.new_failures->len || diff.not_run->len) {
		GString *d = g_string_new(
			have_base ? "KUnit cases that fail with the series "
				    "and passed at the base:\n" :
				    "KUnit cases that fail:\n");

		append_cases(d, "new failure", diff.new_failures, TRUE);
		append_cases(d, "not run", diff.not_run, FALSE);
		set_check(rpm, REPORT_STATUS_FAIL, NULL,
			  g_strdup_printf("%u new failures, %u not run, "
					  "%u passed",
					  diff.new_failures->len,
					  diff.not_run->len, diff.passed->len),
			  g_string_free(d, FALSE));
	} else {
		GString *s = g_string_new(NULL);

		g_string_printf(s, "%u passed", diff.passed->len);
		if (diff.fixed->len)
			g_string_append_printf(s, ", %u fixed",
					       diff.fixed->len);
		if (diff.still_failing->len)
			g_string_append_printf(s,
					       ", %u failing at the base too",
					       diff.still_failing->len);
		if (diff.skipped->len)
			g_string_append_printf(s, ", %u skipped",
					       diff.skipped->len);
		set_check(rpm, REPORT_STATUS_OK, NULL, g_string_free(s, FALSE),
			  NULL);
	}
	ktap_diff_clear(&diff);
out:
	if (ok)
		boot_repro(r, bs, &head);
	boot_run_clear(&base);
	boot_run_clear(&head);
	return ok;
}

/* The map's board that the boot check boots (rpm-virt): not booted again
 * as a board of the series. */
#define VIRT_BOARD "virt"

static void pipeline_board_free(gpointer p)
{
	struct pipeline_board *b = p;

	g_free(b->name);
	g_free(b->summary);
	g_free(b->reason);
	g_free(b->detail);
	g_free(b);
}

static struct pipeline_board *add_board(struct run *r,
					const struct board_choice *c,
					enum report_status status,
					char *summary)
{
	struct pipeline_board *b = g_new0(struct pipeline_board, 1);

	if (!r->out->boards)
		r->out->boards =
			g_ptr_array_new_with_free_func(pipeline_board_free);
	b->name = g_strdup(c->board->name);
	b->status = status;
	b->summary = summary;
	b->reason = g_strdup(c->reason);
	g_ptr_array_add(r->out->boards, b);
	return b;
}

/* Build and boot @commit for the board of @bs (its logs kept as
 * build-BOARD-@which.log and console-BOARD-@which.log); *@words is the
 * board's verdict (boot_board_verdict()) or why it did not build.  TRUE
 * in *@good when it booted clean. */
static gboolean board_run(struct run *r, struct boot_session *bs,
			  const struct board *board,
			  const struct gitoid *commit, enum kbuild_trust trust,
			  const char *which, struct boot_run *run,
			  gboolean *good, char **words, GError **error)
{
	g_autofree char *detail =
		g_strdup_printf("%s (%s)", board->name, which);
	g_autofree char *logs = g_strdup_printf("%s-%s", board->name, which);

	progress(r, PIPELINE_STAGE_BOARDS, detail);
	if (!boot_session_run(bs, commit, trust, run, error))
		return FALSE;
	keep_run_logs(r, logs, run);
	boot_times(r, run);
	if (!run->built) {
		*good = FALSE;
		*words = g_strdup_printf("does not build (%s)",
					 run->build.how ? run->build.how :
							  "see the log");
		return TRUE;
	}
	*good = boot_board_verdict(&run->vm, words);
	return TRUE;
}

/* What the reply shows of a board's failed run at the head. */
static char *board_detail(struct run *r, struct boot_session *bs,
			  const struct board *board,
			  const struct boot_run *head, const char *words)
{
	if (!head->built) {
		const struct kbuild *kb = boot_session_kbuild(bs);
		g_autofree char *lines = buildlog_excerpt(
			head->build.log ? head->build.log->str : "", r->files,
			kb->src_dir, kb->build_dir, TAIL_LINES);
		g_autofree char *excerpt = indent_lines(lines, "| ", 0);

		return g_strdup_printf(
			"The kernel of board %s (rpm-%s, ARCH=arm) does not "
			"build with the series (%s)%s\n%s",
			board->name, board->name, head->build.how,
			*excerpt ? "; what the compiler and make said about "
				   "its files:" :
				   ".",
			excerpt);
	}
	{
		const char *console = head->vm.console ? head->vm.console->str :
							 "";
		/* the kernel's first line: without it, the console never
		 * came up (what shows is QEMU's own) */
		gboolean kernel = strstr(console, "Linux version") != NULL;
		g_autofree char *tail = indent_lines(console, "| ", TAIL_LINES);

		return g_strdup_printf(
			"Board %s (qemu-system-arm -M %s%s%s, console=%s): "
			"%s after %.1f s%s%s; %s\n%s",
			board->name, board->machine, board->dtb ? " -dtb " : "",
			board->dtb ? board->dtb : "", board->console, words,
			head->vm.seconds,
			kernel ? "" : "; the kernel printed nothing on ",
			kernel ? "" : board->console,
			*tail ? "the last console lines:" :
				"the console stayed empty.",
			tail);
	}
}

/* The reader's build and boot of the board the series breaks, for the
 * boot check it makes FAIL (unless virt's boot failed too: then the
 * check says how to reproduce that one). */
static void board_repro(struct run *r, struct boot_session *bs,
			const struct board *board, const struct boot_run *head)
{
	struct pipeline_check *bootc = &r->out->checks[REPORT_CHECK_BOOT];
	g_autoptr(GPtrArray) steps = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *what = NULL;
	g_autofree char *initramfs = NULL;

	if (bootc->repro_what)
		return;
	steps = boot_session_steps(bs, FALSE, head->built, &error);
	if (!steps) {
		g_warning("cannot say how to reproduce board %s: %s",
			  board->name, error->message);
		return;
	}
	initramfs = boot_session_printable_initramfs(bs);
	what = g_strdup_printf(
		"the kernel of board %s, allnoconfig with armbot's %s, "
		"%s QEMU's %s machine%s%s",
		board->name, board->fragment[0],
		head->built ? "booted in" : "built for", board->machine,
		board->dtb ? " with the DTB of the build, " : "",
		board->dtb ? board->dtb : "");
	set_repro(bootc, what, steps,
		  head->built ?
			  g_strdup_printf(
				  "%s is armbot's test initramfs (a static "
				  "init that loads the runtime-PM KUnit "
				  "module and powers the machine off; "
				  "`armbot boot --board %s --tree %s "
				  "SERIES.mbox` leaves it in its build dir); "
				  "a kernel that does not reach userspace "
				  "fails the same way with any initramfs.",
				  initramfs, board->name, r->tree->name) :
			  NULL);
}

/* One board that boots here: the head, and when it fails the base (to
 * tell a failure the series causes from one that was there before).
 * The same session as `armbot boot --board` (qemu/boot.h): the board's
 * build dir rpm-BOARD, the sandbox, the tree's ccache. */
static gboolean board_check(struct run *r, const struct board_choice *c,
			    GError **error)
{
	const struct board *board = c->board;
	struct boot_options bo = { 0 };
	g_autoptr(boot_session) bs = NULL;
	g_autoptr(GError) open_error = NULL;
	struct boot_run base = { 0 }, head = { 0 };
	g_autofree char *head_words = NULL, *base_words = NULL;
	gboolean head_good = FALSE, base_good = FALSE, ok = FALSE;
	struct pipeline_board *pb;
	gint64 t0 = g_get_monotonic_time();

	bo.data_dir = r->opts->data_dir;
	bo.tree = r->tree;
	bo.board = board;
	bo.timeout_s = r->opts->boot_timeout_s;
	bo.jobs = r->opts->jobs;
	bo.reuse_trusted = !r->opts->no_base_cache;
	/* boards boot here: LAVA devices are virt's (qemu/runner.h) */
	bs = boot_session_open(&bo, on_boot_wait, &open_error);
	if (!bs) {
		/* a map entry this armbot cannot build: listed, not fatal */
		if (!g_error_matches(open_error, G_IO_ERROR,
				     G_IO_ERROR_NOT_SUPPORTED)) {
			g_propagate_error(error, g_steal_pointer(&open_error));
			return FALSE;
		}
		add_board(r, c, REPORT_STATUS_SKIPPED,
			  g_strdup_printf("not booted: %s",
					  open_error->message));
		return TRUE;
	}
	if (!board_run(r, bs, board, &r->am->head, KBUILD_SERIES, "series",
		       &head, &head_good, &head_words, error))
		goto out;
	if (head_good) {
		pb = add_board(r, c, REPORT_STATUS_OK,
			       g_steal_pointer(&head_words));
	} else {
		if (!board_run(r, bs, board, &r->am->base, KBUILD_TRUSTED,
			       "base", &base, &base_good, &base_words, error))
			goto out;
		pb = add_board(
			r, c,
			base_good ? REPORT_STATUS_FAIL : REPORT_STATUS_WARN,
			g_strdup_printf("%s%s", head_words,
					base_good ? "" :
						    " (the base fails too)"));
		pb->detail = board_detail(r, bs, board, &head, head_words);
		if (base_good)
			board_repro(r, bs, board, &head);
	}
	pb->seconds = (g_get_monotonic_time() - t0) / 1e6;
	ok = TRUE;
out:
	boot_run_clear(&base);
	boot_run_clear(&head);
	return ok;
}

/* The boards @r's paths select: the map's globs and the paths the tree
 * at the series' base derives (qemu/boardderive.h, cached under
 * CACHE/boards); the globs alone when the base cannot be read. */
static GPtrArray *boards_select(struct run *r, const struct board_map *map)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(gitrepo) repo = gitrepo_open(r->tree->git_dir, &error);
	g_autoptr(boardderive) d = NULL;
	g_autofree char *cache = datadir_cache_dir();
	g_autofree char *dir = g_build_filename(cache, "boards", NULL);

	if (repo)
		d = boardderive_new(repo, &r->am->base, map, dir, NULL, &error);
	if (!d) {
		g_warning("boards: the map's globs only: %s", error->message);
		return board_select(map, (const char *const *)r->files->pdata,
				    r->files->len);
	}
	return boardderive_select(d, map, (const char *const *)r->files->pdata,
				  r->files->len);
}

/* The boards the series' paths select (boards_select()) besides virt,
 * which the boot check boots: each board the map marks boots = yes is
 * built and booted (board_check()); one that does not boot here is
 * listed with the map's reason.  A board the series breaks makes the
 * boot check FAIL. */
static gboolean boards(struct run *r, GError **error)
{
	struct pipeline_check *bootc = &r->out->checks[REPORT_CHECK_BOOT];
	g_autoptr(board_map) map = board_map_load(NULL, error);
	g_autoptr(GPtrArray) chosen = NULL;
	g_autoptr(GString) broken = g_string_new(NULL);

	if (!map)
		return FALSE;
	chosen = boards_select(r, map);
	for (guint i = 0; i < chosen->len; i++) {
		const struct board_choice *c = chosen->pdata[i];
		const struct board *b = c->board;

		if (!strcmp(b->name, VIRT_BOARD))
			continue;
		if (!b->boots) {
			add_board(r, c, REPORT_STATUS_SKIPPED,
				  g_strdup_printf("not booted here: %s",
						  b->not_booting ?
							  b->not_booting :
							  "not tried yet"));
			continue;
		}
		if (!board_check(r, c, error))
			return FALSE;
	}
	for (guint i = 0; r->out->boards && i < r->out->boards->len; i++) {
		const struct pipeline_board *b = r->out->boards->pdata[i];

		if (b->status == REPORT_STATUS_FAIL)
			g_string_append_printf(broken, "%s%s",
					       broken->len ? ", " : "",
					       b->name);
	}
	if (broken->len) {
		g_autofree char *old = bootc->summary;

		bootc->summary = g_strdup_printf("%s%sfails on %s",
						 old ? old : "",
						 old ? "; " : "", broken->str);
		r->out->board_failed = TRUE;
		r->out->virt_boot = bootc->status;
		bootc->status = REPORT_STATUS_FAIL;
		g_clear_pointer(&bootc->reason, g_free);
	}
	return TRUE;
}

gboolean pipeline_outcome_has_problems(const struct pipeline_outcome *out)
{
	for (int i = 0; i < REPORT_N_CHECKS; i++)
		if (out->checks[i].status == REPORT_STATUS_FAIL ||
		    out->checks[i].status == REPORT_STATUS_WARN)
			return TRUE;
	return FALSE;
}

/* Whether @url is one the public can fetch from, not a path of the bot's
 * machine: "https://...", "git://...", scp-like "host:path". */
static gboolean url_is_public(const char *url)
{
	const char *colon = url ? strchr(url, ':') : NULL;

	if (!colon || url[0] == '/' || g_str_has_prefix(url, "file:"))
		return FALSE;
	return g_str_has_prefix(colon, "://") || !memchr(url, '/', colon - url);
}

/* The tree and base of the reply's "To reproduce": a git tree's URL and
 * branch, or the Debian package, its version at the base (the
 * debian/VERSION tag of the import the series went onto, kernel/tree/tree.h)
 * and the base's root tree, written into @tree_hex; *@version_out is
 * newly allocated. */
static void repro_tree(struct run *r, struct report_reproduce *p,
		       char tree_hex[GITOID_HEXSZ + 1], char **version_out)
{
	struct gitoid base_tree;

	p->base = r->out->base_commit;
	if (lg2repo_commit_tree(r->tree->repo, &r->am->base, &base_tree))
		gitoid_to_hex(&base_tree, tree_hex);
	if (*tree_hex)
		p->base_tree = tree_hex;
	if (r->tree->kind == TREE_KIND_DISTRO) {
		g_autofree char *tag = lg2repo_ref_glob_find(
			r->tree->repo, "refs/tags/debian/*", &r->am->base);

		*version_out = tag ? g_strdup(strrchr(tag, '/') + 1) :
				     g_strdup(r->tree->version);
		p->distro_package = TREE_DISTRO_PACKAGE;
		p->distro_version = *version_out;
		/* the package's path, not the one armbot was pointed at */
		p->distro_tarball = TREE_DISTRO_TARBALL;
	} else if (url_is_public(r->tree->url)) {
		p->tree_url = r->tree->url;
		p->tree_branch = r->tree->head_branch;
	}
}

/* What the reader's git am does for a series that does not apply:
 * "git am stops at patch 2/3, ...".  NULL for one that applies. */
static char *repro_apply(struct run *r)
{
	if (r->out->checks[REPORT_CHECK_APPLY].status != REPORT_STATUS_FAIL)
		return NULL;
	for (guint i = 0; i < r->am->patches->len; i++) {
		const struct am_patch *p = r->am->patches->pdata[i];

		if (!p->applied)
			return g_strdup_printf(
				"git am stops at patch %u/%u, the first that "
				"does not apply here",
				p->number, r->am->patches->len);
	}
	return NULL;
}

static gboolean render(struct run *r, GError **error)
{
	struct pipeline_outcome *out = r->out;
	struct report rep = { 0 };
	g_autofree char *check_line = NULL;
	g_autofree char *author = message_author(r->parent);
	g_autofree char *distro_version = NULL;
	g_autofree char *mbox_url = NULL;
	g_autofree char *apply_what = NULL;
	char base_tree[GITOID_HEXSZ + 1] = "";
	g_autofree struct report_board *boards = NULL;

	progress(r, PIPELINE_STAGE_REPORT, NULL);
	rep.bot_name = r->opts->bot_name;
	rep.bot_address = r->opts->bot_address;
	rep.author_name = r->parent->from_name;
	rep.author_email = r->parent->from_email;
	rep.list_address = r->opts->no_list || (out->not_tested &&
						r->opts->not_tested_no_list) ?
				   NULL :
				   out->list;
	rep.subject = r->parent->subject;
	rep.parent_message_id = out->parent_message_id;
	rep.parent_references = r->parent->references;
	rep.version = r->series->version ? r->series->version : 1;
	rep.date = r->opts->date ? r->opts->date :
				   g_get_real_time() / G_USEC_PER_SEC;
	rep.tree_name = out->tree_name;
	rep.tree_description = out->tree_description;
	rep.base_commit = out->base_commit;
	rep.base_how = out->base_how;
	rep.base_reason = out->base_reason;
	rep.not_tested = out->not_tested;
	rep.verdict = out->verdict;
	rep.arm64 = out->arm64;
	rep.dirstat = out->dirstat;
	rep.similar = out->similar;
	for (int i = 0; i < REPORT_N_CHECKS; i++) {
		rep.checks[i].status = out->checks[i].status;
		rep.checks[i].reason = out->checks[i].reason;
		rep.checks[i].summary = out->checks[i].summary;
		rep.checks[i].detail = out->checks[i].detail;
		rep.reproduce.checks[i].what = out->checks[i].repro_what;
		rep.reproduce.checks[i].steps = out->checks[i].repro_steps;
		rep.reproduce.checks[i].note = out->checks[i].repro_note;
	}
	if (out->boards && out->boards->len) {
		boards = g_new0(struct report_board, out->boards->len);
		for (guint i = 0; i < out->boards->len; i++) {
			const struct pipeline_board *b = out->boards->pdata[i];

			boards[i].name = b->name;
			boards[i].status = b->status;
			boards[i].summary = b->summary;
			boards[i].reason = b->reason;
			boards[i].detail = b->detail;
		}
		rep.boards = boards;
		rep.n_boards = out->boards->len;
	}
	repro_tree(r, &rep.reproduce, base_tree, &distro_version);
	/* b4 finds the series on the list by a Message-ID it had */
	if (!r->parent->message_id_synthesised)
		rep.reproduce.message_id = out->parent_message_id;
	if (r->opts->series_url && *r->opts->series_url) {
		mbox_url = g_strconcat(r->opts->series_url, "/mbox", NULL);
		rep.reproduce.mbox_url = mbox_url;
	}
	apply_what = repro_apply(r);
	if (apply_what)
		rep.reproduce.checks[REPORT_CHECK_APPLY].what = apply_what;
	check_line = g_strdup_printf("armbot check --tree %s '<%s>'",
				     out->tree_name, out->parent_message_id);
	rep.reproduce.armbot_check = check_line;
	rep.series_url = r->opts->series_url;
	out->message_id = report_message_id(out->parent_message_id, rep.version,
					    out->tree_name, rep.bot_address);
	rep.message_id = out->message_id;
	out->reply_body = report_render_body(&rep, error);
	if (!out->reply_body)
		return FALSE;
	out->reply = report_render(&rep, error);
	if (!out->reply)
		return FALSE;
	out->recipients = report_recipients(&rep);
	write_log(r, "reply.eml", g_bytes_get_data(out->reply, NULL),
		  g_bytes_get_size(out->reply));
	return TRUE;
}

static gboolean make_log_dir(struct run *r, GError **error)
{
	g_autofree char *dir =
		g_build_filename(r->out->log_dir, r->out->tree_name, NULL);

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return FALSE;
	}
	g_free(r->out->log_dir);
	r->out->log_dir = g_steal_pointer(&dir);
	return TRUE;
}

/* The checks, in the order they run: each fills report checks of its own
 * (the reply's lines) and may need a clean apply before it.  A check
 * that cannot run says why in each of its lines; one that the options
 * turn off says which option.  New checks (more boards, other runners)
 * are new rows. */
struct check_op {
	const char *name; /* for a reader of the table */
	gboolean (*run)(struct run *r, GError **error);
	/* the report checks it fills, ended by REPORT_N_CHECKS */
	enum report_check_kind fills[REPORT_N_CHECKS + 1];
	/* runs only when the series applied cleanly */
	gboolean needs_apply;
	/* is it turned off by @opts?  The option that did it, or NULL */
	const char *(*off)(const struct pipeline_options *opts);
	/* it gives the verdict: runs in a verdict_only run too */
	gboolean verdict;
	/* a row that may run beside the rows after it (overlap_wanted()):
	 * started instead of run, joined after the last row; it writes
	 * its lines when joined */
	gboolean (*start)(struct run *r, GError **error);
	gboolean (*join)(struct run *r, GError **error);
};

static const char *sparse_off(const struct pipeline_options *opts)
{
	return opts->sparse ? NULL : "--no-sparse";
}

static const char *boot_off(const struct pipeline_options *opts)
{
	return opts->boot ? NULL : "--no-boot";
}

static const char *boards_off(const struct pipeline_options *opts)
{
	if (!opts->boot)
		return "--no-boot";
	return opts->boards ? NULL : "--no-boards";
}

static const struct check_op check_ops[] = {
	{
		.name = "apply",
		.run = apply,
		.fills = { REPORT_CHECK_APPLY, REPORT_N_CHECKS },
		.verdict = TRUE,
	},
	{
		/* the dirstat of what applied, also of a partial apply: no
		 * line of its own, the verdict heads the reply */
		.name = "dirstat",
		.run = dirstat,
		.fills = { REPORT_N_CHECKS },
		.verdict = TRUE,
	},
	{
		/* near-copies, drivers in the wrong place: after the dirstat
		 * in the reply, no line of its own */
		.name = "similar",
		.run = similar,
		.fills = { REPORT_N_CHECKS },
	},
	{
		.name = "sparse",
		.run = sparse,
		.fills = { REPORT_CHECK_SPARSE, REPORT_N_CHECKS },
		.needs_apply = TRUE,
		.off = sparse_off,
		.start = sparse_start,
		.join = sparse_join,
	},
	{
		.name = "boot",
		.run = boot,
		.fills = { REPORT_CHECK_BUILD, REPORT_CHECK_BOOT,
			   REPORT_CHECK_RUNTIME_PM, REPORT_N_CHECKS },
		.needs_apply = TRUE,
		.off = boot_off,
	},
	{
		/* the boards the series selects besides virt: lines of
		 * their own after the checks; a board the series breaks
		 * makes the boot check FAIL */
		.name = "boards",
		.run = boards,
		.fills = { REPORT_N_CHECKS },
		.needs_apply = TRUE,
		.off = boards_off,
	},
};

static void skip_op(struct run *r, const struct check_op *op, const char *why)
{
	for (const enum report_check_kind *k = op->fills; *k != REPORT_N_CHECKS;
	     k++)
		skip_check(&r->out->checks[*k], why);
}

/* After an apply that failed: why the checks that need one do not run,
 * and, at the head of a tree the series was not written for (the base
 * unknown), why the series counts as not tested. */
static const char *apply_failed(struct run *r)
{
	struct pipeline_outcome *out = r->out;
	struct pipeline_check *c = &out->checks[REPORT_CHECK_APPLY];
	const char *why;

	if (out->base_known)
		return "the series does not apply";
	/* a failure there says nothing about the series */
	if (r->guess.prerequisites_missing) {
		out->not_tested = g_strdup_printf(
			"%u of its prerequisite patches are in no branch of "
			"%s, and without them it does not apply at its "
			"base-commit (%s)",
			r->guess.prerequisites_missing, out->tree_name,
			c->summary ? c->summary : "does not apply");
		why = "its prerequisite patches are missing";
	} else {
		out->not_tested = g_strdup_printf(
			"its base is unknown and it does not apply at the "
			"head of %s (%s)",
			r->tree->head_branch ? r->tree->head_branch :
					       out->tree_name,
			c->summary ? c->summary : "does not apply");
		why = "the base of the series is unknown";
	}
	g_free(c->reason);
	c->reason = g_strdup(why);
	c->status = REPORT_STATUS_SKIPPED;
	return why;
}

/* A series whose patches are commits of the tree already: nothing to
 * test, the dirstat of those commits and the list of them. */
static gboolean already_applied(struct run *r, GError **error)
{
	struct pipeline_outcome *out = r->out;
	const char *why = "the series is applied already";
	GString *d = g_string_new("The patches are commits of ");

	g_string_append_printf(d, "%s already:\n", out->tree_name);
	for (guint i = 0; i < out->applied_commits->len; i++)
		g_string_append_printf(d, "  %u/%u %s\n", i + 1,
				       out->applied_commits->len,
				       (char *)out->applied_commits->pdata[i]);
	set_check(&out->checks[REPORT_CHECK_APPLY], REPORT_STATUS_SKIPPED, why,
		  NULL, g_string_free(d, FALSE));
	for (int k = REPORT_CHECK_SPARSE; k < REPORT_N_CHECKS; k++)
		skip_check(&out->checks[k], why);
	return dirstat(r, error);
}

/* Why row @op does not run, or NULL. */
static const char *op_skipped(struct run *r, const struct check_op *op,
			      const char **not_applied)
{
	if (op->needs_apply && !*not_applied &&
	    r->out->checks[REPORT_CHECK_APPLY].status != REPORT_STATUS_OK)
		*not_applied = apply_failed(r);
	if (op->needs_apply && *not_applied)
		return *not_applied;
	return op->off ? op->off(r->opts) : NULL;
}

/* Does a row after row @i run (a row started beside has company)?  The
 * apply has run by then. */
static gboolean later_row_runs(struct run *r, gsize i)
{
	for (gsize j = i + 1; j < G_N_ELEMENTS(check_ops); j++) {
		const struct check_op *op = &check_ops[j];

		if (op->needs_apply &&
		    r->out->checks[REPORT_CHECK_APPLY].status !=
			    REPORT_STATUS_OK)
			continue;
		if (!op->off || !op->off(r->opts))
			return TRUE;
	}
	return FALSE;
}

/* Every row of check_ops in turn, a row with a start beside the rows
 * after it (joined at the end, in order).  FALSE only when a check could
 * not run at all (the error); what the series does is in the outcome. */
static gboolean run_checks(struct run *r, GError **error)
{
	const char *not_applied = NULL;
	gboolean ok = TRUE;

	for (gsize i = 0; ok && i < G_N_ELEMENTS(check_ops); i++) {
		const struct check_op *op = &check_ops[i];
		const char *why;

		if (r->opts->verdict_only && !op->verdict)
			break;
		why = op_skipped(r, op, &not_applied);
		if (why) {
			skip_op(r, op, why);
			continue;
		}
		if (op->start && later_row_runs(r, i)) {
			g_free(r->sparse_worktree_key);
			r->sparse_worktree_key =
				g_strconcat(r->tree->name, ".sparse", NULL);
		}
		if (op->start && overlap_wanted() && later_row_runs(r, i))
			ok = op->start(r, error);
		else
			ok = op->run(r, error);
	}
	for (gsize i = 0; i < G_N_ELEMENTS(check_ops); i++) {
		const struct check_op *op = &check_ops[i];
		g_autoptr(GError) later = NULL;

		/* a thread is always joined; the first error is kept */
		if (op->join && !op->join(r, ok ? error : &later))
			ok = FALSE;
	}
	return ok;
}

gboolean pipeline_check(struct store *st, gint64 series_id,
			const struct pipeline_options *opts,
			struct pipeline_outcome *out, GError **error)
{
	struct run r = { 0 };
	gint64 t0 = g_get_monotonic_time(), t_render;
	gboolean ok = FALSE;

	memset(out, 0, sizeof(*out));
	timing_init(&out->timing);
	out->series_id = series_id;
	r.opts = opts;
	r.out = out;
	r.subjects = g_ptr_array_new_with_free_func(g_free);
	r.commits = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	r.files = g_ptr_array_new_with_free_func(g_free);
	g_mutex_init(&r.progress_lock);

	progress(&r, PIPELINE_STAGE_SERIES, NULL);
	if (!load_series(&r, st, series_id, error))
		goto out;
	if (opts->verdict_only && opts->verdict_wanted &&
	    !opts->verdict_wanted(out->list, opts->verdict_data)) {
		ok = TRUE;
		goto out;
	}
	progress(&r, PIPELINE_STAGE_TREE, opts->tree_name);
	r.tree = tree_open_or_default(opts->data_dir, opts->tree_name, error);
	if (!r.tree)
		goto out;
	out->tree_name = g_strdup(r.tree->name);
	out->tree_description = tree_description(r.tree);
	out->tree_reason = g_strdup(opts->tree_reason ?
					    opts->tree_reason :
					    "the distro tree (default)");
	if (!make_log_dir(&r, error) || !write_mbox(&r, st, error) ||
	    !find_base(&r, error))
		goto out;
	if (r.guess.how == BASEGUESS_APPLIED ? !already_applied(&r, error) :
					       !run_checks(&r, error))
		goto out;
	if (opts->verdict_only) {
		ok = TRUE;
		goto out;
	}
	t_render = g_get_monotonic_time();
	ok = render(&r, error);
	timing_add(&out->timing, TIMING_COMPOSE,
		   (g_get_monotonic_time() - t_render) / 1e6);
out:
	out->seconds = (g_get_monotonic_time() - t0) / 1e6;
	g_clear_pointer(&r.series, store_series_free);
	g_clear_pointer(&r.parent, message_free);
	g_clear_pointer(&r.am, am_series_free);
	g_clear_pointer(&r.tree, tree_free);
	baseguess_result_clear(&r.guess);
	g_free(r.mbox_path);
	g_ptr_array_unref(r.subjects);
	g_array_unref(r.commits);
	g_ptr_array_unref(r.files);
	g_mutex_clear(&r.progress_lock);
	g_free(r.sparse_worktree_key);
	return ok;
}

void pipeline_outcome_clear(struct pipeline_outcome *out)
{
	g_free(out->tree_name);
	g_free(out->tree_description);
	g_free(out->tree_reason);
	g_free(out->base_commit);
	g_free(out->head_commit);
	g_free(out->base_reason);
	g_free(out->not_tested);
	g_clear_pointer(&out->applied_commits, g_ptr_array_unref);
	g_clear_pointer(&out->verdict, dirstat_verdict_free);
	g_clear_pointer(&out->arm64, dirstat_verdict_free);
	g_free(out->verdict_json);
	g_free(out->dirstat);
	g_free(out->similar);
	for (int i = 0; i < REPORT_N_CHECKS; i++) {
		g_free(out->checks[i].reason);
		g_free(out->checks[i].summary);
		g_free(out->checks[i].detail);
		g_free(out->checks[i].repro_what);
		g_clear_pointer(&out->checks[i].repro_steps, g_ptr_array_unref);
		g_free(out->checks[i].repro_note);
	}
	g_clear_pointer(&out->boards, g_ptr_array_unref);
	g_free(out->log_dir);
	g_free(out->compiler);
	g_free(out->message_id);
	g_free(out->parent_message_id);
	g_free(out->list);
	g_free(out->author_email);
	g_clear_pointer(&out->recipients, g_ptr_array_unref);
	g_clear_pointer(&out->reply, g_bytes_unref);
	g_free(out->reply_body);
	memset(out, 0, sizeof(*out));
}
