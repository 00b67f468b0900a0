#!/bin/bash
# Compiles on icecream (issue 20): in a network namespace of its own (so
# that neither daemon broadcasts on the host's network), a real
# icecc-scheduler and iceccd on loopback; `armbot sparse` on the distro
# tree with a tree file that says build-distribute = icecream compiles the
# base's objects (a trusted build) in the sandbox through ccache -> icecc
# -> the iceccd socket bound in the sandbox, and the scheduler counts the
# jobs; the series' object is compiled without the daemon (code from a
# patch never talks to iceccd) and equals the one a local run makes.
# `armbot status` shows the cluster and the last build.

. "$(dirname "$0")/../lib/icecc-netns.sh"
icecc_netns_enter

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/sparse-lib.sh"

ip link set lo up || fail "loopback up in the namespace"

# the daemons drop to user icecc: what they write must be its
W=$TMP/icecc
mkdir -p "$W/env" "$W/run" && chmod 755 "$TMP" "$W" &&
	touch "$W/scheduler.log" &&
	chown icecc "$W/env" "$W/run" "$W/scheduler.log" ||
	fail "icecc's directories"
SOCK=$W/run/iceccd.socket
icecc-scheduler -p 8765 -l "$W/scheduler.log" -vv &
SCHED=$!
ICECC_TEST_SOCKET=$SOCK iceccd -s 127.0.0.1 -b "$W/env" -N armbot-local -m 2 &
DAEMON=$!
trap 'kill $DAEMON $SCHED 2>/dev/null; wait; rm -rf "$TMP"' EXIT

# listcs: the scheduler's text interface (port + 1)
listcs() {
	exec 3<>/dev/tcp/127.0.0.1/8766 || return 1
	printf 'listcs\r\nquit\r\n' >&3
	timeout 5 cat <&3
	exec 3<&-
}
# the daemon logs in after a few seconds
for _i in $(seq 60); do
	listcs 2>/dev/null | grep -q 'armbot-local.*jobs=0/2' && break
	sleep 0.5
done
listcs > "$TMP/listcs0" 2>&1
grep -q 'armbot-local (127.0.0.1:[0-9]*) .*jobs=0/2' "$TMP/listcs0"
ok $? "the daemon is on the scheduler with 2 job slots"
total0=$(sed -n 's/.*jobs in queue (\([0-9]*\) total).*/\1/p' "$TMP/listcs0")

# a data dir of the test's own (its build dir kept warm in the cache dir)
# that shares the imported distro tree's repository
D=$ARMBOT_CACHE_DIR/e2e-icecc/data
mkdir -p "$D" && ln -sfn "$DATA/trees" "$D/trees" || fail "the data dir"
mkdir -p "$TMP/conf/trees.d"
cat > "$TMP/conf/armbot.conf" <<EOC
[defaults]
checks = apply;sparse
EOC
cat > "$TMP/conf/trees.d/distro-6.1.conf" <<EOC
[tree]
build-distribute = icecream
icecc-socket = $SOCK
icecc-scheduler = 127.0.0.1:8765
EOC
sed 's/icecream/local/;/icecc-/d' "$TMP/conf/trees.d/distro-6.1.conf" \
	> "$TMP/local.conf"
"$ARMBOT" config check --config "$TMP/conf/armbot.conf" > "$TMP/check" 2>&1
ok $? "armbot config check takes the icecream keys"
sed 's/^/# /' "$TMP/check"

# a global with a name of this run: the object is in no ccache
TOKEN=armbot_icecc_$$_$(date +%s)
new_patch arch/arm/kernel/setup.c \
	"s/^(unsigned int __atags_pointer __initdata;\n)/\$1int $TOKEN;\n/m" \
	"ARM: setup: add a global" &&
	series_mbox 1 "$TMP/global.mbox" || fail "make the patch"
OBJ=$D/kbuild/distro-6.1/.series/allmodconfig/build/arch/arm/kernel/setup.o

run() {	# run CONFIG-DIR: armbot sparse through that configuration (the
	# base built each time, not read from the base cache)
	run_timed --data-dir "$D" sparse -q --jobs 2 --no-base-cache \
		--config "$1/armbot.conf" "$TMP/global.mbox"
}

run "$TMP/conf"
diag "through icecream: ${elapsed}s"
is "$status" 0 "icecream: armbot sparse ran"
grep -q "symbol '$TOKEN' was not declared" "$TMP/out"
ok $? "icecream: the new warning is found"
grep -q '^build: the base on icecream, the series locally$' "$TMP/out"
ok $? "icecream: the output says the base was built on icecream"
cp "$OBJ" "$TMP/icecc.o" 2>/dev/null
ok $? "icecream: the series' object was built"
listcs > "$TMP/listcs1" 2>&1
sed 's/^/# /' "$TMP/listcs1"
total1=$(sed -n 's/.*jobs in queue (\([0-9]*\) total).*/\1/p' "$TMP/listcs1")
[ "${total1:-0}" -gt "${total0:-0}" ]
ok $? "the scheduler handed out the base's jobs (${total0:-?} -> ${total1:-?})"
ls "$ARMBOT_CACHE_DIR"/icecc/arm-linux-gnueabihf-gcc-*.tar.gz > /dev/null 2>&1
ok $? "the compiler tarball is cached under \$ARMBOT_CACHE_DIR/icecc"
read -r _when _secs jobs _local cjobs _rest < "$ARMBOT_CACHE_DIR/icecc/last-build-distro-6.1"
[ "${cjobs:-0}" -gt 0 ]
ok $? "the last build is recorded: ${_secs:-?} s at -j${jobs:-?}, ${cjobs:-?} cluster jobs"

# status shows the cluster
"$ARMBOT" --data-dir "$D" status --config "$TMP/conf/armbot.conf" \
	> "$TMP/status" 2>&1
sed 's/^/# /' "$TMP/status"
grep -q 'armbot-local .*jobs 0/2' "$TMP/status"
ok $? "status: the node and its job slots"
grep -q 'last build: .* s at -j[0-9]* (-j[0-9]* locally), [1-9][0-9]* jobs through the cluster' "$TMP/status"
ok $? "status: the last build"
# one node, this machine's: no compile ran elsewhere, so no speed-up
grep -q '^    speed-up: 1\.00x against this machine alone, estimated from the compile time seen: 0\.0 s on other nodes (0\.0 s more here at -j[0-9]*), [0-9.]* s on this one$' "$TMP/status"
ok $? "status: the speed-up of a one-node cluster is 1.00x"

# the same series compiled locally: the same object
mkdir -p "$TMP/lconf/trees.d" && cp "$TMP/conf/armbot.conf" "$TMP/lconf/" &&
	cp "$TMP/local.conf" "$TMP/lconf/trees.d/distro-6.1.conf"
run "$TMP/lconf"
diag "local: ${elapsed}s"
is "$status" 0 "local: armbot sparse ran"
[ "$OBJ" -nt "$TMP/icecc.o" ]
ok $? "local: the object was compiled again"
cmp "$OBJ" "$TMP/icecc.o"
ok $? "the series' object equals the local run's"
listcs > "$TMP/listcs2" 2>&1
total2=$(sed -n 's/.*jobs in queue (\([0-9]*\) total).*/\1/p' "$TMP/listcs2")
is "${total2:-}" "${total1:-}" "the local build sent no job to the scheduler"

# a hostile series: its Makefile runs icecc with ICECC_EXTRAFILES naming
# a host file, the way iceccd would pack it into a native environment for
# the nodes (tests/e2e/icecream-hostile.t); a series' make never gets the
# socket, so nothing of it reaches iceccd's environment directory
mkdir -p "$W/hidden" && chmod 755 "$W/hidden" &&
	echo "READABLE-SECRET-$$" > "$W/hidden/secret" &&
	chmod 644 "$W/hidden/secret" || fail "the secret"
export HOSTILE="\$(shell echo 'int hostile;' > /tmp/hostile.c; env -u ICECC_VERSION ICECC_EXTRAFILES=$W/hidden/secret icecc gcc -c /tmp/hostile.c -o /tmp/hostile.o)"
TOKEN2=armbot_hostile_$$_$(date +%s)
new_patch arch/arm/kernel/setup.c \
	"s/^(unsigned int __atags_pointer __initdata;\n)/\$1int $TOKEN2;\n/m" \
	"ARM: setup: add another global" &&
	new_patch arch/arm/kernel/Makefile 's/\A/$ENV{HOSTILE}\n/' \
		"ARM: kernel: a hostile Makefile" &&
	series_mbox 2 "$TMP/hostile.mbox" || fail "make the hostile series"
cp "$TMP/global.mbox" "$TMP/global0.mbox" &&
	cp "$TMP/hostile.mbox" "$TMP/global.mbox"
run "$TMP/conf"
diag "hostile: ${elapsed}s"
is "$status" 0 "hostile: armbot sparse ran"
grep -q "symbol '$TOKEN2' was not declared" "$TMP/out"
ok $? "hostile: the series was built (its new warning is found)"
leak=
for t in $(find "$W/env" -name '*.tar*'); do
	tar xOf "$t" 2>/dev/null | grep -aq "READABLE-SECRET-$$" && leak="$leak $t"
done
[ -z "$leak" ]
ok $? "hostile: no file the series named is in iceccd's environments${leak:+:$leak}"
cp "$TMP/global0.mbox" "$TMP/global.mbox"

# the boot's kernel build: `armbot check` with the same tree file builds
# (--no-base-cache: the data dir is kept between runs, and a kept boot of
# the base would build nothing) the rpm-virt kernel of the base through the
# cluster (its make runs with
# icecc, so it rewrites the last-build record) and the series' locally,
# boots both and runs the runtime-PM suite; the reply says where each
# compiled.  Its objects mostly come from the tree's ccache (warm from the
# boot tests), so the cluster may get no job: the record, not the job
# count, says the make went through icecream.
REC=$ARMBOT_CACHE_DIR/icecc/last-build-distro-6.1
rec0=$(cat "$REC" 2>/dev/null)
"$ARMBOT" --data-dir "$D" check --no-sparse --no-boards --no-base-cache --jobs 2 --body \
	--config "$TMP/conf/armbot.conf" "$TMP/global.mbox" \
	> "$TMP/body" 2> "$TMP/err"
is "$?" 0 "boot: armbot check on the icecream tree finds no problem"
[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err" | tail -20
sed 's/^/# /' "$TMP/body" | head -40
grep -q 'rpm-virt, [0-9]* s (the base on icecream, the series locally)' "$TMP/body"
ok $? "boot: the reply says the base's kernel was built on icecream"
# the local runner passes every case of the suite on this series' tree
# (tests/e2e/boot-distro.t): the kernel built through the cluster too
n=$(grep -c '^	KUNIT_CASE(' "$TOP/qemu/guest/rpm-test/rpm_test.c")
grep -q "^  runtime-PM  ok    $n passed\$" "$TMP/body"
ok $? "boot: all $n runtime-PM cases pass, as with the local build"
rec1=$(cat "$REC" 2>/dev/null)
[ -n "$rec1" ] && [ "$rec1" != "$rec0" ]
ok $? "boot: the kernel's make went through icecream (last build: ${rec1:-none})"

# fallback: iceccd stopped (its socket gone): the series is still
# checked, built locally, and the output says why
kill $DAEMON 2>/dev/null; wait $DAEMON 2>/dev/null
rm -f "$SOCK"
run "$TMP/conf"
diag "fallback: ${elapsed}s"
is "$status" 0 "fallback: armbot sparse ran"
grep -q "symbol '$TOKEN' was not declared" "$TMP/out"
ok $? "fallback: the new warning is found"
grep -q '^build: built locally (icecream unavailable: .*no iceccd socket' "$TMP/out"
ok $? "fallback: the output says it was built locally, and why"

done_testing
