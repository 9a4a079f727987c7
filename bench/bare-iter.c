// SPDX-License-Identifier: GPL-2.0
/*
 * bare-iter: the floor for reading a trace.dat: open it with libtracecmd
 * (no plugins, as lazytrace does) and take every record of the buffer
 * that has events in timestamp order with the library's own iterator
 * (tracecmd_iterate_events), reading only what any consumer must: the
 * event type, pid and flags of each record. Prints the count.
 *
 *   cc -O2 -o bare-iter bare-iter.c $(pkg-config --cflags --libs libtracecmd)
 *   ./bare-iter trace.dat
 */
#include <stdio.h>

#include <trace-cmd/trace-cmd.h>

/* Exported by libtracecmd 3.1 but missing from Debian's public header. */
void tracecmd_set_all_cpus_to_timestamp(struct tracecmd_input *handle,
					unsigned long long time);

static int has_events(struct tracecmd_input *h)
{
	struct tep_record *rec;
	int cpu, n = tep_get_cpus(tracecmd_get_tep(h));

	for (cpu = 0; cpu < n; cpu++) {
		rec = tracecmd_read_cpu_first(h, cpu);
		if (rec) {
			tracecmd_free_record(rec);
			return 1;
		}
	}
	return 0;
}

/* The top-level buffer, or the first instance with events in it. */
static struct tracecmd_input *events_buffer(struct tracecmd_input *top)
{
	struct tracecmd_input *h;
	int i, n = tracecmd_buffer_instances(top);

	if (has_events(top))
		return top;
	for (i = 0; i < n; i++) {
		h = tracecmd_buffer_instance_handle(top, i);
		if (h && has_events(h))
			return h;
		if (h)
			tracecmd_close(h);
	}
	return top;
}

struct count {
	struct tep_handle *tep;
	unsigned long long n;
	unsigned long long sum;
};

static int one(struct tracecmd_input *h, struct tep_record *rec, int cpu,
	       void *data)
{
	struct count *c = data;

	c->sum += tep_data_type(c->tep, rec) + tep_data_pid(c->tep, rec) +
		  tep_data_flags(c->tep, rec);
	c->n++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *top, *h;
	struct count c = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE.dat\n", argv[0]);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	top = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS |
			    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!top) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 2;
	}
	h = events_buffer(top);
	c.tep = tracecmd_get_tep(h);
	/* Back to the start: looking for events read each CPU's first. */
	tracecmd_set_all_cpus_to_timestamp(h, 0);
	tracecmd_iterate_events(h, NULL, 0, one, &c);
	printf("%llu events (checksum %llu)\n", c.n, c.sum);
	if (h != top)
		tracecmd_close(h);
	tracecmd_close(top);
	return 0;
}
