/* armbot's guest init: the whole userspace of the test kernel.  Static,
 * built for the guest's arch (armhf or aarch64), no libraries beyond libc.
 * It mounts proc, sys and dev, prints the marker armbot waits for, loads
 * the runtime-PM KUnit module (its suites run while the module loads and
 * print KTAP on the console), reads the runtime-PM sysfs attributes of
 * the machine's AMBA devices and powers the machine off.  Every line it
 * prints starts with "armbot-init:". */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/rpm_test.ko"

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("armbot-init: ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) != 0 && errno != EBUSY)
		say("mount %s: %s", dir, strerror(errno));
}

/* Read a one-line file into @buf without its newline; "?" if unreadable. */
static void read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	snprintf(buf, size, "?");
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void load_module(void)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		say("module %s: %s", MODULE_PATH, strerror(errno));
		return;
	}
	/* finit_module(2): the kernel reads the module from the fd */
	if (syscall(SYS_finit_module, fd, "", 0) != 0) {
		say("module load failed: %s", strerror(errno));
	} else {
		say("module loaded");
	}
	close(fd);
}

/* The runtime-PM view of real devices: power/control and runtime_status
 * of every AMBA device (the PL011 UART, the PL031 RTC...). */
static void show_runtime_pm(void)
{
	static const char *const attrs[] = { "control", "runtime_status",
					     "runtime_active_time",
					     "runtime_suspended_time" };
	const char *bus = "/sys/bus/amba/devices";
	struct dirent *de;
	DIR *dir = opendir(bus);

	if (!dir) {
		say("no %s: %s", bus, strerror(errno));
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			char path[512], value[128], name[300];

			snprintf(path, sizeof(path), "%s/%s/power/%s", bus,
				 de->d_name, attrs[i]);
			read_line(path, value, sizeof(value));
			snprintf(name, sizeof(name), "%s/power/%s", de->d_name,
				 attrs[i]);
			say("sysfs %s=%s", name, value);
		}
	}
	closedir(dir);
}

int main(void)
{
	char uptime[64];

	mount_fs("devtmpfs", "/dev");
	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	read_line("/proc/uptime", uptime, sizeof(uptime));
	say("userspace up uptime=%s", strtok(uptime, " "));
	load_module();
	show_runtime_pm();
	say("done");
	sync();
	reboot(RB_POWER_OFF);
	say("power off failed: %s", strerror(errno));
	return 1;
}
