#!/usr/bin/perl
# Mangled patches for the patch-id differential test: what a mail client,
# a list archive or an attacker may do to a patch.
#   patchid-mutate.pl SEED COUNT < mbox > stream
# Splits the input at "From <hex> " lines (git format-patch output, git
# log -p works too at "commit " lines) and writes COUNT mutants of each
# patch, each preceded by a line of 40 hex digits of its own (which git
# patch-id takes for a commit id, so that every mutant starts a patch)
# and ending with a newline.  A mutant has one to four of: a line
# deleted, duplicated, swapped with the next, cut short, stripped of its
# first character or given another; a byte inserted (NUL, CR, VT, FF,
# tab, space, 0x85, 0xa0, diff markers); a hunk header's counts changed;
# a line inserted that git's parser treats specially.  Same seed, same
# output.
use strict;
use warnings;

my ($seed, $count) = @ARGV;
srand($seed);
binmode(STDIN);
binmode(STDOUT);

sub rnd { int(rand($_[0])) }
sub pick { $_[rnd(scalar @_)] }

my @special = (
	"commit 0123456789abcdef0123456789abcdef01234567",
	"From 89abcdef0123456789abcdef0123456789ABCDEF Mon Sep 17 00:00:00 2001",
	"fedcba9876543210fedcba9876543210fedcba98 and more",
	"commit 0123456789abcdef", "From nothex at all",
	"diff-tree 0123456789abcdef0123456789abcdef01234567",
	"\\ No newline at end of file", "\\ short", "\\ ", "\\",
	"", " ", "\t", "\r", "-- ", "--", "---", "+++",
	"diff --git a/q b/q", "diff x", "diff", "diff --cc q",
	"index 1234567..89abcde 100644", "index ..", "index 12..",
	"index abc..def ghi", "index abc", "index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111",
	"GIT binary patch", "literal 5", "delta 7", "zcmV?d00001",
	"Binary files a/x and b/x differ", "Binary files differ",
	"--- a/x", "+++ b/x", "--- /dev/null", "+++ /dev/null",
	"@@ -1 +1 @@", "@@ -5 +5 @@", "@@ -1,2 +1,3 @@", "@@ -0,0 +1 @@",
	"@@ -1,99999999999 +1,2 @@", "@@ -1, 5 +1,-3 @@", "@@ -",
	"@@ -1,2 +", "@@ -x +y @@", "@@@ -1,2 -1,2 +1,3 @@@",
	"new file mode 100644", "deleted file mode 100755",
	"old mode 100644", "new mode 100755", "similarity index 90%",
	"rename from x", "rename to y", "copy from x", "copy to y",
	"+added", "-removed", " context", "+", "-", "Subject: [PATCH] x",
);
my @bytes = ("\0", "\r", "\x0b", "\x0c", "\t", " ", "\x85", "\xa0", "@",
	     "-", "+", "\\", "\n");

sub mutate {
	my @l = @_;
	for (1 .. 1 + rnd(4)) {
		my $i = rnd(scalar(@l) + 1);
		my $op = rnd(10);
		if ($op == 0 && @l) {
			splice(@l, $i % @l, 1);
		} elsif ($op == 1 && @l) {
			splice(@l, $i % @l, 0, $l[$i % @l]);
		} elsif ($op == 2 && @l > 1) {
			my $j = $i % (@l - 1);
			@l[$j, $j + 1] = @l[$j + 1, $j];
		} elsif ($op == 3 && @l) {
			my $s = $l[$i % @l];
			$l[$i % @l] = substr($s, 0, rnd(length($s) + 1));
		} elsif ($op == 4 && @l) {
			$l[$i % @l] =~ s/^.//s;
		} elsif ($op == 5 && @l) {
			$l[$i % @l] = pick(' ', '+', '-', '\\', 'd', '@') . $l[$i % @l];
		} elsif ($op == 6 && @l) {
			my $s = $l[$i % @l];
			substr($s, rnd(length($s) + 1), 0) = pick(@bytes);
			$l[$i % @l] = $s;
		} elsif ($op == 7) {
			my @h = grep { $l[$_] =~ /^@@ -/ } 0 .. $#l;
			next unless @h;
			my $n = pick(@h);
			my $v = pick('0', '1', '2', '7', '', '-1', ' 3',
				     '2147483648', '4294967297');
			$l[$n] =~ s/(\d+)/$v/ if rnd(2);
			$l[$n] =~ s/,(\d+)/,$v/ if rnd(2);
			$l[$n] =~ s/\+(\d+)/+$v/ if rnd(2);
		} else {
			splice(@l, $i, 0, pick(@special));
		}
	}
	return @l;
}

my @patches;
my $cur;
while (my $line = <STDIN>) {
	if ($line =~ /^(From|commit) [0-9a-f]{40}/ || !defined $cur) {
		push @patches, [];
		$cur = $patches[-1];
	}
	chomp $line;
	push @$cur, $line;
}
my $n = 0;
for my $p (@patches) {
	for (1 .. $count) {
		printf "%040x\n", ++$n;
		print join("\n", mutate(@$p)), "\n";
	}
}
