// SPDX-License-Identifier: LGPL-2.1
/*
 * A trace.dat's kallsyms text, its functions by exact address.
 *
 * A timer's handler is a function's start, so a timer needs no
 * containing-function search: libtraceevent's first lookup sorts its
 * whole table, and a hash of 150k symbols spends its time in cache misses.
 * kallsyms lists the kernel's functions in address order and each
 * module's in a run of its own: keep the functions in file order, note
 * where each ascending run starts and search each run.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-internal.h"

/* More runs than this (a text in no order) are sorted into one. */
#define KSYMS_MAX_RUNS	1024

static signed char hex[256];

static void hex_init(void)
{
	int i;

	if (hex['1'])
		return;
	memset(hex, -1, sizeof(hex));
	for (i = 0; i < 10; i++)
		hex['0' + i] = i;
	for (i = 0; i < 6; i++)
		hex['a' + i] = hex['A' + i] = 10 + i;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct lt_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Take @text (malloc'd, @len bytes and a NUL) and index its functions:
 * "ffffffff81234560 t name\t[module]" lines, names cut in place.
 */
int lt_ksyms_init(struct lt_ksyms *k, char *text, size_t len)
{
	char *p = text, *end = text + len, *eol, *n, *tab, *mod;
	size_t max_runs = 16;
	uint64_t addr, prev = 0;
	int x, digits;
	char type;

	memset(k, 0, sizeof(*k));
	k->text = text;
	hex_init();
	/* the shortest line is "0 t x\n": pages never written cost nothing */
	k->sym = malloc((len / 6 + 1) * sizeof(*k->sym));
	k->run = malloc(max_runs * sizeof(*k->run));
	if (!k->sym || !k->run)
		goto fail;
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;	/* the NUL after the text */
		addr = 0;
		for (digits = 0; p < eol && (x = hex[(unsigned char)*p]) >= 0; p++)
			addr = addr << 4 | x, digits++;
		if (!digits || digits > 16 || eol - p < 4 || p[0] != ' ' ||
		    p[2] != ' ')
			continue;
		type = p[1] | 0x20;
		if (type != 't' && type != 'w')
			continue;
		n = p + 3;
		tab = memchr(n, '\t', eol - n);
		*(tab ? tab : eol) = '\0';
		if (!*n)
			continue;
		/* "\t[9pnet]": the module's name, cut in place too */
		mod = NULL;
		if (tab && eol - tab > 3 && tab[1] == '[' && eol[-1] == ']') {
			eol[-1] = '\0';
			mod = tab + 2;
		}
		if (!k->nr || addr < prev) {
			if (k->nr_run == max_runs) {
				uint32_t *r;

				max_runs *= 2;
				r = realloc(k->run, max_runs * sizeof(*r));
				if (!r)
					goto fail;
				k->run = r;
			}
			k->run[k->nr_run++] = k->nr;
		}
		k->sym[k->nr].addr = addr;
		k->sym[k->nr].mod = mod;
		k->sym[k->nr++].name = n;
		prev = addr;
	}
	if (k->nr_run > KSYMS_MAX_RUNS) {
		qsort(k->sym, k->nr, sizeof(*k->sym), cmp_sym);
		k->nr_run = 1;
	}
	return 0;
fail:
	lt_ksyms_free(k);
	return -1;
}

/* The first symbol at or above @addr in sym[lo, hi). */
static size_t lower_bound(const struct lt_ksym *sym, size_t lo, size_t hi,
			  uint64_t addr)
{
	size_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (sym[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The function starting at @addr: NULL when none does, or when several
 * names share the address (left to libtraceevent's choice).
 */
const char *lt_ksyms_exact(const struct lt_ksyms *k, uint64_t addr)
{
	const char *name = NULL;
	size_t r, lo, hi, i;

	for (r = 0; r < k->nr_run; r++) {
		lo = k->run[r];
		hi = r + 1 < k->nr_run ? k->run[r + 1] : k->nr;
		i = lower_bound(k->sym, lo, hi, addr);
		for (; i < hi && k->sym[i].addr == addr; i++) {
			if (name)
				return NULL;
			name = k->sym[i].name;
		}
	}
	return name;
}

/*
 * The module of the function starting at @addr, as %pS names it after
 * the offset; NULL for the kernel's own functions and unknown addresses.
 */
const char *lt_ksyms_module(const struct lt_ksyms *k, uint64_t addr)
{
	size_t r, lo, hi, i;

	for (r = 0; r < k->nr_run; r++) {
		lo = k->run[r];
		hi = r + 1 < k->nr_run ? k->run[r + 1] : k->nr;
		i = lower_bound(k->sym, lo, hi, addr);
		for (; i < hi && k->sym[i].addr == addr; i++)
			if (k->sym[i].mod)
				return k->sym[i].mod;
	}
	return NULL;
}

void lt_ksyms_free(struct lt_ksyms *k)
{
	free(k->text);
	free(k->sym);
	free(k->run);
	memset(k, 0, sizeof(*k));
}
