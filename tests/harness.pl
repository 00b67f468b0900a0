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
# Every test's TAP is kept in build/test-logs/ (TAP::Harness's
# PERL_TEST_HARNESS_DUMP_TAP), and after the summary each failed test's
# "not ok" lines are printed with the comments that follow them, so a CI
# log names what failed and why.
#
# usage: perl tests/harness.pl [-jN] TEST...
use strict;
use warnings;
use File::Path qw(remove_tree);
use TAP::Harness;

my $logs = 'build/test-logs';
remove_tree($logs);
$ENV{PERL_TEST_HARNESS_DUMP_TAP} = $logs;

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

# what failed: each "not ok" with its comments, or a test's last lines when
# it failed otherwise (exit status, plan); at most 60 lines a test
for my $test ($aggregate->descriptions) {
	my ($parser) = $aggregate->parsers($test);
	next unless $parser->has_problems;
	print "\n--- $test ($logs/$test)\n";
	open(my $fh, '<', "$logs/$test") or next;
	my @lines = <$fh>;
	close($fh);
	my ($show, @out) = (0);
	for (@lines) {
		if (/^\s*(not )?ok\b/) {
			$show = defined $1 && !/#\s*TODO/i;
		}
		push @out, $_ if $show;
	}
	@out = @lines[($#lines > 19 ? $#lines - 19 : 0) .. $#lines] unless @out;
	splice(@out, 60, @out - 60, "... (more in $logs/$test)\n") if @out > 60;
	print @out;
}
exit($aggregate->all_passed ? 0 : 1);
