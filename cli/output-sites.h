/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hog call sites in text and folded stacks (output-sites.c).
 */
#ifndef _LT_OUTPUT_SITES_H
#define _LT_OUTPUT_SITES_H

#include "cli.h"

enum folded_weight {
	FOLDED_EPISODES = 0,
	FOLDED_PENDING,
};

/*
 * The current row of a sites or stacks table as "site <- caller <- ... <-
 * outer": the first @head frames from the site and the @tail outermost
 * ones before the system call entry.
 */
void site_abbrev_row(struct lt_table *t, unsigned int head, unsigned int tail,
		     char *buf, size_t len);

/*
 * The folded line of the current row of the stacks table,
 * "comm-pid;...;site weight"; nothing for a weight of 0.
 */
void folded_row(FILE *fp, struct lt_table *t, enum folded_weight w);

#endif /* _LT_OUTPUT_SITES_H */
