// SPDX-License-Identifier: LGPL-2.1
/*
 * The setup line `record` and `live` write into the trace through
 * trace_marker, so that a recording says how its kernel was set up:
 *
 *   lazytrace-setup: release=7.2.13+deb14-amd64 preempt=lazy hz=250
 *   sched_features=HRTICK,...
 *
 * (one line). Readers hand it up as a print event; this parses it.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-internal.h"

#define SETUP_TAG "lazytrace-setup:"

/* Copy the value at @v (up to a space) into @dst. */
static void value(const char *v, char *dst, size_t size)
{
	size_t n = strcspn(v, " \t\n");

	if (n >= size)
		n = size - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

int lt_setup_parse(const char *text, struct lt_setup *out)
{
	struct lt_setup s = { .found = true };
	const char *p = text ? strstr(text, SETUP_TAG) : NULL;

	if (!p)
		return -1;
	p += strlen(SETUP_TAG);
	while (*p) {
		p += strspn(p, " \t");
		if (!strncmp(p, "release=", 8))
			value(p + 8, s.release, sizeof(s.release));
		else if (!strncmp(p, "preempt=", 8))
			value(p + 8, s.preempt, sizeof(s.preempt));
		else if (!strncmp(p, "hz=", 3))
			s.hz = strtoul(p + 3, NULL, 10);
		else if (!strncmp(p, "sched_features=", 15))
			value(p + 15, s.sched_features,
			      sizeof(s.sched_features));
		p += strcspn(p, " \t");
	}
	/* an HZ no kernel has is noise, not a setting */
	if (s.hz > 10000)
		s.hz = 0;
	*out = s;
	return 0;
}

/* Documented in lt-internal.h. */
int lt_setup_lazy(const char *text, char *state, size_t state_len,
		  char *reason, size_t reason_len)
{
	const char *p = text ? strstr(text, SETUP_TAG) : NULL;
	char tok[64], preempt[32] = "";
	const char *why;
	char *colon;

	if (!p)
		return -1;
	p = strstr(p, " lazy=");
	if (!p)
		return -1;
	value(p + 6, tok, sizeof(tok));
	p = strstr(text, " preempt=");
	if (p)
		value(p + 9, preempt, sizeof(preempt));
	colon = strchr(tok, ':');
	why = colon ? colon + 1 : "";
	if (colon)
		*colon = '\0';
	if (!strcmp(tok, "active"))
		snprintf(reason, reason_len, "preempt=lazy");
	else if (!strcmp(tok, "built_in"))
		snprintf(reason, reason_len,
			 "built in but not the current mode%s%s",
			 preempt[0] ? ": preempt=" : "", preempt);
	else if (!strcmp(tok, "absent"))
		snprintf(reason, reason_len, "%s",
			 !strcmp(why, "sched_preempt") ?
			 "sched/preempt lists no lazy mode" :
			 "CONFIG_PREEMPT_LAZY is not set");
	else if (!strcmp(tok, "unknown"))
		snprintf(reason, reason_len,
			 "no sched/preempt and no kernel config to read");
	else
		return -1;
	snprintf(state, state_len, "%s", tok);
	return 0;
}
