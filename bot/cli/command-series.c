/* command_print_series(), see bot/cli/command.h.  Apart from command.c
 * because the lean front program (bot/cli/front.c) links command.c and
 * must not link libgit2, which applying a series brings in. */
#include <stdio.h>

#include "bot/cli/command.h"
#include "kernel/git/odb.h"
#include "kernel/patch/am.h"

gboolean command_print_series(const struct am_series *s)
{
	if (s->base_note)
		printf("warning: %s\n", s->base_note);
	/* gitoid_hex() has four buffers: two ids per call are fine */
	printf("base: %s\n", gitoid_hex(&s->base));
	printf("series: %u patches, head %s\n", s->patches->len,
	       gitoid_hex(&s->head));
	if (!s->failed && s->patches->len)
		return TRUE;
	printf("series does not apply:\n");
	if (!s->patches->len)
		printf("| no patches\n");
	for (guint i = 0; i < s->patches->len; i++) {
		const struct am_patch *p = s->patches->pdata[i];

		if (!p->applied)
			printf("| %u/%u %s: %s\n", p->number, s->patches->len,
			       p->subject, p->reason);
	}
	return FALSE;
}
