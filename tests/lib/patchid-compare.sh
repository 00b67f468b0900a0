# Helpers for the patch-id conformance tests (patchid.t,
# patchid-mutations.t, patchid-lakml.t); source after tap.sh.

PATCHID_MODES="--stable --unstable --verbatim"
patchid_total=0

# patchid_compare_stream LABEL FILE: git patch-id and armbot patch-id read
# FILE, in each mode, byte for byte the same; one test a mode, the ids in
# $patchid_total
patchid_compare_stream() {
	for _m in $PATCHID_MODES; do
		git patch-id $_m < "$2" > "$TMP/want"
		"$ARMBOT" patch-id $_m < "$2" > "$TMP/got" 2> "$TMP/err"
		_n=$(wc -l < "$TMP/want")
		patchid_total=$((patchid_total + _n))
		is_file "$TMP/want" "$TMP/got" "$1 $_m: $_n ids as git"
	done
}
