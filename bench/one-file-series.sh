# Sourced by bench/boot.sh and bench/boards.sh: one_file_series REPO OUT
# writes to OUT a one-patch mbox changing one ARM file every ARM kernel
# builds (the CPU banner of arch/arm/kernel/setup.c) of REPO's "distro"
# commit: the warm series of the build+boot benchmarks.
one_file_series() {
	_f=arch/arm/kernel/setup.c
	git -C "$1" show "distro:$_f" > "$2.a" || return 1
	perl -0pe 's/"CPU: %s \[%08x\]/"CPU (armbot bench): %s [%08x]/' \
		"$2.a" > "$2.b"
	{
		echo "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001"
		echo "From: Bench <bench@example.org>"
		echo "Date: Mon, 1 Jan 2024 00:00:00 +0000"
		echo "Subject: [PATCH] ARM: setup: mark the CPU banner"
		echo
		echo "---"
		diff -u --label "a/$_f" --label "b/$_f" "$2.a" "$2.b"
	} > "$2"
	rm -f "$2.a" "$2.b"
	grep -q '^+.*armbot bench' "$2" || {
		echo "bench patch did not change $_f" >&2
		return 1
	}
}
