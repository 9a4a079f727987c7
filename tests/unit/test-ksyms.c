// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms index (libdecode/read/lt-ksyms.c): functions by exact address
 * in a text of ascending runs (the kernel's, then each module's), names
 * shared by two symbols left unresolved, data symbols and malformed lines
 * skipped, and a text in no order at all sorted into one run. The table
 * of every symbol answers as libtraceevent's tep_find_function_info()
 * does on the same text, address by address.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

#include "../../libdecode/read/lt-internal.h"

static struct lt_ksyms *index_of(const char *text)
{
	struct lt_ksyms *k = malloc(sizeof(*k));
	char *copy = strdup(text);

	assert_non_null(k);
	assert_non_null(copy);
	assert_int_equal(lt_ksyms_init(k, copy, strlen(copy)), 0);
	return k;
}

static void done(struct lt_ksyms *k)
{
	lt_ksyms_free(k);
	free(k);
}

static void test_runs(void **state)
{
	struct lt_ksyms *k = index_of(
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T srso_alias_untrain_ret\n"
		"ffffffff81000100 t tick_nohz_handler\n"
		"ffffffff81000200 d some_data\n"
		"ffffffff81000300 T hrtick\n"
		"garbage line\n"
		"ffffffffc0002000 t mod_b_fn\t[mod_b]\n"
		"ffffffffc0003000 t mod_b_fn2\t[mod_b]\n"
		"ffffffffc0001000 t mod_a_fn\t[mod_a]\n"
		"ffffffffc0001100 W mod_a_weak\t[mod_a]");

	/* mod_b lies above the kernel: two runs, the second mod_a */
	assert_int_equal(k->nr_run, 2);
	assert_string_equal(lt_ksyms_exact(k, 0xffffffff81000100ULL),
			    "tick_nohz_handler");
	assert_string_equal(lt_ksyms_exact(k, 0xffffffff81000300ULL),
			    "hrtick");
	assert_string_equal(lt_ksyms_exact(k, 0xffffffffc0003000ULL),
			    "mod_b_fn2");
	assert_string_equal(lt_ksyms_exact(k, 0xffffffffc0001000ULL),
			    "mod_a_fn");
	/* the last line has no newline; the module's name is cut off */
	assert_string_equal(lt_ksyms_exact(k, 0xffffffffc0001100ULL),
			    "mod_a_weak");
	/* two names at one address, data, inside a function, nothing */
	assert_null(lt_ksyms_exact(k, 0xffffffff81000000ULL));
	assert_null(lt_ksyms_exact(k, 0xffffffff81000200ULL));
	assert_null(lt_ksyms_exact(k, 0xffffffff81000104ULL));
	assert_null(lt_ksyms_exact(k, 0x1234));
	/* %pS's " [mod_b]": each module function's own, none for the kernel */
	assert_string_equal(lt_ksyms_module(k, 0xffffffffc0002000ULL), "mod_b");
	assert_string_equal(lt_ksyms_module(k, 0xffffffffc0001000ULL), "mod_a");
	assert_string_equal(lt_ksyms_module(k, 0xffffffffc0001100ULL), "mod_a");
	assert_null(lt_ksyms_module(k, 0xffffffff81000100ULL));
	assert_null(lt_ksyms_module(k, 0xffffffffc0002004ULL));
	done(k);
}

/* More runs than the index searches one by one: one sorted run. */
static void test_no_order(void **state)
{
	size_t i, n = 3000, len = 0;
	struct lt_ksyms *k;
	char *text = malloc(n * 40), name[32];

	assert_non_null(text);
	for (i = 0; i < n; i++)
		len += sprintf(text + len, "%016zx t fn%zu\n", (n - i) * 16,
			       n - i);
	k = index_of(text);
	assert_int_equal(k->nr_run, 1);
	assert_int_equal(k->nr, n);
	for (i = 1; i <= n; i += 299) {
		sprintf(name, "fn%zu", i);
		assert_string_equal(lt_ksyms_exact(k, i * 16), name);
	}
	assert_null(lt_ksyms_exact(k, 8));
	done(k);
	free(text);
}

/* Name, start and size of the function containing each address, both ways. */
static void same_as_tep(const char *text, const uint64_t *addr, size_t n)
{
	struct tep_handle *tep = tep_alloc();
	struct lt_ksyms_all t;
	unsigned long long tstart;
	unsigned long tsize;
	uint64_t start, size;
	const char *tname, *name;
	size_t i;
	int found;

	assert_non_null(tep);
	assert_int_equal(lt_ksyms_all_init(&t, strdup(text), strlen(text)), 0);
	tep_parse_kallsyms(tep, text);
	for (i = 0; i < n; i++) {
		tname = NULL;
		found = tep_find_function_info(tep, addr[i], &tname, &tstart,
					       &tsize);
		name = lt_ksyms_find(&t, addr[i], &start, &size);
		if (!found || !tname) {
			assert_null(name);
			continue;
		}
		assert_non_null(name);
		assert_string_equal(name, tname);
		assert_int_equal(start, tstart);
		assert_int_equal(size, tsize);
	}
	lt_ksyms_all_free(&t);
	tep_free(tep);
}

/*
 * Duplicates (which of them libtraceevent's search lands on), data, an
 * absolute symbol and '$' names it drops, modules, the last symbol (found
 * only at its address), addresses before the first.
 */
static void test_containing(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 t startup_64\n"
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000100 t $x\n"
		"ffffffff81000100 T alpha\n"
		"ffffffff81000200 D some_data\n"
		"ffffffff81000300 W beta\n"
		"ffffffff81000300 t beta_alias\n"
		"ffffffff81000300 t beta_alias2\n"
		"ffffffff81000400 t gamma\n"
		"\n"
		"ffffffffc0001000 t mod_a_fn\t[mod_a]\n"
		"ffffffffc0000800 t mod_b_fn\t[mod_b]\n"
		"ffffffffc0002000 t last_fn\t[mod_b]";
	uint64_t addr[64];
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < 40; i++)
		addr[n++] = 0xffffffff81000000ULL + i * 0x20;
	addr[n++] = 0xffffffffc0000800ULL;
	addr[n++] = 0xffffffffc0000900ULL;
	addr[n++] = 0xffffffffc0001000ULL;
	addr[n++] = 0xffffffffc0001fffULL;
	addr[n++] = 0xffffffffc0002000ULL;
	addr[n++] = 0xffffffffc0002001ULL;
	addr[n++] = 0x10;
	addr[n++] = 0;
	same_as_tep(text, addr, n);
}

/* Many symbols, several at most addresses: the search's path matters. */
static void test_containing_many(void **state)
{
	size_t i, n = 5000, len = 0, na = 0;
	char *text = malloc(n * 48);
	uint64_t *addr = malloc(3 * n * sizeof(*addr));

	(void)state;
	assert_non_null(text);
	assert_non_null(addr);
	for (i = 0; i < n; i++) {
		uint64_t a = 0xffffffff81000000ULL + (i / 3) * 0x40;

		len += sprintf(text + len, "%016llx %c fn%zu\n",
			       (unsigned long long)a, i % 7 ? 't' : 'T', i);
		addr[na++] = a;
		addr[na++] = a + 0x11;
	}
	same_as_tep(text, addr, na);
	free(addr);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_no_order),
		cmocka_unit_test(test_containing),
		cmocka_unit_test(test_containing_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
