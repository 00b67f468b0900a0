/* Setting libgit2 up; see kernel/git/libgit2.h. */
#include "kernel/git/libgit2.h"

#include <git2.h>
#include <glib.h>

void libgit2_init(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		git_libgit2_init();
		g_once_init_leave(&done, 1);
	}
}
