#include "bot/web/repro.h"

#include "bot/web/escape.h"
#include "kernel/build/runner.h"

#define MAKE_ARM "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- O=build"

static void command(GString *out, const char *cmd)
{
	web_escape_append(out, cmd);
	g_string_append_c(out, '\n');
}

/* The Message-ID b4 starts from: the cover letter's, else the first
 * patch's. */
static const char *thread_id(const struct store_web_series *x)
{
	for (guint i = 0; i < x->parts->len; i++) {
		const struct store_web_part *p = x->parts->pdata[i];

		if (p->message_id && *p->message_id)
			return p->message_id;
	}
	return NULL;
}

void web_repro_section(GString *out, const struct store_web_series *x,
		       const char *self_url)
{
	const char *base = x->base_commit;
	const char *tree = NULL;
	const char *id = thread_id(x);
	g_autofree char *mbox =
		g_strdup_printf("%s/series/%" G_GINT64_FORMAT "/mbox",
				self_url ? self_url : "", x->id);
	g_autofree char *mbox_word = runner_shell_word(mbox);

	for (guint i = 0; i < x->jobs->len; i++) {
		const struct store_web_job *j = x->jobs->pdata[i];

		if (j->base_commit) {
			base = j->base_commit;
			tree = j->tree;
			break;
		}
	}
	g_string_append(out, "<section id=\"reproduce\"><h2>reproduce</h2>"
			     "<p id=\"repro-base\">base: ");
	if (base) {
		g_string_append(out, "<code>");
		web_escape_append(out, base);
		g_string_append(out, "</code>");
		if (tree) {
			g_string_append(out, " of tree ");
			web_escape_append(out, tree);
		}
		if (x->base_commit && tree) {
			g_string_append(out, " (the series names base-commit ");
			web_escape_append(out, x->base_commit);
			g_string_append(out, ")");
		}
	} else {
		g_string_append(out, "not known (yet): the series names none "
				     "and no job found one");
	}
	g_string_append(out, "</p>\n<pre id=\"repro-steps\">");
	if (base) {
		g_autofree char *w = runner_shell_word(base);
		g_autofree char *c =
			g_strdup_printf("git checkout -b test %s", w);

		command(out, c);
	}
	if (id) {
		g_autofree char *w = runner_shell_word(id);
		g_autofree char *c =
			g_strdup_printf("b4 am -o - -v %u %s | git am",
					x->version ? x->version : 1, w);

		g_string_append(out, "# the series from the list, with the "
				     "trailers of the replies:\n");
		command(out, c);
		g_string_append(out, "# or as armbot applied it:\n");
	}
	{
		g_autofree char *c =
			g_strdup_printf("curl -sSf %s | git am", mbox_word);

		command(out, c);
	}
	g_string_append(out, "# the build, as armbot's kbuild runs it (the "
			     "configs each check built are in its log):\n");
	command(out, MAKE_ARM " multi_v7_defconfig");
	command(out, MAKE_ARM " -j\"$(nproc)\"");
	g_string_append(out, "</pre></section>\n");
}
