/* Kernel module versions from the .modinfo section, without modinfo(8). */
#include "lxgpu/predict.h"

#include <elf.h>
#include <string.h>

#define MODULE_MAX_SIZE (512u << 20)

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Little-endian ELF64 (x86_64, aarch64): what Proxmox runs on. */
int lx_modinfo_parse_elf(const char *name, const unsigned char *data, size_t len,
			 struct lx_strv *fields, struct lx_error *err)
{
	if (len < sizeof(Elf64_Ehdr) || memcmp(data, ELFMAG, SELFMAG) != 0)
		return lx_error_set(err, "%s: not an ELF file", name);
	if (data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != ELFDATA2LSB)
		return lx_error_set(err, "%s: not a little-endian 64-bit ELF file", name);
	uint64_t shoff = get64(data + offsetof(Elf64_Ehdr, e_shoff));
	uint16_t shentsize = get16(data + offsetof(Elf64_Ehdr, e_shentsize));
	uint16_t shnum = get16(data + offsetof(Elf64_Ehdr, e_shnum));
	uint16_t shstrndx = get16(data + offsetof(Elf64_Ehdr, e_shstrndx));
	if (shentsize < sizeof(Elf64_Shdr) || shstrndx >= shnum || shoff > len ||
	    (uint64_t)shnum * shentsize > len - shoff)
		return lx_error_set(err, "%s: broken ELF section table", name);
	const unsigned char *strtab_hdr = data + shoff + (uint64_t)shstrndx * shentsize;
	uint64_t str_off = get64(strtab_hdr + offsetof(Elf64_Shdr, sh_offset));
	uint64_t str_size = get64(strtab_hdr + offsetof(Elf64_Shdr, sh_size));
	if (str_off > len || str_size > len - str_off)
		return lx_error_set(err, "%s: broken ELF section names", name);
	for (uint16_t i = 0; i < shnum; i++) {
		const unsigned char *sh = data + shoff + (uint64_t)i * shentsize;
		uint32_t name_off = get32(sh + offsetof(Elf64_Shdr, sh_name));
		if (name_off >= str_size)
			continue;
		const char *sec = (const char *)data + str_off + name_off;
		size_t room = str_size - name_off;
		if (strnlen(sec, room) == room || strcmp(sec, ".modinfo") != 0)
			continue;
		uint64_t off = get64(sh + offsetof(Elf64_Shdr, sh_offset));
		uint64_t size = get64(sh + offsetof(Elf64_Shdr, sh_size));
		if (off > len || size > len - off)
			return lx_error_set(err, "%s: broken .modinfo section", name);
		/* NUL-separated "key=value" strings (with padding NULs between). */
		const char *p = (const char *)data + off, *end = p + size;
		while (p < end) {
			size_t n = strnlen(p, (size_t)(end - p));
			if (n && memchr(p, '=', n))
				lx_strv_push_owned(fields, lx_xstrndup(p, n));
			p += n + 1;
		}
		return 0;
	}
	return lx_error_set(err, "%s: no .modinfo section: not a kernel module", name);
}

int lx_modinfo_read(const char *path, struct lx_strv *fields, struct lx_error *err)
{
	struct lx_buf data = {0};
	if (lx_file_read_decompressed(path, MODULE_MAX_SIZE, &data, err) < 0)
		return -1;
	int rc = lx_modinfo_parse_elf(path, (const unsigned char *)data.data, data.len, fields, err);
	lx_buf_free(&data);
	return rc;
}

const char *lx_modinfo_get(const struct lx_strv *fields, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < fields->n; i++)
		if (strncmp(fields->items[i], key, n) == 0 && fields->items[i][n] == '=')
			return fields->items[i] + n + 1;
	return NULL;
}
