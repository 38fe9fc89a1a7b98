/* libFuzzer target: the ELF .modinfo reader (module files are data). */
#include "lxgpu/predict.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_strv fields = {0};
	struct lx_error err = {0};
	if (lx_modinfo_parse_elf("fuzz.ko", data, size, &fields, &err) < 0 && !err.message)
		__builtin_trap();
	for (size_t i = 0; i < fields.n; i++)
		if (!strchr(fields.items[i], '='))
			__builtin_trap(); /* only key=value strings */
	(void)lx_modinfo_get(&fields, "version");
	lx_strv_free(&fields);
	lx_error_clear(&err);
	return 0;
}
