// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON vocabulary of every command: each concept has one key, defined
 * here once, and one function that writes it (docs/json.md).
 */
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

void json_switches(struct json *j, const uint64_t *switches)
{
	int k;

	json_begin_object(j, "switches");
	for (k = 0; k < NR_SWITCH_KEYS; k++)
		json_uint(j, switch_key(k), switches[k]);
	json_end_object(j);
}

void json_latencies(struct json *j, const struct lt_latency *lat)
{
	int k;

	for (k = 0; k < LT_LAT_KIND_MAX; k++)
		json_latency(j, latency_key(k), &lat[k]);
}

void json_shares(struct json *j, const struct lt_task_stats *t)
{
	json_uint(j, "runtime_ns", t->runtime_ns);
	json_double(j, "trace_share", t->trace_share);
	json_double(j, "lifetime_share", t->lifetime_share);
}

void json_lost(struct json *j, const struct lt_analysis *a)
{
	const struct lt_analysis_summary *s = lt_analysis_summary(a);
	bool unknown;
	int cpu;

	json_uint(j, "lost_events", s->lost_events);
	json_bool(j, "lost_events_unknown", s->lost_unknown != 0);
	json_begin_array(j, "lost_events_per_cpu");
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint64_t n = lt_analysis_lost(a, cpu, &unknown);

		json_begin_object(j, NULL);
		json_int(j, "cpu", cpu);
		json_uint(j, "lost", n);
		json_bool(j, "unknown", unknown);
		json_end_object(j);
	}
	json_end_array(j);
}


void json_document_start(struct json *j, const struct analysis_cli *o,
			 const struct lt_analysis_summary *s)
{
	json_init(j, stdout, false);
	json_begin_object(j, NULL);
	json_int(j, "version", LT_JSON_VERSION);
	json_str(j, "file", o->in.file);
	json_str(j, "abi", lt_abi_name(s->abi));
	json_bool(j, "lazy_preemption", s->lazy_seen);
}


void json_latency(struct json *j, const char *key, const struct lt_latency *l)
{
	json_begin_object(j, key);
	json_uint(j, "count", l->count);
	json_uint(j, "p50", l->p50);
	json_uint(j, "p90", l->p90);
	json_uint(j, "p99", l->p99);
	json_uint(j, "max", l->max);
	json_end_object(j);
}


void json_upgrades_by_source(struct json *j, const uint64_t *by_source)
{
	int k;

	json_begin_object(j, "upgrades_by_source");
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		json_uint(j, lt_upgrade_source_name(k), by_source[k]);
	json_end_object(j);
}


void json_tick_setup(struct json *j, const struct lt_analysis_summary *s)
{
	if (s->tick_source == LT_TICK_UNKNOWN)
		json_null(j, "tick_ns");
	else
		json_uint(j, "tick_ns", s->tick_ns);
	json_str(j, "tick_source", lt_tick_source_name(s->tick_source));
	json_str(j, "requests", s->requests_probe ? "probe" : "flags");
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

