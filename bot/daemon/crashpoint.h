/* Fault injection for the crash-safety tests: the daemon calls
 * crashpoint("NAME") at the points where a crash is most likely to lose or
 * repeat work (a batch stored, a series applied, sparse run, a boot done,
 * a reply handed to the SMTP server but not yet marked sent).  When the
 * environment says ARMBOT_CRASHPOINT=NAME:N, the Nth arrival at NAME in
 * this process kills it with SIGKILL, exactly as `kill -9` would; without
 * the variable this costs one getenv on first use. */
#pragma once

void crashpoint(const char *name);
