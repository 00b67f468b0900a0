/* Fault injection for the crash-safety tests (see bot/daemon/crashpoint.h). */
#include "bot/daemon/crashpoint.h"

#include <glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *armed_name;
static gint armed_count;
static gint hits;

static void arm(void)
{
	const char *env = g_getenv("ARMBOT_CRASHPOINT");
	const char *colon;

	if (!env || !*env)
		return;
	colon = strrchr(env, ':');
	armed_name = colon ? g_strndup(env, colon - env) : g_strdup(env);
	armed_count = colon ? atoi(colon + 1) : 1;
	if (armed_count < 1)
		armed_count = 1;
}

void crashpoint(const char *name)
{
	static gsize once;

	if (g_once_init_enter(&once)) {
		arm();
		g_once_init_leave(&once, 1);
	}
	if (!armed_name || strcmp(name, armed_name))
		return;
	if (g_atomic_int_add(&hits, 1) + 1 == armed_count) {
		fprintf(stderr, "crashpoint %s:%d: killing armbot\n", name,
			armed_count);
		kill(getpid(), SIGKILL);
	}
}
