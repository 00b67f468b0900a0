/* Local and LAVA boots behind one call (see qemu/runner.h). */
#include "qemu/runner.h"

#include <string.h>

#include "config/secretfile.h"
#include "qemu/fileserve.h"
#include "qemu/lava-client.h"

#define LAVA_POLL_DEFAULT_S 5
#define KERNEL_APPEND "console=ttyAMA0 panic=-1 kunit.enable=1"

struct boot_runner {
	struct boot_runner_config cfg;
	struct sandbox *sb;
	struct lava_client *lava;
};

void boot_runner_config_clear(struct boot_runner_config *c)
{
	g_free(c->lava_url);
	g_free(c->lava_token_file);
	g_free(c->lava_ca_file);
	g_free(c->lava_serve_host);
	memset(c, 0, sizeof(*c));
}

void boot_output_clear(struct boot_output *out)
{
	virt_result_clear(&out->vm);
	g_free(out->where);
	g_free(out->fell_back);
	memset(out, 0, sizeof(*out));
}

struct boot_runner *boot_runner_new(const struct boot_runner_config *cfg,
				    struct sandbox *sb, GError **error)
{
	g_autoptr(boot_runner) r = g_new0(struct boot_runner, 1);

	r->cfg = *cfg;
	r->cfg.lava_url = g_strdup(cfg->lava_url);
	r->cfg.lava_token_file = g_strdup(cfg->lava_token_file);
	r->cfg.lava_ca_file = g_strdup(cfg->lava_ca_file);
	r->cfg.lava_serve_host = g_strdup(cfg->lava_serve_host);
	r->sb = sb;
	if (cfg->kind == BOOT_RUNNER_LAVA) {
		char *token;

		if (!cfg->lava_url || !cfg->lava_token_file) {
			g_set_error(error, BOOT_RUNNER_ERROR,
				    BOOT_RUNNER_ERROR_CONFIG,
				    "boot-runner = lava needs lava-url and "
				    "lava-token-file");
			return NULL;
		}
		token = secretfile_read(cfg->lava_token_file, error);
		if (!token)
			return NULL;
		g_strstrip(token);
		r->lava = lava_client_new(cfg->lava_url, token,
					  cfg->lava_ca_file);
		secretfile_free(token);
	}
	return g_steal_pointer(&r);
}

void boot_runner_free(struct boot_runner *r)
{
	if (!r)
		return;
	lava_client_free(r->lava);
	boot_runner_config_clear(&r->cfg);
	g_free(r);
}

static gboolean boot_local(struct boot_runner *r, const struct boot_input *in,
			   struct boot_output *out, GError **error)
{
	struct virt_opts vo = { 0 };

	vo.kernel = in->kernel;
	vo.initrd = in->initrd;
	vo.timeout_s = in->timeout_s;
	vo.arch = in->arch;
	vo.machine = in->machine;
	vo.dtb = in->dtb;
	vo.console = in->console;
	vo.mem_mb = in->mem_mb;
	vo.append = in->append;
	return virt_boot(r->sb, &vo, &out->vm, error);
}

static gboolean infra_error(GError **error, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
static gboolean infra_error(GError **error, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, BOOT_RUNNER_ERROR, BOOT_RUNNER_ERROR_INFRA, "%s",
		    msg);
	return FALSE;
}

/* Wait for job @id to finish; its status in @st.  Transient failures of
 * the server (unreachable) are waited through for a while: a job keeps
 * running on the worker while the server restarts. */
static gboolean follow(struct boot_runner *r, guint64 id, guint timeout_s,
		       struct lava_job_status *st, GError **error)
{
	guint poll = r->cfg.lava_poll_s ? r->cfg.lava_poll_s :
					  LAVA_POLL_DEFAULT_S;
	/* LAVA's own job timeout ends the job; this bounds a server that
	 * never answers again */
	gint64 deadline = g_get_monotonic_time() +
			  (gint64)(4 * (timeout_s ? timeout_s : 60) + 600) *
				  G_USEC_PER_SEC;
	guint unreachable = 0;

	for (;;) {
		g_autoptr(GError) e = NULL;

		lava_job_status_clear(st);
		if (lava_client_status(r->lava, id, st, &e)) {
			unreachable = 0;
			if (!strcmp(st->state, "Finished"))
				return TRUE;
		} else if (++unreachable >= 6 ||
			   g_get_monotonic_time() > deadline) {
			return infra_error(error,
					   "LAVA job %" G_GUINT64_FORMAT ": %s",
					   id, e->message);
		}
		if (g_get_monotonic_time() > deadline)
			return infra_error(error,
					   "LAVA job %" G_GUINT64_FORMAT
					   " did not finish (state %s)",
					   id, st->state);
		g_usleep((gulong)poll * G_USEC_PER_SEC);
	}
}

/* One LAVA job: submitted (or found in the store), followed, read. */
static gboolean boot_lava_once(struct boot_runner *r,
			       const struct boot_input *in,
			       struct boot_output *out, GError **error)
{
	const char *kernel = in->host_kernel ? in->host_kernel : in->kernel;
	const char *initrd = in->host_initrd ? in->host_initrd : in->initrd;
	const char *dtb = in->host_dtb ? in->host_dtb : in->dtb;
	const char *files[4] = { kernel, initrd, NULL, NULL };
	g_autoptr(fileserve) fs = NULL;
	g_autofree char *server = NULL;
	struct lava_job_status st = { 0 };
	struct lava_log log = { 0 };
	enum lava_job_outcome outcome;
	guint64 id = 0;
	GError *e = NULL;

	if (in->job_key && in->find_job) {
		id = in->find_job(in->job_key, &server, in->job_data);
		if (id && g_strcmp0(server, r->cfg.lava_url))
			id = 0; /* another server's */
	}
	if (dtb)
		files[2] = dtb;
	/* the files stay served while the job runs: a job followed after
	 * a restart that has not downloaded them yet fails and is retried
	 * (the token was the old process's) */
	fs = fileserve_start(r->cfg.lava_serve_host ? r->cfg.lava_serve_host :
						      "127.0.0.1",
			     0, files, error);
	if (!fs)
		return FALSE;
	if (!id) {
		g_autofree char *k = fileserve_url(fs, kernel);
		g_autofree char *i = fileserve_url(fs, initrd);
		g_autofree char *d = dtb ? fileserve_url(fs, dtb) : NULL;
		struct lava_job_input ji = {
			.name = in->name,
			.kernel_url = k,
			.dtb_url = d,
			.initrd_url = i,
			.machine = in->machine,
			.mem_mb = in->mem_mb,
			.append = KERNEL_APPEND,
			.timeout_s = in->timeout_s,
		};
		g_autofree char *yaml = lava_job_definition(&ji);

		id = lava_client_submit(r->lava, yaml, &e);
		if (!id) {
			if (e->code == LAVA_CLIENT_UNREACHABLE)
				infra_error(error, "%s", e->message);
			else
				g_propagate_error(error, g_steal_pointer(&e));
			g_clear_error(&e);
			return FALSE;
		}
		if (in->job_key && in->save_job)
			in->save_job(in->job_key, r->cfg.lava_url, id,
				     in->job_data);
	}
	out->lava_job = id;
	if (!follow(r, id, in->timeout_s, &st, error))
		return FALSE;
	if (!lava_client_log(r->lava, id, &log, &e)) {
		lava_job_status_clear(&st);
		infra_error(error, "%s", e->message);
		g_error_free(e);
		return FALSE;
	}
	outcome = lava_job_outcome(&st, &log);
	if (outcome == LAVA_JOB_INFRA) {
		infra_error(error,
			    "LAVA job %" G_GUINT64_FORMAT
			    " (device %s): infrastructure error: %s",
			    id, st.device ? st.device : "none",
			    log.error_msg ? log.error_msg :
			    st.failure	  ? st.failure :
					    "(no message)");
		lava_job_status_clear(&st);
		lava_log_clear(&log);
		return FALSE;
	}
	out->where = g_strdup_printf("booted on LAVA job %" G_GUINT64_FORMAT
				     ", device %s",
				     id, st.device ? st.device : "none");
	out->lava_cases = log.cases->len;
	virt_result_from_console(&out->vm, g_steal_pointer(&log.console));
	/* the monitor ends on init's "done": seen there, init finished even
	 * when the line did not reach the target's log */
	out->vm.init_done = out->vm.init_done || log.monitor_end;
	out->vm.uptime = out->vm.userspace ? out->vm.uptime : -1;
	out->vm.exited_ok = outcome == LAVA_JOB_COMPLETE;
	out->vm.timed_out = outcome == LAVA_JOB_TIMEOUT;
	out->vm.canceled = outcome == LAVA_JOB_CANCELED;
	out->vm.how = g_strdup_printf("LAVA job %" G_GUINT64_FORMAT " %s%s%s",
				      id, lava_job_outcome_name(outcome),
				      log.error_msg ? ": " : "",
				      log.error_msg ? log.error_msg : "");
	lava_job_status_clear(&st);
	lava_log_clear(&log);
	return TRUE;
}

gboolean boot_runner_boot(struct boot_runner *r, const struct boot_input *in,
			  struct boot_output *out, GError **error)
{
	g_autoptr(GError) last = NULL;

	memset(out, 0, sizeof(*out));
	if (r->cfg.kind == BOOT_RUNNER_LOCAL)
		return boot_local(r, in, out, error);
	for (guint attempt = 0; attempt <= r->cfg.lava_retries; attempt++) {
		g_clear_error(&last);
		boot_output_clear(out);
		if (boot_lava_once(r, in, out, &last)) {
			/* read: a later boot of the same commit is a new
			 * job */
			if (in->job_key && in->save_job)
				in->save_job(in->job_key, r->cfg.lava_url, 0,
					     in->job_data);
			return TRUE;
		}
		if (last->domain != BOOT_RUNNER_ERROR ||
		    last->code != BOOT_RUNNER_ERROR_INFRA)
			break;
		g_warning("LAVA boot of %s: %s", in->name, last->message);
		/* a retry submits a new job */
		if (in->job_key && in->save_job)
			in->save_job(in->job_key, r->cfg.lava_url, 0,
				     in->job_data);
	}
	if (r->cfg.lava_fallback_local && last->domain == BOOT_RUNNER_ERROR &&
	    last->code == BOOT_RUNNER_ERROR_INFRA) {
		/* the reply says what happened, not the lab's addresses
		 * (the daemon's log has the error) */
		char *why =
			out->lava_job ?
				g_strdup_printf("LAVA job %" G_GUINT64_FORMAT
						" failed in the lab",
						out->lava_job) :
				g_strdup("the LAVA server failed");

		g_warning("LAVA boot of %s: booted here instead", in->name);
		boot_output_clear(out);
		out->fell_back = why;
		return boot_local(r, in, out, error);
	}
	g_propagate_error(error, g_steal_pointer(&last));
	return FALSE;
}
