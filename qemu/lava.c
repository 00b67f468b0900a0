/* LAVA job definitions and answers (see qemu/lava.h). */
#include "qemu/lava.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define LAVA_MAX_CASES 100000
#define LAVA_ERROR (g_quark_from_static_string("lava-error"))

/* @s as a YAML double-quoted scalar (JSON's escapes, which YAML reads). */
static void append_quoted(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			g_string_append_printf(out, "\\x%02x", c);
		else
			g_string_append_c(out, c);
	}
	g_string_append_c(out, '"');
}

static void append_kv(GString *out, const char *indent, const char *key,
		      const char *value)
{
	g_string_append_printf(out, "%s%s: ", indent, key);
	append_quoted(out, value);
	g_string_append_c(out, '\n');
}

static guint minutes(guint seconds)
{
	return (seconds + 59) / 60;
}

char *lava_job_definition(const struct lava_job_input *in)
{
	GString *y = g_string_new(NULL);
	guint t = in->timeout_s ? in->timeout_s : 60;
	g_autofree char *kernel_arg = NULL;

	/* LAVA substitutes {kernel}: the command line goes after it, in
	 * the image_arg, quoted for the shell LAVA does not use (it splits
	 * the words itself, honouring the quotes) */
	kernel_arg = g_strdup_printf("-kernel {kernel} -append '%s'",
				     in->append ? in->append : "");
	g_string_append(y, "device_type: qemu\n");
	append_kv(y, "", "job_name", in->name ? in->name : "armbot boot");
	g_string_append(y, "priority: medium\nvisibility: public\n");
	g_string_append_printf(y,
			       "timeouts:\n"
			       "  job: {minutes: %u}\n"
			       "  action: {minutes: %u}\n"
			       "  connection: {minutes: 2}\n",
			       3 * minutes(t) + 5, minutes(t) + 2);
	/* the qemu device type's template (qemu.jinja2) reads the machine,
	 * cpu and memory from the job's context */
	g_string_append(y, "context:\n  arch: arm\n  cpu: cortex-a15\n");
	append_kv(y, "  ", "machine", in->machine ? in->machine : "virt");
	g_string_append_printf(y, "  memory: %u\n",
			       in->mem_mb ? in->mem_mb : 256);
	g_string_append(y, "actions:\n"
			   "- deploy:\n"
			   "    to: tmpfs\n"
			   "    timeout: {minutes: 5}\n"
			   "    images:\n"
			   "      kernel:\n");
	append_kv(y, "        ", "image_arg", kernel_arg);
	append_kv(y, "        ", "url", in->kernel_url);
	if (in->dtb_url) {
		g_string_append(y, "      dtb:\n");
		append_kv(y, "        ", "image_arg", "-dtb {dtb}");
		append_kv(y, "        ", "url", in->dtb_url);
	}
	g_string_append(y, "      ramdisk:\n");
	append_kv(y, "        ", "image_arg", "-initrd {ramdisk}");
	append_kv(y, "        ", "url", in->initrd_url);
	g_string_append_printf(y,
			       "- boot:\n"
			       "    method: qemu\n"
			       "    media: tmpfs\n"
			       "    timeout: {minutes: %u}\n",
			       minutes(t) + 1);
	/* the monitor turns KTAP's result lines into LAVA test cases; it
	 * ends at armbot's init's last line (qemu/guest/init.c) */
	g_string_append_printf(
		y,
		"- test:\n"
		"    timeout: {minutes: %u}\n"
		"    monitors:\n"
		"    - name: kunit\n"
		"      start: \"KTAP version 1\"\n"
		"      end: \"armbot-init: done\"\n"
		"      pattern: \"(?P<result>ok|not ok) \\\\d+ "
		"(?P<test_case_id>[A-Za-z0-9_.-]+)\"\n"
		"      fixupdict: {\"ok\": \"pass\", \"not ok\": \"fail\"}\n",
		minutes(t) + 1);
	return g_string_free(y, FALSE);
}

const char *lava_job_outcome_name(enum lava_job_outcome o)
{
	switch (o) {
	case LAVA_JOB_PENDING:
		return "pending";
	case LAVA_JOB_COMPLETE:
		return "complete";
	case LAVA_JOB_INCOMPLETE:
		return "incomplete";
	case LAVA_JOB_INFRA:
		return "infrastructure error";
	case LAVA_JOB_CANCELED:
		return "canceled";
	case LAVA_JOB_TIMEOUT:
		return "timed out";
	}
	return "?";
}

static JsonNode *parse_json(const char *json, gsize len, GError **error)
{
	g_autoptr(JsonParser) p = json_parser_new_immutable();

	if (!json_parser_load_from_data(p, json, (gssize)len, error))
		return NULL;
	if (!json_parser_get_root(p) ||
	    !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
		g_set_error(error, LAVA_ERROR, 1, "not a JSON object");
		return NULL;
	}
	return json_node_ref(json_parser_get_root(p));
}

/* The string member @name of @o, or NULL (absent, null, not a string). */
static char *member_string(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);

	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return g_strdup(json_node_get_string(n));
}

gboolean lava_job_status_parse(const char *json, gsize len,
			       struct lava_job_status *out, GError **error)
{
	g_autoptr(JsonNode) root = parse_json(json, len, error);
	JsonObject *o;
	JsonNode *id;

	memset(out, 0, sizeof(*out));
	if (!root)
		return FALSE;
	o = json_node_get_object(root);
	id = json_object_get_member(o, "id");
	out->state = member_string(o, "state");
	out->health = member_string(o, "health");
	if (!id || !JSON_NODE_HOLDS_VALUE(id) ||
	    json_node_get_value_type(id) != G_TYPE_INT64 ||
	    json_node_get_int(id) <= 0 || !out->state || !out->health) {
		lava_job_status_clear(out);
		g_set_error(error, LAVA_ERROR, 1,
			    "not a LAVA job (no id, state or health)");
		return FALSE;
	}
	out->id = (guint64)json_node_get_int(id);
	out->device = member_string(o, "actual_device");
	out->failure = member_string(o, "failure_comment");
	return TRUE;
}

void lava_job_status_clear(struct lava_job_status *st)
{
	g_free(st->state);
	g_free(st->health);
	g_free(st->device);
	g_free(st->failure);
	memset(st, 0, sizeof(*st));
}

guint64 lava_submit_answer_parse(const char *json, gsize len, GError **error)
{
	g_autoptr(JsonNode) root = parse_json(json, len, error);
	JsonNode *ids;
	JsonArray *a;
	JsonNode *first;

	if (!root)
		return 0;
	ids = json_object_get_member(json_node_get_object(root), "job_ids");
	if (!ids || !JSON_NODE_HOLDS_ARRAY(ids) ||
	    json_array_get_length(a = json_node_get_array(ids)) != 1 ||
	    !JSON_NODE_HOLDS_VALUE(first = json_array_get_element(a, 0)) ||
	    json_node_get_value_type(first) != G_TYPE_INT64 ||
	    json_node_get_int(first) <= 0) {
		g_set_error(error, LAVA_ERROR, 1,
			    "the server's answer names no job");
		return 0;
	}
	return (guint64)json_node_get_int(first);
}

/* One "results" entry of the log: the job's own result (definition
 * "lava", case "job") carries the error_type of a failed job. */
static void read_result(JsonObject *msg, struct lava_log *out)
{
	g_autofree char *def = member_string(msg, "definition");
	g_autofree char *name = member_string(msg, "case");
	JsonNode *extra = json_object_get_member(msg, "extra");
	JsonObject *e;

	g_autofree char *result = member_string(msg, "result");

	if (def && name && result && strcmp(def, "lava")) {
		/* a case the monitor parsed */
		if (out->cases->len < LAVA_MAX_CASES)
			g_ptr_array_add(out->cases,
					g_strdup_printf("%s=%s", name, result));
		return;
	}
	if (g_strcmp0(def, "lava") || !extra || !JSON_NODE_HOLDS_OBJECT(extra))
		return;
	e = json_node_get_object(extra);
	if (!g_strcmp0(name, "job")) {
		g_autofree char *type = member_string(e, "error_type");
		g_autofree char *msg_text = member_string(e, "error_msg");

		if (type && !out->error_type) {
			out->error_type = g_steal_pointer(&type);
			g_free(out->error_msg);
			out->error_msg = g_steal_pointer(&msg_text);
		}
	}
}

void lava_log_parse(const char *text, gsize len, gsize max_console,
		    struct lava_log *out)
{
	const char *p = text, *end = text + len;
	g_autoptr(JsonParser) parser = json_parser_new_immutable();

	memset(out, 0, sizeof(*out));
	out->console = g_string_new(NULL);
	out->cases = g_ptr_array_new_with_free_func(g_free);
	while (p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *line_end = nl ? nl : end;
		const char *s = p;
		JsonNode *root;
		JsonObject *o;
		JsonNode *msg;
		g_autofree char *lvl = NULL;

		p = nl ? nl + 1 : end;
		if (line_end - s < 3 || s[0] != '-' || s[1] != ' ' ||
		    s[2] != '{')
			continue;
		s += 2;
		if (!json_parser_load_from_data(parser, s, line_end - s, NULL))
			continue;
		root = json_parser_get_root(parser);
		if (!root || !JSON_NODE_HOLDS_OBJECT(root))
			continue;
		o = json_node_get_object(root);
		lvl = member_string(o, "lvl");
		msg = json_object_get_member(o, "msg");
		if (!lvl || !msg)
			continue;
		if (!strcmp(lvl, "target") && JSON_NODE_HOLDS_VALUE(msg) &&
		    json_node_get_value_type(msg) == G_TYPE_STRING) {
			const char *m = json_node_get_string(msg);
			gsize mlen = strlen(m);

			if (out->console->len + mlen + 1 <= max_console) {
				g_string_append_len(out->console, m,
						    (gssize)mlen);
				g_string_append_c(out->console, '\n');
			}
		} else if (!strcmp(lvl, "results") &&
			   JSON_NODE_HOLDS_OBJECT(msg)) {
			read_result(json_node_get_object(msg), out);
		} else if (JSON_NODE_HOLDS_VALUE(msg) &&
			   json_node_get_value_type(msg) == G_TYPE_STRING &&
			   (!strcmp(lvl, "error") || !strcmp(lvl, "info"))) {
			const char *m = json_node_get_string(msg);

			if (strstr(m, "timed out after"))
				out->timed_out = TRUE;
			if (!strcmp(lvl, "info") &&
			    g_str_has_prefix(m, "ok: end string found"))
				out->monitor_end = TRUE;
		}
	}
}

void lava_log_clear(struct lava_log *log)
{
	if (log->console)
		g_string_free(log->console, TRUE);
	g_clear_pointer(&log->cases, g_ptr_array_unref);
	g_free(log->error_type);
	g_free(log->error_msg);
	memset(log, 0, sizeof(*log));
}

enum lava_job_outcome lava_job_outcome(const struct lava_job_status *st,
				       const struct lava_log *log)
{
	const char *type = log ? log->error_type : NULL;

	if (g_strcmp0(st->state, "Finished"))
		return LAVA_JOB_PENDING;
	if (!g_strcmp0(st->health, "Complete"))
		return LAVA_JOB_COMPLETE;
	if (!g_strcmp0(st->health, "Canceled"))
		return LAVA_JOB_CANCELED;
	/* Incomplete (or Unknown): whose fault it was is the error type
	 * LAVA gives the job (lava_common/exceptions.py):
	 * InfrastructureError, ConfigurationError, LAVABug are the lab's;
	 * JobError and TestError the job's */
	if (!g_strcmp0(type, "Infrastructure") ||
	    !g_strcmp0(type, "Configuration") || !g_strcmp0(type, "Bug"))
		return LAVA_JOB_INFRA;
	if (!g_strcmp0(type, "Canceled"))
		return LAVA_JOB_CANCELED;
	if (!g_strcmp0(type, "LAVATimeout") || (log && log->timed_out))
		return LAVA_JOB_TIMEOUT;
	return LAVA_JOB_INCOMPLETE;
}
