// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's small parsers and writers (cli/util.c): CPU and pid lists,
 * times with units, JSON string escaping and RFC 4180 CSV quoting. The
 * expected outputs are written from the formats' rules (RFC 8259 for
 * JSON, RFC 4180 for CSV), not from the code under test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cli/cli.h"

/* The set as "a b c" for comparing; "" if parsing failed. */
static char *set_of(const char *list, char *buf, size_t len)
{
	struct int_set s = { 0 };
	size_t n = 0;
	int i;

	buf[0] = '\0';
	if (int_set_parse(&s, list) == 0)
		for (i = 0; i < s.nr && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%d", i ? " " : "",
				      s.v[i]);
	int_set_free(&s);
	return buf;
}

static void test_int_set(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "0", "0" },
		{ "3", "3" },
		{ "1,3", "1 3" },
		{ "0-3", "0 1 2 3" },
		{ "0,2-4,7", "0 2 3 4 7" },
		{ "5-5", "5" },
		{ "1,", "1" },			/* a trailing comma is harmless */
		/* mistakes: all refused */
		{ "", "" },
		{ ",", "" },
		{ "-1", "" },
		{ "3-1", "" },			/* backwards range */
		{ "1-", "" },
		{ "a", "" },
		{ "1;2", "" },
		{ "1 2", "" },
		{ "0x3", "" },
		{ "99999999999", "" },		/* beyond int */
		{ "0-2000000000", "" },		/* a range that would eat memory */
	};
	struct int_set s = { 0 };
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_of(cases[i].in, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			fail_msg("'%s' -> '%s', want '%s'", cases[i].in, buf,
				 cases[i].want);
	}
	assert_int_equal(int_set_parse(&s, "1,4-6"), 0);
	assert_true(int_set_has(&s, 5));
	assert_false(int_set_has(&s, 3));
	assert_int_equal(int_set_max(&s), 6);
	int_set_free(&s);
	assert_int_equal(int_set_max(&s), -1);
}

static void test_time(void **state)
{
	static const struct { const char *in; long long want; } cases[] = {
		{ "0", 0 },
		{ "1", 1000000000LL },		/* bare: seconds */
		{ "7.25", 7250000000LL },
		{ "1.5s", 1500000000LL },
		{ "7250ms", 7250000000LL },
		{ "20us", 20000LL },
		{ "300ns", 300LL },
		{ "0.000001", 1000LL },
		{ "1.000000001", 1000000001LL },
		{ "1.0000000005", -1 },		/* below a nanosecond */
		{ "", -1 },
		{ "s", -1 },
		{ "-1", -1 },			/* no negative times */
		{ "1m", -1 },			/* minutes are not a unit */
		{ "1 s", -1 },
		{ "yesterday", -1 },
		{ "1e11", -1 },			/* beyond any trace */
		{ "nan", -1 },			/* strtod takes these three */
		{ "inf", -1 },
		{ "0x10", -1 },
		{ ".5", 500000000LL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long got = parse_time_ns(cases[i].in);

		if (got != cases[i].want)
			fail_msg("'%s' -> %lld, want %lld", cases[i].in, got,
				 cases[i].want);
	}
}

/* What @fn writes to a FILE, as a string the caller frees. */
#define CAPTURE(buf, code) do {					\
	size_t _len;						\
	FILE *fp = open_memstream(&(buf), &_len);		\
								\
	assert_non_null(fp);					\
	code;							\
	fclose(fp);						\
} while (0)

static void test_json_escaping(void **state)
{
	char *out = NULL;
	struct json j;

	(void)state;
	CAPTURE(out, {
		json_init(&j, fp, false);
		json_begin_object(&j, NULL);
		json_str(&j, "plain", "sh");
		json_str(&j, "quote", "a\"b");
		json_str(&j, "backslash", "a\\b");
		json_str(&j, "newline", "a\nb");
		json_str(&j, "tab", "a\tb");
		json_str(&j, "control", "a\001b\037c\177d");
		json_str(&j, "utf8", "caf\xc3\xa9");
		json_str(&j, "null", NULL);
		json_str(&j, "key\"q", "v");
		json_double(&j, "nan", 0.0 / 0.0);
		json_begin_array(&j, "list");
		json_int(&j, NULL, -1);
		json_uint(&j, NULL, 18446744073709551615ULL);
		json_usec(&j, NULL, 12345);
		json_usec(&j, NULL, 7);
		json_end_array(&j);
		json_end_object(&j);
	});
	assert_string_equal(out,
		"{\"plain\":\"sh\",\"quote\":\"a\\\"b\","
		"\"backslash\":\"a\\\\b\",\"newline\":\"a\\nb\","
		"\"tab\":\"a\\tb\","
		"\"control\":\"a\\u0001b\\u001fc\\u007fd\","
		"\"utf8\":\"caf\xc3\xa9\",\"null\":null,\"key\\\"q\":\"v\","
		"\"nan\":null,\"list\":[-1,18446744073709551615,12.345,0.007]}");
	free(out);
}

static void test_csv_quoting(void **state)
{
	char *out = NULL;

	(void)state;
	CAPTURE(out, {
		csv_field(fp, "plain", false);
		csv_field(fp, "a,b", false);
		csv_field(fp, "say \"hi\"", false);
		csv_field(fp, "two\nlines", false);
		csv_field(fp, "cr\r", false);
		csv_field(fp, "", false);
		csv_field(fp, " spaced ", true);
	});
	assert_string_equal(out,
		"plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",, spaced \n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_set),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_csv_quoting),
	};

	return cmocka_run_group_tests_name("cli-util", tests, NULL, NULL);
}
