// SPDX-License-Identifier: GPL-2.0
/*
 * lazytrace record: record what the analysis needs into a trace.dat,
 * through a private tracefs instance that is removed again at the end,
 * also on SIGINT and SIGTERM (the recording made so far is kept).
 */
#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "private.h"

static const char record_usage[] =
"usage: lazytrace record [-o FILE] [-d SECONDS] [--cpu LIST] [--syscalls]\n"
"                        [--buffer-size KB] [--functions|--no-functions]\n"
"                        [--stacks WHEN] [-u USER] [--world-readable]\n"
"                        [--no-kallsyms] [-e EVENT]... [-P PID]\n"
"                        [--stop-above LAT [--stop-kind KIND]]\n"
"                        [-- COMMAND ARGS...]\n"
"\n"
"Record sched_switch, the wakeups, the tick and every hrtimer (the tick is\n"
"told by its timer function), reschedule IPIs, softirqs, where the kernel\n"
"has it a sched_set_need_resched tracepoint probe (exact request times),\n"
"and a setup line (release, preemption mode, HZ, scheduler features) into\n"
"a trace.dat that trace-cmd and lazytrace read. Uses its own tracefs\n"
"instance (lazytrace-PID) and probe group (lazytrace_PID), leaves its own\n"
"pid out of the trace, and removes both at the end; Ctrl-C stops the\n"
"recording and keeps what was recorded. With a command, records from just\n"
"before it starts until it exits (with -d, until then at most: the command\n"
"is then sent SIGTERM). When the command ends by itself, record exits\n"
"with its status (128+N if signal N killed it) once the file is written.\n"
"The command runs as USER (-u), or under sudo as\n"
"the user who ran sudo, never as root unless asked (-u root). The file\n"
"holds the kernel's symbol addresses: it is made mode 0600, owned by the\n"
"user who ran sudo.\n"
"\n"
"  -o, --output FILE     where to write (default trace.dat)\n"
"  -d, --duration T      stop after T (seconds, or 500ms, ...)\n"
"  --cpu LIST            only these CPUs (e.g. 0,2-3)\n"
"  -P, --pid PID         record until process PID exits (every task is\n"
"                        recorded: who preempted it matters; read one with\n"
"                        --pid)\n"
"  -e, --event EVENT     also record EVENT (SYSTEM:EVENT, SYSTEM or EVENT, as\n"
"                        in available_events); may be given more than once\n"
"  --syscalls            also raw_syscalls:sys_enter/sys_exit\n"
"  --buffer-size KB      ring buffer per CPU (default 4096)\n"
"  --functions           function-trace resched_curr* even where hrtimer\n"
"                        events name the tick (default: only where not)\n"
"  --no-functions        never function-trace resched_curr*\n"
"  -u, --user USER       run the command as USER (name or uid), with its\n"
"                        groups, HOME, USER, LOGNAME and SHELL\n"
"  --world-readable      make the file 0644 less the umask, not 0600\n"
"  --no-kallsyms         write no symbol table (/proc/kallsyms): stacks are\n"
"                        then addresses and the tick is estimated; the events\n"
"                        still hold raw kernel pointers\n"
"  --stop-above LAT      stop a second after the first request that waited\n"
"                        LAT or longer (500us, 2ms, ...; looked for every\n"
"                        second in the last two seconds recorded) and say\n"
"                        where it is in the file: task, CPU, time, how it\n"
"                        ended and what upgraded it; exit 1 if none did\n"
"  --stop-kind KIND      the requests --stop-above watches: lazy (default),\n"
"                        eager or any\n"
STACKS_USAGE;

enum {
	OPT_SYSCALLS = OPT_PRIVATE,
	OPT_BUFFER_SIZE,
	OPT_NO_FUNCTIONS,
	OPT_FUNCTIONS,
	OPT_WORLD_READABLE,
	OPT_NO_KALLSYMS,
	OPT_STOP_ABOVE,
	OPT_STOP_KIND,
};

struct record_opts {
	const char *output;
	int64_t duration;	/* ns, -1: none */
	struct int_set cpus;
	bool syscalls;
	bool functions;
	bool functions_always;
	size_t buffer_kb;
	enum lt_stacks stacks;
	char **command;
	const char *user;
	struct run_as run_as;
	bool world_readable;
	bool no_kallsyms;
	const char **events;	/* -e, more events */
	pid_t watch;		/* -P: until it exits, 0 if none */
	size_t nr_events;
	uint64_t stop_above;	/* ns; 0: never stop on a latency */
	const char *stop_kind;	/* lazy, eager or any */
};

/*
 * --stop-above: every CHECK_NS, the pages of the last two checks as a
 * trace.dat of their own, whose requests table the library fills; the
 * first request that waited long enough stops the recording KEEP_NS
 * later (what followed it is in the file too).
 */
#define CHECK_NS (1000 * 1000 * 1000ULL)
#define KEEP_NS (1000 * 1000 * 1000ULL)

struct stop_check {
	uint64_t *from;		/* per CPU: the window's first page */
	uint64_t *mid;		/* per CPU: where the last check ended */
	uint64_t last_ns;
	uint64_t stop_at;	/* 0 until a request was found */
	char what[512];		/* that request, said at the end */
};

/* Per-CPU pages, kept in unlinked files until the trace.dat is written. */
struct spool {
	int nr_cpus;
	int *fd;
	uint64_t *size;
	int error;
};

static void note(const char *msg)
{
	fprintf(stderr, "lazytrace record: %s\n", msg);
}

static int spool_page(void *ctx, int cpu, const void *page, int size)
{
	struct spool *sp = ctx;
	const char *p = page;
	ssize_t n;
	int left = size;

	if (cpu >= sp->nr_cpus)
		return 0;
	while (left > 0) {
		n = write(sp->fd[cpu], p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			sp->error = errno ? errno : EIO;
			return -1;
		}
		p += n;
		left -= n;
	}
	sp->size[cpu] += size;
	return 0;
}

/*
 * Temporary files in $TMPDIR (a tmpfs as a rule), not next to the output:
 * an open unlinked file on a network share (9p) can hang the machine, and
 * the spool is written while the trace runs, where the output is not.
 */
static int spool_open(struct spool *sp, int nr_cpus)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl;
	int cpu;

	if (!dir || !*dir)
		dir = "/tmp";

	sp->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	nr_cpus = sp->nr_cpus;
	sp->fd = calloc(nr_cpus, sizeof(*sp->fd));
	sp->size = calloc(nr_cpus, sizeof(*sp->size));
	if (!sp->fd || !sp->size)
		return -1;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (asprintf(&tmpl, "%s/lazytrace-cpu%d.XXXXXX", dir, cpu) < 0)
			return -1;
		sp->fd[cpu] = mkostemp(tmpl, O_CLOEXEC);
		if (sp->fd[cpu] >= 0)
			unlink(tmpl);
		else
			fprintf(stderr, "lazytrace record: %s: %s\n", tmpl,
				strerror(errno));
		free(tmpl);
		if (sp->fd[cpu] < 0)
			return -1;
	}
	return 0;
}

/* 0 when the directory the output goes to can take a new file. */
static int output_dir_writable(const char *output)
{
	char *copy = strdup(output);
	int ret;

	if (!copy)
		return -1;
	ret = access(dirname(copy), W_OK | X_OK);
	free(copy);
	return ret;
}

static void spool_close(struct spool *sp)
{
	int cpu;

	for (cpu = 0; sp->fd && cpu < sp->nr_cpus; cpu++)
		if (sp->fd[cpu] > 0)
			close(sp->fd[cpu]);
	free(sp->fd);
	free(sp->size);
}

/*
 * Fork the command, held back on a pipe until tracing is on. Returns its
 * pid; *go is the pipe's write end (closing it releases the command) and
 * *status the read end of a pipe that reports a failed exec.
 */
static pid_t spawn(char **argv, const struct run_as *ra, int *go,
		   int *status)
{
	int gop[2], stp[2], err;
	pid_t pid;
	char c;

	if (pipe2(gop, O_CLOEXEC) || pipe2(stp, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/*
		 * As the user, before exec, in the child: its pid is the one
		 * lazytrace forked, and the tracing stays root's.
		 */
		if (run_as_drop(ra)) {
			err = -errno;
			if (write(stp[1], &err, sizeof(err)) < 0)
				_exit(127);
			_exit(127);
		}
		/* Not outliving a record killed with SIGKILL: after the drop */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		close(gop[1]);
		close(stp[0]);
		while (read(gop[0], &c, 1) < 0 && errno == EINTR)
			;
		execvp(argv[0], argv);
		err = errno;
		if (write(stp[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gop[0]);
	close(stp[1]);
	*go = gop[1];
	*status = stp[0];
	return pid;
}

/* 0 once the command runs, else its exec errno (negative: the drop's). */
static int exec_result(int status)
{
	int err = 0;
	ssize_t n;

	do
		n = read(status, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(status);
	return n == sizeof(err) ? err : 0;
}

#define NAP_NS (100 * 1000 * 1000ULL)
#define BUSY_PAGES 64	/* pages per drain that mean "drain more often" */

/* Sleep @ns between drains, or less to end right on time. */
static void nap_until(uint64_t end, uint64_t ns)
{
	uint64_t now = now_ns();
	struct timespec ts;

	if (end && end > now && end - now < ns)
		ns = end - now;
	ts.tv_sec = 0;
	ts.tv_nsec = ns;
	nanosleep(&ts, NULL);
}

/* How long to sleep in poll(): until the end, at most WAIT_MS. */
#define WAIT_MS 250

static int wait_ms(uint64_t end)
{
	uint64_t now = now_ns();

	if (end && end <= now)
		return 0;
	if (end && (end - now) / 1000000 < WAIT_MS)
		return (end - now) / 1000000 + 1;
	return WAIT_MS;
}

static void nap(void)
{
	nap_until(0, NAP_NS);
}

/* Stop a command still running when the recording ends. */
static void end_command(pid_t pid, int sig)
{
	int i;

	if (waitpid(pid, NULL, WNOHANG) == pid)
		return;
	kill(pid, sig);
	for (i = 0; i < 20; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		nap();
	}
	fprintf(stderr, "lazytrace record: command %d still running after signal %d; leaving it\n",
		pid, sig);
}

/*
 * A command that ended by itself gives record its status, as time(1) and
 * timeout(1) pass it on: a script sees that what was traced failed.
 */
static int command_exit(const char *name, int wstatus)
{
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus)) {
		fprintf(stderr, "lazytrace record: %s exited with status %d\n",
			name, WEXITSTATUS(wstatus));
		return WEXITSTATUS(wstatus);
	}
	if (WIFSIGNALED(wstatus)) {
		fprintf(stderr, "lazytrace record: %s was killed by %s\n",
			name, strsignal(WTERMSIG(wstatus)));
		return 128 + WTERMSIG(wstatus);
	}
	return EXIT_OK;
}

/* Drain until the duration, the command or a signal ends the recording. */
/* Whether @pid runs: a zombie has exited, though its parent has not seen. */
static bool process_runs(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	if (kill(pid, 0) && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;	/* /proc hidden from us: kill() said it is there */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return !p || (p[1] != ' ' || (p[2] != 'Z' && p[2] != 'X'));
}

/*
 * A recording without a command, on a terminal, says once a second how
 * long it has run, how much it holds and whether events are being lost
 * (lost events are told when the run can still be redone, not after).
 * With a command the terminal is the command's.
 */
static void progress(struct lt_tracefs *s, const struct spool *sp,
		     uint64_t start, uint64_t *shown)
{
	uint64_t now = now_ns(), bytes = 0;
	int64_t lost, all = 0;
	int cpu;

	if (now - *shown < 1000000000ULL)
		return;
	*shown = now;
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		bytes += sp->size[cpu];
		lost = lt_tracefs_lost(s, cpu);
		if (lost > 0)
			all += lost;
	}
	fprintf(stderr, "\rlazytrace record: %llu s, %.1f MiB of ring buffer read, %lld events lost\033[K",
		(unsigned long long)((now - start) / 1000000000ULL),
		bytes / 1048576.0, (long long)all);
}

/* A file of our own that vanishes with its descriptor, in $TMPDIR. */
static int window_file(void)
{
	const char *dir = getenv("TMPDIR");

	return open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC,
		    0600);
}

/* Look at the last two checks' pages; false when nothing could be read. */
static bool check_stop_window(struct lt_tracefs *s, const struct spool *sp,
			 const struct record_opts *o, struct stop_check *sc)
{
	uint64_t *len = calloc(sp->nr_cpus, sizeof(*len));
	char err[512], path[64];
	int cpu, fd = -1;
	bool ok = false;

	for (cpu = 0; len && cpu < sp->nr_cpus; cpu++)
		len[cpu] = sp->size[cpu] - sc->from[cpu];
	if (len)
		fd = window_file();
	if (fd >= 0 && !lt_tracefs_write_dat_range(s, fd, sp->fd, sc->from,
						   len, false, err,
						   sizeof(err))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ok = true;
		/* record's own requests: its pid is left out of most events */
		if (stop_request(path, o->stop_above, o->stop_kind, getpid(),
				 sc->what, sizeof(sc->what)))
			sc->stop_at = now_ns() + KEEP_NS;
	}
	if (fd >= 0)
		close(fd);
	free(len);
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		sc->from[cpu] = sc->mid[cpu];
		sc->mid[cpu] = sp->size[cpu];
	}
	return ok;
}

static int record_loop(struct lt_tracefs *s, struct spool *sp,
		       const struct record_opts *o, struct stop_check *sc,
		       pid_t child, bool *child_done, int *child_status)
{
	uint64_t start = now_ns(), shown = start;
	uint64_t end = o->duration >= 0 ? start + o->duration : 0;
	bool show = !o->command && isatty(STDERR_FILENO);
	int pages;

	while (!stop_signal) {
		pages = lt_tracefs_drain(s, spool_page, sp);
		if (pages < 0)
			return -1;
		if (show)
			progress(s, sp, start, &shown);
		if (child > 0 &&
		    waitpid(child, child_status, WNOHANG) == child) {
			*child_done = true;
			break;
		}
		if (o->watch && !process_runs(o->watch)) {
			fprintf(stderr, "lazytrace record: process %d exited\n",
				o->watch);
			break;
		}
		if (end && now_ns() >= end)
			break;
		if (o->stop_above && !sc->stop_at &&
		    now_ns() - sc->last_ns >= CHECK_NS) {
			sc->last_ns = now_ns();
			check_stop_window(s, sp, o, sc);
		}
		if (sc->stop_at && now_ns() >= sc->stop_at)
			break;
		/*
		 * Sleep until a buffer is half full (buffer_percent), or
		 * briefly to see the command end and the duration run out.
		 */
		if (pages < BUSY_PAGES)
			lt_tracefs_wait(s, wait_ms(end));
	}
	/* the line is rewritten, never left for the summary to follow */
	if (show && shown != start)
		fputs("\r\033[K", stderr);
	return 0;
}

static int write_output(struct lt_tracefs *s, struct spool *sp,
			const struct record_opts *o)
{
	const char *output = o->output;
	char err[512], *tmp;
	int fd, ret;

	fd = private_create(output, o->world_readable, &tmp);
	if (fd < 0) {
		fprintf(stderr, "lazytrace record: %s: %s\n", output,
			strerror(errno));
		return -1;
	}
	ret = lt_tracefs_write_dat(s, fd, sp->fd, sp->size, !o->no_kallsyms,
				   err, sizeof(err));
	if (close(fd) && !ret) {
		snprintf(err, sizeof(err), "%s", strerror(errno));
		ret = -1;
	}
	if (ret) {
		private_abort(tmp);
	} else if (private_commit(tmp, output)) {
		snprintf(err, sizeof(err), "%s", strerror(errno));
		ret = -1;
	}
	if (ret)
		fprintf(stderr, "lazytrace record: %s: %s\n", output, err);
	return ret;
}

static void summary(const struct spool *sp, const char *output)
{
	uint64_t total = 0;
	int cpu, used = 0;
	struct stat st;

	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		total += sp->size[cpu];
		used += sp->size[cpu] != 0;
	}
	/*
	 * The file's own size: the spooled pages are only part of it (and
	 * may be compressed in it).
	 */
	if (stat(output, &st))
		st.st_size = 0;
	fprintf(stderr, "lazytrace record: wrote %s: %llu bytes, from %llu KiB of ring buffer on %d CPU%s%s%s\n",
		output, (unsigned long long)st.st_size,
		(unsigned long long)total / 1024, used,
		used == 1 ? "" : "s",
		stop_signal ? ", stopped by " : "",
		stop_signal ? strsignal(stop_signal) : "");
}

/*
 * Lost events said where they happen, with the fix: a later stats would
 * find them, but only after the recording is over and cannot be redone.
 */
static void report_lost(struct lt_tracefs *s, const struct spool *sp)
{
	char list[512];
	int64_t lost, total = 0;
	size_t n = 0;
	int cpu;

	list[0] = '\0';
	for (cpu = 0; cpu < sp->nr_cpus; cpu++) {
		lost = lt_tracefs_lost(s, cpu);
		if (lost <= 0)
			continue;
		total += lost;
		if (n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, "%sCPU %d: %lld",
				      n ? ", " : "", cpu, (long long)lost);
	}
	if (total)
		fprintf(stderr, "lazytrace record: lost %lld events (%s): the ring buffer filled faster than it was read; record again with a bigger --buffer-size (KB per CPU, default %d)\n",
			(long long)total, list, LT_TRACEFS_BUFFER_KB);
}

static int record(struct record_opts *o)
{
	struct lt_tracefs_opts to = {
		.cpus = o->cpus.v, .nr_cpus = o->cpus.nr, .syscalls = o->syscalls,
		.functions = o->functions, .buffer_kb = o->buffer_kb,
		.functions_always = o->functions_always,
		.stacks = o->stacks,
		.note = note,
	};
	struct spool sp = { 0 };
	struct stop_check sc = { 0 };
	bool child_done = false;
	int go = -1, status = -1, err, ret = EXIT_BAD, child_status = 0;
	size_t i;
	struct lt_tracefs *s;
	pid_t child = -1;
	char msg[512];

	/* Not root says more than an unwritable output: told first. */
	if (lt_tracefs_ready(msg, sizeof(msg))) {
		fprintf(stderr, "lazytrace record: %s\n", msg);
		return EXIT_BAD;
	}
	/* Before any tracing: an output that cannot be written ends here. */
	if (output_dir_writable(o->output)) {
		fprintf(stderr, "lazytrace record: cannot write next to %s: %s\n",
			o->output, strerror(errno));
		return EXIT_BAD;
	}
	if (spool_open(&sp, sysconf(_SC_NPROCESSORS_CONF))) {
		spool_close(&sp);
		return EXIT_BAD;
	}
	sc.from = calloc(sp.nr_cpus, sizeof(*sc.from));
	sc.mid = calloc(sp.nr_cpus, sizeof(*sc.mid));
	if (!sc.from || !sc.mid) {
		fprintf(stderr, "lazytrace record: out of memory\n");
		free(sc.from);
		free(sc.mid);
		spool_close(&sp);
		return EXIT_BAD;
	}
	sc.last_ns = now_ns();
	catch_stop_signals();
	s = lt_tracefs_begin(&to, msg, sizeof(msg));
	if (!s) {
		fprintf(stderr, "lazytrace record: %s\n", msg);
		goto out;
	}
	if (o->command) {
		child = spawn(o->command, &o->run_as, &go, &status);
		if (child < 0) {
			fprintf(stderr, "lazytrace record: cannot start %s: %s\n",
				o->command[0], strerror(errno));
			goto out;
		}
	}
	for (i = 0; i < o->nr_events; i++) {
		if (lt_tracefs_add_event(s, o->events[i], msg, sizeof(msg))) {
			fprintf(stderr, "lazytrace record: -e %s: %s\n",
				o->events[i], msg);
			goto out;
		}
	}
	lt_tracefs_snapshot_comms(s, false);
	if (lt_tracefs_start(s)) {
		fprintf(stderr, "lazytrace record: cannot turn tracing on in %s: %s\n",
			lt_tracefs_name(s), strerror(errno));
		goto out;
	}
	if (lt_tracefs_mark_setup(s))
		fprintf(stderr, "lazytrace record: cannot write the setup line into %s: %s\n",
			lt_tracefs_name(s), strerror(errno));
	if (child > 0) {
		close(go);
		go = -1;
		err = exec_result(status);
		status = -1;
		if (err < 0) {
			fprintf(stderr, "lazytrace record: cannot run %s as %s: %s\n",
				o->command[0], o->run_as.name, strerror(-err));
			waitpid(child, NULL, 0);
			child = -1;
			goto out;
		}
		if (err) {
			fprintf(stderr, "lazytrace record: cannot run %s: %s\n",
				o->command[0], strerror(err));
			waitpid(child, NULL, 0);
			child = -1;
			goto out;
		}
	}
	if (o->watch)
		fprintf(stderr, "lazytrace record: recording into %s until process %d exits%s\n",
			o->output, o->watch, o->duration < 0 ? " or Ctrl-C" : "");
	else if (!o->command && o->duration < 0)
		fprintf(stderr, "lazytrace record: recording into %s until Ctrl-C\n",
			o->output);
	if (record_loop(s, &sp, o, &sc, child, &child_done, &child_status))
		fprintf(stderr, "lazytrace record: reading the ring buffer failed: %s; keeping what was read\n",
			strerror(sp.error ? sp.error : errno));
	lt_tracefs_stop(s);
	lt_tracefs_snapshot_comms(s, false);
	if (lt_tracefs_drain(s, spool_page, &sp) < 0)
		fprintf(stderr, "lazytrace record: reading the ring buffer failed: %s\n",
			strerror(sp.error ? sp.error : errno));
	report_lost(s, &sp);
	if (child > 0 && !child_done)
		end_command(child, stop_signal ? stop_signal : SIGTERM);
	child = -1;
	/* what the last check has not seen yet: a request in the end */
	if (o->stop_above && !sc.stop_at)
		check_stop_window(s, &sp, o, &sc);
	if (!write_output(s, &sp, o)) {
		summary(&sp, o->output);
		ret = child_done ? command_exit(o->command[0], child_status) :
				   EXIT_OK;
		if (sc.stop_at) {
			fprintf(stderr, "lazytrace record: %s; kept in %s\n",
				sc.what, o->output);
		} else if (o->stop_above) {
			fprintf(stderr, "lazytrace record: note: no request (%s) waited %.3f ms or longer\n",
				o->stop_kind, o->stop_above / 1e6);
			if (ret == EXIT_OK)
				ret = EXIT_NOTHING;
		}
	}
out:
	if (go >= 0 && child > 0) {
		/* Never let a command run untraced. */
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
	if (go >= 0)
		close(go);
	if (status >= 0)
		close(status);
	if (child > 0)
		end_command(child, SIGTERM);
	spool_close(&sp);
	free(sc.from);
	free(sc.mid);
	lt_tracefs_destroy(s);
	return ret;
}

/* -P PID: a process that runs now (any user's: kill(0) tells EPERM). */
static pid_t parse_watch_pid(const char *arg)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(arg, &end, 10);
	if (errno || *end || end == arg || pid <= 0 || pid > INT32_MAX)
		die_usage("bad pid '%s'", arg);
	if (!process_runs(pid))
		die_usage("-P %ld: no such process", pid);
	return pid;
}

static int add_event_name(struct record_opts *o, const char *name)
{
	const char **ev = realloc(o->events, (o->nr_events + 1) * sizeof(*ev));

	if (!ev) {
		fprintf(stderr, "lazytrace record: out of memory\n");
		return -1;
	}
	if (!*name)
		die_usage("empty event name");
	o->events = ev;
	o->events[o->nr_events++] = name;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'P' },
		{ "syscalls", no_argument, NULL, OPT_SYSCALLS },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ "no-functions", no_argument, NULL, OPT_NO_FUNCTIONS },
		{ "functions", no_argument, NULL, OPT_FUNCTIONS },
		{ "user", required_argument, NULL, 'u' },
		{ "world-readable", no_argument, NULL, OPT_WORLD_READABLE },
		{ "no-kallsyms", no_argument, NULL, OPT_NO_KALLSYMS },
		{ "stop-above", required_argument, NULL, OPT_STOP_ABOVE },
		{ "stop-kind", required_argument, NULL, OPT_STOP_KIND },
		STACKS_LONG_OPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o = { .output = "trace.dat", .duration = -1,
				 .functions = true };
	unsigned long long given = 0;
	char *end;
	int c, ret;

	/* "+": options end at the command, whose own options are its own. */
	while ((c = getopt_long(argc, argv, "+o:d:u:e:P:h", longopts, NULL)) != -1) {
		if (stacks_opt(&o.stacks, c, optarg))
			continue;
		switch (c) {
		case 'o':
			opt_once(&given, 0, "-o");
			o.output = optarg;
			break;
		case 'd':
			opt_once(&given, 1, "-d");
			o.duration = parse_time_ns(optarg);
			if (o.duration <= 0)
				die_usage("bad duration '%s'", optarg);
			break;
		case OPT_CPU:
			opt_once(&given, 2, "cpu");
			if (int_set_parse(&o.cpus, optarg))
				die_usage("bad CPU list '%s'", optarg);
			check_cpus(&o.cpus, get_nprocs_conf(), NULL);
			break;
		case OPT_SYSCALLS:
			o.syscalls = true;
			break;
		case OPT_BUFFER_SIZE:
			opt_once(&given, 3, "buffer-size");
			o.buffer_kb = strtoul(optarg, &end, 10);
			if (*end || o.buffer_kb < 4 || o.buffer_kb > 4 << 20)
				die_usage("bad buffer size '%s' (KB per CPU)",
					  optarg);
			break;
		case OPT_NO_FUNCTIONS:
		case OPT_FUNCTIONS:
			if (given & (1ULL << 4))
				die_usage("--functions and --no-functions: choose one");
			given |= 1ULL << 4;
			o.functions = o.functions_always = c == OPT_FUNCTIONS;
			break;
		case 'P':
			opt_once(&given, 6, "-P");
			o.watch = parse_watch_pid(optarg);
			break;
		case 'e':
			if (add_event_name(&o, optarg))
				return EXIT_BAD;
			break;
		case 'u':
			opt_once(&given, 5, "-u");
			o.user = optarg;
			break;
		case OPT_WORLD_READABLE:
			o.world_readable = true;
			break;
		case OPT_NO_KALLSYMS:
			o.no_kallsyms = true;
			break;
		case OPT_STOP_ABOVE:
			opt_once(&given, 7, "--stop-above");
			o.stop_above = stop_above_parse(optarg);
			break;
		case OPT_STOP_KIND:
			opt_once(&given, 8, "--stop-kind");
			o.stop_kind = stop_kind_parse(optarg);
			break;
		case 'h':
			fputs(record_usage, stdout);
			return EXIT_OK;
		default:
			usage_fail();
		}
	}
	if (optind < argc)
		o.command = argv + optind;
	if (!*o.output)
		die_usage("empty output file name");
	if (o.watch && optind < argc)
		die_usage("-P PID or a command: one thing to record until it ends");
	if (o.user && !o.command)
		die_usage("-u USER is the user of the command: give one after --");
	o.stop_kind = stop_kind_final(o.stop_kind, o.stop_above);
	if (o.command && run_as_lookup(&o.run_as, o.user, "record"))
		return EXIT_BAD;
	ret = record(&o);
	run_as_free(&o.run_as);
	int_set_free(&o.cpus);
	free(o.events);
	return ret;
}
