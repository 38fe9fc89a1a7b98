/* Causes of a CUDA failure that leave the kernel log empty, told from the
 * host model alone: nvidia_uvm's HMM support with the open module. */
#include "lxgpu/doctor.h"

#include <stdlib.h>
#include <string.h>

/* NVIDIA's open module builds nvidia_uvm's HMM support from r530 on (off
 * by default there, on by default on x86_64 from r535:
 * kernel-open/nvidia-uvm/uvm_hmm.c's uvm_disable_hmm). */
#define HMM_FIRST_BRANCH 530

static bool hmm_branch(const char *version)
{
	return version && strtoul(version, NULL, 10) >= HMM_FIRST_BRANCH;
}

bool lx_doctor_uvm_hmm_on(const struct lx_host *host)
{
	const struct lx_kernel_config *kc = &host->kernel_config;
	return host->driver.flavor == LX_FLAVOR_OPEN && hmm_branch(host->driver.version) &&
	       lx_host_has_module(host, "nvidia_uvm") && host->driver.uvm_disable_hmm == LX_NO &&
	       kc->source && kc->hmm_mirror == LX_YES && kc->device_private == LX_YES;
}

/* LXG132. nvidia_uvm turns HMM on when uvm_disable_hmm is N and the kernel
 * has CONFIG_HMM_MIRROR and CONFIG_DEVICE_PRIVATE (uvm_linux.h's
 * UVM_IS_CONFIG_HMM); then registering a GPU sets up device-private memory
 * for all of its memory (uvm_pmm_gpu.c uvm_pmm_devmem_init), and where that
 * fails the GPU's registration fails. Its only message,
 * "failed to intialize device private memory" (uvm_gpu.c init_parent_gpu),
 * is printed only with uvm_debug_prints=1: the log stays empty and cuInit
 * returns 3 while nvidia-smi, which does not use nvidia_uvm, works.
 * Public reports: NVIDIA/open-gpu-kernel-modules#947 (L20, EL10, 570-580),
 * #901 (RTX 6000 Ada, EL9), #797 (RTX 3080, NixOS, 570),
 * ollama/ollama#11593 (RTX PRO 6000 Blackwell, 575); all fixed by
 * uvm_disable_hmm=1; the proprietary module is not affected. */
void lx_doctor_uvm_hmm(const struct lx_host *host, const struct lx_cuda_probe *probe,
		       struct lx_findings *out)
{
	if (!lx_doctor_uvm_hmm_on(host))
		return;
	bool failed3 = probe && probe->answered && probe->init == 3;
	bool works = probe && probe->answered && probe->init == 0;
	const struct lx_kernel_config *kc = &host->kernel_config;
	lx_findings_add(
		out, LXG132_UVM_HMM, NULL, NULL, 0, NULL,
		lx_xasprintf("%snvidia_uvm's HMM support is on (open kernel module %s, uvm_disable_hmm N, "
			     "a kernel built with CONFIG_HMM_MIRROR and CONFIG_DEVICE_PRIVATE): the known "
			     "cause of cuInit() failing with error 3 (CUDA_ERROR_NOT_INITIALIZED) on the "
			     "host and in every container while nvidia-smi works and the kernel log says "
			     "nothing; containers do not need HMM%s",
			     failed3 ? "cuInit 3 and HMM on: " : "", host->driver.version,
			     works ? " (cuInit succeeded on the host now: nothing to fix unless a "
				     "container's fails)"
				   : ""),
		lx_xstrdup("with the containers that use CUDA stopped (nvidia_uvm is in use while "
			   "they run): `modprobe -r nvidia_uvm`, then `modprobe nvidia_uvm "
			   "uvm_disable_hmm=1`; for the next boots add the line 'options nvidia_uvm "
			   "uvm_disable_hmm=1' to /etc/modprobe.d/nvidia-uvm.conf and run "
			   "update-initramfs -u"));
	lx_findings_last_evidence(
		out, lx_xasprintf("/proc/driver/nvidia/version: Open Kernel Module %s\n"
				  "/sys/module/nvidia_uvm/parameters/uvm_disable_hmm: N\n"
				  "%s: CONFIG_HMM_MIRROR=y, CONFIG_DEVICE_PRIVATE=y",
				  host->driver.version, kc->source));
	if (failed3 || works)
		lx_findings_last_severity(out, failed3 ? LX_SEVERITY_ERROR : LX_SEVERITY_INFO);
}
