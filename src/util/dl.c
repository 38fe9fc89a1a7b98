/* Libraries loaded on first use (dlopen), as systemd loads its optional
 * ones: a command maps only what it uses. libarchive for archives
 * (targz.c), libudev for the live scan (host/scan.c). */
#include "lxgpu/util.h"

#include <dlfcn.h>

int lx_dl_load(const char *soname, const char *needed_for, const char *package,
	       const struct lx_dl_symbol *symbols, size_t n, struct lx_error *err)
{
	/* Loaded once per process and kept, as a linked library would be:
	 * a second dlopen of the same soname only counts a reference. */
	void *dl = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		return lx_error_set(err, "cannot load %s (needed for %s): %s; install %s", soname,
				    needed_for, dlerror(), package);
	for (size_t i = 0; i < n; i++) {
		void *p = dlsym(dl, symbols[i].name);
		if (!p) {
			lx_error_set(err, "%s has no %s: an incompatible %s", soname, symbols[i].name,
				     package);
			dlclose(dl);
			return -1;
		}
		*symbols[i].slot = p;
	}
	return 0;
}
