package PVE::AccessControl;
# pve-lxc-config stub: pve-access-control (users, permissions); PVE::LXC `use`s it, update_lxc_config and the prestart hook call nothing in it.
# Any call into it dies loudly.
use strict;
use warnings;

our $AUTOLOAD;
sub AUTOLOAD {
    return if $AUTOLOAD =~ /::DESTROY$/;
    die "pve-oracle stub: $AUTOLOAD called - not available in the oracle\n";
}

1;
