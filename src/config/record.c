/* Records of what apply gave each container (include/lxgpu/record.h).
 *
 * The file is lxgpu's own, but it sits on disk between runs and can be
 * edited by hand or cut short: every field is type-checked, unknown fields
 * are errors, and each error names the file and line. */
#include "lxgpu/record.h"
#include "lxgpu/report.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct lx_gpu *lx_record_gpu_now(const struct lx_host *host, const struct lx_record_gpu *rg)
{
	for (size_t i = 0; rg->uuid && i < host->n_gpus; i++)
		if (host->gpus[i].uuid && strcasecmp(host->gpus[i].uuid, rg->uuid) == 0)
			return &host->gpus[i];
	return lx_host_find_gpu_by_bdf(host, rg->pci);
}

#define RECORD_MAX_SIZE (1u << 20)
#define RECORD_DIR "containers"
#define RECORD_SUFFIX ".yaml"

bool lx_record_id_is_valid(const char *id)
{
	if (!id || !*id || strlen(id) > 255 || id[0] == '.' || id[0] == '-')
		return false;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

char *lx_record_path(const char *state_dir, const char *id)
{
	return lx_xasprintf("%s/" RECORD_DIR "/%s" RECORD_SUFFIX, state_dir, id);
}

void lx_record_free(struct lx_record *rec)
{
	free(rec->id);
	free(rec->config_path);
	free(rec->style);
	for (size_t i = 0; i < rec->n_gpus; i++) {
		free(rec->gpus[i].pci);
		free(rec->gpus[i].uuid);
	}
	free(rec->gpus);
	free(rec->recorded_at);
	memset(rec, 0, sizeof(*rec));
}

/* ---- record -> YAML ---- */

char *lx_record_to_yaml(const struct lx_record *rec)
{
	struct lx_doc *d = lx_doc_new_map();
	lx_doc_map_set(d, "schema", lx_doc_new_int(LX_RECORD_SCHEMA));
	lx_doc_map_set(d, "id", lx_doc_new_str(rec->id));
	lx_doc_map_set(d, "config_path", lx_doc_new_str(rec->config_path));
	lx_doc_map_set(d, "style", lx_doc_new_str(rec->style));
	lx_doc_map_set(d, "unprivileged", lx_doc_new_bool(rec->unprivileged));
	lx_doc_map_set(d, "dri", lx_doc_new_bool(rec->dri));
	lx_doc_map_set(d, "caps", lx_doc_new_bool(rec->caps));
	lx_doc_map_set(d, "exclusive", lx_doc_new_bool(rec->exclusive));
	lx_doc_map_set(d, "recorded_at", lx_doc_new_str(rec->recorded_at));
	struct lx_doc *gpus = lx_doc_new_list();
	for (size_t i = 0; i < rec->n_gpus; i++) {
		const struct lx_record_gpu *g = &rec->gpus[i];
		struct lx_doc *m = lx_doc_new_map();
		lx_doc_map_set(m, "pci", lx_doc_new_str(g->pci));
		lx_doc_map_set(m, "uuid", lx_doc_new_str(g->uuid));
		lx_doc_map_set(m, "minor", g->minor < 0 ? lx_doc_new_null() : lx_doc_new_int(g->minor));
		lx_doc_list_push(gpus, m);
	}
	lx_doc_map_set(d, "gpus", gpus);
	char *text = lx_doc_to_yaml(d);
	lx_doc_free(d);
	return text;
}

/* ---- YAML -> record ---- */

/* One mapping being read: the keys taken, so leftovers are reported. */
struct reader {
	const char *file;
	const struct lx_doc *map;
	const char *where; /* "gpus[1]." or "" */
	bool *taken;
	struct lx_error *err;
};

static int field_error(struct reader *r, int line, const char *key, const char *what)
{
	return lx_error_set(r->err, "%s:%d: field '%s%s': %s (lxgpu apply writes this record; "
			    "apply the container again, or remove the file)",
			    r->file, line, r->where, key, what);
}

/* The value of key, or NULL (an error when required). */
static int take(struct reader *r, const char *key, bool required, enum lx_doc_kind kind,
		bool nullable, const struct lx_doc **out)
{
	*out = NULL;
	for (size_t i = 0; i < r->map->n; i++) {
		if (strcmp(r->map->keys[i], key) != 0)
			continue;
		r->taken[i] = true;
		const struct lx_doc *v = r->map->items[i];
		if (v->kind == LX_DOC_NULL && nullable)
			return 0;
		if (v->kind != kind) {
			_cleanup_free_ char *what = lx_xasprintf("must be %s%s, not %s",
								 lx_doc_kind_name(kind),
								 nullable ? " or null" : "",
								 lx_doc_kind_name(v->kind));
			return field_error(r, v->line, key, what);
		}
		*out = v;
		return 0;
	}
	if (required)
		return field_error(r, r->map->line, key, "missing (it is required)");
	return 0;
}

static int take_str(struct reader *r, const char *key, bool required, char **out)
{
	const struct lx_doc *v;
	if (take(r, key, required, LX_DOC_STR, !required, &v) < 0)
		return -1;
	*out = v ? lx_xstrdup(v->str) : NULL;
	return 0;
}

static int take_bool(struct reader *r, const char *key, bool *out)
{
	const struct lx_doc *v;
	if (take(r, key, false, LX_DOC_BOOL, false, &v) < 0)
		return -1;
	*out = v && v->boolean;
	return 0;
}

static int finish(struct reader *r)
{
	for (size_t i = 0; i < r->map->n; i++)
		if (!r->taken[i])
			return field_error(r, r->map->key_lines[i], r->map->keys[i], "unknown field");
	return 0;
}

static int open_reader(struct reader *r, const char *file, const struct lx_doc *map,
		       const char *where, struct lx_error *err)
{
	*r = (struct reader){.file = file, .map = map, .where = where, .err = err};
	if (map->kind != LX_DOC_MAP)
		return lx_error_set(err, "%s:%d: %s must be a mapping, not %s", file, map->line,
				    *where ? where : "the record", lx_doc_kind_name(map->kind));
	r->taken = lx_xcalloc(map->n + 1, sizeof(bool));
	return 0;
}

static int read_gpu(const char *file, const struct lx_doc *d, size_t index,
		    struct lx_record_gpu *g, struct lx_error *err)
{
	_cleanup_free_ char *where = lx_xasprintf("gpus[%zu].", index);
	struct reader r;
	g->minor = LX_UNKNOWN;
	if (open_reader(&r, file, d, where, err) < 0)
		return -1;
	_cleanup_free_ char *pci = NULL;
	const struct lx_doc *minor;
	int rc = take_str(&r, "pci", true, &pci);
	if (rc == 0 && !lx_pci_address_normalize(pci, &g->pci))
		rc = field_error(&r, lx_doc_map_get(d, "pci")->line, "pci",
				 "is not a PCI address like \"0000:01:00.0\"");
	if (rc == 0)
		rc = take_str(&r, "uuid", false, &g->uuid);
	if (rc == 0 && g->uuid && !lx_str_starts_with(g->uuid, "GPU-"))
		rc = field_error(&r, lx_doc_map_get(d, "uuid")->line, "uuid",
				 "is not a GPU UUID like \"GPU-...\"");
	if (rc == 0)
		rc = take(&r, "minor", false, LX_DOC_INT, true, &minor);
	if (rc == 0 && minor && (minor->integer < 0 || minor->integer > 255))
		rc = field_error(&r, minor->line, "minor", "must be 0..255 (/dev/nvidiaN)");
	if (rc == 0 && minor)
		g->minor = (int)minor->integer;
	if (rc == 0)
		rc = finish(&r);
	free(r.taken);
	return rc;
}

static int read_record(const char *file, const struct lx_doc *root, struct lx_record *rec,
		       struct lx_error *err)
{
	struct reader r;
	if (open_reader(&r, file, root, "", err) < 0)
		return -1;
	const struct lx_doc *schema, *gpus;
	enum lx_style style;
	int rc = take(&r, "schema", true, LX_DOC_INT, false, &schema);
	if (rc == 0 && schema->integer != LX_RECORD_SCHEMA) {
		_cleanup_free_ char *what = lx_xasprintf("version %lld is not supported (this lxgpu "
							 "reads %d)", schema->integer,
							 LX_RECORD_SCHEMA);
		rc = field_error(&r, schema->line, "schema", what);
	}
	if (rc == 0)
		rc = take_str(&r, "id", true, &rec->id);
	if (rc == 0 && !lx_record_id_is_valid(rec->id))
		rc = field_error(&r, lx_doc_map_get(root, "id")->line, "id",
				 "is not a container id (a CTID or an LXC name)");
	if (rc == 0)
		rc = take_str(&r, "config_path", false, &rec->config_path);
	if (rc == 0)
		rc = take_str(&r, "style", false, &rec->style);
	if (rc == 0 && rec->style && !lx_style_from_name(rec->style, &style))
		rc = field_error(&r, lx_doc_map_get(root, "style")->line, "style",
				 "is not one of devn, raw, lxc, cdi");
	if (rc == 0)
		rc = take_bool(&r, "unprivileged", &rec->unprivileged);
	if (rc == 0)
		rc = take_bool(&r, "dri", &rec->dri);
	if (rc == 0)
		rc = take_bool(&r, "caps", &rec->caps);
	if (rc == 0)
		rc = take_bool(&r, "exclusive", &rec->exclusive);
	if (rc == 0)
		rc = take_str(&r, "recorded_at", false, &rec->recorded_at);
	if (rc == 0)
		rc = take(&r, "gpus", true, LX_DOC_LIST, false, &gpus);
	if (rc == 0) {
		rec->gpus = lx_xcalloc(gpus->n + 1, sizeof(*rec->gpus));
		for (size_t i = 0; rc == 0 && i < gpus->n; i++) {
			rec->n_gpus++;
			rc = read_gpu(file, gpus->items[i], i, &rec->gpus[i], err);
			for (size_t k = 0; rc == 0 && k < i; k++)
				if (strcmp(rec->gpus[k].pci, rec->gpus[i].pci) == 0) {
					struct reader gr = {.file = file, .where = "", .err = err};
					_cleanup_free_ char *key = lx_xasprintf("gpus[%zu].pci", i);
					rc = field_error(&gr, gpus->items[i]->line, key,
							 "this GPU is listed twice");
				}
		}
	}
	if (rc == 0)
		rc = finish(&r);
	free(r.taken);
	return rc;
}

int lx_record_parse(const char *name, const char *text, size_t len, struct lx_record *out,
		    struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	struct lx_doc *doc;
	if (lx_doc_from_yaml(name, text, len, &doc, err) < 0)
		return lx_error_prefix(err, "corrupt lxgpu record (apply the container again, or "
					    "remove the file)");
	int rc = read_record(name, doc, out, err);
	lx_doc_free(doc);
	if (rc < 0)
		lx_record_free(out);
	return rc;
}

static int check_id(const char *id, struct lx_error *err)
{
	if (lx_record_id_is_valid(id))
		return 0;
	return lx_error_set(err, "'%s' is not a container id (a CTID such as 101, or an LXC name)",
			    id ? id : "");
}

int lx_record_load(const char *state_dir, const char *id, struct lx_record *out, bool *found,
		   struct lx_error *err)
{
	memset(out, 0, sizeof(*out));
	*found = false;
	if (check_id(id, err) < 0)
		return -1;
	_cleanup_free_ char *path = lx_record_path(state_dir, id);
	_cleanup_free_ char *text = NULL;
	size_t len;
	if (lx_read_file_optional(path, RECORD_MAX_SIZE, &text, &len, err) < 0)
		return -1;
	if (!text)
		return 0;
	if (lx_record_parse(path, text, len, out, err) < 0)
		return -1;
	if (strcmp(out->id, id) != 0) {
		lx_error_set(err, "%s: the record is of container '%s', not '%s' (a file copied by "
			     "hand?); apply the container again, or remove the file",
			     path, out->id, id);
		lx_record_free(out);
		return -1;
	}
	*found = true;
	return 0;
}

static int make_dir(const char *dir, mode_t mode, struct lx_error *err)
{
	/* The state dir and its parents on first use (/var/lib/lxgpu). */
	if (lx_mkdir_parents(dir, mode) == 0)
		return 0;
	return lx_error_set_errno(err, errno, "%s: cannot create lxgpu's state directory "
				  "(--state-dir chooses another)", dir);
}

int lx_record_store(const char *state_dir, const struct lx_record *rec, struct lx_error *err)
{
	if (check_id(rec->id, err) < 0)
		return -1;
	_cleanup_free_ char *dir = lx_path_join(state_dir, RECORD_DIR);
	if (make_dir(dir, 0755, err) < 0)
		return -1;
	_cleanup_free_ char *path = lx_record_path(state_dir, rec->id);
	_cleanup_free_ char *text = lx_record_to_yaml(rec);
	if (lx_write_file_atomic(path, text, strlen(text), 0644, err) < 0)
		return lx_error_prefix(err, "cannot store the GPU record of %s", rec->id);
	return 0;
}

int lx_record_remove(const char *state_dir, const char *id, struct lx_error *err)
{
	if (check_id(id, err) < 0)
		return -1;
	_cleanup_free_ char *path = lx_record_path(state_dir, id);
	if (lx_remove_file(path) < 0 && errno != ENOENT)
		return lx_error_set_errno(err, errno, "%s: cannot remove the GPU record", path);
	return 0;
}

int lx_record_replace(const char *state_dir, const char *id, struct lx_record *rec, int exclusive,
		      struct lx_error *err)
{
	if (!rec)
		return lx_record_remove(state_dir, id, err);
	if (exclusive < 0) {
		/* Keep what the record said: rollback does not decide exclusive use. */
		struct lx_record old;
		bool had = false;
		struct lx_error ignored = {0};
		int rc = lx_record_load(state_dir, id, &old, &had, &ignored);
		rec->exclusive = had && old.exclusive;
		if (had)
			lx_record_free(&old);
		if (rc < 0) /* a corrupt record is replaced */
			lx_error_clear(&ignored);
	} else {
		rec->exclusive = exclusive > 0;
	}
	return lx_record_store(state_dir, rec, err);
}

int lx_record_list(const char *state_dir, struct lx_strv *ids, struct lx_error *err)
{
	memset(ids, 0, sizeof(*ids));
	_cleanup_free_ char *dir = lx_path_join(state_dir, RECORD_DIR);
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return lx_error_set_errno(err, errno, "%s: cannot list the GPU records", dir);
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n <= strlen(RECORD_SUFFIX) || !lx_str_ends_with(de->d_name, RECORD_SUFFIX))
			continue;
		/* Temp files of an interrupted store end in ".lxgpu-tmp-XXXXXX". */
		_cleanup_free_ char *id = lx_xstrndup(de->d_name, n - strlen(RECORD_SUFFIX));
		if (lx_record_id_is_valid(id))
			lx_strv_push(ids, id);
	}
	closedir(d);
	lx_strv_sort(ids);
	return 0;
}

/* ---- the time ---- */

char *lx_record_time_now(void)
{
	time_t now = time(NULL);
	struct tm tm;
	char text[32];
	gmtime_r(&now, &tm);
	strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return lx_xstrdup(text);
}
