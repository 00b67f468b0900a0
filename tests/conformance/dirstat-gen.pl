#!/usr/bin/perl
# Random scratch trees for the dirstat differential test.
#   dirstat-gen.pl SEED PHASE DIR
# Phase 0 fills DIR with files; later phases change what is there: edits,
# deletions, renames across directories (with and without edits, same and
# different basenames), rewrites, copies, mode changes, binary and CRLF
# files, empty files.  The same seed always gives the same trees.
use strict;
use warnings;
use File::Find;
use File::Path qw(make_path);
use File::Basename qw(dirname basename);

my ($seed, $phase, $dir) = @ARGV;
srand($seed * 1000 + $phase);

my @dirs = ('', 'a', 'b', 'a/x', 'a/y', 'b/z', 'b/z/deep', 'c',
	    'arch/arm/mach-foo', 'arch/arm/plat-bar', 'arch/arm/kernel',
	    'drivers/soc', 'drivers/soc/foo');
my @words = qw(static int void return if else struct u32 foo bar baz
	       reg base clk irq dev of_node platform_device ret err goto
	       out unlock mutex spin_lock readl writel { } ; 0 1 0x40 NULL);

sub rnd { int(rand($_[0])) }
sub pick { $_[rnd(scalar @_)] }

sub text_line {
	my $n = rnd(4) == 0 ? 12 + rnd(10) : rnd(8);
	my $line = join(' ', map { pick(@words) } 1 .. $n);
	$line = "\t" . $line if rnd(3) == 0;
	return $line;
}

sub make_content {
	my $kind = rnd(100);
	if ($kind < 8) {	# binary: NUL bytes early on
		my $n = 20 + rnd(3000);
		return join('', map { chr(rnd(4) == 0 ? 0 : rnd(256)) } 1 .. $n);
	}
	return '' if $kind < 11;
	my $crlf = $kind < 17;
	my @lines = map { text_line() } 1 .. (1 + rnd(120));
	my $text = join($crlf ? "\r\n" : "\n", @lines);
	$text .= $crlf ? "\r\n" : "\n" unless rnd(10) == 0;
	return $text;
}

sub write_file {
	my ($path, $content) = @_;
	make_path(dirname("$dir/$path"));
	open(my $fh, '>:raw', "$dir/$path") or die "$path: $!";
	print $fh $content;
	close($fh);
}

sub read_file {
	my ($path) = @_;
	open(my $fh, '<:raw', "$dir/$path") or die "$path: $!";
	local $/;
	my $c = <$fh>;
	close($fh);
	return $c // '';
}

sub new_name {
	my $base = 'f' . rnd(40) . pick('.c', '.h', '', '.dts', '.bin');
	my $d = pick(@dirs);
	return $d eq '' ? $base : "$d/$base";
}

sub edit {
	my ($content, $amount) = @_;
	return $content . "\0tail" . rnd(1000) if $content =~ /\0/;
	my @lines = split(/\n/, $content, -1);
	my $edits = 1 + rnd($amount);
	for (1 .. $edits) {
		my $at = rnd(scalar(@lines) + 1);
		my $op = rnd(3);
		if ($op == 0 && @lines) {
			splice(@lines, $at, 1 + rnd(5));
		} elsif ($op == 1) {
			splice(@lines, $at, 0, map { text_line() } 1 .. (1 + rnd(8)));
		} elsif (@lines) {
			$lines[$at % @lines] = text_line();
		}
	}
	return join("\n", @lines);
}

if ($phase == 0) {
	my $n = 6 + rnd(30);
	my %seen;
	for (1 .. $n) {
		my $p = new_name();
		next if $seen{$p}++;
		write_file($p, make_content());
	}
	exit 0;
}

my @files;
find({ no_chdir => 1, wanted => sub {
	return if $File::Find::name =~ m{/\.git(/|$)};
	push @files, substr($File::Find::name, length($dir) + 1) if -f $_;
} }, $dir);
@files = sort @files;
my %exists = map { $_ => 1 } @files;

sub free_name {
	my ($want) = @_;
	for (1 .. 50) {
		my $p = $want // new_name();
		return $p unless $exists{$p} || grep { index($_, "$p/") == 0 } keys %exists;
		undef $want;
	}
	return undef;
}

for my $f (@files) {
	my $r = rnd(100);
	my $c = read_file($f);
	if ($r < 35) {
		next;
	} elsif ($r < 60) {
		write_file($f, edit($c, 6));
	} elsif ($r < 68) {
		unlink("$dir/$f");
		delete $exists{$f};
	} elsif ($r < 85) {	# rename: same basename elsewhere or new name
		my $d = pick(@dirs);
		my $to = free_name(rnd(2) ? ($d eq '' ? basename($f) : "$d/" . basename($f)) : undef);
		next unless defined $to;
		unlink("$dir/$f");
		delete $exists{$f};
		my $how = rnd(4);
		write_file($to, $how == 0 ? $c : $how == 1 ? edit($c, 2) :
				$how == 2 ? edit($c, 15) : make_content());
		$exists{$to} = 1;
	} elsif ($r < 90) {
		write_file($f, make_content());
	} elsif ($r < 94) {
		chmod((stat("$dir/$f"))[2] & 0100 ? 0644 : 0755, "$dir/$f");
	} else {		# a copy: the same content under a second name
		my $to = free_name();
		next unless defined $to;
		write_file($to, rnd(2) ? $c : edit($c, 3));
		$exists{$to} = 1;
	}
}
for (1 .. rnd(6)) {
	my $to = free_name();
	next unless defined $to;
	write_file($to, make_content());
	$exists{$to} = 1;
}
