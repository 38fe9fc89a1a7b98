/* libFuzzer target: the YAML line reader against libyaml.
 * Oracle: libyaml. Whatever the line reader takes, libyaml's reader must
 * take too, with the same tree (values, kinds, keys, lines). */
#include "src/report/doc-arena.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lx_doc *fast = NULL, *slow = NULL;
	struct lx_error err = {0};
	if (lx_yaml_read_lines((const char *)data, size, &fast) == 1) {
		if (lx_yaml_read_libyaml("fuzz", (const char *)data, size, &slow, &err) < 0)
			__builtin_trap(); /* taken, but not YAML libyaml reads */
		if (!lx_doc_identical(fast, slow))
			__builtin_trap(); /* taken, but read differently */
	}
	lx_error_clear(&err);
	lx_doc_free(fast);
	lx_doc_free(slow);
	return 0;
}
