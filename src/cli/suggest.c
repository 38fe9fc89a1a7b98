/* "Did you mean": the closest known name to a mistyped command or option. */
#include "cli.h"

#include <string.h>

/* Optimal string alignment distance: Levenshtein plus the swap of two
 * neighbours ("scna" -> "scan" is one edit), as git's "did you mean" counts. */
static size_t distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 64 || m > 64)
		return (size_t)-1;
	size_t d[65][65];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[n][m];
}

const char *cli_suggest(const char *typed, const char *const *names, size_t n)
{
	const char *best = NULL, *prefix_of = NULL;
	size_t best_d = (size_t)-1, n_prefix = 0, len = strlen(typed);
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		if (len >= 2 && lx_str_starts_with(names[i], typed)) {
			prefix_of = names[i];
			n_prefix++;
		}
		size_t d = distance(typed, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	/* Close enough to be a typo: one edit in a short name, two in a
	 * longer one, never most of the word. */
	size_t allowed = len <= 4 ? 1 : 2;
	if (best && best_d <= allowed && best_d < len)
		return best;
	return n_prefix == 1 ? prefix_of : NULL;
}
