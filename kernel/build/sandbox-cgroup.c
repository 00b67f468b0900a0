/* Per-run cgroups of the sandbox (see sandbox-cgroup.h); the files are
 * those of Documentation/admin-guide/cgroup-v2.rst and, for v1,
 * cgroup-v1/pids.rst and cgroup-v1/memory.rst. */
#include "kernel/build/sandbox-cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The mount point of the hierarchy that holds @controller (v1: a
 * "cgroup" mount whose super options name it; @controller NULL: the
 * "cgroup2" mount), and the root of the mount within the hierarchy. */
static gboolean find_mount(const char *controller, char **point_out,
			   char **root_out)
{
	g_autofree char *info = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents("/proc/self/mountinfo", &info, NULL, NULL))
		return FALSE;
	lines = g_strsplit(info, "\n", -1);
	/* proc(5): ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] -
	 * FSTYPE SOURCE SUPER-OPTIONS */
	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
		guint n = g_strv_length(f);
		guint dash = 6;

		while (dash < n && strcmp(f[dash], "-"))
			dash++;
		if (dash + 3 >= n)
			continue;
		if (controller) {
			g_auto(GStrv) opts = NULL;

			if (strcmp(f[dash + 1], "cgroup"))
				continue;
			opts = g_strsplit(f[dash + 3], ",", -1);
			if (!g_strv_contains((const char *const *)opts,
					     controller))
				continue;
		} else if (strcmp(f[dash + 1], "cgroup2")) {
			continue;
		}
		*root_out = g_strdup(f[3]);
		*point_out = g_strdup(f[4]);
		return TRUE;
	}
	return FALSE;
}

/* The directory of this process's cgroup in @controller's hierarchy, with
 * *@v2 set when that is the unified one; NULL when neither has it. */
static char *own_cgroup_dir(const char *controller, gboolean *v2)
{
	g_autofree char *self = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents("/proc/self/cgroup", &self, NULL, NULL))
		return NULL;
	lines = g_strsplit(self, "\n", -1);
	/* cgroups(7): HIERARCHY-ID:CONTROLLERS:PATH; v2 is "0::PATH" */
	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], ":", 3);
		g_auto(GStrv) ctrls = NULL;
		g_autofree char *point = NULL;
		g_autofree char *root = NULL;
		const char *path;
		gboolean unified;

		if (g_strv_length(f) != 3)
			continue;
		unified = !strcmp(f[0], "0") && !*f[1];
		ctrls = g_strsplit(f[1], ",", -1);
		if (!unified &&
		    !g_strv_contains((const char *const *)ctrls, controller))
			continue;
		if (!find_mount(unified ? NULL : controller, &point, &root))
			continue;
		/* the path is relative to the hierarchy's root, which the
		 * mount may show only a part of */
		path = f[2];
		if (strcmp(root, "/")) {
			if (!g_str_has_prefix(path, root))
				continue;
			path += strlen(root);
		}
		*v2 = unified;
		return g_build_filename(point, path, NULL);
	}
	return NULL;
}

/* Whether a child cgroup of @dir gets @file (the controller is enabled
 * for children there, and we may create them). */
static gboolean children_have(const char *dir, const char *file)
{
	g_autofree char *probe =
		g_strdup_printf("%s/armbot-probe-%d", dir, (int)getpid());
	g_autofree char *path = g_build_filename(probe, file, NULL);
	gboolean ok;

	if (g_mkdir(probe, 0755) != 0)
		return FALSE;
	ok = g_file_test(path, G_FILE_TEST_EXISTS);
	g_rmdir(probe);
	return ok;
}

/* The directory under which cgroups limiting @controller can be made, or
 * NULL; *@v2 as own_cgroup_dir(). */
static char *find_root(const char *controller, const char *v1_file,
		       const char *v2_file, gboolean *v2)
{
	g_autofree char *dir = NULL;

	/* own_cgroup_dir() takes a v1 hierarchy holding the controller
	 * before the unified one: a controller bound to v1 (a hybrid host,
	 * as this project's CI is) is not available in v2 */
	*v2 = FALSE;
	dir = own_cgroup_dir(controller, v2);
	if (!dir)
		return NULL;
	if (children_have(dir, *v2 ? v2_file : v1_file))
		return g_steal_pointer(&dir);
	/* v2 passes a controller on only from a cgroup without processes
	 * of its own (cgroup-v2.rst, "No Internal Process Constraint"): a
	 * daemon in leaf D/armbot of a cgroup D it owns makes the runs'
	 * cgroups beside it, in D */
	if (*v2) {
		g_autofree char *parent = g_path_get_dirname(dir);

		if (strcmp(parent, dir) && children_have(parent, v2_file))
			return g_steal_pointer(&parent);
	}
	return NULL;
}

void sandbox_cgroup_roots_find(struct sandbox_cgroup_roots *out)
{
	gboolean v2;

	memset(out, 0, sizeof(*out));
	out->pids = find_root("pids", "pids.max", "pids.max", &v2);
	out->memory = find_root("memory", "memory.limit_in_bytes", "memory.max",
				&out->memory_v2);
}

void sandbox_cgroup_roots_clear(struct sandbox_cgroup_roots *roots)
{
	g_free(roots->pids);
	g_free(roots->memory);
	memset(roots, 0, sizeof(*roots));
}

/* Write @text to the control file @dir/@name, in place (a control file is
 * not replaced by a rename). */
static gboolean write_control(const char *dir, const char *name,
			      const char *text, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	gsize len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	gboolean ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
	int saved = errno;

	if (fd >= 0)
		close(fd);
	if (!ok)
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "cannot write '%s' to '%s': %s", text, path,
			    g_strerror(saved));
	return ok;
}

/* A new, empty cgroup under @root for one run; NULL with @error. */
static char *make_dir(const char *root, GError **error)
{
	static gint counter;
	char *dir = g_strdup_printf("%s/armbot-%d-%d", root, (int)getpid(),
				    g_atomic_int_add(&counter, 1));

	if (g_mkdir(dir, 0755) != 0) {
		int saved = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "cannot create the cgroup '%s': %s", dir,
			    g_strerror(saved));
		g_free(dir);
		return NULL;
	}
	return dir;
}

static int add_dir(struct sandbox_cgroup *cg, char *dir)
{
	int i = cg->dirs[0] ? 1 : 0;

	cg->dirs[i] = dir;
	cg->procs[i] = g_build_filename(dir, "cgroup.procs", NULL);
	return i;
}

static gboolean limit_memory(struct sandbox_cgroup *cg, guint64 max,
			     GError **error)
{
	const char *dir = cg->dirs[cg->memory_index];
	g_autofree char *text = g_strdup_printf("%" G_GUINT64_FORMAT, max);

	if (cg->memory_v2) {
		if (!write_control(dir, "memory.max", text, error))
			return FALSE;
		/* swap is memory too; without swap accounting the file is
		 * absent and there is nothing to limit */
		write_control(dir, "memory.swap.max", "0", NULL);
		return TRUE;
	}
	if (!write_control(dir, "memory.limit_in_bytes", text, error))
		return FALSE;
	/* memory+swap, never below the memory limit (cgroup-v1/memory.rst
	 * 2.4); absent without swap accounting */
	write_control(dir, "memory.memsw.limit_in_bytes", text, NULL);
	return TRUE;
}

gboolean sandbox_cgroup_make(const struct sandbox_cgroup_roots *roots,
			     guint max_procs, guint64 max_memory,
			     struct sandbox_cgroup *out, GError **error)
{
	memset(out, 0, sizeof(*out));
	out->pids_index = -1;
	out->memory_index = -1;
	out->memory_v2 = roots->memory_v2;
	if (roots->pids) {
		g_autofree char *text = g_strdup_printf("%u", max_procs);
		char *dir = make_dir(roots->pids, error);

		if (!dir)
			return FALSE;
		out->pids_index = add_dir(out, dir);
		if (!write_control(dir, "pids.max", text, error))
			goto fail;
	}
	if (roots->memory && max_memory) {
		/* on v2 one cgroup holds both limits */
		if (roots->pids && !strcmp(roots->pids, roots->memory)) {
			out->memory_index = out->pids_index;
		} else {
			char *dir = make_dir(roots->memory, error);

			if (!dir)
				goto fail;
			out->memory_index = add_dir(out, dir);
		}
		if (!limit_memory(out, max_memory, error))
			goto fail;
	}
	return TRUE;
fail:
	sandbox_cgroup_destroy(out, NULL);
	return FALSE;
}

/* The number after "@key " in the flat-keyed file @dir/@name; 0 when
 * absent. */
static guint64 read_key(const char *dir, const char *name, const char *key)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	gsize klen = strlen(key);

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		if (!strncmp(lines[i], key, klen) && lines[i][klen] == ' ')
			return g_ascii_strtoull(lines[i] + klen + 1, NULL, 10);
	return 0;
}

/* SIGKILL every process of @dir until it is empty: a fork bomb may still
 * be forking while we kill (it cannot grow past pids.max). */
static void kill_all(const char *dir)
{
	g_autofree char *procs = g_build_filename(dir, "cgroup.procs", NULL);

	for (int round = 0; round < 500; round++) {
		g_autofree char *list = NULL;
		g_auto(GStrv) pids = NULL;
		gboolean any = FALSE;

		if (!g_file_get_contents(procs, &list, NULL, NULL))
			break;
		pids = g_strsplit(list, "\n", -1);
		for (guint i = 0; pids[i]; i++)
			if (*pids[i]) {
				kill((pid_t)atoi(pids[i]), SIGKILL);
				any = TRUE;
			}
		if (!any)
			break;
		g_usleep(10000);
	}
}

void sandbox_cgroup_destroy(struct sandbox_cgroup *cg,
			    struct sandbox_cgroup_events *out)
{
	struct sandbox_cgroup_events ev = { 0 };

	for (int i = 0; i < 2 && cg->dirs[i]; i++)
		kill_all(cg->dirs[i]);
	if (cg->pids_index >= 0)
		ev.forks_refused = read_key(cg->dirs[cg->pids_index],
					    "pids.events", "max");
	if (cg->memory_index >= 0)
		/* v1 counts the kills in memory.oom_control since 4.13 */
		ev.oom_kills = read_key(cg->dirs[cg->memory_index],
					cg->memory_v2 ? "memory.events" :
							"memory.oom_control",
					"oom_kill");
	for (int i = 0; i < 2 && cg->dirs[i]; i++) {
		/* a killed process leaves the cgroup a moment after it is
		 * gone from cgroup.procs */
		for (int round = 0; round < 200 && g_rmdir(cg->dirs[i]) != 0 &&
				    errno != ENOENT;
		     round++)
			g_usleep(10000);
		g_free(cg->dirs[i]);
		g_free(cg->procs[i]);
	}
	if (out)
		*out = ev;
	memset(cg, 0, sizeof(*cg));
	cg->pids_index = -1;
	cg->memory_index = -1;
}
