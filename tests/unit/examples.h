/* Loading the example hosts in unit tests. */
#ifndef LXGPU_TEST_EXAMPLES_H
#define LXGPU_TEST_EXAMPLES_H

#include "lxgpu/host.h"

#include <stdio.h>
#include <stdlib.h>

/* examples/hosts/<name>.yaml into *h; a failure ends the test (TAP bail out). */
static inline void load_example(const char *dir, const char *name, struct lx_host *h)
{
	char *path = lx_xasprintf("%s/%s.yaml", dir, name);
	struct lx_error err = {0};
	if (lx_snapshot_load(path, h, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		exit(1);
	}
	free(path);
}

#endif
