// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace flags: explain one common_flags byte under one or every ABI.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char flags_usage[] =
"usage: lazytrace flags VALUE [--abi NAME] [--preempt-count N] [--json]\n"
"\n"
"Explain a common_flags byte (e.g. 0x26): its bits and the latency field\n"
"the kernel prints. Without --abi, under every ABI.\n"
"\n"
"  VALUE                the byte: 0..255, or 0x00..0xff\n"
"  --abi NAME           " LT_ABI_NAMES "\n"
"                       (auto, the default: every ABI)\n"
"  --preempt-count N    common_preempt_count, for the last two columns\n"
"  --json               one JSON document: {\"version\": 3, \"flags\": [row per ABI]}\n"
"                       (docs/json.md)\n";

enum { OPT_PREEMPT_COUNT = OPT_PRIVATE };

static void list_bits(const struct lt_flags *f, char *buf, size_t len)
{
	static const struct { size_t off; const char *name; } names[] = {
		{ offsetof(struct lt_flags, irqs_off), "irqs-off" },
		{ offsetof(struct lt_flags, irqs_nosupport), "irqs-nosupport" },
		{ offsetof(struct lt_flags, need_resched), "need-resched" },
		{ offsetof(struct lt_flags, need_resched_lazy), "need-resched-lazy" },
		{ offsetof(struct lt_flags, preempt_resched), "preempt-resched" },
		{ offsetof(struct lt_flags, hardirq), "hardirq" },
		{ offsetof(struct lt_flags, softirq), "softirq" },
		{ offsetof(struct lt_flags, nmi), "nmi" },
		{ offsetof(struct lt_flags, bh_off), "bh-off" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names) && n < len; i++) {
		if (!*((const bool *)f + names[i].off))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? " " : "",
			      names[i].name);
	}
	if (!n)
		snprintf(buf, len, "(none)");
}

static const char *request_name(const struct lt_flags *f)
{
	if (f->need_resched && f->need_resched_lazy)
		return "eager and lazy";
	if (f->need_resched)
		return "eager";
	if (f->need_resched_lazy)
		return "lazy";
	return "none";
}

static void explain(enum lt_abi abi, unsigned int val, unsigned int pc,
		    struct json *j)
{
	struct lt_flags f = lt_flags_decode(abi, val);
	char lat[6], bits[160];

	lt_flags_latency(abi, val, pc, lat);
	list_bits(&f, bits, sizeof(bits));
	if (!j) {
		printf("%-9s %s  request: %-14s folded: %-3s  bits: %s\n",
		       lt_abi_name(abi), lat, request_name(&f),
		       f.preempt_resched ? "yes" : "no", bits);
		return;
	}
	json_begin_object(j, NULL);
	json_uint(j, "value", val);
	json_uint(j, "preempt_count", pc);
	json_str(j, "abi", lt_abi_name(abi));
	json_str(j, "flags", lat);
	json_str(j, "request", request_name(&f));
	json_bool(j, "preempt_resched", f.preempt_resched);
	json_str(j, "bits", bits);
	json_end_object(j);
}

static unsigned int parse_byte(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > 0xff)
		die_usage("bad %s '%s' (a byte: 0..255 or 0x00..0xff)", what, s);
	return v;
}

int cmd_flags(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "abi", required_argument, NULL, OPT_ABI },
		{ "preempt-count", required_argument, NULL, OPT_PREEMPT_COUNT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum lt_abi abi = LT_ABI_AUTO;
	unsigned int val, pc = 0;
	bool as_json = false, abi_given = false, pc_given = false;
	struct json j;
	enum lt_abi a;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ABI:
			/* auto, as elsewhere: a bare byte says nothing, so every ABI */
			abi_opt(optarg, &abi, &abi_given);
			break;
		case OPT_PREEMPT_COUNT:
			if (pc_given)
				die_usage("--preempt-count given twice");
			pc_given = true;
			pc = parse_byte(optarg, "preempt count");
			break;
		case OPT_JSON:
			as_json = true;
			break;
		case 'h':
			fputs(flags_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind == argc)
		die_usage("missing VALUE, the common_flags byte");
	if (argc - optind > 1)
		die_usage("one VALUE at a time, not %d ('%s' is extra)",
			  argc - optind, argv[optind + 1]);
	val = parse_byte(argv[optind], "flag value");
	if (as_json) {
		json_init(&j, stdout, false);
		json_begin_object(&j, NULL);
		json_int(&j, "version", LT_JSON_VERSION_3);
		json_begin_array(&j, "flags");
	} else {
		printf("common_flags 0x%02x, preempt_count 0x%02x\n", val, pc);
	}
	for (a = LT_ABI_LEGACY; a < LT_ABI_MAX; a++)
		if (abi == LT_ABI_AUTO || abi == a)
			explain(a, val, pc, as_json ? &j : NULL);
	if (as_json) {
		json_end_array(&j);
		json_end_object(&j);
		json_finish(&j);
	}
	return EXIT_OK;
}
