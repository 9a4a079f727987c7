// SPDX-License-Identifier: LGPL-2.1
/*
 * A run's events read on threads. The trace.dat is cut into segments in
 * time (lt_dat_time_cuts()); worker threads each claim the next segment
 * no one has, read it (lt_dat_read_span()) and copy its events into a
 * ring of blocks. The run's thread takes the segments in order, so the
 * analysis sees the events in the one reader's order and stays on one
 * thread: reading and decoding is most of an analysis' time, and the
 * analysis depends on all that came before it.
 *
 * The first worker starts at once at the file's start, with no cut to
 * stop at: the run's thread cuts the file meanwhile, and makes ready
 * what its reader needs to name the events (the kernel's symbols, the
 * saved command lines: 10-20 ms on a distribution kernel's trace). The
 * worker then ends its first span at the next cut, and the segments up
 * to it are one: the first. Cutting a compressed file decompresses a
 * chunk per sample, and nothing else would be done while it did.
 *
 * The run's thread reads a segment itself, with no copy, when it finds
 * one that no worker claimed. A worker leaves the next segment to it
 * when the run is close behind (it would wait for the worker): how many
 * segments each reads follows from how fast each goes on this machine
 * and this file.
 *
 * A segment that stops before its end (an error in the file, a CPU whose
 * times go backwards, no memory) stops it all there, in the order of the
 * events: the run's caller then reads on with one reader from the same
 * event, and says what one reader says.
 */
#include <pthread.h>

#include "lt-table.h"

/*
 * Blocks of copied events, each of one segment. In flight per worker:
 * about six segments of a megabyte of the file, copied. The run's first
 * tens of milliseconds are its slowest (every task is new): with half
 * as many, a worker waited 10-19 ms there with a full ring.
 */
#define SPLIT_BLOCK	(256 << 10)
#define SPLIT_BLOCKS	32
/*
 * After a block's SPLIT_BLOCK bytes: the event that crosses them (at most
 * a header, the union and a stack's addresses) and what lt_dat_pack()
 * and lt_dat_unpack() may touch after an event (struct lt_event's size).
 */
#define SPLIT_ROOM	(3 * sizeof(struct lt_event))
/*
 * Until both have timed their work, a worker leaves the next segment to
 * the run when it has fewer blocks ready than this.
 */
#define SPLIT_LEAD	4
/* segments: as for lt_dat_set_part() of this many parts (16 at least) */
#define SPLIT_CUT_PARTS	8

/*
 * Workers at most: decoding an event takes about twice as long as
 * analysing it, so two keep the run's thread busy; a third covers a
 * slower machine, more would only wait.
 */
#define SPLIT_WORKERS	3

#define SEG_RUN		(-1)	/* the run's thread reads it */

struct block {
	char *buf;		/* SPLIT_BLOCK, and SPLIT_ROOM after */
	size_t len;
	unsigned int nev;	/* events */
	int seg;
} __attribute__((aligned(64)));

struct split_part {
	struct lt_split *s;
	int k;
	struct lt_reader *r;	/* the worker's, until its last block */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* under the lock: ring[head] and count - 1 after it are the run's */
	struct block ring[SPLIT_BLOCKS];
	int head, count;
	bool done;		/* no block will follow those in the ring */
	bool whole;		/* and each segment claimed was read whole */
	bool stop;		/* the run needs no more */
	uint64_t ready_ev;	/* events in the run's blocks (atomic) */
	/* the worker's own: its time and events reading, waits left out */
	uint64_t w_ns, w_ev, wait_ns;
	int w_segs;
	/* the run's, on a line of its own (the worker writes the above) */
	size_t pos __attribute__((aligned(64)));	/* in ring[head] */
	bool held;		/* the run holds ring[head]: no lock */
	uint64_t t_block;	/* when it began to read ring[head] */
};

struct lt_split {
	const char *input;
	struct lt_open_opts o;
	struct lt_reader *r;	/* the run's, for the segments it reads */
	uint64_t *cut;
	int nseg;		/* 1 until the first worker takes the cuts */
	int seg;		/* the segment the run takes (workers look) */
	bool own;		/* and reads itself */
	int w, w_seg;		/* the owner of segment w_seg */
	bool stopped;
	int n, started;
	struct split_part *parts;
	/* the run's cuts, under claim: set, then made true (release) */
	bool cut_ready;
	int cut_nseg;
	pthread_mutex_t claim;
	/* under claim: the first worker took the cuts; workers may claim */
	pthread_cond_t cut_cond;
	bool claims_open;
	bool closed;		/* no more claims: the run is over */
	/* the compressed chunks' times the cuts found, for the readers */
	uint64_t *times;
	size_t nr_times;
	int next;		/* the first segment unclaimed */
	int *owner;		/* a segment's worker, or SEG_RUN */
	/* the run's time and events taking blocks; ps an event (atomic) */
	uint64_t c_ns, c_ev, c_ps;
	struct lt_event ev;	/* the one lt_split_next() gave last */
};

static uint64_t seg_end(const struct lt_split *s, int i)
{
	return i + 1 < s->nseg ? s->cut[i + 1] : UINT64_MAX;
}

/* The segments, for the run, which may look before the cuts are taken. */
static int nseg(const struct lt_split *s)
{
	return __atomic_load_n(&s->nseg, __ATOMIC_RELAXED);
}

/* Hand block @b over (@last: and the end); a free one, or NULL: stop. */
static struct block *publish(struct split_part *p, struct block *b,
			     bool last, bool whole)
{
	struct block *next = NULL;
	uint64_t t = 0;

	pthread_mutex_lock(&p->lock);
	if (b && b->len) {
		p->count++;
		__atomic_add_fetch(&p->ready_ev, b->nev, __ATOMIC_RELAXED);
	}
	p->done = last;
	p->whole = whole;
	pthread_cond_broadcast(&p->cond);
	if (!last && !p->stop && p->count == SPLIT_BLOCKS)
		t = lt_mono_ns();
	while (!last && !p->stop && p->count == SPLIT_BLOCKS)
		pthread_cond_wait(&p->cond, &p->lock);
	if (!last && !p->stop) {
		next = &p->ring[(p->head + p->count) % SPLIT_BLOCKS];
		next->len = 0;
		next->nev = 0;
	}
	pthread_mutex_unlock(&p->lock);
	if (t)
		p->wait_ns += lt_mono_ns() - t;
	return next;
}

/*
 * Whether the run, which is taking worker @p's segment, would wait for
 * the next one if @p read it: the run reaches it after the events ready,
 * and takes events faster than a worker reads them (a compressed file's
 * twice as fast) when it has none of their reading to do.
 */
static bool run_would_wait(struct split_part *p, int ready)
{
	struct lt_split *s = p->s;
	uint64_t c = __atomic_load_n(&s->c_ps, __ATOMIC_RELAXED), ev = 0;
	double seg_ev;
	int k;

	if (!c || p->w_segs < 2)
		return ready < SPLIT_LEAD;
	for (k = 0; k < s->n; k++)
		ev += __atomic_load_n(&s->parts[k].ready_ev, __ATOMIC_RELAXED);
	seg_ev = (double)p->w_ev / p->w_segs;
	return seg_ev * p->w_ns * 1000 / p->w_ev > (ev + seg_ev) * c;
}

/*
 * The next segment for worker @p, -1 if none is left. When the run is
 * taking this worker's segment and would wait for the next one, the
 * next one is left to it.
 */
static int claim(struct split_part *p)
{
	struct lt_split *s = p->s;
	int i, ready;
	bool wait;

	pthread_mutex_lock(&p->lock);
	ready = p->count;
	pthread_mutex_unlock(&p->lock);
	wait = run_would_wait(p, ready);
	pthread_mutex_lock(&s->claim);
	if (s->closed) {
		pthread_mutex_unlock(&s->claim);
		return -1;
	}
	i = __atomic_load_n(&s->seg, __ATOMIC_RELAXED);
	/* with one segment (the first, the whole file) there is no owner */
	if (wait && s->next + 1 < s->nseg && i < s->next &&
	    s->owner[i] == p->k)
		s->owner[s->next++] = SEG_RUN;
	i = s->next < s->nseg ? s->next++ : -1;
	if (i >= 0)
		s->owner[i] = p->k;
	pthread_mutex_unlock(&s->claim);
	return i;
}

/*
 * After worker @p's last block: its reader closed, and its blocks freed
 * as the run reads through them. The run has the end of the analysis
 * to do alone, and would otherwise return the ring's pages at the end.
 */
static void release(struct split_part *p)
{
	char *spare[SPLIT_BLOCKS];
	int k, n;

	lt_reader_close(p->r);
	p->r = NULL;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		for (n = 0, k = 0; k < SPLIT_BLOCKS; k++) {
			/* ring[head] and count - 1 after it are the run's */
			if ((k - p->head + SPLIT_BLOCKS) % SPLIT_BLOCKS <
			    p->count || !p->ring[k].buf)
				continue;
			spare[n++] = p->ring[k].buf;
			p->ring[k].buf = NULL;
		}
		if (n) {
			pthread_mutex_unlock(&p->lock);
			while (n)
				free(spare[--n]);
			pthread_mutex_lock(&p->lock);
			continue;
		}
		if (!p->count || p->stop)
			break;
		pthread_cond_wait(&p->cond, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

/*
 * Copy event @ev of segment @seg into worker @p's block *@bp, handing the
 * block over first when it holds another segment or is full: false when
 * the run needs no more, or without memory.
 */
static bool put_event(struct split_part *p, struct block **bp,
		      const struct lt_event *ev, int seg)
{
	struct block *b = *bp;

	/* each event copied once: the last one into the room */
	if (b->len && (seg != b->seg || b->len >= SPLIT_BLOCK)) {
		b = publish(p, b, false, false);
		*bp = b;
		if (!b)
			return false;
	}
	if (!b->buf) {
		b->buf = malloc(SPLIT_BLOCK + SPLIT_ROOM);
		if (!b->buf)
			return false;
	}
	b->seg = seg;
	b->len += lt_dat_pack(p->r, ev, b->buf + b->len);
	b->nev++;
	return true;
}

/*
 * The first worker, in its first span at event time @ts, takes the run's
 * cuts: the segments up to the one @ts lies in become the first, and its
 * span ends where that one ends. Without cuts, or past the last, the
 * first segment is the whole file. Then the workers may claim the rest.
 */
static void take_cuts(struct split_part *p, uint64_t ts)
{
	struct lt_split *s = p->s;
	int k = 0, n;

	pthread_mutex_lock(&s->claim);
	n = s->cut_nseg;
	while (k + 1 < n && s->cut[k + 1] <= ts)
		k++;
	if (k + 1 < n && !lt_dat_span_end(p->r, s->cut[k + 1])) {
		memmove(s->cut + 1, s->cut + k + 1,
			(n - k - 1) * sizeof(*s->cut));
		n -= k;
		s->owner[0] = p->k;
	} else {
		n = 1;
	}
	__atomic_store_n(&s->nseg, n, __ATOMIC_RELAXED);
	s->claims_open = true;
	pthread_cond_broadcast(&s->cut_cond);
	pthread_mutex_unlock(&s->claim);
	lt_dat_add_chunk_times(p->r, s->times, s->nr_times);
}

/*
 * The first worker's first span: the file from its start, until it
 * takes the cuts and ends there. 0, or -1 if it stopped short.
 */
static int first_span(struct split_part *p, struct block **bp)
{
	struct lt_split *s = p->s;
	const struct lt_event *ev;
	struct block *b = *bp;
	bool taken = false;

	if (lt_dat_read_span(p->r, 0, UINT64_MAX))
		return -1;
	while ((ev = lt_reader_next(p->r))) {
		if (!taken &&
		    __atomic_load_n(&s->cut_ready, __ATOMIC_ACQUIRE)) {
			take_cuts(p, ev->ts);
			taken = true;
		}
		if (!put_event(p, &b, ev, 0))
			break;
	}
	*bp = b;
	if (ev || lt_reader_error(p->r))
		return -1;
	if (!taken)	/* the whole file, before the cuts were made */
		take_cuts(p, UINT64_MAX);
	return 0;
}

static void *part_worker(void *arg)
{
	struct split_part *p = arg;
	struct lt_split *s = p->s;
	const struct lt_event *ev = NULL;
	char err[LT_ERR_LEN];
	struct block *b = NULL;
	bool ok = true;
	int seg = 0;

	p->r = lt_reader_open(s->input, &s->o, err, sizeof(err));
	if (p->r) {
		/* a thread per reader already: none to read ahead */
		lt_dat_set_jobs(p->r, 1);
		lt_dat_set_packing(p->r);
		b = publish(p, NULL, false, false);
	}
	if (p->k == 0) {
		ok = b && !first_span(p, &b);
	} else {
		pthread_mutex_lock(&s->claim);
		while (!s->claims_open)
			pthread_cond_wait(&s->cut_cond, &s->claim);
		pthread_mutex_unlock(&s->claim);
		if (p->r)
			lt_dat_add_chunk_times(p->r, s->times, s->nr_times);
	}
	while (ok && b && (seg = claim(p)) >= 0) {
		uint64_t t = lt_mono_ns(), nev = 0;

		p->wait_ns = 0;
		if (lt_dat_read_span(p->r, s->cut[seg], seg_end(s, seg)))
			break;
		while ((ev = lt_reader_next(p->r))) {
			if (!put_event(p, &b, ev, seg))
				break;
			nev++;
		}
		if (ev || lt_reader_error(p->r))
			break;
		t = lt_mono_ns() - t;
		if (t > p->wait_ns && nev) {
			p->w_ns += t - p->wait_ns;
			p->w_ev += nev;
			p->w_segs++;
		}
	}
	publish(p, b, true, ok && b && seg < 0);
	release(p);
	return NULL;
}

static void make_cuts(struct lt_split *s);

/* Documented in lt-table.h. */
struct lt_split *lt_split_start(struct lt_reader *r, const char *input,
				const struct lt_open_opts *o, int n)
{
	struct lt_split *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		return NULL;
	s->r = r;
	s->input = input;
	s->o = *o;
	s->n = n < SPLIT_WORKERS ? n : SPLIT_WORKERS;
	n = s->n;
	/* the first segment (the file, until the cuts are taken): worker 0's */
	s->nseg = 1;
	s->next = 1;
	s->w_seg = 0;
	/* aligned as its cache lines are meant to be */
	s->parts = aligned_alloc(_Alignof(struct split_part),
				 n * sizeof(*s->parts));
	if (!s->parts) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->claim, NULL);
	pthread_cond_init(&s->cut_cond, NULL);
	memset(s->parts, 0, n * sizeof(*s->parts));
	for (i = 0; i < n; i++) {
		s->parts[i].s = s;
		s->parts[i].k = i;
		pthread_mutex_init(&s->parts[i].lock, NULL);
		pthread_cond_init(&s->parts[i].cond, NULL);
	}
	for (; s->started < n; s->started++)
		if (pthread_create(&s->parts[s->started].tid, NULL,
				   part_worker, &s->parts[s->started]))
			break;
	if (!s->started) {
		lt_split_free(s);
		return NULL;
	}
	make_cuts(s);
	/* while the first worker reads: what naming its events needs */
	lt_dat_set_jobs(r, 1);
	lt_dat_prepare(r);
	return s;
}

/*
 * The cuts, made by the run's thread while the first worker reads from
 * the file's start, and handed to it (take_cuts()), unless it read the
 * whole file first.
 */
static void make_cuts(struct lt_split *s)
{
	uint64_t *cut = NULL, *times = NULL;
	size_t nr_times = 0;
	int *owner = NULL;
	int nseg;

	nseg = lt_dat_time_cuts(s->r, SPLIT_CUT_PARTS, &cut);
	if (nseg >= 2) {
		owner = calloc(nseg, sizeof(*owner));
		/* without them, every seek probes chunks for their times */
		times = lt_dat_chunk_times(s->r, &nr_times);
	}
	pthread_mutex_lock(&s->claim);
	if (!owner || s->claims_open) {
		free(cut);
		free(owner);
		free(times);
	} else {
		s->cut = cut;
		s->owner = owner;
		s->times = times;
		s->nr_times = nr_times;
		s->cut_nseg = nseg;
	}
	pthread_mutex_unlock(&s->claim);
	__atomic_store_n(&s->cut_ready, true, __ATOMIC_RELEASE);
}

/* The run read part @p's block ring[head] through: timed, and gone. */
static void block_taken(struct split_part *p)
{
	struct lt_split *s = p->s;
	unsigned int nev = p->ring[p->head].nev;

	__atomic_sub_fetch(&p->ready_ev, nev, __ATOMIC_RELAXED);
	if (!p->t_block)
		return;
	s->c_ns += lt_mono_ns() - p->t_block;
	s->c_ev += nev;
	p->t_block = 0;
	if (s->c_ev)
		__atomic_store_n(&s->c_ps, s->c_ns * 1000 / s->c_ev,
				 __ATOMIC_RELAXED);
}

/* Whether part @p has a block to read, waiting for its worker. */
static bool part_block(struct split_part *p)
{
	if (p->held && p->pos < p->ring[p->head].len)
		return true;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		p->held = p->count;
		if (p->count && p->pos < p->ring[p->head].len)
			break;
		if (p->count) {
			/* read through: the worker's again */
			block_taken(p);
			p->head = (p->head + 1) % SPLIT_BLOCKS;
			p->count--;
			p->pos = 0;
			pthread_cond_broadcast(&p->cond);
			continue;
		}
		if (p->done) {
			pthread_mutex_unlock(&p->lock);
			return false;
		}
		pthread_cond_wait(&p->cond, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return true;
}

/* The owner of segment @i, which the run claims if no worker has. */
static int owner(struct lt_split *s, int i)
{
	int w;

	pthread_mutex_lock(&s->claim);
	if (s->next == i) {
		s->next++;
		s->owner[i] = SEG_RUN;
	}
	w = s->owner[i];
	pthread_mutex_unlock(&s->claim);
	return w;
}

/* The run goes on to the next segment: workers look at where it is. */
static void next_seg(struct lt_split *s)
{
	__atomic_store_n(&s->seg, s->seg + 1, __ATOMIC_RELAXED);
}

/* Documented in lt-table.h. */
const struct lt_event *lt_split_next(struct lt_split *s)
{
	const struct lt_event *ev;
	struct split_part *p;
	struct block *b;
	int w;

	while (!s->stopped && s->seg < nseg(s)) {
		if (s->own) {
			ev = lt_reader_next(s->r);
			if (ev)
				return ev;
			s->own = false;
			s->stopped = lt_reader_error(s->r) != NULL;
			next_seg(s);
			continue;
		}
		if (s->w_seg != s->seg) {
			s->w = owner(s, s->seg);
			s->w_seg = s->seg;
		}
		w = s->w;
		if (w == SEG_RUN) {
			s->own = true;
			s->stopped = lt_dat_read_span(s->r, s->cut[s->seg],
						      seg_end(s, s->seg));
			continue;
		}
		p = &s->parts[w];
		if (!part_block(p)) {
			/* its segments read whole, this one was empty */
			s->stopped = !p->whole;
			next_seg(s);
			continue;
		}
		b = &p->ring[p->head];
		if (b->seg != s->seg) {
			/* the part has no more of this segment */
			next_seg(s);
			continue;
		}
		if (!p->pos)
			p->t_block = lt_mono_ns();
		p->pos += lt_dat_unpack(s->r, b->buf + p->pos, &s->ev);
		/* the worker wrote them on its CPU: ask for them early */
		__builtin_prefetch(b->buf + p->pos + 512);
		return &s->ev;
	}
	return NULL;
}

/* Documented in lt-table.h. */
bool lt_split_stopped(const struct lt_split *s)
{
	return s->stopped;
}

/* Documented in lt-table.h. */
void lt_split_free(struct lt_split *s)
{
	struct split_part *p;
	int i, k;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		p = &s->parts[i];
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	/* no worker claims any more */
	pthread_mutex_lock(&s->claim);
	s->closed = true;
	s->claims_open = true;
	pthread_cond_broadcast(&s->cut_cond);
	pthread_mutex_unlock(&s->claim);
	for (i = 0; i < s->n; i++) {
		p = &s->parts[i];
		if (i < s->started)
			pthread_join(p->tid, NULL);
		lt_reader_close(p->r);
		for (k = 0; k < SPLIT_BLOCKS; k++)
			free(p->ring[k].buf);
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->cond);
	}
	pthread_mutex_destroy(&s->claim);
	pthread_cond_destroy(&s->cut_cond);
	free(s->times);
	free(s->cut);
	free(s->owner);
	free(s->parts);
	free(s);
}
