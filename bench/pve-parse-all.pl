#!/usr/bin/perl
# bench/pve-parse-all.pl LIB:STUBS < FILES: Proxmox VE's own parser
# (PVE::LXC::Config::parse_pct_config, loaded from the sources that
# ../shared/tools/pve-oracle/get-lib.sh extracts, with that tool's stubs)
# over every file named on stdin, in one process, as pmxcfs hands a config
# to it. Prints the nanoseconds that reading and parsing them took (loading
# the modules is left out) and how many it parsed; bench/audit.sh compares
# lxgpu with it. Dies when a file cannot be read or does not parse.
use strict;
use warnings;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my ($lib, $stubs) = split(/:/, shift(@ARGV) // '', 2);
die "usage: $0 LIB:STUBS < FILES\n" if !$lib || !$stubs;
unshift @INC, $stubs, $lib; # the stubs win over the extracted modules
{
	local $SIG{__WARN__} = sub { };
	require PVE::LXC::Config;
}
my @files = map { chomp; $_ } <STDIN>;
my $start = clock_gettime(CLOCK_MONOTONIC);
my $n = 0;
{
	local $SIG{__WARN__} = sub { }; # the broken cases warn, as they should
	for my $file (@files) {
		my ($vmid) = $file =~ m{(\d+)\.conf$} or die "no VMID in $file\n";
		open(my $fh, '<:raw', $file) or die "cannot read $file: $!\n";
		my $raw = do { local $/; <$fh> };
		close($fh);
		my $conf = PVE::LXC::Config::parse_pct_config("/etc/pve/nodes/node/lxc/$vmid.conf", $raw, 0)
			or die "$file: nothing parsed\n";
		$n++;
	}
}
my $ns = int((clock_gettime(CLOCK_MONOTONIC) - $start) * 1e9);
print "$ns $n\n";
