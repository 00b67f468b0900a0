/* The boards a job booted besides virt (bot/daemon/pipeline.c's boards
 * check, qemu/boards.h): one row per (job, board), in the reply's order,
 * for the series page and /api/series/ID. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_boards;

struct store_board {
	char *board; /* "vexpress-a9" */
	char *status; /* "ok", "warn", "fail", "skipped" (not booted), as the
			checks' */
	char *summary; /* "userspace at 0.52 s", "kernel panic", why not */
	char *reason; /* why the series selects it */
	char *detail; /* a failure's console tail; may be NULL */
	double seconds; /* build and boot */
};

/* Record (or replace) board @b of job @job_id at @position. */
gboolean store_boards_set(struct store *st, gint64 job_id, guint position,
			  const struct store_board *b, GError **error);

/* The boards of job @job_id (struct store_board *), in order. */
GPtrArray *store_boards_job(struct store *st, gint64 job_id, GError **error);

void store_board_free(struct store_board *b);
