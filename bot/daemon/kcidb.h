/* The checks of one series on one tree as a KCIDB document: the kernel CI
 * database's I/O schema (kcidb-io), version 4.5, which KernelCI's
 * dashboard aggregates from every CI system.  One document per series and
 * tree, written beside the logs as DATA/logs/series-ID/TREE/kcidb.json:
 *
 *   checkout  armbot:sID-TREE           the tree at the base commit with
 *                                       the series on top
 *   builds    armbot:sID-TREE-rpm-virt  the kernel that boots (ARCH=arm)
 *             armbot:sID-TREE-sparse    sparse's builds
 *   tests     sparse, boot, kunit (the runtime-PM suite as a whole) and
 *             kunit.SUITE.CASE for every KUnit case the series' boot ran
 *
 * Statuses: ok is PASS, WARN and FAIL are FAIL (a check that warns found
 * something new in the series, or fails at the base too), skipped is
 * SKIP; a KUnit case that crashed is ERROR.  The schema, written from
 * kcidb-io's documentation, is tests/data/kcidb/kcidb-v4.5.schema.json. */
#pragma once

#include <glib.h>

#include "bot/daemon/pipeline.h"

#define KCIDB_VERSION_MAJOR 4
#define KCIDB_VERSION_MINOR 5
#define KCIDB_ORIGIN "armbot"
#define KCIDB_FILE "kcidb.json"

/* What the document says beyond the outcome.  Borrowed; all optional. */
struct kcidb_input {
	const char *tree_url; /* the tree's git URL; only https:// and git://
				 ones are written (the schema's pattern) */
	const char *tree_branch;
	const char *subject; /* of the series' cover or first patch */
	const char *series_url; /* its page; its mbox is SERIES_URL/mbox */
	/* sparse's configs (make targets); NULL: the default list */
	const char *const *sparse_configs;
	gint64 start_time; /* Unix time the checks started; 0: unknown */
};

/* The document of @out, ended by a newline.  @out->log_dir holds the
 * series' mbox (series.mbox) and the boot's console (console-series.log),
 * read for the patchset hash and the KUnit cases. */
char *kcidb_document(const struct pipeline_outcome *out,
		     const struct kcidb_input *in);

/* Write kcidb_document() to @out->log_dir/kcidb.json (atomically).  Its
 * path in *@path when not NULL. */
gboolean kcidb_write(const struct pipeline_outcome *out,
		     const struct kcidb_input *in, char **path, GError **error);
