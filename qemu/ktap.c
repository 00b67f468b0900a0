/* A KTAP reader for kernel consoles.  Nesting follows indentation
 * (ktap.rst: a subtest is indented four spaces more than its parent);
 * KUnit in 6.1 prints no line when a case starts, so a case is what runs
 * between the result line before it and its own, and everything printed
 * in between (diagnostics, an oops) belongs to it. */
#include "qemu/ktap.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DIAGNOSTICS 400

struct level {
	guint indent;
	char *name;
	guint planned;
	guint seen;
	GPtrArray *pending; /* lines since the last result */
	struct ktap_suite *suite;
};

struct parser {
	struct ktap_report *report;
	GPtrArray *stack; /* struct level *; [0] is the root */
};

static void level_free(struct level *l)
{
	g_free(l->name);
	g_ptr_array_unref(l->pending);
	g_free(l);
}

static struct level *push_level(struct parser *p, guint indent)
{
	struct level *l = g_new0(struct level, 1);

	l->indent = indent;
	l->pending = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(p->stack, l);
	return l;
}

static struct level *top(struct parser *p)
{
	return p->stack->pdata[p->stack->len - 1];
}

/* "outer.inner" for the levels above the root. */
static char *suite_path(struct parser *p)
{
	GString *s = g_string_new(NULL);

	for (guint i = 1; i < p->stack->len; i++) {
		struct level *l = p->stack->pdata[i];

		if (s->len)
			g_string_append_c(s, '.');
		g_string_append(s, l->name ? l->name : "?");
	}
	return g_string_free(s, FALSE);
}

/* The suite record of @l, created when the level gets its name or plan. */
static struct ktap_suite *level_suite(struct parser *p, struct level *l)
{
	if (!l->suite) {
		l->suite = g_new0(struct ktap_suite, 1);
		l->suite->name = suite_path(p);
		g_ptr_array_add(p->report->suites, l->suite);
	}
	return l->suite;
}

static void add_case(struct parser *p, struct level *l, guint number,
		     const char *name, enum ktap_status status,
		     const char *directive)
{
	struct ktap_case *c = g_new0(struct ktap_case, 1);

	c->suite = suite_path(p);
	c->name = g_strdup(name);
	c->number = number;
	c->status = status;
	c->directive = g_strdup(directive);
	c->diagnostics = g_steal_pointer(&l->pending);
	l->pending = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(p->report->cases, c);
}

/* Close the innermost level.  @result_status is the status its parent's
 * result line gave it; with @crashed the output ended inside it. */
static void pop_level(struct parser *p, gboolean crashed,
		      enum ktap_status result_status)
{
	struct level *l = top(p);
	struct ktap_suite *s = level_suite(p, l);

	if (crashed) {
		g_autofree char *name = g_strdup_printf("#%u", l->seen + 1);

		/* the case that was running when the output stopped */
		add_case(p, l, l->seen + 1, name, KTAP_CRASHED, NULL);
		s->status = KTAP_CRASHED;
		p->report->crashed = TRUE;
	} else {
		s->status = result_status;
		s->has_result = TRUE;
	}
	s->planned = l->planned;
	s->seen = l->seen;
	g_ptr_array_remove_index(p->stack, p->stack->len - 1);
}

/* "ok 3 - name # SKIP why" / "not ok 3 name".  Returns FALSE when @line
 * is not a result line. */
static gboolean parse_result(const char *line, gboolean *ok, guint *number,
			     char **name, char **directive)
{
	const char *s = line;
	char *end;
	const char *hash;

	if (g_str_has_prefix(s, "ok ")) {
		*ok = TRUE;
		s += 3;
	} else if (g_str_has_prefix(s, "not ok ")) {
		*ok = FALSE;
		s += 7;
	} else {
		return FALSE;
	}
	if (!g_ascii_isdigit(*s))
		return FALSE;
	*number = (guint)strtoul(s, &end, 10);
	s = end;
	while (*s == ' ')
		s++;
	if (g_str_has_prefix(s, "- "))
		s += 2;
	hash = strstr(s, " # ");
	if (!hash && s[0] == '#' && s[1] == ' ')
		hash = s - 1;
	*name = hash ? g_strndup(s, MAX(hash - s, 0)) : g_strdup(s);
	g_strstrip(*name);
	*directive = hash ? g_strstrip(g_strdup(hash + 3)) : NULL;
	return TRUE;
}

static void on_result(struct parser *p, guint indent, const char *text)
{
	g_autofree char *name = NULL;
	g_autofree char *directive = NULL;
	enum ktap_status status;
	struct level *l;
	gboolean ok;
	guint number;

	if (!parse_result(text, &ok, &number, &name, &directive))
		return;
	status = ok ? KTAP_PASS : KTAP_FAIL;
	if (directive && !g_ascii_strncasecmp(directive, "SKIP", 4))
		status = KTAP_SKIP;

	if (top(p)->indent > indent) {
		/* the result line of the subtest that just ended */
		if (!top(p)->name)
			top(p)->name = g_strdup(name);
		pop_level(p, FALSE, status);
		/* a suite's result; deeper, a parameterised case's, which is
		 * a case of the enclosing suite */
		if (top(p)->indent == 0)
			return;
	}
	if (top(p)->indent < indent)
		push_level(p, indent);
	l = top(p);
	if (l->indent == 0) {
		/* a case outside any suite */
		add_case(p, l, number, name, status, directive);
		return;
	}
	level_suite(p, l);
	l->seen++;
	add_case(p, l, number, name, status, directive);
}

static void on_line(struct parser *p, const char *raw)
{
	const char *text = raw;
	guint indent = 0;
	struct level *l;

	while (*text == ' ') {
		text++;
		indent++;
	}
	if (!*text)
		return;
	if (g_str_has_prefix(text, "KTAP version ") ||
	    g_str_has_prefix(text, "TAP version ")) {
		if (indent > top(p)->indent)
			push_level(p, indent);
		return;
	}
	if (g_str_has_prefix(text, "# Subtest: ")) {
		if (indent > top(p)->indent)
			push_level(p, indent);
		l = top(p);
		g_free(l->name);
		l->name = g_strstrip(g_strdup(text + strlen("# Subtest: ")));
		level_suite(p, l);
		return;
	}
	if (g_str_has_prefix(text, "1..") && g_ascii_isdigit(text[3])) {
		if (indent > top(p)->indent)
			push_level(p, indent);
		top(p)->planned = (guint)strtoul(text + 3, NULL, 10);
		return;
	}
	if (g_str_has_prefix(text, "ok ") ||
	    g_str_has_prefix(text, "not ok ")) {
		on_result(p, indent, text);
		return;
	}
	/* diagnostics, continuation lines and kernel messages: what the
	 * running case printed, once inside a suite */
	l = top(p);
	if (l->indent == 0 && p->stack->len == 1)
		return;
	if (l->pending->len < MAX_DIAGNOSTICS)
		g_ptr_array_add(l->pending, g_strdup(raw));
}

/* Strip the printk prefix "[    1.234567] " (and a caller id "[T1] "). */
static const char *strip_timestamp(const char *line)
{
	const char *s = line;

	for (int i = 0; i < 2 && *s == '['; i++) {
		const char *close = strchr(s, ']');

		if (!close || close - s > 20)
			break;
		if (i == 0 && !strchr(s, '.'))
			break;
		s = close + 1;
		if (*s == ' ')
			s++;
		if (*s != '[')
			break;
	}
	return s;
}

struct ktap_report *ktap_parse(const char *console)
{
	struct ktap_report *report = g_new0(struct ktap_report, 1);
	struct parser p = { report, NULL };
	g_auto(GStrv) lines = g_strsplit(console, "\n", -1);

	report->cases = g_ptr_array_new();
	report->suites = g_ptr_array_new();
	p.stack = g_ptr_array_new_with_free_func((GDestroyNotify)level_free);
	push_level(&p, 0);
	for (guint i = 0; lines[i]; i++) {
		char *cr = strchr(lines[i], '\r');

		if (cr)
			*cr = '\0';
		on_line(&p, strip_timestamp(lines[i]));
	}
	while (p.stack->len > 1)
		pop_level(&p, TRUE, KTAP_CRASHED);
	g_ptr_array_unref(p.stack);
	return report;
}

guint ktap_count(const struct ktap_report *report, enum ktap_status status)
{
	guint n = 0;

	for (guint i = 0; i < report->cases->len; i++)
		if (((struct ktap_case *)report->cases->pdata[i])->status ==
		    status)
			n++;
	return n;
}

const struct ktap_case *ktap_find(const struct ktap_report *report,
				  const char *suite, const char *name)
{
	for (guint i = 0; report && i < report->cases->len; i++) {
		const struct ktap_case *c = report->cases->pdata[i];

		if (!strcmp(c->suite, suite) && !strcmp(c->name, name))
			return c;
	}
	return NULL;
}

const char *ktap_status_name(enum ktap_status status)
{
	switch (status) {
	case KTAP_PASS:
		return "pass";
	case KTAP_FAIL:
		return "fail";
	case KTAP_SKIP:
		return "skip";
	case KTAP_CRASHED:
		return "crashed";
	}
	return "?";
}

static void case_free(struct ktap_case *c)
{
	g_free(c->suite);
	g_free(c->name);
	g_free(c->directive);
	g_clear_pointer(&c->diagnostics, g_ptr_array_unref);
	g_free(c);
}

void ktap_report_free(struct ktap_report *report)
{
	if (!report)
		return;
	for (guint i = 0; i < report->cases->len; i++)
		case_free(report->cases->pdata[i]);
	for (guint i = 0; i < report->suites->len; i++) {
		struct ktap_suite *s = report->suites->pdata[i];

		g_free(s->name);
		g_free(s);
	}
	g_ptr_array_unref(report->cases);
	g_ptr_array_unref(report->suites);
	g_free(report);
}

static gboolean failed(enum ktap_status s)
{
	return s == KTAP_FAIL || s == KTAP_CRASHED;
}

void ktap_compare(const struct ktap_report *base, const struct ktap_report *now,
		  struct ktap_diff *out)
{
	out->new_failures = g_ptr_array_new();
	out->fixed = g_ptr_array_new();
	out->still_failing = g_ptr_array_new();
	out->passed = g_ptr_array_new();
	out->skipped = g_ptr_array_new();
	out->not_run = g_ptr_array_new();
	for (guint i = 0; i < now->cases->len; i++) {
		struct ktap_case *c = now->cases->pdata[i];
		const struct ktap_case *b = ktap_find(base, c->suite, c->name);
		gboolean was_failing = b && failed(b->status);

		if (c->status == KTAP_SKIP)
			g_ptr_array_add(out->skipped, c);
		else if (failed(c->status))
			g_ptr_array_add(was_failing ? out->still_failing :
						      out->new_failures,
					c);
		else
			g_ptr_array_add(was_failing ? out->fixed : out->passed,
					c);
	}
	for (guint i = 0; base && i < base->cases->len; i++) {
		struct ktap_case *b = base->cases->pdata[i];

		/* a crashed case has no real name to match */
		if (b->status != KTAP_CRASHED &&
		    !ktap_find(now, b->suite, b->name))
			g_ptr_array_add(out->not_run, b);
	}
}

void ktap_diff_clear(struct ktap_diff *diff)
{
	GPtrArray **all[] = { &diff->new_failures,  &diff->fixed,
			      &diff->still_failing, &diff->passed,
			      &diff->skipped,	    &diff->not_run };

	for (guint i = 0; i < G_N_ELEMENTS(all); i++)
		g_clear_pointer(all[i], g_ptr_array_unref);
}
