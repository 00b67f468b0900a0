/* Unit tests for the nft rules of the fenced network namespace
 * (kernel/build/icecc-netns.c): one accept per node outside loopback, an
 * IPv6 node as ip6, and a node whose address is not IP:PORT (text of the
 * scheduler's, which must not reach nft's script) refused. */
#include <gio/gio.h>
#include <string.h>

#include "kernel/build/icecc-netns.h"

static void add_node(struct icecc_cluster *cl, const char *name,
		     const char *address)
{
	struct icecc_node *n = g_new0(struct icecc_node, 1);

	n->name = g_strdup(name);
	n->address = g_strdup(address);
	g_ptr_array_add(cl->nodes, n);
}

static void node_free(gpointer p)
{
	struct icecc_node *n = p;

	g_free(n->name);
	g_free(n->address);
	g_free(n);
}

static void cluster_init(struct icecc_cluster *cl)
{
	memset(cl, 0, sizeof(*cl));
	cl->nodes = g_ptr_array_new_with_free_func(node_free);
}

static void test_rules(void)
{
	struct icecc_cluster cl;
	g_autoptr(GError) error = NULL;
	g_autofree char *rules = NULL;

	cluster_init(&cl);
	add_node(&cl, "armbot-local", "127.0.0.1:10245");
	add_node(&cl, "armbot-node2", "10.197.0.2:10245");
	add_node(&cl, "v6", "[fd00::2]:10245");
	rules = icecc_netns_rules(&cl, &error);
	g_assert_no_error(error);
	g_assert_nonnull(
		strstr(rules, "ip daddr 10.197.0.2 tcp dport 10245 accept"));
	g_assert_nonnull(
		strstr(rules, "ip saddr 10.197.0.2 tcp sport 10245 accept"));
	g_assert_nonnull(
		strstr(rules, "ip6 daddr fd00::2 tcp dport 10245 accept"));
	g_assert_null(strstr(rules, "127.0.0.1"));
	g_assert_nonnull(strstr(rules, "policy drop;"));
	g_assert_nonnull(strstr(rules, "reject with icmpx admin-prohibited"));
	icecc_cluster_clear(&cl);
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"10.0.0.1;flush ruleset:10245",
		"10.0.0.1:0",
		"10.0.0.1:99999",
		"node.example.org:10245",
		"10.0.0.1",
		"10.0.0.1:10245 accept",
	};
	struct icecc_cluster cl;

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		char *rules;

		cluster_init(&cl);
		add_node(&cl, "bad", bad[i]);
		rules = icecc_netns_rules(&cl, &error);
		g_assert_null(rules);
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
		icecc_cluster_clear(&cl);
	}
	/* loopback only: nothing to let through */
	{
		g_autoptr(GError) error = NULL;

		cluster_init(&cl);
		add_node(&cl, "armbot-local", "127.0.0.1:10245");
		g_assert_null(icecc_netns_rules(&cl, &error));
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
		icecc_cluster_clear(&cl);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/icecc-netns/rules", test_rules);
	g_test_add_func("/icecc-netns/refused", test_refused);
	return g_test_run();
}
