/* A stand-in driver library for test-userspace: an ELF shared object whose
 * soname the build sets (ldconfig and lxgpu read it). */
int lx_fake_driver_entry(void);
int lx_fake_driver_entry(void)
{
	return 42;
}
