/* Drivers in the wrong place (see misplaced.h). */
#include "kernel/similar/misplaced.h"

#include <string.h>

#include "kernel/similar/simpatch.h"

/* What implements a subsystem's interface: a struct of its type defined
 * or embedded (not a pointer), or a call or macro that registers one. */
static const struct {
	const char *name, *folder;
	gboolean call;
} interfaces[] = {
	{ "irq_chip", "drivers/irqchip/", FALSE },
	{ "irq_alloc_domain_generic_chips", "drivers/irqchip/", TRUE },
	{ "irq_alloc_generic_chip", "drivers/irqchip/", TRUE },
	{ "IRQCHIP_DECLARE", "drivers/irqchip/", TRUE },
	{ "clocksource", "drivers/clocksource/", FALSE },
	{ "clock_event_device", "drivers/clocksource/", FALSE },
	{ "TIMER_OF_DECLARE", "drivers/clocksource/", TRUE },
	{ "gpio_chip", "drivers/gpio/", FALSE },
	{ "gpiochip_add_data", "drivers/gpio/", TRUE },
	{ "devm_gpiochip_add_data", "drivers/gpio/", TRUE },
	{ "clk_ops", "drivers/clk/", FALSE },
	{ "CLK_OF_DECLARE", "drivers/clk/", TRUE },
	{ "pinctrl_ops", "drivers/pinctrl/", FALSE },
	{ "pinctrl_desc", "drivers/pinctrl/", FALSE },
	{ "cpufreq_driver", "drivers/cpufreq/", FALSE },
	{ "iommu_ops", "drivers/iommu/", FALSE },
	{ "platform_driver", "drivers/ (its subsystem's folder)", FALSE },
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

/* A struct of an interface's type, defined or embedded: "struct T name"
 * then "=", ";" or "[" (a pointer or a function's parameter is none);
 * a registering call or macro at a line's start; MACHINE_START. */
static GRegex *definition_regex(void)
{
	static GRegex *re;

	if (g_once_init_enter(&re)) {
		GString *types = g_string_new(NULL);
		GString *calls = g_string_new(NULL);
		g_autofree char *pattern = NULL;
		GRegex *r;

		for (guint i = 0; i < G_N_ELEMENTS(interfaces); i++) {
			GString *alt = interfaces[i].call ? calls : types;

			g_string_append_printf(alt, "%s%s", alt->len ? "|" : "",
					       interfaces[i].name);
		}
		pattern = g_strdup_printf(
			"(?m)^[ \\t]*(?:(?:static|const)\\s+)*struct\\s+(%s)\\s+"
			"[A-Za-z_][A-Za-z0-9_]*\\s*(?:\\[[^\\]]*\\]\\s*)?(?:=|;)"
			"|\\b(%s|MACHINE_START)\\s*\\(",
			types->str, calls->str);
		g_string_free(types, TRUE);
		g_string_free(calls, TRUE);
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

			const char *name = board && *board ? board : type;

			if (!strcmp(name, "MACHINE_START")) {
				what = "MACHINE_START";
			} else {
				for (guint j = 0; j < G_N_ELEMENTS(interfaces);
				     j++)
					if (!strcmp(name, interfaces[j].name)) {
						what = interfaces[j].name;
						folder = interfaces[j].folder;
					}
			}
			if (!what)
				continue;
			for (guint j = 0; j < out->len; j++) {
				const struct misplaced *o = out->pdata[j];

				if (!strcmp(o->path, p->path) &&
				    !g_strcmp0(o->folder, folder) &&
				    (folder || o->what == what))
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
	/* a platform driver that is also of a subsystem: the subsystem */
	for (guint i = out->len; i-- > 0;) {
		const struct misplaced *m = out->pdata[i];

		if (strcmp(m->what, "platform_driver"))
			continue;
		for (guint j = 0; j < out->len; j++) {
			const struct misplaced *o = out->pdata[j];

			if (o != m && o->folder && !strcmp(o->path, m->path)) {
				g_ptr_array_remove_index(out, i);
				break;
			}
		}
	}
	return out;
}
