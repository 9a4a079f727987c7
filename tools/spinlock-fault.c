// SPDX-License-Identifier: GPL-2.0
/*
 * spinlock-fault: N threads share a user-space spinlock; the holder
 * touches fresh memory inside its critical section, so it takes page
 * faults while the others spin (the shape of PostgreSQL's s_lock
 * regression on lazy preemption). With -p the memory is faulted in
 * before the threads start and never given back: no fault in the
 * critical section. docs/case-spinlock.md uses it with lazytrace.
 *
 *   cc -O2 -pthread -o spinlock-fault tools/spinlock-fault.c
 *   spinlock-fault [-t THREADS] [-d SECONDS] [-k KIB_PER_HOLD] [-m MIB] [-p]
 *
 * Prints, per thread, the holds, the time spent spinning for the lock
 * and the time holding it; then the totals.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(__i386__)
#define __builtin_ia32_pause() __asm__ __volatile__("" ::: "memory")
#endif

static int lock_word;
static volatile int stop;
static char *region;
static size_t region_len, chunk, offset;
static int prefault;

struct worker {
	pthread_t th;
	int id;
	uint64_t holds, spin_ns, hold_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void spin_lock(void)
{
	while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock_word, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void spin_unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

/* The critical section: write one byte per page of the next chunk. */
static void critical(void)
{
	size_t i;

	if (offset + chunk > region_len) {
		/* give the pages back: the next pass faults them in again */
		if (!prefault)
			madvise(region, region_len, MADV_DONTNEED);
		offset = 0;
	}
	for (i = 0; i < chunk; i += 4096)
		region[offset + i]++;
	offset += chunk;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t t0, t1, t2;

	while (!stop) {
		t0 = now_ns();
		spin_lock();
		t1 = now_ns();
		critical();
		t2 = now_ns();
		spin_unlock();
		w->holds++;
		w->spin_ns += t1 - t0;
		w->hold_ns += t2 - t1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 4, secs = 3, kib = 64, mib = 256, c, i;
	struct worker *w;
	uint64_t holds = 0, spin = 0, hold = 0;

	while ((c = getopt(argc, argv, "t:d:k:m:p")) != -1) {
		switch (c) {
		case 't': threads = atoi(optarg); break;
		case 'd': secs = atoi(optarg); break;
		case 'k': kib = atoi(optarg); break;
		case 'm': mib = atoi(optarg); break;
		case 'p': prefault = 1; break;
		default:
			fprintf(stderr, "usage: %s [-t THREADS] [-d SECONDS] [-k KIB_PER_HOLD] [-m MIB] [-p]\n",
				argv[0]);
			return 2;
		}
	}
	if (threads < 1 || secs < 1 || kib < 4 || mib < 1 ||
	    (size_t)kib * 1024 > (size_t)mib << 20) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	chunk = (size_t)kib * 1024;
	region_len = (size_t)mib << 20;
	region = mmap(NULL, region_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/*
	 * Small pages: one fault per page, as a database's heap. Before
	 * anything is faulted in (MAP_POPULATE took huge pages).
	 */
	madvise(region, region_len, MADV_NOHUGEPAGE);
	if (prefault)
		memset(region, 1, region_len);
	w = calloc(threads, sizeof(*w));
	if (!w)
		return 1;
	printf("spinlock-fault: pid %d, %d threads, %d KiB per hold, %s\n",
	       getpid(), threads, kib, prefault ? "pre-faulted" : "fresh memory");
	fflush(stdout);
	for (i = 0; i < threads; i++) {
		w[i].id = i;
		if (pthread_create(&w[i].th, NULL, work, &w[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	sleep(secs);
	stop = 1;
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].th, NULL);
		printf("thread %d: holds %llu spin %.3f s hold %.3f s\n", i,
		       (unsigned long long)w[i].holds, w[i].spin_ns / 1e9,
		       w[i].hold_ns / 1e9);
		holds += w[i].holds;
		spin += w[i].spin_ns;
		hold += w[i].hold_ns;
	}
	printf("total: holds %llu spin %.3f s hold %.3f s spin share %.1f %%\n",
	       (unsigned long long)holds, spin / 1e9, hold / 1e9,
	       spin + hold ? 100.0 * spin / (spin + hold) : 0.0);
	return 0;
}
