package PVE::Cluster;
# Stub for pve-cluster's PVE::Cluster (needs the pmxcfs daemon and its IPC).
# PVE::LXC::Config only calls cfs_register_file() at load time; the oracle
# hands files to the parser itself, so the registration is just recorded.
# Anything else (cfs_read_file for datacenter.cfg, ...) is only reached from
# network/tag/update paths the oracle never calls, and dies loudly.
use strict;
use warnings;
use base 'Exporter';
our @EXPORT_OK = qw(cfs_register_file);

our %registered;
sub cfs_register_file { my ($path, $parser, $writer) = @_; $registered{$path} = [$parser, $writer]; }

# pve-lxc-config: a CT config read as pmxcfs serves it, from %files (path
# relative to /etc/pve => raw bytes), through the parser registered for it;
# quorum is always there.
our %files;
sub cfs_read_file {
    my ($path) = @_;
    my $raw = $files{$path};
    return undef if !defined($raw);
    for my $re (keys %registered) {
        next if $path !~ m/\Q$re\E/;
        return $registered{$re}->[0]->("/etc/pve/$path", $raw);
    }
    die "pve-oracle stub: no parser registered for $path\n";
}
sub check_cfs_quorum { return 1; }

our $AUTOLOAD;
sub AUTOLOAD {
    return if $AUTOLOAD =~ /::DESTROY$/;
    die "pve-oracle stub: $AUTOLOAD called - not available in the oracle\n";
}

1;
