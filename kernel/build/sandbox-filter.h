/* The seccomp filter of the build sandbox: the system calls a compiler,
 * make, sparse, ccache or QEMU never make, denied with EPERM, so that a
 * series' build cannot use them to reach the kernel's less exercised
 * paths (ptrace, mount, keyctl, bpf, user namespaces, io_uring, ...).
 * bwrap loads it (--seccomp FD) just before it execs the build, after its
 * own mounts. */
#pragma once

#include <glib.h>

/* The filter as the classic BPF program bwrap reads (struct sock_filter
 * instructions, libseccomp's seccomp_export_bpf()), for this machine's
 * architecture and its compat ones.  NULL with @error when libseccomp
 * cannot build it. */
GBytes *sandbox_filter_new(GError **error);
