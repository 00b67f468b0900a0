#!/usr/bin/perl
# similar-mutate.pl STEM NEWSTEM < driver.c > copy.c: a copy of a kernel C
# file as one who copies a driver into arch/arm makes it: every identifier
# holding STEM renamed with NEWSTEM, the usual local names changed, the
# comments rewritten, and the functions reordered (each pair of top-level
# function definitions swapped).
use strict;
use warnings;

my ($stem, $new) = @ARGV;
die "usage: similar-mutate.pl STEM NEWSTEM\n" unless defined $new;
local $/;
my $src = <STDIN>;

# comments: other words, same places
$src =~ s{/\*.*?\*/}{
	my $c = $&;
	my $n = () = $c =~ /\n/g;
	"/* adapted for this board" . ("\n *" x $n) . " */"
}gse;
$src =~ s{//[^\n]*}{// board specific}g;

# identifiers
$src =~ s/\b(\w*?)\Q$stem\E(\w*)\b/$1$new$2/gi;
my %local = (ret => 'rc', port => 'bank', dev => 'device', pdev => 'plat',
	     val => 'value', reg => 'offset', gc => 'chip', irq => 'line',
	     mask => 'bits', i => 'n', flags => 'irqflags');
$src =~ s/\b(\w+)\b/exists $local{$1} ? $local{$1} : $1/ge;

# functions: blocks from a line starting a definition to the "}" closing it
my @lines = split /^/, $src;
my (@out, @blocks, $cur);
for my $l (@lines) {
	if (!defined $cur && $l =~ /^(static |int |void |u32 |unsigned )\S.*\(/ &&
	    $l !~ /;\s*$/) {
		$cur = '';
	}
	if (defined $cur) {
		$cur .= $l;
		if ($l =~ /^}/) {
			push @blocks, $cur;
			push @out, \$blocks[-1];
			undef $cur;
		}
		next;
	}
	push @out, $l;
}
push @out, $cur if defined $cur;
for (my $i = 0; $i + 1 < @blocks; $i += 2) {
	@blocks[$i, $i + 1] = @blocks[$i + 1, $i];
}
print map { ref $_ ? $$_ : $_ } @out;
