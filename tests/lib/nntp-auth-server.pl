#!/usr/bin/perl
# An NNTP reader server on 127.0.0.1 with STARTTLS (RFC 4642) and AUTHINFO
# USER/PASS (RFC 4643), for what public-inbox-nntpd cannot show: it has
# no AUTHINFO.  It keeps a transcript of every line it receives, marked
# "plain" or "tls", so a test can tell whether a password went in clear.
#
#   nntp-auth-server.pl PORTFILE TRANSCRIPT MODE CERT KEY PASSWORD MAIL...
#
# MODE: plain (no STARTTLS offered), starttls, inject (STARTTLS answered
# with a second response line before the handshake).  The group is
# "test.group", its articles the MAIL files, numbered from 1.  Articles
# need AUTHINFO (480 before it), user "armbot" with PASSWORD.  Writes its
# port to PORTFILE; serves one connection at a time until killed.
use strict;
use warnings;
use FindBin;
use IO::Socket::INET;
require "$FindBin::Bin/listen.pl";
use IO::Socket::SSL;

my ($portfile, $transcript, $mode, $cert, $key, $password, @mails) = @ARGV;
my @articles = map {
	open my $fh, '<', $_ or die "$_: $!\n";
	local $/;
	my $text = <$fh>;
	$text =~ s/\r?\n/\r\n/g;
	$text =~ s/^\./../mg;	# RFC 3977 3.1.1: dot-stuffing
	$text;
} @mails;

my $srv = listen_loopback($portfile);
open my $log, '>>', $transcript or die "$transcript: $!\n";
$log->autoflush(1);

while (my $c = $srv->accept) {
	$c->autoflush(1);
	my ($tls, $user, $authed, $group) = (0, undef, 0, undef);
	print $c "200 armbot test news server ready\r\n";
	while (defined(my $line = <$c>)) {
		print $log ($tls ? 'tls' : 'plain'), ": $line";
		$line =~ s/\r?\n$//;
		my ($cmd, @args) = split / /, $line;
		$cmd = uc($cmd // '');
		if ($cmd eq 'CAPABILITIES') {
			print $c "101 capabilities\r\nVERSION 2\r\nREADER\r\n";
			print $c "STARTTLS\r\n" if $mode ne 'plain' && !$tls;
			print $c "AUTHINFO USER\r\n" if $tls || $mode eq 'plain';
			print $c ".\r\n";
		} elsif ($cmd eq 'STARTTLS' && $mode ne 'plain' && !$tls) {
			if ($mode eq 'inject') {
				print $c "382 go ahead\r\n281 injected\r\n";
			} else {
				print $c "382 go ahead\r\n";
			}
			IO::Socket::SSL->start_SSL($c, SSL_server => 1,
				SSL_cert_file => $cert, SSL_key_file => $key)
				or last;
			($tls, $user, $authed) = (1, undef, 0);
		} elsif ($cmd eq 'MODE') {
			print $c "201 reader mode, no posting\r\n";
		} elsif ($cmd eq 'AUTHINFO' && uc($args[0] // '') eq 'USER') {
			$user = $args[1];
			print $c "381 password required\r\n";
		} elsif ($cmd eq 'AUTHINFO' && uc($args[0] // '') eq 'PASS') {
			my $pass = join ' ', @args[1 .. $#args];
			if (defined $user && $user eq 'armbot' &&
			    $pass eq $password) {
				$authed = 1;
				print $c "281 authentication accepted\r\n";
			} else {
				print $c "481 authentication failed\r\n";
			}
		} elsif (!$authed && ($cmd eq 'GROUP' || $cmd eq 'ARTICLE')) {
			print $c "480 authentication required\r\n";
		} elsif ($cmd eq 'GROUP' && ($args[0] // '') eq 'test.group') {
			$group = 1;
			printf $c "211 %d 1 %d test.group\r\n", scalar @articles,
				scalar @articles;
		} elsif ($cmd eq 'GROUP') {
			print $c "411 no such group\r\n";
		} elsif ($cmd eq 'ARTICLE' && $group && ($args[0] // '') =~
			 /^(\d+)$/ && $1 >= 1 && $1 <= @articles) {
			print $c "220 $1 <article-$1\@armbot.test>\r\n",
				$articles[$1 - 1], ".\r\n";
		} elsif ($cmd eq 'ARTICLE') {
			print $c "423 no such article\r\n";
		} elsif ($cmd eq 'QUIT') {
			print $c "205 bye\r\n";
			last;
		} else {
			print $c "500 unknown command\r\n";
		}
	}
	close $c;
}
