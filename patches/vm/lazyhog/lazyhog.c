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
 * It is a test module built by patches/vm, not part of the kernel
 * series, and it cannot hurt the machine it runs on:
 *  - it refuses to run unless the current model is preemptible (full,
 *    lazy or RT): under none or voluntary nothing would take the CPU
 *    from it;
 *  - a run is capped at LAZYHOG_MAX_MS, well below the soft-lockup
 *    (2 * watchdog_thresh = 20 s by default) and RCU stall (21 s)
 *    thresholds, even if the model is switched under it;
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

#define LAZYHOG_MAX_MS	5000

static struct dentry *lazyhog_file;

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
	return 0;
}

static void __exit lazyhog_exit(void)
{
	debugfs_remove(lazyhog_file);
}

module_init(lazyhog_init);
module_exit(lazyhog_exit);
MODULE_DESCRIPTION("Kernel hog for the lazy preemption VM test");
MODULE_LICENSE("GPL");
