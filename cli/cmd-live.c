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
	const char *cpu_list;	/* --cpu as given, for the run */
	bool syscalls;
	enum lt_abi abi;
	bool abi_given;
	int rows;
	enum lt_stacks stacks;
	const char *save;	/* a directory for the intervals */
	bool world_readable;
	uint64_t stop_above;	/* ns; 0: never stop on a latency */
	const char *stop_kind;	/* lazy, eager or any */
	bool hist_only;		/* hist's fallback: count into hist, show nothing */
	struct lt_lathist *hist;	/* the run's latency histograms, or NULL */
};

/* A row of the interval's pending table: a request still open at its end. */
struct pending {
	int pid;
	int cpu;
	char comm[LT_COMM_LEN];
	char request[8];
	uint64_t since_ns;
	uint64_t open_ns;
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

/* The kernel's setup line, as the meta table gives it (a line's worth). */
struct live_setup {
	bool found;
	char release[256];
	char preempt[64];
	unsigned int hz;
	char sched_features[1024];
};

struct live_state {
	const struct live_opts *o;
	struct lt_run *run;
	struct pending pending[MAX_PENDING];
	int nr_pending;
	uint64_t more_pending;
	struct total *totals[TOTAL_BUCKETS];
	unsigned long interval;
	struct live_setup setup;	/* from the first interval: written once */
	bool stopped;	/* --stop-above: this interval holds such a request */
	uint64_t run_ns;	/* since the start */
	/* the kernel's lazy capability, from the setup line's interval */
	char lazy_cap[16];
	char lazy_reason[128];
};

static void note(const char *msg)
{
	fprintf(stderr, "lazytrace live: %s\n", msg);
}

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

/*
 * Until @when (monotonic ns) or a signal; the run moves the buffers'
 * pages into the interval meanwhile, so that a busy second cannot wrap
 * them.
 */
static int wait_until(struct lt_run *run, uint64_t when)
{
	uint64_t now, ms;

	while (!stop_signal && (now = now_ns()) < when) {
		ms = (when - now + 999999) / 1000000;
		if (keys_on && ms > KEY_MS)
			ms = KEY_MS;
		if (lt_run_wait(run, ms) < 0)
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

/* A task of the interval: the tasks table's cells live shows. */
struct row {
	int pid;
	char comm[LT_COMM_LEN];
	uint64_t task_id;
	uint64_t runtime_ns;
	double trace_share, lifetime_share;
	uint64_t count[NR_TRANSITION_KEYS];
	uint64_t episodes;
	uint64_t max_pending_ns;
	uint64_t by_source[LT_UPG_SOURCE_MAX];
	bool hog;
	bool has_site;
	const struct pending *p;
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
		c = by_count(x->runtime_ns, y->runtime_ns);
		break;
	case SORT_LAZY:
		c = by_count(x->count[TC_LAZY], y->count[TC_LAZY]);
		break;
	case SORT_EAGER:
		c = by_count(x->count[TC_EAGER], y->count[TC_EAGER]);
		break;
	case SORT_UPGRADES:
		c = by_count(x->count[TC_TICK_UPGRADES],
			     y->count[TC_TICK_UPGRADES]);
		break;
	case SORT_PENDING:
		c = by_count(x->max_pending_ns, y->max_pending_ns);
		break;
	case SORT_PID:
		return x->pid - y->pid;
	default:
		break;
	}
	if (c)
		return c;
	if (x->hog != y->hog)
		return x->hog ? -1 : 1;
	if (!x->pid != !y->pid)
		return x->pid ? -1 : 1;	/* the idle tasks last */
	if (!x->p != !y->p)
		return x->p ? -1 : 1;
	if (x->count[TC_TICK_UPGRADES] != y->count[TC_TICK_UPGRADES])
		return x->count[TC_TICK_UPGRADES] >
		       y->count[TC_TICK_UPGRADES] ? -1 : 1;
	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns > y->runtime_ns ? -1 : 1;
	return x->pid - y->pid;
}

static bool any_transition(const struct row *r)
{
	int k;

	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		if (r->count[k])
			return true;
	return false;
}

/* The table @name of the interval, on its first row if @row; NULL: error. */
static struct lt_table *table(struct live_state *st, const char *name,
			      bool row)
{
	struct lt_table *t = lt_run_table(st->run, name);

	if (t && row && lt_table_next(t) <= 0)
		return NULL;
	return t;
}

/* Whether a watched request of the task on @t's row waited --stop-above. */
static bool over_threshold(const struct live_opts *o, struct lt_table *t)
{
	if (stop_watched(o->stop_kind, "lazy") &&
	    cell_uint(t, "lazy_max_ns") >= o->stop_above)
		return true;
	return stop_watched(o->stop_kind, "eager") &&
	       cell_uint(t, "eager_max_ns") >= o->stop_above;
}

/* The tasks table's row on @t into @r, and the run's totals. */
static void take_row(struct live_state *st, struct lt_table *t,
		     struct row *r)
{
	struct total *tot;
	int k;

	r->pid = cell_int(t, "pid");
	snprintf(r->comm, sizeof(r->comm), "%s", cell_str(t, "comm"));
	r->task_id = cell_uint(t, "task_id");
	r->runtime_ns = cell_uint(t, "runtime_ns");
	r->trace_share = cell_double(t, "trace_share");
	r->lifetime_share = cell_double(t, "lifetime_share");
	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		r->count[k] = cell_uint(t, transition_key(k));
	r->episodes = cell_uint(t, "episodes");
	r->max_pending_ns = cell_uint(t, "max_pending_ns");
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		r->by_source[k] = cell_uint(t, upgrade_source_key(k));
	r->hog = cell_int(t, "hog");
	r->p = pending_of(st, r->pid);
	tot = total_of(st, r->pid);
	if (tot) {
		tot->tick_upgrades += r->count[TC_TICK_UPGRADES];
		tot->episodes += r->episodes;
		tot->hog_intervals += r->hog;
	}
}

/*
 * The interval's tasks, sorted; --stop-above looks at every one. The
 * idle tasks are rows when requests concern them (a wakeup on an idle
 * CPU is an eager request): the interval's counts are the sums of its
 * rows'.
 */
static struct row *make_rows(struct live_state *st, size_t *nr)
{
	struct lt_table *t = table(st, "tasks", false);
	struct row *rows = NULL, *v;
	size_t n = 0, cap = 0;
	int ret;

	if (!t)
		return NULL;
	while ((ret = lt_table_next(t)) > 0) {
		if (st->o->stop_above && over_threshold(st->o, t))
			st->stopped = true;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(rows, cap * sizeof(*rows));
			if (!v) {
				free(rows);
				return NULL;
			}
			rows = v;
		}
		memset(&rows[n], 0, sizeof(rows[n]));
		rows[n].pid = cell_int(t, "pid");
		if (rows[n].pid == 0) {
			int k;

			for (k = 0; k < NR_TRANSITION_KEYS; k++)
				rows[n].count[k] = cell_uint(t, transition_key(k));
			if (!any_transition(&rows[n]))
				continue;
		}
		take_row(st, t, &rows[n++]);
	}
	if (ret < 0) {
		free(rows);
		return NULL;
	}
	if (!rows)
		rows = calloc(1, sizeof(*rows));
	if (rows)
		qsort(rows, n, sizeof(*rows), row_cmp);
	*nr = n;
	return rows;
}

/* Whether the sites table @t has a row for @task_id: it is then on it. */
static bool site_of(struct lt_table *t, uint64_t task_id)
{
	while (lt_table_next(t) > 0)
		if (cell_uint(t, "task_id") == task_id)
			return true;
	return false;
}

/* Which hogs have a call site: the interval has stacks. */
static int mark_sites(struct live_state *st, struct row *rows, size_t nr)
{
	struct lt_table *t;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!rows[i].hog)
			continue;
		t = table(st, "sites", false);
		if (!t)
			return -1;
		rows[i].has_site = site_of(t, rows[i].task_id);
	}
	return 0;
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
static void print_sites(struct live_state *st, const struct row *rows,
			size_t nr)
{
	struct lt_table *t;
	char site[256];
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!rows[i].hog || !rows[i].has_site)
			continue;
		t = table(st, "sites", false);
		if (!t || !site_of(t, rows[i].task_id))
			continue;
		site_abbrev_row(t, 3, 2, site, sizeof(site));
		printf("site %7d %-16.16s %llu/%llu episodes: %s\n",
		       rows[i].pid, rows[i].comm,
		       (unsigned long long)cell_uint(t, "episodes"),
		       (unsigned long long)rows[i].episodes, site);
	}
}

/* The interval's setup line, else the one the run began with. */
static const struct live_setup *setup_of(const struct live_state *st,
					 const struct live_setup *now)
{
	return now->found ? now : &st->setup;
}

static void print_table(struct live_state *st, struct lt_table *meta,
			struct lt_table *sum, struct row *rows, size_t nr)
{
	const struct live_setup *setup = &st->setup;
	uint64_t by_source[LT_UPG_SOURCE_MAX];
	int limit = screen_rows(st->o);
	const struct total *tot;
	char pend[32], src[96], tick[32];
	uint64_t first, last, events;
	size_t i;
	int k;

	/* the hogs' site lines come under the rows: room for them too */
	for (i = 0; !st->o->rows && i < nr && limit > 1; i++)
		if (rows[i].hog && rows[i].has_site)
			limit--;

	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	else if (st->interval > 1)
		putchar('\n');
	/* an interval without tick events and no HZ: no length to show */
	if (!strcmp(cell_str(meta, "tick_source"), "unknown"))
		snprintf(tick, sizeof(tick), "unknown");
	else
		snprintf(tick, sizeof(tick), "%.3f ms",
			 ms(cell_uint(meta, "tick_ns")));
	first = cell_uint(meta, "first_ns");
	last = cell_uint(meta, "last_ns");
	events = cell_uint(meta, "events");
	printf("lazytrace live  interval %lu  %.2f s  events %llu  lost %llu  abi %s  tick %s",
	       st->interval, events ? (last - first) / 1e9 : 0,
	       (unsigned long long)events,
	       (unsigned long long)cell_uint(meta, "lost_events"),
	       cell_str(meta, "abi"), tick);
	/* on a terminal: the order, and the keys that change it */
	if (keys_on)
		printf("  sort %s (h t l e u m p; q quits)",
		       sort_keys[sort_by].name);
	putchar('\n');
	printf("switches: preempted %llu  yielded %llu  blocked %llu   requests: lazy %llu  eager %llu  tick-upgrade %llu  pending %d  hogs %zu\n",
	       (unsigned long long)cell_uint(sum, "switches_preempted"),
	       (unsigned long long)cell_uint(sum, "switches_yielded"),
	       (unsigned long long)cell_uint(sum, "switches_blocked"),
	       (unsigned long long)cell_uint(sum, "lazy"),
	       (unsigned long long)cell_uint(sum, "eager"),
	       (unsigned long long)cell_uint(sum, "tick_upgrades"),
	       st->nr_pending, (size_t)cell_uint(sum, "hogs"));
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		by_source[k] = cell_uint(sum, upgrade_source_key(k));
	fmt_upgrade_sources(src, sizeof(src), by_source);
	printf("upgrades by source: %s\n", src);
	/* the setup line is in the first interval: later ones show it too */
	if (!cell_int(meta, "setup_line") && setup->found)
		printf("kernel: release=%s preempt=%s hz=%u sched_features=%s\n",
		       setup->release[0] ? setup->release : "?",
		       setup->preempt[0] ? setup->preempt : "?", setup->hz,
		       setup->sched_features[0] ? setup->sched_features : "?");
	meta_setup(stdout, meta);
	printf("%7s %-16s %6s %6s %6s %8s %5s %9s %-14s %3s | %8s %6s\n", "PID",
	       "COMM", "TRACE%", "LAZY", "EAGER", "TICK-UPG", "EPIS", "MAXPEND", "PENDING",
	       "HOG", "ALL-TUPG", "HOG-IV");
	for (i = 0; i < nr && (int)i < limit; i++) {
		const struct row *r = &rows[i];

		pend[0] = '\0';
		if (r->p)
			snprintf(pend, sizeof(pend), "%s %.2fms",
				 r->p->request, ms(r->p->open_ns));
		tot = total_of(st, r->pid);
		printf("%7d %-16.16s %6.1f %6llu %6llu %8llu %5llu %9.3f %-14s %3s | %8llu %6llu\n",
		       r->pid, r->comm, r->trace_share * 100,
		       (unsigned long long)r->count[TC_LAZY],
		       (unsigned long long)r->count[TC_EAGER],
		       (unsigned long long)r->count[TC_TICK_UPGRADES],
		       (unsigned long long)r->episodes, ms(r->max_pending_ns),
		       pend, r->hog ? "yes" : "",
		       (unsigned long long)(tot ? tot->tick_upgrades : 0),
		       (unsigned long long)(tot ? tot->hog_intervals : 0));
	}
	print_sites(st, rows, nr);
	fflush(stdout);
}

/* H: the run's histograms, as lazytrace hist prints them, under the title. */
static void print_hist_view(struct live_state *st, struct lt_table *meta)
{
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
	       st->interval, (unsigned long long)cell_uint(meta, "events"),
	       (unsigned long long)cell_uint(meta, "lost_events"));
	hist_print(stdout, st->o->hist, &in);
}

/* A live_tasks row (docs/json.md): a tasks row's counts and the totals. */
static void json_task(struct json *j, struct live_state *st,
		      const struct row *r)
{
	const struct total *tot = total_of(st, r->pid);
	int k;

	json_begin_object(j, NULL);
	json_int(j, "pid", r->pid);
	json_str(j, "comm", r->comm);
	json_uint(j, "runtime_ns", r->runtime_ns);
	json_double(j, "trace_share", r->trace_share);
	json_double(j, "lifetime_share", r->lifetime_share);
	for (k = 0; k < NR_TRANSITION_KEYS; k++)
		json_uint(j, transition_key(k), r->count[k]);
	json_uint(j, "episodes", r->episodes);
	json_uint(j, "max_pending_ns", r->max_pending_ns);
	for (k = 0; k < LT_UPG_SOURCE_MAX; k++)
		json_uint(j, upgrade_source_key(k), r->by_source[k]);
	json_bool(j, "hog", r->hog);
	if (r->p) {
		json_str(j, "request", r->p->request);
		json_uint(j, "since_ns", r->p->since_ns);
		json_uint(j, "open_ns", r->p->open_ns);
	} else {
		json_null(j, "request");
		json_null(j, "since_ns");
		json_null(j, "open_ns");
	}
	json_uint(j, "total_tick_upgrades", tot ? tot->tick_upgrades : 0);
	json_uint(j, "total_hog_intervals", tot ? tot->hog_intervals : 0);
	json_end_object(j);
}

static void json_str_or_null(struct json *j, const char *key, const char *s)
{
	if (s[0])
		json_str(j, key, s);
	else
		json_null(j, key);
}

/*
 * One version-3 document per interval, one per line (docs/json.md):
 * interval, summary (the summary table's row), pending, live_tasks (the
 * first --rows rows and every hog) and the hogs' sites.
 */
static void print_json(struct live_state *st, struct lt_table *meta,
		       struct lt_table *sum, const struct live_setup *setup,
		       struct row *rows, size_t nr)
{
	size_t limit = st->o->rows > 0 ? st->o->rows : 20;
	size_t i, listed = 0;
	struct lt_table *t;
	struct json j;
	int k;

	for (i = 0; i < nr; i++)
		if (i < limit || rows[i].hog)
			listed++;
	json_init(&j, stdout, false);
	json_begin_object(&j, NULL);
	json_int(&j, "version", LT_JSON_VERSION_3);
	json_begin_object(&j, "interval");
	json_uint(&j, "interval", st->interval);
	json_uint(&j, "first_ns", cell_uint(meta, "first_ns"));
	json_uint(&j, "last_ns", cell_uint(meta, "last_ns"));
	json_uint(&j, "events", cell_uint(meta, "events"));
	json_uint(&j, "lost_events", cell_uint(meta, "lost_events"));
	json_str(&j, "abi", cell_str(meta, "abi"));
	if (!strcmp(cell_str(meta, "tick_source"), "unknown"))
		json_null(&j, "tick_ns");
	else
		json_uint(&j, "tick_ns", cell_uint(meta, "tick_ns"));
	json_str(&j, "tick_source", cell_str(meta, "tick_source"));
	json_str(&j, "requests", cell_str(meta, "requests"));
	json_str_or_null(&j, "kernel", setup->release);
	json_str_or_null(&j, "preempt", setup->preempt);
	if (setup->hz)
		json_uint(&j, "hz", setup->hz);
	else
		json_null(&j, "hz");
	json_str_or_null(&j, "sched_features", setup->sched_features);
	json_uint(&j, "pending_not_listed", st->more_pending);
	json_uint(&j, "tasks_not_listed", nr - listed);
	json_str(&j, "lazy_capability", st->lazy_cap);
	json_str(&j, "lazy_capability_reason", st->lazy_reason);
	json_end_object(&j);
	json_row(&j, "summary", sum);
	json_begin_array(&j, "pending");
	for (k = 0; k < st->nr_pending; k++) {
		const struct pending *p = &st->pending[k];

		json_begin_object(&j, NULL);
		json_int(&j, "pid", p->pid);
		json_str(&j, "comm", p->comm);
		json_int(&j, "cpu", p->cpu);
		json_str(&j, "request", p->request);
		json_uint(&j, "since_ns", p->since_ns);
		json_uint(&j, "open_ns", p->open_ns);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_array(&j, "live_tasks");
	for (i = 0; i < nr; i++)
		if (i < limit || rows[i].hog)
			json_task(&j, st, &rows[i]);
	json_end_array(&j);
	json_begin_array(&j, "sites");
	for (i = 0; i < nr; i++) {
		if (!rows[i].hog || !rows[i].has_site)
			continue;
		t = table(st, "sites", false);
		while (t && lt_table_next(t) > 0)
			if (cell_uint(t, "task_id") == rows[i].task_id)
				json_row(&j, NULL, t);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fflush(stdout);
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

/* The interval's requests still open at its end (at most MAX_PENDING). */
static int take_pending(struct live_state *st)
{
	struct lt_table *t = table(st, "pending", false);
	struct pending *p;
	int ret;

	st->nr_pending = 0;
	st->more_pending = 0;
	if (!t)
		return -1;
	while ((ret = lt_table_next(t)) > 0) {
		if (st->nr_pending == MAX_PENDING) {
			st->more_pending++;
			continue;
		}
		p = &st->pending[st->nr_pending++];
		p->pid = cell_int(t, "pid");
		p->cpu = cell_int(t, "cpu");
		snprintf(p->comm, sizeof(p->comm), "%s", cell_str(t, "comm"));
		snprintf(p->request, sizeof(p->request), "%s",
			 cell_str(t, "request"));
		p->since_ns = cell_uint(t, "since_ns");
		p->open_ns = cell_uint(t, "open_ns");
	}
	return ret;
}

/* The setup line and the lazy capability, from the interval's meta row. */
static void take_setup(struct live_state *st, struct lt_table *meta,
		       struct live_setup *now)
{
	memset(now, 0, sizeof(*now));
	now->found = cell_int(meta, "setup_line");
	if (now->found) {
		snprintf(now->release, sizeof(now->release), "%s",
			 cell_str(meta, "setup_release"));
		snprintf(now->preempt, sizeof(now->preempt), "%s",
			 cell_str(meta, "preempt"));
		now->hz = cell_uint(meta, "hz");
		snprintf(now->sched_features, sizeof(now->sched_features),
			 "%s", cell_str(meta, "sched_features"));
	}
	if (!st->setup.found)
		st->setup = *now;
	if (!st->lazy_cap[0] || now->found) {
		snprintf(st->lazy_cap, sizeof(st->lazy_cap), "%s",
			 cell_str(meta, "lazy_capability"));
		snprintf(st->lazy_reason, sizeof(st->lazy_reason), "%s",
			 cell_str(meta, "lazy_capability_reason"));
	}
}

/* Count the interval's transitions into the run's histograms. */
static int count_hist(struct live_state *st)
{
	struct lt_table *t = table(st, "transitions", false);
	int ret;

	if (!t)
		return -1;
	/* a failure to grow is seen as fewer counts, not as a stop */
	while ((ret = lt_table_next(t)) > 0)
		(void)lt_lathist_row(st->o->hist, t);
	return ret;
}

/* Show the interval the run has just made its input. */
static int one_interval(struct live_state *st)
{
	struct lt_table *meta, *sum;
	struct live_setup now;
	struct row *rows;
	size_t nr = 0;

	st->interval++;
	st->stopped = false;
	if (st->o->hist && count_hist(st) < 0)
		return -1;
	if (st->o->hist_only)
		return 0;	/* hist prints at the end */
	meta = table(st, "meta", true);
	sum = table(st, "summary", true);
	if (!meta || !sum || take_pending(st) < 0)
		return -1;
	take_setup(st, meta, &now);
	rows = make_rows(st, &nr);
	if (!rows || mark_sites(st, rows, nr)) {
		free(rows);
		return -1;
	}
	if (st->o->json)
		print_json(st, meta, sum, setup_of(st, &now), rows, nr);
	else if (view_hist && st->o->hist)
		print_hist_view(st, meta);
	else
		print_table(st, meta, sum, rows, nr);
	free(rows);
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
static int save_as(struct lt_run *run, const struct live_opts *o,
		   const char *dir)
{
	unsigned int mode = 0600;
	char v[64];
	uid_t su;
	gid_t sg;

	if (o->world_readable) {
		mode = umask(0);
		umask(mode);
		mode = 0644 & ~mode;
	}
	snprintf(v, sizeof(v), "%o", mode);
	if (lt_run_set(run, "save", dir) || lt_run_set(run, "save-mode", v))
		return -1;
	if (sudo_user(&su, &sg)) {
		snprintf(v, sizeof(v), "%u:%u", (unsigned int)su,
			 (unsigned int)sg);
		if (lt_run_set(run, "save-owner", v))
			return -1;
	}
	return 0;
}

/* The live run of @o's options, saving into @dir if not NULL. */
static struct lt_run *live_run(const struct live_opts *o, const char *dir)
{
	struct lt_run *run = lt_run_new();

	if (!run) {
		fprintf(stderr, "lazytrace live: out of memory\n");
		return NULL;
	}
	/* every task is a row; the idle tasks when requests concern them */
	if (lt_run_set(run, "live", "1") || lt_run_set(run, "all-tasks", "1") ||
	    lt_run_set(run, "cpu", o->cpu_list) ||
	    lt_run_set(run, "abi", o->abi_given ? lt_abi_name(o->abi) : NULL) ||
	    lt_run_set(run, "syscalls", o->syscalls ? "1" : NULL) ||
	    lt_run_set(run, "stacks", stacks_name(o->stacks)) ||
	    lt_run_set_note(run, note) || (dir && save_as(run, o, dir)))
		goto fail;
	if (!lt_run_open(run))
		return run;
fail:
	fprintf(stderr, "lazytrace live: %s\n", lt_run_error(run));
	lt_run_free(run);
	return NULL;
}

static int live(const struct live_opts *o)
{
	struct live_state *st;
	uint64_t start, next, end;
	int ret = EXIT_BAD;
	char path[4096];
	const char *dir;
	bool last;

	st = calloc(1, sizeof(*st));
	if (!st)
		return EXIT_BAD;
	st->o = o;
	catch_stop_signals();
	/* --stop-above keeps the interval that stopped it: written as all are */
	dir = o->save ? o->save : o->stop_above ? "." : NULL;
	st->run = live_run(o, dir);
	if (!st->run) {
		free(st);
		return EXIT_BAD;
	}
	keys_begin(o);
	start = now_ns();
	end = o->duration >= 0 ? start + o->duration : 0;
	for (next = start;;) {
		next += o->interval_ms * 1000000ULL;
		if (end && next > end)
			next = end;
		if (wait_until(st->run, next))
			goto fail;
		last = stop_signal || (end && now_ns() >= end);
		st->run_ns = now_ns() - start;
		if (last)
			lt_run_stop(st->run);	/* the final interval ends here */
		if (lt_run_interval(st->run, 0) < 0 || one_interval(st))
			goto fail;
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
	goto out;
fail:
	fprintf(stderr, "lazytrace live: %s\n",
		lt_run_error(st->run) ? lt_run_error(st->run) : "out of memory");
out:
	keys_restore();
	lt_run_free(st->run);
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
			o.cpu_list = optarg;
			if (int_set_parse(&o.cpus, optarg))
				die_usage("bad CPU list '%s'", optarg);
			check_cpus(&o.cpus, get_nprocs_conf(), NULL);
			break;
		case OPT_SYSCALLS:
			o.syscalls = true;
			break;
		case OPT_ABI:
			abi_opt(optarg, &o.abi, &o.abi_given);
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
