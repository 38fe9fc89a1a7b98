/* The names of the styles lxgpu writes GPU lines in (generate --style, the
 * record of what apply gave a container). */
#include "lxgpu/config.h"

static const char *const style_names[] = {
	[LX_STYLE_DEVN] = "devn",
	[LX_STYLE_RAW] = "raw",
	[LX_STYLE_LXC] = "lxc",
	[LX_STYLE_CDI] = "cdi",
	[LX_STYLE_INCLUDE] = "include",
};

const char *lx_style_name(enum lx_style style)
{
	return style_names[style];
}

bool lx_style_from_name(const char *name, enum lx_style *out)
{
	int i = lx_name_index(style_names, sizeof(style_names) / sizeof(style_names[0]), name);
	if (i >= 0)
		*out = (enum lx_style)i;
	return i >= 0;
}
