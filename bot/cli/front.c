/* armbot, the program users run.  `armbot dirstat` must start as fast as
 * `git diff --dirstat`, and loading the daemon's 62 shared libraries (40
 * of them linked with immediate binding by Debian) costs eight times
 * git's whole command; so this program links GLib, zlib and libdeflate and runs
 * dirstat itself, and hands every other command line, unchanged, to the
 * full program armbot-core installed beside it (the same process: exec).
 * `armbot dirstat --mbox` reads mail with libetpan and goes there too, and
 * so does --json: json-glib would load GObject and GIO at every start. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/command.h"

#define FRONT_CORE_NAME "armbot-core"

/* Replace this process by armbot-core with the same arguments. */
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

/* Does the dirstat command line ask for anything this program lacks? */
static gboolean needs_core(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--mbox") ||
		    g_str_has_prefix(argv[i], "--mbox=") ||
		    !strcmp(argv[i], "--json"))
			return TRUE;
	return FALSE;
}

int main(int argc, char **argv)
{
	struct armbot_context ctx = { 0 };
	int i = 1;
	int status;

	/* the global options as bot/cli/main.c takes them; anything else it
	 * knows (--version, --help, errors) is its to print */
	while (i < argc) {
		if (!strcmp(argv[i], "--data-dir") && i + 1 < argc)
			i += 2;
		else if (g_str_has_prefix(argv[i], "--data-dir="))
			i++;
		else
			break;
	}
	if (i >= argc || strcmp(argv[i], "dirstat") ||
	    needs_core(argc - i, argv + i))
		return exec_core(argv);
	setlocale(LC_ALL, "");
	for (int j = 1; j < i; j++) {
		if (!strcmp(argv[j], "--data-dir"))
			command_set_data_dir(argv[++j]);
		else
			command_set_data_dir(argv[j] + strlen("--data-dir="));
	}
	status = cmd_dirstat(&ctx, argc - i, argv + i);
	g_free(ctx.data_dir);
	return status;
}
