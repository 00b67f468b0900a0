/* The architectures armbot builds and boots: kernel/build/arch.h. */
#include "kernel/build/arch.h"

#include <string.h>

static const struct kbuild_arch arches[] = {
	/* qemu -M virt's default CPU is the cortex-a15 the kernel wants */
	{ "arm", "arm-linux-gnueabihf-", "arm-linux-gnueabihf-gcc", "zImage",
	  "qemu-system-arm", NULL },
	/* qemu-system-aarch64's -M virt defaults to a cortex-a15, a 32-bit
	 * CPU: an arm64 kernel needs a 64-bit one */
	{ "arm64", "aarch64-linux-gnu-", "aarch64-linux-gnu-gcc", "Image",
	  "qemu-system-aarch64", "cortex-a57" },
};

const struct kbuild_arch *kbuild_arch_find(const char *name)
{
	for (guint i = 0; name && i < G_N_ELEMENTS(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct kbuild_arch *kbuild_arch_default(void)
{
	return &arches[0];
}
