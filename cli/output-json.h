/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON vocabulary shared by every command (docs/json.md): one key per
 * concept, and the text tables use the same words.
 */
#ifndef _LT_OUTPUT_JSON_H
#define _LT_OUTPUT_JSON_H

#include "output-analysis.h"

/* Version of the JSON documents, see docs/json.md. */
#define LT_JSON_VERSION 2

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
/* "preempted", "yielded", "blocked" */
const char *switch_key(enum lt_prev_state k);

/* Open the document every table command prints: version, file, ABI. */
void json_document_start(struct json *j, const struct analysis_cli *o,
			 const struct lt_analysis_summary *s);
/* Every transition count, as members of the open object. */
void json_transitions(struct json *j, const uint64_t *count);
/* "switches": {preempted, yielded, blocked} */
void json_switches(struct json *j, const uint64_t *switches);
/* A latency object {count, p50, p90, p99, max}. */
void json_latency(struct json *j, const char *key, const struct lt_latency *l);
/* Every latency kind, each as json_latency() under its key. */
void json_latencies(struct json *j, const struct lt_latency *lat);
/* runtime_ns, trace_share, lifetime_share of a task */
void json_shares(struct json *j, const struct lt_task_stats *t);
/* "lost_events", "lost_events_unknown" and "lost_events_per_cpu". */
void json_lost(struct json *j, const struct lt_analysis *a);
/* "upgrades_by_source": {tick, hrtick, timer, irq, direct} */
void json_upgrades_by_source(struct json *j, const uint64_t *by_source);
/* tick_ns, tick_source, requests, upgrades_by_source, setup */
void json_tick_setup(struct json *j, const struct lt_analysis_summary *s);

#endif /* _LT_OUTPUT_JSON_H */
