/* Rendering: the CDI spec field by field, and template selection. */
#include "lxgpu/render.h"
#include "examples.h"
#include "tap.h"

#include <unistd.h>

static const char *examples;

static void load(const char *name, struct lx_host *h)
{
	load_example(examples, name, h);
}

static const struct lx_doc *at(const struct lx_doc *d, size_t i)
{
	return d && d->kind == LX_DOC_LIST && i < d->n ? d->items[i] : NULL;
}

static const struct lx_doc *get(const struct lx_doc *d, const char *key)
{
	return lx_doc_map_get(d, key);
}

static const char *str(const struct lx_doc *d)
{
	return d && d->kind == LX_DOC_STR ? d->str : NULL;
}

static long long integer(const struct lx_doc *d)
{
	return d && d->kind == LX_DOC_INT ? d->integer : -999;
}

static void check_node(const struct lx_doc *n, const char *path, long long major, long long minor,
		       long long mode)
{
	str_eq(str(get(n, "path")), path, "deviceNode path");
	str_eq(str(get(n, "type")), "c", "type c");
	if (major < 0) {
		ok(!get(n, "major") && !get(n, "minor"), "dynamic major: left to the runtime");
	} else {
		int_eq(integer(get(n, "major")), major, "major");
		int_eq(integer(get(n, "minor")), minor, "minor");
	}
	int_eq(integer(get(n, "fileMode")), mode, "fileMode");
	str_eq(str(get(n, "permissions")), "rw", "permissions");
}

static void test_cdi(void)
{
	struct lx_host h;
	load("pve-8x-rtx-pro-6000", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	o.style = LX_STYLE_CDI;
	o.gpus = "0,5";
	o.gid = 44;
	struct lx_plan p;
	struct lx_error err = {0};
	ok(lx_plan_build(&h, &o, &p, &err) == 0, "CDI plan");
	struct lx_render_options ro = {.version = "test"};
	char *text = NULL;
	ok(lx_render_plan(&h, &p, &ro, &text, &err) == 0, "CDI renders");
	struct lx_doc *spec = NULL;
	if (!ok(text && lx_doc_from_yaml("cdi.yaml", text, strlen(text), &spec, &err) == 0,
		"the spec parses as YAML")) {
		printf("# %s\n%s", err.message, text ? text : "");
		return;
	}
	str_eq(str(get(spec, "cdiVersion")), "0.5.0", "cdiVersion: names start with a digit");
	str_eq(str(get(spec, "kind")), "lxgpu/gpu", "kind: not nvidia-ctk's nvidia.com/gpu");
	const struct lx_doc *devices = get(spec, "devices");
	int_eq(devices ? (long long)devices->n : -1, 5, "devices: 0, its UUID, 5, its UUID, all");
	str_eq(str(get(at(devices, 0), "name")), "0", "device 0");
	str_eq(str(get(at(devices, 1), "name")), h.gpus[0].uuid, "device by UUID");
	str_eq(str(get(at(devices, 2), "name")), "5", "device 5");
	str_eq(str(get(at(devices, 4), "name")), "all", "device all");
	const struct lx_doc *nodes0 = get(get(at(devices, 0), "containerEdits"), "deviceNodes");
	int_eq(nodes0 ? (long long)nodes0->n : -1, 1, "GPU 0: one node");
	check_node(at(nodes0, 0), "/dev/nvidia0", 195, 0, 0666);
	int_eq(integer(get(at(nodes0, 0), "gid")), 44, "gid");
	ok(!get(at(nodes0, 0), "uid"), "no uid unless asked");
	const struct lx_doc *nodes5 = get(get(at(devices, 2), "containerEdits"), "deviceNodes");
	check_node(at(nodes5, 0), "/dev/nvidia5", 195, 5, 0666);
	const struct lx_doc *all = get(get(at(devices, 4), "containerEdits"), "deviceNodes");
	int_eq(all ? (long long)all->n : -1, 2, "all: both GPU nodes");
	const struct lx_doc *shared = get(get(spec, "containerEdits"), "deviceNodes");
	int_eq(shared ? (long long)shared->n : -1, 3, "shared: ctl, uvm, uvm-tools");
	check_node(at(shared, 0), "/dev/nvidiactl", 195, 255, 0666);
	check_node(at(shared, 1), "/dev/nvidia-uvm", -1, -1, 0666);
	check_node(at(shared, 2), "/dev/nvidia-uvm-tools", -1, -1, 0666);
	for (size_t i = 0; i < spec->n; i++)
		ok(strcmp(spec->keys[i], "cdiVersion") == 0 || strcmp(spec->keys[i], "kind") == 0 ||
			   strcmp(spec->keys[i], "devices") == 0 ||
			   strcmp(spec->keys[i], "containerEdits") == 0,
		   "only known top-level fields");
	lx_doc_free(spec);
	free(text);
	lx_plan_free(&p);
	lx_host_free(&h);
}

static void test_template_dir(void)
{
	struct lx_host h;
	load("pve-rtx-4090", &h);
	struct lx_plan_options o;
	lx_plan_options_default(&o);
	struct lx_plan p;
	struct lx_error err = {0};
	lx_plan_build(&h, &o, &p, &err);
	char dir[] = "/tmp/lxgpu-tmpl-XXXXXX";
	ok(mkdtemp(dir) != NULL, "template dir");
	char *path = lx_path_join(dir, "devn.tmpl");
	const char *custom = "{% for n in nodes %}{{ n.path }}={{ n.major }}:{{ n.minor }}\n{% endfor %}";
	lx_write_file_atomic(path, custom, strlen(custom), 0644, &err);
	struct lx_render_options ro = {.version = "test", .templates_dir = dir};
	char *text = NULL;
	ok(lx_render_plan(&h, &p, &ro, &text, &err) == 0, "--templates DIR is used");
	str_eq(text, "/dev/nvidia0=195:0\n/dev/nvidiactl=195:255\n/dev/nvidia-uvm=505:0\n"
		     "/dev/nvidia-uvm-tools=505:1\n/dev/nvidia-modeset=195:254\n",
	       "custom template output");
	free(text);
	const char *broken = "line one\n{{ n.nope }}\n";
	lx_write_file_atomic(path, broken, strlen(broken), 0644, &err);
	ok(lx_render_plan(&h, &p, &ro, &text, &err) < 0 && strstr(err.message, "devn.tmpl:2:") &&
		   strstr(err.message, "unknown variable 'n.nope'"),
	   "a broken template: error names the file and line");
	lx_error_clear(&err);
	p.style = LX_STYLE_RAW;
	ok(lx_render_plan(&h, &p, &ro, &text, &err) < 0 && strstr(err.message, "raw.tmpl"),
	   "a missing template file names it");
	lx_error_clear(&err);
	unlink(path);
	rmdir(dir);
	free(path);
	lx_plan_free(&p);
	lx_host_free(&h);
}

static void test_builtin_templates_parse(void)
{
	size_t n = 0;
	for (const struct lx_builtin_template *t = lx_builtin_templates; t->name; t++, n++) {
		/* The include file is compared with a fresh rendering (verify's
		 * staleness check): nothing in it may change with lxgpu's version. */
		bool include = strcmp(t->name, "include.tmpl") == 0;
		ok((strstr(t->text, "lxgpu_version") != NULL) != include, t->name);
	}
	int_eq((long long)n, 5, "five built-in templates");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	examples = argv[1];
	test_cdi();
	test_template_dir();
	test_builtin_templates_parse();
	return tap_done();
}
