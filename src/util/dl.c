/* Libraries loaded on first use (dlopen), as systemd loads its optional
 * ones: a command maps only what it uses. libarchive for archives
 * (targz.c), libudev for the live scan (host/scan.c). */
#include "lxgpu/util.h"

#include <dlfcn.h>

int lx_dl_load(struct lx_dl_library *lib, struct lx_error *err)
{
	if (lib->loaded)
		return 0;
	/* Kept until exit, as a linked library would be. */
	void *dl = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		return lx_error_set(err, "cannot load %s (needed for %s): %s; install %s", lib->soname,
				    lib->needed_for, dlerror(), lib->package);
	for (size_t i = 0; i < lib->n_symbols; i++) {
		void *p = dlsym(dl, lib->symbols[i].name);
		if (!p) {
			lx_error_set(err, "%s has no %s: an incompatible %s", lib->soname,
				     lib->symbols[i].name, lib->package);
			dlclose(dl);
			return -1;
		}
		*lib->symbols[i].slot = p;
	}
	lib->loaded = true;
	return 0;
}
