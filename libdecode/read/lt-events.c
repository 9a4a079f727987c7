// SPDX-License-Identifier: LGPL-2.1
/*
 * The one list of the events the analysis knows: the readers name their
 * kinds from it, and `record` enables from it (lt-tracefs.c) and writes
 * the formats of its systems (lt-tracefs-dat.c). An event is added here,
 * with whether recording it pays, and why.
 */
#include <stddef.h>
#include <string.h>

#include "lt-internal.h"

const struct lt_known_event lt_known_events[] = {
	{ "sched", "sched_switch", LT_EV_SCHED_SWITCH, LT_REC_REQUIRED,
	  "who runs: every request ends at a switch or a clear" },
	{ "sched", "sched_waking", LT_EV_SCHED_WAKING, LT_REC_ALWAYS,
	  "names the tasks a wakeup asks to run" },
	{ "sched", "sched_wakeup", LT_EV_SCHED_WAKEUP, LT_REC_ALWAYS,
	  "names the tasks a wakeup asks to run" },
	{ "sched", "sched_wakeup_new", LT_EV_SCHED_WAKEUP_NEW, LT_REC_ALWAYS,
	  "a new task: its pid names a new record" },
	{ "sched", "sched_process_fork", LT_EV_SCHED_PROCESS_FORK,
	  LT_REC_ALWAYS, "a new task: its pid names a new record" },
	{ "sched", "sched_process_exit", LT_EV_SCHED_PROCESS_EXIT,
	  LT_REC_ALWAYS, "the task is gone: its pid may come back as another" },
	/*
	 * Readers name it for their callers, but the analysis follows a
	 * task from CPU to CPU by its switches and needs no migration;
	 * migrations come with wakeups and load balancing, many on a busy
	 * machine: not worth their volume.
	 */
	{ "sched", "sched_migrate_task", LT_EV_SCHED_MIGRATE_TASK, LT_REC_NO,
	  "the switches place every task: migrations add volume, no answer" },
	{ "irq_vectors", "local_timer_entry", LT_EV_LOCAL_TIMER_ENTRY,
	  LT_REC_IF_PRESENT, "the timer interrupt (x86): the tick's window" },
	{ "irq_vectors", "local_timer_exit", LT_EV_LOCAL_TIMER_EXIT,
	  LT_REC_IF_PRESENT, "the timer interrupt (x86): the tick's window" },
	{ "timer", "hrtimer_expire_entry", LT_EV_HRTIMER_EXPIRE_ENTRY,
	  LT_REC_IF_PRESENT,
	  "the tick by its timer function; which timer made an upgrade" },
	{ "timer", "hrtimer_expire_exit", LT_EV_HRTIMER_EXPIRE_EXIT,
	  LT_REC_IF_PRESENT, "the end of the timer's window" },
	{ "timer", "hrtimer_start", LT_EV_HRTIMER_START, LT_REC_IF_PRESENT,
	  "the tick's expiry grid: its length where CPUs idle (NO_HZ)" },
	{ "irq_vectors", "reschedule_entry", LT_EV_RESCHEDULE_ENTRY,
	  LT_REC_IF_PRESENT,
	  "an IPI delivers another CPU's request: a direct upgrade" },
	{ "irq_vectors", "reschedule_exit", LT_EV_RESCHEDULE_EXIT,
	  LT_REC_IF_PRESENT, "the end of the IPI" },
	/*
	 * Not irq:softirq_raise: about as many events as softirq_entry, and
	 * the analysis gains nothing from them (on the all-events
	 * recordings the same results without them; on arm64, with them, a
	 * few us of interrupt time more in the hogs' pending time).
	 */
	{ "irq", "softirq_entry", LT_EV_SOFTIRQ_ENTRY, LT_REC_ALWAYS,
	  "softirq time after an interrupt is not the task's" },
	{ "irq", "softirq_exit", LT_EV_SOFTIRQ_EXIT, LT_REC_ALWAYS,
	  "the end of softirq time" },
	{ "raw_syscalls", "sys_enter", LT_EV_SYS_ENTER, LT_REC_SYSCALLS,
	  "the system call a tick-upgrade found a hog in" },
	{ "raw_syscalls", "sys_exit", LT_EV_SYS_EXIT, LT_REC_SYSCALLS,
	  "back in user space" },
	{ "ftrace", "function", LT_EV_FUNCTION, LT_REC_ELSEWHERE,
	  "resched_curr* and its caller, where no hrtimer names the tick" },
	{ "ftrace", "print", LT_EV_PRINT, LT_REC_ELSEWHERE,
	  "the setup line, through trace_marker" },
	/* the kernel's text names the print event after its writer */
	{ "ftrace", "tracing_mark_write", LT_EV_PRINT, LT_REC_ELSEWHERE,
	  "the setup line, as the kernel's text names it" },
	/* a probe of ours: its group (system) varies by recording */
	{ NULL, "sched_set_need_resched", LT_EV_SET_NEED_RESCHED,
	  LT_REC_ELSEWHERE, "exact request times and requesters (a probe)" },
	{ NULL, "set_need_resched", LT_EV_SET_NEED_RESCHED, LT_REC_ELSEWHERE,
	  "the same probe under an older name" },
	{ "ftrace", "kernel_stack", LT_EV_KERNEL_STACK, LT_REC_ELSEWHERE,
	  "hogs' call sites, from a stacktrace trigger on the tick" },
};

const size_t lt_nr_known_events = ARRAY_SIZE(lt_known_events);

enum lt_event_kind lt_event_kind_of(const char *system, const char *name)
{
	size_t i;

	for (i = 0; i < lt_nr_known_events; i++) {
		if (strcmp(name, lt_known_events[i].name))
			continue;
		if (system && lt_known_events[i].system &&
		    strcmp(system, lt_known_events[i].system))
			continue;
		return lt_known_events[i].kind;
	}
	return LT_EV_OTHER;
}

/* Text output names events without their system; guess it for known ones. */
const char *lt_event_system_of(const char *name)
{
	size_t i;

	for (i = 0; i < lt_nr_known_events; i++)
		if (!strcmp(name, lt_known_events[i].name))
			return lt_known_events[i].system ?
			       lt_known_events[i].system : "";
	return "";
}

bool lt_event_recorded(const struct lt_known_event *e)
{
	return e->record != LT_REC_NO && e->record != LT_REC_ELSEWHERE;
}

size_t lt_record_systems(const char **sys, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < lt_nr_known_events; i++) {
		if (!lt_event_recorded(&lt_known_events[i]))
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(sys[j], lt_known_events[i].system))
				break;
		if (j == n && n < max)
			sys[n++] = lt_known_events[i].system;
	}
	return n;
}

/* Documented in lt-internal.h. */
size_t lt_event_payload_size(const struct lt_event *ev)
{
	switch (ev->kind) {
	case LT_EV_SCHED_SWITCH:
		return sizeof(ev->u.sched_switch);
	case LT_EV_SCHED_WAKING:
	case LT_EV_SCHED_WAKEUP:
	case LT_EV_SCHED_WAKEUP_NEW:
		return sizeof(ev->u.wakeup);
	case LT_EV_SCHED_PROCESS_EXIT:
	case LT_EV_SCHED_PROCESS_FORK:
		return sizeof(ev->u.process);
	case LT_EV_HRTIMER_EXPIRE_ENTRY:
	case LT_EV_HRTIMER_START:
		return sizeof(ev->u.hrtimer);
	case LT_EV_SOFTIRQ_ENTRY:
	case LT_EV_SOFTIRQ_EXIT:
		return sizeof(ev->u.softirq);
	case LT_EV_SYS_ENTER:
	case LT_EV_SYS_EXIT:
		return sizeof(ev->u.syscall);
	case LT_EV_FUNCTION:
		return sizeof(ev->u.function);
	case LT_EV_PRINT:
		return offsetof(struct lt_event, u.print.buf) -
		       offsetof(struct lt_event, u) + 1 +
		       strnlen(ev->u.print.buf, sizeof(ev->u.print.buf) - 1);
	case LT_EV_SET_NEED_RESCHED:
		return sizeof(ev->u.resched);
	case LT_EV_KERNEL_STACK:
		return sizeof(ev->u.stack);
	case LT_EV_OTHER:
	case LT_EV_SCHED_MIGRATE_TASK:
	case LT_EV_LOCAL_TIMER_ENTRY:
	case LT_EV_LOCAL_TIMER_EXIT:
	case LT_EV_HRTIMER_EXPIRE_EXIT:
	case LT_EV_RESCHEDULE_ENTRY:
	case LT_EV_RESCHEDULE_EXIT:
	case LT_EV_KIND_MAX:
		break;
	}
	return 0;
}
