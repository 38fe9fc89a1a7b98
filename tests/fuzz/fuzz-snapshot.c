/* libFuzzer target: snapshot loading (YAML and .tar.gz bundles).
 * Oracle: whatever loads must save, load and save again to the same bytes. */
#include "lxgpu/host.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_host host;
	struct lx_error err = {0};
	if (lx_snapshot_load_buffer("fuzz", (const char *)data, size, &host, &err) < 0) {
		if (!err.message)
			__builtin_trap(); /* every failure must say why */
		lx_error_clear(&err);
		return 0;
	}
	char *first = lx_snapshot_to_yaml(&host);
	struct lx_host again;
	if (lx_snapshot_parse("fuzz-again", first, strlen(first), &again, &err) < 0)
		__builtin_trap(); /* our own output must load */
	char *second = lx_snapshot_to_yaml(&again);
	if (strcmp(first, second) != 0)
		__builtin_trap(); /* save, load, save must be byte-identical */
	free(first);
	free(second);
	lx_host_free(&again);
	lx_host_free(&host);
	return 0;
}
