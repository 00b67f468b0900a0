/* LAVA (Linaro's lab engine) as a boot runner's back end, the parts that
 * need no network: the job definition armbot submits, and reading back
 * what the server answers (the job's state and health, its log, the
 * results its monitor action parsed).  The REST client is
 * qemu/lava-client.h; qemu/runner.h picks LAVA or the local qemu.
 *
 * The job (LAVA 2023.01, device type "qemu"): deploy to tmpfs with the
 * kernel, the DTB (when there is one) and the initramfs at URLs armbot
 * serves; boot method qemu; a test action with a monitor that starts at
 * KTAP's first line, ends at armbot's init's "done" and turns every KTAP
 * result line into a LAVA test case.  The console is read back whole
 * from the job's log (its "target" lines), so the same KTAP parser reads
 * a LAVA boot and a local one. */
#pragma once

#include <glib.h>

struct lava_job_input {
	const char *name; /* job_name */
	const char *kernel_url;
	const char *dtb_url; /* NULL: none (qemu -M virt makes its own) */
	const char *initrd_url;
	const char *machine; /* "virt" */
	const char *append; /* kernel command line */
	guint timeout_s; /* the boot's and the monitor's timeout; 0: 60 */
	guint mem_mb; /* 0: 256 */
};

/* The job definition, YAML.  Newly allocated. */
char *lava_job_definition(const struct lava_job_input *in);

/* What a job became, from the server's point of view. */
enum lava_job_outcome {
	LAVA_JOB_PENDING, /* submitted, scheduled or running */
	LAVA_JOB_COMPLETE, /* the job ran to its end */
	LAVA_JOB_INCOMPLETE, /* an error of the test: the kernel's */
	LAVA_JOB_INFRA, /* an infrastructure error: the lab's, not the
			 * kernel's (retried or given to the local runner) */
	LAVA_JOB_CANCELED, /* canceled (by an admin, or LAVA's timeout) */
	LAVA_JOB_TIMEOUT, /* a LAVA timeout ended it */
};

const char *lava_job_outcome_name(enum lava_job_outcome o);

struct lava_job_status {
	guint64 id;
	char *state; /* "Submitted", "Running", "Finished", ... */
	char *health; /* "Unknown", "Complete", "Incomplete", "Canceled" */
	char *device; /* actual_device, or NULL */
	char *failure; /* failure_comment, or NULL */
};

/* Read GET /api/v0.2/jobs/ID/ (JSON).  FALSE with @error on text that is
 * not such a job. */
gboolean lava_job_status_parse(const char *json, gsize len,
			       struct lava_job_status *out, GError **error);
void lava_job_status_clear(struct lava_job_status *st);

/* The job id of POST /api/v0.2/jobs/'s answer ({"job_ids": [N]}), 0 with
 * @error when there is none. */
guint64 lava_submit_answer_parse(const char *json, gsize len, GError **error);

/* What the job's log says about it: the console (its "target" lines,
 * one per line, in order), and the error_type of the job's "lava" result
 * ("Infrastructure", "Job", "Test", "Bug", "Configuration", "Canceled",
 * or NULL) with its error_msg, and the results of the monitor. */
struct lava_log {
	GString *console;
	char *error_type;
	char *error_msg;
	gboolean timed_out; /* a LAVA timeout ("... timed out after") */
	/* the test monitor found its end string, armbot's init's last line
	 * ("ok: end string found"): the line itself may be missing from
	 * the target's lines when the match cut it off */
	gboolean monitor_end;
	/* the cases LAVA's monitor parsed from KTAP's result lines,
	 * "name=pass|fail|skip|unknown" (LAVA's own "lava" suite left
	 * out) */
	GPtrArray *cases;
};

/* Read the job's log (GET /api/v0.2/jobs/ID/logs/: one YAML flow
 * mapping per line, "- {"dt": ..., "lvl": ..., "msg": ...}", the
 * mappings in JSON syntax).  Lines that are not such entries are
 * skipped; never fails.  At most @max_console bytes of console are
 * kept. */
void lava_log_parse(const char *text, gsize len, gsize max_console,
		    struct lava_log *out);
void lava_log_clear(struct lava_log *log);

/* The outcome of a finished job: @st's health with @log's error type. */
enum lava_job_outcome lava_job_outcome(const struct lava_job_status *st,
				       const struct lava_log *log);
