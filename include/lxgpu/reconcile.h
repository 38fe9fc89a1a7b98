/* reconcile: apply's minimal edit of a container config, judged by the
 * effective-access model (src/access/reconcile.c says the rules). */
#ifndef LXGPU_RECONCILE_H
#define LXGPU_RECONCILE_H

#include "lxgpu/access.h"
#include "lxgpu/plan.h"
#include "lxgpu/render.h"

struct lx_reconcile_input {
	const struct lx_host *host;
	const struct lx_conf *conf; /* the config as it is */
	bool is_pve;
	const struct lx_access_options *access_opts; /* NULL: defaults */
	const struct lx_plan_options *plan_opts;     /* GPUs, style, dri/caps, ... */
	const struct lx_render_options *render_opts;
	int set_unprivileged; /* as lx_conf_rewrite's */
	bool asked_dri;  /* --dri given: DRM nodes may be added */
	bool asked_caps; /* --caps given: capability nodes may be added */
	/* lxgpu's include file of this container (lx_incfile_path): --style
	 * include writes it and adds the one line; another style takes that
	 * line out. NULL: no include file is considered. */
	const char *include_path;
};

struct lx_reconcile_result {
	char *text; /* the new config */
	size_t len;
	size_t removed, added; /* lines */
	struct lx_access after; /* the new config's next start */
	struct lx_strv notes;   /* what the user should know (nodes the host lacks, ...) */
	char *include_text;     /* --style include: the include file's new text; else NULL */
};

int lx_reconcile(const struct lx_reconcile_input *in, struct lx_reconcile_result *out,
		 struct lx_error *err);
void lx_reconcile_result_free(struct lx_reconcile_result *r);

#endif
