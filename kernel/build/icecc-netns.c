/* The fenced network namespace of a series' icecream build: nft rules
 * loaded with nsenter(1) and nft(8), from the packages util-linux and
 * nftables. */
#include "kernel/build/icecc-netns.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/build/runner.h"

/* "IP:PORT" or "[IP6]:PORT" as its parts; FALSE when it is neither. */
static gboolean split_address(const char *address, char **ip, guint *port,
			      gboolean *v6)
{
	const char *colon = strrchr(address, ':');
	g_autofree char *host = NULL;
	guint64 p;

	if (!colon ||
	    !g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &p, NULL))
		return FALSE;
	host = g_strndup(address, colon - address);
	if (host[0] == '[' && g_str_has_suffix(host, "]")) {
		char *inner = g_strndup(host + 1, strlen(host) - 2);

		g_free(host);
		host = inner;
	}
	if (!g_hostname_is_ip_address(host))
		return FALSE;
	*v6 = strchr(host, ':') != NULL;
	*port = p;
	*ip = g_steal_pointer(&host);
	return TRUE;
}

char *icecc_netns_rules(const struct icecc_cluster *cl, GError **error)
{
	GString *out = g_string_new(NULL);
	GString *in = g_string_new(NULL);
	guint n = 0;

	for (guint i = 0; cl->nodes && i < cl->nodes->len; i++) {
		const struct icecc_node *node = cl->nodes->pdata[i];
		g_autofree char *ip = NULL;
		guint port;
		gboolean v6;

		if (!split_address(node->address, &ip, &port, &v6)) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
				    "node %s: '%s' is not IP:PORT", node->name,
				    node->address);
			g_string_free(out, TRUE);
			g_string_free(in, TRUE);
			return NULL;
		}
		if (g_str_has_prefix(ip, "127.") || !strcmp(ip, "::1"))
			continue;
		g_string_append_printf(out,
				       "\t\t%s daddr %s tcp dport %u accept\n",
				       v6 ? "ip6" : "ip", ip, port);
		g_string_append_printf(in,
				       "\t\t%s saddr %s tcp sport %u accept\n",
				       v6 ? "ip6" : "ip", ip, port);
		n++;
	}
	if (!n) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "the scheduler names no node outside loopback");
		g_string_free(out, TRUE);
		g_string_free(in, TRUE);
		return NULL;
	}
	g_autofree char *outs = g_string_free(out, FALSE);
	g_autofree char *ins = g_string_free(in, FALSE);

	/* the first two lines: an earlier table goes, whether or not there
	 * is one; a rejected connection fails at once, not after the SYN's
	 * retries */
	return g_strdup_printf(
		"table inet armbot_icecc\n"
		"delete table inet armbot_icecc\n"
		"table inet armbot_icecc {\n"
		"\tchain out {\n"
		"\t\ttype filter hook output priority 0; policy drop;\n"
		"\t\toifname \"lo\" accept\n"
		"%s"
		"\t\treject with icmpx admin-prohibited\n"
		"\t}\n"
		"\tchain in {\n"
		"\t\ttype filter hook input priority 0; policy drop;\n"
		"\t\tiifname \"lo\" accept\n"
		"%s"
		"\t}\n"
		"}\n",
		outs, ins);
}

int icecc_netns_fence(const char *path, const char *scheduler, GError **error)
{
	g_autofree char *rules = NULL;
	g_autofree char *file = NULL;
	g_autofree char *net = NULL;
	g_autofree char *nft = NULL;
	struct runner_result res = { 0 };
	struct icecc_cluster cl;
	int fd;

	if (!icecc_listcs(scheduler, &cl, error))
		return -1;
	rules = icecc_netns_rules(&cl, error);
	icecc_cluster_clear(&cl);
	if (!rules)
		return -1;
	fd = g_file_open_tmp("armbot-icecc-XXXXXX.nft", &file, error);
	if (fd < 0)
		return -1;
	close(fd);
	if (!g_file_set_contents(file, rules, -1, error)) {
		g_unlink(file);
		return -1;
	}
	net = g_strdup_printf("--net=%s", path);
	/* nft is in /usr/sbin, which a user's PATH may lack */
	nft = g_find_program_in_path("nft");
	if (!nft)
		nft = g_strdup("/usr/sbin/nft");
	{
		const char *argv[] = { "nsenter", net, nft, "-f", file, NULL };

		if (!runner_run(argv, NULL, &res, error)) {
			g_unlink(file);
			return -1;
		}
	}
	g_unlink(file);
	if (!runner_result_ok(&res)) {
		g_autofree char *how = runner_result_describe(&res);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
			    "cannot load the nftables rules into %s (%s): %s",
			    path, how,
			    g_strstrip(res.errout && res.errout->len ?
					       res.errout->str :
					       res.output->str));
		runner_result_clear(&res);
		return -1;
	}
	runner_result_clear(&res);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot open the network namespace %s: %s", path,
			    g_strerror(errno));
	return fd;
}
