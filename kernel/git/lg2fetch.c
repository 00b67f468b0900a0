/* Fetching with libgit2; see kernel/git/lg2fetch.h. */
#include "kernel/git/lg2fetch.h"

#include "kernel/git/libgit2.h"

struct callbacks {
	lg2fetch_transfer_fn transfer;
	lg2fetch_sideband_fn sideband;
	gpointer data;
};

static void stats_from(struct lg2fetch_stats *out,
		       const git_indexer_progress *s)
{
	out->total_objects = s->total_objects;
	out->received_objects = s->received_objects;
	out->indexed_objects = s->indexed_objects;
	out->total_deltas = s->total_deltas;
	out->indexed_deltas = s->indexed_deltas;
	out->received_bytes = s->received_bytes;
	out->done = s->received_objects == s->total_objects &&
		    s->indexed_deltas == s->total_deltas;
}

/* a negative return aborts the fetch (libgit2's callback rule) */
static int on_transfer(const git_indexer_progress *stats, void *payload)
{
	struct callbacks *c = payload;
	struct lg2fetch_stats s;

	if (!c->transfer)
		return 0;
	stats_from(&s, stats);
	return c->transfer(&s, c->data) ? 0 : -1;
}

static int on_sideband(const char *text, int len, void *payload)
{
	struct callbacks *c = payload;

	return !c->sideband || c->sideband(c->data) ? 0 : -1;
}

struct git_remote *lg2fetch_remote_new(struct git_repository *repo,
				       const char *url)
{
	git_remote_create_options create;
	git_remote *remote = NULL;

	/* an anonymous remote; url.*.insteadOf is skipped: the URL is used
	 * as written (and libgit2 1.5 leaks the regex match data of that
	 * config lookup) */
	git_remote_create_options_init(&create,
				       GIT_REMOTE_CREATE_OPTIONS_VERSION);
	create.repository = repo;
	create.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
	if (git_remote_create_with_opts(&remote, url, &create) < 0)
		return NULL;
	return remote;
}

void lg2fetch_remote_free(struct git_remote *remote)
{
	git_remote_free(remote);
}

gboolean lg2fetch_run(struct git_remote *remote, char **refspecs, guint n,
		      lg2fetch_transfer_fn transfer,
		      lg2fetch_sideband_fn sideband, gpointer data,
		      const char *message)
{
	struct callbacks c = { transfer, sideband, data };
	git_strarray specs = { refspecs, n };
	git_fetch_options opts;

	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	opts.callbacks.transfer_progress = on_transfer;
	opts.callbacks.sideband_progress = on_sideband;
	opts.callbacks.payload = &c;
	opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_AUTO;
	return git_remote_fetch(remote, &specs, &opts, message) == 0;
}

void lg2fetch_stats(struct git_remote *remote, struct lg2fetch_stats *out)
{
	stats_from(out, git_remote_stats(remote));
}

char *lg2fetch_default_branch(struct git_remote *remote)
{
	git_buf buf = GIT_BUF_INIT;
	char *out = NULL;

	if (git_remote_default_branch(&buf, remote) == 0)
		out = g_strdup(buf.ptr);
	git_buf_dispose(&buf);
	return out;
}
