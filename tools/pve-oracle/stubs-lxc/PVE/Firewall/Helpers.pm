package PVE::Firewall::Helpers;
# pve-lxc-config stub: pve-firewall; PVE::LXC `use`s it for network hotplug, which the oracle never reaches.
# Any call into it dies loudly.
use strict;
use warnings;

our $AUTOLOAD;
sub AUTOLOAD {
    return if $AUTOLOAD =~ /::DESTROY$/;
    die "pve-oracle stub: $AUTOLOAD called - not available in the oracle\n";
}

1;
