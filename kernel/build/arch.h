/* The architectures armbot builds and boots kernels for: for each, the
 * one place that says how (kbuild's ARCH= and CROSS_COMPILE=, Debian's
 * cross compiler, the image the build leaves in arch/ARCH/boot, and the
 * QEMU system emulator and CPU that boot it).  kernel/build/kbuild.c,
 * qemu/initramfs.c (the guest's init) and qemu/virt.c (the qemu command
 * line) read this table; nothing else names a compiler or an emulator. */
#pragma once

#include <glib.h>

struct kbuild_arch {
	const char *name; /* kbuild's ARCH=, the board map's arch */
	/* CROSS_COMPILE=: the prefix of Debian's cross toolchain
	 * (gcc-arm-linux-gnueabihf, gcc-aarch64-linux-gnu) */
	const char *cross_compile;
	const char *cc; /* the cross compiler: cross_compile + "gcc" */
	const char *image; /* the boot image, in arch/ARCH/boot */
	const char *qemu; /* the system emulator (qemu-system-arm package) */
	const char *qemu_cpu; /* qemu -cpu; NULL: the machine's default */
};

/* The arch named @name ("arm", "arm64"), or NULL.  Static. */
const struct kbuild_arch *kbuild_arch_find(const char *name);

/* arm: what every build and boot is unless a board says otherwise. */
const struct kbuild_arch *kbuild_arch_default(void);
