/* render: the device plan as config text, through the templates in
 * templates/ (compiled in; --templates DIR overrides them). */
#ifndef LXGPU_RENDER_H
#define LXGPU_RENDER_H

#include "lxgpu/inject.h"
#include "lxgpu/plan.h"
#include "lxgpu/report.h"

struct lx_builtin_template {
	const char *name; /* "devn.tmpl" */
	const char *text;
};
/* NULL-terminated; generated at build time from the files in templates/. */
extern const struct lx_builtin_template lx_builtin_templates[];

struct lx_render_options {
	/* --driver-libs: the lxc.hook.mount line (and the CDI mounts); NULL: none */
	const struct lx_driver_libs_options *driver_libs;
	const char *templates_dir; /* NULL: the compiled-in templates */
	const char *version;       /* lxgpu's, for the header */
	bool no_comments;          /* leave out '#' lines (PVE makes them the description) */
	/* No container to read the privilege from: the header says what was
	 * assumed and why (NULL: it was known) */
	const char *privilege_assumed;
};

/* The CDI kind of lxgpu's spec: not nvidia-ctk's nvidia.com/gpu, so both
 * specs can sit in /etc/cdi without a device name clash (docs/templates.md). */
#define LX_CDI_KIND "lxgpu/gpu"

/* The document the templates see (documented in docs/templates.md): all
 * of it with tmpl NULL, else the parts that tmpl reads. */
struct lx_template;
struct lx_doc *lx_render_context(const struct lx_host *host, const struct lx_plan *plan,
				 const struct lx_render_options *opts,
				 const struct lx_template *tmpl);
/* The lowest CDI spec version that the plan's spec needs. */
const char *lx_render_cdi_version(const struct lx_host *host, const struct lx_plan *plan);
/* Render the plan in its style. */
int lx_render_plan(const struct lx_host *host, const struct lx_plan *plan,
		   const struct lx_render_options *opts, char **out, struct lx_error *err);

#endif
