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
#define KSYMS_MEMO	4096	/* slots, a power of two */

/*
 * A hex digit's value plus one, 0 for anything else: constant, so that
 * readers on several threads share it.
 */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The value of hex digit @c, or -1. */
static inline int hex(char c)
{
	return hex1[(unsigned char)c] - 1;
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
	/* the shortest line is "0 t x\n": pages never written cost nothing */
	k->sym = malloc((len / 6 + 1) * sizeof(*k->sym));
	k->run = malloc(max_runs * sizeof(*k->run));
	k->memo = calloc(KSYMS_MEMO, sizeof(*k->memo));
	if (!k->sym || !k->run || !k->memo)
		goto fail;
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;	/* the NUL after the text */
		addr = 0;
		for (digits = 0; p < eol && (x = hex(*p)) >= 0; p++)
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
 * Fill @m for @addr: the one function starting there (NULL when none
 * does, or when several names share the address: left to
 * libtraceevent's choice) and its module (NULL: the kernel's own).
 */
static void lookup(const struct lt_ksyms *k, uint64_t addr,
		   struct lt_ksym_memo *m)
{
	size_t r, lo, hi, i, names = 0;

	m->addr = addr;
	m->exact = m->mod = NULL;
	for (r = 0; r < k->nr_run; r++) {
		lo = k->run[r];
		hi = r + 1 < k->nr_run ? k->run[r + 1] : k->nr;
		i = lower_bound(k->sym, lo, hi, addr);
		for (; i < hi && k->sym[i].addr == addr; i++) {
			if (!names++)
				m->exact = k->sym[i].name;
			if (!m->mod)
				m->mod = k->sym[i].mod;
		}
	}
	if (names > 1)
		m->exact = NULL;
	m->known = true;
}

/* @addr's answers, looked up the first time it is asked for. */
static const struct lt_ksym_memo *memo_of(const struct lt_ksyms *k,
					  uint64_t addr)
{
	struct lt_ksym_memo *m;

	m = &k->memo[((addr >> 4) ^ (addr >> 16)) & (KSYMS_MEMO - 1)];
	if (!m->known || m->addr != addr)
		lookup(k, addr, m);
	return m;
}

/*
 * The function starting at @addr: NULL when none does, or when several
 * names share the address (left to libtraceevent's choice).
 */
const char *lt_ksyms_exact(const struct lt_ksyms *k, uint64_t addr)
{
	return memo_of(k, addr)->exact;
}

/*
 * The module of the function starting at @addr, as %pS names it after
 * the offset; NULL for the kernel's own functions and unknown addresses.
 */
const char *lt_ksyms_module(const struct lt_ksyms *k, uint64_t addr)
{
	return memo_of(k, addr)->mod;
}

void lt_ksyms_free(struct lt_ksyms *k)
{
	free(k->text);
	free(k->sym);
	free(k->run);
	free(k->memo);
	memset(k, 0, sizeof(*k));
}

/* Every symbol, in libtraceevent's order: by address, later lines first. */
static int cmp_func(const void *a, const void *b)
{
	const struct lt_kfunc *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* its list is built by prepending, then sorted stably */
	return x->idx > y->idx ? -1 : x->idx < y->idx;
}

/*
 * Sort @f (@n entries) as qsort() with cmp_func() would. kallsyms lists
 * the kernel's own functions in one ascending run (199k of 202k entries
 * on Debian's 7.2) and each module's in a run of its own: only the
 * entries outside the longest run are sorted, then merged into it.
 * cmp_func() is a total order (no two lines share an index), so the
 * result is the one qsort() gives.
 */
static void sort_funcs(struct lt_kfunc *f, size_t n)
{
	size_t i, j, k, ls = 0, le = 0, start = 0, nr;
	struct lt_kfunc *rest, tmp;

	/* the longest run of addresses that do not go down */
	for (i = 1; i <= n; i++) {
		if (i < n && f[i].addr >= f[i - 1].addr)
			continue;
		if (i - start > le - ls) {
			ls = start;
			le = i;
		}
		start = i;
	}
	if (n < 2 || le - ls < n / 2) {
		qsort(f, n, sizeof(*f), cmp_func);
		return;
	}
	/* the same address on lines in a row: later lines first */
	for (i = ls; i < le; i = j) {
		for (j = i + 1; j < le && f[j].addr == f[i].addr; j++)
			;
		for (k = 0; k < (j - i) / 2; k++) {
			tmp = f[i + k];
			f[i + k] = f[j - 1 - k];
			f[j - 1 - k] = tmp;
		}
	}
	nr = n - (le - ls);
	rest = malloc((nr ? nr : 1) * sizeof(*rest));
	if (!rest) {
		qsort(f, n, sizeof(*f), cmp_func);
		return;
	}
	memcpy(rest, f, ls * sizeof(*f));
	memcpy(rest + ls, f + le, (n - le) * sizeof(*f));
	qsort(rest, nr, sizeof(*rest), cmp_func);
	memmove(f, f + ls, (le - ls) * sizeof(*f));
	/* merge from the end: the run in f[0, i), the rest in rest[0, j) */
	i = le - ls;
	j = nr;
	k = n;
	while (j) {
		if (i && cmp_func(&f[i - 1], &rest[j - 1]) > 0)
			f[--k] = f[--i];
		else
			f[--k] = rest[--j];
	}
	free(rest);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/*
 * Take @text (malloc'd, @len bytes and a NUL) and keep what
 * tep_parse_kallsyms() keeps: each line's "%16llx %c NAME" with NAME not
 * starting with '$' and a type other than 'A' and 'a'; the first line it
 * cannot read ends the table, as it ends its parse.
 */
int lt_ksyms_all_init(struct lt_ksyms_all *t, char *text, size_t len)
{
	/* it reads a copy made with strdup(): up to a NUL */
	char *p = text, *end = text + strnlen(text, len), *eol, *n;
	/* the shortest line it reads is "0tx\n" */
	size_t max = len / 4 + 2, line = 0;
	uint64_t addr;
	int x, width;
	char type;

	memset(t, 0, sizeof(*t));
	t->text = text;
	t->f = malloc(max * sizeof(*t->f));
	if (!t->f) {
		lt_ksyms_all_free(t);
		return -1;
	}
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (eol == p)
			continue;	/* strtok() skips empty lines */
		line++;
		while (p < eol && is_space(*p))
			p++;
		width = 0;
		if (eol - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x' &&
		    hex(p[2]) >= 0) {
			p += 2;
			width = 2;
		}
		addr = 0;
		for (x = -1; width < 16 && p < eol &&
			     (x = hex(*p)) >= 0; p++, width++)
			addr = addr << 4 | x;
		if (!width)
			break;		/* no number: its parse ends */
		while (p < eol && is_space(*p))
			p++;
		if (p == eol)
			break;
		type = *p++;
		while (p < eol && is_space(*p))
			p++;
		n = p;
		while (p < eol && !is_space(*p) && *p)
			p++;
		if (p == n)
			break;		/* no name */
		*p = '\0';
		if (n[0] == '$' || type == 'A' || type == 'a')
			continue;
		if (t->nr + 1 >= max)
			break;
		t->f[t->nr++] = (struct lt_kfunc){ addr, n, line };
	}
	sort_funcs(t->f, t->nr);
	t->f[t->nr] = (struct lt_kfunc){ 0, NULL, 0 };
	return 0;
}

/*
 * The function containing @addr, as tep_find_function_info() finds it:
 * its binary search, its comparison (an address matches a symbol at it,
 * or between it and the next; the last symbol only exactly), its size
 * (the distance to the next symbol).
 */
const char *lt_ksyms_find(const struct lt_ksyms_all *t, uint64_t addr,
			  uint64_t *start, uint64_t *size)
{
	size_t lo = 0, hi = t->nr, mid;
	const struct lt_kfunc *f;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		f = &t->f[mid];
		if (addr == f->addr || (addr > f->addr && addr < f[1].addr)) {
			*start = f->addr;
			*size = f[1].addr - f->addr;
			return f->name;
		}
		if (addr < f->addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void lt_ksyms_all_free(struct lt_ksyms_all *t)
{
	free(t->text);
	free(t->f);
	memset(t, 0, sizeof(*t));
}
