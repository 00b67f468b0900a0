#!/usr/bin/perl
# A random linear history for the patch-id differential test.
#   patchid-gen.pl SEED COMMITS DIR
# DIR is a git work tree (git init done).  Each commit makes one to four
# changes of the kinds a kernel history has and some it rarely has: edits
# (small, large, whitespace only, the last newline added or removed, C
# code with blank lines and braces for xdiff's sliders), new files (LF,
# CRLF, empty, without a last newline), deletions, renames with and
# without edits, copies, binary files, mode changes, symlinks, a file
# turned into a symlink and back, names with spaces, quotes and UTF-8.
# Now and then a commit is empty.  The same seed always gives the same
# history (dates are fixed, one second apart).
use strict;
use warnings;
use File::Path qw(make_path);
use File::Basename qw(dirname basename);

my ($seed, $commits, $dir) = @ARGV;
srand($seed);

my @dirs = ('', 'arch/arm/mach-foo', 'arch/arm/boot/dts', 'drivers/soc',
	    'drivers/clk/foo', 'include/linux', 'Documentation');
my @names = ('core', 'clk', 'pm', 'board-x', 'irq', 'Makefile', 'Kconfig',
	     'a b', "quo\"te", "caf\xc3\xa9", 'tab	x', 'reg');
my @exts = ('.c', '.h', '', '.dts', '.txt', '.bin');
my @words = qw(static int void return if else struct u32 foo bar baz reg
	       base clk irq dev ret err goto out unlock readl writel 0x40
	       NULL of_node pm_runtime_get_sync);

sub rnd { int(rand($_[0])) }
sub pick { $_[rnd(scalar @_)] }

# C-like text: functions with blank lines and closing braces, so that
# added blocks have ambiguous positions (the indent heuristic decides)
sub c_block {
	my @l = ("static int " . pick(@words) . "_" . rnd(100) . "(void)", "{");
	for (1 .. 1 + rnd(6)) {
		my $w = join(' ', map { pick(@words) } 1 .. 1 + rnd(5));
		push @l, rnd(5) == 0 ? "" : "\t$w;";
		push @l, "\tif (ret)", "\t\treturn ret;" if rnd(4) == 0;
	}
	push @l, "}", "";
	return @l;
}

sub text_lines {
	my @l;
	push @l, rnd(3) ? c_block() : (join(' ', map { pick(@words) } 1 .. rnd(9)))
		for 1 .. 1 + rnd(8);
	return @l;
}

sub make_text {
	my $kind = rnd(12);
	return '' if $kind == 0;
	my @l = text_lines();
	my $eol = $kind == 1 || $kind == 3 ? "\r\n" : "\n";
	my $t = join($eol, @l);
	$t .= $eol unless $kind == 2 || $kind == 3;
	return $t;
}

sub make_binary {
	my $n = 10 + rnd(2000);
	return join('', map { chr(rnd(3) == 0 ? 0 : rnd(256)) } 1 .. $n);
}

sub path_of { "$dir/$_[0]" }

sub write_file {
	my ($p, $c) = @_;
	make_path(dirname(path_of($p)));
	unlink(path_of($p)) if -l path_of($p);
	open(my $fh, '>:raw', path_of($p)) or die "$p: $!";
	print $fh $c;
	close($fh);
}

sub read_file {
	my ($p) = @_;
	return readlink(path_of($p)) if -l path_of($p);
	open(my $fh, '<:raw', path_of($p)) or die "$p: $!";
	local $/;
	my $c = <$fh> // '';
	close($fh);
	return $c;
}

sub edit_text {
	my ($c, $amount) = @_;
	return $c . chr(rnd(256)) . "\0" if $c =~ /\0/;
	my $crlf = $c =~ /\r\n/;
	my $eol = $crlf ? "\r\n" : "\n";
	my $last_nl = $c eq '' || $c =~ /\n\z/;
	my @l = split(/\r?\n/, $c, -1);
	pop @l if $last_nl && @l;
	for (1 .. 1 + rnd($amount)) {
		my $at = rnd(scalar(@l) + 1);
		my $op = rnd(4);
		if ($op == 0 && @l) {
			splice(@l, $at, 1 + rnd(4));
		} elsif ($op == 1) {
			splice(@l, $at, 0, rnd(2) ? c_block() : text_lines());
		} elsif ($op == 2 && @l) {
			$l[$at % @l] = join(' ', map { pick(@words) } 1 .. rnd(6));
		} elsif (@l) {	# a duplicated block: sliders again
			my $from = rnd(scalar @l);
			my $to = $from + rnd(4);
			$to = $#l if $to > $#l;
			splice(@l, $at, 0, @l[$from .. $to]);
		}
	}
	my $t = join($eol, @l);
	$t .= $eol if @l && ($last_nl xor rnd(15) == 0);
	return $t;
}

# whitespace only: indentation, trailing blanks, tabs and spaces
sub edit_whitespace {
	my ($c) = @_;
	my @l = split(/\n/, $c, -1);
	return $c . " " unless @l;
	for (1 .. 1 + rnd(4)) {
		my $i = rnd(scalar @l);
		my $k = rnd(4);
		if ($k == 0) { $l[$i] =~ s/^\t/        /; }
		elsif ($k == 1) { $l[$i] .= " \t"; }
		elsif ($k == 2) { $l[$i] =~ s/ /  /; }
		else { $l[$i] = "\t" . $l[$i]; }
	}
	return join("\n", @l);
}

my %files;	# path => 1 for what exists (files and symlinks)
sub list_files { sort keys %files }

sub new_name {
	for (1 .. 50) {
		my $d = pick(@dirs);
		my $b = pick(@names) . (rnd(4) ? rnd(30) : '') . pick(@exts);
		my $p = $d eq '' ? $b : "$d/$b";
		next if $files{$p} || grep { index($_, "$p/") == 0 } keys %files;
		next if grep { index($p, "$_/") == 0 } keys %files;
		return $p;
	}
	return undef;
}

sub remove {
	my ($p) = @_;
	unlink(path_of($p));
	delete $files{$p};
}

sub change {
	my @f = list_files();
	my $r = @f ? rnd(100) : 0;
	my $f = @f ? pick(@f) : undef;
	my $link = defined $f && -l path_of($f);
	if ($r < 15) {		# new file
		my $p = new_name() // return;
		my $k = rnd(12);
		if ($k == 0) {
			make_path(dirname(path_of($p)));
			symlink(pick('core.c', '../x', 'a b', "caf\xc3\xa9"), path_of($p));
		} else {
			write_file($p, $k == 1 ? make_binary() : make_text());
			chmod(0755, path_of($p)) if rnd(10) == 0;
		}
		$files{$p} = 1;
	} elsif ($r < 50) {	# edit
		if ($link) {
			my $t = readlink(path_of($f)) . "x";
			unlink(path_of($f));
			symlink($t, path_of($f));
			return;
		}
		my $c = read_file($f);
		write_file($f, rnd(6) == 0 ? edit_whitespace($c)
			       : edit_text($c, rnd(5) == 0 ? 12 : 2));
	} elsif ($r < 58) {
		remove($f);
	} elsif ($r < 75) {	# rename: exact, edited, rewritten
		my $to = rnd(2) ? new_name() : do {
			my $d = pick(@dirs);
			my $p = $d eq '' ? basename($f) : "$d/" . basename($f);
			$files{$p} ? undef : $p;
		};
		return unless defined $to;
		return if grep { index($to, "$_/") == 0 } keys %files;
		my $c = read_file($f);
		my $mode = (lstat(path_of($f)))[2];
		remove($f);
		if ($link) {
			make_path(dirname(path_of($to)));
			symlink($c, path_of($to));
		} else {
			my $how = rnd(4);
			write_file($to, $how == 0 ? $c : $how == 1 ? edit_text($c, 1)
				   : $how == 2 ? edit_text($c, 8) : make_text());
			chmod($mode & 07777, path_of($to));
		}
		$files{$to} = 1;
	} elsif ($r < 82) {	# copy
		return if $link;
		my $to = new_name() // return;
		my $c = read_file($f);
		write_file($to, rnd(2) ? $c : edit_text($c, 1));
		$files{$to} = 1;
	} elsif ($r < 88) {	# mode
		return if $link;
		chmod((stat(path_of($f)))[2] & 0100 ? 0644 : 0755, path_of($f));
	} elsif ($r < 93) {	# binary
		return if $link;
		write_file($f, make_binary());
	} else {		# file <-> symlink
		my $c = read_file($f);
		unlink(path_of($f));
		if ($link) {
			write_file($f, "$c\n");
		} else {
			symlink(pick('core.c', '../x', 'reg'), path_of($f));
		}
	}
}

my $date = 1700000000;
for my $i (1 .. $commits) {
	if ($i == 1 || rnd(25) != 0) {
		change() for 1 .. 1 + rnd($i == 1 ? 8 : 4);
	}
	system('git', '-C', $dir, 'add', '-A') == 0 or die "git add";
	$date++;
	local $ENV{GIT_AUTHOR_DATE} = "$date +0000";
	local $ENV{GIT_COMMITTER_DATE} = "$date +0000";
	system('git', '-C', $dir, 'commit', '-q', '--allow-empty',
	       '--no-verify', '-m', "step $i\n\nseed $seed") == 0
		or die "git commit";
}
