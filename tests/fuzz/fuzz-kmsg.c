/* libFuzzer target: a saved kernel log, parsed and matched against the
 * catalogue. Any input: no crash; every match lies inside the log and its
 * evidence is the lines it names; the firmware requests it yields are safe
 * names. */
#include "lxgpu/doctor.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_kmsg k;
	lx_kmsg_parse_text("fuzz", (const char *)data, size, &k);
	if (k.boots < 1)
		__builtin_trap();
	struct lx_kmsg_matches m;
	struct lx_error err = {0};
	if (lx_kmsg_match_all(&k, NULL, &m, &err) < 0)
		__builtin_trap(); /* the catalogue always compiles */
	for (size_t i = 0; i < m.n; i++) {
		if (m.items[i].first > m.items[i].last || m.items[i].last >= k.n || !m.items[i].count)
			__builtin_trap();
		char *ev = lx_kmsg_match_evidence(&k, &m, &m.items[i]);
		if (!strstr(ev, k.lines[m.items[i].last].raw))
			__builtin_trap();
		free(ev);
	}
	lx_kmsg_matches_free(&m);
	/* the firmware files a DRM driver asked for: only safe relative
	 * names, of amdgpu, i915 or xe, each once */
	struct lx_fw_request *r;
	size_t n;
	lx_kmsg_firmware_requests(&k, &r, &n);
	for (size_t i = 0; i < n; i++) {
		if (!lx_firmware_name_valid(r[i].name) || !lx_drm_gpu_driver(r[i].driver))
			__builtin_trap();
		for (size_t j = 0; j < i; j++)
			if (strcmp(r[i].name, r[j].name) == 0)
				__builtin_trap();
	}
	lx_fw_requests_free(r, n);
	lx_kmsg_free(&k);
	return 0;
}
