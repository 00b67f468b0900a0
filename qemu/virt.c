/* qemu-system-arm -M virt (or the emulator of the kernel's arch,
 * kernel/build/arch.h): the machine's PSCI powers it off when init
 * calls reboot(RB_POWER_OFF); with panic=-1 a panicking kernel reboots at
 * once and -no-reboot turns that into qemu exiting.  A board QEMU cannot
 * power off (orangepi-pc: no PSCI node in its device tree, no emulated
 * watchdog to restart through) halts with the kernel's last words on the
 * console: armbot ends qemu itself once they are there. */
#include "qemu/virt.h"

#include <string.h>

#define INIT_PREFIX "armbot-init: "

/* What kernel_power_off() and kernel_halt() print right before the
 * machine's own power-off: the guest is done (init asks for it only after
 * its work, the suite's KTAP included), and what follows is only the
 * machine stopping, or, where it cannot, the CPUs spinning until the
 * timeout. */
static const char *const powered_off[] = { "reboot: Power down",
					   "reboot: System halted", NULL };

/* what the kernel prints for an oops, a WARN and a BUG */
static const char *const faults[] = {
	"Internal error: Oops", "Unable to handle kernel",
	"WARNING: CPU:", "BUG: ", "kernel BUG at"
};

static void scan_console(struct virt_result *out)
{
	const char *up =
		strstr(out->console->str, INIT_PREFIX "userspace up uptime=");

	out->uptime = -1;
	if (up) {
		out->userspace = TRUE;
		out->uptime = g_ascii_strtod(
			up + strlen(INIT_PREFIX "userspace up uptime="), NULL);
	}
	out->init_done = strstr(out->console->str, INIT_PREFIX "done") != NULL;
	out->panicked =
		strstr(out->console->str, "Kernel panic - not syncing") != NULL;
	out->fault = NULL;
	for (guint i = 0; !out->fault && i < G_N_ELEMENTS(faults); i++)
		if (strstr(out->console->str, faults[i]))
			out->fault = faults[i];
}

char **virt_argv(const struct virt_opts *opts)
{
	const struct kbuild_arch *arch = opts->arch ? opts->arch :
						      kbuild_arch_default();
	GStrvBuilder *b = g_strv_builder_new();
	g_autofree char *mem =
		g_strdup_printf("%u", opts->mem_mb ? opts->mem_mb : 256);
	g_autofree char *append = g_strconcat(
		"console=", opts->console ? opts->console : "ttyAMA0",
		" panic=-1 kunit.enable=1", opts->append ? " " : "",
		opts->append ? opts->append : "", NULL);
	const char *const emulator[] = { arch->qemu, "-M",
					 opts->machine ? opts->machine : "virt",
					 NULL };
	const char *const argv[] = { "-m",	   mem,		 "-display",
				     "none",	   "-monitor",	 "none",
				     "-serial",	   "stdio",	 "-nic",
				     "none",	   "-no-reboot", "-kernel",
				     opts->kernel, "-initrd",	 opts->initrd,
				     "-append",	   append,	 NULL };
	char **out;

	g_strv_builder_addv(b, (const char **)emulator);
	if (arch->qemu_cpu) {
		g_strv_builder_add(b, "-cpu");
		g_strv_builder_add(b, arch->qemu_cpu);
	}
	g_strv_builder_addv(b, (const char **)argv);
	/* a board with a sound chip (vexpress-a9's LM4549) would open the
	 * host's audio and fill the console with ALSA errors */
	if (opts->machine) {
		g_strv_builder_add(b, "-audiodev");
		g_strv_builder_add(b, "none,id=armbot-audio");
	}
	if (opts->dtb) {
		g_strv_builder_add(b, "-dtb");
		g_strv_builder_add(b, opts->dtb);
	}
	out = g_strv_builder_end(b);
	g_strv_builder_unref(b);
	return out;
}

gboolean virt_boot(struct sandbox *sb, const struct virt_opts *opts,
		   struct virt_result *out, GError **error)
{
	g_auto(GStrv) argv = virt_argv(opts);
	g_auto(GStrv) env = runner_env_new(NULL);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;

	memset(out, 0, sizeof(*out));
	o.env = (const char *const *)env;
	o.timeout_ms = (opts->timeout_s ? opts->timeout_s : 60) * 1000;
	o.merge_stderr = TRUE;
	o.output_cap = 16u << 20;
	o.stop_on = powered_off;
	if (!sandbox_run(sb, (const char *const *)argv, &o, &r, error)) {
		g_prefix_error(error, "cannot boot '%s': ", opts->kernel);
		return FALSE;
	}
	out->how = runner_result_describe(&r);
	out->timed_out = r.timed_out;
	/* qemu ended by us once the guest powered off is a machine that
	 * powered off */
	out->exited_ok = runner_result_ok(&r) || r.stopped_on;
	out->seconds = r.elapsed_us / 1e6;
	out->console = g_steal_pointer(&r.output);
	runner_result_clear(&r);
	scan_console(out);
	return TRUE;
}

void virt_result_from_console(struct virt_result *out, GString *console)
{
	out->console = console;
	scan_console(out);
}

gboolean virt_result_ok(const struct virt_result *result)
{
	return result->exited_ok && result->userspace && result->init_done &&
	       !result->panicked;
}

void virt_result_clear(struct virt_result *result)
{
	if (result->console)
		g_string_free(result->console, TRUE);
	g_free(result->how);
	memset(result, 0, sizeof(*result));
}
