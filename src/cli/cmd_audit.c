/* lxgpu audit: verify every container of the host (or cluster).
 *
 * The walk and the checks are the library's (lxgpu/audit.h): it hands each
 * container over as it is done, and this prints it at once, so memory does
 * not grow with their number. */
#include "cli.h"
#include "lxgpu/audit.h"
#include "lxgpu/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum audit_format { AUDIT_TEXT, AUDIT_JSON, AUDIT_YAML, AUDIT_PROMETHEUS };

/* The text table's columns; its rows are kept until the end, so that each
 * column is as wide as its widest cell. */
enum { COL_ID, COL_NAME, COL_NODE, COL_STATE, COL_GPUS, COL_STATUS, COL_FINDINGS, N_COLS };
static const char *const col_title[N_COLS] = {"CONTAINER", "NAME",   "NODE",    "STATE",
					      "GPUS",      "STATUS", "FINDINGS"};

struct row {
	char *cell[N_COLS]; /* escaped for the terminal */
	char *findings;     /* -v: its findings, printed after the table */
};

struct audit {
	struct cli *cli;
	struct row *rows;
	size_t n_rows;
	enum audit_format format;
	struct lx_json_writer json; /* the document, streamed one container at a time */
	FILE *gpus_family; /* Prometheus: the second metric family, emitted at the end */
};

/* ---- output ---- */

static char *codes_of(const struct lx_findings *f)
{
	struct lx_strv codes = {0};
	for (size_t i = 0; i < f->n; i++) {
		const char *code = lx_finding_info(f->items[i].code)->code;
		if (!lx_strv_contains(&codes, code))
			lx_strv_push(&codes, code);
	}
	lx_strv_sort(&codes);
	struct lx_buf b = {0};
	for (size_t i = 0; i < codes.n; i++)
		lx_buf_printf(&b, "%s%s", i ? " " : "", codes.items[i]);
	if (!codes.n)
		lx_buf_puts(&b, "-");
	lx_strv_free(&codes);
	return lx_buf_steal(&b);
}

static void emit_prometheus_findings(const char *node, const char *id, const struct lx_findings *f)
{
	_cleanup_free_ char *node_l = lx_prometheus_label(node);
	_cleanup_free_ char *id_l = lx_prometheus_label(id);
	/* One sample per code and severity present. */
	for (size_t i = 0; i < f->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= f->items[j].code == f->items[i].code &&
				f->items[j].severity == f->items[i].severity;
		if (seen)
			continue;
		size_t count = 0;
		for (size_t j = i; j < f->n; j++)
			count += f->items[j].code == f->items[i].code &&
				 f->items[j].severity == f->items[i].severity;
		printf("lxgpu_container_findings{node=\"%s\",container=\"%s\",code=\"%s\",severity=\"%s\"} "
		       "%zu\n",
		       node_l, id_l, lx_finding_info(f->items[i].code)->code,
		       lx_severity_name(f->items[i].severity), count);
	}
}

/* One container, as the library hands it over. */
static void emit_container(void *ctx, const struct lx_audit_container *c)
{
	struct audit *a = ctx;
	/* the container's findings, the library's until this returns: their
	 * fixes get this run's --host, --pve-dir, ... before anything prints
	 * (the plain table prints codes only: no fix to rewrite) */
	if (a->format != AUDIT_TEXT || a->cli->verbosity > 0)
		cli_fixes_with_context(a->cli, (struct lx_findings *)c->findings);
	const struct lx_findings *f = c->findings;
	const char *status = lx_audit_status_name(c->status);
	const char *state = c->local ? lx_run_state_name(c->state) : "-";
	switch (a->format) {
	case AUDIT_TEXT: {
		if (!c->has_gpus && f->n == 0)
			return; /* no GPU, nothing to say */
		a->rows = lx_xrealloc(a->rows, (a->n_rows + 1) * sizeof(*a->rows));
		struct row *r = &a->rows[a->n_rows++];
		/* Names come from directory names, configs and snapshots: escaped for the terminal. */
		r->cell[COL_ID] = lx_text_escape(c->id);
		r->cell[COL_NAME] = lx_text_escape(c->name ? c->name : "-");
		r->cell[COL_NODE] = lx_text_escape(c->node);
		r->cell[COL_STATE] = lx_xstrdup(state);
		r->cell[COL_GPUS] = c->gpus_known ? lx_xasprintf("%zu", c->gpus->n) : lx_xstrdup("?");
		/* coloured as verify's severities (the table counts no colour as a column) */
		const char *sgr = c->status == LX_AUDIT_ERROR ? lx_severity_sgr(LX_SEVERITY_ERROR)
				  : c->status == LX_AUDIT_WARNING || c->status == LX_AUDIT_UNKNOWN
					  ? lx_severity_sgr(LX_SEVERITY_WARNING)
				  : c->status == LX_AUDIT_OK ? LX_SGR_OK
							     : NULL;
		r->cell[COL_STATUS] = a->cli->color && sgr ? lx_xasprintf("%s%s%s", sgr, status, LX_SGR_RESET)
							   : lx_xstrdup(status);
		r->cell[COL_FINDINGS] = codes_of(f);
		r->findings = a->cli->verbosity > 0 && f->n ? lx_report_findings_text(f, a->cli->color, a->cli->wrap_width)
							    : NULL;
		return;
	}
	case AUDIT_PROMETHEUS: {
		emit_prometheus_findings(c->node, c->id, f);
		_cleanup_free_ char *node_l = lx_prometheus_label(c->node);
		_cleanup_free_ char *id_l = lx_prometheus_label(c->id);
		if (c->gpus_known) /* no sample for an unknown count */
			fprintf(a->gpus_family,
				"lxgpu_container_gpus{node=\"%s\",container=\"%s\",state=\"%s\"} %zu\n",
				node_l, id_l, state, c->gpus->n);
		return;
	}
	case AUDIT_JSON:
	case AUDIT_YAML: {
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "container", lx_doc_new_str(c->id));
		lx_doc_map_set(d, "node", lx_doc_new_str(c->node));
		lx_doc_map_set(d, "file", lx_doc_new_str(c->path));
		lx_doc_map_set(d, "state", lx_doc_new_str(state));
		/* null: the node has no host model to tell its GPUs by. */
		lx_doc_map_set(d, "gpus", c->gpus_known ? lx_doc_new_str_list(c->gpus) : lx_doc_new_null());
		lx_doc_map_set(d, "status", lx_doc_new_str(status));
		lx_doc_map_set(d, "findings", lx_report_findings_doc(f));
		if (a->format == AUDIT_JSON) {
			lx_json_value(&a->json, NULL, d); /* one object at a time */
		} else {
			struct lx_doc *one = lx_doc_new_list();
			lx_doc_list_push(one, d);
			char *text = lx_doc_to_yaml(one);
			fputs(text + strlen("---\n"), stdout);
			free(text);
			lx_doc_free(one);
			return;
		}
		lx_doc_free(d);
		return;
	}
	}
}

static void warn_node(void *ctx, const char *message)
{
	const struct audit *a = ctx;
	cli_warn(a->cli, "%s", message);
}

static void print_header(struct audit *a, const char *node, const struct lx_host *h)
{
	_cleanup_free_ char *name = lx_text_escape(node);
	_cleanup_free_ char *version = lx_text_escape(h->driver.version ? h->driver.version : "not loaded");
	struct lx_doc *host_doc = lx_doc_new_map();
	/* docs/schema/audit.json; "node" as in each container's entry. */
	lx_doc_map_set(host_doc, "schema", lx_doc_new_int(1));
	lx_doc_map_set(host_doc, "node", lx_doc_new_str(node));
	/* The host name through the writers: quoted and escaped as JSON/YAML need. */
	_cleanup_free_ char *host_yaml = a->format == AUDIT_YAML ? lx_doc_to_yaml(host_doc) : NULL;
	switch (a->format) {
	case AUDIT_TEXT:
		printf("Host %s: %zu GPU%s, driver %s\n", name, h->n_gpus, h->n_gpus == 1 ? "" : "s",
		       version);
		break; /* the table comes at the end (print_table) */
	case AUDIT_JSON:
		lx_json_open(&a->json, NULL, true);
		for (size_t i = 0; i < host_doc->n; i++)
			lx_json_value(&a->json, host_doc->keys[i], host_doc->items[i]);
		lx_json_open(&a->json, "containers", false);
		break;
	case AUDIT_YAML: printf("%scontainers:\n", host_yaml); break;
	case AUDIT_PROMETHEUS:
		printf("# HELP lxgpu_container_findings Findings of lxgpu audit, per container, code and "
		       "severity.\n# TYPE lxgpu_container_findings gauge\n");
		break;
	}
	lx_doc_free(host_doc);
}

/* Where audit looked for containers, for a run that found none. */
static void print_nothing_found(const struct cli *cli)
{
	_cleanup_free_ char *pve = lx_text_escape(cli->pve_dir);
	_cleanup_free_ char *lxc = lx_text_escape(cli->lxc_path);
	printf("No containers found: looked for %s/lxc/*.conf (Proxmox)%s and %s/*/config "
	       "(LXC)\n",
	       pve, cli->cluster ? ", the other nodes' in nodes/*/lxc there," : "", lxc);
}

/* The rows, each column as wide as its widest cell (GPUS right-aligned),
 * NAME and FINDINGS wrapped in their cells on a narrow terminal; then with
 * -v each container's findings. */
static void print_table(struct audit *a)
{
	struct lx_table t;
	lx_table_init(&t, N_COLS, col_title);
	t.wrap = 1u << COL_NAME | 1u << COL_FINDINGS;
	t.right = 1u << COL_GPUS;
	for (size_t i = 0; i < a->n_rows; i++)
		lx_table_add_row(&t, (const char *const *)a->rows[i].cell);
	_cleanup_free_ char *table = lx_table_text(&t, a->cli->wrap_width, 0);
	lx_table_free(&t);
	fputs(table, stdout);
	for (size_t i = 0; i < a->n_rows; i++) {
		struct row *r = &a->rows[i];
		if (r->findings) {
			const char *name = r->cell[COL_NAME];
			printf("\nCT %s%s%s%s:\n", r->cell[COL_ID], strcmp(name, "-") ? " (" : "",
			       strcmp(name, "-") ? name : "", strcmp(name, "-") ? ")" : "");
			fputs(r->findings, stdout);
		}
	}
	for (size_t i = 0; i < a->n_rows; i++) {
		for (int c = 0; c < N_COLS; c++)
			free(a->rows[i].cell[c]);
		free(a->rows[i].findings);
	}
	free(a->rows);
	a->rows = NULL;
	a->n_rows = 0;
}

static void print_footer(struct audit *a, const struct lx_audit_totals *t,
			 const struct lx_host *h)
{
	const size_t *by = t->by_status;
	switch (a->format) {
	case AUDIT_TEXT:
		if (!t->containers) {
			print_nothing_found(a->cli);
			break;
		}
		bool findings_shown = false;
		for (size_t i = 0; i < a->n_rows; i++)
			findings_shown |= a->rows[i].findings != NULL;
		if (a->n_rows)
			print_table(a);
		else
			printf("No GPU containers.\n");
		if (findings_shown)
			printf("\n");
		cli_printf_wrapped(a->cli, 2,
				   "%zu container%s: %zu ok, %zu with warnings, %zu with errors, %zu "
				   "unknown (no host model of their node), %zu without GPUs\n",
				   t->containers, t->containers == 1 ? "" : "s", by[LX_AUDIT_OK],
				   by[LX_AUDIT_WARNING], by[LX_AUDIT_ERROR], by[LX_AUDIT_UNKNOWN],
				   by[LX_AUDIT_NO_GPUS]);
		break;
	case AUDIT_JSON: {
		lx_json_close(&a->json); /* containers */
		struct lx_doc *summary = lx_doc_new_map();
		lx_doc_map_set(summary, "containers", lx_doc_new_int((long long)t->containers));
		for (int i = 0; i < LX_AUDIT_N_STATUS; i++)
			lx_doc_map_set(summary, lx_audit_status_name(i), lx_doc_new_int((long long)by[i]));
		lx_json_value(&a->json, "summary", summary);
		lx_doc_free(summary);
		lx_json_close(&a->json);
		break;
	}
	case AUDIT_YAML:
		if (!t->containers)
			printf("  []\n");
		printf("summary:\n  containers: %zu\n", t->containers);
		for (int i = 0; i < LX_AUDIT_N_STATUS; i++)
			printf("  %s: %zu\n", lx_audit_status_name(i), by[i]);
		break;
	case AUDIT_PROMETHEUS: {
		printf("# HELP lxgpu_container_gpus GPUs a container is configured with.\n"
		       "# TYPE lxgpu_container_gpus gauge\n");
		rewind(a->gpus_family);
		char chunk[65536];
		size_t got;
		while ((got = fread(chunk, 1, sizeof(chunk), a->gpus_family)) > 0)
			fwrite(chunk, 1, got, stdout);
		_cleanup_free_ char *version = lx_prometheus_label(h->driver.version ? h->driver.version : "");
		printf("# HELP lxgpu_driver_info The loaded NVIDIA kernel module.\n"
		       "# TYPE lxgpu_driver_info gauge\n"
		       "lxgpu_driver_info{version=\"%s\",flavor=\"%s\"} 1\n",
		       version, lx_driver_flavor_name(h->driver.flavor));
		printf("# HELP lxgpu_host_gpus GPUs on the host (NVIDIA, and Intel/AMD DRM GPUs).\n# TYPE lxgpu_host_gpus gauge\n"
		       "lxgpu_host_gpus %zu\n",
		       h->n_gpus);
		printf("# HELP lxgpu_audit_containers Containers audited.\n"
		       "# TYPE lxgpu_audit_containers gauge\nlxgpu_audit_containers %zu\n",
		       t->containers);
		printf("# HELP lxgpu_audit_containers_by_status Containers audited, by status (each "
		       "counted once).\n# TYPE lxgpu_audit_containers_by_status gauge\n");
		for (int i = 0; i < LX_AUDIT_N_STATUS; i++)
			printf("lxgpu_audit_containers_by_status{status=\"%s\"} %zu\n",
			       lx_audit_status_name(i), by[i]);
		printf("# HELP lxgpu_audit_findings Findings by severity.\n"
		       "# TYPE lxgpu_audit_findings gauge\n");
		for (int s = LX_SEVERITY_INFO; s <= LX_SEVERITY_ERROR; s++)
			printf("lxgpu_audit_findings{severity=\"%s\"} %zu\n",
			       lx_severity_name((enum lx_severity)s), t->by_severity[s]);
		break;
	}
	}
}

static int run_audit(struct cli *cli)
{
	if (cli->n_args)
		return cli_usage_error("audit takes no arguments (got '%s')", cli->args[0]);
	struct audit a = {.cli = cli};
	lx_json_writer_init(&a.json, stdout, cli->compact);
	a.format = cli->prometheus ? AUDIT_PROMETHEUS
		   : cli->format == CLI_FORMAT_JSON ? AUDIT_JSON
		   : cli->format == CLI_FORMAT_YAML ? AUDIT_YAML
						    : AUDIT_TEXT;
	struct lx_host host;
	if (cli_load_host(cli, &host, NULL) < 0)
		return LX_EXIT_ERROR;
	_cleanup_free_ char *node = lx_audit_local_node(cli->pve_dir, &host);
	if (a.format == AUDIT_PROMETHEUS && !(a.gpus_family = tmpfile())) {
		lx_host_free(&host);
		return cli_usage_error("cannot create a temporary file for the Prometheus output");
	}
	print_header(&a, node, &host);
	struct lx_node_plan plan;
	bool planned = cli_plan_nodes(cli, &host, &plan);
	struct lx_runtime_paths paths = {cli->cgroup_root, "/proc", cli->lxc_path, cli->lxc_config_dir,
					 cli->pve_dir, cli->subid_root, NULL, NULL, NULL};
	struct lx_audit_options o = {
		.pve_dir = cli->pve_dir,
		.lxc_path = cli->lxc_path,
		.runtime = &paths,
		.state_dir = cli->state_dir,
		.nodes = planned ? &plan : NULL,
		.exclusive = cli->exclusive,
		.cluster = cli->cluster,
		.hosts_dir = cli->hosts_dir,
		.now = (long long)time(NULL),
		.container = emit_container,
		.warn = warn_node,
		.ctx = &a,
	};
	struct lx_audit_totals totals;
	lx_audit_run(&host, node, &o, &totals);
	if (planned)
		lx_node_plan_free(&plan);
	print_footer(&a, &totals, &host);
	bool gpus_family_failed = false;
	if (a.gpus_family) {
		gpus_family_failed = ferror(a.gpus_family);
		gpus_family_failed |= fclose(a.gpus_family) != 0;
	}
	if (gpus_family_failed)
		fprintf(stderr, "lxgpu: cannot write the temporary file of the Prometheus output\n");
	lx_host_free(&host);
	if (gpus_family_failed)
		return LX_EXIT_ERROR;
	/* Metrics are data: errors among them are not a failed run (a cron
	 * job or a systemd timer would log one every time). */
	return totals.by_status[LX_AUDIT_ERROR] && a.format != AUDIT_PROMETHEUS ? LX_EXIT_FINDINGS
										: LX_EXIT_OK;
}

const struct cli_command cli_cmd_audit = {
	.name = "audit",
	.summary = "verify every container of the host or cluster; JSON, Prometheus",
	.usage =
		"Usage: lxgpu audit [--format text|json|yaml|prometheus]\n"
		"                   [--cluster [--hosts DIR]] [--exclusive]\n"
		"\n"
		"Run lxgpu verify on every container: Proxmox's (<pve-dir>/lxc/*.conf) and plain\n"
		"LXC ones (<lxc-path>/*/config), and print a table of the GPU containers (its\n"
		"name as pct list shows it, node, state, GPUs, status, finding codes; -v: their\n"
		"findings after the table), or where it looked when it found none. GPUs also\n"
		"passed through to a VM (hostpciN in qemu-server/*.conf) are errors.\n"
		"\n"
		"  --format prometheus  metrics for node_exporter's textfile collector\n"
		"  --cluster            also the containers of the other nodes\n"
		"                       (<pve-dir>/nodes/*), judged by the host models they\n"
		"                       published (lxgpu publish)\n"
		"  --hosts DIR          other nodes' host snapshots, DIR/<node>.yaml, which win\n"
		"  --exclusive          a GPU given to more than one container is an error\n"
		"\n"
		"  -o FILE              write FILE atomically (for the textfile collector)\n"
		"\n"
		"Each container is counted under one status: error, warning, unknown (its node\n"
		"has no host model), ok, or no_gpus. Exit 0 when no container has errors, 1 when\n"
		"one has (--format prometheus: 0 whenever the metrics were written), 2 when audit\n"
		"could not run.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_AUDIT | CLI_OPT_EXCLUSIVE | CLI_OPT_HOSTS | CLI_OPT_OUTPUT,
	.run = run_audit,
};
