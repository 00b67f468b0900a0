/* What a reply tells a reader to run (kernel/build/kbuild.h, "what a reader
 * runs"): the make and qemu command lines derived from the argv armbot
 * runs, with no path of armbot's data dir, cache dir or sources in them,
 * quoted so that /bin/sh gives back the arguments meant. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/datadir.h"
#include "kernel/tree/rmtree.h"
#include "kernel/build/runner.h"
#include "kernel/build/kbuild.h"
#include "kernel/tree/tree.h"
#include "qemu/boot.h"

#define FAKE_DATA "/srv/armbot data/it's"
#define FAKE_CACHE "/srv/armbot-cache"

static void fake_kbuild(struct kbuild *kb)
{
	memset(kb, 0, sizeof(*kb));
	kb->src_dir = (char *)FAKE_DATA "/worktrees/distro-6.1";
	kb->build_dir = (char *)FAKE_DATA "/kbuild/distro-6.1/rpm-virt";
	kb->fragment = (char *)"qemu/virt.config";
	kb->ccache_dir = (char *)FAKE_CACHE "/ccache";
	kb->jobs = 3;
}

static void test_shell_word(void)
{
	static const struct {
		const char *arg, *word;
	} cases[] = {
		{ "O=build", "O=build" },
		{ "drivers/soc/ti/omap_prm.o", "drivers/soc/ti/omap_prm.o" },
		{ "20250701.1234-1-jane@example.com",
		  "20250701.1234-1-jane@example.com" },
		{ "console=ttyAMA0 panic=-1", "'console=ttyAMA0 panic=-1'" },
		{ "it's", "'it'\\''s'" },
		{ "$HOME", "'$HOME'" },
		{ "a;b", "'a;b'" },
		{ "~x", "'~x'" },
		{ "", "''" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = runner_shell_word(cases[i].arg);

		g_assert_cmpstr(got, ==, cases[i].word);
	}
}

/* The arguments /bin/sh makes of @line in @dir, one a line; $(nproc) is
 * the shell's. */
static char *shell_args(const char *dir, const char *line)
{
	g_autofree char *script = g_strdup_printf(
		"cd \"$1\" && set -- %s && printf '%%s\\n' \"$@\"", line);
	const char *argv[] = { "/bin/sh", "-c", script, "sh", dir, NULL };
	g_autofree char *out = NULL;
	int status;
	g_autoptr(GError) error = NULL;

	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL,
				   &out, NULL, &status, &error));
	g_assert_no_error(error);
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	return g_steal_pointer(&out);
}

static void test_make_line(void)
{
	static const char *const allno[] = { "allnoconfig", NULL };
	struct kbuild kb;
	g_autofree char *allconfig = NULL;
	g_autofree char *eval = NULL;
	g_autofree char *line = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-reproduce-XXXXXX", NULL);
	g_autofree char *args = NULL;
	g_autofree char *want = NULL;
	g_autofree char *jobs = NULL;
	const char *vars[3];

	fake_kbuild(&kb);
	allconfig = g_strconcat("KCONFIG_ALLCONFIG=", kb.build_dir,
				"/armbot.config", NULL);
	eval = g_strconcat("--eval=include ", kb.build_dir, "/armbot.mk", NULL);
	vars[0] = allconfig;
	vars[1] = eval;
	vars[2] = NULL;
	line = kbuild_make_printable(&kb, allno, vars);
	g_assert_cmpstr(line, ==,
			"make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- "
			"O=build -j$(nproc) "
			"KCONFIG_ALLCONFIG=$PWD/build/armbot.config "
			"'--eval=include '$PWD/build/armbot.mk allnoconfig");

	/* what the shell makes of it: the build dir under the reader's
	 * kernel tree, one argument with its space */
	args = shell_args(dir, line);
	jobs = g_strdup_printf("%u", g_get_num_processors());
	want = g_strdup_printf("make\nARCH=arm\n"
			       "CROSS_COMPILE=arm-linux-gnueabihf-\n"
			       "O=build\n-j%s\n"
			       "KCONFIG_ALLCONFIG=%s/build/armbot.config\n"
			       "--eval=include %s/build/armbot.mk\n"
			       "allnoconfig\n",
			       jobs, dir, dir);
	g_assert_cmpstr(args, ==, want);
	g_rmdir(dir);
}

/* The steps of a boot with the test module and the qemu line, which must
 * be six (mkdir, fragment, config and kernel makes, the module's, qemu);
 * owned by the caller. */
static GPtrArray *boot_steps_of(const struct kbuild *kb)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *steps = boot_steps(kb, TRUE, TRUE, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(steps->len, ==, 6);
	return steps;
}

/* Step @i of @steps runs the shell command @want. */
static void assert_command(GPtrArray *steps, guint i, const char *want)
{
	const struct kbuild_step *s = steps->pdata[i];

	g_test_message("step %u", i);
	g_assert_cmpstr(s->command, ==, want);
}

/* The steps of a boot of the rpm-virt kernel: the fragment, the makes,
 * the module's, qemu's; the shell gives qemu the arguments armbot's
 * virt_argv() gives it, paths aside. */
static void test_boot_steps(void)
{
	struct kbuild kb;
	g_autoptr(GPtrArray) steps = NULL;
	g_autofree char *fragment = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-reproduce-XXXXXX", NULL);
	g_autofree char *args = NULL;
	g_autofree char *initramfs = NULL;
	const struct kbuild_step *s;

	fake_kbuild(&kb);
	steps = boot_steps_of(&kb);
	s = steps->pdata[0];
	g_assert_cmpstr(s->command, ==, "mkdir -p build");
	s = steps->pdata[1];
	g_assert_null(s->command);
	g_assert_cmpstr(s->file, ==, "build/armbot.config");
	g_assert_false(s->append);
	g_assert_true(
		g_file_get_contents("qemu/virt.config", &fragment, NULL, NULL));
	g_assert_cmpstr(s->text, ==, fragment);
	assert_command(steps, 2,
		       "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- "
		       "O=build -j$(nproc) "
		       "KCONFIG_ALLCONFIG=$PWD/build/armbot.config "
		       "allnoconfig");
	assert_command(steps, 3,
		       "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- "
		       "O=build -j$(nproc)");
	assert_command(steps, 4,
		       "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- "
		       "O=build -j$(nproc) "
		       "M=$PWD/build/armbot-ext/rpm_test "
		       "CONFIG_PM_RUNTIME_KUNIT_TEST=m modules");
	s = steps->pdata[5];
	/* continued before an option, never between it and its value */
	g_assert_cmpstr(
		s->command, ==,
		"qemu-system-arm -M virt -m 256 -display none -monitor "
		"none -serial stdio -nic none -no-reboot -kernel "
		"build/arch/arm/boot/zImage -initrd "
		"build/armbot-initramfs.cpio \\\n"
		"    -append 'console=ttyAMA0 panic=-1 kunit.enable=1'");
	args = shell_args(dir, s->command);
	g_assert_true(g_str_has_suffix(
		args, "\n-append\nconsole=ttyAMA0 panic=-1 kunit.enable=1\n"));
	initramfs = boot_printable_initramfs(&kb);
	g_assert_cmpstr(initramfs, ==, "build/armbot-initramfs.cpio");
	g_rmdir(dir);
}

/* An arm64 build (kernel/build/arch.h): the makes name its ARCH= and
 * cross compiler, qemu is its emulator with a 64-bit CPU and boots its
 * Image. */
static void test_boot_steps_arm64(void)
{
	struct kbuild kb;
	g_autoptr(GPtrArray) steps = NULL;
	g_autofree char *image = NULL;
	const struct kbuild_step *s;

	fake_kbuild(&kb);
	kb.build_dir = (char *)FAKE_DATA "/kbuild/distro-6.1/rpm-virt-arm64";
	kb.arch = kbuild_arch_find("arm64");
	g_assert_nonnull(kb.arch);
	g_assert_null(kbuild_arch_find("mips"));
	steps = boot_steps_of(&kb);
	assert_command(steps, 3,
		       "make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "
		       "O=build -j$(nproc)");
	s = steps->pdata[4];
	g_assert_true(g_str_has_prefix(
		s->command, "make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "
			    "O=build -j$(nproc) M=$PWD/build/armbot-ext/"));
	s = steps->pdata[5];
	g_assert_true(g_str_has_prefix(
		s->command,
		"qemu-system-aarch64 -M virt -cpu cortex-a57 -m 256 "
		"-display none -monitor none -serial stdio -nic "
		"none -no-reboot -kernel build/arch/arm64/boot/Image "
		"-initrd build/armbot-initramfs.cpio"));
	image = kbuild_image(&kb);
	g_assert_cmpstr(
		image, ==,
		FAKE_DATA
		"/kbuild/distro-6.1/rpm-virt-arm64/arch/arm64/boot/Image");
}

/* sparse on many objects: the line is continued, every line within the
 * width, and the shell gives back every object. */
static void test_long_line(void)
{
	static const char *const vars[] = { "C=2", "CHECK=sparse", NULL };
	g_autoptr(GPtrArray) objs = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) want = g_string_new(NULL);
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(GPtrArray) steps = kbuild_steps_new();
	g_autofree char *dir = g_dir_make_tmp("test-reproduce-XXXXXX", NULL);
	g_autofree char *line = NULL;
	g_autofree char *args = NULL;
	g_auto(GStrv) lines = NULL;
	struct kbuild kb;

	fake_kbuild(&kb);
	for (guint i = 0; i < 50; i++)
		g_ptr_array_add(objs, g_strdup_printf("drivers/soc/ti/"
						      "omap_prm_%02u.o",
						      i));
	g_ptr_array_add(objs, NULL);
	line = kbuild_make_printable(&kb, (const char *const *)objs->pdata,
				     vars);
	lines = g_strsplit(line, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), >, 5);
	for (guint i = 0; lines[i]; i++) {
		g_assert_cmpuint(strlen(lines[i]), <=, 160);
		if (lines[i + 1])
			g_assert_true(g_str_has_suffix(lines[i], " \\"));
	}
	args = shell_args(dir, line);
	g_string_printf(want,
			"make\nARCH=arm\n"
			"CROSS_COMPILE=arm-linux-gnueabihf-\n"
			"O=build\n-j%u\nC=2\nCHECK=sparse\n",
			g_get_num_processors());
	for (guint i = 0; objs->pdata[i]; i++)
		g_string_append_printf(want, "%s\n", (char *)objs->pdata[i]);
	g_assert_cmpstr(args, ==, want->str);
	/* formatted, every line of it indented */
	kbuild_steps_add_command(steps, g_strdup(line));
	kbuild_steps_format(text, steps, "        ");
	g_strfreev(lines);
	lines = g_strsplit(text->str, "\n", -1);
	for (guint i = 0; lines[i] && lines[i][0]; i++)
		g_assert_true(g_str_has_prefix(lines[i], "        "));
	g_rmdir(dir);
}

static void test_steps_format(void)
{
	g_autoptr(GPtrArray) steps = kbuild_steps_new();
	g_autoptr(GString) out = g_string_new(NULL);

	kbuild_steps_add_command(steps, g_strdup("mkdir -p build"));
	kbuild_steps_add_file(
		steps, g_strdup("build/.config"),
		g_strdup("CONFIG_A=y\nEOF\n# CONFIG_B is not set"), TRUE);
	kbuild_steps_add_file(steps, g_strdup("build/x y"), g_strdup(""),
			      FALSE);
	kbuild_steps_format(out, steps, "    ");
	/* a line "EOF" in the text: the delimiter is another word */
	g_assert_cmpstr(out->str, ==,
			"    mkdir -p build\n"
			"    cat >> build/.config <<'EOF_'\n"
			"CONFIG_A=y\nEOF\n# CONFIG_B is not set\n"
			"EOF_\n"
			"    cat > 'build/x y' <<'EOF'\n"
			"EOF\n");
}

/* Does @s hold any of @paths? */
static void assert_none_of(const char *s, const char *const *paths)
{
	if (!s)
		return;
	for (guint i = 0; paths[i]; i++)
		if (strstr(s, paths[i]))
			g_error("'%s' holds the private path '%s'", s,
				paths[i]);
}

/* A real session and sparse's build dir, in a data dir and a cache dir
 * of the test's: what the pipeline puts in a reply holds neither, nor
 * armbot's own sources. */
static void test_no_private_path(void)
{
	g_autofree char *top = g_dir_make_tmp("test-reproduce-XXXXXX", NULL);
	g_autofree char *data = g_build_filename(top, "data", NULL);
	g_autofree char *cache = g_build_filename(top, "cache", NULL);
	g_autofree char *real_top = NULL;
	g_autofree char *worktree = NULL;
	g_autofree char *sparse_dir = NULL;
	g_autofree char *ccache = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(boot_session) bs = NULL;
	g_autoptr(kbuild) kb = NULL;
	g_autoptr(GPtrArray) steps = NULL;
	g_autoptr(GPtrArray) sparse_steps = NULL;
	g_autofree char *initramfs = NULL;
	struct tree tree = { 0 };
	struct boot_options bo = { 0 };
	const char *paths[5];

	g_assert_cmpint(g_mkdir_with_parents(data, 0755), ==, 0);
	{
		char *r = realpath(top, NULL);

		real_top = g_strdup(r ? r : top);
		free(r);
	}
	/* datadir_cache_dir()'s; the other tests do not read it */
	g_setenv("ARMBOT_CACHE_DIR", cache, TRUE);
	tree.name = (char *)"distro-6.1";
	bo.data_dir = data;
	bo.tree = &tree;
	bs = boot_session_open(&bo, NULL, &error);
	if (!bs) {
		g_test_skip(error->message);
		goto done;
	}
	steps = boot_session_steps(bs, TRUE, TRUE, &error);
	g_assert_no_error(error);
	initramfs = boot_session_printable_initramfs(bs);

	/* sparse's: a build dir per config, configured from a target */
	worktree = g_build_filename(data, "worktrees", "distro-6.1", NULL);
	sparse_dir = kbuild_dir(data, "distro-6.1", "allmodconfig");
	ccache = g_build_filename(cache, "ccache", NULL);
	kb = kbuild_new(worktree, sparse_dir, NULL, ccache, &error);
	g_assert_no_error(error);
	sparse_steps = kbuild_configure_target_steps(
		kb, "allmodconfig", "# CONFIG_WERROR is not set\n");
	{
		static const char *const objs[] = {
			"drivers/bus/vexpress-config.o", NULL
		};
		static const char *const vars[] = { "C=2", "CHECK=sparse",
						    NULL };

		kbuild_steps_add_command(sparse_steps,
					 kbuild_make_printable(kb, objs, vars));
	}
	g_ptr_array_extend_and_steal(steps, g_steal_pointer(&sparse_steps));

	/* the top of both, as given and as kbuild resolved it, and
	 * armbot's sources (the fragment and the module are read there) */
	paths[0] = top;
	paths[1] = real_top;
	paths[2] = kb->build_dir;
	paths[3] = datadir_source_dir();
	paths[4] = NULL;
	g_assert_cmpuint(steps->len, ==, 6 + 4 + 1);
	for (guint i = 0; i < steps->len; i++) {
		const struct kbuild_step *s = steps->pdata[i];

		assert_none_of(s->command, paths);
		assert_none_of(s->file, paths);
		assert_none_of(s->text, paths);
	}
	assert_none_of(initramfs, paths);
	g_assert_cmpstr(
		((struct kbuild_step *)steps->pdata[steps->len - 1])->command,
		==,
		"make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- O=build "
		"-j$(nproc) C=2 CHECK=sparse drivers/bus/vexpress-config.o");
done:
	g_clear_pointer(&bs, boot_session_free);
	rmtree(top, NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/reproduce/shell-word", test_shell_word);
	g_test_add_func("/reproduce/make-line", test_make_line);
	g_test_add_func("/reproduce/boot-steps", test_boot_steps);
	g_test_add_func("/reproduce/boot-steps-arm64", test_boot_steps_arm64);
	g_test_add_func("/reproduce/long-line", test_long_line);
	g_test_add_func("/reproduce/steps-format", test_steps_format);
	g_test_add_func("/reproduce/no-private-path", test_no_private_path);
	return g_test_run();
}
