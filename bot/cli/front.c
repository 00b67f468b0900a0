/* armbot, the program users run.  `armbot dirstat` must start as fast as
 * `git diff --dirstat`, and loading the daemon's 62 shared libraries (40
 * of them linked with immediate binding by Debian) costs eight times
 * git's whole command; so this program links GLib, zlib and libdeflate and runs
 * dirstat itself, and hands every other command line, unchanged, to the
 * full program armbot-core installed beside it (the same process: exec).
 * `armbot dirstat --mbox` reads mail with libetpan and goes there too, and
 * so does --json: json-glib would load GObject and GIO at every start
 * (cmd_dirstat() says so: COMMAND_NEEDS_CORE).
 *
 * Both programs parse the command line with the same code (the global
 * options of bot/cli/cmdline.c, then the command's own), and the command
 * line armbot-core gets is the one given here, byte for byte: the hop
 * cannot change what an argument means. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"

#define FRONT_CORE_NAME "armbot-core"

/* Replace this process by armbot-core with the arguments @argv. */
static int exec_core(char **argv)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *dir = g_path_get_dirname(self ? self : argv[0]);
	g_autofree char *core = g_build_filename(dir, FRONT_CORE_NAME, NULL);

	execv(core, argv);
	fprintf(stderr, "error: cannot run '%s': %s\n", core,
		g_strerror(errno));
	return 126;
}

int main(int argc, char **argv)
{
	/* parsing moves and rewrites argv's entries: the original is what
	 * armbot-core gets */
	g_auto(GStrv) given = g_strdupv(argv);
	struct armbot_context ctx = { 0 };
	enum cmdline_action action;
	int status;

	setlocale(LC_ALL, "");
	/* usage errors, help and every command but dirstat are armbot-core's
	 * to run and to word */
	if (!cmdline_parse_global(&argc, &argv, &action, NULL) ||
	    action == CMDLINE_HELP)
		return exec_core(given);
	if (action == CMDLINE_VERSION) {
		cmdline_print_version();
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "dirstat"))
		return exec_core(given);
	status = cmd_dirstat(&ctx, argc - 1, argv + 1);
	g_free(ctx.data_dir);
	return status == COMMAND_NEEDS_CORE ? exec_core(given) : status;
}
