# armbot: two programs built from one library of the modules of bot/
# mailparse/ kernel/ qemu/ config/ (their layers: README, "Architecture"):
# ./armbot, the lean front that runs `armbot dirstat` itself and execs
# ./armbot-core for every other command.  `make deps` installs what the
# project needs, `make` builds both, `make check` does both and runs every
# test through prove.

# Every Debian package the project needs, in one place.  `make deps` installs
# the ones that are missing.  DEBIAN_BUILD_PACKAGES are what building the
# programs and their man pages takes: debian/control's Build-Depends are
# these (`make deb` stops when the two differ).  postfix is only the tests' SMTP server
# (tests/lib/smtp-server.sh runs private instances): debconf's "No
# configuration" keeps the package from setting up and starting a
# system-wide one.  b4 is the peer bench/base-guess.sh measures base
# discovery against (strace checks that it stays offline).
# python3-jsonschema validates armbot's KCIDB documents, and git-pw reads
# the patches back from the patchwork test server, in
# tests/e2e/pipeline-kcidb-patchwork.t.  debhelper, lintian, man-db and
# systemd (systemd-analyze) are what tests/e2e/package.t builds and checks
# the Debian package with.  lava-server, lava-dispatcher and postgresql
# are the LAVA instance tests/e2e/lava.t starts on loopback (its own
# PostgreSQL cluster and settings; policy-rc.d keeps the packages'
# services from starting).  gcc-aarch64-linux-gnu and
# libc6-dev-arm64-cross build the arm64 boards' kernels and their static
# guest init (kernel/build/arch.c); Debian's qemu-system-arm package also
# ships qemu-system-aarch64, which boots them.
DEBIAN_BUILD_PACKAGES = \
	pkg-config perl \
	libglib2.0-dev libetpan-dev libgit2-dev libcurl4-gnutls-dev \
	libsqlite3-dev libsoup-3.0-dev libarchive-dev libdeflate-dev liblzma-dev \
	zlib1g-dev libjson-glib-dev libssl-dev libseccomp-dev
DEBIAN_PACKAGES = \
	build-essential git xz-utils $(DEBIAN_BUILD_PACKAGES) \
	clang libclang-rt-14-dev \
	sparse ccache bubblewrap gcc-arm-linux-gnueabihf libc6-dev-armhf-cross \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	icecc g++-arm-linux-gnueabihf iproute2 nftables \
	qemu-system-arm \
	bc bison flex libelf-dev cpio kmod \
	linux-source-6.1 \
	postfix sasl2-bin \
	chromium wrk python3-jsonschema libxml2-utils curl git-pw \
	sqlite3 dovecot-imapd public-inbox \
	b4 strace \
	debhelper lintian man-db systemd \
	lava-server lava-dispatcher postgresql

PKG_MODULES = glib-2.0 gio-2.0 libetpan libgit2 libcurl sqlite3 libsoup-3.0 \
	libarchive libdeflate libcrypto liblzma zlib json-glib-1.0 libseccomp
# what the front program `armbot` links (bot/cli/front.c): dirstat only,
# without --json (json-glib brings GObject and GIO: README, "armbot dirstat")
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

# Library sources: every .c of the module folders and their layers (README,
# "Architecture"), except what runs inside the guest (qemu/guest/: the
# rpm-test kernel module and /init) and the entry points of bot/cli/.
MODULE_DIRS = bot mailparse kernel qemu config
LIB_SRCS = $(sort $(filter-out bot/cli/main.c bot/cli/front.c qemu/guest/%,\
	$(shell find $(MODULE_DIRS) -name '*.c')))
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

.PHONY: all deps check check-boards unit-tests asan format fuzz clean run bench \
	install man deb debian-check
# keep objects of test binaries: they are intermediate files to make
.SECONDARY:
all: armbot armbot-core

# armbot is the lean front (bot/cli/front.c): dirstat with GLib, zlib and libdeflate only,
# every other command by exec of armbot-core beside it
armbot: $(REL)/bot/cli/front.o $(REL)/libarmbot.a
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(FRONT_LIBS)

armbot-core: $(REL)/bot/cli/main.o $(REL)/libarmbot.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

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
	$(Q)$(CC) $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(ASAN)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC asan $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(ASAN_FLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(REL)/tests/%: $(REL)/tests/unit/%.o $(UNIT_HELPER_SRCS:%.c=$(REL)/%.o) $(REL)/libarmbot.a
	$(CC) -o $@ $^ $(PKG_LIBS) -lm

$(ASAN)/tests/%: $(ASAN)/tests/unit/%.o $(UNIT_HELPER_SRCS:%.c=$(ASAN)/%.o) $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(ASAN)/armbot: $(ASAN)/bot/cli/front.o $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -Wl,--as-needed -o $@ $^ $(FRONT_LIBS)

$(ASAN)/armbot-core: $(ASAN)/bot/cli/main.o $(ASAN)/libarmbot.a
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm

unit-tests: $(REL_TESTS)
asan: $(ASAN)/armbot $(ASAN)/armbot-core $(ASAN_TESTS)

-include $(REL_OBJS:.o=.d) $(ASAN_OBJS:.o=.d) $(REL)/bot/cli/main.d $(ASAN)/bot/cli/main.d \
	$(REL)/bot/cli/front.d $(ASAN)/bot/cli/front.d \
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

# Two tests at a time (tests/harness.pl, prove's harness): the end-to-end
# tests one after the other, beside them the rest.
check: deps
	$(MAKE) all unit-tests asan $(BUILD)/asan-tap/stamp
	ARMBOT=$(CURDIR)/armbot \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1 \
		perl tests/harness.pl -j2 $(E2E_TESTS) tests/layout.t \
			$(BUILD)/asan-tap/unit-*.t $(CONFORMANCE_TESTS) \
			$(BUILD)/asan-tap/asan-*.t

# Every board the map (qemu/boards.conf) marks `boots = yes`, built and
# booted twice (cold on a fresh cache, then warm): too slow for `make check`,
# whose run of tests/e2e/boards.t boots vexpress-a9 and virt-arm64 once.
check-boards: all
	ARMBOT=$(CURDIR)/armbot ARMBOT_BOARDS=all prove -v --timer tests/e2e/boards.t

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
	clang-format -i $$(git ls-files '*.c' '*.h' | grep -v '^qemu/guest/rpm-test/')

# The main job on the embedded defaults: import Debian's linux-source-6.1
# into the data dir (first time only), take a series (SERIES=file.mbox,
# else the demonstration series bot/cli/demo-series.sh makes from that tree:
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
	@# progress on standard error joins the output: `make run | tee log`
	@# keeps a line per stage, and one at least every 30 s (bot/cli/progress.h)
	./armbot --data-dir "$(RUN_DATA_DIR)" tree import 2>&1
	@if [ -z "$(SERIES)" ]; then \
		bot/cli/demo-series.sh "$(RUN_DATA_DIR)/trees/distro-6.1/repo.git" \
			$(BUILD)/demo-series.mbox && \
		echo "demonstration series: $(BUILD)/demo-series.mbox"; fi
	./armbot --data-dir "$(RUN_DATA_DIR)" check $(RUN_SERIES) 2>&1 || [ $$? -eq 1 ]

FORCE:

bench: all
	@for b in bench/*.sh; do echo "== $$b"; sh $$b || exit 1; done

# `make install PREFIX=/usr/local DESTDIR=`: the programs in PKGLIBDIR
# (armbot execs armbot-core beside itself, bot/cli/front.c) and armbot
# in BINDIR as a link to them; the guest files of the boot check
# (qemu/guest/init.c, qemu/guest/rpm-test/, qemu/virt.config, the board
# map qemu/boards.conf and the boards' fragments qemu/BOARD.config, which
# the pipeline builds the boards a series selects with) in PKGDATADIR,
# where the installed programs look for them (ARMBOT_SOURCE_DIR: only
# config/datadir.c is compiled again for that, in build/install/, so that
# ./armbot keeps using the clone's); the man pages; the example
# configuration in SYSCONFDIR/armbot; the systemd units in UNITDIR.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
PKGLIBDIR ?= $(PREFIX)/lib/armbot
PKGDATADIR ?= $(PREFIX)/share/armbot
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
UNITDIR ?= $(PREFIX)/lib/systemd/system
INST = $(BUILD)/install
# (rpm-test's README.md stays out: kbuild needs none, and lintian wants
# documentation in /usr/share/doc)
# the fragment files of virt and of the boards (qemu/NAME.config) with the
# map that names them
GUEST_FILES = $(wildcard qemu/*.config) qemu/boards.conf qemu/guest/init.c \
	$(filter-out %.md,$(wildcard qemu/guest/rpm-test/*))
UNITS = armbot.service armbot-web.service

$(INST)/pkgdatadir: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PKGDATADIR)' | cmp -s - $@ || echo '$(PKGDATADIR)' > $@

$(INST)/datadir.o: config/datadir.c $(INST)/pkgdatadir
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DARMBOT_SOURCE_DIR=%,$(BASE_CFLAGS)) \
		-DARMBOT_SOURCE_DIR='"$(PKGDATADIR)"' $(CPPFLAGS) $(CFLAGS) \
		-MMD -MP -c -o $@ $<
-include $(INST)/datadir.d

$(INST)/armbot: $(REL)/bot/cli/front.o $(INST)/datadir.o $(REL)/libarmbot.a
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(FRONT_LIBS)

$(INST)/armbot-core: $(REL)/bot/cli/main.o $(INST)/datadir.o $(REL)/libarmbot.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# The units with the installed paths
$(INST)/%.service: config/systemd/%.service FORCE
	@mkdir -p $(dir $@)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< > $@

# The man pages, written from `armbot help` and the example configuration
# by bot/cli/manpage.pl (their date: SOURCE_DATE_EPOCH when set)
MAN_PAGES = $(BUILD)/man/armbot.1 $(BUILD)/man/armbot.conf.5
man: $(MAN_PAGES)
$(BUILD)/man/armbot.1: bot/cli/manpage.pl armbot armbot-core
	@mkdir -p $(dir $@)
	perl bot/cli/manpage.pl armbot ./armbot-core '$(VERSION)' > $@.tmp && mv $@.tmp $@
$(BUILD)/man/armbot.conf.5: bot/cli/manpage.pl config/armbot.conf.example \
		$(wildcard config/trees.d.example/*.conf)
	@mkdir -p $(dir $@)
	perl bot/cli/manpage.pl config config/armbot.conf.example \
		config/trees.d.example/omap.conf '$(VERSION)' > $@.tmp && mv $@.tmp $@

install: $(INST)/armbot $(INST)/armbot-core $(MAN_PAGES) \
		$(UNITS:%=$(INST)/%)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBDIR) \
		$(DESTDIR)$(PKGDATADIR)/qemu/guest/rpm-test \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(SYSCONFDIR)/armbot/trees.d.example $(DESTDIR)$(UNITDIR)
	install -m 755 $(INST)/armbot $(INST)/armbot-core $(DESTDIR)$(PKGLIBDIR)/
	ln -sfr $(DESTDIR)$(PKGLIBDIR)/armbot $(DESTDIR)$(BINDIR)/armbot
	for f in $(GUEST_FILES); do \
		install -m 644 $$f $(DESTDIR)$(PKGDATADIR)/$$f || exit 1; done
	install -m 644 $(BUILD)/man/armbot.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/man/armbot.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 config/armbot.conf.example $(DESTDIR)$(SYSCONFDIR)/armbot/
	install -m 644 config/trees.d.example/*.conf \
		$(DESTDIR)$(SYSCONFDIR)/armbot/trees.d.example/
	install -m 644 $(UNITS:%=$(INST)/%) $(DESTDIR)$(UNITDIR)/

# The Debian package, built by dpkg-buildpackage in a copy of the tracked
# files (build/deb/armbot: the same path each time, so that ccache hits
# when CC="ccache cc"); the .deb lands in build/deb/.  The package's make
# gets CC but not this make's command line (BUILD= there would be its
# build dir, and its clean would remove the copy).
# debian/control's Build-Depends are DEBIAN_BUILD_PACKAGES, and every
# pkg-config module the build links comes from one of them
debian-check:
	@mkdir -p $(BUILD)
	@echo $(DEBIAN_BUILD_PACKAGES) | tr ' ' '\n' | sort > $(BUILD)/build-depends.want
	@sed -n '/^Build-Depends:/,/^[^ ]/{s/^Build-Depends://;/^[^ ]/d;p}' debian/control | \
		tr ',' '\n' | sed -e 's/^ *//' -e 's/[ (].*//' | \
		grep -v -e '^debhelper-compat$$' -e '^$$' | sort > $(BUILD)/build-depends.have
	@diff $(BUILD)/build-depends.want $(BUILD)/build-depends.have >/dev/null || { \
		echo "debian/control's Build-Depends differ from the Makefile's DEBIAN_BUILD_PACKAGES"; \
		echo "(< Makefile, > debian/control):"; \
		diff $(BUILD)/build-depends.want $(BUILD)/build-depends.have | grep '^[<>]'; exit 1; }
	@for m in $(PKG_MODULES); do \
		pkg=$$(dpkg -S "$$(pkg-config --path $$m)" 2>/dev/null | cut -d: -f1); \
		echo " $(DEBIAN_BUILD_PACKAGES) " | grep -q " $$pkg " || { \
		echo "pkg-config module $$m (package $${pkg:-none found}) is not in DEBIAN_BUILD_PACKAGES"; \
		exit 1; }; done

deb: debian-check
	rm -rf $(BUILD)/deb/armbot $(BUILD)/deb/armbot_* && mkdir -p $(BUILD)/deb/armbot
	git ls-files -z --cached --others --exclude-standard | \
		grep -zv '^$(BUILD)/' | xargs -0 tar cf - | tar xf - -C $(BUILD)/deb/armbot
	cd $(BUILD)/deb/armbot && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		CC='$(CC)' dpkg-buildpackage -us -uc -b -Jauto
	@ls $(BUILD)/deb/armbot_*.deb

clean:
	rm -rf $(BUILD) armbot
