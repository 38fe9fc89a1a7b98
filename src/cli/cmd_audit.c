/* lxgpu audit: verify every container of the host (or cluster).
 *
 * Containers are checked one at a time and printed as they are done, so
 * memory does not grow with their number: only container ids (to sort them)
 * and the first owner of each GPU (for --exclusive) are kept. */
#include "cli.h"
#include "lxgpu/cluster.h"
#include "lxgpu/report.h"
#include "lxgpu/verify.h"
#include "lxgpu/vm.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct gpu_owner {
	char *bdf;
	char *container;
};

/* One Proxmox node (or the plain LXC host). */
struct node {
	char *name;
	bool local;
	struct lx_host host;
	bool have_host;
	struct gpu_owner *owners;
	size_t n_owners;
	struct lx_vm_devices vms; /* hostpciN entries of the node's VMs */
	/* About its host model (stale, undated): told for each GPU container. */
	struct lx_findings model_findings;
};

/* Each container has exactly one status, so the counts add up. */
enum status { ST_ERROR, ST_WARNING, ST_UNKNOWN, ST_OK, ST_NO_GPUS, N_STATUS };
static const char *const status_names[N_STATUS] = {"error", "warning", "unknown", "ok",
						    "no_gpus"};

struct totals {
	size_t containers;
	size_t by_status[N_STATUS];
	size_t by_severity[3];
};

enum audit_format { AUDIT_TEXT, AUDIT_JSON, AUDIT_YAML, AUDIT_PROMETHEUS };

struct audit {
	struct cli *cli;
	enum audit_format format;
	struct lx_runtime_paths paths;
	struct totals totals;
	bool first_json;
	FILE *gpus_family; /* Prometheus: the second metric family, emitted at the end */
};

static void node_free(struct node *n)
{
	free(n->name);
	if (n->have_host)
		lx_host_free(&n->host);
	for (size_t i = 0; i < n->n_owners; i++) {
		free(n->owners[i].bdf);
		free(n->owners[i].container);
	}
	free(n->owners);
	lx_vm_devices_free(&n->vms);
	lx_findings_free(&n->model_findings);
}

/* ---- conflicts between guests ---- */

static void check_conflicts(struct audit *a, struct node *n, const char *id,
			    const struct lx_container_report *rep, struct lx_findings *f)
{
	for (size_t i = 0; i < rep->gpus.n; i++) {
		const char *bdf = rep->gpus.items[i];
		for (size_t v = 0; v < n->vms.n; v++)
			if (lx_vm_device_matches(&n->vms.items[v], bdf))
				lx_findings_add(f, LXG013_GPU_IN_VM, id, NULL, 0, NULL,
						lx_xasprintf("GPU %s is also passed through to VM %s "
							     "(hostpci): whichever starts second fails "
							     "or takes it from the other",
							     bdf, n->vms.items[v].vmid),
						lx_xstrdup("give the container another GPU, or remove the "
							   "hostpci entry from the VM"));
		if (!a->cli->exclusive)
			continue;
		const struct gpu_owner *owner = NULL;
		for (size_t o = 0; o < n->n_owners && !owner; o++)
			if (strcmp(n->owners[o].bdf, bdf) == 0)
				owner = &n->owners[o];
		if (owner) {
			lx_findings_add(f, LXG012_GPU_SHARED, id, NULL, 0, NULL,
					lx_xasprintf("GPU %s is also given to container %s (--exclusive)",
						     bdf, owner->container),
					lx_xstrdup("give each container its own GPUs (lxgpu apply CTID "
						   "--gpus ...)"));
			continue;
		}
		n->owners = lx_xrealloc(n->owners, (n->n_owners + 1) * sizeof(*n->owners));
		n->owners[n->n_owners++] = (struct gpu_owner){lx_xstrdup(bdf), lx_xstrdup(id)};
	}
}

/* ---- output ---- */

/* The worst finding decides; without one, a container whose GPU lines
 * could not be checked (no host model of its node) is "unknown". */
static enum status status_of(const struct lx_findings *f, bool has_gpus, bool gpus_known)
{
	enum lx_severity worst = LX_SEVERITY_INFO;
	for (size_t i = 0; i < f->n; i++)
		if (f->items[i].severity > worst)
			worst = f->items[i].severity;
	if (worst == LX_SEVERITY_ERROR)
		return ST_ERROR;
	if (worst == LX_SEVERITY_WARNING)
		return ST_WARNING;
	if (!has_gpus)
		return ST_NO_GPUS;
	return gpus_known ? ST_OK : ST_UNKNOWN;
}

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

static void emit_prometheus_findings(struct audit *a, const char *node, const char *id,
				     const struct lx_findings *f)
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

static void emit_container(struct audit *a, const struct node *n, const char *id,
			   const char *path, const struct lx_container_report *rep,
			   const struct lx_findings *f)
{
	struct totals *t = &a->totals;
	t->containers++;
	bool gpus_known = n->have_host;
	enum status st = status_of(f, rep->n_nodes > 0, gpus_known);
	const char *status = status_names[st];
	t->by_status[st]++;
	for (size_t i = 0; i < f->n; i++)
		t->by_severity[f->items[i].severity]++;
	const char *state = n->local ? lx_run_state_name(rep->state) : "-";
	switch (a->format) {
	case AUDIT_TEXT: {
		if (rep->n_nodes == 0 && f->n == 0)
			return; /* no GPU, nothing to say */
		_cleanup_free_ char *codes = codes_of(f);
		/* Names come from directory names and snapshots: escaped for the terminal. */
		_cleanup_free_ char *id_text = lx_text_escape(id);
		_cleanup_free_ char *node_text = lx_text_escape(n->name);
		_cleanup_free_ char *n_gpus = gpus_known ? lx_xasprintf("%zu", rep->gpus.n) : lx_xstrdup("?");
		printf("%-10s %-12s %-8s %4s  %-7s %s\n", id_text, node_text, state, n_gpus, status,
		       codes);
		if (a->cli->verbosity > 0 && f->n) {
			_cleanup_free_ char *text = lx_report_findings_text(f, a->cli->color);
			fputs(text, stdout);
		}
		return;
	}
	case AUDIT_PROMETHEUS: {
		emit_prometheus_findings(a, n->name, id, f);
		_cleanup_free_ char *node_l = lx_prometheus_label(n->name);
		_cleanup_free_ char *id_l = lx_prometheus_label(id);
		if (gpus_known) /* no sample for an unknown count */
			fprintf(a->gpus_family,
				"lxgpu_container_gpus{node=\"%s\",container=\"%s\",state=\"%s\"} %zu\n",
				node_l, id_l, state, rep->gpus.n);
		return;
	}
	case AUDIT_JSON:
	case AUDIT_YAML: {
		struct lx_doc *d = lx_doc_new_map();
		lx_doc_map_set(d, "container", lx_doc_new_str(id));
		lx_doc_map_set(d, "node", lx_doc_new_str(n->name));
		lx_doc_map_set(d, "file", lx_doc_new_str(path));
		lx_doc_map_set(d, "state", lx_doc_new_str(state));
		/* null: the node has no host model to tell its GPUs by. */
		lx_doc_map_set(d, "gpus", gpus_known ? lx_doc_new_str_list(&rep->gpus) : lx_doc_new_null());
		lx_doc_map_set(d, "status", lx_doc_new_str(status));
		lx_doc_map_set(d, "findings", lx_report_findings_doc(f));
		if (a->format == AUDIT_JSON) {
			/* Stream the list: one object at a time. */
			char *text = lx_doc_to_json(d);
			text[strlen(text) - 1] = '\0';
			printf("%s    %s", a->first_json ? "" : ",\n", text);
			a->first_json = false;
			free(text);
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

/* ---- enumeration ---- */

static int compare_ids(const void *x, const void *y)
{
	const char *a = *(char *const *)x, *b = *(char *const *)y;
	unsigned long long na, nb;
	bool numeric = lx_parse_uint(a, 10, ULLONG_MAX, &na) && lx_parse_uint(b, 10, ULLONG_MAX, &nb);
	if (numeric)
		return na < nb ? -1 : na > nb;
	return strcmp(a, b);
}

/* Container ids in dir: "<id>.conf" files (PVE) or "<name>/config" dirs (LXC). */
static void list_ids(const char *dir, bool pve, struct lx_strv *ids)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pve) {
			unsigned long long v;
			_cleanup_free_ char *id = lx_xstrndup(de->d_name, strcspn(de->d_name, "."));
			if (lx_str_ends_with(de->d_name, ".conf") && strlen(id) + 5 == strlen(de->d_name) &&
			    lx_parse_uint(id, 10, 999999999, &v))
				lx_strv_push(ids, id);
		} else {
			_cleanup_free_ char *config = lx_xasprintf("%s/%s/config", dir, de->d_name);
			if (access(config, R_OK) == 0)
				lx_strv_push(ids, de->d_name);
		}
	}
	closedir(d);
	if (ids->n > 1)
		qsort(ids->items, ids->n, sizeof(*ids->items), compare_ids);
}

static void audit_one(struct audit *a, struct node *n, const char *id, const char *path, bool is_pve)
{
	struct lx_findings f = {0};
	struct lx_container_report rep = {0};
	struct lx_error err = {0};
	if (!n->have_host) {
		/* Another node without a model: only say whether it has GPU lines. */
		struct lx_conf conf;
		if (lx_conf_load(path, &conf, &err) == 0) {
			struct lx_host empty = {0};
			struct lx_container_config cc;
			lx_container_config_read(&empty, id, &conf, is_pve, &cc);
			rep.n_nodes = cc.n_grants;
			if (cc.n_grants)
				lx_findings_add(&f, LXG021_NO_HOST_MODEL, id, path, 0, NULL,
						lx_xasprintf("a GPU container on node %s, which lxgpu has "
							     "no host model of",
							     n->name),
						lx_xasprintf("run 'lxgpu publish' on %s (or pass its "
							     "snapshot with --hosts DIR)",
							     n->name));
			lx_container_config_free(&cc);
			lx_conf_free(&conf);
		}
	} else if (lx_verify_container(&n->host, id, path, is_pve, &a->paths, &f, &rep, &err) == 0) {
		/* lxgpu's include files and records are this node's */
		if (n->local && cli_verify_include(a->cli, &n->host, id, path, &f, &err) < 0)
			lx_error_clear(&err); /* the config was just read: it went away */
		if (!n->local) {
			rep.running = false;
			rep.state = LX_RUN_STOPPED;
		}
		check_conflicts(a, n, id, &rep, &f);
	}
	for (size_t i = 0; rep.n_nodes && i < n->model_findings.n; i++) {
		const struct lx_finding *m = &n->model_findings.items[i];
		lx_findings_add(&f, m->code, id, path, 0, NULL, lx_xstrdup(m->message),
				m->fix ? lx_xstrdup(m->fix) : NULL);
		lx_findings_last_severity(&f, m->severity);
	}
	if (err.message) {
		lx_findings_add(&f, LXG021_NO_HOST_MODEL, id, path, 0, NULL,
				lx_xasprintf("cannot read the config: %s", err.message), NULL);
		lx_findings_last_severity(&f, LX_SEVERITY_ERROR);
		lx_error_clear(&err);
	}
	emit_container(a, n, id, path, &rep, &f);
	lx_container_report_free(&rep);
	lx_findings_free(&f);
}

static void audit_dir(struct audit *a, struct node *n, const char *dir, bool pve,
		      const char *pve_lxc_dir)
{
	struct lx_strv ids = {0};
	list_ids(dir, pve, &ids);
	for (size_t i = 0; i < ids.n; i++) {
		_cleanup_free_ char *path = pve ? lx_xasprintf("%s/%s.conf", dir, ids.items[i])
						: lx_xasprintf("%s/%s/config", dir, ids.items[i]);
		if (!pve && pve_lxc_dir) {
			/* /var/lib/lxc/<vmid>/config of a PVE container is generated from
			 * its PVE config: audit that one, not this. */
			_cleanup_free_ char *pve_conf = lx_xasprintf("%s/%s.conf", pve_lxc_dir, ids.items[i]);
			if (access(pve_conf, F_OK) == 0)
				continue;
		}
		audit_one(a, n, ids.items[i], path, pve);
	}
	lx_strv_free(&ids);
}

/* The local node's name: /etc/pve/lxc links to nodes/<name>/lxc. */
static char *local_node_name(const struct cli *cli, const struct lx_host *host)
{
	_cleanup_free_ char *lxc = lx_path_join(cli->pve_dir, "lxc");
	char resolved[PATH_MAX];
	if (realpath(lxc, resolved)) {
		char *end = strstr(resolved, "/lxc");
		char *start = end ? end : NULL;
		while (start && start > resolved && start[-1] != '/')
			start--;
		if (end && start && lx_str_ends_with(resolved, "/lxc") && strstr(resolved, "/nodes/"))
			return lx_xstrndup(start, (size_t)(end - start));
	}
	return lx_xstrdup(host->hostname ? host->hostname : "localhost");
}

static void print_header(struct audit *a, const struct node *local)
{
	const struct lx_host *h = &local->host;
	_cleanup_free_ char *name = lx_text_escape(local->name);
	_cleanup_free_ char *version = lx_text_escape(h->driver.version ? h->driver.version : "not loaded");
	struct lx_doc *host_doc = lx_doc_new_map();
	/* docs/schema/audit.json; "node" as in each container's entry. */
	lx_doc_map_set(host_doc, "schema", lx_doc_new_int(1));
	lx_doc_map_set(host_doc, "node", lx_doc_new_str(local->name));
	/* The host name through the writers: quoted and escaped as JSON/YAML need. */
	_cleanup_free_ char *host_json = a->format == AUDIT_JSON ? lx_doc_to_json(host_doc) : NULL;
	_cleanup_free_ char *host_yaml = a->format == AUDIT_YAML ? lx_doc_to_yaml(host_doc) : NULL;
	lx_doc_free(host_doc);
	switch (a->format) {
	case AUDIT_TEXT:
		printf("Host %s: %zu GPU%s, driver %s\n", name, h->n_gpus, h->n_gpus == 1 ? "" : "s",
		       version);
		printf("%-10s %-12s %-8s %4s  %-7s %s\n", "CONTAINER", "NODE", "STATE", "GPUS", "STATUS",
		       "FINDINGS");
		break;
	case AUDIT_JSON:
		/* "{\n  \"schema\": 1,\n  \"node\": ...\n}\n": keep all but the closing brace. */
		host_json[strlen(host_json) - 3] = '\0';
		printf("%s,\n  \"containers\": [\n", host_json);
		break;
	case AUDIT_YAML: printf("%scontainers:\n", host_yaml); break;
	case AUDIT_PROMETHEUS:
		printf("# HELP lxgpu_container_findings Findings of lxgpu audit, per container, code and "
		       "severity.\n# TYPE lxgpu_container_findings gauge\n");
		break;
	}
}

static void print_footer(struct audit *a, const struct node *local)
{
	const struct totals *t = &a->totals;
	const size_t *by = t->by_status;
	switch (a->format) {
	case AUDIT_TEXT:
		printf("%zu containers: %zu ok, %zu with warnings, %zu with errors, %zu unknown (no host "
		       "model of their node), %zu without GPUs\n",
		       t->containers, by[ST_OK], by[ST_WARNING], by[ST_ERROR], by[ST_UNKNOWN],
		       by[ST_NO_GPUS]);
		break;
	case AUDIT_JSON:
		printf("\n  ],\n  \"summary\": {\"containers\": %zu", t->containers);
		for (int i = 0; i < N_STATUS; i++)
			printf(", \"%s\": %zu", status_names[i], by[i]);
		printf("}\n}\n");
		break;
	case AUDIT_YAML:
		if (!t->containers)
			printf("  []\n");
		printf("summary:\n  containers: %zu\n", t->containers);
		for (int i = 0; i < N_STATUS; i++)
			printf("  %s: %zu\n", status_names[i], by[i]);
		break;
	case AUDIT_PROMETHEUS: {
		printf("# HELP lxgpu_container_gpus GPUs a container is configured with.\n"
		       "# TYPE lxgpu_container_gpus gauge\n");
		rewind(a->gpus_family);
		char chunk[65536];
		size_t got;
		while ((got = fread(chunk, 1, sizeof(chunk), a->gpus_family)) > 0)
			fwrite(chunk, 1, got, stdout);
		const struct lx_host *h = &local->host;
		_cleanup_free_ char *version = lx_prometheus_label(h->driver.version ? h->driver.version : "");
		printf("# HELP lxgpu_driver_info The loaded NVIDIA kernel module.\n"
		       "# TYPE lxgpu_driver_info gauge\n"
		       "lxgpu_driver_info{version=\"%s\",flavor=\"%s\"} 1\n",
		       version, lx_driver_flavor_name(h->driver.flavor));
		printf("# HELP lxgpu_host_gpus NVIDIA GPUs on the host.\n# TYPE lxgpu_host_gpus gauge\n"
		       "lxgpu_host_gpus %zu\n",
		       h->n_gpus);
		printf("# HELP lxgpu_audit_containers Containers audited.\n"
		       "# TYPE lxgpu_audit_containers gauge\nlxgpu_audit_containers %zu\n",
		       t->containers);
		printf("# HELP lxgpu_audit_containers_by_status Containers audited, by status (each "
		       "counted once).\n# TYPE lxgpu_audit_containers_by_status gauge\n");
		for (int i = 0; i < N_STATUS; i++)
			printf("lxgpu_audit_containers_by_status{status=\"%s\"} %zu\n", status_names[i],
			       by[i]);
		printf("# HELP lxgpu_audit_findings Findings by severity.\n"
		       "# TYPE lxgpu_audit_findings gauge\n");
		for (int s = LX_SEVERITY_INFO; s <= LX_SEVERITY_ERROR; s++)
			printf("lxgpu_audit_findings{severity=\"%s\"} %zu\n",
			       lx_severity_name((enum lx_severity)s), t->by_severity[s]);
		break;
	}
	}
}

/* Other nodes of the cluster, with the host models they published (or
 * those --hosts DIR holds). */
static void audit_cluster(struct audit *a, const char *local_name)
{
	_cleanup_free_ char *nodes_dir = lx_path_join(a->cli->pve_dir, "nodes");
	_cleanup_free_ char *mapping = lx_path_join(a->cli->pve_dir, "mapping/pci.cfg");
	struct lx_strv names = {0};
	DIR *d = opendir(nodes_dir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && strcmp(de->d_name, local_name) != 0)
			lx_strv_push(&names, de->d_name);
	if (d)
		closedir(d);
	lx_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		struct node n = {.name = lx_xstrdup(names.items[i])};
		struct lx_node_model model;
		struct lx_error err = {0};
		if (lx_node_model_load(a->cli->pve_dir, a->cli->hosts_dir, n.name, &model, &err) < 0) {
			cli_warn(a->cli, "%s (node %s is audited without it)", err.message, n.name);
			lx_error_clear(&err);
		} else if (model.have) {
			lx_node_model_findings(&model, NULL, NULL, (long long)time(NULL),
					       &n.model_findings);
			n.host = model.host; /* the node takes the model over */
			n.have_host = true;
			model.have = false;
		}
		lx_node_model_free(&model);
		_cleanup_free_ char *node_dir = lx_xasprintf("%s/%s", nodes_dir, n.name);
		_cleanup_free_ char *qemu = lx_path_join(node_dir, "qemu-server");
		_cleanup_free_ char *lxc = lx_path_join(node_dir, "lxc");
		lx_vm_devices_read_mapped(qemu, mapping, n.name, &n.vms);
		audit_dir(a, &n, lxc, true, NULL);
		node_free(&n);
	}
	lx_strv_free(&names);
}

static int run_audit(struct cli *cli)
{
	if (cli->n_args)
		return cli_usage_error("audit takes no arguments (got '%s')", cli->args[0]);
	struct audit a = {.cli = cli, .first_json = true,
			  .paths = {cli->cgroup_root, "/proc", cli->lxc_path, cli->lxc_config_dir}};
	a.format = cli->prometheus ? AUDIT_PROMETHEUS
		   : cli->format == CLI_FORMAT_JSON ? AUDIT_JSON
		   : cli->format == CLI_FORMAT_YAML ? AUDIT_YAML
						    : AUDIT_TEXT;
	struct node local = {.local = true};
	if (cli_load_host(cli, &local.host, NULL) < 0)
		return LX_EXIT_ERROR;
	local.have_host = true;
	local.name = local_node_name(cli, &local.host);
	if (a.format == AUDIT_PROMETHEUS && !(a.gpus_family = tmpfile())) {
		node_free(&local);
		return cli_usage_error("cannot create a temporary file for the Prometheus output");
	}
	print_header(&a, &local);
	_cleanup_free_ char *qemu = lx_path_join(cli->pve_dir, "qemu-server");
	_cleanup_free_ char *pve_lxc = lx_path_join(cli->pve_dir, "lxc");
	_cleanup_free_ char *mapping = lx_path_join(cli->pve_dir, "mapping/pci.cfg");
	lx_vm_devices_read_mapped(qemu, mapping, local.name, &local.vms);
	audit_dir(&a, &local, pve_lxc, true, NULL);
	audit_dir(&a, &local, cli->lxc_path, false, pve_lxc);
	if (cli->cluster)
		audit_cluster(&a, local.name);
	print_footer(&a, &local);
	bool gpus_family_failed = false;
	if (a.gpus_family) {
		gpus_family_failed = ferror(a.gpus_family);
		gpus_family_failed |= fclose(a.gpus_family) != 0;
	}
	if (gpus_family_failed)
		fprintf(stderr, "lxgpu: cannot write the temporary file of the Prometheus output\n");
	node_free(&local);
	if (gpus_family_failed)
		return LX_EXIT_ERROR;
	/* Metrics are data: errors among them are not a failed run (a cron
	 * job or a systemd timer would log one every time). */
	return a.totals.by_status[ST_ERROR] && a.format != AUDIT_PROMETHEUS ? LX_EXIT_FINDINGS
									    : LX_EXIT_OK;
}

const struct cli_command cli_cmd_audit = {
	.name = "audit",
	.summary = "verify every container of the host (or cluster); summary, JSON, Prometheus",
	.usage =
		"Usage: lxgpu audit [--format text|json|yaml|prometheus] [--cluster [--hosts DIR]]\n"
		"                   [--exclusive]\n"
		"\n"
		"Run lxgpu verify on every container: Proxmox's (<pve-dir>/lxc/*.conf) and plain\n"
		"LXC ones (<lxc-path>/*/config), and print one line per GPU container (-v: with\n"
		"its findings). GPUs also passed through to a VM (hostpciN in qemu-server/*.conf)\n"
		"are errors.\n"
		"\n"
		"  --format prometheus  metrics for node_exporter's textfile collector\n"
		"  --cluster            also the containers of the other nodes (<pve-dir>/nodes/*),\n"
		"                       judged by the host models they published (lxgpu publish)\n"
		"  --hosts DIR          host snapshots of other nodes, as DIR/<node>.yaml: they win\n"
		"  --exclusive          a GPU given to more than one container is an error\n"
		"\n"
		"  -o FILE              write FILE atomically (for the textfile collector)\n"
		"\n"
		"Each container is counted under one status: error, warning, unknown (its node has\n"
		"no host model), ok, or no_gpus. Exit 0 when no container has errors, 1 when one\n"
		"has (--format prometheus: 0 whenever the metrics were written), 2 when audit\n"
		"could not run.\n",
	.options = CLI_OPT_FORMAT | CLI_OPT_AUDIT | CLI_OPT_EXCLUSIVE | CLI_OPT_HOSTS | CLI_OPT_OUTPUT,
	.run = run_audit,
};
