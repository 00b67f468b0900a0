/* Booting a test kernel with `qemu-system-arm -M virt` (or another
 * machine, or the emulator of another arch): no network, the console
 * captured, a timeout, inside the sandbox. */
#pragma once

#include <glib.h>

#include "kernel/build/arch.h"
#include "kernel/build/sandbox.h"

struct virt_opts {
	/* the kernel's arch: its emulator and -cpu; NULL: arm */
	const struct kbuild_arch *arch;
	const char *kernel; /* zImage (arm), Image (arm64) */
	const char *initrd; /* cpio archive */
	const char *append; /* extra kernel command line, may be NULL */
	const char *machine; /* qemu -M; NULL: "virt" */
	const char *dtb; /* -dtb; NULL: none (-M virt makes its own) */
	const char *console; /* console=; NULL: "ttyAMA0" */
	guint timeout_s; /* 0: 60 */
	guint mem_mb; /* 0: 256 */
};

/* What the boot did, read from the console: an outcome. */
struct virt_result {
	GString *console;
	char *how; /* how qemu ended ("exit status 0", ...) */
	gboolean timed_out;
	/* qemu exited 0 by itself, or armbot ended it once the kernel said
	 * the guest powered off or halted */
	gboolean exited_ok;
	double seconds; /* wall clock of the whole run */
	gboolean userspace; /* init printed its first line */
	double uptime; /* kernel uptime when init started; -1 */
	gboolean init_done; /* init finished its work */
	gboolean panicked; /* "Kernel panic - not syncing" seen */
	/* the first oops, WARN or BUG the console shows ("WARNING: CPU:",
	 * ...): a static string; NULL: none */
	const char *fault;
	gboolean canceled; /* a remote boot's job was canceled
			    * (qemu/runner.h) */
};

/* The argv virt_boot() runs (before the sandbox wraps it): the one place
 * it is built.  Free with g_strfreev. */
char **virt_argv(const struct virt_opts *opts);

/* Boot and wait for the machine to power off, panic (panic=-1 and
 * -no-reboot make qemu exit) or time out; once the console shows the
 * kernel's "reboot: Power down" (or "System halted") qemu is ended
 * without waiting for it, for machines that cannot power off.  FALSE with @error only when
 * qemu cannot be started. */
gboolean virt_boot(struct sandbox *sb, const struct virt_opts *opts,
		   struct virt_result *out, GError **error);

/* Fill @out's console (taking @console) and what it says, for a boot
 * that ran elsewhere (qemu/runner.h); how it ended is the caller's. */
void virt_result_from_console(struct virt_result *out, GString *console);

/* Booted to userspace, init did its work and the machine powered off. */
gboolean virt_result_ok(const struct virt_result *result);

void virt_result_clear(struct virt_result *result);
