/* The network namespace a series' build compiles through icecream in.
 * The icecc client inside the sandbox connects over TCP to the node the
 * scheduler picks; a series' Makefiles and scripts run there too, so the
 * namespace (made and connected to the cluster by the administrator, or
 * by the test) gets a table "inet armbot_icecc" whose output chain lets
 * through loopback and TCP to each node's daemon port (its address in
 * `listcs`, IP:PORT, icecc's 10245) and rejects everything else, and
 * whose input chain takes only loopback and the nodes' answers.  The
 * build holds no capability in that namespace (bwrap drops them all), so
 * it cannot change the table.  Loading it needs CAP_NET_ADMIN there (and
 * entering it CAP_SYS_ADMIN): without them series build locally, and the
 * reply says why. */
#ifndef ARMBOT_KERNEL_BUILD_ICECC_NETNS_H
#define ARMBOT_KERNEL_BUILD_ICECC_NETNS_H

#include <glib.h>

#include "kernel/build/icecc.h"

/* The nft script for the nodes of @cl (loopback addresses left out:
 * loopback is let through anyway).  NULL with @error when a node's
 * address is not IP:PORT or no node is left.  Newly allocated. */
char *icecc_netns_rules(const struct icecc_cluster *cl, GError **error);

/* Load icecc_netns_rules() for the nodes the scheduler @scheduler
 * (icecc_listcs()) lists into the network namespace at @path (an nsfs
 * file: /run/netns/NAME, /proc/PID/ns/net), replacing the table of an
 * earlier call, and return an fd of that namespace for
 * sandbox_set_netns(); -1 with @error (no scheduler answer, no
 * capability to load the rules) when it cannot be done. */
int icecc_netns_fence(const char *path, const char *scheduler, GError **error);

#endif
