/* Drivers in the wrong place (see misplaced.h). */
#include "kernel/similar/misplaced.h"

#include <string.h>

#include "kernel/similar/simpatch.h"

static const struct {
	const char *type, *folder;
} interfaces[] = {
	{ "irq_chip", "drivers/irqchip/" },
	{ "clocksource", "drivers/clocksource/" },
	{ "clock_event_device", "drivers/clocksource/" },
	{ "gpio_chip", "drivers/gpio/" },
	{ "clk_ops", "drivers/clk/" },
	{ "pinctrl_ops", "drivers/pinctrl/" },
	{ "pinctrl_desc", "drivers/pinctrl/" },
	{ "cpufreq_driver", "drivers/cpufreq/" },
	{ "iommu_ops", "drivers/iommu/" },
	{ "platform_driver", "drivers/ (its subsystem's folder)" },
};

gboolean misplaced_arm_path(const char *path)
{
	const char *p;

	if (strncmp(path, "arch/arm/", 9))
		return FALSE;
	p = path + 9;
	return (!strncmp(p, "mach-", 5) || !strncmp(p, "plat-", 5)) &&
	       strchr(p, '/');
}

static void misplaced_free(gpointer p)
{
	struct misplaced *m = p;

	g_free(m->path);
	g_free(m);
}

/* A definition of the type: "struct T name =", "struct T name;",
 * "struct T name[" (not a pointer, not a declaration of a function) */
static GRegex *definition_regex(void)
{
	static GRegex *re;

	if (g_once_init_enter(&re)) {
		GString *alt = g_string_new(NULL);
		g_autofree char *pattern = NULL;
		GRegex *r;

		for (guint i = 0; i < G_N_ELEMENTS(interfaces); i++)
			g_string_append_printf(alt, "%s%s", i ? "|" : "",
					       interfaces[i].type);
		pattern = g_strdup_printf(
			"(?m)^(?:(?:static|const)\\s+)*struct\\s+(%s)\\s+"
			"[A-Za-z_][A-Za-z0-9_]*\\s*(?:\\[[^\\]]*\\]\\s*)?(?:=|;)"
			"|^\\s*(MACHINE_START)\\s*\\(",
			alt->str);
		g_string_free(alt, TRUE);
		r = g_regex_new(pattern, G_REGEX_OPTIMIZE, 0, NULL);
		g_once_init_leave(&re, r);
	}
	return re;
}

GPtrArray *misplaced_find(const GPtrArray *pieces)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(misplaced_free);

	for (guint i = 0; i < pieces->len; i++) {
		const struct simpatch_piece *p = pieces->pdata[i];
		g_autoptr(GMatchInfo) mi = NULL;

		if (!misplaced_arm_path(p->path))
			continue;
		g_regex_match_full(definition_regex(), p->text->str,
				   p->text->len, 0, 0, &mi, NULL);
		for (; g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
			g_autofree char *type = g_match_info_fetch(mi, 1);
			g_autofree char *board = g_match_info_fetch(mi, 2);
			struct misplaced *m;
			gint start = 0, end;
			gboolean dup = FALSE;
			guint32 line = p->first_line;
			const char *what = NULL, *folder = NULL;

			if (board && *board) {
				what = "MACHINE_START";
			} else {
				for (guint j = 0; j < G_N_ELEMENTS(interfaces);
				     j++)
					if (!g_strcmp0(type, interfaces[j].type)) {
						what = interfaces[j].type;
						folder = interfaces[j].folder;
					}
			}
			if (!what)
				continue;
			for (guint j = 0; j < out->len; j++) {
				const struct misplaced *o = out->pdata[j];

				if (!strcmp(o->path, p->path) && o->what == what)
					dup = TRUE;
			}
			if (dup)
				continue;
			g_match_info_fetch_pos(mi, 0, &start, &end);
			/* the added lines are consecutive in the text; the
			 * new-side line is approximate across context lines */
			for (gint k = 0; k < start; k++)
				if (p->text->str[k] == '\n')
					line++;
			m = g_new0(struct misplaced, 1);
			m->path = g_strdup(p->path);
			m->line = line;
			m->what = what;
			m->folder = folder;
			g_ptr_array_add(out, m);
		}
	}
	return out;
}
