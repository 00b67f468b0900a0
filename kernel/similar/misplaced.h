/* Drivers in the wrong place: code a patch adds under arch/arm/mach-* or
 * arch/arm/plat-* that implements a driver subsystem's interface (defines
 * or embeds a struct irq_chip, clocksource, clock_event_device, gpio_chip,
 * clk_ops, pinctrl_ops or pinctrl_desc, cpufreq_driver, iommu_ops,
 * platform_driver, or registers one: generic irq chips, IRQCHIP_DECLARE,
 * TIMER_OF_DECLARE, gpiochip_add_data, CLK_OF_DECLARE), named with the
 * drivers/ folder where such drivers live, once per file and folder; and
 * new board files (MACHINE_START) where a device tree would do. */
#pragma once

#include <glib.h>

struct misplaced {
	char *path; /* the file under arch/arm/ */
	guint32 line; /* of the definition, new side */
	const char *what; /* "irq_chip", "IRQCHIP_DECLARE", "MACHINE_START" */
	const char *folder; /* "drivers/irqchip/", NULL for a board file */
};

/* Whether @path is under arch/arm/mach-* or arch/arm/plat-*. */
gboolean misplaced_arm_path(const char *path);

/* The findings of @pieces (struct simpatch_piece, every added line:
 * simpatch_pieces() with a minimum of 1), as struct misplaced, each
 * interface once per file. */
GPtrArray *misplaced_find(const GPtrArray *pieces);
