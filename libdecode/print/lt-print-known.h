/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The info text of the busiest events (sched_switch, sched_waking and
 * sched_wakeup*, the x86 irq vector events) without libtraceevent's
 * generic printer, when the event's print format is the one we know.
 * Internal to liblazytrace.
 */
#ifndef _LT_PRINT_KNOWN_H
#define _LT_PRINT_KNOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <traceevent/event-parse.h>

/*
 * memcpy() of the few bytes of a name or a number, inline: a call to the
 * library's for each piece of text was a tenth of report's time. The
 * copies overlap but stay inside both buffers.
 */
static inline void lt_copy_short(char *d, const char *s, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;

	if (n > 16) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(d, &x, 4);
		memcpy(d + n - 4, &y, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

#define LT_KNOWN_MAX_FIELDS	8
#define LT_KNOWN_MAX_FLAGS	16

enum lt_known_fmt {
	LT_FMT_NONE = 0,	/* print with libtraceevent */
	LT_FMT_SWITCH,
	LT_FMT_WAKEUP,
	LT_FMT_VECTOR,
};

/* What one event type needs to be printed by hand, found once. */
struct lt_known_print {
	enum lt_known_fmt fmt;
	struct tep_format_field *f[LT_KNOWN_MAX_FIELDS];
	/* sched_switch's prev_state: __print_flags() symbols, in order */
	unsigned long long flag_bit[LT_KNOWN_MAX_FLAGS];
	const char *flag_str[LT_KNOWN_MAX_FLAGS];
	int nr_flags;
	unsigned long long preempt_marker;
	bool swap;		/* the file's byte order is not the host's */
};

/* Set @kp up for @event: LT_FMT_NONE unless its format is a known one. */
void lt_known_print_init(struct lt_known_print *kp, struct tep_event *event);

/*
 * sched_switch's preempted bit ("R+"): the one its print format tests,
 * else the bit above its highest state letter.
 */
unsigned long long lt_switch_preempt_bit(struct tep_event *event);

/*
 * The info of @rec into @buf (at most @len bytes with the NUL), as
 * tep_print_event() would print it. Returns the length the text needs, or
 * -1 when this record must go to the generic printer (a value the hand
 * printer does not cover, a short record).
 */
ssize_t lt_known_print(const struct lt_known_print *kp,
		       struct tep_handle *tep, const struct tep_record *rec,
		       char *buf, size_t len);

#endif
