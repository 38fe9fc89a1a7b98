/* libFuzzer target: the guard's container records (config/record.c).
 * Oracle: every failure says why; whatever parses must write, parse and
 * write again to the same bytes. */
#include "lxgpu/record.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_record rec;
	struct lx_error err = {0};
	if (lx_record_parse("fuzz", (const char *)data, size, &rec, &err) < 0) {
		if (!err.message)
			__builtin_trap();
		lx_error_clear(&err);
		return 0;
	}
	char *first = lx_record_to_yaml(&rec);
	struct lx_record again;
	if (lx_record_parse("fuzz-again", first, strlen(first), &again, &err) < 0)
		__builtin_trap(); /* our own output must parse */
	char *second = lx_record_to_yaml(&again);
	if (strcmp(first, second) != 0)
		__builtin_trap();
	free(first);
	free(second);
	lx_record_free(&again);
	lx_record_free(&rec);
	return 0;
}
