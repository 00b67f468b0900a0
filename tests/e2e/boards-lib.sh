# Shared by the pipeline-boards*.t end-to-end tests (sourced after
# boot-lib.sh): real one-patch series on a board's device tree, made with
# git format-patch from the imported distro tree.

# format_dts_patch DTS PERL-SUBSTITUTION SUBJECT OUT: one commit on the
# distro import changing DTS (a path of the tree) as the substitution
# does, as git format-patch mails it.  The commit is written into a bare
# clone sharing the imported tree's objects ($TMP/linux.git), never into
# the shared repository.
format_dts_patch() {
	[ -d "$TMP/linux.git" ] ||
		git clone -q --bare --shared "$REPO" "$TMP/linux.git" || return 1
	git -C "$TMP/linux.git" show "distro:$1" > "$TMP/dts" || return 1
	cp "$TMP/dts" "$TMP/dts.orig"
	perl -0pi -e "$2" "$TMP/dts" || return 1
	cmp -s "$TMP/dts" "$TMP/dts.orig" && return 1
	_blob=$(git -C "$TMP/linux.git" hash-object -w "$TMP/dts") || return 1
	GIT_INDEX_FILE="$TMP/index" git -C "$TMP/linux.git" read-tree distro &&
	GIT_INDEX_FILE="$TMP/index" git -C "$TMP/linux.git" update-index \
		--cacheinfo "100644,$_blob,$1" &&
	_tree=$(GIT_INDEX_FILE="$TMP/index" git -C "$TMP/linux.git" write-tree) ||
		return 1
	_commit=$(printf '%s\n\nInjected by armbot'"'"'s end-to-end tests.\n' "$3" |
		GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=test@example.org \
		GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=test@example.org \
		GIT_AUTHOR_DATE='2024-01-01 00:00:00 +0000' \
		GIT_COMMITTER_DATE='2024-01-01 00:00:00 +0000' \
		git -C "$TMP/linux.git" commit-tree "$_tree" -p distro) || return 1
	git -C "$TMP/linux.git" format-patch --stdout -1 "$_commit" > "$4"
}

# The board vexpress-a9's device tree, and the substitution that deletes
# the clocks of the UART its console is on (v2m_serial0, from
# vexpress-v2m.dtsi): the PL011 never probes, the kernel has no console.
VEXPRESS_DTS=arch/arm/boot/dts/vexpress-v2p-ca9.dts
UART_NO_CLOCKS='s/\z/\n&v2m_serial0 {\n\t\/delete-property\/ clocks;\n\t\/delete-property\/ clock-names;\n};\n/'
