#!/bin/sh
# The Debian package and what comes with it (issue 23).  `make deb` builds
# it (dpkg-buildpackage in a copy of the clone, through ccache, in
# $ARMBOT_CACHE_DIR/package); lintian finds no error in it; it holds both
# programs side by side, the guest files where the installed programs look
# for them, the example configuration, the man pages and the units; the
# units pass `systemd-analyze verify` and `security --offline` scores them
# OK or better (exposure at most 4.9); man renders both pages without a
# warning, armbot(1) has every command `armbot help` lists and every option
# of every command's --help with the same words, armbot.conf(5) every key
# of the example.  As root, the package is installed with dpkg -i into a
# throwaway root (an overlay over /, in a mount namespace of its own: the
# host is not changed), where its postinst creates the system user, the
# installed units verify against the installed programs and man pages, and
# a purge removes the state; then systemd is booted in a second one and
# the units run under it (README, "Running as a service").
. "$(dirname "$0")/../lib/tap.sh"

for t in dpkg-buildpackage dh lintian systemd-analyze man ccache perl; do
	command -v "$t" > /dev/null || skip_all "$t not installed (make deps)"
done

B=$ARMBOT_CACHE_DIR/package
mkdir -p "$B"
exec 9> "$ARMBOT_CACHE_DIR/package.lock"
flock 9

# --- the build ------------------------------------------------------------
start=$(date +%s)
CCACHE_DIR=${CCACHE_DIR:-$ARMBOT_CACHE_DIR/ccache} \
	make -s -C "$TOP" deb BUILD="$B" CC="ccache cc" > "$TMP/build.log" 2>&1
st=$?
ok $st "make deb builds the package ($(($(date +%s) - start)) s)"
[ $st -eq 0 ] || { tail -30 "$TMP/build.log" | sed 's/^/# /'; done_testing; exit 1; }
DEB=$(ls "$B"/deb/armbot_*.deb | grep -v dbgsym)
VERSION=$(dpkg-deb -f "$DEB" Version)
diag "$(basename "$DEB")"

# the Makefile's DEBIAN_BUILD_PACKAGES are debian/control's Build-Depends
# (make deb checked it); a list that differs fails
mkdir -p "$TMP/neg/debian"
sed '/^ libsoup-3.0-dev,$/d' "$TOP/debian/control" > "$TMP/neg/debian/control"
make -s -C "$TMP/neg" -f "$TOP/Makefile" debian-check > "$TMP/neg.out" 2>/dev/null
[ $? -ne 0 ] && grep -q '^< libsoup-3.0-dev$' "$TMP/neg.out"
ok $? "make debian-check fails when Build-Depends lose a package of DEBIAN_BUILD_PACKAGES"
make -s -C "$TOP" debian-check BUILD="$B" PKG_MODULES="glib-2.0 armbot-no-such-module" \
	> "$TMP/neg2.out" 2>/dev/null
[ $? -ne 0 ] && grep -q '^pkg-config module armbot-no-such-module (package none found) is not in DEBIAN_BUILD_PACKAGES$' "$TMP/neg2.out"
ok $? "make debian-check fails on a pkg-config module no package of DEBIAN_BUILD_PACKAGES provides"

# --- lintian --------------------------------------------------------------
lintian --fail-on error "$DEB" > "$TMP/lintian" 2>&1
ok $? "lintian: no error"
grep -v 'running with root privileges' "$TMP/lintian" | sed 's/^/# lintian: /'
is "$(grep -c '^E:' "$TMP/lintian")" 0 "lintian reports no E: tag"

# --- contents -------------------------------------------------------------
dpkg-deb -c "$DEB" | awk '{ p = $6; sub(/^\./, "", p); print p ($7 ? " " $7 " " $8 : "") }' \
	> "$TMP/contents"
for f in /usr/lib/armbot/armbot /usr/lib/armbot/armbot-core \
	'/usr/bin/armbot -> ../lib/armbot/armbot' \
	/usr/share/armbot/qemu/guest/init.c \
	/usr/share/armbot/qemu/guest/rpm-test/rpm_test.c \
	/usr/share/armbot/qemu/guest/rpm-test/Makefile \
	/usr/share/armbot/qemu/guest/rpm-test/Kconfig \
	/usr/share/armbot/qemu/virt.config \
	/usr/share/armbot/qemu/boards.conf \
	/usr/share/armbot/qemu/vexpress-a9.config \
	/etc/armbot/armbot.conf.example /etc/armbot/trees.d.example/omap.conf \
	/usr/share/man/man1/armbot.1.gz /usr/share/man/man5/armbot.conf.5.gz \
	/lib/systemd/system/armbot.service /lib/systemd/system/armbot-web.service \
	/usr/share/doc/armbot/copyright; do
	grep -qxF "$f" "$TMP/contents"
	ok $? "the package has $f"
done
dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/^ *//;s/ .*//' > "$TMP/depends"
for p in adduser bubblewrap qemu-system-arm sparse gcc-arm-linux-gnueabihf \
	libc6-dev-armhf-cross ccache make; do
	grep -qx "$p" "$TMP/depends"
	ok $? "it depends on $p"
done

R=$TMP/root
mkdir -p "$R"
dpkg-deb -x "$DEB" "$R"
"$R/usr/bin/armbot" --version > "$TMP/v" 2>&1
is "$(cat "$TMP/v")" "armbot version $VERSION" \
	"the packaged armbot runs (through the link) and has the package's version"
"$R/usr/bin/armbot" --data-dir "$TMP/data" status > /dev/null 2>&1
ok $? "the packaged armbot finds armbot-core beside itself (armbot status)"
# the guest files: the installed programs look in /usr/share/armbot, not in
# the clone they were built in
strings "$R/usr/lib/armbot/armbot-core" | grep -qx /usr/share/armbot
ok $? "armbot-core looks for the guest files in /usr/share/armbot"
strings "$R/usr/lib/armbot/armbot-core" | grep -q "$B"
is $? 1 "armbot-core does not name the directory it was built in"

# --- the units ------------------------------------------------------------
U=$R/lib/systemd/system
for d in User=armbot StateDirectory=armbot CacheDirectory=armbot \
	ProtectSystem=strict ProtectHome=yes PrivateTmp=yes NoNewPrivileges=yes \
	CapabilityBoundingSet= 'SystemCallFilter=@system-service @mount' \
	'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' \
	'RestrictNamespaces=user mnt pid net ipc uts cgroup' \
	'ExecStart=/usr/bin/armbot --data-dir=/var/lib/armbot run' \
	'Environment=XDG_CONFIG_HOME=/etc ARMBOT_CACHE_DIR=/var/cache/armbot'; do
	grep -qxF "$d" "$U/armbot.service"
	ok $? "armbot.service: $d"
done
# verify in a root of the package and the host's units (sysinit.target...),
# with the package's man pages for Documentation=
mkdir -p "$R/lib/systemd"
cp -a /lib/systemd/system/. "$U/"
dpkg-deb -x "$DEB" "$R"
for u in armbot armbot-web; do
	MANPATH=$R/usr/share/man systemd-analyze verify --root="$R" \
		"/lib/systemd/system/$u.service" > "$TMP/verify" 2>&1
	st=$?
	[ $st -eq 0 ] && [ ! -s "$TMP/verify" ]
	ok $? "systemd-analyze verify $u.service: clean"
	sed 's/^/# /' "$TMP/verify"
	systemd-analyze security --offline=yes --threshold=49 \
		"$U/$u.service" > "$TMP/security" 2>&1
	st=$?
	ok $st "systemd-analyze security $u.service: exposure at most 4.9"
	grep 'Overall exposure' "$TMP/security" | sed 's/^/# /'
	grep -q 'Overall exposure level.*: [0-9.]* \(OK\|SAFE\|PERFECT\)' "$TMP/security"
	ok $? "$u.service is rated OK or better"
done

# --- the man pages --------------------------------------------------------
for m in man1/armbot.1.gz man5/armbot.conf.5.gz; do
	MANWIDTH=80 man --warnings -l "$R/usr/share/man/$m" > "$TMP/man.out" 2> "$TMP/man.err"
	st=$?
	[ $st -eq 0 ] && [ ! -s "$TMP/man.err" ] && [ -s "$TMP/man.out" ]
	ok $? "man --warnings -l $m: rendered, no warning"
	sed 's/^/# /' "$TMP/man.err" | head -10
done
zcat "$R/usr/share/man/man1/armbot.1.gz" > "$TMP/armbot.1"
zcat "$R/usr/share/man/man5/armbot.conf.5.gz" > "$TMP/armbot.conf.5"

# every command of `armbot help`, and per command the options of its
# --help (of each subcommand's, for tree and config) as "tag<TAB>words",
# against the same pairs read back from its section of armbot(1)
A="$R/usr/bin/armbot"
"$A" help | sed -n '/^commands:/,/^$/s/^   \([^ ]*\) .*/\1/p' > "$TMP/commands"
[ "$(wc -l < "$TMP/commands")" -ge 15 ]
ok $? "armbot help lists the commands ($(wc -l < "$TMP/commands"))"
cat > "$TMP/opts.pl" << 'EOF'
# help: option lines of the non-help "Options:" sections; man: .TP entries
# of one .SS section, fonts and escapes undone
my ($mode, $cmd) = @ARGV;
my @out;
if ($mode eq 'help') {
	my $sec = '';
	while (<STDIN>) {
		chomp;
		if (/^Usage:/) { $sec = ''; next; }
		if (/^(\S.*) Options:$/) { $sec = $1; next; }
		next if $sec eq '' || $sec eq 'Help' || /^\s*$/;
		push @out, "$1\t" . ($2 // '') if /^  (\S.*?)(?:\s{2,}(\S.*))?$/;
	}
} else {
	local $/;
	my $roff = <STDIN>;
	my ($sec) = $roff =~ /^\.SS "armbot \Q$cmd\E"\n(.*?)(?=^\.S[SH] )/ms;
	$sec //= '';
	while ($sec =~ /^\.TP\n(.*)\n((?:[^.\n].*\n)*)/mg) {
		my ($tag, $words) = ($1, $2);
		for ($tag, $words) {
			s/\\f[BIR]//g; s/\\-/-/g; s/\\e/\\/g; s/\\&//g;
			s/\n/ /g; s/\s+$//;
		}
		push @out, "$tag\t$words";
	}
}
print "$_\n" for sort @out;
EOF
missing=
for c in $(cat "$TMP/commands"); do
	grep -qxF ".SS \"armbot $c\"" "$TMP/armbot.1" || missing="$missing $c"
	"$A" help "$c" > "$TMP/help" 2>&1
	if grep -q '^Usage:' "$TMP/help"; then
		perl "$TMP/opts.pl" help < "$TMP/help" > "$TMP/want"
	else
		subs=$(sed -n "s/^\(usage:\)\{0,1\} *armbot $c \([^ ]*\).*/\2/p" "$TMP/help" | sort -u)
		for s in $subs; do
			"$A" "$c" "$s" --help 2>/dev/null
		done | perl "$TMP/opts.pl" help > "$TMP/want"
	fi
	perl "$TMP/opts.pl" man "$c" < "$TMP/armbot.1" > "$TMP/got"
	is_file "$TMP/want" "$TMP/got" \
		"armbot(1), armbot $c: the options of --help, in the same words ($(wc -l < "$TMP/want"))"
done
is "$missing" "" "armbot(1) has a section for every command armbot help lists"

# armbot.conf(5): every group and key of the examples
for f in "$TOP/config/armbot.conf.example" "$TOP"/config/trees.d.example/*.conf; do
	sed -n 's/^#\{0,1\}\([A-Za-z][A-Za-z0-9_-]*\) *=.*/\1/p; s/^\[\(.*\)\]$/[\1]/p' "$f"
done | sort -u > "$TMP/keys"
missing=
while read -r k; do
	case $k in
	\[*) grep -qxF ".SS $k" "$TMP/armbot.conf.5" ;;
	*) sed 's/\\-/-/g' "$TMP/armbot.conf.5" | grep -qF "\\fB$k\\fR = " ;;
	esac || missing="$missing $k"
done < "$TMP/keys"
is "$missing" "" "armbot.conf(5) has every group and key of the examples ($(wc -l < "$TMP/keys"))"

# --- dpkg -i into a throwaway root ----------------------------------------
# root, a mount namespace and overlayfs (a container may lack the last two)
mkdir -p "$TMP/probe/l" "$TMP/probe/m" "$TMP/probe/t"
if [ "$(id -u)" != 0 ] || ! unshare -m --propagation private sh -c "
	mount -t tmpfs tmpfs '$TMP/probe/m' && mkdir '$TMP/probe/m/u' '$TMP/probe/m/w' &&
	mount -t overlay overlay -o lowerdir='$TMP/probe/l',upperdir='$TMP/probe/m/u',workdir='$TMP/probe/m/w' '$TMP/probe/t'" \
	> /dev/null 2>&1; then
	skip "installing into a throwaway root needs root, a mount namespace and overlayfs"
	done_testing
	exit
fi
host_user=$(getent passwd armbot)
host_pkg=$(dpkg-query -W armbot 2>/dev/null)
O=$TMP/overlay
mkdir -p "$O/root" "$O/rw"
cp "$DEB" "$TMP/armbot.deb"
cat > "$TMP/install.sh" << EOF
set -e
mount -t tmpfs tmpfs "$O/rw"
mkdir "$O/rw/up" "$O/rw/work"
mount -t overlay overlay -o lowerdir=/,upperdir="$O/rw/up",workdir="$O/rw/work" "$O/root"
mount --rbind /dev "$O/root/dev"
mount -t proc proc "$O/root/proc"
mount -t tmpfs tmpfs "$O/root/tmp"
cp "$TMP/armbot.deb" "$O/root/tmp/"
inroot() { chroot "$O/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "\$@"; }
inroot dpkg -i /tmp/armbot.deb > /dev/null
echo "installed: \$(inroot dpkg-query -W -f='\${Status}' armbot)"
echo "user: \$(inroot getent passwd armbot | cut -d: -f1,6,7)"
echo "system uid: \$(inroot sh -c 'test \$(id -u armbot) -lt 1000 && echo yes')"
echo "home: \$(inroot stat -c '%U:%G' /var/lib/armbot)"
echo "version: \$(inroot armbot --version)"
echo "as armbot: \$(inroot setpriv --reuid=armbot --regid=armbot --init-groups \
	armbot --data-dir=/var/lib/armbot status > /dev/null 2>&1 && echo ok)"
echo "man: \$(inroot man -w armbot) \$(inroot man -w 5 armbot.conf)"
inroot systemd-analyze verify /lib/systemd/system/armbot.service \
	/lib/systemd/system/armbot-web.service 2>&1 && echo "verify: clean"
inroot dpkg --purge armbot > /dev/null
echo "purged: \$(inroot sh -c 'test -e /var/lib/armbot || echo state removed')"
EOF
unshare -m --propagation private sh "$TMP/install.sh" > "$TMP/install.out" 2>&1
ok $? "dpkg -i, then --purge, in a throwaway root"
sed 's/^/# /' "$TMP/install.out"
o() { sed -n "s/^$1: //p" "$TMP/install.out"; }
is "$(o installed)" "install ok installed" "the package installs (its dependencies are the project's)"
is "$(o user)" "armbot:/var/lib/armbot:/usr/sbin/nologin" \
	"the postinst creates the system user armbot, home /var/lib/armbot, no login"
is "$(o 'system uid')" yes "armbot has a system uid"
is "$(o home)" armbot:armbot "/var/lib/armbot is armbot's"
is "$(o version)" "armbot version $VERSION" "the installed armbot runs"
is "$(o 'as armbot')" ok "armbot status runs as armbot on the service's data dir"
is "$(o man)" "/usr/share/man/man1/armbot.1.gz /usr/share/man/man5/armbot.conf.5.gz" \
	"man finds armbot(1) and armbot.conf(5)"
is "$(o verify)" clean "the installed units verify against the installed files"
is "$(o purged)" "state removed" "dpkg --purge removes /var/lib/armbot"
# --- under systemd --------------------------------------------------------
# systemd itself, booted in a second throwaway root with mount, pid, net
# and cgroup namespaces of its own (its cgroups under one made for it here
# and removed after): armbot.service and armbot-web.service start, answer
# and stop, and under armbot.service's settings bwrap runs with the
# options of kernel/build/sandbox.c, and qemu-system-arm's JIT starts.
# Not where the host runs systemd: its cgroup tree is not ours to add to.
SD_PID= SD_CG=armbot-package-test.$$ SD_HIERS=
sd_cleanup() {
	[ -n "$SD_PID" ] && kill -KILL "$SD_PID" 2> /dev/null
	SD_PID=
	for h in $SD_HIERS; do
		d=/sys/fs/cgroup/$h/$SD_CG
		i=0
		while [ -d "$d" ] && [ $i -lt 20 ] &&
			[ -n "$(find "$d" -name cgroup.procs -exec cat {} + 2> /dev/null)" ]; do
			sleep 0.5; i=$((i + 1))
		done
		[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} + 2> /dev/null
	done
	SD_HIERS=
}
trap 'sd_cleanup; rm -rf "$TMP"' EXIT
if [ -d /run/systemd/system ]; then
	skip "booting systemd in a throwaway root: the host runs systemd"
elif [ ! -x /lib/systemd/systemd ] || ! command -v nsenter > /dev/null; then
	skip "booting systemd in a throwaway root: no /lib/systemd/systemd or nsenter"
else
	if [ -e /sys/fs/cgroup/cgroup.controllers ]; then
		SD_HIERS=.
	else
		for h in systemd unified cpu cpuacct memory devices pids blkio; do
			[ -d "/sys/fs/cgroup/$h" ] && SD_HIERS="$SD_HIERS $h"
		done
	fi
	for h in $SD_HIERS; do mkdir "/sys/fs/cgroup/$h/$SD_CG"; done
	# the probes: armbot.service with another ExecStart=
	# kernel/build/sandbox.c's form (bwrap_argv()): every namespace, a
	# nested user namespace as uid 1000 that can make no further one, /usr
	# and the merged-/usr links, a bound directory, the root read-only
	bwrap_args="/usr/bin/bwrap --unshare-all --die-with-parent --new-session --unshare-user --disable-userns --uid 1000 --gid 1000 --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --dev /dev --proc /proc --tmpfs /tmp --bind /var/lib/armbot /var/lib/armbot --remount-ro / "
	probe() {	# probe NAME COMMAND...: a oneshot copy of armbot.service
		sed -e "/^ExecStart=/c ExecStart=$2" -e 's/^Type=exec/Type=oneshot/' \
			-e '/^Restart/d' "$R/lib/systemd/system/armbot.service" \
			> "$TMP/$1.service"
	}
	probe armbot-probe-bwrap "$bwrap_args-- /bin/sh -c \"id -u; touch /var/lib/armbot/from-sandbox\""
	# the strictest bwrap: every namespace, a nested user namespace as uid
	# 1000 that can make no further one, an empty root
	probe armbot-probe-bwrap-strict "/usr/bin/bwrap --unshare-all --die-with-parent --new-session --unshare-user --disable-userns --uid 1000 --gid 1000 --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --dev /dev --proc /proc --tmpfs /tmp --remount-ro / -- /bin/sh -c \"id -u\""
	probe armbot-probe-qemu "/usr/bin/bwrap --unshare-net --unshare-pid --die-with-parent --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp -- /bin/sh -c \"timeout 3 qemu-system-arm -M virt -nodefaults -display none -S; echo qemu-exit=\$\$?\""
	S=$TMP/sd
	mkdir -p "$S/root" "$S/rw"
	cat > "$TMP/boot.sh" << EOF
set -e
mount -t tmpfs tmpfs "$S/rw"
mkdir "$S/rw/up" "$S/rw/work"
mount -t overlay overlay -o lowerdir=/,upperdir="$S/rw/up",workdir="$S/rw/work" "$S/root"
mount --rbind /dev "$S/root/dev"
mount -t tmpfs tmpfs "$S/root/run"
mount -t tmpfs tmpfs "$S/root/tmp"
cp "$TMP/armbot.deb" "$S/root/tmp/"
cp "$TMP"/armbot-probe-*.service "$S/root/etc/systemd/system/"
chroot "$S/root" dpkg -i /tmp/armbot.deb > /dev/null
for h in $SD_HIERS; do echo \$\$ > /sys/fs/cgroup/\$h/$SD_CG/cgroup.procs; done
cd "$S/root"
mkdir -p oldroot
# pivot_root, not chroot: no user namespace can be made in a chroot
exec unshare --cgroup sh -c '
set -e
pivot_root . oldroot
mount -t sysfs sysfs /sys
if [ "$SD_HIERS" = . ]; then
	mount -t cgroup2 cgroup2 /sys/fs/cgroup
else
	mount -t tmpfs -o mode=755 tmpfs /sys/fs/cgroup
	for h in $SD_HIERS; do
		mkdir /sys/fs/cgroup/\$h
		case \$h in
		unified) mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified ;;
		systemd) mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd ;;
		*) mount -t cgroup -o \$h cgroup /sys/fs/cgroup/\$h ;;
		esac
	done
fi
exec unshare --pid --fork --kill-child --net --mount-proc=/proc \
	env container=armbot-test /lib/systemd/systemd --system \
	--unit=basic.target --log-target=null'
EOF
	unshare -m --propagation private sh "$TMP/boot.sh" > "$TMP/boot.log" 2>&1 &
	SD_PID=$!
	state= i=0
	while [ $i -lt 120 ] && kill -0 "$SD_PID" 2> /dev/null; do
		pid1=$(pgrep -P "$SD_PID" 2> /dev/null | head -1)
		if [ -n "$pid1" ]; then
			state=$(nsenter -t "$pid1" -m -p -n -r -w systemctl is-system-running 2> /dev/null)
			case $state in running | degraded) break ;; esac
		fi
		sleep 0.5; i=$((i + 1))
	done
	case $state in running | degraded) st=0 ;; *) st=1 ;; esac
	ok $st "systemd boots in a throwaway root with the package installed ($state)"
	[ $st -eq 0 ] || sed 's/^/# /' "$TMP/boot.log"
	sdo() { nsenter -t "$pid1" -m -p -n -r -w "$@"; }
	if [ $st -eq 0 ]; then
		sdo systemctl start armbot.service armbot-web.service
		sleep 2
		is "$(sdo systemctl is-active armbot.service)" active "armbot.service runs under its settings"
		is "$(sdo curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/)" 200 \
			"armbot.service serves the web pages (127.0.0.1:8080)"
		is "$(sdo systemctl is-active armbot-web.service)" active "armbot-web.service runs"
		sdo curl -s http://127.0.0.1:8081/api/series | grep -q '"series":\[\]'
		ok $? "armbot-web.service answers /api/series (127.0.0.1:8081)"
		sdo systemctl stop armbot.service armbot-web.service
		is "$(sdo systemctl is-active armbot.service)" inactive "systemctl stop stops armbot.service"
		sdo journalctl -u armbot.service -o cat --no-pager | sed 's/^/# armbot.service: /'
		if [ -n "$bwrap_args" ]; then
			sdo systemctl start armbot-probe-bwrap.service
			ok $? "under armbot.service's settings: $bwrap_args"
			is "$(sdo journalctl -u armbot-probe-bwrap.service -o cat --no-pager | grep -v '^armbot-probe\|^Started\|^Finished\|Deactivated\|^Starting' | tail -1)" \
				1000 "bwrap runs the sandboxed command as uid 1000 of its namespace"
			is "$(sdo stat -c %U /var/lib/armbot/from-sandbox 2>&1)" armbot \
				"the sandbox writes where it is bound"
		else
			skip "the bwrap options of kernel/build/sandbox.c were not found: update this probe"
		fi
		sdo systemctl start armbot-probe-bwrap-strict.service
		ok $? "under armbot.service's settings: bwrap --unshare-all --unshare-user --disable-userns"
		is "$(sdo journalctl -u armbot-probe-bwrap-strict.service -o cat --no-pager | grep -x '[0-9]*')" \
			1000 "bwrap runs the command as uid 1000 of its user namespace"
		sdo systemctl start armbot-probe-qemu.service
		is "$(sdo journalctl -u armbot-probe-qemu.service -o cat --no-pager | grep '^qemu-exit')" \
			qemu-exit=124 "qemu-system-arm starts its JIT under armbot.service's settings (stopped by timeout)"
	fi
	sd_cleanup
	ls -d /sys/fs/cgroup/*/"$SD_CG" /sys/fs/cgroup/"$SD_CG" > /dev/null 2>&1
	is $? 2 "the cgroups made for the boot are gone"
fi

is "$(getent passwd armbot)" "$host_user" "the host's users are as they were"
is "$(dpkg-query -W armbot 2>/dev/null)" "$host_pkg" "the host's packages are as they were"

done_testing
