/* doctor's peer-to-peer findings: the verdicts of lx_p2p_assess, summed up
 * over the pairs (eight GPUs are 28 pairs: one finding per cause, not per
 * pair). */
#include "lxgpu/doctor.h"
#include "lxgpu/p2p.h"

#include <string.h>

static void push_unique(struct lx_strv *v, const char *s)
{
	if (!lx_strv_contains(v, s))
		lx_strv_push(v, s);
}

void lx_doctor_p2p(const struct lx_host *host, struct lx_findings *out)
{
	struct lx_p2p_report r;
	lx_p2p_assess(host, &r);
	if (!r.n) {
		lx_p2p_report_free(&r);
		return;
	}
	/* LXG160: every GPU in a pair whose group translates. */
	struct lx_strv gpus = {0}, evidence = {0};
	bool blocked = false;
	for (size_t i = 0; i < r.n; i++)
		for (int k = 0; k < 2; k++) {
			enum lx_iommu_type t = r.pairs[i].iommu[k];
			if (!lx_iommu_type_translates(t) && t != LX_IOMMU_BLOCKED)
				continue;
			const struct lx_gpu *g = &host->gpus[r.pairs[i].gpu[k]];
			_cleanup_free_ char *name = lx_xasprintf("%zu (%s)", r.pairs[i].gpu[k], g->bdf);
			_cleanup_free_ char *ev = lx_xasprintf("/sys/kernel/iommu_groups/%d/type: %s",
							       g->iommu_group, lx_iommu_type_name(t));
			blocked |= t == LX_IOMMU_BLOCKED;
			push_unique(&gpus, name);
			push_unique(&evidence, ev);
		}
	if (gpus.n) {
		_cleanup_free_ char *list = lx_strv_join(&gpus, ", ");
		lx_findings_add(out, LXG160_P2P_IOMMU_TRANSLATES, NULL, NULL, 0, NULL,
				lx_xasprintf("the IOMMU %s the DMA of GPU%s %s, so %s peer-to-peer "
					     "DMA with the other GPUs goes through it (NCCL: a large "
					     "slowdown or a hang)",
					     blocked ? "translates or blocks" : "translates",
					     gpus.n > 1 ? "s" : "", list, gpus.n > 1 ? "their" : "its"),
				lx_xstrdup("boot with iommu=pt on the kernel command line "
					   "(/etc/default/grub, or /etc/kernel/cmdline with "
					   "proxmox-boot-tool refresh): the groups then read identity"));
		lx_findings_last_evidence(out, lx_strv_join(&evidence, "\n"));
	}
	lx_strv_free(&gpus);
	lx_strv_free(&evidence);

	/* LXG161: the redirecting ports, with the pairs they stand between. */
	struct lx_strv ports = {0}, pairs = {0};
	evidence = (struct lx_strv){0};
	bool no_iommu = true;
	for (size_t i = 0; i < r.n; i++) {
		const struct lx_p2p_pair *p = &r.pairs[i];
		if (p->acs_redirect != LX_YES)
			continue;
		_cleanup_free_ char *pair = lx_xasprintf("%zu-%zu", p->gpu[0], p->gpu[1]);
		push_unique(&pairs, pair);
		no_iommu &= p->iommu[0] == LX_IOMMU_NONE && p->iommu[1] == LX_IOMMU_NONE;
		for (size_t j = 0; j < p->n_bridges; j++) {
			if (p->bridges[j].redirect != LX_YES)
				continue;
			push_unique(&ports, p->bridges[j].bdf);
			uint16_t ctrl = p->bridges[j].bridge->acs_ctrl;
			_cleanup_free_ char *bits = lx_acs_control_describe(ctrl);
			_cleanup_free_ char *ev =
				lx_xasprintf("/sys/bus/pci/devices/%s/config: ACS control 0x%04x (%s)",
					     p->bridges[j].bdf, ctrl, bits);
			push_unique(&evidence, ev);
		}
	}
	if (ports.n) {
		_cleanup_free_ char *list = lx_strv_join(&ports, ", "), *param = lx_strv_join(&ports, ";"),
				    *pair_list = lx_strv_join(&pairs, ", ");
		lx_findings_add(out, LXG161_P2P_ACS_REDIRECT, NULL, NULL, 0, NULL,
				lx_xasprintf("ACS redirect on switch port%s %s: the peer traffic of "
					     "GPU pair%s %s goes up to the root complex instead of "
					     "across the switch",
					     ports.n > 1 ? "s" : "", list, pairs.n > 1 ? "s" : "",
					     pair_list),
				lx_xasprintf("boot with pci=disable_acs_redir=%s%s", param,
					     no_iommu ? " (the IOMMU is off, so the firmware set "
							"these bits: or turn PCIe ACS off in its "
							"setup)"
						      : ""));
		lx_findings_last_evidence(out, lx_strv_join(&evidence, "\n"));
	}
	lx_strv_free(&ports);
	lx_strv_free(&pairs);
	lx_strv_free(&evidence);

	/* LXG162: pairs judged unknown, with what could not be read. */
	struct lx_strv unknown = {0}, reasons = {0}, fixes = {0};
	for (size_t i = 0; i < r.n; i++) {
		const struct lx_p2p_pair *p = &r.pairs[i];
		if (p->verdict != LX_P2P_UNKNOWN)
			continue;
		_cleanup_free_ char *pair = lx_xasprintf("%zu-%zu", p->gpu[0], p->gpu[1]);
		push_unique(&unknown, pair);
		for (size_t j = 0; j < p->reasons.n; j++)
			push_unique(&reasons, p->reasons.items[j]);
		for (size_t j = 0; j < p->fixes.n; j++)
			push_unique(&fixes, p->fixes.items[j]);
	}
	if (unknown.n) {
		_cleanup_free_ char *list = lx_strv_join(&unknown, ", "), *why = lx_strv_join(&reasons, "; ");
		/* The pairs' own fixes: root for ACS, a newer kernel for the type. */
		lx_findings_add(out, LXG162_P2P_UNKNOWN, NULL, NULL, 0, NULL,
				lx_xasprintf("whether peer-to-peer DMA works between GPU pair%s %s "
					     "is unknown: %s",
					     unknown.n > 1 ? "s" : "", list, why),
				lx_strv_join(&fixes, "; "));
	}
	lx_strv_free(&fixes);
	lx_strv_free(&unknown);
	lx_strv_free(&reasons);
	lx_p2p_report_free(&r);
}
