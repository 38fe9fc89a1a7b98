/* Findings: every code is documented, with its severity. */
#include "lxgpu/judge.h"
#include "lxgpu/observe.h"
#include "lxgpu/predict.h"
#include "lxgpu/walk.h"
#include "tap.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char *doc = NULL;
	struct lx_error err = {0};
	if (lx_read_file(argv[1], 1 << 20, &doc, NULL, &err) < 0) {
		printf("Bail out! %s\n", err.message);
		return 1;
	}
	for (int code = 1; code < LX_FINDING_CODES_END; code++) {
		const struct lx_finding_info *info = lx_finding_info((enum lx_finding_code)code);
		if (!info)
			continue; /* between the code blocks */
		char *row = lx_xasprintf("| %s | %s |", info->code, lx_severity_name(info->severity));
		if (!ok(strstr(doc, row) != NULL, info->code))
			printf("#   docs/findings.md lacks the row '%s'\n", row);
		char expect[8];
		snprintf(expect, sizeof(expect), "LXG%03d", code);
		str_eq(info->code, expect, "codes are numbered in order");
		free(row);
	}
	ok(lx_finding_info(LX_FINDING_CODES_END) == NULL, "no code past the end");
	free(doc);
	return tap_done();
}
