/* icecream: the scheduler's status and the compiler tarball; see
 * kernel/build/icecc.h. */
#include "kernel/build/icecc.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "kernel/build/runner.h"

#define ICECC_MAX_NODES 4096u
#define ICECC_MAX_ANSWER (1u << 20)

static void node_free(struct icecc_node *n)
{
	g_free(n->name);
	g_free(n->address);
	g_free(n);
}

void icecc_cluster_clear(struct icecc_cluster *cl)
{
	g_clear_pointer(&cl->nodes, g_ptr_array_unref);
	memset(cl, 0, sizeof(*cl));
}

/* " NAME (IP:PORT) [ARCH] speed=S jobs=U/N load=L" */
static struct icecc_node *node_parse(const char *line)
{
	g_autoptr(GRegex) re = g_regex_new(
		"^ (\\S+) \\(([^)]*)\\) \\[[^]]*\\] .*\\bjobs=([0-9]{1,6})/"
		"([0-9]{1,6})(?: load=([0-9]{1,6}))?",
		0, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;
	struct icecc_node *n;
	g_autofree char *load = NULL;

	if (!g_regex_match(re, line, 0, &m))
		return NULL;
	n = g_new0(struct icecc_node, 1);
	n->name = g_match_info_fetch(m, 1);
	n->address = g_match_info_fetch(m, 2);
	{
		g_autofree char *u = g_match_info_fetch(m, 3);
		g_autofree char *s = g_match_info_fetch(m, 4);

		n->jobs_used = (guint)g_ascii_strtoull(u, NULL, 10);
		n->jobs_max = (guint)g_ascii_strtoull(s, NULL, 10);
	}
	load = g_match_info_fetch(m, 5);
	n->load = load && *load ? (guint)g_ascii_strtoull(load, NULL, 10) : 0;
	return n;
}

gboolean icecc_listcs_parse(const char *text, struct icecc_cluster *out)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	gboolean status = FALSE;

	memset(out, 0, sizeof(*out));
	out->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)node_free);
	for (guint i = 0; lines[i]; i++) {
		char *l = g_strchomp(lines[i]);
		struct icecc_node *n;
		unsigned hosts, queued;
		unsigned long long total;

		/* "200-ICECC 1.4.0: 8s uptime, 1 hosts, 0 jobs in queue (3
		 * total)." */
		if (g_str_has_prefix(l, "200-ICECC ") && strchr(l, ',')) {
			if (sscanf(strchr(l, ','),
				   ", %u hosts, %u jobs in queue (%llu total)",
				   &hosts, &queued, &total) == 3) {
				out->hosts = hosts;
				out->queued = queued;
				out->total_jobs = total;
				status = TRUE;
			}
			continue;
		}
		if (l[0] != ' ' || out->nodes->len >= ICECC_MAX_NODES)
			continue;
		n = node_parse(l);
		if (n)
			g_ptr_array_add(out->nodes, n);
	}
	return status;
}

guint icecc_cluster_slots(const struct icecc_cluster *cl)
{
	guint sum = 0;

	for (guint i = 0; cl->nodes && i < cl->nodes->len; i++) {
		const struct icecc_node *n = cl->nodes->pdata[i];

		sum += MIN(n->jobs_max, ICECC_MAX_JOBS);
		sum = MIN(sum, 100000u);
	}
	return sum;
}

/* Send @cmd to the text interface of the scheduler @scheduler (port + 1)
 * and read its answer up to "200 Good Bye!" (at most ICECC_MAX_ANSWER
 * bytes).  Newly allocated; NULL with @error. */
static GString *query(const char *scheduler, const char *cmd, GError **error)
{
	g_autoptr(GSocketClient) client = g_socket_client_new();
	g_autoptr(GSocketConnection) conn = NULL;
	g_autoptr(GSocketConnectable) addr = NULL;
	g_autoptr(GString) answer = g_string_new(NULL);
	g_autofree char *host = NULL;
	g_autofree char *line = g_strconcat(cmd, "\r\nquit\r\n", NULL);
	guint16 port = ICECC_SCHEDULER_PORT;
	GOutputStream *os;
	GInputStream *is;
	char buf[4096];
	gssize n;

	addr = g_network_address_parse(scheduler ? scheduler : "127.0.0.1",
				       ICECC_SCHEDULER_PORT, error);
	if (!addr) {
		g_prefix_error(error, "icecc scheduler '%s': ", scheduler);
		return NULL;
	}
	host = g_strdup(
		g_network_address_get_hostname(G_NETWORK_ADDRESS(addr)));
	port = g_network_address_get_port(G_NETWORK_ADDRESS(addr));
	g_clear_object(&addr);
	if (port == 65535) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "icecc scheduler port %u has no text interface",
			    port);
		return NULL;
	}
	addr = g_network_address_new(host, port + 1);
	g_socket_client_set_timeout(client, 5);
	conn = g_socket_client_connect(client, addr, NULL, error);
	if (!conn) {
		g_prefix_error(error, "icecc scheduler %s:%u: ", host,
			       port + 1);
		return NULL;
	}
	os = g_io_stream_get_output_stream(G_IO_STREAM(conn));
	is = g_io_stream_get_input_stream(G_IO_STREAM(conn));
	if (!g_output_stream_write_all(os, line, strlen(line), NULL, NULL,
				       error))
		return NULL;
	while ((n = g_input_stream_read(is, buf, sizeof(buf), NULL, error)) >
	       0) {
		if (answer->len + n > ICECC_MAX_ANSWER)
			break;
		g_string_append_len(answer, buf, n);
		if (strstr(answer->str, "200 Good Bye!"))
			break;
	}
	if (n < 0)
		return NULL;
	return g_steal_pointer(&answer);
}

/* How often a listcs that timed out is asked again: the scheduler answers
 * its text interface between its other work, and a loaded machine (two
 * builds beside each other) can hold it past one timeout; a scheduler
 * that refuses or is not there fails at once. */
#define ICECC_LISTCS_TRIES 3

gboolean icecc_listcs(const char *scheduler, struct icecc_cluster *out,
		      GError **error)
{
	g_autoptr(GString) answer = NULL;

	memset(out, 0, sizeof(*out));
	for (guint i = 0; !answer && i < ICECC_LISTCS_TRIES; i++) {
		g_autoptr(GError) local = NULL;

		answer = query(scheduler, "listcs", &local);
		if (answer)
			break;
		if (!g_error_matches(local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
		    i + 1 == ICECC_LISTCS_TRIES) {
			g_propagate_error(error, g_steal_pointer(&local));
			return FALSE;
		}
		g_message("icecc: %s; asking the scheduler again",
			  local->message);
	}
	if (!icecc_listcs_parse(answer->str, out)) {
		icecc_cluster_clear(out);
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "icecc scheduler %s: no status in its answer",
			    scheduler ? scheduler : "127.0.0.1");
		return FALSE;
	}
	return TRUE;
}

/* " ID STATE sub:NODE on:NODE FILE" (scheduler.cpp, dump_job()) */
guint icecc_listjobs_parse(const char *text, GHashTable *on,
			   struct icecc_jobs_now *now)
{
	g_autoptr(GRegex) re =
		g_regex_new("^ ?([0-9]{1,9}) ([A-Za-z?]{1,8}) sub:(\\S{0,64}) "
			    "on:(\\S{1,64}) ",
			    0, 0, NULL);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint n = 0;

	if (now)
		memset(now, 0, sizeof(*now));
	for (guint i = 0; lines[i]; i++) {
		g_autoptr(GMatchInfo) m = NULL;
		g_autofree char *id = NULL;
		g_autofree char *state = NULL;
		g_autofree char *submitter = NULL;
		char *node;

		if (!g_regex_match(re, lines[i], 0, &m))
			continue;
		node = g_match_info_fetch(m, 4);
		/* not yet given to a node */
		if (!strcmp(node, "<unknown>")) {
			g_free(node);
			continue;
		}
		state = g_match_info_fetch(m, 2);
		submitter = g_match_info_fetch(m, 3);
		if (now && !strcmp(state, "COMP")) {
			if (!strcmp(submitter, node))
				now->here++;
			else
				now->elsewhere++;
		}
		if (g_hash_table_size(on) >= ICECC_MAX_JOBS_SEEN) {
			g_free(node);
			continue;
		}
		id = g_match_info_fetch(m, 1);
		g_hash_table_insert(
			on, GUINT_TO_POINTER(g_ascii_strtoull(id, NULL, 10)),
			node);
		n++;
	}
	return n;
}

gboolean icecc_listjobs(const char *scheduler, GHashTable *on,
			struct icecc_jobs_now *now, GError **error)
{
	g_autoptr(GString) answer = query(scheduler, "listjobs", error);

	if (!answer)
		return FALSE;
	icecc_listjobs_parse(answer->str, on, now);
	return TRUE;
}

/* A short key for the compiler's version: the hash of `@compiler -v`. */
static char *compiler_key(const char *compiler, GError **error)
{
	const char *argv[] = { compiler, "-v", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = runner_env_new(NULL);
	g_autofree char *sum = NULL;
	g_autofree char *base = g_path_get_basename(compiler);

	o.env = (const char *const *)env;
	o.merge_stderr = TRUE;
	o.timeout_ms = 30000;
	if (!runner_run(argv, &o, &r, error))
		return NULL;
	if (!runner_result_ok(&r)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "%s -v failed: %s", compiler, r.output->str);
		runner_result_clear(&r);
		return NULL;
	}
	sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, r.output->str,
					    r.output->len);
	runner_result_clear(&r);
	return g_strdup_printf("%s-%.16s", base, sum);
}

char *icecc_env_tarball(const char *cache_dir, const char *name, GError **error)
{
	/* icecc-create-env wants paths */
	g_autofree char *compiler = g_find_program_in_path(name);
	g_autofree char *key = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *path = NULL;
	g_autofree char *tmp = NULL;
	g_autofree char *made = NULL;
	g_autofree char *gxx = NULL;
	g_autoptr(GDir) d = NULL;
	const char *argv[6];
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = runner_env_new(NULL);
	const char *entry;
	guint k = 0;

	if (!compiler) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "icecream: no compiler '%s'", name);
		return NULL;
	}
	key = compiler_key(compiler, error);
	if (!key)
		return NULL;
	dir = g_build_filename(cache_dir, "icecc", NULL);
	path = g_strconcat(dir, "/", key, ".tar.gz", NULL);
	if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return g_steal_pointer(&path);
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return NULL;
	}
	tmp = g_strconcat(dir, "/.make-XXXXXX", NULL);
	if (!g_mkdtemp(tmp)) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create a directory in '%s': %s", dir,
			    g_strerror(errno));
		return NULL;
	}
	/* icecc-create-env wants the C++ compiler beside the C one; with
	 * --gcc both are named (the C one twice when there is no g++) */
	if (g_str_has_suffix(compiler, "gcc")) {
		g_autofree char *cxx =
			g_strndup(compiler, strlen(compiler) - 3);
		g_autofree char *full = NULL;

		gxx = g_strconcat(cxx, "g++", NULL);
		full = g_find_program_in_path(gxx);
		g_free(gxx);
		gxx = full ? g_steal_pointer(&full) : g_strdup(compiler);
	}
	argv[k++] = "icecc-create-env";
	if (gxx) {
		argv[k++] = "--gcc";
		argv[k++] = compiler;
		argv[k++] = gxx;
	} else {
		argv[k++] = compiler;
	}
	argv[k] = NULL;
	o.env = (const char *const *)env;
	o.cwd = tmp;
	o.merge_stderr = TRUE;
	o.timeout_ms = 300000;
	if (!runner_run(argv, &o, &r, error))
		goto out;
	if (!runner_result_ok(&r)) {
		g_autofree char *how = runner_result_describe(&r);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "icecc-create-env %s: %s: %s", compiler, how,
			    r.output->str);
		runner_result_clear(&r);
		goto out;
	}
	runner_result_clear(&r);
	d = g_dir_open(tmp, 0, error);
	if (!d)
		goto out;
	while ((entry = g_dir_read_name(d)))
		if (g_str_has_suffix(entry, ".tar.gz"))
			made = g_build_filename(tmp, entry, NULL);
	if (!made) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "icecc-create-env %s made no tarball", compiler);
		goto out;
	}
	if (g_rename(made, path) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot rename '%s': %s", made, g_strerror(errno));
		goto out;
	}
	g_remove(tmp);
	return g_steal_pointer(&path);
out:
	if (d)
		g_dir_rewind(d);
	while (d && (entry = g_dir_read_name(d))) {
		g_autofree char *f = g_build_filename(tmp, entry, NULL);

		g_remove(f);
	}
	g_remove(tmp);
	return NULL;
}

char *icecc_last_build_path(const char *cache_dir, const char *tree)
{
	g_autofree char *name = g_strconcat("last-build-", tree, NULL);

	return g_build_filename(cache_dir, "icecc", name, NULL);
}

#define ICECC_RECORD_MAX_NODES 256u

void icecc_node_jobs_free(struct icecc_node_jobs *nj)
{
	g_free(nj->name);
	g_free(nj);
}

void icecc_last_build_clear(struct icecc_last_build *lb)
{
	g_clear_pointer(&lb->nodes, g_ptr_array_unref);
	memset(lb, 0, sizeof(*lb));
}

/* "when seconds -j local-j cluster-jobs here-s elsewhere-s", then
 * "node NAME JOBS" a node */
gboolean icecc_last_build_write(const char *path,
				const struct icecc_last_build *lb,
				GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path);
	g_autoptr(GString) text = g_string_new(NULL);

	g_string_printf(text,
			"%" G_GINT64_FORMAT " %.3f %u %u %" G_GUINT64_FORMAT
			" %.3f %.3f\n",
			lb->when, lb->seconds, lb->jobs, lb->local_jobs,
			lb->cluster_jobs, lb->here_seconds,
			lb->elsewhere_seconds);
	for (guint i = 0;
	     lb->nodes && i < lb->nodes->len && i < ICECC_RECORD_MAX_NODES;
	     i++) {
		const struct icecc_node_jobs *nj = lb->nodes->pdata[i];

		g_string_append_printf(text, "node %s %" G_GUINT64_FORMAT "\n",
				       nj->name, nj->jobs);
	}
	g_mkdir_with_parents(dir, 0755);
	return g_file_set_contents(path, text->str, text->len, error);
}

gboolean icecc_last_build_read(const char *path, struct icecc_last_build *lb,
			       GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	gsize len;
	long long when;
	unsigned long long cj;
	int fields = 0;

	memset(lb, 0, sizeof(*lb));
	if (!g_file_get_contents(path, &text, &len, error))
		return FALSE;
	if (len <= 64 * 1024)
		fields = sscanf(text, "%lld %lf %u %u %llu %lf %lf", &when,
				&lb->seconds, &lb->jobs, &lb->local_jobs, &cj,
				&lb->here_seconds, &lb->elsewhere_seconds);
	if (len > 64 * 1024 || (fields != 5 && fields != 7) ||
	    !(lb->seconds >= 0) || !(lb->here_seconds >= 0) ||
	    !(lb->elsewhere_seconds >= 0)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "%s: not a build record", path);
		return FALSE;
	}
	lb->when = when;
	lb->cluster_jobs = cj;
	lb->nodes = g_ptr_array_new_with_free_func(
		(GDestroyNotify)icecc_node_jobs_free);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 1; lines[i] && lb->nodes->len < ICECC_RECORD_MAX_NODES;
	     i++) {
		char name[65];
		unsigned long long jobs;
		struct icecc_node_jobs *nj;

		if (sscanf(lines[i], "node %64s %llu", name, &jobs) != 2)
			continue;
		nj = g_new0(struct icecc_node_jobs, 1);
		nj->name = g_strdup(name);
		nj->jobs = jobs;
		g_ptr_array_add(lb->nodes, nj);
	}
	return TRUE;
}

double icecc_last_build_speedup(const struct icecc_last_build *lb)
{
	guint slots = lb->local_jobs ? lb->local_jobs : 1;

	if (!(lb->seconds > 0))
		return 0;
	return (lb->seconds + lb->elsewhere_seconds / slots) / lb->seconds;
}
