package PVE::LXC::Setup;
# pve-lxc-config stub for pve-container's PVE::LXC::Setup: the prestart
# hook's per-distribution setup inside the CT's rootfs (hostname, network
# files, systemd checks). It writes into the rootfs only, never the LXC
# config or the device nodes, and the oracle has no rootfs.
use strict;
use warnings;

sub new { my ($class) = @_; return bless {}, $class; }
sub pre_start_hook { }
sub unified_cgroupv2_support { return 1; }

1;
