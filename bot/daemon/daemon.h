/* `armbot run`: the daemon.  On one GMainLoop: the configured sources
 * deliver mail into the store (each in its thread, bot/sources/source.h); after
 * every batch the ready series are queued (bot/daemon/dispatch.h); one worker
 * thread per tree checks them (bot/daemon/worker.h) and, between them, fetches
 * its tree when its update-interval says so (bot/daemon/treeupdate.h); the
 * outbox thread sends the replies (bot/daemon/outbox.h).  All state is in the store, so the daemon
 * can be killed at any moment: on start it puts jobs that were running
 * back in the queue and settles replies that were being sent.  SIGTERM
 * and SIGINT stop it after the series being checked (kill -9 is safe too:
 * that series is then checked again on the next start). */
#pragma once

#include <glib.h>

#include "config/config.h"

struct daemon_options {
	const char *data_dir;
	const struct armbot_config *config;
	guint max_attempts; /* 0: 3 */
	guint lab_retry_s; /* 0: 60 (worker_options) */
};

/* Run until stopped.  Returns the exit status. */
int daemon_run(const struct daemon_options *opts);
