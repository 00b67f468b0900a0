#!/usr/bin/perl
# The house's layers: every #include "..." of the module folders points to
# its own folder or to a folder below it in the order the README's
# "Architecture" section writes down (the block after "Layers, top first"),
# and no two source files include each other, directly or round a circle
# (a file and its header count as one: "x.c" with "x.h").
#
# The check is one function, layout_check(), over the layer ranks and the
# files with their includes; it runs first on a small made-up house with
# one upward include and one circle, which it must report exactly, then
# on the real tree.
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

# @got equals @want, element by element; the difference as diagnostics
sub is_list {
	my ($got, $want, $what) = @_;
	my $same = @$got == @$want;
	for my $i (0 .. $#$want) {
		$same &&= $got->[$i] eq $want->[$i];
	}
	ok($same, $what, $same ? () :
	   ((map { "want: $_" } @$want), (map { "got:  $_" } @$got)));
}

# layout_check(\%rank, \%includes): %rank maps a layer's folder to its
# place in the order (0 is the top); %includes maps each source file to
# its includes, [LINE, PATH] each.  Returns a hash of three sorted lists:
#   unlisted  files in no listed layer
#   up        "FILE:LINE: includes PATH (FROM -> TO, upward)"
#   circles   "A <-> B <-> ...", the units (file names without .c/.h) of
#             each circle of includes, sorted
sub layout_check {
	my ($rank, $includes) = @_;

	# the layer of a path: its longest listed folder prefix
	my $layer_of = sub {
		my ($d) = @_;
		while ($d =~ s{/[^/]+$}{}) {
			return $d if exists $rank->{$d};
		}
		return undef;
	};
	my (%edges, @up, @unlisted);
	for my $f (sort keys %$includes) {
		my $from = $layer_of->($f);
		push @unlisted, $f unless defined $from;
		(my $u = $f) =~ s/\.[ch]$//;
		for my $inc (@{ $includes->{$f} }) {
			my ($line, $path) = @$inc;
			my $to = $layer_of->($path);
			next unless defined $from && defined $to;
			push @up, "$f:$line: includes $path ($from -> $to, upward)"
				if $rank->{$to} < $rank->{$from};
			(my $v = $path) =~ s/\.[ch]$//;
			$edges{$u}{$v} = 1 if $u ne $v;
		}
	}

	# circles: Tarjan's strongly connected components over the units
	my ($index, @stack, %idx, %low, %on, @circles) = (0);
	my $strong;
	$strong = sub {
		my ($v) = @_;
		$idx{$v} = $low{$v} = $index++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{ $edges{$v} || {} }) {
			if (!exists $idx{$w}) {
				$strong->($w);
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
	};
	for my $v (sort keys %edges) {
		$strong->($v) unless exists $idx{$v};
	}
	undef $strong; # the closure refers to itself
	return (unlisted => [ sort @unlisted ], up => [ sort @up ],
		circles => [ sort @circles ]);
}

# The check itself, on a made-up house of three layers: top/a uses mid/b,
# which uses low/c (all downward); low/f includes mid/b.h (upward); and
# mid/d, mid/e, mid/g include one another round a circle, mid/g through
# its header.  A file including its own header is no circle.
{
	my %rank = (top => 0, mid => 1, low => 2);
	my %house = (
		'top/a.c' => [ [ 1, 'top/a.h' ], [ 2, 'mid/b.h' ] ],
		'top/a.h' => [],
		'mid/b.c' => [ [ 1, 'mid/b.h' ], [ 2, 'low/c.h' ] ],
		'mid/b.h' => [ [ 3, 'low/c.h' ] ],
		'low/c.c' => [ [ 1, 'low/c.h' ] ],
		'low/c.h' => [],
		'low/f.c' => [ [ 1, 'low/c.h' ], [ 4, 'mid/b.h' ] ],
		'mid/d.c' => [ [ 1, 'mid/d.h' ], [ 2, 'mid/e.h' ] ],
		'mid/d.h' => [],
		'mid/e.c' => [ [ 1, 'mid/e.h' ], [ 2, 'mid/g.h' ] ],
		'mid/e.h' => [],
		'mid/g.h' => [ [ 5, 'mid/d.h' ] ],
		'lost/x.c' => [ [ 1, 'top/a.h' ] ],
	);
	my %r = layout_check(\%rank, \%house);
	is_list($r{up}, [ 'low/f.c:4: includes mid/b.h (low -> mid, upward)' ],
		"made-up house: the upward include is reported, alone");
	is_list($r{circles}, [ 'mid/d <-> mid/e <-> mid/g' ],
		"made-up house: the circle is reported, alone");
	is_list($r{unlisted}, [ 'lost/x.c' ],
		"made-up house: the file outside the layers is reported");

	# without the upward include and with the circle opened, nothing
	$house{'low/f.c'} = [ [ 1, 'low/c.h' ] ];
	$house{'mid/g.h'} = [];
	delete $house{'lost/x.c'};
	%r = layout_check(\%rank, \%house);
	is_list([ @{ $r{up} }, @{ $r{circles} }, @{ $r{unlisted} } ], [],
		"made-up house, mended: nothing is reported");
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

# the real tree: every .c and .h of the module folders but the guest's
my @files;
find(sub { push @files, $File::Find::name if /\.[ch]$/ },
     qw(bot config kernel mailparse qemu));
@files = sort grep { !m{^qemu/guest/} } @files;

my (%includes, @missing);
for my $f (@files) {
	$includes{$f} = [];
	open(my $fh, '<', $f) or die "$f: $!";
	while (my $line = <$fh>) {
		next unless $line =~ /^\s*#\s*include\s+"([^"]+)"/;
		if (!-f $1) {
			push @missing, "$f:$.: $1";
			next;
		}
		push @{ $includes{$f} }, [ $., $1 ];
	}
	close $fh;
}
my %r = layout_check(\%rank, \%includes);
ok(!@{ $r{unlisted} }, "every source file is in a listed layer",
   @{ $r{unlisted} });
ok(!@missing, "every include names a file of the tree", @missing);
ok(!@{ $r{up} }, "no include points up the layer order", @{ $r{up} });
ok(!@{ $r{circles} }, "no circle of includes", @{ $r{circles} });

# One git layer (README, "One git layer: which one, and why"): libgit2 is
# behind kernel/git/.  git2_outside(\%includes) lists, sorted, the files
# outside kernel/git/ that include <git2.h> or the bridge
# "kernel/git/libgit2.h" (which includes it); %includes maps a file to
# the paths it includes, <...> and "..." alike.
sub git2_outside {
	my ($inc) = @_;
	return sort grep {
		my $f = $_;
		$f !~ m{^kernel/git/} &&
			grep { $_ eq 'git2.h' || $_ eq 'kernel/git/libgit2.h' }
			@{ $inc->{$f} }
	} keys %$inc;
}
is_list([ git2_outside({ 'kernel/git/libgit2.h' => [ 'git2.h' ],
			 'kernel/git/fetch.c' => [ 'kernel/git/libgit2.h' ],
			 'kernel/tree/a.c' => [ 'kernel/git/libgit2.h' ],
			 'bot/b.h' => [ 'glib.h', 'git2.h' ],
			 'bot/c.c' => [ 'kernel/git/repo.h' ] }) ],
	[ 'bot/b.h', 'kernel/tree/a.c' ],
	"made-up house: the includers of libgit2 outside kernel/git/");

# No file outside kernel/git/ includes libgit2 (issue 18 moved the last
# one, kernel/patch/apply.c, behind kernel/git/lg2write.h and lg2merge.h).
my %all_includes;
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!";
	$all_includes{$f} = [ map { /^\s*#\s*include\s+[<"]([^>"]+)[>"]/ ? $1 : () }
			      <$fh> ];
	close $fh;
}
is_list([ git2_outside(\%all_includes) ], [],
	"no file outside kernel/git/ includes libgit2");

print "1..$n\n";
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
