/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON vocabulary shared by every command (docs/json.md): one key per
 * concept, and the text tables use the same words.
 */
#ifndef _LT_OUTPUT_JSON_H
#define _LT_OUTPUT_JSON_H

#include "output-analysis.h"

/* stats --json's tables, and each side's of compare --json. */
extern const char *const stats_json_tables[];

/* The transition counts every document and table shows, in their order. */
enum transition_count {
	TC_LAZY,
	TC_EAGER,
	TC_UPGRADES,		/* all upgrades, the tick's included */
	TC_TICK_UPGRADES,
	TC_FOLDS,
	TC_PREEMPTED,
	TC_YIELDED,
	TC_BLOCKED,
	TC_CLEARED,
	TC_TRUNCATED,
	NR_TRANSITION_KEYS,
};
/* preempted, yielded, blocked */
#define NR_SWITCH_KEYS 3

/* The key of transition count @i. */
const char *transition_key(enum transition_count i);
/* Its value, from per-kind counts indexed by enum lt_transition_kind. */
uint64_t transition_total(enum transition_count i, const uint64_t *count);
/* "lazy_latency_ns", ...: the key of a latency kind. */
const char *latency_key(enum lt_latency_kind k);
/* The enum lt_latency_kind of a latency table's kind, -1 if none. */
int latency_kind(const char *name);
/* "preempted", "yielded", "blocked" */
const char *switch_key(enum lt_prev_state k);


/* "upgrades_tick", ...: the column of an upgrade source (tables). */
const char *upgrade_source_key(enum lt_upgrade_source k);
/*
 * The current row of @t as an object (@key: its member name, NULL in an
 * array): every column, by its type, null as null.
 */
void json_row(struct json *j, const char *key, struct lt_table *t);

#endif /* _LT_OUTPUT_JSON_H */
