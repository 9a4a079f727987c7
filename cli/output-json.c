// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of the JSON the CLI writes itself (live --json; the other
 * commands write the library's tables): the columns of those tables,
 * defined here once (docs/json.md), and perfetto's otherData.
 */
#include <string.h>

#include "output-json.h"

_Static_assert(sizeof(((struct lt_task_stats *)0)->switches) ==
	       NR_SWITCH_KEYS * sizeof(uint64_t), "one key per switch kind");

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

void json_transitions(struct json *j, const uint64_t *count)
{
	int i;

	for (i = 0; i < NR_TRANSITION_KEYS; i++)
		json_uint(j, transition_key(i), transition_total(i, count));
}

void json_shares(struct json *j, const struct lt_task_stats *t)
{
	json_uint(j, "runtime_ns", t->runtime_ns);
	json_double(j, "trace_share", t->trace_share);
	json_double(j, "lifetime_share", t->lifetime_share);
}

void json_upgrades_by_source(struct json *j, const uint64_t *by_source)
{
	int k;

	json_begin_object(j, "upgrades_by_source");
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		json_uint(j, lt_upgrade_source_name(k), by_source[k]);
	json_end_object(j);
}

/* The tick and how requests are known: the same keys in every document. */
static void json_tick(struct json *j, const struct lt_analysis_summary *s)
{
	if (s->tick_source == LT_TICK_UNKNOWN)
		json_null(j, "tick_ns");
	else
		json_uint(j, "tick_ns", s->tick_ns);
	json_str(j, "tick_source", lt_tick_source_name(s->tick_source));
	json_str(j, "requests", s->requests_probe ? "probe" : "flags");
}

void json_tick_setup(struct json *j, const struct lt_analysis_summary *s)
{
	json_tick(j, s);
	json_upgrades_by_source(j, s->upgrades_by_source);
	json_begin_object(j, "setup");
	if (s->setup.release[0])
		json_str(j, "release", s->setup.release);
	if (s->setup.preempt[0])
		json_str(j, "preempt", s->setup.preempt);
	if (s->setup.hz)
		json_uint(j, "hz", s->setup.hz);
	if (s->setup.sched_features[0])
		json_str(j, "sched_features", s->setup.sched_features);
	json_end_object(j);
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

void json_setup(struct json *j, const struct lt_analysis_summary *s)
{
	json_tick(j, s);
	if (s->setup.release[0])
		json_str(j, "kernel", s->setup.release);
	else
		json_null(j, "kernel");
	if (s->setup.preempt[0])
		json_str(j, "preempt", s->setup.preempt);
	else
		json_null(j, "preempt");
	if (s->setup.hz)
		json_uint(j, "hz", s->setup.hz);
	else
		json_null(j, "hz");
	if (s->setup.sched_features[0])
		json_str(j, "sched_features", s->setup.sched_features);
	else
		json_null(j, "sched_features");
}

void json_summary(struct json *j, const struct lt_analysis_summary *s)
{
	int k;

	json_begin_object(j, "summary");
	json_transitions(j, s->count);
	for (k = 0; k < NR_SWITCH_KEYS; k++) {
		char key[32];

		snprintf(key, sizeof(key), "switches_%s", switch_key(k));
		json_uint(j, key, s->switches[k]);
	}
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		json_uint(j, upgrade_source_key(k), s->upgrades_by_source[k]);
	json_uint(j, "ticks", s->ticks);
	json_uint(j, "tasks", s->nr_tasks);
	json_uint(j, "hogs", s->nr_hogs);
	json_end_object(j);
}
