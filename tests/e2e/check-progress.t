#!/bin/sh
# armbot check with standard output and error to a pipe (CI, `| tee`): a
# line per stage with the elapsed time, each new stage saying how long the
# one before took, and no gap between lines longer than the interval
# ($ARMBOT_PROGRESS_INTERVAL, 1 s here; 30 s by default).  The series is
# a real one on a small tree of its own (apply and dirstat; no sparse, no
# boot, so it is quick); the still-in lines of a long stage are checked by
# tests/unit/test-progress.c.
. "$(dirname "$0")/../lib/tap.sh"

R=$TMP/r
git init -q -b master "$R" &&
	git -C "$R" config user.name "A U Thor" &&
	git -C "$R" config user.email author@example.org &&
	mkdir -p "$R/arch/arm/mach-foo" &&
	seq 1 50 | sed 's/^/int l_/; s/$/;/' > "$R/arch/arm/mach-foo/a.c" &&
	git -C "$R" add -A && git -C "$R" commit -qm base &&
	sed -i 1,10d "$R/arch/arm/mach-foo/a.c" &&
	git -C "$R" commit -qam "ARM: foo: drop ten lines" &&
	git -C "$R" format-patch -q -1 --stdout > "$TMP/p.mbox" &&
	git -C "$R" reset -q --hard HEAD~1
ok $? "a small tree and a patch on it"
"$ARMBOT" --data-dir "$TMP/d" tree add small "$R" > /dev/null 2>&1
ok $? "tree add small"

ARMBOT_PROGRESS_INTERVAL=1 "$ARMBOT" --data-dir "$TMP/d" check --tree small \
	--no-sparse --no-boot "$TMP/p.mbox" 2>&1 | cat > "$TMP/out"
grep '^\[ *[0-9.]* s\] ' "$TMP/out" > "$TMP/progress"
sed 's/^/# /' "$TMP/progress"
for stage in series "tree: small" base apply dirstat report; do
	grep -q "^\[ *[0-9.]* s\] $stage\( (.* took [0-9.]* s)\)\?\$" "$TMP/progress"
	ok $? "a line for stage '$stage'"
done
grep -q '^\[ *[0-9.]* s\] apply (base took [0-9.]* s)$' "$TMP/progress"
ok $? "a stage says how long the one before took"
grep -q '^\[ *[0-9.]* s\] done; logs in ' "$TMP/progress"
ok $? "the last line says done"
awk '{ sub(/^\[ */, ""); t = $1 + 0; if (NR > 1 && t - last > 1.5) bad = 1; last = t }
	END { exit bad }' "$TMP/progress"
ok $? "no gap of more than the interval between progress lines"
grep -q '^This series shrinks arch/arm by 10 lines' "$TMP/out"
ok $? "the reply follows on standard output"
done_testing
