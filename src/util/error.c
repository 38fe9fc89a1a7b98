#include "lxgpu/util.h"

#include <string.h>

int lx_error_set(struct lx_error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *msg = lx_xvasprintf(fmt, ap);
	va_end(ap);
	free(err->message);
	err->message = msg;
	return -1;
}

int lx_error_set_errno(struct lx_error *err, int errnum, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = lx_xvasprintf(fmt, ap);
	va_end(ap);
	return lx_error_set(err, "%s: %s", msg, strerror(errnum));
}

int lx_error_prefix(struct lx_error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *prefix = lx_xvasprintf(fmt, ap);
	va_end(ap);
	char *msg = lx_xasprintf("%s: %s", prefix, err->message ? err->message : "unknown error");
	free(prefix);
	free(err->message);
	err->message = msg;
	return -1;
}

void lx_error_clear(struct lx_error *err)
{
	if (!err)
		return;
	free(err->message);
	err->message = NULL;
}
