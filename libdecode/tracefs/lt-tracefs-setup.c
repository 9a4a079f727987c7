// SPDX-License-Identifier: LGPL-2.1
/*
 * The setup line: how the kernel being recorded is set up (release,
 * preemption model, HZ, the scheduler features that decide who forces a
 * preemption), written into the instance through trace_marker when
 * tracing starts (lt_tracefs_mark_setup()), so that the recording
 * carries it (see lt-setup.c for the format).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "lt-tracefs.h"

#define SCHED_DEBUG "/sys/kernel/debug/sched"

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = fopen(path, "re");

	if (!fp)
		return NULL;
	if (getdelim(&buf, &size, '\0', fp) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* "none voluntary (full) lazy" or "full (lazy)": the one in parentheses. */
static void preempt_mode(const char *text, char *out, size_t len)
{
	const char *p = text ? strchr(text, '(') : NULL;
	size_t n;

	out[0] = '\0';
	if (!p)
		return;
	n = strcspn(p + 1, ")");
	if (n >= len)
		n = len - 1;
	memcpy(out, p + 1, n);
	out[n] = '\0';
}

/* Whether a feature bears on who forces a preemption, and when. */
static bool relevant(const char *f)
{
	static const char *const names[] = {
		"HRTICK", "HRTICK_DL", "PREEMPT_SHORT", "RUN_TO_PARITY",
		"WAKEUP_PREEMPTION", "PLACE_LAG", "DELAY_DEQUEUE",
	};
	size_t i;

	if (!strncmp(f, "NO_", 3))
		f += 3;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(f, names[i]))
			return true;
	return false;
}

static void features(const char *text, char *out, size_t len)
{
	char *dup = text ? strdup(text) : NULL, *tok, *save = NULL;
	size_t n = 0;

	out[0] = '\0';
	if (!dup)
		return;
	for (tok = strtok_r(dup, " \t\n", &save); tok && n < len;
	     tok = strtok_r(NULL, " \t\n", &save))
		if (relevant(tok))
			n += snprintf(out + n, len - n, "%s%s", n ? "," : "",
				      tok);
	free(dup);
}

/*
 * CONFIG_HZ from /boot/config-RELEASE, /lib/modules/RELEASE/config (where
 * Debian's 7.x packages install it) or /proc/config.gz; 0 if unknown.
 */
static unsigned int config_hz(const char *release)
{
	char path[300], line[256];
	unsigned int hz = 0;
	FILE *fp;
	bool gz = false;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	fp = fopen(path, "re");
	if (!fp) {
		snprintf(path, sizeof(path), "/lib/modules/%s/config", release);
		fp = fopen(path, "re");
	}
	if (!fp && access("/proc/config.gz", R_OK) == 0) {
		fp = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		gz = fp != NULL;
	}
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
			break;
	if (gz)
		pclose(fp);
	else
		fclose(fp);
	return hz;
}

/* debugfs holds sched/preempt and sched/features: mount it for a moment. */
static bool mount_debugfs(void)
{
	struct stat st;

	/* only root mounts; others read what is there */
	if (geteuid() != 0 || stat(SCHED_DEBUG, &st) == 0)
		return false;
	return mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0;
}

void lt_tracefs_setup_line(char *buf, size_t len)
{
	char mode[16], feat[256];
	struct utsname u;
	bool mounted = mount_debugfs();
	char *text;
	unsigned int hz;
	size_t n;

	n = snprintf(buf, len, "lazytrace-setup:");
	if (!uname(&u) && n < len)
		n += snprintf(buf + n, len - n, " release=%s", u.release);
	text = slurp(SCHED_DEBUG "/preempt");
	preempt_mode(text, mode, sizeof(mode));
	free(text);
	if (mode[0] && n < len)
		n += snprintf(buf + n, len - n, " preempt=%s", mode);
	hz = config_hz(u.release);
	if (hz && n < len)
		n += snprintf(buf + n, len - n, " hz=%u", hz);
	text = slurp(SCHED_DEBUG "/features");
	features(text, feat, sizeof(feat));
	free(text);
	if (feat[0] && n < len)
		snprintf(buf + n, len - n, " sched_features=%s", feat);
	if (mounted)
		umount("/sys/kernel/debug");
}
