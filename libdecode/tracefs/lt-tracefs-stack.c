// SPDX-License-Identifier: LGPL-2.1
/*
 * Kernel stacks where hogs run: a stacktrace trigger on the tick event of
 * the session's instance, filtered on the lazy bit of common_flags, so
 * that the kernel saves a stack only at a tick that finds a lazy request
 * pending (at most HZ stacks a second per CPU, a few hundred bytes each).
 *
 * The tick event is irq_vectors:local_timer_entry (x86), else
 * timer:hrtimer_expire_entry (every hrtimer; the analysis keeps only the
 * stacks of the tick's). Where the kernel refuses the filter, every tick
 * gets a stack; where it has no event triggers, there are none. The
 * trigger lives in the instance only and is removed before it.
 * --stacks=preempt adds one on sched_switch for every preemption.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "lt-tracefs.h"

struct lt_stack_trigger {
	const char *system;
	const char *event;
	char cmd[64];
	char switch_cmd[64];	/* --stacks=preempt: on sched_switch, or "" */
};

/*
 * The lazy bit of common_flags on the running kernel, and its ABI: what
 * its release settles, else mainline's (a kernel without lazy
 * preemption never sets it, so the trigger then saves no stack).
 */
static unsigned int lazy_bit(enum lt_abi *abi)
{
	struct lt_flags f = { .need_resched_lazy = true };
	struct lt_abi_hints h = { .given = LT_ABI_AUTO };
	struct lt_abi_choice c;
	struct utsname u;

	if (uname(&u) == 0)
		h.release = u.release;
	lt_abi_detect(&h, &c);
	*abi = c.rule == LT_ABI_BY_RELEASE ? c.abi : LT_ABI_MAINLINE;
	return lt_flags_encode(*abi, &f);
}

static bool event_dir(const char *system, const char *event)
{
	char *path = tracefs_get_tracing_file("events");
	char buf[4096];
	bool ok;

	if (!path)
		return false;
	snprintf(buf, sizeof(buf), "%s/%s/%s/trigger", path, system, event);
	tracefs_put_tracing_file(path);
	ok = access(buf, W_OK) == 0;
	return ok;
}

/* No trigger on the tick: the one on sched_switch may still stand. */
static struct lt_stack_trigger *tick_failed(struct lt_stack_trigger *t)
{
	t->system = NULL;
	if (t->switch_cmd[0])
		return t;
	free(t);
	return NULL;
}

/*
 * A stack at each preemption: a stacktrace trigger on sched_switch
 * filtered on the preempted bit of prev_state (the "+" of R+), which the
 * running kernel's format gives. The trigger runs in the switch's
 * tracepoint, inside __schedule() of the task that leaves: its stack.
 */
static void switch_stacks_on(struct tracefs_instance *inst,
			     struct lt_stack_trigger *t,
			     void (*note)(const char *msg))
{
	unsigned long long bit = lt_switch_preempt_bit_local();
	char msg[512];

	if (!bit || !event_dir("sched", "sched_switch")) {
		if (note)
			note("no stacks at preemptions: sched_switch's format or trigger file cannot be read");
		return;
	}
	snprintf(t->switch_cmd, sizeof(t->switch_cmd),
		 "stacktrace if prev_state & %llu", bit);
	if (tracefs_event_file_write(inst, "sched", "sched_switch", "trigger",
				     t->switch_cmd) >= 0) {
		snprintf(msg, sizeof(msg), "kernel stacks: '%s' on sched:sched_switch (preempted bit 0x%llx)",
			 t->switch_cmd, bit);
	} else {
		snprintf(msg, sizeof(msg), "no stacks at preemptions: the kernel refuses '%s' on sched:sched_switch (%s)",
			 t->switch_cmd, strerror(errno));
		t->switch_cmd[0] = '\0';
	}
	if (note)
		note(msg);
}

/**
 * lt_tracefs_stacks_on - ask for kernel stacks at ticks in the instance
 * @inst: the session's instance
 * @mode: %LT_STACKS_LAZY (only with a lazy request pending),
 *	%LT_STACKS_TICK (every tick) or %LT_STACKS_PREEMPT (as lazy, and at
 *	every preemption: a switch out as R+)
 * @note: told what was set, or why nothing was; may be NULL
 *
 * Returns the trigger to pass to lt_tracefs_stacks_off(), or NULL if none
 * could be set (the recording goes on without stacks).
 */
struct lt_stack_trigger *lt_tracefs_stacks_on(struct tracefs_instance *inst,
					      enum lt_stacks mode,
					      void (*note)(const char *msg))
{
	struct lt_stack_trigger *t;
	char msg[512];
	enum lt_abi abi;
	unsigned int bit = lazy_bit(&abi);

	if (mode == LT_STACKS_NONE)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (mode == LT_STACKS_PREEMPT) {
		switch_stacks_on(inst, t, note);
		mode = LT_STACKS_LAZY;
	}
	if (event_dir("irq_vectors", "local_timer_entry")) {
		t->system = "irq_vectors";
		t->event = "local_timer_entry";
	} else if (event_dir("timer", "hrtimer_expire_entry")) {
		t->system = "timer";
		t->event = "hrtimer_expire_entry";
	} else {
		if (note)
			note("no kernel stacks at ticks: this kernel has no event triggers on a tick event (irq_vectors:local_timer_entry, timer:hrtimer_expire_entry)");
		return tick_failed(t);
	}
	if (mode == LT_STACKS_LAZY) {
		snprintf(t->cmd, sizeof(t->cmd), "stacktrace if common_flags & %u",
			 bit);
		/* libtracefs returns the bytes written */
		if (tracefs_event_file_write(inst, t->system, t->event,
					     "trigger", t->cmd) >= 0) {
			snprintf(msg, sizeof(msg), "kernel stacks: '%s' on %s:%s (lazy bit 0x%02x, %s ABI)",
				 t->cmd, t->system, t->event, bit,
				 lt_abi_name(abi));
			if (note)
				note(msg);
			return t;
		}
		snprintf(msg, sizeof(msg), "the kernel refuses '%s' on %s:%s (%s): a stack at every tick instead",
			 t->cmd, t->system, t->event, strerror(errno));
		if (note)
			note(msg);
	}
	snprintf(t->cmd, sizeof(t->cmd), "stacktrace");
	if (tracefs_event_file_write(inst, t->system, t->event, "trigger",
				     t->cmd) >= 0) {
		snprintf(msg, sizeof(msg), "kernel stacks: '%s' on %s:%s, at every tick",
			 t->cmd, t->system, t->event);
		if (note)
			note(msg);
		return t;
	}
	snprintf(msg, sizeof(msg), "no kernel stacks at ticks: the kernel refuses a stacktrace trigger on %s:%s (%s)",
		 t->system, t->event, strerror(errno));
	if (note)
		note(msg);
	return tick_failed(t);
}

/**
 * lt_tracefs_stacks_off - remove the trigger lt_tracefs_stacks_on() set
 * @inst: the session's instance
 * @t: the trigger, may be NULL
 *
 * Returns 0, or -1 if the kernel kept it (removing the instance then
 * removes it too).
 */
int lt_tracefs_stacks_off(struct tracefs_instance *inst,
			  struct lt_stack_trigger *t)
{
	char cmd[80];
	int ret;

	if (!t)
		return 0;
	ret = 0;
	if (t->system) {
		snprintf(cmd, sizeof(cmd), "!%s", t->cmd);
		if (tracefs_event_file_write(inst, t->system, t->event,
					     "trigger", cmd) < 0)
			ret = -1;
	}
	if (t->switch_cmd[0]) {
		snprintf(cmd, sizeof(cmd), "!%s", t->switch_cmd);
		if (tracefs_event_file_write(inst, "sched", "sched_switch",
					     "trigger", cmd) < 0)
			ret = -1;
	}
	free(t);
	return ret;
}
