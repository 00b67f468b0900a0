#!/bin/sh
# A series that makes the bus type's callbacks win over the PM domain's
# (undoing "PM: Make power domain callbacks take precedence over subsystem
# ones"): the kernel still boots, the precedence cases fail and armbot
# reports them as new failures against the base (the distro tree, built
# and booted first from the same worktree).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

F=drivers/base/power/runtime.c
make_mbox $F 's/\tif \(dev->pm_domain\)\n\t\tops = &dev->pm_domain->ops;\n\telse if \(dev->type/\tif (dev->type/; s/(\t\tops = dev->bus->pm;\n)/$1\telse if (dev->pm_domain)\n\t\tops = &dev->pm_domain->ops;\n/' \
	"PM: runtime: let the bus type's callbacks win over the domain's" "$TMP/precedence.mbox"
ok $? "make the precedence-breaking series"

run_boot "$TMP/precedence.mbox"
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
is "$(sed -n 's/^base: //p' "$TMP/out" | head -1)" "$(git -C "$REPO" rev-parse distro)" \
	"the series went onto the distro tree's head"
worktree_at_series "PM: runtime: let the bus type's callbacks win over the domain's"
done_testing
