// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the analysis alone, fed events built from the input.
 * The readers only produce events that parse; this one reaches states they
 * rarely do: any order of kinds, flags and pids, lost events, pid reuse,
 * idle tasks, odd options. Per CPU the times never go back, as the API
 * asks of its caller.
 *
 * Input: 8 option bytes, then 12 bytes per event.
 */
#include "fuzz-common.h"

#define NR_CPUS 4

static const char *const comms[] = { "a", "b", "hog", "<idle>", "<...>",
				      "sh", "x-very-long-name-beyond-comm-len-32" };

static void build_event(const uint8_t *p, uint64_t *ts, struct lt_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = p[0] % LT_EV_KIND_MAX;
	ev->cpu = p[1] % NR_CPUS;
	ev->pid = p[2] % 8;
	ev->flags = p[3];
	ev->preempt_count = p[4];
	/* Time steps from 0 to ~16 ms, biased small; sometimes a tick apart. */
	*ts += (uint64_t)(p[5] | p[6] << 8) << (p[7] & 0x08 ? 8 : 0);
	ev->ts = *ts;
	ev->missed = (p[7] & 0x07) == 7 ? LT_MISSED_UNKNOWN :
		     (p[7] & 0x07) == 6 ? p[8] : 0;
	ev->comm = ev->pid ? comms[p[8] % 7] : "<idle>";
	ev->system = "fuzz";
	ev->name = "fuzz";
	switch (ev->kind) {
	case LT_EV_SCHED_SWITCH:
		snprintf(ev->u.sched_switch.prev_comm, LT_COMM_LEN, "%s",
			 ev->comm);
		ev->u.sched_switch.prev_pid = p[9] & 0x80 ? ev->pid : p[9] % 8;
		ev->u.sched_switch.prev_state = p[10] % 3;
		snprintf(ev->u.sched_switch.prev_state_str, 8, "%s",
			 (const char *[]){ "R+", "R", "S" }[p[10] % 3]);
		ev->u.sched_switch.next_pid = p[11] % 8;
		snprintf(ev->u.sched_switch.next_comm, LT_COMM_LEN, "%s",
			 comms[p[11] % 7]);
		ev->u.sched_switch.prev_prio = 120;
		ev->u.sched_switch.next_prio = p[10] & 0x80 ? 1 : 120;
		break;
	case LT_EV_SCHED_WAKING:
	case LT_EV_SCHED_WAKEUP:
	case LT_EV_SCHED_WAKEUP_NEW:
		ev->u.wakeup.pid = p[9] % 8;
		snprintf(ev->u.wakeup.comm, LT_COMM_LEN, "%s", comms[p[9] % 7]);
		ev->u.wakeup.prio = p[10] & 0x80 ? 1 : 120;
		ev->u.wakeup.target_cpu = p[11] % (NR_CPUS + 1);
		break;
	case LT_EV_SCHED_PROCESS_EXIT:
	case LT_EV_SCHED_PROCESS_FORK:
		ev->u.process.pid = p[9] % 8;
		snprintf(ev->u.process.comm, LT_COMM_LEN, "%s", comms[p[9] % 7]);
		break;
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
		snprintf(ev->u.hrtimer.func, sizeof(ev->u.hrtimer.func), "%s",
			 p[9] & 1 ? "tick_nohz_handler" : "hrtimer_wakeup");
		break;
	case LT_EV_SYS_ENTER:
	case LT_EV_SYS_EXIT:
		ev->u.syscall.id = (long)(int8_t)p[9];
		break;
	case LT_EV_SOFTIRQ_ENTRY:
	case LT_EV_SOFTIRQ_EXIT:
		ev->u.softirq.vec = p[9];
		break;
	case LT_EV_FUNCTION:
		snprintf(ev->u.function.func, sizeof(ev->u.function.func), "%s",
			 p[9] & 1 ? "resched_curr_lazy" : "resched_curr");
		snprintf(ev->u.function.parent, sizeof(ev->u.function.parent),
			 "%s", p[10] & 1 ? "sched_tick" : "try_to_wake_up");
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_analysis_opts o = { .on_transition = fuzz_on_transition };
	unsigned long transitions = 0;
	struct lt_analysis *a;
	struct lt_event ev;
	uint64_t ts;
	size_t i;

	if (size < 8)
		return 0;
	o.data = &transitions;
	o.abi = data[0] % 5;
	o.tick_ns = data[1] & 0x80 ? (uint64_t)(data[1] & 0x7f) * 100000 : 0;
	o.hz = data[2] & 0x80 ? data[2] : 0;
	o.episode_ticks = data[3] & 0x80 ? (data[3] & 0x7f) / 16.0 : 0;
	o.hog_episodes = data[4] & 0x0f;
	o.hog_pending_ticks = data[5] & 0x80 ? (data[5] & 0x7f) / 8.0 : 0;
	ts = (uint64_t)data[6] << 40 | data[7];
	a = lt_analysis_new(&o);
	fuzz_assert(a);
	for (i = 8; i + 12 <= size; i += 12) {
		build_event(data + i, &ts, &ev);
		lt_analysis_feed(a, &ev);
	}
	lt_analysis_finish(a);
	fuzz_results(a);
	lt_analysis_free(a);
	return 0;
}
