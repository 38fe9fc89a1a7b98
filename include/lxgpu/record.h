/* record: what apply gave a container, kept for the checks that run when
 * it starts (the Proxmox hookscript guard) and at boot (ensure-nodes).
 *
 * One YAML file per container: <state_dir>/containers/<id>.yaml. A record
 * names each GPU by PCI address (what stays put across reboots and driver
 * updates) with its UUID as a cross-check, and the /dev/nvidiaN it had
 * when recorded, so a later renumbering shows. Files are written
 * atomically; a corrupt one is an error naming the file and line, never
 * read as "no record". */
#ifndef LXGPU_RECORD_H
#define LXGPU_RECORD_H

#include "lxgpu/config.h"
#include "lxgpu/host.h"
#include "lxgpu/util.h"

#include <stdbool.h>
#include <stddef.h>

#define LX_RECORD_SCHEMA 1

struct lx_record_gpu {
	char *pci;  /* "0000:01:00.0", sysfs spelling */
	char *uuid; /* "GPU-..." or NULL when the driver did not say */
	int minor;  /* /dev/nvidiaN when recorded; LX_UNKNOWN when unknown */
};

/* Where a recorded GPU is now: the card with its UUID wherever it sits (a
 * card moved to another slot, a bus numbered anew), else, when the record
 * has no UUID or the host no card with it, the GPU at its PCI address
 * (which may be another card: callers compare the UUIDs). NULL: neither. */
const struct lx_gpu *lx_record_gpu_now(const struct lx_host *host, const struct lx_record_gpu *rg);

struct lx_record {
	char *id;          /* CTID or LXC name */
	char *config_path; /* the config apply wrote */
	char *style;       /* lx_style_name */
	bool unprivileged, dri, caps, exclusive;
	struct lx_record_gpu *gpus;
	size_t n_gpus;
	char *recorded_at; /* ISO 8601 UTC, "2026-01-31T12:00:00Z" */
};

/* A container id that can name a record file: a CTID or an LXC name
 * (letters, digits, '.', '_', '-'; not starting with '.' or '-'). */
bool lx_record_id_is_valid(const char *id);
/* <state_dir>/containers/<id>.yaml */
char *lx_record_path(const char *state_dir, const char *id);

/* Load a container's record. No file: 0 with *found false. A file that
 * does not parse or has a bad field: -1, the error naming file and line. */
int lx_record_load(const char *state_dir, const char *id, struct lx_record *out, bool *found,
		   struct lx_error *err);
/* Parse a record's text (name is used in errors). */
int lx_record_parse(const char *name, const char *text, size_t len, struct lx_record *out,
		    struct lx_error *err);
/* The record as YAML (what lx_record_store writes). */
char *lx_record_to_yaml(const struct lx_record *rec);
/* Write the record atomically, making <state_dir>/containers as needed. */
int lx_record_store(const char *state_dir, const struct lx_record *rec, struct lx_error *err);
/* Remove a container's record; no record is not an error. */
int lx_record_remove(const char *state_dir, const char *id, struct lx_error *err);
/* After apply or rollback wrote a config: store rec, the record of what it
 * gives now (NULL: it gives no GPU, and the record goes). exclusive 1/0 sets
 * rec->exclusive; -1 keeps what the stored record said (none, or one that
 * does not parse: not exclusive; such a record is replaced). */
int lx_record_replace(const char *state_dir, const char *id, struct lx_record *rec, int exclusive,
		      struct lx_error *err);
/* The ids that have a record, sorted; no state directory gives none. */
int lx_record_list(const char *state_dir, struct lx_strv *ids, struct lx_error *err);
void lx_record_free(struct lx_record *rec);
/* The time now as recorded_at takes it: ISO 8601 UTC. */
char *lx_record_time_now(void);

#endif
