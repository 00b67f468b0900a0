#include "bot/sources/stream.h"

#include <glib.h>

/* One wrapper per libetpan driver (socket, TLS), made once: the
 * original's functions with read replaced. */
struct guard {
	mailstream_low_driver driver; /* first: the stream points here */
	mailstream_low_driver *orig;
};

static ssize_t guarded_read(mailstream_low *s, void *buf, size_t count)
{
	struct guard *g = (struct guard *)s->driver;
	ssize_t r = g->orig->mailstream_read(s, buf, count);

	return r == 0 && count > 0 ? -1 : r;
}

void source_stream_guard(mailstream *s)
{
	static GMutex lock;
	static GPtrArray *guards;
	struct guard *g = NULL;

	if (!s || !s->low || !s->low->driver)
		return;
	g_mutex_lock(&lock);
	if (!guards)
		guards = g_ptr_array_new();
	for (guint i = 0; i < guards->len && !g; i++) {
		struct guard *x = guards->pdata[i];

		if (x->orig == s->low->driver || &x->driver == s->low->driver)
			g = x;
	}
	if (!g) {
		/* kept for the life of the process, as the drivers are */
		g = g_new0(struct guard, 1);
		g->orig = s->low->driver;
		g->driver = *g->orig;
		g->driver.mailstream_read = guarded_read;
		g_ptr_array_add(guards, g);
	}
	s->low->driver = &g->driver;
	g_mutex_unlock(&lock);
}
