// SPDX-License-Identifier: GPL-2.0
/*
 * lazyhog - a kernel hog for the lazy preemption VM test.
 *
 * Writing N to /sys/kernel/debug/lazyhog makes the writer spin in the
 * kernel for N milliseconds with preemption enabled and no scheduling
 * point of its own: no cond_resched(), no sleep, no return to user
 * space. Only an involuntary preemption takes the CPU from it, so it
 * shows how each preemption model treats a task that stays in the
 * kernel. In the lazy model its lazy requests wait for the tick, which
 * upgrades them ('l', then 'B' in the latency format) and preempts it;
 * in the full model it is preempted at once.
 *
 * Three more files (tests.c) test what the lazy model must leave alone;
 * each reports through a trace event of its own (lazyhog_trace.h):
 *
 *  - lazyhog_spin (N ms at most): spins with preemption disabled until
 *    need_resched() is true. need_resched() tests the eager request
 *    only, so a lazy request must not end the spin: it goes on until
 *    the tick upgrades the request. The event gives the time from the
 *    first sight of the lazy request to the end of the spin.
 *  - lazyhog_resched (N ms): the hog's loop with cond_resched() in it.
 *    cond_resched() must not act on a lazy request either; the event
 *    gives, per lazy request, the time until the task lost the CPU and
 *    whether that happened inside cond_resched().
 *  - lazyhog_flags (N rounds): with interrupts and preemption disabled,
 *    sets each combination of the eager flag, the lazy flag and the
 *    folded need-resched bit on the current task and records an event
 *    in each, so that the tracer's flag letters (B N L b n p l .) can be
 *    checked against the state they stand for. It ends with an eager
 *    request pending: the preempt_enable() that follows schedules,
 *    which clears both flags, so no real request that came in meanwhile
 *    is lost.
 *
 * The modes live in two files so that the hog's loop is compiled as
 * before: the VM test checks that lazyhog_write() is the hog's call site
 * at the tick, which it is not if the compiler stops inlining
 * signal_pending() into it.
 *
 * It is a test module built by patches/vm, not part of the kernel
 * series, and it cannot hurt the machine it runs on:
 *  - it refuses to run unless the current model is preemptible (full,
 *    lazy or RT): under none or voluntary nothing would take the CPU
 *    from it;
 *  - a run is capped at LAZYHOG_MAX_MS (LAZYHOG_SPIN_MAX_MS with
 *    preemption disabled), well below the soft-lockup (2 *
 *    watchdog_thresh = 20 s by default) and RCU stall (21 s) thresholds,
 *    even if the model is switched under it;
 *  - a pending signal ends it at once.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "lazyhog.h"

static struct dentry *lazyhog_file, *spin_file, *resched_file, *flags_file;

static ssize_t lazyhog_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	unsigned long ms, end;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &ms);
	if (ret)
		return ret;
	if (ms > LAZYHOG_MAX_MS)
		return -EINVAL;
	if (!preempt_model_preemptible())
		return -EOPNOTSUPP;

	end = jiffies + msecs_to_jiffies(ms);
	while (time_before(jiffies, end)) {
		if (signal_pending(current))
			return -EINTR;
		cpu_relax();
	}

	*ppos += cnt;
	return cnt;
}

static const struct file_operations lazyhog_fops = {
	.owner	= THIS_MODULE,
	.write	= lazyhog_write,
	.llseek	= noop_llseek,
};

static int __init lazyhog_init(void)
{
	lazyhog_file = debugfs_create_file("lazyhog", 0200, NULL, NULL,
					   &lazyhog_fops);
	spin_file = debugfs_create_file("lazyhog_spin", 0200, NULL, NULL,
					&lazyhog_spin_fops);
	resched_file = debugfs_create_file("lazyhog_resched", 0200, NULL, NULL,
					   &lazyhog_resched_fops);
	flags_file = debugfs_create_file("lazyhog_flags", 0200, NULL, NULL,
					 &lazyhog_flags_fops);
	return 0;
}

static void __exit lazyhog_exit(void)
{
	debugfs_remove(flags_file);
	debugfs_remove(resched_file);
	debugfs_remove(spin_file);
	debugfs_remove(lazyhog_file);
}

module_init(lazyhog_init);
module_exit(lazyhog_exit);
MODULE_DESCRIPTION("Kernel hog for the lazy preemption VM test");
MODULE_LICENSE("GPL");
