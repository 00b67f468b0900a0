#!/bin/bash
# Compiles spread over two icecream nodes (issue 20).  In a network
# namespace of its own: a real icecc-scheduler, the local iceccd
# (armbot-local, 1 job slot, on loopback) and a second iceccd
# (armbot-node2, 2 job slots) in a second network namespace, reached
# through a veth pair as another machine would be.  `armbot sparse` on the
# distro tree, with a tree file that says build-distribute = icecream and
# an empty ccache (a cache dir of the test's own), compiles the base's
# objects (a trusted build: the sandbox keeps the test's network) through
# ccache -> icecc -> iceccd: the second node must compile some of them,
# with the cross compiler's environment it is sent, and the objects must
# equal those of a local build.  The series' make compiles through the
# cluster too, inside a third network namespace (the tree's
# icecc-series-netns) whose nftables table armbot loads: routed to the
# nodes, it lets through only their daemon port.  The series' objects
# equal the local build's; a Makefile of the series that connects reaches
# the second node's daemon port and neither another port of that node
# nor the scheduler's address.

. "$(dirname "$0")/../lib/icecc-netns.sh"
icecc_netns_enter --veth

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/sparse-lib.sh"

ip link set lo up || fail "loopback up in the namespace"

# the daemons drop to user icecc: what they write must be its
W=$TMP/icecc
mkdir -p "$W/env1" "$W/env2" "$W/run1" "$W/run2" && chmod 755 "$TMP" "$W" &&
	touch "$W/scheduler.log" "$W/node1.log" "$W/node2.log" &&
	chown icecc "$W"/env? "$W"/run? "$W"/*.log || fail "icecc's directories"
SOCK=$W/run1/iceccd.socket
icecc-scheduler -p 8765 -l "$W/scheduler.log" -vv &
SCHED=$!
ICECC_TEST_SOCKET=$SOCK iceccd -s 127.0.0.1 -b "$W/env1" -N armbot-local \
	-m 1 -l "$W/node1.log" -vv &
NODE1=$!
# the second node: its own network namespace, 10.197.0.2 on a veth pair
# whose other end (10.197.0.1) is here; it waits for its link.  It stands
# for an idle machine: iceccd reports load 1000 (which the scheduler never
# gives a job) when /proc/stat shows less than 10% of the CPUs idle, as it
# does on this machine shared with other builds; in a mount namespace of
# its own the node reads a /proc/stat that does not move, which iceccd
# takes for an idle machine (daemon/load.cpp: under 10 ticks, idle 1000)
mkfifo "$W/ready" "$W/go" && cat /proc/stat > "$W/stat" &&
	chmod 644 "$W/stat" || fail "the fifos"
unshare -n -m /bin/bash -c 'echo > "$2/ready" && read -r _ < "$1" &&
	mount --bind "$2/stat" /proc/stat &&
	ip link set lo up && ip addr add 10.197.0.2/24 dev n2 &&
	ip link set n2 up && ip route add default via 10.197.0.1 &&
	ICECC_TEST_SOCKET=$2/run2/iceccd.socket exec iceccd -s 10.197.0.1:8765 \
		-b "$2/env2" -N armbot-node2 -m 2 -l "$2/node2.log" -vv' \
	node2 "$W/go" "$W" &
NODE2=$!
# the series' network namespace, held by a sleep; 10.198.0.2 on a veth
# pair whose other end (10.198.0.1) is here, which routes on to the
# second node (forwarding in the test's own namespace)
unshare -n sleep 3600 &
HOLD=$!
trap 'kill $NODE1 $NODE2 $SCHED $HOLD $LISTEN 2>/dev/null; wait; rm -rf "$TMP"' EXIT
# (once it is in its namespace; read-write: the open does not block)
exec 4<> "$W/ready" && read -t 60 -r _ <&4 && exec 4<&- ||
	fail "the second node did not start"
ip link add n1 type veth peer name n2 netns $NODE2 &&
	ip addr add 10.197.0.1/24 dev n1 && ip link set n1 up
ok $? "a veth pair to the second node's network namespace"
for _i in $(seq 100); do
	[ "$(readlink /proc/$HOLD/ns/net)" != "$(readlink /proc/self/ns/net)" ] &&
		break
	sleep 0.1
done
SNS=/proc/$HOLD/ns/net
ip link add s1 type veth peer name s2 netns $HOLD &&
	ip addr add 10.198.0.1/24 dev s1 && ip link set s1 up &&
	nsenter --net=$SNS sh -c 'ip link set lo up &&
		ip addr add 10.198.0.2/24 dev s2 && ip link set s2 up &&
		ip route add default via 10.198.0.1' &&
	sysctl -q -w net.ipv4.ip_forward=1
ok $? "the series' network namespace, routed to the second node"
echo go > "$W/go"
# another port of the second node, and the scheduler on the address the
# series' namespace is routed through: both answer from here
sleep 1
nsenter --net=/proc/$NODE2/ns/net /usr/bin/python3 -c 'import socket, time
s = socket.socket(); s.bind(("0.0.0.0", 10246)); s.listen(8); time.sleep(3600)' &
LISTEN=$!

# listcs: the scheduler's text interface (port + 1)
listcs() {
	exec 3<>/dev/tcp/127.0.0.1/8766 || return 1
	printf 'listcs\r\nquit\r\n' >&3
	timeout 5 cat <&3
	exec 3<&-
}
# the daemons log in after a few seconds
for _i in $(seq 90); do
	listcs > "$TMP/listcs0" 2>&1
	grep -q 'armbot-local.*jobs=0/1' "$TMP/listcs0" &&
		grep -q 'armbot-node2.*jobs=0/2' "$TMP/listcs0" && break
	sleep 0.5
done
sed 's/^/# /' "$TMP/listcs0"
grep -q 'armbot-local (127.0.0.1:[0-9]*) .*jobs=0/1' "$TMP/listcs0"
ok $? "the local node is on the scheduler with 1 job slot"
grep -q 'armbot-node2 (10.197.0.2:[0-9]*) .*jobs=0/2' "$TMP/listcs0"
ok $? "the second node is on the scheduler, at its own address, with 2 job slots"

# a cache dir of the test's own: an empty ccache, so that the base's
# objects are compiled, not read from the cache; the compiler tarball
# taken from the shared cache when it is there (icecc-create-env takes a
# while); the data dir, its warm build dirs, is tests/e2e/icecream.t's
C=$TMP/cache
mkdir -p "$C/icecc" || fail "the cache dir"
for t in "$ARMBOT_CACHE_DIR"/icecc/arm-linux-gnueabihf-gcc-*.tar.gz; do
	[ -f "$t" ] && { ln "$t" "$C/icecc/" 2>/dev/null || cp "$t" "$C/icecc/"; }
done
D=$ARMBOT_CACHE_DIR/e2e-icecc/data
mkdir -p "$D" && ln -sfn "$DATA/trees" "$D/trees" || fail "the data dir"
B=$D/kbuild/distro-6.1/allmodconfig
SB=$D/kbuild/distro-6.1/.series/allmodconfig/build
mkdir -p "$TMP/conf/trees.d" "$TMP/lconf/trees.d"
cat > "$TMP/conf/armbot.conf" <<EOC
[defaults]
checks = apply;sparse
EOC
cp "$TMP/conf/armbot.conf" "$TMP/lconf/"
cat > "$TMP/conf/trees.d/distro-6.1.conf" <<EOC
[tree]
build-distribute = icecream
icecc-socket = $SOCK
icecc-scheduler = 127.0.0.1:8765
icecc-series-netns = $SNS
EOC
printf '[tree]\nbuild-distribute = local\n' \
	> "$TMP/lconf/trees.d/distro-6.1.conf"

# a series that touches 8 files of arch/arm (a static variable at the
# end of each, which changes the object): the base's 8 objects and the
# series' 8 are compiled through the cluster
FILES="arch/arm/kernel/setup.c arch/arm/kernel/traps.c
arch/arm/kernel/process.c arch/arm/kernel/signal.c arch/arm/kernel/ptrace.c
arch/arm/kernel/time.c arch/arm/mm/init.c arch/arm/mm/fault.c"
for f in $FILES; do
	git -C "$G" checkout "$BASE" -- "$f" &&
		perl -0pi -e "s/\\z/\\nstatic int __used armbot_icecc_$$ = $$;\\n/" \
			"$G/$f" || fail "edit $f"
	EDITED="$EDITED $f"
done
# shellcheck disable=SC2086
gitc commit -q -m "ARM: a comment in 8 files" -- $FILES &&
	series_mbox 1 "$TMP/series.mbox" || fail "make the series"

run() {	# run CONFIG-DIR: armbot sparse through that configuration, on the
	# test's cache dir (the base built each time, not read from the
	# base cache)
	# no object of an earlier run is taken for this one's
	for f in $FILES; do rm -f "$B/${f%.c}.o" "$SB/${f%.c}.o"; done
	_start=$(date +%s.%N)
	ARMBOT_CACHE_DIR=$C "$ARMBOT" --data-dir "$D" sparse -q --jobs 2 \
		--no-base-cache --config "$1/armbot.conf" "$TMP/series.mbox" \
		> "$TMP/out" 2> "$TMP/err"
	status=$?
	elapsed=$(awk -v a="$_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	sed 's/^/# /' "$TMP/out"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
}
# keep the base's objects of the last run in DIR, the series' in DIR/series
keep() {
	mkdir -p "$1/series"
	for f in $FILES; do
		cp "$B/${f%.c}.o" "$1/$(echo "${f%.c}" | tr / _).o" &&
			cp "$SB/${f%.c}.o" \
				"$1/series/$(echo "${f%.c}" | tr / _).o" ||
			return 1
	done
}
remote_jobs() { grep -c 'Remote compilation completed with exit code 0' \
	"$W/node2.log"; }

jobs0=$(remote_jobs)
run "$TMP/conf"
diag "through the cluster: ${elapsed}s"
is "$status" 0 "cluster: armbot sparse ran"
grep -q '^build: the base and the series on icecream (the series in a network namespace fenced to the nodes)$' "$TMP/out"
ok $? "cluster: the output says the base and the series were built on icecream"
nsenter --net=$SNS nft list table inet armbot_icecc | sed 's/^/# /'
nsenter --net=$SNS nft list table inet armbot_icecc |
	grep -q 'ip daddr 10.197.0.2 tcp dport 10245 accept'
ok $? "cluster: the series' namespace lets through the second node's daemon port"
keep "$TMP/cluster"
ok $? "cluster: the base's and the series' 8 objects were built"
listcs > "$TMP/listcs1" 2>&1
sed 's/^/# /' "$TMP/listcs1"
jobs1=$(remote_jobs)
diag "the second node compiled $((jobs1 - jobs0)) jobs"
[ "$((jobs1 - jobs0))" -gt 0 ]
ok $? "the second node compiled jobs of the base ($((jobs1 - jobs0)))"
# the environment icecc-create-env made is installed on the second node,
# its usr/bin/as the cross assembler
envdir=$(ls -d "$W"/env2/target=x86_64/arm-linux-gnueabihf-gcc-* 2>/dev/null |
	head -n 1)
"${envdir:-/nonexistent}/usr/bin/as" --version 2>&1 |
	grep -q "target of .arm-linux-gnueabihf'"
ok $? "the second node installed the cross environment (usr/bin/as: the ARM assembler)"
! grep -q 'is not executable' "$W/node1.log" "$W/node2.log"
ok $? "no node refused the environment"
grep -m 20 '10\.198\.0\.2\|10\.197\.0\.1' "$W/node2.log" | sed 's/^/# node2 peer: /'
grep 'remote compile for file\|Remote compilation completed' "$W/node2.log" |
	head -n 20 | sed 's/^/# node2: /'
read -r _when csecs cj _local cjobs _rest < "$C/icecc/last-build-distro-6.1"
diag "the last build through the cluster: ${csecs:-?} s at -j${cj:-?}, ${cjobs:-?} jobs handed out"
[ "${cj:-0}" -eq 3 ]
ok $? "make's -j is the cluster's job slots (1 + 2)"

# status shows both nodes
ARMBOT_CACHE_DIR=$C "$ARMBOT" --data-dir "$D" status \
	--config "$TMP/conf/armbot.conf" > "$TMP/status" 2>&1
sed 's/^/# /' "$TMP/status"
grep -q 'armbot-node2 .*jobs 0/2' "$TMP/status"
ok $? "status: the second node and its job slots"
# the jobs per node, seen by asking the scheduler while the make ran: at
# least one of the second node's, never more than its log has
seen=$(sed -n 's/^ *armbot-node2 compiled \([0-9]*\) of them$/\1/p' "$TMP/status")
[ "${seen:-0}" -gt 0 ] && [ "${seen:-0}" -le "$((jobs1 - jobs0))" ]
ok $? "status: the jobs the second node compiled (${seen:-none} seen, $((jobs1 - jobs0)) in its log)"
# the speed-up, estimated from the compile time seen on each node: the
# second node's would have run here.  Both nodes share this machine's two
# cores, so the estimate (which takes the nodes for other machines) is
# above what the local build below measures
sp=$(sed -n 's/^ *speed-up: \([0-9.]*\)x against this machine alone, .* \([0-9.]*\) s on other nodes .*/\1 \2/p' "$TMP/status")
sp_x=${sp% *} sp_e=${sp#* }
awk -v s="${sp_x:-0}" -v e="${sp_e:-0}" 'BEGIN { exit !(s > 1 && e > 0) }'
ok $? "status: a speed-up estimated from the second node's compile time (${sp_x:-none}x, ${sp_e:-?} s there)"

# the same series compiled locally, from an empty ccache again: the same
# objects
rm -rf "$C/ccache"
run "$TMP/lconf"
diag "local: ${elapsed}s (the estimate said ${sp_x:-?}x for ${csecs:-?} s through the cluster)"
is "$status" 0 "local: armbot sparse ran"
keep "$TMP/local"
ok $? "local: the base's and the series' 8 objects were built"
jobs2=$(remote_jobs)
is "$jobs2" "$jobs1" "local: the second node compiled nothing"
diff=
for o in "$TMP"/cluster/*.o; do
	cmp -s "$o" "$TMP/local/${o##*/}" || diff="$diff ${o##*/}"
done
[ -z "$diff" ]
ok $? "the base's objects through the cluster equal the local build's${diff:+ (differ:$diff)}"
diff=
for o in "$TMP"/cluster/series/*.o; do
	cmp -s "$o" "$TMP/local/series/${o##*/}" || diff="$diff ${o##*/}"
done
[ -z "$diff" ]
ok $? "the series' objects through the cluster equal the local build's${diff:+ (differ:$diff)}"

# from here (the test's namespace): the second node's other port and the
# scheduler on the series' side of the veth answer
for a in 10.197.0.2/10246 10.198.0.1/8765; do
	timeout 10 bash -c "exec 3<>/dev/tcp/$a" 2>/dev/null
	ok $? "from outside the sandbox, $a answers"
done

# a series whose Makefile connects to the second node's daemon port,
# another port of it, and the scheduler: inside the fenced namespace only
# the daemon port answers
export PROBE='$(shell for a in 10.197.0.2/10245 10.197.0.2/10246 10.198.0.1/8765; do timeout 10 bash -c "exec 3<>/dev/tcp/$$a" && echo "$$a connected" || echo "$$a failed"; done > netprobe 2>&1)'
# and that asks the local iceccd, through the socket the sandbox shows
# (armbot's proxy, kernel/build/icecc-proxy.c), for a native environment
# that packs a host file user icecc can read (ICECC_EXTRAFILES, with
# ICECC_VERSION unset: client/main.cpp sends GET_NATIVE_ENV)
SECRET=/usr/share/common-licenses/GPL-3
export NATIVE='$(shell echo "int armbot_native(void) { return 7; }" > native.c && env -u ICECC_VERSION ICECC_EXTRAFILES='$SECRET' icecc gcc -c native.c -o native.o > native.log 2>&1; echo "exit $$?" >> native.log)'
# and another static variable in the 8 files: the base's objects come
# from the ccache the local run filled, the series' are compiled, so the
# second node's jobs in this run are the series' make's
git -C "$G" checkout "$BASE" -- arch/arm/kernel/Makefile &&
	perl -0pi -e 's/\A/$ENV{PROBE}\n$ENV{NATIVE}\n/' "$G/arch/arm/kernel/Makefile" ||
	fail "edit the Makefile"
EDITED="$EDITED arch/arm/kernel/Makefile"
for f in $FILES; do
	git -C "$G" checkout "$BASE" -- "$f" &&
		perl -0pi -e "s/\\z/\\nstatic int __used armbot_probe_$$ = $$;\\n/" \
			"$G/$f" || fail "edit $f"
	EDITED="$EDITED $f"
done
# shellcheck disable=SC2086
gitc commit -q -m "ARM: a Makefile that connects, a variable in 8 files" \
	-- arch/arm/kernel/Makefile $FILES &&
	series_mbox 1 "$TMP/series.mbox" || fail "make the probing series"
rm -f "$SB/netprobe" "$SB/native.log"
runuser -u icecc -- test -r "$SECRET"
ok $? "user icecc can read $SECRET (what iceccd would pack)"
jobs3=$(remote_jobs)
run "$TMP/conf"
is "$status" 0 "probe: armbot sparse ran"
jobs4=$(remote_jobs)
diag "the second node compiled $((jobs4 - jobs3)) jobs of the probing series"
[ "$((jobs4 - jobs3))" -gt 0 ]
ok $? "probe: the second node compiled jobs of the series' make ($((jobs4 - jobs3)))"
probe=$(cat "$SB/netprobe" 2>&1)
echo "$probe" | sed 's/^/# the series: /'
echo "$probe" | grep -q '^10.197.0.2/10245 connected$'
ok $? "probe: the series' make reaches the second node's daemon port"
echo "$probe" | grep -q '^10.197.0.2/10246 failed$'
ok $? "probe: the series' make does not reach another port of the second node"
echo "$probe" | grep -q '^10.198.0.1/8765 failed$'
ok $? "probe: the series' make does not reach the scheduler's address"


# the native environment: refused by the proxy, so iceccd packed nothing
sed 's/^/# native.log: /' "$SB/native.log" 2>/dev/null
grep -q '^exit 0$' "$SB/native.log"
ok $? "native: the series' icecc call still compiles (locally)"
grep 'icecc proxy' "$TMP/err" | sed 's/^/# armbot: /'
grep -q 'connection refused: GET_NATIVE_ENV' "$TMP/err"
ok $? "native: armbot's proxy refused GET_NATIVE_ENV and said so"
leaked=
for t in $(find "$W/env1" "$W/env2" -name '*.tar*' 2>/dev/null); do
	tar tf "$t" 2>/dev/null | grep -q 'common-licenses/GPL-3' && leaked="$leaked $t"
done
[ -z "$leaked" ]
ok $? "native: no tarball of iceccd's holds $SECRET${leaked:+ (in$leaked)}"

done_testing
