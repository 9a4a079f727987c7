// SPDX-License-Identifier: LGPL-2.1
/*
 * Where preemption hits (docs/model.md §9): every involuntary preemption
 * (an R+ switch) with where the task was, what forced it, and what it
 * cost the task: how long it stayed off its CPU while runnable, until
 * it ran again.
 *
 * A preemption is kept on its task until the task next runs, then handed
 * to the consumer (lt_analysis.on_preempt): one record per preempted task,
 * so memory grows with tasks, never with events. What is still open at
 * the end is handed over with its cost unknown.
 *
 * Where the task was comes from the best evidence the trace holds: the
 * stack taken at the switch (record --stacks=preempt, trace-cmd -T), else
 * the tick's stack when the tick upgraded the request; else the
 * raw_syscalls events; else the flags of the last event before the
 * switch; else it is unknown.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-analysis.h"
#include "../lt-util.h"

static const char *const place_names[LT_PLACE_MAX] = {
	[LT_PLACE_UNKNOWN] = "unknown",
	[LT_PLACE_USER] = "user",
	[LT_PLACE_SYSCALL] = "syscall",
	[LT_PLACE_PAGE_FAULT] = "page_fault",
	[LT_PLACE_IRQ] = "irq",
	[LT_PLACE_SOFTIRQ] = "softirq",
	[LT_PLACE_KTHREAD] = "kthread",
	[LT_PLACE_KERNEL] = "kernel",
};

static const char *const from_names[LT_FROM_MAX] = {
	[LT_FROM_NONE] = "none",
	[LT_FROM_STACK] = "stack",
	[LT_FROM_SYSCALLS] = "syscalls",
	[LT_FROM_FLAGS] = "flags",
};

const char *lt_place_name(enum lt_place p)
{
	return (unsigned int)p < LT_PLACE_MAX ? place_names[p] : "?";
}

const char *lt_place_from_name(enum lt_place_from f)
{
	return (unsigned int)f < LT_FROM_MAX ? from_names[f] : "?";
}

/* Frames that mean a page fault (x86, arm64, s390, riscv). */
static const char *const fault_frames[] = {
	"exc_page_fault", "asm_exc_page_fault", "do_user_addr_fault",
	"do_kern_addr_fault", "handle_mm_fault", "__handle_mm_fault",
	"do_page_fault", "do_mem_abort", "do_translation_fault", "el0_da",
	"el1_abort", "el0_ia", "do_dat_exception", "handle_page_fault",
};

/* A system call's entry, whose name the frame does not carry. */
static const char *const syscall_frames[] = {
	"do_syscall_64", "entry_SYSCALL_64", "entry_SYSCALL_64_after_hwframe",
	"x64_sys_call", "do_int80_syscall_32", "do_fast_syscall_32",
	"el0_svc", "do_el0_svc", "invoke_syscall", "el0_svc_common",
	"__do_syscall", "system_call",
};

/* The per-architecture wrappers that name the call: __x64_sys_read. */
static const char *const syscall_prefixes[] = {
	"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__s390x_sys_",
	"__riscv_sys_", "__se_sys_", "__do_sys_", "ksys_",
};

static const char *const softirq_frames[] = {
	"handle_softirqs", "__do_softirq", "do_softirq", "run_ksoftirqd",
};

/* Return to user mode: a reschedule there is normally R, not R+. */
static const char *const user_frames[] = {
	"exit_to_user_mode_loop", "irqentry_exit_to_user_mode",
	"syscall_exit_to_user_mode", "exit_to_user_mode_prepare",
	"do_notify_resume", "el0_interrupt",
};

/* Interrupt entry: what runs here interrupted something. */
static const char *const irq_prefixes[] = {
	"asm_sysvec_", "asm_common_interrupt", "sysvec_", "common_interrupt",
	"el1_interrupt", "el1h_64_irq", "el0t_64_irq", "irqentry_exit",
	"preempt_schedule_irq", "do_IRQ", "ext_int_handler", "io_int_handler",
};

/* "name" or "name+0x10/0x40" */
static bool frame_is(const char *f, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(f, name, n) && (f[n] == '\0' || f[n] == '+' ||
					f[n] == '.');
}

static bool frame_in(const char *f, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (frame_is(f, list[i]))
			return true;
	return false;
}

static bool frame_prefixed(const char *f, const char *const *list,
			   size_t nr, size_t *len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strncmp(f, list[i], strlen(list[i]))) {
			if (len)
				*len = strlen(list[i]);
			return true;
		}
	return false;
}

/*
 * The place a stack shows, innermost frame first. A page fault wins (a
 * fault taken inside a system call is a fault; the call is still named),
 * then a softirq, a system call, a kernel thread, the return to user
 * mode. A stack whose outermost frame is interrupt entry was taken in an
 * interrupt that hit code the stack does not show: irq. Anything else is
 * kernel code the stack cannot place (a stack cut short).
 */
static enum lt_place stack_place(const struct lt_stk *stk, const char **scname)
{
	bool fault = false, sys = false, soft = false, user = false;
	bool fork = false, kthread = false;
	const char *const *f;
	unsigned int nr, i;
	size_t len;

	nr = lt_stack_frames(stk, &f);
	*scname = NULL;
	for (i = 0; i < nr; i++) {
		if (frame_in(f[i], fault_frames, ARRAY_SIZE(fault_frames)))
			fault = true;
		else if (frame_prefixed(f[i], syscall_prefixes,
					ARRAY_SIZE(syscall_prefixes), &len)) {
			sys = true;
			if (f[i][len])
				*scname = f[i] + len;
		} else if (frame_in(f[i], syscall_frames,
				    ARRAY_SIZE(syscall_frames)))
			sys = true;
		else if (frame_in(f[i], softirq_frames,
				  ARRAY_SIZE(softirq_frames)))
			soft = true;
		else if (frame_in(f[i], user_frames, ARRAY_SIZE(user_frames)))
			user = true;
		else if (frame_is(f[i], "kthread"))
			kthread = true;
		else if (!strncmp(f[i], "ret_from_fork", 13))
			fork = true;
	}
	if (fault)
		return LT_PLACE_PAGE_FAULT;
	if (soft)
		return LT_PLACE_SOFTIRQ;
	if (sys)
		return LT_PLACE_SYSCALL;
	if (kthread && fork)
		return LT_PLACE_KTHREAD;
	if (user)
		return LT_PLACE_USER;
	if (nr && frame_prefixed(f[nr - 1], irq_prefixes,
				 ARRAY_SIZE(irq_prefixes), NULL))
		return LT_PLACE_IRQ;
	return LT_PLACE_KERNEL;
}

/* The scheduler and the preemption points that call it. */
static const char *const sched_prefixes[] = {
	"__schedule", "schedule", "preempt_schedule", "___preempt_schedule",
	"__preempt_schedule", "__cond_resched", "_cond_resched",
	"dynamic_cond_resched", "raw_irqentry_exit_cond_resched",
	"irqentry_exit_cond_resched", "_raw_spin_unlock", "__raw_spin_unlock",
	"_raw_read_unlock", "_raw_write_unlock", "preempt_count_sub",
};

/*
 * The site: the innermost frame that is none of tracing, interrupt entry
 * (lt_stack_frame_is_entry()), the scheduler, or the preemption point
 * itself (preempt_enable() in an unlock): the code that was preempted.
 */
static const char *preempt_site(const struct lt_stk *stk)
{
	const char *const *f;
	unsigned int nr, i;

	nr = lt_stack_frames(stk, &f);
	for (i = 0; i < nr; i++)
		if (!lt_stack_frame_is_entry(f[i]) &&
		    !frame_prefixed(f[i], sched_prefixes,
				    ARRAY_SIZE(sched_prefixes), NULL))
			return f[i];
	return nr ? f[nr - 1] : NULL;
}

/* The stack's answer replaces the events': it is the better evidence. */
static void place_from_stack(struct lt_preemption *p)
{
	if (!p->stack)
		return;
	p->place = stack_place(p->stack, &p->syscall_name);
	p->place_from = LT_FROM_STACK;
	p->site = preempt_site(p->stack);
}

void lt_preempt_switch(struct lt_analysis *a, struct lt_cpu *c,
		       struct lt_task *prev, const struct lt_event *ev)
{
	struct lt_preemption *p = prev->preempted;
	const struct lt_req *req = NULL;

	if (!a->on_preempt)
		return;
	if (p) {
		/* preempted again without running: events are missing */
		place_from_stack(p);
		a->on_preempt(p, a->preempt_data);
		memset(p, 0, sizeof(*p));
	} else {
		p = calloc(1, sizeof(*p));
		if (!p) {
			a->oom = true;
			return;
		}
		prev->preempted = p;
	}
	p->task = &prev->st;
	p->cpu = c - a->cpus;
	p->ts = ev->ts;
	p->syscall = prev->syscall;
	p->next_pid = ev->u.sched_switch.next_pid;
	lt_strlcpy(p->next_comm, ev->u.sched_switch.next_comm,
		   sizeof(p->next_comm));
	p->switch_ins = c->switch_ins;
	p->requester_pid = -1;
	/*
	 * What forced it: a lazy request the switch found upgraded, else an
	 * eager request, else a lazy one served without an upgrade seen,
	 * else a fold alone; LT_TR_PREEMPTED when the flags showed none.
	 */
	p->request = LT_TR_PREEMPTED;
	if (c->lazy.open && c->lazy.upgraded) {
		req = &c->lazy;
		p->request = LT_TR_LAZY;
		p->upgraded = true;
		p->source = c->lazy.upgrade_src;
		/* the tick's stack is where the tick found the task */
		if (c->lazy.upgrade_src == LT_UPG_TICK)
			p->stack = c->lazy.stack;
	} else if (c->eager.open) {
		req = &c->eager;
		p->request = LT_TR_EAGER;
		p->source = c->eager.src;
		p->ipi = c->eager.ipi;
	} else if (c->lazy.open) {
		req = &c->lazy;
		p->request = LT_TR_LAZY;
	} else if (c->fold.open) {
		req = &c->fold;
		p->request = LT_TR_FOLD;
	}
	if (req) {
		p->since_ns = req->seen;
		if (req->request_ns) {
			p->request_ns = req->request_ns;
			p->requester_pid = req->requester_pid;
			memcpy(p->requester_comm, req->requester_comm,
			       sizeof(p->requester_comm));
		}
	}
	/* without a stack: the system call events, then the flags */
	if (prev->syscall >= 0) {
		p->place = LT_PLACE_SYSCALL;
		p->place_from = LT_FROM_SYSCALLS;
	} else if (prev->syscall == LT_SYSCALL_USER) {
		/* R+ outside a system call: an exception from user mode */
		p->place = LT_PLACE_KERNEL;
		p->place_from = LT_FROM_SYSCALLS;
	} else if (c->ctx_irq) {
		p->place = c->ctx_softirq ? LT_PLACE_SOFTIRQ : LT_PLACE_IRQ;
		p->place_from = LT_FROM_FLAGS;
	}
	c->preempt_slot = prev;
}

void lt_preempt_stack(struct lt_analysis *a, struct lt_cpu *c,
		      const struct lt_event *ev)
{
	struct lt_task *t = c->preempt_slot;

	c->preempt_slot = NULL;
	if (!t || !t->preempted || ev->missed)
		return;
	t->preempted->stack = lt_stack_intern_event(a, ev);
	if (!t->preempted->stack)
		a->oom = true;
	t->preempted->stack_at_switch = true;
}

void lt_preempt_back(struct lt_analysis *a, struct lt_cpu *c,
		     struct lt_task *t, uint64_t ts)
{
	struct lt_preemption *p = t->preempted;

	if (!p)
		return;
	t->preempted = NULL;
	p->back_ns = ts >= p->ts ? ts : p->ts;
	p->back_cpu = c - a->cpus;
	if (p->cpu < a->nr_cpus_alloc)
		p->others = a->cpus[p->cpu].switch_ins - p->switch_ins;
	place_from_stack(p);
	if (a->on_preempt)
		a->on_preempt(p, a->preempt_data);
	free(p);
}

static int by_time(const void *pa, const void *pb)
{
	const struct lt_preemption *x = *(const struct lt_preemption *const *)pa;
	const struct lt_preemption *y = *(const struct lt_preemption *const *)pb;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu - y->cpu;
}

void lt_preempt_finish(struct lt_analysis *a)
{
	struct lt_preemption **v;
	size_t i, n = 0;

	for (i = 0; i < a->nr_tasks; i++)
		n += a->tasks[i]->preempted != NULL;
	if (!n)
		return;
	v = malloc(n * sizeof(*v));
	if (!v) {
		a->oom = true;
		return;
	}
	for (i = 0, n = 0; i < a->nr_tasks; i++)
		if (a->tasks[i]->preempted)
			v[n++] = a->tasks[i]->preempted;
	/* still off their CPU at the end: in the order they left it */
	qsort(v, n, sizeof(*v), by_time);
	for (i = 0; i < n; i++) {
		place_from_stack(v[i]);
		if (a->on_preempt)
			a->on_preempt(v[i], a->preempt_data);
	}
	free(v);
	lt_preempt_free(a);
}

void lt_preempt_free(struct lt_analysis *a)
{
	size_t i;

	for (i = 0; i < a->nr_tasks; i++) {
		free(a->tasks[i]->preempted);
		a->tasks[i]->preempted = NULL;
	}
}
