#!/usr/bin/perl
# A misbehaving server on 127.0.0.1 for the parsers' error paths:
#   fake-server.pl PORTFILE imap-garbage|imap-truncated|nntp-garbage|http-garbage
# writes the port it listens on to PORTFILE, serves connections one at a
# time until killed.
use strict;
use warnings;
use FindBin;
use IO::Socket::INET;
require "$FindBin::Bin/listen.pl";

my ($portfile, $mode) = @ARGV;
my $srv = listen_loopback($portfile);

while (my $c = $srv->accept) {
	$c->autoflush(1);
	if ($mode =~ /^imap/) {
		print $c "* OK [CAPABILITY IMAP4rev1] fake\r\n";
		while (my $line = <$c>) {
			my ($tag, $cmd) = $line =~ /^(\S+) (.*?)\r?\n/ or last;
			if ($cmd =~ /^LOGIN/i) {
				print $c "$tag OK logged in\r\n";
			} elsif ($cmd =~ /^CAPABILITY/i) {
				print $c "* CAPABILITY IMAP4rev1\r\n$tag OK done\r\n";
			} elsif ($cmd =~ /^SELECT/i && $mode eq 'imap-garbage') {
				print $c "* 2 EXISTS\r\n* OK [UIDVALIDITY 7] x\r\n",
					"* \x01\x02 ((( ]]] {oops\r\n",
					"$tag OK [READ-WRITE] done\r\n";
			} elsif ($cmd =~ /^SELECT/i) {
				print $c "* 2 EXISTS\r\n* OK [UIDVALIDITY 7] x\r\n",
					"* OK [UIDNEXT 3] x\r\n",
					"$tag OK [READ-WRITE] done\r\n";
			} elsif ($cmd =~ /^UID SEARCH/i) {
				print $c "* SEARCH 1 2\r\n$tag OK done\r\n";
			} elsif ($cmd =~ /^UID FETCH/i) {
				# a literal announced longer than what comes
				print $c "* 1 FETCH (UID 1 BODY[] {5000}\r\n",
					"Subject: cut short\r\n";
				last;
			} else {
				print $c "$tag OK done\r\n";
			}
		}
	} elsif ($mode eq 'nntp-garbage') {
		print $c "200 fake\r\n";
		while (my $line = <$c>) {
			if ($line =~ /^GROUP/i) {
				print $c "211 lots of garbage here\r\n";
			} elsif ($line =~ /^MODE/i) {
				print $c "200 reader\r\n";
			} else {
				print $c "500 what\r\n";
			}
		}
	} elsif ($mode eq 'http-garbage') {
		while (my $line = <$c>) { last if $line =~ /^\r?\n$/ }
		my $body = "<?xml version=\"1.0\"?><feed><entry><link href=" .
			"\"http://x/y/\"/><updated>2020-06-14T00:00:00Z" .
			"</updated></entry><entry><oops></feed>";
		print $c "HTTP/1.1 200 OK\r\nContent-Type: application/atom+xml",
			"\r\nContent-Length: ", length($body),
			"\r\nConnection: close\r\n\r\n$body";
	}
	close $c;
}
