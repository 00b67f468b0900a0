#!/bin/sh
# armbot sparse on the real distro tree with real sparse: exactly the
# warnings a series adds are new (marked >>), moved code adds none, a
# fixed warning is reported as fixed, mach-omap1 is checked under the
# ARMv5 config, and --per-patch names the patch that introduced a warning.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/sparse-lib.sh"

# the results kept from earlier runs (kernel/build/sparse-cache.h) go: the
# first series on the base builds its objects there, and a series' commits
# are built unless the same source was checked in this run
rm -rf "$DATA/sparse-base" "$DATA/sparse-series"

# 1. a non-static global in an ARM file: one new warning
new_patch arch/arm/kernel/setup.c \
	's/^(unsigned int __atags_pointer __initdata;\n)/$1int armbot_test_global;\n/m' \
	"ARM: setup: add a global" &&
	series_mbox 1 "$TMP/global.mbox" || fail "make the global patch"
run_sparse "$TMP/global.mbox"
diag "global: ${elapsed}s"
is "$status" 0 "global: exit status 0"
grep -q '^checked: arch/arm/kernel/setup.o (allmodconfig; touched)$' "$TMP/out"
ok $? "global: setup.o checked under allmodconfig"
is "$(new_lines)" ">> arch/arm/kernel/setup.c:94:5: sparse: sparse: symbol 'armbot_test_global' was not declared. Should it be static?" \
	"global: exactly one new warning, the global, marked >>"
grep -q "^   arch/arm/kernel/setup.c:[0-9]*:[0-9]*: sparse: sparse: symbol 'fpe_type' was not declared" "$TMP/out"
ok $? "global: the existing warnings are listed, not marked new"
is "$(result_line)" "warn: 1 new, 0 fixed, 5 warnings at head, 0 compile errors" \
	"global: the result line"
grep -qx "base: 0 objects from the cache, 1 built" "$TMP/out"
ok $? "global: setup.o built at the base (nothing kept yet)"

# 2. code moved (every line number below shifts): nothing new
# (the function's text is moved by perl itself, read from the file)
git -C "$G" checkout "$BASE" -- arch/arm/kernel/traps.c
perl -0pi -e 'my ($f) = /\n(void abort\(void\)\n\{.*?\n\}\n)/s; s/\nvoid abort\(void\)\n\{.*?\n\}\n//s; s/(#include <asm\/opcodes.h>\n)/$1\n$f/' "$G/arch/arm/kernel/traps.c"
gitc commit -q -m "ARM: traps: move abort() up" -- arch/arm/kernel/traps.c &&
	EDITED=arch/arm/kernel/traps.c && series_mbox 1 "$TMP/move.mbox" ||
	fail "make the move patch"
run_sparse "$TMP/move.mbox"
diag "move: ${elapsed}s"
is "$status" 0 "move: exit status 0"
grep -q "^   arch/arm/kernel/traps.c:4[0-9]:6: sparse: sparse: symbol 'abort' was not declared" "$TMP/out"
ok $? "move: abort()'s warning is at its new line, not new"
is "$(new_lines)" "" "move: no new warning"
case $(result_line) in
"ok: 0 new, 0 fixed, "*) pass "move: result ok, nothing new or fixed" ;;
*) fail "move: result ok, nothing new or fixed" ;;
esac

# 3. a declaration for a symbol sparse complained about: fixed
new_patch arch/arm/kernel/setup.c \
	's/^(char fpe_type\[8\];\n)/extern char fpe_type[8];\n$1/m' \
	"ARM: setup: declare fpe_type" &&
	series_mbox 1 "$TMP/fix.mbox" || fail "make the fix patch"
run_sparse "$TMP/fix.mbox"
diag "fix: ${elapsed}s"
is "$status" 0 "fix: exit status 0"
sed -n '/^fixed warnings:/,/^$/p' "$TMP/out" > "$TMP/fixed"
is "$(sed -n 2p "$TMP/fixed")" "   arch/arm/kernel/setup.c:68:6: sparse: sparse: symbol 'fpe_type' was not declared. Should it be static?" \
	"fix: the fpe_type warning is reported as fixed"
is "$(new_lines)" "" "fix: no new warning"
is "$(result_line)" "ok: 0 new, 1 fixed, 3 warnings at head, 0 compile errors" \
	"fix: the result line"
grep -qx "base: 1 objects from the cache, 0 built" "$TMP/out"
ok $? "fix: a second series on the same base builds nothing there: setup.o's base warnings are kept"
# the kept base warnings are those a fresh build gives: the same report
grep -v '^time: \|^base: \|^series: \|^series commits: ' "$TMP/out" > "$TMP/fix-cached"
run_sparse --no-base-cache "$TMP/fix.mbox"
grep -qx "base: 0 objects from the cache, 1 built" "$TMP/out"
ok $? "fix: --no-base-cache builds setup.o at the base"
grep -v '^time: \|^base: \|^series: \|^series commits: ' "$TMP/out" > "$TMP/fix-built"
diff "$TMP/fix-cached" "$TMP/fix-built" | sed 's/^/# /'
cmp -s "$TMP/fix-cached" "$TMP/fix-built"
ok $? "fix: the same report from the kept base warnings as from a fresh build"

# 4. mach-omap1 under the ARMv5 config, per patch: a global in clock.c,
# then a comment in clock.h (its includers are checked too)
new_patch arch/arm/mach-omap1/clock.c \
	's/(\n#include "clock.h"\n)/$1\nint armbot_omap1_global;\n/' \
	"ARM: omap1: add a global" &&
new_patch arch/arm/mach-omap1/clock.h \
	's/(#define __ARCH_ARM_MACH_OMAP1_CLOCK_H\n)/$1\n\/* a comment *\/\n/' \
	"ARM: omap1: comment clock.h" &&
	series_mbox 2 "$TMP/omap1.mbox" || fail "make the omap1 series"
run_sparse --per-patch "$TMP/omap1.mbox"
diag "omap1: ${elapsed}s"
is "$status" 0 "omap1: exit status 0"
grep -q '^checked: arch/arm/mach-omap1/clock.o (multi_v5; touched)$' "$TMP/out"
ok $? "omap1: clock.o checked under the ARMv5 config (multi_v5)"
grep -q '^checked: arch/arm/mach-omap1/clock_data.o (multi_v5; includes arch/arm/mach-omap1/clock.h)$' "$TMP/out"
ok $? "omap1: an includer of the touched header is checked"
grep -q "^base: 0 objects from the cache, [1-9][0-9]* built$" "$TMP/out"
ok $? "omap1: the header's includers are built at the base, none taken from another series' objects"
is "$(new_lines)" ">> arch/arm/mach-omap1/clock.c:30:5: sparse: sparse: symbol 'armbot_omap1_global' was not declared. Should it be static?" \
	"omap1: exactly one new warning"
is "$(sed -n '/^introduced by patch/{p;n;p}' "$TMP/out")" \
	"introduced by patch 1/2 \"ARM: omap1: add a global\":
>> arch/arm/mach-omap1/clock.c:30:5: sparse: sparse: symbol 'armbot_omap1_global' was not declared. Should it be static?" \
	"omap1: --per-patch names patch 1/2"

# 5. results kept per source at the series' commits: a header touched
# (its includers checked), the same change again under another subject
# (the same source: nothing built, the same report), then another change
# to the header (its includers built again: a result kept from the first
# would name the first symbol and fail the test)
hdr_series() { # SYMBOL SUBJECT OUT
	new_patch arch/arm/kernel/atags.h \
		"s/^(void convert_to_tag_list\\(struct tag \\*tags\\);\n)/\$1int $1;\n/m" \
		"$2" && series_mbox 1 "$3"
}
hdr_series armbot_hdr_a "ARM: atags: add a global" "$TMP/hdr1.mbox" ||
	fail "make the first header patch"
run_sparse "$TMP/hdr1.mbox"
diag "header: ${elapsed}s"
is "$status" 0 "header: exit status 0"
grep -q '^checked: arch/arm/kernel/setup.o (allmodconfig; includes arch/arm/kernel/atags.h)$' "$TMP/out"
ok $? "header: setup.o, an includer of atags.h, checked"
n_hdr=$(grep -c '^checked: .*includes arch/arm/kernel/atags.h' "$TMP/out")
grep -qx "series commits: 0 objects from the cache, $n_hdr built" "$TMP/out"
ok $? "header: the $n_hdr includers built at the head (nothing kept for this source)"
new_lines | grep -q "^>> arch/arm/kernel/atags.h:3:5: sparse: sparse: symbol 'armbot_hdr_a' was not declared"
ok $? "header: the header's global is new"
grep -v '^time: \|^base: \|^series: \|^series commits: ' "$TMP/out" > "$TMP/hdr1-built"

hdr_series armbot_hdr_a "ARM: atags: the same global, reworded" \
	"$TMP/hdr1b.mbox" || fail "make the reworded header patch"
run_sparse "$TMP/hdr1b.mbox"
diag "header again: ${elapsed}s"
grep -qx "series commits: $n_hdr objects from the cache, 0 built" "$TMP/out"
ok $? "header again: the same source under another subject builds nothing"
grep -v '^time: \|^base: \|^series: \|^series commits: ' "$TMP/out" > "$TMP/hdr1-cached"
diff "$TMP/hdr1-built" "$TMP/hdr1-cached" | sed 's/^/# /'
cmp -s "$TMP/hdr1-built" "$TMP/hdr1-cached"
ok $? "header again: the same report from the kept results as from the build"

hdr_series armbot_hdr_b "ARM: atags: add another global" "$TMP/hdr2.mbox" ||
	fail "make the second header patch"
run_sparse "$TMP/hdr2.mbox"
diag "header changed: ${elapsed}s"
grep -qx "series commits: 0 objects from the cache, $n_hdr built" "$TMP/out"
ok $? "header changed: its $n_hdr includers built again"
new_lines | grep -q "^>> arch/arm/kernel/atags.h:3:5: sparse: sparse: symbol 'armbot_hdr_b' was not declared"
ok $? "header changed: the new global is reported"
grep -q armbot_hdr_a "$TMP/out"
is $? 1 "header changed: nothing of the first header's results"
done_testing
