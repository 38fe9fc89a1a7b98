/* libFuzzer target: the parsers of /proc files. Any input: no crash, and a
 * failure always carries a message. */
#include "lxgpu/cluster.h"
#include "lxgpu/host.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = lx_xstrndup((const char *)data, size);
	struct lx_error err = {0};

	char *version = NULL;
	enum lx_driver_flavor flavor;
	if (lx_parse_nvidia_version(text, &version, &flavor, &err) < 0 && !err.message)
		__builtin_trap();
	free(version);
	lx_error_clear(&err);

	struct lx_gpu_information info;
	if (lx_parse_gpu_information(text, &info, &err) == 0)
		lx_gpu_information_free(&info);
	else if (!err.message)
		__builtin_trap();
	lx_error_clear(&err);

	struct lx_host host = {0};
	if (lx_parse_proc_devices(text, &host.majors, &host.n_majors, &err) < 0 && !err.message)
		__builtin_trap();
	lx_error_clear(&err);
	lx_parse_proc_modules(text, &host.driver.modules);
	lx_host_free(&host);

	(void)lx_parse_cgroup_layout(text);
	unsigned minor;
	if (lx_parse_capability_minor(text, &minor, &err) < 0 && !err.message)
		__builtin_trap();
	lx_error_clear(&err);

	struct lx_pci_bar *bars = NULL;
	size_t n_bars = 0;
	if (lx_parse_pci_resource(text, &bars, &n_bars, &err) < 0 && !err.message)
		__builtin_trap();
	if (n_bars > 6)
		__builtin_trap(); /* the standard BARs only */
	for (size_t i = 0; i < n_bars; i++)
		(void)lx_pci_bar_size(&bars[i]);
	free(bars);
	lx_error_clear(&err);
	/* Config space is binary: the raw bytes, as sysfs gives them. */
	enum lx_acs_state acs;
	uint16_t acs_cap, acs_ctrl;
	if (lx_parse_pci_config_acs(data, size, &acs, &acs_cap, &acs_ctrl, &err) < 0 &&
	    (!err.message || acs != LX_ACS_UNKNOWN))
		__builtin_trap(); /* an error always leaves the state unknown */
	if (size < 4096 && acs != LX_ACS_UNKNOWN)
		__builtin_trap(); /* fewer than 4096 bytes is never a guess */
	lx_error_clear(&err);

	char *bdf = NULL;
	if (lx_pci_address_normalize(text, &bdf)) {
		char *again = NULL;
		if (!lx_pci_address_normalize(bdf, &again) || strcmp(bdf, again) != 0)
			__builtin_trap(); /* normalizing is idempotent */
		free(again);
	}
	free(bdf);

	/* pmxcfs's .rrd (raw bytes: it ends in a NUL): a boot never after its status time. */
	long long boot, when;
	if (lx_rrd_node_boot_time((const char *)data, size, "pve1", &boot, &when) &&
	    (boot < 0 || boot > when))
		__builtin_trap();
	(void)lx_cluster_node_name_valid(text);

	/* nvidia-smi -L and -q -x (the same bytes as both): every MIG UUID
	 * recorded is canonical, on a GPU of the host, and recorded once. */
	struct lx_gpu gpus[2] = {{.uuid = (char *)"GPU-9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f"},
				 {.uuid = (char *)"GPU-1f2e3d4c-5b6a-4798-8a9b-cdef01234567"}};
	struct lx_host smi_host = {.gpus = gpus, .n_gpus = 2};
	struct lx_mig_uuid *migs;
	size_t n_migs;
	lx_mig_uuids_from_nvsmi(&smi_host, text, text, &migs, &n_migs);
	for (size_t i = 0; i < n_migs; i++) {
		if (!lx_mig_uuid_is_canonical(migs[i].uuid) || migs[i].gpu >= 2 || migs[i].gi < 0 ||
		    migs[i].ci < 0)
			__builtin_trap();
		for (size_t k = 0; k < i; k++)
			if (strcmp(migs[k].uuid, migs[i].uuid) == 0)
				__builtin_trap();
	}
	smi_host.mig_uuids = migs;
	smi_host.n_mig_uuids = n_migs;
	size_t at;
	int gi, ci;
	if (lx_host_mig_by_uuid(&smi_host, text, &at, &gi, &ci) == LX_MIG_FOUND && at >= 2)
		__builtin_trap();
	for (size_t i = 0; i < n_migs; i++)
		free(migs[i].uuid);
	free(migs);
	free(text);
	return 0;
}
