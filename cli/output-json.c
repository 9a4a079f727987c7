// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of the JSON the CLI writes itself (live --json; the other
 * commands write the library's tables): the columns of those tables,
 * defined here once (docs/json.md), and a table's row as an object.
 */
#include <string.h>

#include "output-json.h"

/*
 * Transition counts, in the order of the tables. "upgrades" are all the
 * eager requests made on top of a pending lazy one, the tick's included:
 * what upgrades_by_source adds up to; "tick_upgrades" is the tick's part.
 */
static const struct {
	const char *key;
	unsigned int kinds;
} transition_keys[NR_TRANSITION_KEYS] = {
	[TC_LAZY] = { "lazy", 1u << LT_TR_LAZY },
	[TC_EAGER] = { "eager", 1u << LT_TR_EAGER },
	[TC_UPGRADES] = { "upgrades",
			  1u << LT_TR_UPGRADE | 1u << LT_TR_TICK_UPGRADE },
	[TC_TICK_UPGRADES] = { "tick_upgrades", 1u << LT_TR_TICK_UPGRADE },
	[TC_FOLDS] = { "folds", 1u << LT_TR_FOLD },
	[TC_PREEMPTED] = { "preempted", 1u << LT_TR_PREEMPTED },
	[TC_YIELDED] = { "yielded", 1u << LT_TR_YIELDED },
	[TC_BLOCKED] = { "blocked", 1u << LT_TR_BLOCKED },
	[TC_CLEARED] = { "cleared", 1u << LT_TR_CLEARED },
	[TC_TRUNCATED] = { "truncated", 1u << LT_TR_TRUNCATED },
};

static const char *const latency_keys[LT_LAT_KIND_MAX] = {
	[LT_LAT_LAZY_SERVED] = "lazy_latency_ns",
	[LT_LAT_EAGER_SERVED] = "eager_latency_ns",
	[LT_LAT_LAZY_UPGRADE] = "lazy_upgrade_ns",
	[LT_LAT_FOLD_SERVED] = "fold_latency_ns",
};

static const char *const switch_keys[NR_SWITCH_KEYS] = {
	[LT_PREV_PREEMPTED] = "preempted",
	[LT_PREV_YIELDED] = "yielded",
	[LT_PREV_BLOCKED] = "blocked",
};

const char *transition_key(enum transition_count i)
{
	return transition_keys[i].key;
}

uint64_t transition_total(enum transition_count i, const uint64_t *count)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < LT_TR_KIND_MAX; k++)
		if (transition_keys[i].kinds & 1u << k)
			n += count[k];
	return n;
}

const char *latency_key(enum lt_latency_kind k)
{
	return latency_keys[k];
}

int latency_kind(const char *name)
{
	/* the latency table's kind column, in enum lt_latency_kind's order */
	static const char *const kinds[LT_LAT_KIND_MAX] = {
		[LT_LAT_LAZY_SERVED] = "lazy_served",
		[LT_LAT_EAGER_SERVED] = "eager_served",
		[LT_LAT_LAZY_UPGRADE] = "lazy_upgrade",
		[LT_LAT_FOLD_SERVED] = "fold_served",
	};
	int k;

	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		if (!strcmp(kinds[k], name))
			return k;
	return -1;
}

const char *switch_key(enum lt_prev_state k)
{
	return switch_keys[k];
}

const char *upgrade_source_key(enum lt_upgrade_source k)
{
	static const char *const keys[LT_UPG_SOURCE_MAX] = {
		[LT_UPG_TICK] = "upgrades_tick",
		[LT_UPG_HRTICK] = "upgrades_hrtick",
		[LT_UPG_TIMER] = "upgrades_timer",
		[LT_UPG_IRQ] = "upgrades_irq",
		[LT_UPG_DIRECT] = "upgrades_direct",
	};

	return keys[k];
}

void json_row(struct json *j, const char *key, struct lt_table *t)
{
	unsigned int c, n = lt_table_nr_columns(t);
	const char *name;

	json_begin_object(j, key);
	for (c = 0; c < n; c++) {
		name = lt_table_column_name(t, c);
		if (lt_table_null(t, c)) {
			json_null(j, name);
			continue;
		}
		switch (lt_table_column_type(t, c)) {
		case LT_COL_INT:
			json_int(j, name, lt_table_int(t, c));
			break;
		case LT_COL_BOOL:
			json_bool(j, name, lt_table_int(t, c));
			break;
		case LT_COL_DOUBLE:
			json_double(j, name, lt_table_double(t, c));
			break;
		case LT_COL_STRING:
			json_str(j, name, lt_table_string(t, c));
			break;
		default:
			json_uint(j, name, lt_table_uint(t, c));
			break;
		}
	}
	json_end_object(j);
}
