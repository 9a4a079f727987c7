// SPDX-License-Identifier: LGPL-2.1
/*
 * The preempted marker of sched_switch's prev_state on the running
 * kernel, for a recording's filter on it (record --stacks=preempt): read
 * from the kernel's own print format, as the decoder reads a trace's.
 */
#include <event-parse.h>
#include <tracefs.h>

#include "lt-internal.h"
#include "../print/lt-print-known.h"

unsigned long long lt_switch_preempt_bit_local(void)
{
	static const char *const systems[] = { "sched", NULL };
	struct tep_handle *tep = tracefs_local_events_system(NULL, systems);
	struct tep_event *ev;
	unsigned long long bit = 0;

	if (!tep)
		return 0;
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	if (ev)
		bit = lt_switch_preempt_bit(ev);
	tep_free(tep);
	return bit;
}
