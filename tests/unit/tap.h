/* A minimal TAP producer for the unit tests (meson test, protocol: tap). */
#ifndef LXGPU_TAP_H
#define LXGPU_TAP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline bool tap_ok(bool cond, const char *what, const char *file, int line)
{
	tap_count++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_count, what);
	if (!cond) {
		tap_failed++;
		printf("# failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, what) tap_ok((cond), (what), __FILE__, __LINE__)

static inline bool tap_str_eq(const char *got, const char *want, const char *what,
			      const char *file, int line)
{
	bool same = (got == NULL && want == NULL) || (got && want && strcmp(got, want) == 0);
	if (!tap_ok(same, what, file, line))
		printf("#   got:  %s\n#   want: %s\n", got ? got : "(null)", want ? want : "(null)");
	return same;
}
#define str_eq(got, want, what) tap_str_eq((got), (want), (what), __FILE__, __LINE__)

static inline bool tap_int_eq(long long got, long long want, const char *what, const char *file,
			      int line)
{
	if (!tap_ok(got == want, what, file, line))
		printf("#   got:  %lld\n#   want: %lld\n", got, want);
	return got == want;
}
#define int_eq(got, want, what) tap_int_eq((got), (want), (what), __FILE__, __LINE__)

/* A check that cannot run here (why: the reason); with CI=true a failure,
 * as the shell tests' skip. */
static inline void tap_skip(const char *why)
{
	tap_count++;
	const char *ci = getenv("CI");
	if (ci && strcmp(ci, "true") == 0) {
		tap_failed++;
		printf("not ok %d - cannot run here, and CI=true allows no skip: %s\n", tap_count, why);
	} else {
		printf("ok %d # SKIP %s\n", tap_count, why);
	}
}
#define skip(why) tap_skip(why)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
