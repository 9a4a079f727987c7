// SPDX-License-Identifier: GPL-2.0
/*
 * lazyload - small workloads for tracing lazy preemption in a test VM.
 *
 *   lazyload [-c CPU] msg   SECONDS [GROUPS [LOOPS]]
 *                                              pipe messaging (hackbench-like):
 *                                              GROUPS x (10 senders + 10
 *                                              receivers), 100-byte messages;
 *                                              each sender sends LOOPS rounds
 *                                              (0: until SECONDS are over)
 *   lazyload [-c CPU] spin  SECONDS            user-space busy loop
 *   lazyload [-c CPU] sleep SECONDS PERIOD_MS  periodic sleeper
 *   lazyload [-c CPU] rt    SECONDS PERIOD_MS WAKER_CPU
 *                                              SCHED_FIFO task on CPU, woken
 *                                              through a pipe from WAKER_CPU
 *   lazyload [-c CPU] fair  SECONDS PERIOD_MS WAKER_CPU
 *                                              the same as a SCHED_OTHER task:
 *                                              its wake-ups make remote lazy
 *                                              requests
 *
 * -c pins the process (and its children) to one CPU.
 * Built statically so the initramfs needs no shared libraries for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE	100
#define PER_GROUP	10

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int run_msg(double secs, int groups, long loops)
{
	int nproc = 0, g, i, j;
	double start = now(), end = start + secs;

	for (g = 0; g < groups; g++) {
		int fds[PER_GROUP][2];

		for (i = 0; i < PER_GROUP; i++)
			if (pipe(fds[i]))
				die("pipe");
		/* receivers: one pipe each, read until every sender is gone */
		for (i = 0; i < PER_GROUP; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[MSG_SIZE];
				ssize_t r;

				for (j = 0; j < PER_GROUP; j++) {
					close(fds[j][1]);
					if (j != i)
						close(fds[j][0]);
				}
				while ((r = read(fds[i][0], buf, sizeof(buf))) != 0) {
					if (r < 0 && errno != EINTR)
						die("read");
				}
				_exit(0);
			}
			nproc++;
		}
		/* senders: a message to every receiver of the group, until time is up */
		for (i = 0; i < PER_GROUP; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				char buf[MSG_SIZE];
				long n = 0;

				memset(buf, 'm', sizeof(buf));
				for (j = 0; j < PER_GROUP; j++)
					close(fds[j][0]);
				while (loops ? n < loops * PER_GROUP : now() < end) {
					for (j = 0; j < PER_GROUP; j++) {
						if (write(fds[j][1], buf, sizeof(buf)) != sizeof(buf))
							die("write");
						n++;
					}
				}
				_exit(n > 255 ? 255 : (int)n);
			}
			nproc++;
		}
		for (i = 0; i < PER_GROUP; i++) {
			close(fds[i][0]);
			close(fds[i][1]);
		}
	}
	for (i = 0; i < nproc; i++) {
		int st;

		if (wait(&st) < 0)
			die("wait");
	}
	printf("lazyload msg: %d processes, %ld rounds, %.3f s\n", nproc, loops, now() - start);
	return 0;
}

static int run_spin(double secs)
{
	double end = now() + secs;
	volatile unsigned long x = 0;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x++;
	return 0;
}

static int run_sleep(double secs, int period_ms)
{
	struct timespec t;
	double end = now() + secs;

	clock_gettime(CLOCK_MONOTONIC, &t);
	while (now() < end) {
		t.tv_nsec += period_ms * 1000000L;
		while (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	return 0;
}

static int run_woken(double secs, int period_ms, int waker_cpu, bool rt)
{
	struct sched_param sp = { .sched_priority = 10 };
	int fd[2];
	char c;
	pid_t pid;

	if (pipe(fd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(fd[0]);
		pin(waker_cpu);
		for (double end = now() + secs; now() < end; ) {
			usleep(period_ms * 1000);
			if (write(fd[1], "w", 1) != 1)
				die("write");
		}
		_exit(0);
	}
	close(fd[1]);
	if (rt && sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
	while (read(fd[0], &c, 1) == 1)
		;
	waitpid(pid, NULL, 0);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lazyload [-c CPU] msg SECONDS [GROUPS [LOOPS]]\n"
		"       lazyload [-c CPU] spin SECONDS\n"
		"       lazyload [-c CPU] sleep SECONDS PERIOD_MS\n"
		"       lazyload [-c CPU] rt SECONDS PERIOD_MS WAKER_CPU\n"
		"       lazyload [-c CPU] fair SECONDS PERIOD_MS WAKER_CPU\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int argi = 1;
	double secs;

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		pin(atoi(argv[2]));
		argi = 3;
	}
	if (argc - argi < 2)
		usage();
	secs = atof(argv[argi + 1]);
	if (!strcmp(argv[argi], "msg"))
		return run_msg(secs, argc - argi > 2 ? atoi(argv[argi + 2]) : 2,
			       argc - argi > 3 ? atol(argv[argi + 3]) : 0);
	if (!strcmp(argv[argi], "spin"))
		return run_spin(secs);
	if (!strcmp(argv[argi], "sleep") && argc - argi > 2)
		return run_sleep(secs, atoi(argv[argi + 2]));
	if (!strcmp(argv[argi], "rt") && argc - argi > 3)
		return run_woken(secs, atoi(argv[argi + 2]), atoi(argv[argi + 3]), true);
	if (!strcmp(argv[argi], "fair") && argc - argi > 3)
		return run_woken(secs, atoi(argv[argi + 2]), atoi(argv[argi + 3]), false);
	usage();
	return 2;
}
