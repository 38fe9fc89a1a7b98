/* Unit tests of src/host/publish.c: node names, the .rrd reader, the stamp.
 * Expected values come from pve-cluster and pve-manager: pmxcfs's node name
 * rule (src/pmxcfs/memdb.c valid_nodename: letters, digits, '-' not first
 * or last), pvestatd's node status ("pve2-node/<node>" then uptime,
 * subscription level, ctime, ...: PVE/Service/pvestatd.pm), PVE 9's key
 * form ("pve-node-9.0/<node>", same leading columns: status.c skips 2), and
 * cfs_rrd_dump's output ("key:data" lines and a NUL, which the file
 * /etc/pve/.rrd leaves out: cfs-plug-func.c reads strlen bytes). */
#include "lxgpu/cluster.h"
#include "tap.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_node_names(void)
{
	ok(lx_cluster_node_name_valid("pve1"), "pve1 is a node name");
	ok(lx_cluster_node_name_valid("PVE-01"), "letters, digits and an inner '-'");
	ok(lx_cluster_node_name_valid("a"), "one letter");
	ok(!lx_cluster_node_name_valid("-pve"), "not a leading '-'");
	ok(!lx_cluster_node_name_valid("pve-"), "not a trailing '-'");
	ok(!lx_cluster_node_name_valid("pve1.example.com"), "not a dot (PVE strips the domain)");
	ok(!lx_cluster_node_name_valid("pve_1"), "not an underscore");
	ok(!lx_cluster_node_name_valid("../x"), "not a path");
	ok(!lx_cluster_node_name_valid(""), "not empty");
}

static void test_rrd(void)
{
	/* uptime 3600 at ctime 1764590000: booted 1764586400 */
	static const char dump[] =
		"pve2.3-vm/100:3590:vm100:running:0:1764590000:qemu:4:0.02:8589934592:4294967296\n"
		"pve2-node/pve10:99:::\n"
		"pve2-node/pve1:3600::1764590000:0.15:32:0.02:0.001:134906617856:9071239168:8589930496:0:"
		"100861726720:5179236352:81929371:21773952\n"
		"pve2-storage/pve1/local:1764590000:100861726720:5179236352\n";
	long long boot = 0, when = 0;
	ok(lx_rrd_node_boot_time(dump, sizeof(dump), "pve1", &boot, &when),
	   "pve1's status is found (with the NUL of the IPC form too)");
	int_eq(boot, 1764586400, "boot = ctime - uptime");
	int_eq(when, 1764590000, "the status time is ctime");
	ok(!lx_rrd_node_boot_time(dump, sizeof(dump), "pve", &boot, &when),
	   "no entry for a prefix of a node's name");
	ok(!lx_rrd_node_boot_time(dump, sizeof(dump), "vm100", &boot, &when),
	   "a VM's entry is not a node's");
	ok(!lx_rrd_node_boot_time(dump, sizeof(dump), "local", &boot, &when),
	   "a storage entry is not a node's");
	ok(!lx_rrd_node_boot_time(dump, sizeof(dump), "pve10", &boot, &when),
	   "an entry without ctime gives no boot");

	static const char pve9[] = "pve-node-9.0/pve2:7200.37:c:1764590000:0.1:16\n"
				   "pve2-node/pve2:100::1764589000:0.1:16\n";
	ok(lx_rrd_node_boot_time(pve9, strlen(pve9), "pve2", &boot, &when),
	   "PVE 9's key form pve-node-9.0/<node>");
	int_eq(boot, 1764590000 - 7200, "the newest of two entries wins; uptime's fraction is cut");

	static const char bad[] = "pve2-node/pve3:5000::4000:0.1\npve2-node/pve4:x::1764590000:0\n";
	ok(!lx_rrd_node_boot_time(bad, strlen(bad), "pve3", &boot, &when),
	   "an uptime longer than the time since the epoch is no boot");
	ok(!lx_rrd_node_boot_time(bad, strlen(bad), "pve4", &boot, &when), "a non-numeric uptime");
	ok(!lx_rrd_node_boot_time("", 0, "pve1", &boot, &when), "an empty dump");
}

static void test_stamp(void)
{
	char dir[] = "/tmp/lxgpu-test-cluster-XXXXXX";
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	_cleanup_free_ char *stat_path = lx_path_join(dir, "stat");
	FILE *f = fopen(stat_path, "w");
	fputs("cpu  1 2 3 4\nintr 5\nctxt 6\nbtime 1764500000\nprocesses 7\n", f);
	fclose(f);
	struct lx_host host = {0};
	struct lx_error err = {0};
	ok(lx_publication_stamp(&host, dir, "pve1", 1764590000, &err) == 0, "stamp from <proc>/stat");
	ok(host.published.present, "the model is stamped");
	str_eq(host.published.node, "pve1", "node");
	int_eq(host.published.boot_time, 1764500000, "boot time: btime");
	ok(host.published.boot_id == NULL, "no boot_id file: null");
	int_eq(host.published.scanned_at, 1764590000, "scan time");
	ok(lx_publication_stamp(&host, dir, "bad_name", 1, &err) < 0 && err.message,
	   "a name outside the LDH rule is refused");
	lx_error_clear(&err);
	ok(lx_publication_stamp(&host, "/nonexistent", "pve1", 1, &err) < 0 && err.message,
	   "no <proc>/stat: an error naming it");
	lx_error_clear(&err);
	lx_host_free(&host);
	unlink(stat_path);
	rmdir(dir);
}

int main(void)
{
	test_node_names();
	test_rrd();
	test_stamp();
	return tap_done();
}
