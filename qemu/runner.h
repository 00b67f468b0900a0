/* Boot runners: where a built kernel boots.  "local" runs
 * qemu-system-arm here in the sandbox (qemu/virt.h); "lava" sends a job
 * to a LAVA server (qemu/lava.h, qemu/lava-client.h) with the files
 * served by armbot (qemu/fileserve.h), follows it to its end and reads
 * its console back.  Both give the same struct virt_result, which
 * ktap_parse() and the report read; out->where says where it booted.
 *
 * A LAVA infrastructure error (the server unreachable, a job Incomplete
 * with an Infrastructure, Configuration or Bug error) is retried
 * (lava-retries) and then, with lava-fallback = local, booted locally,
 * else an error (BOOT_RUNNER_ERROR_INFRA): never the kernel's failure.
 * A job that LAVA canceled or timed out is an outcome, said as such. */
#pragma once

#include <glib.h>

#include "kernel/build/sandbox.h"
#include "qemu/virt.h"

#define BOOT_RUNNER_ERROR (g_quark_from_static_string("boot-runner-error"))

enum boot_runner_error {
	BOOT_RUNNER_ERROR_INFRA, /* the lab failed; nothing about the kernel */
	BOOT_RUNNER_ERROR_CONFIG,
};

enum boot_runner_kind {
	BOOT_RUNNER_LOCAL,
	BOOT_RUNNER_LAVA,
};

/* How a tree's kernels boot (its tree file's keys, config/treefile.h). */
struct boot_runner_config {
	enum boot_runner_kind kind;
	char *lava_url; /* lava-url */
	char *lava_token_file; /* lava-token-file */
	char *lava_ca_file; /* lava-ca-file, NULL: the system's CAs */
	char *lava_serve_host; /* lava-serve-host: where the worker
				* downloads the files; NULL: 127.0.0.1 */
	gboolean lava_fallback_local; /* lava-fallback = local */
	guint lava_retries; /* lava-retries; infrastructure errors */
	guint lava_poll_s; /* 0: 5 */
};

void boot_runner_config_clear(struct boot_runner_config *c);

/* What boots. */
struct boot_input {
	const char *name; /* the job's name ("armbot: tree commit") */
	/* the kernel's arch (its emulator); NULL: arm, the only one a LAVA
	 * boot takes (qemu/boot.c boots a board here only) */
	const struct kbuild_arch *arch;
	/* as the local boot's sandbox shows them */
	const char *kernel; /* zImage (arm), Image (arm64) */
	const char *dtb; /* NULL: none (-M virt makes its own) */
	const char *initrd;
	/* the same files on this machine, which a LAVA boot serves (NULL:
	 * the paths above) */
	const char *host_kernel;
	const char *host_dtb;
	const char *host_initrd;
	const char *machine; /* NULL: "virt" */
	const char *console; /* the kernel's console=; NULL: "ttyAMA0" */
	guint mem_mb; /* qemu -m; 0: 256 */
	const char *append; /* the board's kernel command line words, or NULL */
	guint timeout_s;
	/* the key under which a remote job is remembered (so that a
	 * restarted armbot follows it instead of submitting again), and
	 * the store's hooks; NULL: not remembered */
	const char *job_key;
	guint64 (*find_job)(const char *key, char **server, void *data);
	void (*save_job)(const char *key, const char *server, guint64 id,
			 void *data);
	void *job_data;
};

struct boot_output {
	struct virt_result vm;
	char *where; /* "booted on LAVA job 12, device qemu-01"; NULL:
		      * here */
	char *fell_back; /* why a LAVA boot went local, or NULL */
	guint64 lava_job;
	guint lava_cases; /* cases LAVA's monitor parsed */
};

void boot_output_clear(struct boot_output *out);

struct boot_runner;

/* A runner of @cfg (copied); @sb runs the local boots (borrowed).  NULL
 * with @error when the config cannot work (the token file unreadable). */
struct boot_runner *boot_runner_new(const struct boot_runner_config *cfg,
				    struct sandbox *sb, GError **error);

/* Boot @in.  FALSE with @error when it could not boot for a reason that is
 * not the kernel's (BOOT_RUNNER_ERROR_INFRA: the lab, no fallback). */
gboolean boot_runner_boot(struct boot_runner *r, const struct boot_input *in,
			  struct boot_output *out, GError **error);

void boot_runner_free(struct boot_runner *r);
typedef struct boot_runner boot_runner;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(boot_runner, boot_runner_free)
