// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace hist: request-to-served latency histograms per task (or per
 * comm), lazy and eager apart, built inside the kernel with hist triggers
 * and synthetic events (lt_khist_begin()), printed as rtla prints its
 * histograms. Where the kernel cannot, it says why in one line and the
 * same histograms come from live's stream (live_hist()).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "output-hist.h"

static const char hist_usage[] =
"usage: lazytrace hist [-d T] [--bucket-size T] [--entries N] [--tasks N]\n"
"                      [--comm] [--json] [--user] [--lazy-tif N]\n"
"\n"
"Histograms of how long requests waited, from the request\n"
"(sched_set_need_resched_tp) to the task's switch out, per task, lazy (L)\n"
"and eager (E: direct, or the upgrade of a lazy request) apart, built in\n"
"the kernel (hist triggers and synthetic events: nothing goes through the\n"
"ring buffer), printed at the end (-d, Ctrl-C). A kernel without them gets\n"
"the same histograms from the live stream, after one line saying why.\n"
"\n"
"  -d, --duration T   stop after T (10s, 1m, ...); default: Ctrl-C\n"
"  --bucket-size T    width of a bucket, 1us to 1s (default 100us)\n"
"  --entries N        buckets, 1 to 10000 (default 100); longer waits: over\n"
"  --tasks N          tasks (columns pairs) shown, busiest first (default 8)\n"
"  --comm             one histogram per comm rather than per task\n"
"  --json             one JSON document (docs/json.md: hist, hist_tasks,\n"
"                     hist_buckets)\n"
"  --user             from the live stream even where the kernel could\n"
"  --lazy-tif N       the TIF bit number of a lazy request (known for\n"
"                     x86-64 Linux 7: 5)\n";

enum {
	OPT_BUCKET = OPT_PRIVATE,
	OPT_ENTRIES,
	OPT_TASKS,
	OPT_BY_COMM,
	OPT_USER,
	OPT_LAZY_TIF,
};

static void note(const char *msg)
{
	fprintf(stderr, "lazytrace hist: %s\n", msg);
}

static int add_bucket(void *data, int pid, const char *comm,
		      enum lt_lathist_kind kind, uint64_t lat_ns,
		      uint64_t count, uint64_t sum_ns)
{
	return lt_lathist_add(data, pid, comm, kind, lat_ns, count, sum_ns);
}

/* Until -d or a signal. */
static void wait_end(int64_t duration)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	uint64_t end = duration >= 0 ? now_ns() + duration : 0;

	while (!stop_signal && (!end || now_ns() < end))
		nanosleep(&ts, NULL);
}

int cmd_hist(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "bucket-size", required_argument, NULL, OPT_BUCKET },
		{ "entries", required_argument, NULL, OPT_ENTRIES },
		{ "tasks", required_argument, NULL, OPT_TASKS },
		{ "comm", no_argument, NULL, OPT_BY_COMM },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "user", no_argument, NULL, OPT_USER },
		{ "lazy-tif", required_argument, NULL, OPT_LAZY_TIF },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lt_tracefs_opts to = { .note = note };
	struct hist_info in = { .source = "kernel", .columns = 8 };
	int64_t duration = -1, bucket = 100000;
	long entries = 100, lazy_tif = -1;
	bool json = false, user = false;
	struct lt_lathist *h;
	struct lt_khist *k = NULL;
	char err[512], *end;
	unsigned long long given = 0;
	uint64_t start;
	int c, ret = EXIT_OK;

	while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt_once(&given, 0, "-d");
			duration = parse_time_ns(optarg);
			if (duration <= 0)
				die_usage("bad duration '%s'", optarg);
			break;
		case OPT_BUCKET:
			opt_once(&given, 1, "bucket-size");
			bucket = parse_time_ns(optarg);
			if (bucket < 1000 || bucket > 1000000000)
				die_usage("bad bucket size '%s' (1us to 1s, e.g. 100us)",
					  optarg);
			break;
		case OPT_ENTRIES:
			opt_once(&given, 2, "entries");
			entries = strtol(optarg, &end, 10);
			if (*end || entries < 1 || entries > 10000)
				die_usage("bad entries '%s' (1 to 10000)", optarg);
			break;
		case OPT_TASKS:
			opt_once(&given, 3, "tasks");
			in.columns = strtol(optarg, &end, 10);
			if (*end || in.columns < 1 || in.columns > 1000)
				die_usage("bad task count '%s' (1 to 1000)", optarg);
			break;
		case OPT_BY_COMM:
			in.by_comm = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_USER:
			user = true;
			break;
		case OPT_LAZY_TIF:
			opt_once(&given, 4, "lazy-tif");
			lazy_tif = strtol(optarg, &end, 10);
			if (*end || lazy_tif < 0 || lazy_tif > 63)
				die_usage("bad TIF bit '%s' (0 to 63)", optarg);
			break;
		case 'h':
			fputs(hist_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	h = lt_lathist_new(bucket, entries, in.by_comm);
	if (!h)
		die("out of memory");
	catch_stop_signals();
	if (user)
		snprintf(err, sizeof(err), "--user");
	else
		k = lt_khist_begin(&to, bucket, lazy_tif, err, sizeof(err));
	start = now_ns();
	if (k) {
		wait_end(duration);
		if (lt_khist_read(k, add_bucket, h)) {
			fprintf(stderr, "lazytrace hist: cannot read the kernel's histograms: %s\n",
				strerror(errno));
			ret = EXIT_BAD;
		}
		lt_khist_end(k);
	} else {
		/* one line on why, then the same histograms from user space */
		fprintf(stderr, "lazytrace hist: %s: histograms from the live stream in user space\n",
			err);
		in.source = "user";
		in.reason = err;
		ret = live_hist(h, duration);
	}
	in.duration_ns = now_ns() - start;
	if (ret == EXIT_OK) {
		if (json)
			hist_print_json(stdout, h, &in);
		else
			hist_print(stdout, h, &in);
	}
	lt_lathist_free(h);
	return ret;
}
