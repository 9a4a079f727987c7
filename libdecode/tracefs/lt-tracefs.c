// SPDX-License-Identifier: LGPL-2.1
/*
 * Recording through a private tracefs instance, with libtracefs: make the
 * instance, enable what the analysis needs in it, drain its per-CPU ring
 * buffers, and remove it again. Nothing outside the instance is written:
 * the top-level buffer, other instances and global switches such as
 * /proc/sys/kernel/ftrace_enabled are left exactly as they were (which is
 * why this does not run `trace-cmd record` or `trace-cmd extract`: both
 * write global state).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "lt-tracefs.h"

#define MIN_BUFFER_KB		1024
#define TOTAL_BUFFER_KB		(256 * 1024)	/* all CPUs together, at most */

struct lt_tracefs {
	struct tracefs_instance *inst;
	char name[64];
	int nr_cpus;
	int page_size;
	int *fd;		/* per CPU trace_pipe_raw, -1 if none */
	char *page;
	bool tick_hrtimer;
	bool functions;
	char probe_group[64];	/* our sched_set_need_resched probe, or "" */
	char setup[512];	/* the setup line, composed before tracing */
	struct lt_stack_trigger *stacks;
	char *comms;		/* "pid comm\n" lines seen in /proc */
	size_t comms_len;
	size_t comms_size;
	/* the trace.dat header up to the printk formats, made once */
	void *header;
	size_t header_len;
	bool header_symbols;
	bool kallsyms_hidden;	/* /proc/kallsyms shows us zeros */
	char **added;		/* systems of lt_tracefs_add_event()'s events */
	int nr_added;
};

/* What a user other than root needs, said after the file that refused. */
#define NEEDS_OWNER "mount tracefs with uid=USER (its files are writable by their owner only) or run as root"

static void say(const struct lt_tracefs_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct lt_tracefs_opts *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!o || !o->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->note(msg);
}

static int remove_stale_probes(const struct lt_tracefs_opts *o);

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Not root: say which file or directory refuses this user what, rather
 * than "needs root": an administrator may have given the user tracefs
 * (mount option uid=).
 */
static int ready_unprivileged(char *err, size_t len)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char inst[64];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(inst, sizeof(inst), "%s/instances", dirs[i]);
		if (access(dirs[i], X_OK) && errno == EACCES) {
			snprintf(err, len, "%s: %s (needs search access: %s)",
				 dirs[i], strerror(EACCES), NEEDS_OWNER);
			return -1;
		}
		if (!is_dir(inst))
			continue;
		if (access(inst, W_OK | X_OK)) {
			snprintf(err, len, "%s: %s (needs write access: %s)",
				 inst, strerror(errno), NEEDS_OWNER);
			return -1;
		}
		return 0;
	}
	snprintf(err, len,
		 "tracefs is not mounted at %s, and only root can mount it: run 'mount -t tracefs nodev %s' as root",
		 dirs[0], dirs[0]);
	return -1;
}

/* Documented in lazytrace.h. */
int lt_tracefs_ready(char *err, size_t len)
{
	static const char dir[] = "/sys/kernel/tracing";

	if (geteuid() != 0)
		return ready_unprivileged(err, len);
	if (is_dir("/sys/kernel/tracing/instances"))
		return 0;
	if (mount("nodev", dir, "tracefs", 0, NULL) == 0 &&
	    is_dir("/sys/kernel/tracing/instances"))
		return 0;
	if (is_dir("/sys/kernel/debug/tracing/instances"))
		return 0;
	snprintf(err, len,
		 "tracefs is not mounted and mounting it at %s failed (%s): "
		 "run 'mount -t tracefs nodev %s' (kernel needs CONFIG_FTRACE)",
		 dir, strerror(errno), dir);
	return -1;
}

static long read_sysctl(const char *path, long dflt)
{
	FILE *fp = fopen(path, "re");
	long v;

	if (!fp)
		return dflt;
	if (fscanf(fp, "%ld", &v) != 1)
		v = dflt;
	fclose(fp);
	return v;
}

/* CAP_SYSLOG (34) in this process's effective set. */
static bool has_cap_syslog(void)
{
	unsigned long long eff = 0;
	char line[256];
	bool found = false;
	FILE *fp = fopen("/proc/self/status", "re");

	if (!fp)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	fclose(fp);
	return found ? (eff >> 34) & 1 : geteuid() == 0;
}

/*
 * Whether /proc/kallsyms shows this process real addresses, by the
 * kernel's rule (kallsyms_show_value()), without reading the table
 * once more: kptr_restrict 0 and perf_event_paranoid 1 or less, or
 * kptr_restrict 0 or 1 and CAP_SYSLOG. A table of zeros would name
 * every address wrongly: then the trace gets none.
 */
static bool kallsyms_visible(void)
{
	long restrict_ = read_sysctl("/proc/sys/kernel/kptr_restrict", 1);
	long paranoid = read_sysctl("/proc/sys/kernel/perf_event_paranoid", 2);

	if (restrict_ == 0 && paranoid <= 1)
		return true;
	return restrict_ <= 1 && has_cap_syslog();
}

/* The pid in "lazytrace-PID", or -1 if @name is not one of ours. */
static int instance_pid(const char *name)
{
	const char *p = name + strlen(LT_INSTANCE_PREFIX);
	long pid;
	char *end;

	if (strncmp(name, LT_INSTANCE_PREFIX, strlen(LT_INSTANCE_PREFIX)) ||
	    !isdigit((unsigned char)*p))
		return -1;
	pid = strtol(p, &end, 10);
	if (*end || pid <= 0 || pid > 1 << 30)
		return -1;
	return pid;
}

/* Under a wrapper (valgrind ...), the comm is the wrapper's: ask argv. */
static bool runs_lazytrace(int pid)
{
	char path[64], buf[4096], *arg, *base;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (arg = buf; arg < buf + n; arg += strlen(arg) + 1) {
		base = strrchr(arg, '/');
		base = base ? base + 1 : arg;
		if (!strcmp(base, "lazytrace"))
			return true;
	}
	return false;
}

/* When process @pid started, in ns since boot; 0 if unknown. */
static uint64_t proc_start_ns(int pid)
{
	unsigned long long ticks;
	char path[64], buf[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || hz <= 0)
		return 0;
	buf[n] = '\0';
	/* the comm may hold spaces and parentheses: fields follow the last ')' */
	p = strrchr(buf, ')');
	/* starttime is field 22; the state after ')' is field 3 */
	for (i = 3; p && i <= 22; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &ticks) != 1)
		return 0;
	return ticks * (1000000000ULL / hz);
}

#define MADE_SLACK_NS	(20 * 1000 * 1000ULL)

/* When @path was made, in ns since boot; 0 if unknown. */
static uint64_t made_ns(const char *path)
{
	struct timespec real, boot;
	struct stat st;
	int64_t made;

	if (stat(path, &st) || clock_gettime(CLOCK_REALTIME, &real) ||
	    clock_gettime(CLOCK_BOOTTIME, &boot))
		return 0;
	made = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec -
	       ((int64_t)real.tv_sec * 1000000000 + real.tv_nsec) +
	       ((int64_t)boot.tv_sec * 1000000000 + boot.tv_nsec);
	return made > 0 ? made : 0;
}

/*
 * Is @pid still running the program that made @path (its instance or its
 * probe group), so that it is live? Two processes never hold one pid at
 * once: one that started before @path was made is its maker, whatever
 * its name (lazytrace, or any program linked with the library). One that
 * started after it reuses a dead maker's pid. Where the times are not
 * known, a process named lazytrace is taken for the maker.
 */
static bool owner_alive(int pid, const char *path)
{
	char comm_path[64], comm[64] = "";
	uint64_t started, made;
	ssize_t n;
	int fd;

	if (pid == getpid())
		return false;	/* our pid, left by an earlier holder */
	if (kill(pid, 0) && errno == ESRCH)
		return false;
	started = proc_start_ns(pid);
	made = made_ns(path);
	/*
	 * Inode times are the coarse clock, a jiffy behind at most (10 ms at
	 * HZ=100): the maker started at most that much after @path's time.
	 */
	if (started && made)
		return started <= made + MADE_SLACK_NS;
	snprintf(comm_path, sizeof(comm_path), "/proc/%d/comm", pid);
	fd = open(comm_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 0)
		return false;
	comm[n] = '\0';
	/* A reused pid running something else does not own the instance. */
	return !strncmp(comm, "lazytrace", 9) || runs_lazytrace(pid);
}

/* rmdir of an instance fails with EBUSY while a reader still holds it. */
static int destroy_instance(struct tracefs_instance *inst)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int i;

	tracefs_trace_off(inst);
	for (i = 0; i < 40; i++) {
		if (!tracefs_instance_destroy(inst))
			return 0;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static int remove_stale_synth(const struct lt_tracefs_opts *o);

/* Remove each trigger of one event; how many are left. */
static int clear_event_triggers(struct tracefs_instance *inst,
				const char *sys, const char *ev)
{
	char *text, *line, *save = NULL, *end, cmd[1024];
	int left = 0;

	text = tracefs_event_file_read(inst, sys, ev, "trigger", NULL);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[0])
			continue;
		/* the state the kernel appends is not part of the trigger */
		end = strstr(line, " [");
		if (end)
			*end = '\0';
		snprintf(cmd, sizeof(cmd), "!%s", line);
		if (tracefs_event_file_append(inst, sys, ev, "trigger", cmd) < 0)
			left++;
	}
	free(text);
	return left;
}

/*
 * A killed hist leaves hist triggers with variables in its instance,
 * and those hold the instance (EBUSY on rmdir) until they go. One that
 * refers to another's variable must go first: a pass that leaves some
 * is repeated, a few times at most.
 */
static void clear_triggers(struct tracefs_instance *inst, const char *dir)
{
	char **systems, **events;
	int pass, left, i, k;

	systems = tracefs_event_systems(dir);
	for (pass = 0; systems && pass < 4; pass++) {
		left = 0;
		for (i = 0; systems[i]; i++) {
			events = tracefs_system_events(dir, systems[i]);
			for (k = 0; events && events[k]; k++)
				left += clear_event_triggers(inst, systems[i],
							     events[k]);
			tracefs_list_free(events);
		}
		if (!left)
			break;
	}
	tracefs_list_free(systems);
}

/*
 * Remove what dead lazytrace runs left: LT_INSTANCE_PREFIX + a PID that
 * no longer runs lazytrace was left by a killed run (@o->note hears
 * which), then its synthetic events and probes (lazytrace hist's), in
 * that order: an instance's triggers refer to them. Nothing else is ever
 * touched. Returns how many went.
 */
int lt_tracefs_remove_stale(const struct lt_tracefs_opts *o)
{
	const char *top = tracefs_tracing_dir();
	struct tracefs_instance *inst;
	char path[4096];
	struct dirent *de;
	int pid, n = 0;
	DIR *d;

	if (!top)
		return 0;
	snprintf(path, sizeof(path), "%s/instances", top);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid = instance_pid(de->d_name);
		if (pid < 0)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", top,
			 de->d_name);
		if (owner_alive(pid, path))
			continue;
		inst = tracefs_instance_alloc(NULL, de->d_name);
		if (!inst)
			continue;
		clear_triggers(inst, path);
		if (destroy_instance(inst))
			say(o, "cannot remove stale instance %s: %s", de->d_name,
			    strerror(errno));
		else {
			say(o, "removed stale instance %s (its lazytrace, pid %d, is gone)",
			    de->d_name, pid);
			n++;
		}
		tracefs_instance_free(inst);
	}
	closedir(d);
	n += remove_stale_synth(o);
	return n + remove_stale_probes(o);
}

/* @event NULL: whether the system exists. */
static bool event_exists(const char *system, const char *event)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs_tracing_dir(),
		 system, event ? event : "");
	return is_dir(path);
}

static int enable(struct lt_tracefs *s, const struct lt_tracefs_opts *o,
		  const char *system, const char *event)
{
	if (!event_exists(system, event)) {
		say(o, "this kernel has no %s:%s event; recording without it",
		    system, event);
		return -1;
	}
	if (tracefs_event_enable(s->inst, system, event)) {
		say(o, "cannot enable %s:%s (%s); recording without it", system,
		    event, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Function tracing of resched_curr*: only with a filter that took, or the
 * function tracer would trace every function in the kernel.
 */
static void enable_functions(struct lt_tracefs *s,
			     const struct lt_tracefs_opts *o)
{
	const char *why = NULL;
	char *filter;

	if (tracefs_instance_file_write(s->inst, "set_ftrace_filter",
					"resched_curr*") <= 0)
		why = strerror(errno);
	filter = why ? NULL :
		 tracefs_instance_file_read(s->inst, "set_ftrace_filter", NULL);
	if (!why && (!filter || !strstr(filter, "resched_curr")))
		why = "no resched_curr* function is traceable";
	free(filter);
	if (!why && tracefs_tracer_set(s->inst, TRACEFS_TRACER_FUNCTION))
		why = strerror(errno);
	if (why) {
		tracefs_tracer_clear(s->inst);
		tracefs_instance_file_clear(s->inst, "set_ftrace_filter");
		say(o, "function tracing of resched_curr* is not available on this kernel (%s); recording events only",
		    why);
		return;
	}
	s->functions = true;
}

#define PROBE_GROUP_PREFIX "lazytrace_"
#define PROBE_EVENT "sched_set_need_resched"

/* Remove a probe group of ours from dynamic_events. */
static int remove_probe(const char *group)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "-:%s/" PROBE_EVENT "\n", group);
	return tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0 ?
	       -1 : 0;
}

/*
 * Exact request times: a tracepoint probe on the bare tracepoint
 * sched_set_need_resched_tp (Linux 6.16 and later), in a group of this
 * process's own, enabled in our instance only. Kernels without it, or
 * without tracepoint probes, record as before.
 */
static void add_probe(struct lt_tracefs *s, const struct lt_tracefs_opts *o)
{
	char group[64], cmd[256];

	/* dynamic_events is the whole machine's, not the instance's */
	if (geteuid() != 0) {
		say(o, "no sched_set_need_resched probe: adding a probe to dynamic_events needs root; request times come from the flags");
		return;
	}
	snprintf(group, sizeof(group), PROBE_GROUP_PREFIX "%d", getpid());
	snprintf(cmd, sizeof(cmd),
		 "t:%s/" PROBE_EVENT " sched_set_need_resched_tp pid=tsk->pid cpu=cpu tif=tif\n",
		 group);
	if (tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0) {
		say(o, "no sched_set_need_resched tracepoint probe on this kernel (%s): request times come from the flags",
		    strerror(errno));
		return;
	}
	lt_strlcpy(s->probe_group, group, sizeof(s->probe_group));
	if (tracefs_event_enable(s->inst, group, PROBE_EVENT)) {
		say(o, "cannot enable the probe %s/" PROBE_EVENT " (%s): request times come from the flags",
		    group, strerror(errno));
		remove_probe(group);
		s->probe_group[0] = '\0';
	}
}

int lt_tracefs_mark_setup(struct lt_tracefs *s)
{
	return tracefs_instance_file_write(s->inst, "trace_marker",
					   s->setup) > 0 ? 0 : -1;
}

/* The event system of the session's probe, "" without one. */
/* A system whose formats the trace.dat must carry, kept once. */
static int keep_system(struct lt_tracefs *s, const char *sys, size_t n)
{
	char **added;
	int i;

	for (i = 0; i < s->nr_added; i++)
		if (strlen(s->added[i]) == n && !strncmp(s->added[i], sys, n))
			return 0;
	added = realloc(s->added, (s->nr_added + 1) * sizeof(*added));
	if (!added)
		return -1;
	s->added = added;
	s->added[s->nr_added] = strndup(sys, n);
	if (!s->added[s->nr_added])
		return -1;
	s->nr_added++;
	return 0;
}

/* The system that holds @name, looked up in events/ as trace-cmd does. */
static int find_system(const char *name, char *sys, size_t len)
{
	const char *top = tracefs_tracing_dir();
	char path[4096];
	struct dirent *de;
	DIR *dir;
	int ret = -1;

	if (!top)
		return -1;
	snprintf(path, sizeof(path), "%s/events", top);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (ret && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", top,
			 de->d_name, name);
		if (!access(path, F_OK) && strlen(de->d_name) < len) {
			strcpy(sys, de->d_name);
			ret = 0;
		}
	}
	closedir(dir);
	return ret;
}

/* Documented in lazytrace.h. */
int lt_tracefs_add_event(struct lt_tracefs *s, const char *event, char *err,
			 size_t len)
{
	const char *colon = strchr(event, ':');
	char sys[256], name[256];

	if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - event), event);
		snprintf(name, sizeof(name), "%s", colon + 1);
	} else if (event_exists(event, NULL)) {
		snprintf(sys, sizeof(sys), "%s", event);
		name[0] = '\0';
	} else {
		snprintf(name, sizeof(name), "%s", event);
		if (find_system(name, sys, sizeof(sys))) {
			snprintf(err, len, "no event '%s' on this kernel (see %s/available_events)",
				 event, tracefs_tracing_dir());
			return -1;
		}
	}
	if (!sys[0] || strchr(sys, '/') || strchr(name, '/') ||
	    !event_exists(sys, name[0] && strcmp(name, "*") ? name : NULL)) {
		snprintf(err, len, "no event '%s' on this kernel (see %s/available_events)",
			 event, tracefs_tracing_dir());
		return -1;
	}
	if (tracefs_event_enable(s->inst, sys,
				 name[0] && strcmp(name, "*") ? name : NULL)) {
		snprintf(err, len, "cannot enable %s: %s", event,
			 strerror(errno));
		return -1;
	}
	if (keep_system(s, sys, strlen(sys))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	return 0;
}

const char *const *lt_tracefs_added_systems(const struct lt_tracefs *s,
					     int *nr)
{
	*nr = s->nr_added;
	return (const char *const *)s->added;
}

const char *lt_tracefs_probe_group(const struct lt_tracefs *s)
{
	return s->probe_group;
}

/* Probe groups of lazytrace runs that are gone. */
static int remove_stale_probes(const struct lt_tracefs_opts *o)
{
	char *list, *line, *save = NULL, group[64], path[4096];
	int n = 0, pid;

	if (geteuid() != 0)
		return 0;	/* probes are root's: see add_probe() */
	list = tracefs_instance_file_read(NULL, "dynamic_events", NULL);
	if (!list)
		return 0;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *g = strchr(line, ':');

		const char *h;

		if (!g || strncmp(g + 1, PROBE_GROUP_PREFIX,
				  strlen(PROBE_GROUP_PREFIX)))
			continue;
		/* record's and live's lazytrace_PID, hist's lazytrace_hPID */
		h = g + 1 + strlen(PROBE_GROUP_PREFIX);
		if (*h == 'h')
			h++;
		if (sscanf(h, "%d/", &pid) != 1 || pid <= 0)
			continue;
		snprintf(group, sizeof(group), "%.*s%d", (int)(h - g - 1),
			 g + 1, pid);
		snprintf(path, sizeof(path), "%s/events/%s",
			 tracefs_tracing_dir(), group);
		if (owner_alive(pid, path))
			continue;
		if (!remove_probe(group)) {
			say(o, "removed stale probe %s/" PROBE_EVENT " (its lazytrace, pid %d, is gone)",
			    group, pid);
			n++;
		}
	}
	free(list);
	return n;
}

/* lazytrace hist's synthetic events (lazytrace_PID_KIND) of dead runs. */
static int remove_stale_synth(const struct lt_tracefs_opts *o)
{
	char *list, *line, *save = NULL, name[64], path[4096], cmd[80];
	int n = 0, pid, end;

	if (geteuid() != 0)
		return 0;
	list = tracefs_instance_file_read(NULL, "synthetic_events", NULL);
	if (!list)
		return 0;
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		end = 0;
		if (sscanf(line, PROBE_GROUP_PREFIX "%d_%*[a-z]%n", &pid,
			   &end) != 1 || !end || pid <= 0 ||
		    (line[end] != ' ' && line[end] != '\t') ||
		    end >= (int)sizeof(name))
			continue;
		memcpy(name, line, end);
		name[end] = '\0';
		snprintf(path, sizeof(path), "%s/events/synthetic/%s",
			 tracefs_tracing_dir(), name);
		if (owner_alive(pid, path))
			continue;
		snprintf(cmd, sizeof(cmd), "!%s\n", name);
		if (tracefs_instance_file_append(NULL, "synthetic_events",
						 cmd) < 0)
			say(o, "cannot remove stale synthetic event %s: %s",
			    name, strerror(errno));
		else {
			say(o, "removed stale synthetic event %s (its lazytrace, pid %d, is gone)",
			    name, pid);
			n++;
		}
	}
	free(list);
	return n;
}

/* An event nothing can be recorded without: its failure is the error. */
static int enable_required(struct lt_tracefs *s,
			   const struct lt_known_event *e, char *err,
			   size_t len)
{
	char file[256];
	char *path;
	int errnum;

	if (!event_exists(e->system, e->name)) {
		snprintf(err, len,
			 "this kernel has no %s:%s event: nothing to record",
			 e->system, e->name);
		return -1;
	}
	if (!tracefs_event_enable(s->inst, e->system, e->name))
		return 0;
	errnum = errno;
	snprintf(file, sizeof(file), "events/%s/%s/enable", e->system,
		 e->name);
	path = tracefs_instance_get_file(s->inst, file);
	if (errnum == EACCES || errnum == EPERM)
		snprintf(err, len, "%s: %s (needs write access: %s)",
			 path ? path : file, strerror(errnum), NEEDS_OWNER);
	else
		snprintf(err, len, "cannot enable %s:%s: %s", e->system,
			 e->name, strerror(errnum));
	tracefs_put_tracing_file(path);
	return -1;
}

/* The events of lt_known_events[] that a recording enables. */
static int enable_events(struct lt_tracefs *s, const struct lt_tracefs_opts *o,
			 char *err, size_t len)
{
	size_t i;

	for (i = 0; i < lt_nr_known_events; i++) {
		const struct lt_known_event *e = &lt_known_events[i];

		switch (e->record) {
		case LT_REC_REQUIRED:
			if (enable_required(s, e, err, len))
				return -1;
			break;
		case LT_REC_ALWAYS:
			enable(s, o, e->system, e->name);
			break;
		case LT_REC_IF_PRESENT:
			if (event_exists(e->system, e->name))
				enable(s, o, e->system, e->name);
			break;
		case LT_REC_SYSCALLS:
			if (o->syscalls)
				enable(s, o, e->system, e->name);
			break;
		default:
			break;
		}
	}
	/*
	 * The tick is told by its hrtimer function, not by the local timer
	 * vector, which the slice timer (hrtick) and every other hrtimer
	 * share. All hrtimers are kept: which one made an upgrade is part
	 * of the answer.
	 */
	s->tick_hrtimer = event_exists("timer", "hrtimer_expire_entry");
	if (!s->tick_hrtimer && !event_exists("irq_vectors", "local_timer_entry"))
		say(o, "this kernel has neither irq_vectors:local_timer_* nor timer:hrtimer_expire_*: ticks are not recorded, tick-upgrades cannot be told apart");
	else if (!s->tick_hrtimer)
		say(o, "this kernel has no timer:hrtimer_expire_* events: the tick is estimated from the local timer interrupts");
	/*
	 * Function tracing of resched_curr* names the tick's resched_curr
	 * exactly, but costs an event per request (on 7.x most of them the
	 * recorder's own): only where the tick's hrtimer cannot tell.
	 */
	if (o->functions && (!s->tick_hrtimer || o->functions_always))
		enable_functions(s, o);
	add_probe(s, o);
	return 0;
}

/*
 * The recorder's own work (reading buffers, writing files) is no part
 * of what it records: leave its pid out of events and function tracing.
 * With event-fork and function-fork off, the command it starts is still
 * traced. The reader sleeps until the buffers are half full
 * (buffer_percent) rather than waking for every page.
 */
static void quiet_self(struct lt_tracefs *s, const struct lt_tracefs_opts *o)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	tracefs_option_disable(s->inst, TRACEFS_OPTION_EVENT_FORK);
	tracefs_option_disable(s->inst, TRACEFS_OPTION_FUNCTION_FORK);
	if (tracefs_instance_file_write(s->inst, "set_event_notrace_pid",
					pid) <= 0)
		say(o, "cannot leave lazytrace's own events out (set_event_notrace_pid: %s)",
		    strerror(errno));
	if (s->functions &&
	    tracefs_instance_file_write(s->inst, "set_ftrace_notrace_pid",
					pid) <= 0)
		say(o, "cannot leave lazytrace out of function tracing (set_ftrace_notrace_pid: %s)",
		    strerror(errno));
	/* kernels before 5.19 have no buffer_percent: then we just poll */
	tracefs_instance_file_write(s->inst, "buffer_percent", "50");
}

int lt_tracefs_wait(struct lt_tracefs *s, int ms)
{
	struct pollfd *p = calloc(s->nr_cpus, sizeof(*p));
	int cpu, n = 0, ret, err;

	if (!p)
		return 1;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (s->fd[cpu] < 0)
			continue;
		p[n].fd = s->fd[cpu];
		p[n++].events = POLLIN;
	}
	ret = poll(p, n, ms);
	err = errno;
	free(p);
	errno = err;	/* lt_live_wait() tells a signal by EINTR */
	return ret > 0;
}

static int read_int_file(struct tracefs_instance *inst, const char *file)
{
	long long v;

	if (tracefs_instance_file_read_number(inst, file, &v))
		return -1;
	return v;
}

static int open_cpus(struct lt_tracefs *s, char *err, size_t len)
{
	char path[64];
	int cpu, kb, opened = 0;

	kb = read_int_file(s->inst, "buffer_subbuf_size_kb");
	s->page_size = kb > 0 ? kb * 1024 : getpagesize();
	s->page = malloc(s->page_size);
	s->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (s->nr_cpus <= 0)
		s->nr_cpus = 1;
	s->fd = malloc(s->nr_cpus * sizeof(*s->fd));
	if (!s->page || !s->fd) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		s->fd[cpu] = tracefs_instance_file_open(s->inst, path,
						O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (s->fd[cpu] >= 0)
			opened++;
	}
	if (!opened) {
		snprintf(err, len, "cannot open the per-CPU buffers of instance %s: %s",
			 s->name, strerror(errno));
		return -1;
	}
	return 0;
}

/* tracing_cpumask: comma-separated 32-bit hex words, highest first. */
static int set_cpumask(struct lt_tracefs *s, const struct lt_tracefs_opts *o,
		       char *err, size_t len)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	int i, w, words, max = 0, ret = -1;
	uint32_t *mask;
	char *str, *p;

	for (i = 0; i < o->nr_cpus; i++) {
		if (o->cpus[i] < 0 || o->cpus[i] >= nr) {
			snprintf(err, len, "no CPU %d on this machine (%ld CPUs)",
				 o->cpus[i], nr);
			return -1;
		}
		if (o->cpus[i] > max)
			max = o->cpus[i];
	}
	words = max / 32 + 1;
	mask = calloc(words, sizeof(*mask));
	str = malloc(words * 9 + 1);
	if (!mask || !str) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	for (i = 0; i < o->nr_cpus; i++)
		mask[o->cpus[i] / 32] |= 1U << (o->cpus[i] % 32);
	for (p = str, w = words - 1; w >= 0; w--)
		p += sprintf(p, "%08x%s", mask[w], w ? "," : "");
	if (tracefs_instance_file_write(s->inst, "tracing_cpumask", str) <= 0)
		snprintf(err, len, "cannot limit tracing to CPUs %s: %s", str,
			 strerror(errno));
	else
		ret = 0;
out:
	free(mask);
	free(str);
	return ret;
}

static size_t buffer_kb(const struct lt_tracefs_opts *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	size_t kb = o->buffer_kb ? o->buffer_kb : LT_TRACEFS_BUFFER_KB;

	if (!o->buffer_kb && cpus > 0 && kb * cpus > TOTAL_BUFFER_KB)
		kb = TOTAL_BUFFER_KB / cpus;
	return kb < MIN_BUFFER_KB && !o->buffer_kb ? MIN_BUFFER_KB : kb;
}

/*
 * Make and set up this process's instance (@o->note hears what this
 * kernel cannot record); tracing stays off. NULL, with @err set, when
 * nothing can be recorded.
 */
static struct lt_tracefs *create(const struct lt_tracefs_opts *o, char *err,
				 size_t len)
{
	struct lt_tracefs *s = calloc(1, sizeof(*s));
	char lazy[256];

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	snprintf(s->name, sizeof(s->name), LT_INSTANCE_PREFIX "%d", getpid());
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		snprintf(err, len, "cannot create tracefs instance %s: %s",
			 s->name, strerror(errno));
		free(s);
		return NULL;
	}
	if (!tracefs_instance_is_new(s->inst)) {
		/* Someone else's: never remove it. */
		snprintf(err, len, "tracefs instance %s already exists", s->name);
		tracefs_instance_free(s->inst);
		free(s);
		return NULL;
	}
	/* A new instance records at once; nothing until we are ready. */
	tracefs_trace_off(s->inst);
	if (tracefs_instance_set_buffer_size(s->inst, buffer_kb(o), -1))
		say(o, "cannot set the buffer size of %s: %s", s->name,
		    strerror(errno));
	if (o->nr_cpus && set_cpumask(s, o, err, len))
		goto fail;
	if (enable_events(s, o, err, len) || open_cpus(s, err, len))
		goto fail;
	quiet_self(s, o);
	/* before tracing starts: it may run gzip for /proc/config.gz */
	lt_tracefs_setup_line(s->setup, sizeof(s->setup), lazy, sizeof(lazy));
	say(o, "%s", lazy);
	s->kallsyms_hidden = !kallsyms_visible();
	if (s->kallsyms_hidden)
		say(o, "/proc/kallsyms shows this user no addresses (they need CAP_SYSLOG): no kernel symbols in the trace, so the tick is estimated%s",
		    o->stacks != LT_STACKS_NONE ? " and no kernel stacks are taken" : "");
	else
		s->stacks = lt_tracefs_stacks_on(s->inst, o->stacks, o->note);
	return s;
fail:
	lt_tracefs_destroy(s);
	return NULL;
}

struct tracefs_instance *lt_tracefs_instance(struct lt_tracefs *s)
{
	return s->inst;
}

const char *lt_tracefs_name(const struct lt_tracefs *s)
{
	return s->name;
}

int lt_tracefs_nr_cpus(const struct lt_tracefs *s)
{
	return s->nr_cpus;
}

int lt_tracefs_page_size(const struct lt_tracefs *s)
{
	return s->page_size;
}

bool lt_tracefs_functions(const struct lt_tracefs *s)
{
	return s->functions;
}

const void *lt_tracefs_header(const struct lt_tracefs *s, bool symbols,
			      size_t *len)
{
	if (!s->header || s->header_symbols != symbols)
		return NULL;
	*len = s->header_len;
	return s->header;
}

void lt_tracefs_keep_header(struct lt_tracefs *s, bool symbols, void *p,
			    size_t len)
{
	free(s->header);
	s->header = p;
	s->header_len = len;
	s->header_symbols = symbols;
}

bool lt_tracefs_needs_symbols(const struct lt_tracefs *s)
{
	return !s->kallsyms_hidden &&
	       (s->functions || s->tick_hrtimer || s->stacks);
}

bool lt_tracefs_symbols_visible(const struct lt_tracefs *s)
{
	return !s->kallsyms_hidden;
}

int lt_tracefs_start(struct lt_tracefs *s)
{
	return tracefs_trace_on(s->inst);
}

int lt_tracefs_stop(struct lt_tracefs *s)
{
	return tracefs_trace_off(s->inst);
}

/* Documented in lazytrace.h. */
int64_t lt_tracefs_lost(struct lt_tracefs *s, int cpu)
{
	unsigned long long overrun = 0, dropped = 0;
	char file[64], *stats, *p;
	bool told = false;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(s->inst, file, NULL);
	if (!stats)
		return -1;
	p = strstr(stats, "\noverrun: ");
	if (p && sscanf(p, "\noverrun: %llu", &overrun) == 1)
		told = true;
	/* 4.x and later; older kernels count only overruns */
	p = strstr(stats, "\ndropped events: ");
	if (p && sscanf(p, "\ndropped events: %llu", &dropped) == 1)
		told = true;
	free(stats);
	return told ? (int64_t)(overrun + dropped) : -1;
}

/* Pages per CPU per call, so that one busy CPU cannot starve the others. */
#define DRAIN_BATCH 256

/* Documented in lazytrace.h. */
int lt_tracefs_drain(struct lt_tracefs *s, lt_page_sink sink, void *ctx)
{
	int cpu, i, more, pages = 0;
	ssize_t n;

	do {
		more = 0;
		for (cpu = 0; cpu < s->nr_cpus; cpu++) {
			if (s->fd[cpu] < 0)
				continue;
			for (i = 0; i < DRAIN_BATCH; i++) {
				n = read(s->fd[cpu], s->page, s->page_size);
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0 && errno != EAGAIN)
					return -1;
				if (n <= 0)
					break;
				/* The file format wants whole pages. */
				if (n < s->page_size)
					memset(s->page + n, 0, s->page_size - n);
				if (sink(ctx, cpu, s->page, s->page_size))
					return -1;
				pages++;
			}
			if (i == DRAIN_BATCH)
				more = 1;
		}
	} while (more);
	return pages;
}

/* Documented in lazytrace.h. */
struct lt_tracefs *lt_tracefs_begin(const struct lt_tracefs_opts *o,
				    char *err, size_t len)
{
	if (lt_tracefs_ready(err, len))
		return NULL;
	lt_tracefs_remove_stale(o);
	return create(o, err, len);
}

/* Documented in lazytrace.h. */
void lt_tracefs_destroy(struct lt_tracefs *s)
{
	int cpu;

	if (!s)
		return;
	for (cpu = 0; s->fd && cpu < s->nr_cpus; cpu++)
		if (s->fd[cpu] >= 0)
			close(s->fd[cpu]);
	if (s->inst) {
		lt_tracefs_stacks_off(s->inst, s->stacks);
		destroy_instance(s->inst);
		tracefs_instance_free(s->inst);
	}
	/* only once no instance has it enabled */
	if (s->probe_group[0])
		remove_probe(s->probe_group);
	free(s->fd);
	free(s->page);
	free(s->comms);
	free(s->header);
	while (s->nr_added)
		free(s->added[--s->nr_added]);
	free(s->added);
	free(s);
}

/* ---- Task names, for the trace.dat's command-line table ---- */

static void comms_add(struct lt_tracefs *s, const char *line, size_t n)
{
	char *c;

	if (s->comms_len + n + 1 > s->comms_size) {
		size_t size = (s->comms_size + n + 1) * 2;

		c = realloc(s->comms, size);
		if (!c)
			return;
		s->comms = c;
		s->comms_size = size;
	}
	memcpy(s->comms + s->comms_len, line, n);
	s->comms_len += n;
	s->comms[s->comms_len] = '\0';
}

static void snapshot_task(struct lt_tracefs *s, const char *pid,
			  const char *tid)
{
	char path[600], comm[64], line[96];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 1)
		return;
	comm[n - 1] = '\0';	/* drop the newline */
	n = snprintf(line, sizeof(line), "%s %s\n", tid, comm);
	if (n > 0 && (size_t)n < sizeof(line))
		comms_add(s, line, n);
}

/*
 * The kernel's saved_cmdlines table is small and recycled; the names of
 * the tasks that exist now fill its gaps.
 */
void lt_tracefs_snapshot_comms(struct lt_tracefs *s, bool reset)
{
	struct dirent *p, *t;
	char path[300];
	DIR *proc, *task;

	if (reset) {
		s->comms_len = 0;
		if (s->comms)
			s->comms[0] = '\0';
	}
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task)))
			if (isdigit((unsigned char)t->d_name[0]))
				snapshot_task(s, p->d_name, t->d_name);
		closedir(task);
	}
	closedir(proc);
}

const char *lt_tracefs_comms(const struct lt_tracefs *s)
{
	return s->comms ? s->comms : "";
}
