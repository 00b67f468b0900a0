#!/usr/bin/perl
# The test runner of make check: prove's harness (TAP::Harness, with
# prove --timer's output and summary), two tests at a time.  The
# end-to-end tests (tests/e2e/: kernel builds and boots that share the
# cache's build dirs and use both cores) and the timed server tests run
# one after another; beside
# them, from the start, the other tests (unit, conformance, ASan), which
# mostly wait on servers and pipes.  (prove -j2 --rules=seq=... runs the
# sequential group only after the parallel one, so the two do not
# overlap: hence this script.)
#
# usage: perl tests/harness.pl [-jN] TEST...
use strict;
use warnings;
use TAP::Harness;

my $jobs = 2;
if (@ARGV && $ARGV[0] =~ /^-j(\d+)$/) {
	$jobs = $1;
	shift @ARGV;
}
# in sequence too: the tests that time a server against hostile clients
# (web-limits: 5,000 connections within 10 s), which a kernel build beside
# them could slow past their limits
sub alone { $_[0] =~ m{(^|/)tests/e2e/|web-limits\.t$} }
my @seq = grep { alone($_) } @ARGV;
my @par = grep { !alone($_) } @ARGV;
my $harness = TAP::Harness->new({
	jobs  => $jobs,
	timer => 1,
	rules => { par => [ { seq => [@seq] }, { par => [@par] } ] },
});
my $aggregate = $harness->runtests(@seq, @par);
exit($aggregate->all_passed ? 0 : 1);
