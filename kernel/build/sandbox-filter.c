/* The sandbox's seccomp filter (see sandbox-filter.h), built with
 * libseccomp: allow by default, EPERM for the calls below.  A denylist,
 * not an allowlist: kbuild runs hundreds of different programs (make, the
 * shell, perl, gcc's drivers, ccache, sparse, QEMU), and an allowlist that
 * misses one call fails builds in ways nobody can read; what the list
 * keeps out is the kernel's attack surface that no build touches. */
#include "kernel/build/sandbox-filter.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <linux/personality.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Denied outright, by name (a name this libseccomp or architecture does
 * not know is skipped: the call does not exist there). */
static const char *const denied[] = {
	/* another process's memory and registers */
	"ptrace",
	"process_vm_readv",
	"process_vm_writev",
	"pidfd_getfd",
	"kcmp",
	/* mounts: bwrap has made them all; none is needed after */
	"mount",
	"umount",
	"umount2",
	"pivot_root",
	"chroot",
	"move_mount",
	"open_tree",
	"fsopen",
	"fsconfig",
	"fsmount",
	"fspick",
	"mount_setattr",
	/* namespaces: bwrap made them; a build makes none (clone's flags
	 * below) */
	"unshare",
	"setns",
	/* the kernel keyring */
	"keyctl",
	"add_key",
	"request_key",
	/* eBPF, perf, userfaultfd, io_uring: frequent local-root vectors
	 * (QEMU falls back to its thread pool and poll without io_uring) */
	"bpf",
	"perf_event_open",
	"userfaultfd",
	"io_uring_setup",
	"io_uring_enter",
	"io_uring_register",
	/* the machine itself */
	"kexec_load",
	"kexec_file_load",
	"init_module",
	"finit_module",
	"delete_module",
	"reboot",
	"swapon",
	"swapoff",
	"acct",
	"syslog",
	"settimeofday",
	"clock_settime",
	"clock_adjtime",
	"adjtimex",
	"quotactl",
	"quotactl_fd",
	"iopl",
	"ioperm",
	"vhangup",
	"lookup_dcookie",
	"nfsservctl",
	"uselib",
	"ustat",
	"sysfs",
	"_sysctl",
	/* files by handle (bypass path permissions: the "shocker" escape),
	 * and watching the whole mount */
	"open_by_handle_at",
	"name_to_handle_at",
	"fanotify_init",
};

/* Namespace flags of clone(2): no new namespace from inside (bwrap's
 * --disable-userns covers user namespaces too; this is the rest). */
static const guint64 clone_ns_flags[] = {
	CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,    CLONE_NEWUSER,
	CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP, CLONE_NEWTIME,
};

/* personality(2) flags that weaken the process: ASLR off, executable
 * data, a mapped page zero, the legacy layout.  The query
 * personality(0xffffffff) has every bit set and is denied too: only
 * setarch asks, and a rule cannot compare one argument twice. */
static const guint64 personality_flags[] = {
	ADDR_NO_RANDOMIZE,  READ_IMPLIES_EXEC, MMAP_PAGE_ZERO,
	ADDR_COMPAT_LAYOUT, ADDR_LIMIT_3GB,
};

static gboolean rule_error(GError **error, int rc, const char *what)
{
	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(-rc),
		    "seccomp: cannot filter %s: %s", what, g_strerror(-rc));
	return FALSE;
}

/* The rules above, into @ctx. */
static gboolean add_rules(scmp_filter_ctx ctx, GError **error)
{
	const guint32 deny = SCMP_ACT_ERRNO(EPERM);
	int rc;

	for (guint i = 0; i < G_N_ELEMENTS(denied); i++) {
		int nr = seccomp_syscall_resolve_name(denied[i]);

		if (nr == __NR_SCMP_ERROR)
			continue;
		rc = seccomp_rule_add(ctx, deny, nr, 0);
		if (rc < 0)
			return rule_error(error, rc, denied[i]);
	}
	for (guint i = 0; i < G_N_ELEMENTS(clone_ns_flags); i++) {
		guint64 f = clone_ns_flags[i];

		rc = seccomp_rule_add(ctx, deny, SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, f, f));
		if (rc < 0)
			return rule_error(error, rc, "clone");
	}
	/* clone3 passes its flags in memory, out of the filter's sight:
	 * ENOSYS makes glibc fall back to clone (as Docker's profile does) */
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (rc < 0)
		return rule_error(error, rc, "clone3");
	for (guint i = 0; i < G_N_ELEMENTS(personality_flags); i++) {
		guint64 f = personality_flags[i];

		rc = seccomp_rule_add(ctx, deny, SCMP_SYS(personality), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, f, f));
		if (rc < 0)
			return rule_error(error, rc, "personality");
	}
	/* typing into the terminal of whoever started the build */
	rc = seccomp_rule_add(ctx, deny, SCMP_SYS(ioctl), 1,
			      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
				      (guint64)TIOCSTI));
	if (rc < 0)
		return rule_error(error, rc, "ioctl");
	return TRUE;
}

/* The program libseccomp exports for @ctx: it writes only to an fd, so
 * through an unlinked temporary file. */
static GBytes *export_bpf(scmp_filter_ctx ctx, GError **error)
{
	g_autofree char *path = NULL;
	g_autofree char *data = NULL;
	gsize len;
	int fd = g_file_open_tmp("armbot-seccomp-XXXXXX", &path, error);
	int rc;

	if (fd < 0)
		return NULL;
	rc = seccomp_export_bpf(ctx, fd);
	close(fd);
	if (rc == 0 && !g_file_get_contents(path, &data, &len, error)) {
		g_unlink(path);
		return NULL;
	}
	g_unlink(path);
	if (rc < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(-rc),
			    "seccomp: cannot export the filter: %s",
			    g_strerror(-rc));
		return NULL;
	}
	return g_bytes_new_take(g_steal_pointer(&data), len);
}

GBytes *sandbox_filter_new(GError **error)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	GBytes *bpf = NULL;
	int rc;

	if (!ctx) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "seccomp: cannot create a filter");
		return NULL;
	}
	/* the native architecture only: a call through a compat ABI (i386's
	 * int 0x80, x32) would bypass rules written for the native numbers,
	 * so it kills the process (no build runs 32-bit x86 programs) */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			      SCMP_ACT_KILL_PROCESS);
	if (rc < 0)
		rule_error(error, rc, "other architectures");
	else if (add_rules(ctx, error))
		bpf = export_bpf(ctx, error);
	seccomp_release(ctx);
	return bpf;
}
