# The listening socket of the fake servers (fake-server.pl,
# nntp-auth-server.pl): require it, then call listen_loopback(PORTFILE).
use strict;
use warnings;
use IO::Socket::INET;

# A socket listening on 127.0.0.1 on a port the kernel picks; the port is
# written to PORTFILE, which appears whole (written as PORTFILE.tmp, then
# renamed) for the test waiting on it.
sub listen_loopback {
	my ($portfile) = @_;
	my $srv = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1',
		LocalPort => 0, ReuseAddr => 1) or die "listen: $!\n";
	open my $pf, '>', "$portfile.tmp" or die "$portfile.tmp: $!\n";
	print $pf $srv->sockport, "\n";
	close $pf;
	rename "$portfile.tmp", $portfile or die "$portfile: $!\n";
	return $srv;
}

1;
