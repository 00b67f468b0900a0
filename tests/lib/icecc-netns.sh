# An icecream test runs in a network namespace of its own, so that neither
# daemon broadcasts on the host's network.  Source this first, before
# tap.sh (the exec below would leave tap.sh's scratch directory behind):
#	. "$(dirname "$0")/../lib/icecc-netns.sh"
#	icecc_netns_enter [--veth] [TOOL...]
# Outside the namespace it checks what the test needs (root, the icecream
# tools and each TOOL, the user icecc, a network namespace; with --veth a
# veth pair in one), skips the whole file when something is missing, and
# runs the file again under `unshare -n`.  Inside, it returns at once.

icecc_netns_enter() {
	[ -z "${ARMBOT_ICECC_NETNS:-}" ] || return 0
	_veth=
	if [ "${1:-}" = --veth ]; then
		_veth=1
		shift
	fi
	_skip() { echo "1..0 # SKIP $*"; exit 0; }
	[ "$(id -u)" = 0 ] || _skip "needs root (the daemons drop to user icecc)"
	for _tool in unshare ip icecc iceccd icecc-scheduler icecc-create-env "$@"; do
		command -v "$_tool" >/dev/null 2>&1 || _skip "$_tool not installed"
	done
	getent passwd icecc >/dev/null || _skip "no user icecc (package icecc)"
	unshare -n true 2>/dev/null || _skip "cannot make a network namespace"
	[ -z "$_veth" ] ||
		unshare -n ip link add t0 type veth peer name t1 2>/dev/null ||
		_skip "cannot make a veth pair in a network namespace"
	ARMBOT_ICECC_NETNS=1 exec unshare -n /bin/bash "$0"
}
