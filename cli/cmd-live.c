// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace live: the analysis of `stats` and `hogs`, straight from a
 * private tracefs instance, one interval at a time, refreshed like top.
 *
 * Each interval is analysed on its own (a request still open at its end
 * is shown as pending, not carried over); per-task totals over the whole
 * run are kept here.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "output-json.h"
#include "cli.h"
#include "private.h"
#include "output-sites.h"
#include "output-hist.h"

static const char live_usage[] =
"usage: lazytrace live [-d SECONDS] [--interval T] [--json] [--cpu LIST]\n"
"                      [--syscalls] [--abi NAME] [--rows N] [--stacks WHEN]\n"
"                      [--save DIR [--world-readable]]\n"
"\n"
"Trace into a private tracefs instance (removed on exit, also on Ctrl-C)\n"
"and show, for every interval, the tasks with pending need-resched\n"
"requests, tick-upgrades and hogs, like top. On a terminal, keys sort the\n"
"rows: h hogs first (default), t TRACE%, l LAZY, e EAGER, u TICK-UPG,\n"
"m MAXPEND, p PID; H switches to the latency histograms (those of\n"
"lazytrace hist, over the whole run) and back; q quits.\n"
"\n"
"  -d, --duration T   stop after T (seconds, or 500ms, ...); default: Ctrl-C\n"
"  --interval T       refresh period, 10ms to 1h (500ms, 2s; a bare number\n"
"                     is milliseconds; default 1s)\n"
"  --json             one JSON object per interval, one per line\n"
"  --cpu LIST         only these CPUs (e.g. 0,2-3)\n"
"  --syscalls         also raw_syscalls (names the syscall of tick-upgrades)\n"
"  --abi NAME         flag ABI: " LT_ABI_NAMES "\n"
"  --rows N           tasks shown per interval (default: fit the terminal, or 20)\n"
"  --save DIR         also write interval N to DIR/interval-N.dat, to read\n"
"                     again with report, hogs, ...; the kernel's symbols\n"
"                     once, as DIR/kallsyms, which those files read;\n"
"                     mode 0600, owned by the user who ran sudo\n"
"  --world-readable   saved intervals 0644 less the umask, not 0600\n"
"  --stop-above LAT   stop after the first interval in which a request\n"
"                     waited LAT or longer (500us, 2ms, ...): keep that\n"
"                     interval as DIR/interval-N.dat (--save DIR, else the\n"
"                     current directory, with the symbols in kallsyms; other\n"
"                     intervals are not kept\n"
"                     without --save) and say which request it was\n"
"  --stop-kind KIND   the requests --stop-above watches: lazy (default),\n"
"                     eager or any\n"
STACKS_USAGE
"\n"
"JSON (docs/json.md, \"version\": 3), one document per interval, one per\n"
"line: interval (times, events, the tick and setup), summary (the counts\n"
"of stats), pending (requests open at the interval's end: open_ns),\n"
"live_tasks (the first --rows tasks and every hog, with its open request\n"
"and run totals) and sites (the hogs', as hogs --json).\n"
"Each interval is analysed on its own: a request open at its end is pending.\n";

enum {
	OPT_INTERVAL = OPT_PRIVATE,
	OPT_SYSCALLS,
	OPT_ROWS,
	OPT_SAVE,
	OPT_WORLD_READABLE,
	OPT_STOP_ABOVE,
	OPT_STOP_KIND,
};

#define MAX_PENDING 256

struct live_opts {
	int64_t duration;	/* ns, -1: until a signal */
	unsigned long interval_ms;
	bool json;
	struct int_set cpus;
	bool syscalls;
	enum lt_abi abi;
	int rows;
	enum lt_stacks stacks;
	const char *save;	/* a directory for the intervals */
	bool world_readable;
	uint64_t stop_above;	/* ns; 0: never stop on a latency */
	const char *stop_kind;	/* lazy, eager or any */
	bool hist_only;		/* hist's fallback: count into hist, show nothing */
	struct lt_lathist *hist;	/* the run's latency histograms, or NULL */
};

/* A request still open when an interval ended. */
struct pending {
	int pid;
	int cpu;
	char comm[LT_COMM_LEN];
	enum lt_transition_kind request;
	uint64_t since_ns;
};

/* Per-pid totals over the whole run. */
struct total {
	int pid;
	uint64_t tick_upgrades;
	uint64_t episodes;
	uint64_t hog_intervals;
	struct total *next;
};

#define TOTAL_BUCKETS 1024

struct live_state {
	const struct live_opts *o;
	bool finishing;
	struct pending pending[MAX_PENDING];
	int nr_pending;
	uint64_t more_pending;
	struct total *totals[TOTAL_BUCKETS];
	unsigned long interval;
	struct lt_setup setup;	/* from the first interval: written once */
	const struct lt_analysis *a;	/* the interval's, while printing */
	bool stopped;	/* --stop-above: this interval holds such a request */
	uint64_t run_ns;	/* since the start */
	/* the kernel's lazy capability, from the setup line's interval */
	char lazy_cap[16];
	char lazy_reason[128];
};

/* The interval's summary with the setup line the run began with. */
static struct lt_analysis_summary with_setup(const struct live_state *st,
					     const struct lt_analysis *a)
{
	struct lt_analysis_summary s = *lt_analysis_summary(a);

	if (!s.setup.found)
		s.setup = st->setup;
	return s;
}

static void note(const char *msg)
{
	fprintf(stderr, "lazytrace live: %s\n", msg);
}

#define POLL_EVENTS 16384

/*
 * Until @when (monotonic ns) or a signal; the library moves the buffers'
 * pages into the interval meanwhile, so that a busy second cannot wrap them.
 */
/*
 * The order of the rows, chosen with a key on a terminal, as top's: the
 * column sorted on, largest first.
 */
enum sort_by {
	SORT_HOGS,	/* h: hogs, then pending requests, tick-upgrades */
	SORT_SHARE,	/* t: TRACE% */
	SORT_LAZY,	/* l */
	SORT_EAGER,	/* e */
	SORT_UPGRADES,	/* u: TICK-UPG */
	SORT_PENDING,	/* m: MAXPEND */
	SORT_PID,	/* p: smallest first */
};

static const struct {
	char key;
	const char *name;
} sort_keys[] = {
	[SORT_HOGS] = { 'h', "hogs" },
	[SORT_SHARE] = { 't', "trace%" },
	[SORT_LAZY] = { 'l', "lazy" },
	[SORT_EAGER] = { 'e', "eager" },
	[SORT_UPGRADES] = { 'u', "tick-upg" },
	[SORT_PENDING] = { 'm', "maxpend" },
	[SORT_PID] = { 'p', "pid" },
};

static enum sort_by sort_by;
/* H: the histogram view rather than the task table */
static bool view_hist;

/* live's histogram view: the buckets of lazytrace hist */
#define VIEW_BUCKET_NS	100000
#define VIEW_ENTRIES	100

/* On a terminal, keys are read one at a time, unechoed: q quits, like top. */
static struct termios saved_tty;
static bool keys_on;

static void keys_restore(void)
{
	if (keys_on)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
	keys_on = false;
}

static void keys_begin(const struct live_opts *o)
{
	struct termios t;

	if (o->json || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    tcgetattr(STDIN_FILENO, &saved_tty))
		return;
	t = saved_tty;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t))
		return;
	keys_on = true;
	/* die() and friends exit(): the terminal is given back all the same */
	atexit(keys_restore);
}

/* Whether q was pressed since the last look; a sort key takes effect. */
static bool quit_key(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	size_t i;
	char c;

	while (keys_on && poll(&p, 1, 0) == 1 && read(STDIN_FILENO, &c, 1) == 1) {
		if (c == 'q' || c == 'Q')
			return true;
		if (c == 'H')
			view_hist = !view_hist;
		for (i = 0; i < ARRAY_SIZE(sort_keys); i++)
			if (c == sort_keys[i].key) {
				sort_by = i;
				view_hist = false;
			}
	}
	return false;
}

/* A key is looked at every tenth of a second at most. */
#define KEY_MS 100

static int wait_until(struct lt_reader *r, uint64_t when)
{
	uint64_t now, ms;

	while (!stop_signal && (now = now_ns()) < when) {
		ms = (when - now + 999999) / 1000000;
		if (keys_on && ms > KEY_MS)
			ms = KEY_MS;
		if (lt_live_wait(r, ms) < 0)
			return -1;
		if (quit_key())
			stop_signal = SIGINT;	/* ends as Ctrl-C does */
	}
	return 0;
}

static struct total *total_of(struct live_state *st, int pid)
{
	struct total **b = &st->totals[(unsigned int)pid % TOTAL_BUCKETS], *t;

	for (t = *b; t; t = t->next)
		if (t->pid == pid)
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->next = *b;
	*b = t;
	return t;
}

static void free_totals(struct live_state *st)
{
	struct total *t, *n;
	int i;

	for (i = 0; i < TOTAL_BUCKETS; i++)
		for (t = st->totals[i]; t; t = n) {
			n = t->next;
			free(t);
		}
}

/* Requests that lt_analysis_finish() ends as truncated were pending. */
static void on_transition(const struct lt_transition *t, void *data)
{
	struct live_state *st = data;
	struct pending *p;

	/* a failure to grow is seen as fewer counts, not as a stop */
	if (st->o->hist)
		(void)lt_lathist_transition(st->o->hist, t);
	if (!st->finishing || t->kind != LT_TR_TRUNCATED)
		return;
	if (st->nr_pending == MAX_PENDING) {
		st->more_pending++;
		return;
	}
	p = &st->pending[st->nr_pending++];
	p->pid = t->pid;
	p->cpu = t->cpu;
	snprintf(p->comm, sizeof(p->comm), "%s", t->comm ? t->comm : "");
	p->request = t->request;
	p->since_ns = t->since_ns;
}

/* The longest pending request of @pid at the end of the interval. */
static const struct pending *pending_of(const struct live_state *st, int pid)
{
	const struct pending *best = NULL;
	int i;

	for (i = 0; i < st->nr_pending; i++)
		if (st->pending[i].pid == pid &&
		    (!best || st->pending[i].since_ns < best->since_ns))
			best = &st->pending[i];
	return best;
}

struct row {
	const struct lt_task_stats *t;
	const struct pending *p;
	uint64_t tick_upgrades;
};

/* Hogs first, then pending requests, tick-upgrades, and CPU time. */
/* x before y: -1; by a count, the larger first */
static int by_count(uint64_t x, uint64_t y)
{
	return x == y ? 0 : x > y ? -1 : 1;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = 0;

	switch (sort_by) {
	case SORT_SHARE:
		c = by_count(x->t->runtime_ns, y->t->runtime_ns);
		break;
	case SORT_LAZY:
		c = by_count(x->t->count[LT_TR_LAZY], y->t->count[LT_TR_LAZY]);
		break;
	case SORT_EAGER:
		c = by_count(x->t->count[LT_TR_EAGER],
			     y->t->count[LT_TR_EAGER]);
		break;
	case SORT_UPGRADES:
		c = by_count(x->t->count[LT_TR_TICK_UPGRADE],
			     y->t->count[LT_TR_TICK_UPGRADE]);
		break;
	case SORT_PENDING:
		c = by_count(x->t->max_pending_ns, y->t->max_pending_ns);
		break;
	case SORT_PID:
		return x->t->pid - y->t->pid;
	default:
		break;
	}
	if (c)
		return c;
	if (x->t->hog != y->t->hog)
		return x->t->hog ? -1 : 1;
	if (!x->t->pid != !y->t->pid)
		return x->t->pid ? -1 : 1;	/* the idle tasks last */
	if (!x->p != !y->p)
		return x->p ? -1 : 1;
	if (x->tick_upgrades != y->tick_upgrades)
		return x->tick_upgrades > y->tick_upgrades ? -1 : 1;
	if (x->t->runtime_ns != y->t->runtime_ns)
		return x->t->runtime_ns > y->t->runtime_ns ? -1 : 1;
	return x->t->pid - y->t->pid;
}

static bool any_transition(const struct lt_task_stats *t)
{
	int k;

	for (k = 0; k < LT_TR_KIND_MAX; k++)
		if (t->count[k])
			return true;
	return false;
}

static struct row *make_rows(struct live_state *st, struct lt_analysis *a,
			     size_t *nr)
{
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	const struct lt_task_stats *t;
	struct total *tot;
	struct row *rows;
	size_t i, n = 0;

	rows = calloc(sum->nr_tasks ? sum->nr_tasks : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < sum->nr_tasks; i++) {
		t = lt_analysis_task(a, i);
		/*
		 * The idle tasks are rows when requests concern them (a
		 * wakeup on an idle CPU is an eager request): the interval's
		 * counts are the sums of its rows'.
		 */
		if (!t || (t->pid == 0 && !any_transition(t)))
			continue;
		rows[n].t = t;
		rows[n].p = pending_of(st, t->pid);
		rows[n].tick_upgrades = t->count[LT_TR_TICK_UPGRADE];
		tot = total_of(st, t->pid);
		if (tot) {
			tot->tick_upgrades += t->count[LT_TR_TICK_UPGRADE];
			tot->episodes += t->episodes;
			tot->hog_intervals += t->hog;
		}
		n++;
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
	*nr = n;
	return rows;
}

static int screen_rows(const struct live_opts *o)
{
	struct winsize ws;

	if (o->rows > 0)
		return o->rows;
	/*
	 * Six lines of heading, and one to spare: the newline that ends the
	 * last line must not scroll the title off the screen.
	 */
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_row > 9)
		return ws.ws_row - 7;
	return 20;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* Each hog's top call site, when the interval has stacks. */
static void print_sites(const struct lt_analysis *a, const struct row *rows,
			size_t nr)
{
	const struct lt_site *s;
	char st[256];
	size_t i, ns;

	for (i = 0; i < nr; i++) {
		if (!rows[i].t->hog)
			continue;
		s = lt_analysis_sites(a, rows[i].t, &ns);
		if (!ns)
			continue;
		site_abbrev(&s[0], 3, 2, st, sizeof(st));
		printf("site %7d %-16.16s %llu/%llu episodes: %s\n",
		       rows[i].t->pid, rows[i].t->comm,
		       (unsigned long long)s[0].episodes,
		       (unsigned long long)rows[i].t->episodes, st);
	}
}

static void print_table(struct live_state *st, struct lt_analysis *a,
			struct row *rows, size_t nr, uint64_t end_ns)
{
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	int limit = screen_rows(st->o);
	struct lt_analysis_summary full;
	const struct total *tot;
	char pend[32], src[96], tick[32];
	size_t i, ns;

	/* the hogs' site lines come under the rows: room for them too */
	for (i = 0; !st->o->rows && i < nr && limit > 1; i++)
		if (rows[i].t->hog && (lt_analysis_sites(a, rows[i].t, &ns), ns))
			limit--;

	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	else if (st->interval > 1)
		putchar('\n');
	/* an interval without tick events and no HZ: no length to show */
	if (sum->tick_source == LT_TICK_UNKNOWN)
		snprintf(tick, sizeof(tick), "unknown");
	else
		snprintf(tick, sizeof(tick), "%.3f ms", ms(sum->tick_ns));
	printf("lazytrace live  interval %lu  %.2f s  events %llu  lost %llu  abi %s  tick %s",
	       st->interval, sum->events ? (sum->last_ns - sum->first_ns) / 1e9 : 0,
	       (unsigned long long)sum->events,
	       (unsigned long long)sum->lost_events, lt_abi_name(sum->abi),
	       tick);
	/* on a terminal: the order, and the keys that change it */
	if (keys_on)
		printf("  sort %s (h t l e u m p; q quits)",
		       sort_keys[sort_by].name);
	putchar('\n');
	printf("switches: preempted %llu  yielded %llu  blocked %llu   requests: lazy %llu  eager %llu  tick-upgrade %llu  pending %d  hogs %zu\n",
	       (unsigned long long)sum->switches[LT_PREV_PREEMPTED],
	       (unsigned long long)sum->switches[LT_PREV_YIELDED],
	       (unsigned long long)sum->switches[LT_PREV_BLOCKED],
	       (unsigned long long)sum->count[LT_TR_LAZY],
	       (unsigned long long)sum->count[LT_TR_EAGER],
	       (unsigned long long)sum->count[LT_TR_TICK_UPGRADE],
	       st->nr_pending, sum->nr_hogs);
	full = with_setup(st, a);
	fmt_upgrade_sources(src, sizeof(src), sum->upgrades_by_source);
	printf("upgrades by source: %s\n", src);
	print_setup(stdout, &full);
	printf("%7s %-16s %6s %6s %6s %8s %5s %9s %-14s %3s | %8s %6s\n", "PID",
	       "COMM", "TRACE%", "LAZY", "EAGER", "TICK-UPG", "EPIS", "MAXPEND", "PENDING",
	       "HOG", "ALL-TUPG", "HOG-IV");
	for (i = 0; i < nr && (int)i < limit; i++) {
		const struct lt_task_stats *t = rows[i].t;

		pend[0] = '\0';
		if (rows[i].p)
			snprintf(pend, sizeof(pend), "%s %.2fms",
				 lt_transition_name(rows[i].p->request),
				 ms(end_ns > rows[i].p->since_ns ?
				    end_ns - rows[i].p->since_ns : 0));
		tot = total_of(st, t->pid);
		printf("%7d %-16.16s %6.1f %6llu %6llu %8llu %5llu %9.3f %-14s %3s | %8llu %6llu\n",
		       t->pid, t->comm, t->trace_share * 100,
		       (unsigned long long)t->count[LT_TR_LAZY],
		       (unsigned long long)t->count[LT_TR_EAGER],
		       (unsigned long long)t->count[LT_TR_TICK_UPGRADE],
		       (unsigned long long)t->episodes, ms(t->max_pending_ns),
		       pend, t->hog ? "yes" : "",
		       (unsigned long long)(tot ? tot->tick_upgrades : 0),
		       (unsigned long long)(tot ? tot->hog_intervals : 0));
	}
	print_sites(a, rows, nr);
	fflush(stdout);
}

/* H: the run's histograms, as lazytrace hist prints them, under the title. */
static void print_hist_view(struct live_state *st, struct lt_analysis *a)
{
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	struct hist_info in = { .source = "user",
				.reason = "live's histogram view",
				.duration_ns = st->run_ns };
	struct winsize ws;

	in.columns = 4;
	in.compact = true;
	in.max_rows = 10;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col > 30) {
		in.columns = (ws.ws_col - 8) / 20;
		/* the title, 5 lines of heading, 5 of totals, one to spare */
		in.max_rows = ws.ws_row > 14 ? ws.ws_row - 13 : 1;
	}
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("lazytrace live  interval %lu  events %llu  lost %llu  histograms (H: back to the tasks; q quits)\n",
	       st->interval, (unsigned long long)sum->events,
	       (unsigned long long)sum->lost_events);
	hist_print(stdout, st->o->hist, &in);
}

/* The time a request has been open at the interval's end. */
static uint64_t open_ns(const struct pending *p, uint64_t end_ns)
{
	return end_ns > p->since_ns ? end_ns - p->since_ns : 0;
}

/* A live_tasks row (docs/json.md): a tasks row's counts and the totals. */
static void json_task(struct json *j, struct live_state *st,
		      const struct row *r, uint64_t end_ns)
{
	const struct lt_task_stats *t = r->t;
	const struct total *tot = total_of(st, t->pid);
	int k;

	json_begin_object(j, NULL);
	json_int(j, "pid", t->pid);
	json_str(j, "comm", t->comm);
	json_shares(j, t);
	json_transitions(j, t->count);
	json_uint(j, "episodes", t->episodes);
	json_uint(j, "max_pending_ns", t->max_pending_ns);
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		json_uint(j, upgrade_source_key(k), t->upgrades_by_source[k]);
	json_bool(j, "hog", t->hog);
	if (r->p) {
		json_str(j, "request", lt_transition_name(r->p->request));
		json_uint(j, "since_ns", r->p->since_ns);
		json_uint(j, "open_ns", open_ns(r->p, end_ns));
	} else {
		json_null(j, "request");
		json_null(j, "since_ns");
		json_null(j, "open_ns");
	}
	json_uint(j, "total_tick_upgrades", tot ? tot->tick_upgrades : 0);
	json_uint(j, "total_hog_intervals", tot ? tot->hog_intervals : 0);
	json_end_object(j);
}

/*
 * One version-3 document per interval, one per line (docs/json.md):
 * interval, summary (the summary table's columns), pending, live_tasks
 * (the first --rows rows and every hog) and the hogs' sites.
 */
static void print_json(struct live_state *st, struct lt_analysis *a,
		       struct row *rows, size_t nr, uint64_t end_ns)
{
	const struct lt_analysis_summary *sum = lt_analysis_summary(a);
	struct lt_analysis_summary full;
	size_t limit = st->o->rows > 0 ? st->o->rows : 20;
	size_t i, listed = 0;
	struct json j;
	int k;

	for (i = 0; i < nr; i++)
		if (i < limit || rows[i].t->hog)
			listed++;
	full = with_setup(st, a);
	json_init(&j, stdout, false);
	json_begin_object(&j, NULL);
	json_int(&j, "version", LT_JSON_VERSION_3);
	json_begin_object(&j, "interval");
	json_uint(&j, "interval", st->interval);
	json_uint(&j, "first_ns", sum->first_ns);
	json_uint(&j, "last_ns", sum->last_ns);
	json_uint(&j, "events", sum->events);
	json_uint(&j, "lost_events", sum->lost_events);
	json_str(&j, "abi", lt_abi_name(sum->abi));
	json_setup(&j, &full);
	json_uint(&j, "pending_not_listed", st->more_pending);
	json_uint(&j, "tasks_not_listed", nr - listed);
	json_str(&j, "lazy_capability", st->lazy_cap);
	json_str(&j, "lazy_capability_reason", st->lazy_reason);
	json_end_object(&j);
	json_summary(&j, sum);
	json_begin_array(&j, "pending");
	for (k = 0; k < st->nr_pending; k++) {
		const struct pending *p = &st->pending[k];

		json_begin_object(&j, NULL);
		json_int(&j, "pid", p->pid);
		json_str(&j, "comm", p->comm);
		json_int(&j, "cpu", p->cpu);
		json_str(&j, "request", lt_transition_name(p->request));
		json_uint(&j, "since_ns", p->since_ns);
		json_uint(&j, "open_ns", open_ns(p, end_ns));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_array(&j, "live_tasks");
	for (i = 0; i < nr; i++)
		if (i < limit || rows[i].t->hog)
			json_task(&j, st, &rows[i], end_ns);
	json_end_array(&j);
	json_begin_array(&j, "sites");
	for (i = 0; i < nr; i++)
		if (rows[i].t->hog)
			json_sites(&j, a, rows[i].t);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fflush(stdout);
}

/* Whether a watched request of the interval waited --stop-above or more. */
static bool over_threshold(const struct live_opts *o,
			   const struct lt_analysis *a)
{
	size_t i, n = lt_analysis_summary(a)->nr_tasks;
	const struct lt_task_stats *t;

	for (i = 0; i < n; i++) {
		t = lt_analysis_task(a, i);
		if (stop_watched(o->stop_kind, "lazy") &&
		    t->latency[LT_LAT_LAZY_SERVED].max >= o->stop_above)
			return true;
		if (stop_watched(o->stop_kind, "eager") &&
		    t->latency[LT_LAT_EAGER_SERVED].max >= o->stop_above)
			return true;
	}
	return false;
}

/*
 * The request that stopped the run, from the kept interval's requests
 * table: the library's rule for a request, not live's own.
 */
static void say_stopped(const struct live_opts *o, const char *path,
			unsigned long interval)
{
	char what[512];

	if (stop_request(path, o->stop_above, o->stop_kind, 0, what,
			 sizeof(what)))
		fprintf(stderr, "lazytrace live: interval %lu: %s; kept in %s\n",
			interval, what, path);
	else
		fprintf(stderr, "lazytrace live: interval %lu: a request (%s) waited %.3f ms or longer; kept in %s\n",
			interval, o->stop_kind, o->stop_above / 1e6, path);
}

/* Analyse what the buffers hold now, and show it. */
static int one_interval(struct live_state *st, struct lt_reader *r)
{
	struct lt_analysis_opts ao = { .on_transition = on_transition,
				       .data = st };
	const struct lt_event *ev;
	struct lt_analysis *a;
	struct row *rows;
	size_t nr = 0;
	uint64_t end, n = 0;

	if (lt_live_refill(r))
		return -1;
	ao.abi = lt_reader_abi(r, NULL);
	a = lt_analysis_new(&ao);
	if (!a)
		return -1;
	st->interval++;
	st->finishing = false;
	st->nr_pending = 0;
	st->more_pending = 0;
	while ((ev = lt_reader_next(r))) {
		lt_analysis_feed(a, ev);
		/* A long interval takes a while: keep the buffers from wrapping. */
		if (!(++n % POLL_EVENTS))
			lt_live_poll(r);
	}
	st->finishing = true;
	lt_analysis_finish(a);
	if (!st->setup.found)
		st->setup = lt_analysis_summary(a)->setup;
	if (!st->lazy_cap[0] || lt_analysis_summary(a)->setup.found) {
		const char *why, *cap = lt_analysis_lazy_capability(a, &why);

		snprintf(st->lazy_cap, sizeof(st->lazy_cap), "%s", cap);
		snprintf(st->lazy_reason, sizeof(st->lazy_reason), "%s", why);
	}
	if (lt_reader_error(r)) {
		lt_analysis_free(a);
		return -1;
	}
	end = lt_analysis_summary(a)->last_ns;
	rows = make_rows(st, a, &nr);
	st->a = a;
	if (st->o->hist_only)
		;	/* hist prints at the end */
	else if (st->o->json)
		print_json(st, a, rows, nr, end);
	else if (view_hist && st->o->hist)
		print_hist_view(st, a);
	else
		print_table(st, a, rows, nr, end);
	free(rows);
	if (st->o->stop_above)
		st->stopped = over_threshold(st->o, a);
	lt_analysis_free(a);
	/* A reader that went away (| head) ends the run like Ctrl-C. */
	if (ferror(stdout))
		stop_signal = SIGPIPE;
	return 0;
}

/* A bare number is milliseconds, as it always was; else a time with a unit. */
static unsigned long parse_interval_ms(const char *arg)
{
	size_t n = strlen(arg);
	int64_t ns;

	if (n && isdigit((unsigned char)arg[n - 1]))
		ns = strspn(arg, "0123456789") == n && n < 10 ?
			(int64_t)strtoul(arg, NULL, 10) * 1000000 : -1;
	else
		ns = parse_time_ns(arg);
	if (ns < 10 * 1000000LL || ns > 3600 * 1000000000LL)
		return 0;
	return ns / 1000000;
}

/*
 * --save DIR: made if it does not exist yet (0700, the invoking user's
 * under sudo, as the files in it will be).
 */
static int save_dir(const char *dir)
{
	struct stat st;
	uid_t uid;
	gid_t gid;

	if (!stat(dir, &st)) {
		if (S_ISDIR(st.st_mode))
			return 0;
		fprintf(stderr, "lazytrace live: --save: %s is not a directory\n",
			dir);
		return -1;
	}
	if (errno != ENOENT || mkdir(dir, 0700)) {
		fprintf(stderr, "lazytrace live: --save: cannot make %s: %s\n",
			dir, strerror(errno));
		return -1;
	}
	if (sudo_user(&uid, &gid) && chown(dir, uid, gid))
		fprintf(stderr, "lazytrace live: --save: cannot give %s to uid %u: %s\n",
			dir, (unsigned int)uid, strerror(errno));
	return 0;
}

/* Saved intervals hold kernel addresses: the invoking user's alone. */
static int save_as(struct lt_reader *r, const struct live_opts *o,
		   const char *dir)
{
	unsigned int mode = 0600;
	long uid = -1, gid = -1;
	uid_t su;
	gid_t sg;

	if (o->world_readable) {
		mode = umask(0);
		umask(mode);
		mode = 0644 & ~mode;
	}
	if (sudo_user(&su, &sg)) {
		uid = su;
		gid = sg;
	}
	return lt_live_save_as(r, mode, uid, gid) || lt_live_save(r, dir);
}

static int live(const struct live_opts *o)
{
	struct lt_tracefs_opts to = { .cpus = o->cpus.v, .nr_cpus = o->cpus.nr,
				      .syscalls = o->syscalls,
				      .functions = true, .stacks = o->stacks,
				      .note = note };
	struct lt_open_opts oo = { .abi = o->abi };
	struct live_state *st;
	struct lt_tracefs *s;
	struct lt_reader *r;
	uint64_t start, next, end;
	int ret = EXIT_BAD;
	char msg[512], path[4096];
	const char *dir;
	bool last;

	st = calloc(1, sizeof(*st));
	if (!st)
		return EXIT_BAD;
	st->o = o;
	catch_stop_signals();
	r = lt_live_begin(&to, &oo, &s, msg, sizeof(msg));
	if (!r) {
		fprintf(stderr, "lazytrace live: %s\n", msg);
		free(st);
		return EXIT_BAD;
	}
	/* --stop-above keeps the interval that stopped it: written as all are */
	dir = o->save ? o->save : o->stop_above ? "." : NULL;
	if (dir && save_as(r, o, dir)) {
		fprintf(stderr, "lazytrace live: cannot save into %s\n", dir);
		goto out;
	}
	keys_begin(o);
	start = now_ns();
	end = o->duration >= 0 ? start + o->duration : 0;
	for (next = start;;) {
		next += o->interval_ms * 1000000ULL;
		if (end && next > end)
			next = end;
		if (wait_until(r, next)) {
			fprintf(stderr, "lazytrace live: %s\n", lt_reader_error(r));
			goto out;
		}
		last = stop_signal || (end && now_ns() >= end);
		st->run_ns = now_ns() - start;
		if (last)
			lt_tracefs_stop(s);	/* the final interval ends here */
		if (one_interval(st, r)) {
			fprintf(stderr, "lazytrace live: %s\n",
				lt_reader_error(r) ? lt_reader_error(r) :
				"out of memory");
			goto out;
		}
		if (o->stop_above) {
			snprintf(path, sizeof(path), "%s/interval-%lu.dat", dir,
				 st->interval);
			if (st->stopped) {
				say_stopped(o, path, st->interval);
				break;
			}
			if (!o->save)
				unlink(path);
		}
		if (last || stop_signal == SIGPIPE)
			break;
	}
	ret = EXIT_OK;
	/* nothing kept: the symbols written for the intervals go too */
	if (o->stop_above && !st->stopped && !o->save) {
		snprintf(path, sizeof(path), "%s/kallsyms", dir);
		unlink(path);
	}
	if (o->stop_above && !st->stopped) {
		fprintf(stderr, "lazytrace live: note: no request (%s) waited %.3f ms or longer\n",
			o->stop_kind, o->stop_above / 1e6);
		ret = EXIT_NOTHING;
	}
out:
	keys_restore();
	lt_reader_close(r);
	lt_tracefs_destroy(s);
	free_totals(st);
	free(st);
	return ret;
}

int cmd_live(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "syscalls", no_argument, NULL, OPT_SYSCALLS },
		{ "abi", required_argument, NULL, OPT_ABI },
		{ "rows", required_argument, NULL, OPT_ROWS },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "world-readable", no_argument, NULL, OPT_WORLD_READABLE },
		{ "stop-above", required_argument, NULL, OPT_STOP_ABOVE },
		{ "stop-kind", required_argument, NULL, OPT_STOP_KIND },
		STACKS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct live_opts o = { .duration = -1, .interval_ms = 1000 };
	unsigned long long given = 0;
	bool abi_given = false;
	char *end;
	int c, ret;

	while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		if (stacks_opt(&o.stacks, c, optarg))
			continue;
		switch (c) {
		case 'd':
			opt_once(&given, 0, "-d");
			o.duration = parse_time_ns(optarg);
			if (o.duration <= 0)
				die_usage("bad duration '%s'", optarg);
			break;
		case OPT_INTERVAL:
			opt_once(&given, 1, "interval");
			o.interval_ms = parse_interval_ms(optarg);
			if (!o.interval_ms)
				die_usage("bad interval '%s' (10ms to 1h, e.g. 500ms or 2s; a bare number is milliseconds)",
					  optarg);
			break;
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_CPU:
			if (int_set_parse(&o.cpus, optarg))
				die_usage("bad CPU list '%s'", optarg);
			check_cpus(&o.cpus, get_nprocs_conf(), NULL);
			break;
		case OPT_SYSCALLS:
			o.syscalls = true;
			break;
		case OPT_ABI:
			abi_opt(optarg, &o.abi, &abi_given);
			break;
		case OPT_ROWS:
			opt_once(&given, 2, "rows");
			o.rows = strtol(optarg, &end, 10);
			if (*end || o.rows <= 0)
				die_usage("bad row count '%s'", optarg);
			break;
		case OPT_SAVE:
			opt_once(&given, 3, "save");
			if (save_dir(optarg))
				return EXIT_BAD;
			o.save = optarg;
			break;
		case OPT_WORLD_READABLE:
			o.world_readable = true;
			break;
		case OPT_STOP_ABOVE:
			opt_once(&given, 5, "--stop-above");
			o.stop_above = stop_above_parse(optarg);
			break;
		case OPT_STOP_KIND:
			opt_once(&given, 6, "--stop-kind");
			o.stop_kind = stop_kind_parse(optarg);
			break;
		case 'h':
			fputs(live_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (o.world_readable && !o.save && !o.stop_above)
		die_usage("--world-readable is for the files of --save DIR");
	o.stop_kind = stop_kind_final(o.stop_kind, o.stop_above);
	/* the histogram view (H) counts from the start */
	if (!o.json && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
		o.hist = lt_lathist_new(VIEW_BUCKET_NS, VIEW_ENTRIES, false);
		if (!o.hist)
			die("out of memory");
	}
	ret = live(&o);
	lt_lathist_free(o.hist);
	int_set_free(&o.cpus);
	return ret;
}

/* Documented in cli.h. */
int live_hist(struct lt_lathist *h, int64_t duration)
{
	struct live_opts o = { .duration = duration, .interval_ms = 1000,
			       .stacks = LT_STACKS_NONE, .stop_kind = "lazy",
			       .hist_only = true, .hist = h };

	return live(&o);
}
