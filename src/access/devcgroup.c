/* Device cgroup rules with the semantics the container really gets:
 *
 * cgroup v2: LXC turns lxc.cgroup2.devices.* into one BPF program
 * (lxc cgroups/cgroup2_devices.c). The list starts in "block all" mode and
 * empty. "a" sets the mode (allow a: allow all; deny a: block all) and
 * empties the list. Any other rule is put at the FRONT of the list, unless
 * an identical rule (type, major, minor, access text) is there, which is
 * flipped instead. The program checks the list front to back; in block-all
 * mode it only contains the allow rules, in allow-all mode only the deny
 * rules; a rule matches when the access asked for is a subset of its own.
 * An empty list attaches no program at all: every device is allowed.
 *
 * cgroup v1: LXC writes each lxc.cgroup.devices.* value to the kernel's
 * devices.allow/deny in order (security/device_cgroup.c): "a" sets the
 * default and clears the exceptions; a rule against the default adds an
 * exception (merging access into an identical one), a rule in the default's
 * direction removes those access bits from an identical exception. */
#include "lxgpu/access.h"

#include <ctype.h>
#include <string.h>

/* "195", "*": the kernel's and LXC's number reader (digits, at most 49). */
static const char *parse_number(const char *p, long long *out)
{
	if (*p == '*') {
		*out = -1;
		return p + 1;
	}
	if (!isdigit((unsigned char)*p))
		return NULL;
	long long v = 0;
	size_t n = 0;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > 0xffffffffll || ++n > 49)
			return NULL;
		p++;
	}
	*out = v;
	return p;
}

bool lx_dev_rule_parse(const char *value, bool allow, struct lx_dev_rule *out)
{
	memset(out, 0, sizeof(*out));
	out->allow = allow;
	out->major = out->minor = -1;
	if (strcmp(value, "a") == 0) {
		out->all = true;
		out->type = 'a';
		return true;
	}
	const char *p = value;
	if (*p != 'a' && *p != 'b' && *p != 'c')
		return false;
	out->type = *p++;
	/* One blank between the fields: both parsers step over exactly one. */
	if (!isspace((unsigned char)*p))
		return false;
	p = parse_number(p + 1, &out->major);
	if (!p || *p != ':')
		return false;
	p = parse_number(p + 1, &out->minor);
	if (!p || !isspace((unsigned char)*p))
		return false;
	p++;
	for (size_t i = 0; i < 3 && *p && *p != '\n'; i++, p++) {
		unsigned bit = *p == 'r' ? LX_ACC_READ : *p == 'w' ? LX_ACC_WRITE
						     : *p == 'm' ? LX_ACC_MKNOD : 0;
		if (!bit)
			return false;
		out->access |= bit;
		out->access_text[i] = *p;
	}
	return true;
}

void lx_dev_cgroup_init(struct lx_dev_cgroup *cg, enum lx_cgroup_layout version)
{
	memset(cg, 0, sizeof(*cg));
	cg->version = version == LX_CGROUP_V2 ? LX_CGROUP_V2 : LX_CGROUP_V1;
	cg->v2_block_all = true;     /* LXC's initial list type */
	cg->v1_default_allow = true; /* a new cgroup inherits its parent's (allow all) */
}

void lx_dev_cgroup_free(struct lx_dev_cgroup *cg)
{
	free(cg->rules);
	memset(cg, 0, sizeof(*cg));
}

static bool same_device(const struct lx_dev_rule *a, const struct lx_dev_rule *b)
{
	return a->type == b->type && a->major == b->major && a->minor == b->minor;
}

/* LXC keeps a rule in the program only when it points against the list type. */
static bool v2_in_program(const struct lx_dev_cgroup *cg, const struct lx_dev_rule *r)
{
	return cg->v2_block_all ? r->allow : !r->allow;
}

static void insert_front(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule)
{
	cg->rules = lx_xgrow(cg->rules, cg->n_rules, sizeof(*cg->rules));
	memmove(cg->rules + 1, cg->rules, cg->n_rules * sizeof(*cg->rules));
	cg->rules[0] = *rule;
	cg->n_rules++;
}

static void v2_add(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule)
{
	if (rule->all) {
		cg->v2_block_all = !rule->allow;
		cg->n_rules = 0;
		return;
	}
	for (size_t i = 0; i < cg->n_rules; i++) {
		struct lx_dev_rule *r = &cg->rules[i];
		if (!same_device(r, rule) || strcmp(r->access_text, rule->access_text) != 0 ||
		    !v2_in_program(cg, r))
			continue;
		r->allow = rule->allow;
		return;
	}
	insert_front(cg, rule);
}

static void v1_add(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule)
{
	if (rule->all || rule->type == 'a') { /* the kernel reads any "a..." as "a" */
		cg->v1_default_allow = rule->allow;
		cg->n_rules = 0;
		return;
	}
	bool towards_default = rule->allow == cg->v1_default_allow;
	for (size_t i = 0; i < cg->n_rules; i++) {
		struct lx_dev_rule *r = &cg->rules[i];
		if (!same_device(r, rule))
			continue;
		if (towards_default) {
			r->access &= ~rule->access;
			if (!r->access) {
				memmove(r, r + 1, (cg->n_rules - i - 1) * sizeof(*r));
				cg->n_rules--;
			}
		} else {
			r->access |= rule->access;
		}
		return;
	}
	if (!towards_default)
		insert_front(cg, rule);
}

void lx_dev_cgroup_add(struct lx_dev_cgroup *cg, const struct lx_dev_rule *rule)
{
	if (cg->version == LX_CGROUP_V2)
		v2_add(cg, rule);
	else
		v1_add(cg, rule);
}

static bool rule_matches_device(const struct lx_dev_rule *r, char type, unsigned major,
				unsigned minor)
{
	return (r->type == 'a' || r->type == type) && (r->major < 0 || r->major == major) &&
	       (r->minor < 0 || r->minor == minor);
}

bool lx_dev_cgroup_allows(const struct lx_dev_cgroup *cg, char type, unsigned major,
			  unsigned minor, unsigned access)
{
	if (cg->version == LX_CGROUP_V2) {
		if (cg->n_rules == 0)
			return true; /* no program attached */
		for (size_t i = 0; i < cg->n_rules; i++) {
			const struct lx_dev_rule *r = &cg->rules[i];
			if (!v2_in_program(cg, r) || !rule_matches_device(r, type, major, minor) ||
			    (access & ~r->access))
				continue;
			return r->allow;
		}
		return !cg->v2_block_all;
	}
	for (size_t i = 0; i < cg->n_rules; i++) {
		const struct lx_dev_rule *r = &cg->rules[i];
		if (!rule_matches_device(r, type, major, minor))
			continue;
		if (cg->v1_default_allow && (access & r->access))
			return false; /* an exception to "allow all" overlapping the access */
		if (!cg->v1_default_allow && !(access & ~r->access))
			return true; /* one exception to "deny all" covering it all */
	}
	return cg->v1_default_allow;
}
