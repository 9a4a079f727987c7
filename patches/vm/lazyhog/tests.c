// SPDX-License-Identifier: GPL-2.0
/*
 * lazyhog's test modes: the need_resched() spin, the cond_resched()
 * loop and the flag states (see hog.c for what each checks).
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "lazyhog.h"

#define CREATE_TRACE_POINTS
#include "lazyhog_trace.h"

#define LAZYHOG_SPIN_MAX_MS	1000
#define LAZYHOG_FLAGS_MAX	100

/* true on architectures with a lazy flag of their own */
static bool lazyhog_have_lazy(void)
{
	return TIF_NEED_RESCHED_LAZY != TIF_NEED_RESCHED;
}

static bool lazy_pending(void)
{
	return lazyhog_have_lazy() && test_thread_flag(TIF_NEED_RESCHED_LAZY);
}

static unsigned long lazyhog_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

static int lazyhog_arg(const char __user *ubuf, size_t cnt, unsigned long max,
		       unsigned long *val)
{
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, val);
	if (ret)
		return ret;
	if (*val > max)
		return -EINVAL;
	if (!preempt_model_preemptible())
		return -EOPNOTSUPP;
	return 0;
}

/* spin with preemption disabled until need_resched(), at most ms */
static ssize_t spin_write(struct file *filp, const char __user *ubuf,
			  size_t cnt, loff_t *ppos)
{
	u64 start, now, lazy_at = 0, cap;
	unsigned long ms;
	int ret, timeout = 0;

	ret = lazyhog_arg(ubuf, cnt, LAZYHOG_SPIN_MAX_MS, &ms);
	if (ret)
		return ret;

	cap = (u64)ms * NSEC_PER_MSEC;
	preempt_disable();
	start = local_clock();
	now = start;
	while (!need_resched()) {
		now = local_clock();
		if (!lazy_at && lazy_pending())
			lazy_at = now;
		if (now - start >= cap || signal_pending(current)) {
			timeout = 1;
			break;
		}
		cpu_relax();
	}
	now = local_clock();
	/* recorded before preempt_enable(): its flags show what ended it */
	trace_lazyhog_spin(now - start, lazy_at ? now - lazy_at : 0,
			   !!lazy_at, timeout);
	preempt_enable();

	*ppos += cnt;
	return cnt;
}

/* the hog's loop with cond_resched() in it, for ms */
static ssize_t resched_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	unsigned long ms, end, sw, before;
	u64 now, last = 0, lazy_at = 0;
	int ret, in_cr = 0, eager_seen = 0;

	ret = lazyhog_arg(ubuf, cnt, LAZYHOG_MAX_MS, &ms);
	if (ret)
		return ret;

	sw = lazyhog_switches();
	end = jiffies + msecs_to_jiffies(ms);
	while (time_before(jiffies, end)) {
		if (signal_pending(current))
			return -EINTR;
		now = local_clock();
		if (lazyhog_switches() != sw) {
			/* lost the CPU since the last iteration */
			if (lazy_at)
				trace_lazyhog_resched(last - lazy_at, in_cr,
						      eager_seen);
			sw = lazyhog_switches();
			lazy_at = 0;
			eager_seen = 0;
		}
		if (test_thread_flag(TIF_NEED_RESCHED)) {
			if (lazy_at)
				eager_seen = 1;
		} else if (!lazy_at && lazy_pending()) {
			lazy_at = now;
		}
		last = now;
		before = lazyhog_switches();
		cond_resched();
		in_cr = lazyhog_switches() != before;
	}

	*ppos += cnt;
	return cnt;
}

static void flags_event(void)
{
	int e, l, f;

	e = test_thread_flag(TIF_NEED_RESCHED);
	l = lazy_pending();
	f = test_preempt_need_resched();
	trace_lazyhog_flags(e, l, f, e == test_thread_flag(TIF_NEED_RESCHED) &&
			    l == lazy_pending() &&
			    f == test_preempt_need_resched());
}

/* each combination of eager, lazy and folded, one event in each */
static ssize_t flags_write(struct file *filp, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	unsigned long rounds, i, flags;
	int ret, s;

	ret = lazyhog_arg(ubuf, cnt, LAZYHOG_FLAGS_MAX, &rounds);
	if (ret)
		return ret;

	for (i = 0; i < rounds; i++) {
		preempt_disable();
		local_irq_save(flags);
		for (s = 0; s < 8; s++) {
			if ((s & 2) && !lazyhog_have_lazy())
				continue;
			if (s & 4)
				set_tsk_need_resched(current);
			else
				clear_tsk_thread_flag(current, TIF_NEED_RESCHED);
			if (lazyhog_have_lazy()) {
				if (s & 2)
					set_tsk_thread_flag(current, TIF_NEED_RESCHED_LAZY);
				else
					clear_tsk_thread_flag(current, TIF_NEED_RESCHED_LAZY);
			}
			if (s & 1)
				set_preempt_need_resched();
			else
				clear_preempt_need_resched();
			flags_event();
		}
		/*
		 * End with an eager request, whatever the loop cleared: the
		 * preempt_enable() below then schedules, and schedule()
		 * clears both flags, so a request (lazy or eager) made
		 * meanwhile is served. The lazy flag is not left set: the
		 * events of the interrupts that come in at
		 * local_irq_restore() would show it in full mode.
		 */
		if (lazyhog_have_lazy())
			clear_tsk_thread_flag(current, TIF_NEED_RESCHED_LAZY);
		set_tsk_need_resched(current);
		set_preempt_need_resched();
		local_irq_restore(flags);
		preempt_enable();
		if (signal_pending(current))
			return -EINTR;
	}

	*ppos += cnt;
	return cnt;
}

const struct file_operations lazyhog_spin_fops = {
	.owner	= THIS_MODULE,
	.write	= spin_write,
	.llseek	= noop_llseek,
};

const struct file_operations lazyhog_resched_fops = {
	.owner	= THIS_MODULE,
	.write	= resched_write,
	.llseek	= noop_llseek,
};

const struct file_operations lazyhog_flags_fops = {
	.owner	= THIS_MODULE,
	.write	= flags_write,
	.llseek	= noop_llseek,
};
