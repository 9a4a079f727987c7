/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LAZYHOG_H
#define _LAZYHOG_H

#include <linux/fs.h>

#define LAZYHOG_MAX_MS		5000

/* tests.c: the debugfs files of the test modes */
extern const struct file_operations lazyhog_spin_fops;
extern const struct file_operations lazyhog_resched_fops;
extern const struct file_operations lazyhog_flags_fops;

#endif /* _LAZYHOG_H */
