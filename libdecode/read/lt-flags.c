// SPDX-License-Identifier: LGPL-2.1
/*
 * The common_flags byte under each ABI (docs/model.md §2), and the
 * latency field exactly as the kernel's trace_print_lat_fmt() prints it
 * (§3); and the one detector of the ABI from what an input tells.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lt-internal.h"

enum bit_meaning {
	B_NONE,
	B_IRQS_OFF,
	B_IRQS_NOSUPPORT,
	B_NEED_RESCHED,
	B_NEED_RESCHED_LAZY,
	B_HARDIRQ,
	B_SOFTIRQ,
	B_PREEMPT_RESCHED,
	B_NMI,
	B_BH_OFF,
};

/* Meaning of bits 0x01 .. 0x80, per ABI. */
static const enum bit_meaning abi_bits[LT_ABI_MAX][8] = {
	[LT_ABI_LEGACY] = { B_IRQS_OFF, B_IRQS_NOSUPPORT, B_NEED_RESCHED,
			    B_HARDIRQ, B_SOFTIRQ, B_PREEMPT_RESCHED, B_NMI,
			    B_BH_OFF },
	[LT_ABI_MAINLINE] = { B_IRQS_OFF, B_NEED_RESCHED_LAZY, B_NEED_RESCHED,
			      B_HARDIRQ, B_SOFTIRQ, B_PREEMPT_RESCHED, B_NMI,
			      B_BH_OFF },
	[LT_ABI_POC2023] = { B_IRQS_OFF, B_NEED_RESCHED, B_NEED_RESCHED_LAZY,
			     B_HARDIRQ, B_SOFTIRQ, B_PREEMPT_RESCHED, B_NMI,
			     B_BH_OFF },
	[LT_ABI_RT_LAZY] = { B_IRQS_OFF, B_IRQS_NOSUPPORT, B_NEED_RESCHED,
			     B_HARDIRQ, B_SOFTIRQ, B_NEED_RESCHED_LAZY, B_NMI,
			     B_BH_OFF },
};

static const char *const abi_names[LT_ABI_MAX] = {
	[LT_ABI_AUTO] = "auto",
	[LT_ABI_LEGACY] = "legacy",
	[LT_ABI_MAINLINE] = "mainline",
	[LT_ABI_POC2023] = "poc2023",
	[LT_ABI_RT_LAZY] = "rt-lazy",
};

const char *lt_abi_name(enum lt_abi abi)
{
	if ((unsigned int)abi >= ARRAY_SIZE(abi_names))
		return "unknown";
	return abi_names[abi];
}

int lt_abi_parse(const char *name, enum lt_abi *abi)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(abi_names); i++) {
		if (!strcmp(name, abi_names[i])) {
			*abi = i;
			return 0;
		}
	}
	return -1;
}

static enum lt_abi concrete(enum lt_abi abi)
{
	if (abi < LT_ABI_LEGACY || abi >= LT_ABI_MAX)
		return LT_ABI_MAINLINE;
	return abi;
}

/* The member of struct lt_flags that a bit meaning sets, or NULL. */
static bool *member(struct lt_flags *f, enum bit_meaning m)
{
	switch (m) {
	case B_IRQS_OFF:
		return &f->irqs_off;
	case B_IRQS_NOSUPPORT:
		return &f->irqs_nosupport;
	case B_NEED_RESCHED:
		return &f->need_resched;
	case B_NEED_RESCHED_LAZY:
		return &f->need_resched_lazy;
	case B_HARDIRQ:
		return &f->hardirq;
	case B_SOFTIRQ:
		return &f->softirq;
	case B_PREEMPT_RESCHED:
		return &f->preempt_resched;
	case B_NMI:
		return &f->nmi;
	case B_BH_OFF:
		return &f->bh_off;
	default:
		return NULL;
	}
}

struct lt_flags lt_flags_decode(enum lt_abi abi, unsigned int flags)
{
	const enum bit_meaning *bits = abi_bits[concrete(abi)];
	struct lt_flags f;
	bool *m;
	int i;

	memset(&f, 0, sizeof(f));
	for (i = 0; i < 8; i++) {
		m = member(&f, bits[i]);
		if (m && (flags & (1u << i)))
			*m = true;
	}
	return f;
}

static char irqs_letter(const struct lt_flags *f)
{
	if (f->irqs_off && f->bh_off)
		return 'D';
	if (f->irqs_off)
		return 'd';
	if (f->bh_off)
		return 'b';
	if (f->irqs_nosupport)
		return 'X';
	return '.';
}

static char resched_letter(const struct lt_flags *f)
{
	/* Index: eager 4, lazy 2, fold 1. */
	static const char letters[8] = {
		'.', 'p', 'l', 'L', 'n', 'N', 'b', 'B'
	};

	return letters[(f->need_resched ? 4 : 0) |
		       (f->need_resched_lazy ? 2 : 0) |
		       (f->preempt_resched ? 1 : 0)];
}

static char irq_letter(const struct lt_flags *f)
{
	if (f->nmi && f->hardirq)
		return 'Z';
	if (f->nmi)
		return 'z';
	if (f->hardirq && f->softirq)
		return 'H';
	if (f->hardirq)
		return 'h';
	if (f->softirq)
		return 's';
	return '.';
}

static char nibble(unsigned int v)
{
	v &= 0xf;
	if (!v)
		return '.';
	return "0123456789abcdef"[v];
}

char lt_flags_resched_letter(enum lt_abi abi, unsigned int flags)
{
	struct lt_flags f = lt_flags_decode(abi, flags);

	return resched_letter(&f);
}

void lt_flags_latency(enum lt_abi abi, unsigned int flags,
		      unsigned int preempt_count, char out[6])
{
	struct lt_flags f = lt_flags_decode(abi, flags);

	out[0] = irqs_letter(&f);
	out[1] = resched_letter(&f);
	out[2] = irq_letter(&f);
	out[3] = nibble(preempt_count);
	out[4] = nibble(preempt_count >> 4);
	out[5] = '\0';
}

/* The inverse of lt_flags_decode(), for text input read back into bits. */
unsigned int lt_flags_encode(enum lt_abi abi, const struct lt_flags *f)
{
	const enum bit_meaning *bits = abi_bits[concrete(abi)];
	struct lt_flags copy = *f;
	unsigned int flags = 0;
	bool *m;
	int i;

	for (i = 0; i < 8; i++) {
		m = member(&copy, bits[i]);
		if (m && *m)
			flags |= 1u << i;
	}
	return flags;
}

/*
 * A PREEMPT_RT release: "6.6.15-rt22" (the patch set's EXTRAVERSION),
 * "6.1.0-18-rt-amd64" (Debian); "-rt" then a number, a separator or the
 * end.
 */
static bool rt_release(const char *release)
{
	const char *p;

	for (p = strstr(release, "-rt"); p; p = strstr(p + 1, "-rt")) {
		char c = p[3];

		if (!c || c == '-' || c == '.' || c == '+' || c == '_' ||
		    (c >= '0' && c <= '9'))
			return true;
	}
	return false;
}

/*
 * What the release alone settles: 6.13 and later carry lazy preemption
 * with the lazy bit on 0x02; the PREEMPT_RT patch sets 5.17-rt to 6.6-rt
 * their own lazy preemption, lazy on 0x20 (older RT sets used 0x80, which
 * no ABI here describes; 6.7-rt to 6.12-rt had no lazy preemption until
 * the backport, which the lazy bit scan finds). LT_ABI_AUTO: not settled.
 */
static enum lt_abi abi_of_release(const char *release)
{
	unsigned int major = 0, minor = 0;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return LT_ABI_AUTO;
	if (major > 6 || (major == 6 && minor >= 13))
		return LT_ABI_MAINLINE;
	if (rt_release(release) &&
	    ((major == 5 && minor >= 17) || (major == 6 && minor <= 6)))
		return LT_ABI_RT_LAZY;
	return LT_ABI_AUTO;
}

__attribute__((format(printf, 4, 5)))
static void choose(struct lt_abi_choice *out, enum lt_abi abi,
		   enum lt_abi_rule rule, const char *fmt, ...)
{
	va_list ap;

	out->abi = abi;
	out->rule = rule;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
	va_end(ap);
}

/*
 * docs/model.md §2, strongest first: the option; the RT lazy kernels'
 * common field; the release; for text, the first letter only one layout
 * can carry; the lazy bit 0x02 where legacy never sets it; else legacy
 * (bits) or mainline (text: the letters read back under it).
 */
void lt_abi_detect(const struct lt_abi_hints *h, struct lt_abi_choice *out)
{
	enum lt_abi rel;

	if (h->given != LT_ABI_AUTO) {
		choose(out, h->given, LT_ABI_BY_OPTION, "given with --abi");
		return;
	}
	if (h->lazy_count_field) {
		choose(out, LT_ABI_RT_LAZY, LT_ABI_BY_FIELD,
		       "events carry common_preempt_lazy_count (PREEMPT_RT lazy kernel)");
		return;
	}
	rel = abi_of_release(h->release);
	if (rel == LT_ABI_MAINLINE) {
		choose(out, rel, LT_ABI_BY_RELEASE, "kernel %s is 6.13 or later",
		       h->release);
		return;
	}
	if (rel == LT_ABI_RT_LAZY) {
		choose(out, rel, LT_ABI_BY_RELEASE,
		       "kernel %s is PREEMPT_RT 5.17-rt to 6.6-rt, lazy bit 0x20",
		       h->release);
		return;
	}
	if (h->text && h->x_letter) {
		choose(out, LT_ABI_LEGACY, LT_ABI_BY_LETTERS,
		       "text shows 'X' (irq-flag tracing unsupported), a legacy kernel");
		return;
	}
	if (h->text && h->lazy_letter) {
		choose(out, LT_ABI_MAINLINE, LT_ABI_BY_LETTERS,
		       "text shows lazy need-resched letters (B L b l)");
		return;
	}
	if (h->text) {
		choose(out, LT_ABI_MAINLINE, LT_ABI_BY_DEFAULT,
		       "text: the kernel's letters, read under the mainline layout");
		return;
	}
	if (h->lazy_bit_arch && h->scan_lazy_bit &&
	    h->scan_lazy_bit(h->scan_ctx)) {
		choose(out, LT_ABI_MAINLINE, LT_ABI_BY_LAZY_BIT,
		       "lazy bit 0x02 set on %s, where irq-flag tracing is always supported",
		       h->lazy_bit_arch);
		return;
	}
	choose(out, LT_ABI_LEGACY, LT_ABI_BY_DEFAULT,
	       "kernel %s, no lazy bit seen",
	       h->release ? h->release : "unknown");
}
