/* libgit2 behind the git layer: the one place it is set up. */
#pragma once

/* git_libgit2_init(), once per process whichever thread comes first;
 * every user of libgit2 calls this before its first libgit2 call.  Never
 * shut down: libgit2's globals stay until exit (its TLS set-up costs
 * 9.5 ms, README "One git layer", so it is not redone per command or per
 * worker either). */
void libgit2_init(void);
