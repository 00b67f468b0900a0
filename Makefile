# armbot: one binary, built from the modules of bot/ mailparse/ kernel/
# qemu/ config/.  `make deps` installs what the project needs, `make` builds
# ./armbot, `make check` does both and runs every test through prove.

# Every Debian package the project needs, in one place.  `make deps` installs
# the ones that are missing.  postfix is only the tests' SMTP server
# (tests/lib/smtp-server.sh runs private instances): debconf's "No
# configuration" keeps the package from setting up and starting a
# system-wide one.  b4 is the peer bench/base-guess.sh measures base
# discovery against (strace checks that it stays offline).
DEBIAN_PACKAGES = \
	build-essential pkg-config git xz-utils perl \
	libglib2.0-dev libetpan-dev libgit2-dev libcurl4-gnutls-dev \
	libsqlite3-dev libsoup-3.0-dev libarchive-dev libdeflate-dev liblzma-dev \
	zlib1g-dev \
	clang libclang-rt-14-dev \
	sparse ccache bubblewrap libseccomp-dev gcc-arm-linux-gnueabihf libc6-dev-armhf-cross \
	qemu-system-arm \
	bc bison flex libssl-dev libelf-dev cpio kmod \
	linux-source-6.1 \
	postfix sasl2-bin \
	chromium wrk python3-jsonschema libxml2-utils curl \
	sqlite3 dovecot-imapd public-inbox \
	b4 strace

PKG_MODULES = glib-2.0 gio-2.0 libetpan libgit2 libcurl sqlite3 libsoup-3.0 \
	libarchive libdeflate libcrypto liblzma zlib libseccomp
# what the front program `armbot` links (bot/front.c): dirstat only
FRONT_MODULES = glib-2.0 zlib libdeflate

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

CC ?= cc
comma = ,
# libetpan's .pc drags in Debian's no-pie link specs and -z now (every
# symbol of every library bound at start-up): drop them so that
# sanitizer and PIE builds link.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKG_MODULES) 2>/dev/null)
FRONT_LIBS = $(shell pkg-config --libs $(FRONT_MODULES) 2>/dev/null)
PKG_LIBS = -Wl,--as-needed $(filter-out -specs=% -Wl$(comma)-z$(comma)now,$(shell pkg-config --libs $(PKG_MODULES) 2>/dev/null))

WARNINGS = -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wmissing-prototypes -Wstrict-prototypes -Wshadow -Wformat=2 \
	-Wno-format-nonliteral -Wvla
BASE_CFLAGS = -std=gnu11 -O2 -g $(WARNINGS) -I. $(PKG_CFLAGS) \
	-DARMBOT_VERSION='"$(VERSION)"' -DG_LOG_DOMAIN='"armbot"' \
	-DARMBOT_SOURCE_DIR='"$(CURDIR)"' \
	-DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74
ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

# Library sources: every .c of the module folders, except the kernel code of
# kernel/rpm-test/, the guest init of qemu/initramfs/ and the entry point.
MODULE_DIRS = bot mailparse kernel qemu config
LIB_SRCS = $(filter-out bot/main.c bot/front.c,$(wildcard $(addsuffix /*.c,$(MODULE_DIRS))))
UNIT_SRCS = $(wildcard tests/unit/test-*.c)
# helpers every unit test links: the other .c files of tests/unit/
UNIT_HELPER_SRCS = $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))
FUZZ_SRCS = $(wildcard tests/fuzz/fuzz-*.c)

BUILD = build
REL = $(BUILD)/release
ASAN = $(BUILD)/asan

REL_OBJS = $(LIB_SRCS:%.c=$(REL)/%.o)
ASAN_OBJS = $(LIB_SRCS:%.c=$(ASAN)/%.o)
REL_TESTS = $(UNIT_SRCS:tests/unit/%.c=$(REL)/tests/%)
ASAN_TESTS = $(UNIT_SRCS:tests/unit/%.c=$(ASAN)/tests/%)

# Caches that outlive a clone: the imported distro tree, build directories,
# ccache.  Tests use it through ARMBOT_CACHE_DIR.
ARMBOT_CACHE_DIR ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/armbot
export ARMBOT_CACHE_DIR

.PHONY: all deps check unit-tests asan format fuzz clean run bench
# keep objects of test binaries: they are intermediate files to make
.SECONDARY:
all: armbot armbot-core

# armbot is the lean front (bot/front.c): dirstat with GLib, zlib and libdeflate only,
# every other command by exec of armbot-core beside it
armbot: $(REL)/bot/front.o $(REL)/libarmbot.a
	$(CC) -Wl,--as-needed -o $@ $^ $(FRONT_LIBS)

armbot-core: $(REL)/bot/main.o $(REL)/libarmbot.a
	$(CC) -o $@ $^ $(PKG_LIBS) -lm

$(REL)/libarmbot.a: $(REL_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(ASAN)/libarmbot.a: $(ASAN_OBJS)
	@rm -f $@
	ar rcs $@ $^

# `make V=1` shows the full command lines
Q = $(if $(V),,@)

$(REL)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC asan $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(REL)/tests/%: $(REL)/tests/unit/%.o $(UNIT_HELPER_SRCS:%.c=$(REL)/%.o) $(REL)/libarmbot.a
	$(CC) -o $@ $^ $(PKG_LIBS) -lm

$(ASAN)/tests/%: $(ASAN)/tests/unit/%.o $(UNIT_HELPER_SRCS:%.c=$(ASAN)/%.o) $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(ASAN)/armbot: $(ASAN)/bot/front.o $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -Wl,--as-needed -o $@ $^ $(FRONT_LIBS)

$(ASAN)/armbot-core: $(ASAN)/bot/main.o $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm

unit-tests: $(REL_TESTS)
asan: $(ASAN)/armbot $(ASAN)/armbot-core $(ASAN_TESTS)

-include $(REL_OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(REL)/bot/main.d $(ASAN)/bot/main.d \
	$(REL)/bot/front.d $(ASAN)/bot/front.d \
	$(patsubst %.c,$(REL)/%.d,$(wildcard tests/unit/*.c)) \
	$(patsubst %.c,$(ASAN)/%.d,$(wildcard tests/unit/*.c))

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -q && \
		echo 'postfix postfix/main_mailer_type select No configuration' | \
			$$SUDO debconf-set-selections && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q \
			--no-install-recommends $$missing; \
	fi

# The shell tests get the binary under test through ARMBOT; under ASan the
# same scripts run again against the sanitized binary (build/asan-tap holds
# the wrappers prove runs).
CONFORMANCE_TESTS = $(sort $(wildcard tests/conformance/*.t))
E2E_TESTS = $(sort $(wildcard tests/e2e/*.t))

$(BUILD)/asan-tap/stamp: $(CONFORMANCE_TESTS) $(ASAN_TESTS) Makefile
	@rm -rf $(BUILD)/asan-tap; mkdir -p $(BUILD)/asan-tap
	@for t in $(ASAN_TESTS); do n=$$(basename $$t); \
		printf '#!/bin/sh\nexec %s/%s --tap\n' "$$PWD" "$$t" \
			> $(BUILD)/asan-tap/asan-unit-$$n.t; done
	@for t in $(CONFORMANCE_TESTS); do n=$$(basename $$t); \
		printf '#!/bin/sh\nARMBOT=%s/$(ASAN)/armbot ARMBOT_ASAN=1 exec %s/%s\n' \
			"$$PWD" "$$PWD" "$$t" > $(BUILD)/asan-tap/asan-$$n; done
	@for t in $(REL_TESTS); do n=$$(basename $$t); \
		printf '#!/bin/sh\nexec %s/%s --tap\n' "$$PWD" "$$t" \
			> $(BUILD)/asan-tap/unit-$$n.t; done
	@chmod +x $(BUILD)/asan-tap/*.t
	@touch $@

check: deps
	$(MAKE) all unit-tests asan $(BUILD)/asan-tap/stamp
	ARMBOT=$(CURDIR)/armbot \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1 \
		prove --timer $(BUILD)/asan-tap/unit-*.t $(CONFORMANCE_TESTS) \
			$(E2E_TESTS) $(BUILD)/asan-tap/asan-*.t

# libFuzzer targets: tests/fuzz/fuzz-NAME.c, built with clang.
FUZZ_SECONDS ?= 600
# Seeds of fuzz-NAME in tests/fuzz/seeds/NAME/ (if any).
fuzz: $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
	@for f in $^; do n=$$(basename $$f); mkdir -p $(BUILD)/fuzz/corpus-$$n; \
		$$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
			-print_final_stats=1 $(BUILD)/fuzz/corpus-$$n \
			$$(ls -d tests/fuzz/seeds/$${n#fuzz-} 2>/dev/null) \
			|| exit 1; done

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS)
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -I. $(PKG_CFLAGS) -DARMBOT_VERSION='"fuzz"' \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -o $@ $< $(LIB_SRCS) \
		$(PKG_LIBS) -lm

format:
	clang-format -i $$(git ls-files '*.c' '*.h' | grep -v '^kernel/rpm-test/')

# The main job on the embedded defaults: import Debian's linux-source-6.1
# into the data dir (first time only), take a series (SERIES=file.mbox,
# else the demonstration series bot/demo-series.sh makes from that tree:
# one patch removes an ARM board file, one adds code to a driver), and run
# every check on it with `armbot check`: apply with git am semantics, the
# signed dirstat and arch/arm verdict, sparse (allmodconfig and ARMv5
# build dirs are configured the first time), build, boot in QEMU and the
# runtime-PM KUnit suite; it prints the reply armbot would send.  Exit
# status 1 (a check found a problem) is a result, not a failure of make.
SERIES ?=
RUN_DATA_DIR = $(or $(ARMBOT_DATA_DIR),$(or $(XDG_DATA_HOME),$(HOME)/.local/share)/armbot)
RUN_SERIES = $(or $(SERIES),$(BUILD)/demo-series.mbox)
run: deps
	$(MAKE) all
	./armbot --data-dir "$(RUN_DATA_DIR)" tree import
	@if [ -z "$(SERIES)" ]; then \
		bot/demo-series.sh "$(RUN_DATA_DIR)/trees/distro-6.1/repo.git" \
			$(BUILD)/demo-series.mbox && \
		echo "demonstration series: $(BUILD)/demo-series.mbox"; fi
	./armbot --data-dir "$(RUN_DATA_DIR)" check $(RUN_SERIES) || [ $$? -eq 1 ]

bench: all
	@for b in bench/*.sh; do echo "== $$b"; sh $$b || exit 1; done

clean:
	rm -rf $(BUILD) armbot
