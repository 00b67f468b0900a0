#!/bin/sh
# A patch that makes the bus type's callbacks win over the PM domain's
# (undoing "PM: Make power domain callbacks take precedence over subsystem
# ones"): the kernel still boots, the precedence cases fail and armbot
# reports them as new failures against the base; the tree is reverted.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

F=drivers/base/power/runtime.c
make_patch $F 's/\tif \(dev->pm_domain\)\n\t\tops = &dev->pm_domain->ops;\n\telse if \(dev->type/\tif (dev->type/; s/(\t\tops = dev->bus->pm;\n)/$1\telse if (dev->pm_domain)\n\t\tops = &dev->pm_domain->ops;\n/' "$TMP/precedence.patch"
ok $? "make the precedence-breaking patch"

run_boot --patch "$TMP/precedence.patch"
is "$status" 1 "armbot boot exits 1 on a regression"
grep -q '^base: boot ok' "$TMP/out"; ok $? "the base boots"
grep -q '^boot ok' "$TMP/out"; ok $? "the patched kernel boots too"
grep '^new failure: ' "$TMP/out" | sort > "$TMP/new"
cat > "$TMP/expected" <<'END'
new failure: rpm_domain.rpm_test_domain_idle
new failure: rpm_domain.rpm_test_domain_over_class
new failure: rpm_domain.rpm_test_domain_resume
new failure: rpm_domain.rpm_test_domain_suspend
new failure: rpm_domain.rpm_test_partial_domain_fallback
new failure: rpm_platform.rpm_test_platform_domain
END
is_file "$TMP/expected" "$TMP/new" "exactly the domain-precedence cases are new failures"
n=$(suite_cases)
grep -qx "kunit: $((n - 6)) passed, 6 new failures, 0 fixed, 0 still failing, 0 skipped, 0 not run" "$TMP/out"
ok $? "the summary counts them"
grep -q '^ *# rpm_test_domain_resume: EXPECTATION FAILED' "$TMP/out"
ok $? "with KUnit's diagnostics"
cmp -s "$SRC/$F" "$TMP/a/$F"; ok $? "the tree is back to the base"
[ ! -e "$DATA/kbuild"/*/rpm-virt/armbot-applied.patch ]; ok $? "and the journal is gone"
done_testing
