// SPDX-License-Identifier: LGPL-2.1
/*
 * Latency histograms built inside the kernel (lazytrace hist): nothing
 * crosses to user space per event.
 *
 *   probe  t:lazytrace_hPID/sched_set_need_resched on sched_set_need_resched_tp
 *          hist keys=pid: lts = its time if tif is the lazy bit, ets else
 *   sched_switch  keys=prev_pid: lat = now - $lts (- $ets), onmatch(probe)
 *          .trace(the synthetic event lazytrace_PID_lazy (_eager), ...)
 *   the synthetic events  keys=pid,comm,lat.buckets=B: the histograms
 *
 * A referenced variable is read once, so each switch out ends the
 * request it served. The probe fires for the running task of the CPU a
 * request is made on (rq->curr), so requests and switches meet on pid.
 * All of it lives in an instance of ours and in names with our pid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "lt-tracefs.h"

#define KH_PROBE_EVENT "sched_set_need_resched"
/*
 * Entries of a histogram (tasks; tasks and buckets): the kernel allocates
 * them all up front, which under emulation took 1.7 s of system time for
 * 65536 of them; more are counted as dropped (lt_khist_read() says so).
 */
#define KH_SIZE "2048"
#define KH_HIST_SIZE "4096"

struct kh_trigger {
	const char *system;
	const char *event;
	char cmd[512];
	bool set;
};

enum { KH_LTS, KH_ETS, KH_LSW, KH_ESW, KH_LHIST, KH_EHIST, KH_NR };

struct lt_khist {
	struct tracefs_instance *inst;
	char group[64];
	char synth[LT_LATHIST_KIND_MAX][64];
	bool probe;
	bool synth_made[LT_LATHIST_KIND_MAX];
	struct kh_trigger trig[KH_NR];
	void (*note)(const char *msg);
};

static bool top_file(const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tracefs_tracing_dir(), name);
	return !stat(path, &st);
}

/*
 * The TIF bit of a lazy request, where it is known: the probe has the bit
 * number, which each architecture numbers its own way (7.2 x86-64: eager
 * 4, lazy 5, seen in tests/data/stock).
 */
static int lazy_tif_of_kernel(char *err, size_t len)
{
	struct utsname u;
	int major = 0;

	if (!uname(&u))
		sscanf(u.release, "%d.", &major);
	if (!strcmp(u.machine, "x86_64") && major >= 7)
		return 5;
	snprintf(err, len,
		 "the TIF bit of a lazy request on %s %s is not known: give --lazy-tif N (the tif= of a lazy request's sched_set_need_resched_tp)",
		 u.machine, u.release);
	return -1;
}

static int trigger(struct lt_khist *k, int i, const char *system,
		   const char *event, char *err, size_t len)
{
	struct kh_trigger *t = &k->trig[i];

	t->system = system;
	t->event = event;
	if (tracefs_event_file_append(k->inst, system, event, "trigger",
				      t->cmd) < 0) {
		char *log = tracefs_error_last(NULL);

		snprintf(err, len, "the kernel refused the hist trigger on %s/%s: %s",
			 system, event, log ? log : strerror(errno));
		free(log);
		return -1;
	}
	t->set = true;
	return 0;
}

/* Documented in lazytrace.h. */
void lt_khist_end(struct lt_khist *k)
{
	char cmd[600];
	int i;

	if (!k)
		return;
	/* in the reverse order: a trigger goes before what it refers to */
	for (i = KH_NR - 1; i >= 0; i--) {
		if (!k->trig[i].set)
			continue;
		snprintf(cmd, sizeof(cmd), "!%s", k->trig[i].cmd);
		tracefs_event_file_append(k->inst, k->trig[i].system,
					  k->trig[i].event, "trigger", cmd);
	}
	if (k->inst) {
		tracefs_instance_destroy(k->inst);
		tracefs_instance_free(k->inst);
	}
	for (i = 0; i < LT_LATHIST_KIND_MAX; i++)
		if (k->synth_made[i]) {
			snprintf(cmd, sizeof(cmd), "!%s\n", k->synth[i]);
			tracefs_instance_file_append(NULL, "synthetic_events",
						     cmd);
		}
	if (k->probe) {
		snprintf(cmd, sizeof(cmd), "-:%s/" KH_PROBE_EVENT "\n",
			 k->group);
		tracefs_instance_file_append(NULL, "dynamic_events", cmd);
	}
	free(k);
}

static int make_events(struct lt_khist *k, char *err, size_t len)
{
	static const char *const kind[] = { "lazy", "eager" };
	char cmd[256];
	int i;

	snprintf(k->group, sizeof(k->group), "lazytrace_h%d", getpid());
	snprintf(cmd, sizeof(cmd),
		 "t:%s/" KH_PROBE_EVENT " sched_set_need_resched_tp pid=tsk->pid tif=tif\n",
		 k->group);
	if (tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0) {
		snprintf(err, len,
			 "no tracepoint probe on sched_set_need_resched_tp (%s): needs Linux 6.16 and BTF",
			 strerror(errno));
		return -1;
	}
	k->probe = true;
	for (i = 0; i < LT_LATHIST_KIND_MAX; i++) {
		snprintf(k->synth[i], sizeof(k->synth[i]), "lazytrace_%d_%s",
			 getpid(), kind[i]);
		snprintf(cmd, sizeof(cmd),
			 "%s pid_t pid; char comm[16]; u64 lat\n", k->synth[i]);
		if (tracefs_instance_file_append(NULL, "synthetic_events",
						 cmd) < 0) {
			snprintf(err, len, "cannot make the synthetic event %s: %s",
				 k->synth[i], strerror(errno));
			return -1;
		}
		k->synth_made[i] = true;
	}
	return 0;
}

/* Documented in lazytrace.h. */
struct lt_khist *lt_khist_begin(const struct lt_tracefs_opts *o,
				uint64_t bucket_ns, int lazy_tif, char *err,
				size_t len)
{
	struct lt_khist *k;
	char name[64];

	if (!tracefs_tracing_dir() || !top_file("events/sched/sched_switch")) {
		snprintf(err, len, "no tracefs with sched events");
		return NULL;
	}
	if (!top_file("events/sched/sched_switch/hist")) {
		snprintf(err, len, "this kernel has no hist triggers (no events/sched/sched_switch/hist: CONFIG_HIST_TRIGGERS is not set)");
		return NULL;
	}
	if (!top_file("synthetic_events")) {
		snprintf(err, len, "this kernel has no synthetic events (no synthetic_events: CONFIG_SYNTH_EVENTS is not set)");
		return NULL;
	}
	if (geteuid() != 0) {
		snprintf(err, len, "in-kernel histograms need root (a probe in dynamic_events, synthetic events)");
		return NULL;
	}
	if (lazy_tif < 0)
		lazy_tif = lazy_tif_of_kernel(err, len);
	if (lazy_tif < 0)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	k->note = o ? o->note : NULL;
	/* a hist killed (SIGKILL) left its instance, events and probe */
	lt_tracefs_remove_stale(o);
	if (make_events(k, err, len))
		goto fail;
	snprintf(name, sizeof(name), LT_INSTANCE_PREFIX "%d", getpid());
	k->inst = tracefs_instance_create(name);
	if (!k->inst) {
		snprintf(err, len, "cannot make the instance %s: %s", name,
			 strerror(errno));
		goto fail;
	}
	/* nothing is recorded: the triggers alone turn the events on */
	tracefs_trace_off(k->inst);
	snprintf(k->trig[KH_LTS].cmd, sizeof(k->trig[0].cmd),
		 "hist:keys=pid:lts=common_timestamp:size=" KH_SIZE " if tif == %d && pid != 0",
		 lazy_tif);
	snprintf(k->trig[KH_ETS].cmd, sizeof(k->trig[0].cmd),
		 "hist:keys=pid:ets=common_timestamp:size=" KH_SIZE " if tif != %d && pid != 0",
		 lazy_tif);
	snprintf(k->trig[KH_LSW].cmd, sizeof(k->trig[0].cmd),
		 "hist:keys=prev_pid:llat=common_timestamp-$lts:size=" KH_SIZE ":onmatch(%s." KH_PROBE_EVENT ").trace(%s,prev_pid,prev_comm,$llat)",
		 k->group, k->synth[LT_LATHIST_LAZY]);
	snprintf(k->trig[KH_ESW].cmd, sizeof(k->trig[0].cmd),
		 "hist:keys=prev_pid:elat=common_timestamp-$ets:size=" KH_SIZE ":onmatch(%s." KH_PROBE_EVENT ").trace(%s,prev_pid,prev_comm,$elat)",
		 k->group, k->synth[LT_LATHIST_EAGER]);
	/* the comm is a key too: its bytes after the name split some rows */
	snprintf(k->trig[KH_LHIST].cmd, sizeof(k->trig[0].cmd),
		 "hist:keys=pid,comm,lat.buckets=%llu:vals=hitcount,lat:sort=pid,lat:size=" KH_HIST_SIZE,
		 (unsigned long long)bucket_ns);
	lt_strlcpy(k->trig[KH_EHIST].cmd, k->trig[KH_LHIST].cmd,
		   sizeof(k->trig[0].cmd));
	if (trigger(k, KH_LHIST, "synthetic", k->synth[LT_LATHIST_LAZY], err, len) ||
	    trigger(k, KH_EHIST, "synthetic", k->synth[LT_LATHIST_EAGER], err, len) ||
	    trigger(k, KH_LTS, k->group, KH_PROBE_EVENT, err, len) ||
	    trigger(k, KH_ETS, k->group, KH_PROBE_EVENT, err, len) ||
	    trigger(k, KH_LSW, "sched", "sched_switch", err, len) ||
	    trigger(k, KH_ESW, "sched", "sched_switch", err, len))
		goto fail;
	return k;
fail:
	lt_khist_end(k);
	return NULL;
}

/* The number after @key in @line (from @from on), or 0. */
static uint64_t field(const char *line, const char *key, const char **end)
{
	const char *p = strstr(line, key);

	if (!p) {
		if (end)
			*end = NULL;
		return 0;
	}
	p += strlen(key);
	while (*p == ' ' || *p == '~')
		p++;
	if (end)
		*end = p;
	return strtoull(p, NULL, 10);
}

/*
 * One line of a synthetic event's hist:
 * { pid: 133, comm: dd        , lat: ~ 300000-399999 } hitcount: 6  lat: 2079360
 */
static int parse_line(char *line, enum lt_lathist_kind kind, lt_khist_fn fn,
		      void *data)
{
	char comm[LT_COMM_LEN] = "";
	const char *c, *close = strchr(line, '}');
	uint64_t lat, hits, sum;
	size_t n;
	int pid;

	if (line[0] != '{' || !close)
		return 0;
	pid = (int)field(line, "pid:", NULL);
	field(line, "comm:", &c);
	if (c) {
		const char *e = strstr(c, ", lat:");

		n = e ? (size_t)(e - c) : 0;
		while (n && c[n - 1] == ' ')
			n--;
		if (n >= sizeof(comm))
			n = sizeof(comm) - 1;
		memcpy(comm, c, n);
		comm[n] = '\0';
	}
	lat = field(line, "lat:", NULL);
	hits = field(close, "hitcount:", NULL);
	sum = field(close, "lat:", NULL);
	return fn(data, pid, comm, kind, lat, hits, sum);
}

/* Documented in lazytrace.h. */
int lt_khist_read(struct lt_khist *k, lt_khist_fn fn, void *data)
{
	char *text, *line, *save = NULL;
	int kind, ret = 0;

	for (kind = 0; kind < LT_LATHIST_KIND_MAX && !ret; kind++) {
		text = tracefs_event_file_read(k->inst, "synthetic",
					       k->synth[kind], "hist", NULL);
		if (!text)
			return -1;
		for (line = strtok_r(text, "\n", &save); line && !ret;
		     line = strtok_r(NULL, "\n", &save)) {
			uint64_t dropped = field(line, "Dropped:", NULL);
			char msg[160];

			if (dropped && k->note) {
				snprintf(msg, sizeof(msg),
					 "the kernel's %s histogram dropped %llu requests: more tasks and buckets than its " KH_HIST_SIZE " entries",
					 kind ? "eager" : "lazy",
					 (unsigned long long)dropped);
				k->note(msg);
			}
			ret = parse_line(line, kind, fn, data);
		}
		free(text);
	}
	return ret;
}
