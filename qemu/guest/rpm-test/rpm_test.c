// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the runtime PM core as ARM platforms use it: dev_pm_domain
 * callbacks taking precedence over the subsystem's (device type, class, bus)
 * and the driver's, the platform bus's default callbacks, the usage-count
 * and request machinery of drivers/base/power/runtime.c, generic PM domains
 * and the pm_clk helpers.  This is the behaviour consolidated by the 2011
 * "PM: Rework shmobile and OMAP runtime PM using power domains" series.
 *
 * Every case registers its own devices on buses, a class and a device type
 * of this module, whose callbacks only count calls, so each expectation is
 * an exact number of callback invocations and a runtime PM state.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/pm_clock.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

enum rpm_test_cb { RPM_CB_SUSPEND, RPM_CB_RESUME, RPM_CB_IDLE, RPM_CB_COUNT };

/* Who provides a callback, in the order __rpm_get_callback() looks. */
enum rpm_test_layer {
	RPM_L_DOMAIN,
	RPM_L_TYPE,
	RPM_L_CLASS,
	RPM_L_BUS,
	RPM_L_DRIVER,
	RPM_L_COUNT
};

struct rpm_test_counts {
	int n[RPM_L_COUNT][RPM_CB_COUNT];
	int ret[RPM_L_COUNT][RPM_CB_COUNT];	/* what the callback returns */
	unsigned int seq[RPM_CB_COUNT];		/* global order of last call */
	bool irqs_off[RPM_CB_COUNT];
};

struct rpm_test_dev {
	struct device dev;
	struct rpm_test_counts counts;
	bool has_pm_clk;
};

/* A generic PM domain whose power_on/power_off count their calls. */
struct rpm_test_pd {
	struct generic_pm_domain genpd;
	int on, off;
	unsigned int on_seq, off_seq;
	int off_ret;
	char name[32];
};

/* A clock provider whose ops count their calls. */
struct rpm_test_clk {
	struct clk_hw hw;
	int prepared, unprepared, enabled, disabled;
	bool on;
};

#define RPM_TEST_MAX 6

/* What a case registered, released by rpm_test_exit() in reverse order. */
struct rpm_test_ctx {
	struct rpm_test_dev *devs[RPM_TEST_MAX];
	int ndevs;
	struct platform_device *pdevs[RPM_TEST_MAX];
	int npdevs;
	struct rpm_test_pd *pds[RPM_TEST_MAX];
	int npds;
	struct generic_pm_domain *link_parent[RPM_TEST_MAX];
	struct generic_pm_domain *link_child[RPM_TEST_MAX];
	int nlinks;
	struct rpm_test_clk *clks[RPM_TEST_MAX];
	int nclks;
};

static atomic_t rpm_test_seq = ATOMIC_INIT(0);
static atomic_t rpm_test_ids = ATOMIC_INIT(0);
static struct rpm_test_counts rpm_test_pdev_counts;

static struct bus_type rpm_test_bus;
static struct bus_type rpm_test_nopm_bus;
static struct class rpm_test_class;
static int rpm_test_suite_init(struct kunit_suite *suite);

/*
 * Devices of our buses and class carry their counters in platform_data; platform
 * devices get the shared platform counters as driver data in probe.
 */
static struct rpm_test_counts *rpm_test_counts_of(struct device *dev)
{
	if (dev->bus == &rpm_test_bus || dev->bus == &rpm_test_nopm_bus ||
	    dev->class == &rpm_test_class)
		return dev->platform_data;
	return dev_get_drvdata(dev);
}

static int rpm_test_cb(struct device *dev, int layer, int cb)
{
	struct rpm_test_counts *c = rpm_test_counts_of(dev);

	if (!c)
		return 0;
	c->n[layer][cb]++;
	c->seq[cb] = atomic_inc_return(&rpm_test_seq);
	c->irqs_off[cb] = irqs_disabled();
	return c->ret[layer][cb];
}

#define RPM_TEST_CALLBACKS(name, layer)					\
static int name##_runtime_suspend(struct device *dev)			\
{									\
	return rpm_test_cb(dev, layer, RPM_CB_SUSPEND);			\
}									\
static int name##_runtime_resume(struct device *dev)			\
{									\
	return rpm_test_cb(dev, layer, RPM_CB_RESUME);			\
}									\
static int name##_runtime_idle(struct device *dev)			\
{									\
	return rpm_test_cb(dev, layer, RPM_CB_IDLE);			\
}

#define RPM_TEST_OPS(name)						\
	.runtime_suspend = name##_runtime_suspend,			\
	.runtime_resume = name##_runtime_resume,			\
	.runtime_idle = name##_runtime_idle

RPM_TEST_CALLBACKS(rpm_test_domain, RPM_L_DOMAIN)
RPM_TEST_CALLBACKS(rpm_test_type, RPM_L_TYPE)
RPM_TEST_CALLBACKS(rpm_test_class, RPM_L_CLASS)
RPM_TEST_CALLBACKS(rpm_test_bus, RPM_L_BUS)
RPM_TEST_CALLBACKS(rpm_test_drv, RPM_L_DRIVER)

static struct dev_pm_domain rpm_test_domain = {
	.ops = { RPM_TEST_OPS(rpm_test_domain) },
};

/* A domain with only a resume callback: the others fall back. */
static struct dev_pm_domain rpm_test_partial_domain = {
	.ops = { .runtime_resume = rpm_test_domain_runtime_resume },
};

/* The pm_clk helpers as a domain, like the shmobile default domain. */
static struct dev_pm_domain rpm_test_clk_domain = {
	.ops = { USE_PM_CLK_RUNTIME_OPS },
};

static const struct dev_pm_ops rpm_test_type_pm = { RPM_TEST_OPS(rpm_test_type) };
static const struct dev_pm_ops rpm_test_class_pm = { RPM_TEST_OPS(rpm_test_class) };
static const struct dev_pm_ops rpm_test_bus_pm = { RPM_TEST_OPS(rpm_test_bus) };
static const struct dev_pm_ops rpm_test_drv_pm = { RPM_TEST_OPS(rpm_test_drv) };

static const struct device_type rpm_test_type = {
	.name = "rpm-test",
	.pm = &rpm_test_type_pm,
};

static struct class rpm_test_class = {
	.name = "rpm-test",
	.pm = &rpm_test_class_pm,
};

static int rpm_test_match(struct device *dev, struct device_driver *drv)
{
	return 1;
}

static struct bus_type rpm_test_bus = {
	.name = "rpm-test",
	.match = rpm_test_match,
	.pm = &rpm_test_bus_pm,
};

static struct bus_type rpm_test_nopm_bus = {
	.name = "rpm-test-nopm",
	.match = rpm_test_match,
};

static struct device_driver rpm_test_drv = {
	.name = "rpm-test",
	.bus = &rpm_test_bus,
	.pm = &rpm_test_drv_pm,
};

static struct device_driver rpm_test_nopm_drv = {
	.name = "rpm-test-nopm",
	.bus = &rpm_test_nopm_bus,
	.pm = &rpm_test_drv_pm,
};

static int rpm_test_pdrv_probe(struct platform_device *pdev)
{
	platform_set_drvdata(pdev, &rpm_test_pdev_counts);
	return 0;
}

static struct platform_driver rpm_test_pdrv = {
	.probe = rpm_test_pdrv_probe,
	.driver = {
		.name = "rpm-test-pdev",
		.pm = &rpm_test_drv_pm,
	},
};

enum {
	RPM_TEST_DOMAIN = 1 << 0,
	RPM_TEST_PARTIAL_DOMAIN = 1 << 1,
	RPM_TEST_CLK_DOMAIN = 1 << 2,
	RPM_TEST_TYPE = 1 << 3,
	RPM_TEST_CLASS = 1 << 4,
	RPM_TEST_BUS_PM = 1 << 5,
};

static void rpm_test_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct rpm_test_dev, dev));
}

static struct rpm_test_counts *counts(struct device *dev)
{
	return &container_of(dev, struct rpm_test_dev, dev)->counts;
}

/*
 * Register a device with the layers in @flags, bound to our driver, runtime
 * PM disabled and RPM_SUSPENDED as after device_add(); counters zeroed.
 * With @genpd it joins that domain before it is added, as a platform device
 * joins its domain before its driver probes: dev_pm_domain_set() warns about
 * bound devices.
 */
static struct device *rpm_test_new_dev_in(struct kunit *test,
					  unsigned int flags,
					  struct device *parent,
					  struct generic_pm_domain *genpd)
{
	struct rpm_test_ctx *ctx = test->priv;
	struct rpm_test_dev *tdev;
	int ret;

	KUNIT_ASSERT_LT(test, ctx->ndevs, RPM_TEST_MAX);
	tdev = kzalloc(sizeof(*tdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tdev);
	device_initialize(&tdev->dev);
	tdev->dev.release = rpm_test_dev_release;
	tdev->dev.parent = parent;
	/* a device is a class device or a bus device, never both */
	if (flags & RPM_TEST_CLASS)
		tdev->dev.class = &rpm_test_class;
	else if (flags & RPM_TEST_BUS_PM)
		tdev->dev.bus = &rpm_test_bus;
	else
		tdev->dev.bus = &rpm_test_nopm_bus;
	if (flags & RPM_TEST_TYPE)
		tdev->dev.type = &rpm_test_type;
	/* before device_add(): dev_pm_domain_set() refuses bound devices */
	if (flags & RPM_TEST_DOMAIN)
		tdev->dev.pm_domain = &rpm_test_domain;
	if (flags & RPM_TEST_PARTIAL_DOMAIN)
		tdev->dev.pm_domain = &rpm_test_partial_domain;
	if (flags & RPM_TEST_CLK_DOMAIN)
		tdev->dev.pm_domain = &rpm_test_clk_domain;
	tdev->dev.platform_data = &tdev->counts;
	dev_set_name(&tdev->dev, "rpm-test.%d",
		     atomic_inc_return(&rpm_test_ids));
	if (genpd) {
		ret = pm_genpd_add_device(genpd, &tdev->dev);
		if (ret) {
			put_device(&tdev->dev);
			KUNIT_ASSERT_EQ(test, ret, 0);
		}
	}
	ret = device_add(&tdev->dev);
	if (ret) {
		if (genpd)
			pm_genpd_remove_device(&tdev->dev);
		put_device(&tdev->dev);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	ctx->devs[ctx->ndevs++] = tdev;
	if (tdev->dev.bus)
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tdev->dev.driver);
	memset(&tdev->counts, 0, sizeof(tdev->counts));
	return &tdev->dev;
}

static struct device *rpm_test_new_dev(struct kunit *test, unsigned int flags,
				       struct device *parent)
{
	return rpm_test_new_dev_in(test, flags, parent, NULL);
}

static bool rpm_test_wait_status(struct device *dev, enum rpm_status status)
{
	unsigned long timeout = jiffies + msecs_to_jiffies(3000);

	while (READ_ONCE(dev->power.runtime_status) != status) {
		if (time_after(jiffies, timeout))
			return false;
		usleep_range(5000, 10000);
	}
	return true;
}

static int usage(struct device *dev)
{
	return atomic_read(&dev->power.usage_count);
}

static int rpm_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct rpm_test_ctx),
				   GFP_KERNEL);
	if (!test->priv)
		return -ENOMEM;
	memset(&rpm_test_pdev_counts, 0, sizeof(rpm_test_pdev_counts));
	return 0;
}

static bool rpm_test_is_our_pd(struct rpm_test_ctx *ctx,
			       struct dev_pm_domain *pd)
{
	int i;

	for (i = 0; i < ctx->npds; i++)
		if (pd == &ctx->pds[i]->genpd.domain)
			return true;
	return false;
}

/*
 * Undo what the case registered, also when it stopped at a failed
 * assertion: devices leave their genpd before the domain goes away, and a
 * domain that cannot be removed is leaked rather than freed under use.
 */
static void rpm_test_exit(struct kunit *test)
{
	struct rpm_test_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < ctx->ndevs; i++) {
		struct device *dev = &ctx->devs[i]->dev;

		if (dev->pm_domain && rpm_test_is_our_pd(ctx, dev->pm_domain))
			pm_genpd_remove_device(dev);
	}
	for (i = ctx->nlinks - 1; i >= 0; i--)
		pm_genpd_remove_subdomain(ctx->link_parent[i],
					  ctx->link_child[i]);
	/* a removed domain drops its device, whose release frees it */
	for (i = ctx->npds - 1; i >= 0; i--)
		pm_genpd_remove(&ctx->pds[i]->genpd);
	for (i = ctx->ndevs - 1; i >= 0; i--) {
		struct rpm_test_dev *tdev = ctx->devs[i];

		memset(tdev->counts.ret, 0, sizeof(tdev->counts.ret));
		if (tdev->has_pm_clk)
			pm_clk_destroy(&tdev->dev);
		device_unregister(&tdev->dev);
	}
	for (i = ctx->npdevs - 1; i >= 0; i--)
		platform_device_unregister(ctx->pdevs[i]);
	for (i = ctx->nclks - 1; i >= 0; i--) {
		clk_hw_unregister(&ctx->clks[i]->hw);
		kfree(ctx->clks[i]);
	}
}

/* ---- dev_pm_domain precedence ---------------------------------------- */

/* a bus device with all layers but the class (see rpm_test_new_dev_in) */
#define ALL_LAYERS (RPM_TEST_DOMAIN | RPM_TEST_TYPE | RPM_TEST_BUS_PM)

static const char *const rpm_test_layer_names[RPM_L_COUNT] = {
	"domain", "type", "class", "bus", "driver"
};

static const char *const rpm_test_cb_names[RPM_CB_COUNT] = {
	"runtime_suspend", "runtime_resume", "runtime_idle"
};

/* Only @layer's @cb ran, @n times; every other layer's @cb never. */
static void expect_only(struct kunit *test, struct device *dev, int layer,
			int cb, int n)
{
	int l;

	for (l = 0; l < RPM_L_COUNT; l++) {
		int want = l == layer ? n : 0;

		KUNIT_EXPECT_EQ_MSG(test, counts(dev)->n[l][cb], want,
				    "calls of the %s's %s",
				    rpm_test_layer_names[l],
				    rpm_test_cb_names[cb]);
	}
}

static void rpm_test_domain_resume(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, ALL_LAYERS, NULL);

	pm_runtime_enable(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), 0);
	expect_only(test, dev, RPM_L_DOMAIN, RPM_CB_RESUME, 1);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	pm_runtime_put_noidle(dev);
}

static void rpm_test_domain_suspend(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, ALL_LAYERS, NULL);

	pm_runtime_enable(dev);
	KUNIT_ASSERT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	expect_only(test, dev, RPM_L_DOMAIN, RPM_CB_SUSPEND, 1);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
}

static void rpm_test_domain_idle(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, ALL_LAYERS, NULL);

	pm_runtime_enable(dev);
	KUNIT_ASSERT_EQ(test, pm_runtime_get_sync(dev), 0);
	pm_runtime_put_noidle(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_idle(dev), 0);
	expect_only(test, dev, RPM_L_DOMAIN, RPM_CB_IDLE, 1);
	expect_only(test, dev, RPM_L_DOMAIN, RPM_CB_SUSPEND, 1);
}

/*
 * A device with the layers in @flags resumes and suspends through @layer's
 * callbacks only, once each.
 */
static void expect_precedence(struct kunit *test, unsigned int flags, int layer)
{
	struct device *dev = rpm_test_new_dev(test, flags, NULL);

	pm_runtime_enable(dev);
	KUNIT_ASSERT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	expect_only(test, dev, layer, RPM_CB_RESUME, 1);
	expect_only(test, dev, layer, RPM_CB_SUSPEND, 1);
}

/* The domain also wins over the class of a class device. */
static void rpm_test_domain_over_class(struct kunit *test)
{
	expect_precedence(test, RPM_TEST_DOMAIN | RPM_TEST_CLASS, RPM_L_DOMAIN);
}

static void rpm_test_type_precedence(struct kunit *test)
{
	expect_precedence(test, RPM_TEST_TYPE | RPM_TEST_BUS_PM, RPM_L_TYPE);
}

static void rpm_test_type_over_class(struct kunit *test)
{
	expect_precedence(test, RPM_TEST_TYPE | RPM_TEST_CLASS, RPM_L_TYPE);
}

static void rpm_test_class_precedence(struct kunit *test)
{
	expect_precedence(test, RPM_TEST_CLASS, RPM_L_CLASS);
}

static void rpm_test_bus_precedence(struct kunit *test)
{
	expect_precedence(test, RPM_TEST_BUS_PM, RPM_L_BUS);
}

static void rpm_test_driver_fallback(struct kunit *test)
{
	expect_precedence(test, 0, RPM_L_DRIVER);
}

/* A domain without a callback falls back to the driver, not the bus. */
static void rpm_test_partial_domain_fallback(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, RPM_TEST_PARTIAL_DOMAIN |
					      RPM_TEST_BUS_PM, NULL);

	pm_runtime_enable(dev);
	KUNIT_ASSERT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	expect_only(test, dev, RPM_L_DOMAIN, RPM_CB_RESUME, 1);
	expect_only(test, dev, RPM_L_DRIVER, RPM_CB_IDLE, 1);
	expect_only(test, dev, RPM_L_DRIVER, RPM_CB_SUSPEND, 1);
}

static struct kunit_case rpm_test_domain_cases[] = {
	KUNIT_CASE(rpm_test_domain_resume),
	KUNIT_CASE(rpm_test_domain_suspend),
	KUNIT_CASE(rpm_test_domain_idle),
	KUNIT_CASE(rpm_test_domain_over_class),
	KUNIT_CASE(rpm_test_type_precedence),
	KUNIT_CASE(rpm_test_type_over_class),
	KUNIT_CASE(rpm_test_class_precedence),
	KUNIT_CASE(rpm_test_bus_precedence),
	KUNIT_CASE(rpm_test_driver_fallback),
	KUNIT_CASE(rpm_test_partial_domain_fallback),
	{}
};

static struct kunit_suite rpm_test_domain_suite = {
	.name = "rpm_domain",
	.suite_init = rpm_test_suite_init,
	.init = rpm_test_init,
	.exit = rpm_test_exit,
	.test_cases = rpm_test_domain_cases,
};

/* ---- platform bus ----------------------------------------------------- */

static struct platform_device *rpm_test_new_pdev(struct kunit *test,
						 struct dev_pm_domain *pd)
{
	struct rpm_test_ctx *ctx = test->priv;
	struct platform_device *pdev;
	int ret;

	KUNIT_ASSERT_LT(test, ctx->npdevs, RPM_TEST_MAX);
	pdev = platform_device_alloc("rpm-test-pdev", PLATFORM_DEVID_AUTO);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pdev);
	pdev->dev.pm_domain = pd;
	ret = platform_device_add(pdev);
	if (ret) {
		platform_device_put(pdev);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	ctx->pdevs[ctx->npdevs++] = pdev;
	KUNIT_ASSERT_PTR_EQ(test, dev_get_drvdata(&pdev->dev),
			    (void *)&rpm_test_pdev_counts);
	memset(&rpm_test_pdev_counts, 0, sizeof(rpm_test_pdev_counts));
	return pdev;
}

/* The platform bus hands runtime PM to the driver (pm_generic_runtime_*). */
static void rpm_test_platform_driver_callbacks(struct kunit *test)
{
	struct platform_device *pdev = rpm_test_new_pdev(test, NULL);
	struct rpm_test_counts *c = &rpm_test_pdev_counts;

	pm_runtime_enable(&pdev->dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(&pdev->dev), 0);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DRIVER][RPM_CB_RESUME], 1);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(&pdev->dev), 0);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DRIVER][RPM_CB_IDLE], 1);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DRIVER][RPM_CB_SUSPEND], 1);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(&pdev->dev));
	pm_runtime_disable(&pdev->dev);
}

static void rpm_test_platform_domain(struct kunit *test)
{
	struct platform_device *pdev = rpm_test_new_pdev(test,
							 &rpm_test_domain);
	struct rpm_test_counts *c = &rpm_test_pdev_counts;

	pm_runtime_enable(&pdev->dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(&pdev->dev), 0);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(&pdev->dev), 0);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DOMAIN][RPM_CB_RESUME], 1);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DOMAIN][RPM_CB_SUSPEND], 1);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DRIVER][RPM_CB_RESUME], 0);
	KUNIT_EXPECT_EQ(test, c->n[RPM_L_DRIVER][RPM_CB_SUSPEND], 0);
	pm_runtime_disable(&pdev->dev);
}

static struct kunit_case rpm_test_platform_cases[] = {
	KUNIT_CASE(rpm_test_platform_driver_callbacks),
	KUNIT_CASE(rpm_test_platform_domain),
	{}
};

static struct kunit_suite rpm_test_platform_suite = {
	.name = "rpm_platform",
	.suite_init = rpm_test_suite_init,
	.init = rpm_test_init,
	.exit = rpm_test_exit,
	.test_cases = rpm_test_platform_cases,
};

/* ---- runtime PM core -------------------------------------------------- */

#define DRV(dev, cb) (counts(dev)->n[RPM_L_DRIVER][cb])

static void rpm_test_get_sync_resumes_once(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), 1);
	KUNIT_EXPECT_EQ(test, usage(dev), 2);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	pm_runtime_put_noidle(dev);
	pm_runtime_put_noidle(dev);
}

static void rpm_test_put_sync_at_zero(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_IDLE), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_IDLE), 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_EQ(test, usage(dev), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
}

static void rpm_test_put_async(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put(dev), 0);
	KUNIT_EXPECT_TRUE(test, rpm_test_wait_status(dev, RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_IDLE), 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
}

/* An idle callback returning nonzero vetoes the suspend. */
static void rpm_test_idle_veto(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_IDLE] = -EBUSY;
	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), -EBUSY);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_IDLE), 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
}

static void rpm_test_noresume_noidle(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_get_noresume(dev);
	KUNIT_EXPECT_EQ(test, usage(dev), 1);
	pm_runtime_put_noidle(dev);
	KUNIT_EXPECT_EQ(test, usage(dev), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_IDLE), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
}

/*
 * pm_runtime_barrier() carries out a pending resume request and cancels the
 * rest; the usage count we hold keeps the resumed device from idling again.
 */
static void rpm_test_barrier(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_get_noresume(dev);
	KUNIT_EXPECT_GE(test, pm_request_resume(dev), 0);
	pm_runtime_barrier(dev);
	KUNIT_EXPECT_EQ(test, READ_ONCE(dev->power.runtime_status),
			RPM_ACTIVE);
	KUNIT_EXPECT_FALSE(test, dev->power.request_pending);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	pm_runtime_put_noidle(dev);
}

static void rpm_test_forbid_allow(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_forbid(dev);
	KUNIT_EXPECT_FALSE(test, dev->power.runtime_auto);
	KUNIT_EXPECT_EQ(test, usage(dev), 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	pm_runtime_allow(dev);
	KUNIT_EXPECT_TRUE(test, dev->power.runtime_auto);
	KUNIT_EXPECT_EQ(test, usage(dev), 0);
	KUNIT_EXPECT_TRUE(test, rpm_test_wait_status(dev, RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
}

static void rpm_test_autosuspend(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);
	unsigned long busy;

	pm_runtime_set_autosuspend_delay(dev, 200);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	pm_runtime_mark_last_busy(dev);
	busy = jiffies;
	KUNIT_EXPECT_EQ(test, pm_runtime_put_autosuspend(dev), 0);
	/* not before the delay has passed since the last busy mark */
	if (time_before(jiffies, busy + msecs_to_jiffies(150)))
		KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 0);
	KUNIT_EXPECT_TRUE(test, rpm_test_wait_status(dev, RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_TRUE(test, time_after_eq(jiffies,
					      busy + msecs_to_jiffies(200) - 1));
	pm_runtime_dont_use_autosuspend(dev);
}

/* A negative autosuspend delay blocks runtime suspend until changed. */
static void rpm_test_autosuspend_negative(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_set_autosuspend_delay(dev, -1);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
	msleep(50);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	pm_runtime_set_autosuspend_delay(dev, 0);
	KUNIT_EXPECT_TRUE(test, rpm_test_wait_status(dev, RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	pm_runtime_dont_use_autosuspend(dev);
}

/* A callback error other than -EBUSY/-EAGAIN is recorded and sticks. */
static void rpm_test_callback_error(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_SUSPEND] = -EIO;
	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), -EIO);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	KUNIT_EXPECT_EQ(test, dev->power.runtime_error, -EIO);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), -EINVAL);
	pm_runtime_put_noidle(dev);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	/* setting the status again is how a driver clears the error */
	pm_runtime_disable(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_set_active(dev), 0);
	KUNIT_EXPECT_EQ(test, dev->power.runtime_error, 0);
}

static void rpm_test_callback_busy(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_SUSPEND] = -EBUSY;
	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), -EBUSY);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(dev));
	KUNIT_EXPECT_EQ(test, dev->power.runtime_error, 0);
	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_SUSPEND] = 0;
	KUNIT_EXPECT_EQ(test, pm_runtime_suspend(dev), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 2);
}

/* pm_runtime_disable() carries out a pending resume request first. */
static void rpm_test_disable_pending_resume(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	pm_runtime_enable(dev);
	pm_runtime_get_noresume(dev);
	KUNIT_EXPECT_GE(test, pm_request_resume(dev), 0);
	pm_runtime_disable(dev);
	KUNIT_EXPECT_EQ(test, READ_ONCE(dev->power.runtime_status),
			RPM_ACTIVE);
	KUNIT_EXPECT_FALSE(test, dev->power.request_pending);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_EQ(test, (unsigned int)dev->power.disable_depth, 1U);
	pm_runtime_put_noidle(dev);
}

static void rpm_test_disabled(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);

	KUNIT_EXPECT_FALSE(test, pm_runtime_enabled(dev));
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), -EACCES);
	pm_runtime_put_noidle(dev);
	KUNIT_EXPECT_EQ(test, pm_request_idle(dev), -EACCES);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 0);
}

/* irq-safe devices get their callbacks with interrupts off, atomically. */
static void rpm_test_irq_safe(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, 0, NULL);
	unsigned long flags;
	int got, put;

	pm_runtime_irq_safe(dev);
	pm_runtime_enable(dev);
	local_irq_save(flags);
	got = pm_runtime_get_sync(dev);
	put = pm_runtime_put_sync_suspend(dev);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, got, 0);
	KUNIT_EXPECT_EQ(test, put, 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_TRUE(test, counts(dev)->irqs_off[RPM_CB_RESUME]);
	KUNIT_EXPECT_TRUE(test, counts(dev)->irqs_off[RPM_CB_SUSPEND]);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
}

/* An irq-safe child pins its parent active for good. */
static void rpm_test_irq_safe_parent(struct kunit *test)
{
	struct device *parent = rpm_test_new_dev(test, 0, NULL);
	struct device *child = rpm_test_new_dev(test, 0, parent);

	pm_runtime_enable(parent);
	pm_runtime_irq_safe(child);
	KUNIT_EXPECT_EQ(test, usage(parent), 1);
	KUNIT_EXPECT_EQ(test, DRV(parent, RPM_CB_RESUME), 1);
	pm_runtime_enable(child);
	pm_runtime_get_sync(child);
	pm_runtime_put_sync(child);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(child));
	msleep(20);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(parent));
	KUNIT_EXPECT_EQ(test, DRV(parent, RPM_CB_SUSPEND), 0);
	KUNIT_EXPECT_FALSE(test, counts(parent)->irqs_off[RPM_CB_RESUME]);
}

/* The parent resumes before its child and idles after it suspends. */
static void rpm_test_parent_child(struct kunit *test)
{
	struct device *parent = rpm_test_new_dev(test, 0, NULL);
	struct device *child = rpm_test_new_dev(test, 0, parent);

	pm_runtime_enable(parent);
	pm_runtime_enable(child);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(child), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_active(parent));
	KUNIT_EXPECT_EQ(test, DRV(parent, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_LT(test, counts(parent)->seq[RPM_CB_RESUME],
			counts(child)->seq[RPM_CB_RESUME]);
	pm_runtime_put_sync(child);
	KUNIT_EXPECT_TRUE(test, rpm_test_wait_status(parent, RPM_SUSPENDED));
	KUNIT_EXPECT_EQ(test, DRV(parent, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_LT(test, counts(child)->seq[RPM_CB_SUSPEND],
			counts(parent)->seq[RPM_CB_SUSPEND]);
}

static struct kunit_case rpm_test_core_cases[] = {
	KUNIT_CASE(rpm_test_get_sync_resumes_once),
	KUNIT_CASE(rpm_test_put_sync_at_zero),
	KUNIT_CASE(rpm_test_put_async),
	KUNIT_CASE(rpm_test_idle_veto),
	KUNIT_CASE(rpm_test_noresume_noidle),
	KUNIT_CASE(rpm_test_barrier),
	KUNIT_CASE(rpm_test_forbid_allow),
	KUNIT_CASE(rpm_test_autosuspend),
	KUNIT_CASE(rpm_test_autosuspend_negative),
	KUNIT_CASE(rpm_test_callback_error),
	KUNIT_CASE(rpm_test_callback_busy),
	KUNIT_CASE(rpm_test_disable_pending_resume),
	KUNIT_CASE(rpm_test_disabled),
	KUNIT_CASE(rpm_test_irq_safe),
	KUNIT_CASE(rpm_test_irq_safe_parent),
	KUNIT_CASE(rpm_test_parent_child),
	{}
};

static struct kunit_suite rpm_test_core_suite = {
	.name = "rpm_core",
	.suite_init = rpm_test_suite_init,
	.init = rpm_test_init,
	.exit = rpm_test_exit,
	.test_cases = rpm_test_core_cases,
};

/* ---- generic PM domains ----------------------------------------------- */

static int rpm_test_pd_power_on(struct generic_pm_domain *genpd)
{
	struct rpm_test_pd *pd = container_of(genpd, struct rpm_test_pd, genpd);

	pd->on++;
	pd->on_seq = atomic_inc_return(&rpm_test_seq);
	return 0;
}

static int rpm_test_pd_power_off(struct generic_pm_domain *genpd)
{
	struct rpm_test_pd *pd = container_of(genpd, struct rpm_test_pd, genpd);

	pd->off++;
	pd->off_seq = atomic_inc_return(&rpm_test_seq);
	return pd->off_ret;
}

static void rpm_test_pd_release(struct device *dev)
{
	kfree(container_of(dev, struct rpm_test_pd, genpd.dev));
}

static struct rpm_test_pd *rpm_test_new_pd(struct kunit *test,
					   unsigned int flags, bool is_off)
{
	struct rpm_test_ctx *ctx = test->priv;
	struct rpm_test_pd *pd;
	int ret;

	KUNIT_ASSERT_LT(test, ctx->npds, RPM_TEST_MAX);
	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	snprintf(pd->name, sizeof(pd->name), "rpm-test-pd.%d",
		 atomic_inc_return(&rpm_test_ids));
	pd->genpd.name = pd->name;
	pd->genpd.flags = flags;
	pd->genpd.power_on = rpm_test_pd_power_on;
	pd->genpd.power_off = rpm_test_pd_power_off;
	ret = pm_genpd_init(&pd->genpd, NULL, is_off);
	if (ret) {
		kfree(pd);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	pd->genpd.dev.release = rpm_test_pd_release;
	ctx->pds[ctx->npds++] = pd;
	return pd;
}

static struct device *rpm_test_pd_dev(struct kunit *test,
				      struct rpm_test_pd *pd)
{
	struct device *dev = rpm_test_new_dev_in(test, 0, NULL, &pd->genpd);

	pm_runtime_enable(dev);
	return dev;
}

static void rpm_test_link(struct kunit *test, struct rpm_test_pd *parent,
			  struct rpm_test_pd *child)
{
	struct rpm_test_ctx *ctx = test->priv;

	KUNIT_ASSERT_LT(test, ctx->nlinks, RPM_TEST_MAX);
	KUNIT_ASSERT_EQ(test, pm_genpd_add_subdomain(&parent->genpd,
						     &child->genpd), 0);
	ctx->link_parent[ctx->nlinks] = &parent->genpd;
	ctx->link_child[ctx->nlinks++] = &child->genpd;
}

static bool pd_on(struct rpm_test_pd *pd)
{
	return pd->genpd.status == GENPD_STATE_ON;
}

static void rpm_test_genpd_add_remove(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, 0, true);
	struct device *dev = rpm_test_new_dev_in(test, 0, NULL, &pd->genpd);

	KUNIT_EXPECT_FALSE(test, pd_on(pd));
	KUNIT_EXPECT_PTR_EQ(test, dev->pm_domain, &pd->genpd.domain);
	KUNIT_EXPECT_EQ(test, pd->genpd.device_count, 1);
	KUNIT_EXPECT_EQ(test, pm_genpd_remove_device(dev), 0);
	KUNIT_EXPECT_NULL(test, dev->pm_domain);
	KUNIT_EXPECT_EQ(test, pd->genpd.device_count, 0);
	KUNIT_EXPECT_EQ(test, pd->on + pd->off, 0);
}

/* Resuming a device powers its domain on, then runs the driver's resume. */
static void rpm_test_genpd_power_on(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, 0, true);
	struct device *dev = rpm_test_pd_dev(test, pd);

	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, pd->on, 1);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_LT(test, pd->on_seq, counts(dev)->seq[RPM_CB_RESUME]);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_EQ(test, pd->off, 1);
	KUNIT_EXPECT_FALSE(test, pd_on(pd));
}

static void rpm_test_genpd_all_suspended(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, 0, true);
	struct device *a = rpm_test_pd_dev(test, pd);
	struct device *b = rpm_test_pd_dev(test, pd);

	pm_runtime_get_sync(a);
	pm_runtime_get_sync(b);
	KUNIT_EXPECT_EQ(test, pd->on, 1);
	pm_runtime_put_sync(a);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(a));
	KUNIT_EXPECT_EQ(test, pd->off, 0);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
	pm_runtime_put_sync(b);
	KUNIT_EXPECT_EQ(test, pd->off, 1);
	KUNIT_EXPECT_FALSE(test, pd_on(pd));
	/* and on again as soon as one of them resumes */
	pm_runtime_get_sync(b);
	KUNIT_EXPECT_EQ(test, pd->on, 2);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(a));
	pm_runtime_put_sync(b);
}

/* A device that never enabled runtime PM keeps its domain powered. */
static void rpm_test_genpd_disabled_device(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, 0, false);
	struct device *a = rpm_test_pd_dev(test, pd);
	struct device *b = rpm_test_new_dev_in(test, 0, NULL, &pd->genpd);

	KUNIT_EXPECT_FALSE(test, pm_runtime_enabled(b));
	pm_runtime_get_sync(a);
	pm_runtime_put_sync(a);
	KUNIT_EXPECT_EQ(test, pd->off, 0);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
}

static void rpm_test_genpd_subdomain(struct kunit *test)
{
	struct rpm_test_pd *parent = rpm_test_new_pd(test, 0, true);
	struct rpm_test_pd *child = rpm_test_new_pd(test, 0, true);
	struct device *dev;

	rpm_test_link(test, parent, child);
	dev = rpm_test_pd_dev(test, child);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, parent->on, 1);
	KUNIT_EXPECT_EQ(test, child->on, 1);
	KUNIT_EXPECT_LT(test, parent->on_seq, child->on_seq);
	pm_runtime_put_sync(dev);
	KUNIT_EXPECT_EQ(test, child->off, 1);
	KUNIT_EXPECT_EQ(test, parent->off, 1);
	KUNIT_EXPECT_LT(test, child->off_seq, parent->off_seq);
	KUNIT_EXPECT_FALSE(test, pd_on(parent));
}

/* A parent with an active device of its own stays on for it. */
static void rpm_test_genpd_subdomain_parent_busy(struct kunit *test)
{
	struct rpm_test_pd *parent = rpm_test_new_pd(test, 0, true);
	struct rpm_test_pd *child = rpm_test_new_pd(test, 0, true);
	struct device *pdev, *cdev;

	rpm_test_link(test, parent, child);
	pdev = rpm_test_pd_dev(test, parent);
	cdev = rpm_test_pd_dev(test, child);
	pm_runtime_get_sync(pdev);
	pm_runtime_get_sync(cdev);
	pm_runtime_put_sync(cdev);
	KUNIT_EXPECT_EQ(test, child->off, 1);
	KUNIT_EXPECT_EQ(test, parent->off, 0);
	KUNIT_EXPECT_TRUE(test, pd_on(parent));
	pm_runtime_put_sync(pdev);
	KUNIT_EXPECT_EQ(test, parent->off, 1);
}

static void rpm_test_genpd_always_on(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, GENPD_FLAG_ALWAYS_ON,
						 false);
	struct device *dev = rpm_test_pd_dev(test, pd);
	struct generic_pm_domain off = {
		.name = "rpm-test-always-on-off",
		.flags = GENPD_FLAG_ALWAYS_ON,
	};

	pm_runtime_get_sync(dev);
	pm_runtime_put_sync(dev);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_EQ(test, pd->off, 0);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
	/* an always-on domain cannot start powered off */
	KUNIT_EXPECT_EQ(test, pm_genpd_init(&off, NULL, true), -EINVAL);
}

/* A domain refusing to power off stays on; the device still suspends. */
static void rpm_test_genpd_power_off_fails(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, 0, true);
	struct device *dev = rpm_test_pd_dev(test, pd);

	pd->off_ret = -EBUSY;
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	KUNIT_EXPECT_TRUE(test, pm_runtime_suspended(dev));
	KUNIT_EXPECT_EQ(test, pd->off, 1);
	KUNIT_EXPECT_TRUE(test, pd_on(pd));
	pd->off_ret = 0;
}

static struct kunit_case rpm_test_genpd_cases[] = {
	KUNIT_CASE(rpm_test_genpd_add_remove),
	KUNIT_CASE(rpm_test_genpd_power_on),
	KUNIT_CASE(rpm_test_genpd_all_suspended),
	KUNIT_CASE(rpm_test_genpd_disabled_device),
	KUNIT_CASE(rpm_test_genpd_subdomain),
	KUNIT_CASE(rpm_test_genpd_subdomain_parent_busy),
	KUNIT_CASE(rpm_test_genpd_always_on),
	KUNIT_CASE(rpm_test_genpd_power_off_fails),
	{}
};

static struct kunit_suite rpm_test_genpd_suite = {
	.name = "rpm_genpd",
	.suite_init = rpm_test_suite_init,
	.init = rpm_test_init,
	.exit = rpm_test_exit,
	.test_cases = rpm_test_genpd_cases,
};

/* ---- pm_clk ----------------------------------------------------------- */

#define to_rpm_test_clk(_hw) container_of(_hw, struct rpm_test_clk, hw)

static int rpm_test_clk_prepare(struct clk_hw *hw)
{
	to_rpm_test_clk(hw)->prepared++;
	return 0;
}

static void rpm_test_clk_unprepare(struct clk_hw *hw)
{
	to_rpm_test_clk(hw)->unprepared++;
}

static int rpm_test_clk_enable(struct clk_hw *hw)
{
	to_rpm_test_clk(hw)->enabled++;
	to_rpm_test_clk(hw)->on = true;
	return 0;
}

static void rpm_test_clk_disable(struct clk_hw *hw)
{
	to_rpm_test_clk(hw)->disabled++;
	to_rpm_test_clk(hw)->on = false;
}

static int rpm_test_clk_is_enabled(struct clk_hw *hw)
{
	return to_rpm_test_clk(hw)->on;
}

static const struct clk_ops rpm_test_clk_ops = {
	.prepare = rpm_test_clk_prepare,
	.unprepare = rpm_test_clk_unprepare,
	.enable = rpm_test_clk_enable,
	.disable = rpm_test_clk_disable,
	.is_enabled = rpm_test_clk_is_enabled,
};

/* Register a counting clock and hand it to @dev's pm_clk list. */
static struct rpm_test_clk *rpm_test_add_clk(struct kunit *test,
					     struct device *dev)
{
	struct rpm_test_ctx *ctx = test->priv;
	struct clk_init_data init = {
		.ops = &rpm_test_clk_ops,
	};
	struct rpm_test_clk *tclk;
	struct clk *clk;
	char name[32];

	KUNIT_ASSERT_LT(test, ctx->nclks, RPM_TEST_MAX);
	tclk = kzalloc(sizeof(*tclk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tclk);
	snprintf(name, sizeof(name), "rpm-test-clk.%d",
		 atomic_inc_return(&rpm_test_ids));
	init.name = name;
	tclk->hw.init = &init;
	if (clk_hw_register(NULL, &tclk->hw)) {
		kfree(tclk);
		KUNIT_FAIL(test, "clk_hw_register failed");
		return NULL;
	}
	ctx->clks[ctx->nclks++] = tclk;
	if (!container_of(dev, struct rpm_test_dev, dev)->has_pm_clk) {
		KUNIT_ASSERT_EQ(test, pm_clk_create(dev), 0);
		container_of(dev, struct rpm_test_dev, dev)->has_pm_clk = true;
	}
	clk = clk_hw_get_clk(&tclk->hw, "rpm-test");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, clk);
	/* pm_clk owns the reference from here on, and prepares the clock */
	KUNIT_ASSERT_EQ(test, pm_clk_add_clk(dev, clk), 0);
	return tclk;
}

static void rpm_test_pm_clk_runtime(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, RPM_TEST_CLK_DOMAIN,
					      NULL);
	struct rpm_test_clk *a = rpm_test_add_clk(test, dev);
	struct rpm_test_clk *b = rpm_test_add_clk(test, dev);

	KUNIT_EXPECT_EQ(test, a->prepared, 1);
	KUNIT_EXPECT_EQ(test, a->enabled, 0);
	pm_runtime_enable(dev);
	KUNIT_EXPECT_EQ(test, pm_runtime_get_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, a->enabled, 1);
	KUNIT_EXPECT_EQ(test, b->enabled, 1);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_RESUME), 1);
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), 0);
	KUNIT_EXPECT_EQ(test, a->disabled, 1);
	KUNIT_EXPECT_EQ(test, b->disabled, 1);
	KUNIT_EXPECT_FALSE(test, a->on);
	KUNIT_EXPECT_EQ(test, DRV(dev, RPM_CB_SUSPEND), 1);
	KUNIT_EXPECT_EQ(test, a->unprepared, 0);
}

/* The driver's suspend runs while the clocks are still on. */
static void rpm_test_pm_clk_order(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, RPM_TEST_CLK_DOMAIN,
					      NULL);
	struct rpm_test_clk *a = rpm_test_add_clk(test, dev);

	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_SUSPEND] = -EBUSY;
	KUNIT_EXPECT_EQ(test, pm_runtime_put_sync(dev), -EBUSY);
	/* a driver that refuses to suspend keeps its clocks running */
	KUNIT_EXPECT_EQ(test, a->disabled, 0);
	KUNIT_EXPECT_TRUE(test, a->on);
	counts(dev)->ret[RPM_L_DRIVER][RPM_CB_SUSPEND] = 0;
}

static void rpm_test_pm_clk_destroy(struct kunit *test)
{
	struct device *dev = rpm_test_new_dev(test, RPM_TEST_CLK_DOMAIN,
					      NULL);
	struct rpm_test_clk *a = rpm_test_add_clk(test, dev);

	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	pm_runtime_put_sync(dev);
	pm_runtime_disable(dev);
	pm_clk_destroy(dev);
	container_of(dev, struct rpm_test_dev, dev)->has_pm_clk = false;
	KUNIT_EXPECT_EQ(test, a->unprepared, 1);
	KUNIT_EXPECT_EQ(test, a->enabled, a->disabled);
}

/* GENPD_FLAG_PM_CLK: the domain stops and starts the device's clocks. */
static void rpm_test_genpd_pm_clk(struct kunit *test)
{
	struct rpm_test_pd *pd = rpm_test_new_pd(test, GENPD_FLAG_PM_CLK,
						 true);
	struct device *dev = rpm_test_new_dev_in(test, 0, NULL, &pd->genpd);
	struct rpm_test_clk *a = rpm_test_add_clk(test, dev);

	pm_runtime_enable(dev);
	pm_runtime_get_sync(dev);
	KUNIT_EXPECT_EQ(test, pd->on, 1);
	KUNIT_EXPECT_EQ(test, a->enabled, 1);
	pm_runtime_put_sync(dev);
	KUNIT_EXPECT_EQ(test, a->disabled, 1);
	KUNIT_EXPECT_EQ(test, pd->off, 1);
	KUNIT_EXPECT_LT(test, counts(dev)->seq[RPM_CB_SUSPEND], pd->off_seq);
}

static struct kunit_case rpm_test_pm_clk_cases[] = {
	KUNIT_CASE(rpm_test_pm_clk_runtime),
	KUNIT_CASE(rpm_test_pm_clk_order),
	KUNIT_CASE(rpm_test_pm_clk_destroy),
	KUNIT_CASE(rpm_test_genpd_pm_clk),
	{}
};

static struct kunit_suite rpm_test_pm_clk_suite = {
	.name = "rpm_pm_clk",
	.suite_init = rpm_test_suite_init,
	.init = rpm_test_init,
	.exit = rpm_test_exit,
	.test_cases = rpm_test_pm_clk_cases,
};

/*
 * The buses, class and drivers are registered by the first suite and stay
 * until the module goes: a module's suites run from KUnit's module notifier
 * at MODULE_STATE_COMING in this kernel, before module_init() would.
 */
static DEFINE_MUTEX(rpm_test_fixture_lock);
static bool rpm_test_fixture_up;

static int rpm_test_fixture_register(void)
{
	int ret;

	ret = bus_register(&rpm_test_bus);
	if (ret)
		return ret;
	ret = bus_register(&rpm_test_nopm_bus);
	if (ret)
		goto err_bus;
	ret = class_register(&rpm_test_class);
	if (ret)
		goto err_nopm_bus;
	ret = driver_register(&rpm_test_drv);
	if (ret)
		goto err_class;
	ret = driver_register(&rpm_test_nopm_drv);
	if (ret)
		goto err_drv;
	/* no owner: the module's sysfs directory does not exist yet */
	ret = __platform_driver_register(&rpm_test_pdrv, NULL);
	if (ret)
		goto err_nopm_drv;
	return 0;

err_nopm_drv:
	driver_unregister(&rpm_test_nopm_drv);
err_drv:
	driver_unregister(&rpm_test_drv);
err_class:
	class_unregister(&rpm_test_class);
err_nopm_bus:
	bus_unregister(&rpm_test_nopm_bus);
err_bus:
	bus_unregister(&rpm_test_bus);
	return ret;
}

static int rpm_test_suite_init(struct kunit_suite *suite)
{
	int ret = 0;

	mutex_lock(&rpm_test_fixture_lock);
	if (!rpm_test_fixture_up) {
		ret = rpm_test_fixture_register();
		rpm_test_fixture_up = !ret;
	}
	mutex_unlock(&rpm_test_fixture_lock);
	return ret;
}

kunit_test_suites(&rpm_test_domain_suite, &rpm_test_platform_suite,
		  &rpm_test_core_suite, &rpm_test_genpd_suite,
		  &rpm_test_pm_clk_suite);

static int __init rpm_test_module_init(void)
{
	return 0;
}

static void __exit rpm_test_module_exit(void)
{
	if (!rpm_test_fixture_up)
		return;
	platform_driver_unregister(&rpm_test_pdrv);
	driver_unregister(&rpm_test_nopm_drv);
	driver_unregister(&rpm_test_drv);
	class_unregister(&rpm_test_class);
	bus_unregister(&rpm_test_nopm_bus);
	bus_unregister(&rpm_test_bus);
}

module_init(rpm_test_module_init);
module_exit(rpm_test_module_exit);

MODULE_DESCRIPTION("KUnit tests for runtime PM, PM domains and pm_clk");
MODULE_LICENSE("GPL");
