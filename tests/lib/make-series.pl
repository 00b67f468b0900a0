#!/usr/bin/perl
# Make a patch series as a list would distribute it, from git format-patch
# files (real patches: tests use the arm61 corpus or patches made with git):
# a cover letter (with --cover), then "[PATCH i/n]" mails threaded under it,
# From the given author, To and List-Post the given list.
#
# usage: make-series.pl --id TAG --from 'Name <addr>' --list ADDR
#            [--cover SUBJECT] [--version N] [--rfc] [--date EPOCH]
#            [--maildir DIR | --mbox FILE] PATCH...
# Message-IDs are <TAG.N@example.org> (N = 0 for the cover).  With
# --maildir each mail is delivered into DIR/new through DIR/tmp.
use strict;
use warnings;
use Getopt::Long;
use POSIX qw(strftime);

my ($id, $from, $list, $cover, $maildir, $mbox, $rfc);
my $version = 1;
my $date = time;
GetOptions('id=s' => \$id, 'from=s' => \$from, 'list=s' => \$list,
	   'cover=s' => \$cover, 'version=i' => \$version, 'rfc' => \$rfc,
	   'date=i' => \$date, 'maildir=s' => \$maildir, 'mbox=s' => \$mbox)
	or die "bad options\n";
die "usage: make-series.pl --id TAG --from FROM --list ADDR PATCH...\n"
	unless $id && $from && $list && @ARGV;

my $n = @ARGV;
my $tag = $rfc ? 'RFC PATCH' : 'PATCH';
$tag .= " v$version" if $version > 1;
(my $list_id = $list) =~ s/\@/./;
my @mails;

sub header {
	my ($subject, $num, $parent) = @_;
	my $h = "From: $from\nTo: $list\n";
	$h .= "Subject: $subject\n";
	$h .= "Date: " . strftime("%a, %d %b %Y %H:%M:%S +0000",
				  gmtime($date + $num)) . "\n";
	$h .= "Message-ID: <$id.$num\@example.org>\n";
	$h .= "In-Reply-To: <$parent>\nReferences: <$parent>\n" if $parent;
	$h .= "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n";
	$h .= "Content-Transfer-Encoding: 8bit\n";
	$h .= "List-Id: <$list_id>\nList-Post: <mailto:$list>\n";
	return $h;
}

my $parent = $cover ? "$id.0\@example.org" : undef;
if ($cover) {
	push @mails, header("[$tag 0/$n] $cover", 0, undef) .
		"\n$cover.\n\nThis series was made for armbot's tests.\n";
}
for my $i (1 .. $n) {
	my $file = $ARGV[$i - 1];
	open(my $fh, '<', $file) or die "$file: $!\n";
	local $/;
	my $text = <$fh>;
	close $fh;
	$text =~ s/\A>?From [^\n]*\n//;	# the mbox separator line
	my ($head, $body, $subject);
	if ($text =~ /\A(From|Subject|Date|To|Cc|Message-ID):/i) {
		($head, $body) = split(/\n\n/, $text, 2);
		$head =~ s/\n[ \t]+/ /g;	# unfold
		($subject) = $head =~ /^Subject:\s*(.*)$/mi;
	} elsif ($text =~ /\A(diff |--- |Index: )/) {
		# a bare diff: the subject from the file's name
		($subject = $file) =~ s{.*/|\.(patch|diff)\z}{}g;
		$subject =~ s/\A[0-9-]+//;
		$subject =~ tr/-_/  /;
		$body = $text;
	} else {
		# quilt's form: the subject line, a blank line, the rest
		($subject, $body) = split(/\n\n?/, $text, 2);
	}
	$body //= '';
	$subject = "patch $i" unless defined $subject && length $subject;
	$subject =~ s/^(\[[^\]]*\]\s*)+//;
	my $num = $n > 1 || $cover ? " $i/$n" : '';
	push @mails, header("[$tag$num] $subject", $i, $parent) . "\n" . $body;
	$parent //= "$id.1\@example.org";
}

my $seq = 0;
for my $m (@mails) {
	$m .= "\n" unless $m =~ /\n\z/;
	if ($maildir) {
		my $name = sprintf("%d.%s-%d.test", $date, $id, $seq++);
		open(my $out, '>', "$maildir/tmp/$name") or die "$maildir: $!\n";
		print $out $m;
		close $out;
		rename("$maildir/tmp/$name", "$maildir/new/$name") or die "$!\n";
	} else {
		print "From armbot-test Thu Jan  1 00:00:00 1970\n$m\n";
	}
}
