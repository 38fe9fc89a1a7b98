package PVE::Storage;
# Stand-in for pve-storage's PVE::Storage, which needs storage.cfg and the
# storage plugins. The config parser needs two things from it: a
# 'pve-volume-id' schema format (unusedN, hookscript) and parse_volume_id()
# (write_pct_config walks the volumes). A volume id is "STORAGE:NAME" where
# the storage id starts with a letter and ends with a letter or digit.
use strict;
use warnings;
use PVE::JSONSchema;

PVE::JSONSchema::register_format('pve-volume-id', \&parse_volume_id);

sub parse_volume_id {
    my ($volid, $noerr) = @_;
    my ($storage, $name) = split(/:/, $volid // '', 2);
    my $ok = defined($name) && length($name)
        && $storage =~ /^[A-Za-z](?:[A-Za-z0-9_.\-]*[A-Za-z0-9])?$/;
    if (!$ok) {
        return undef if $noerr;
        die "unable to parse volume ID '$volid'\n";
    }
    return wantarray ? ($storage, $name) : $storage;
}

# pve-lxc-config: the prestart hook reads storage.cfg; the oracle has none
# (its volume mounts are stubbed out in pve-lxc-config).
sub config { return { ids => {} }; }

1;
