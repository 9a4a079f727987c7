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

/* What the kernel's config says, where lazytrace can find it. */
struct kconfig {
	bool found;
	unsigned int hz;	/* CONFIG_HZ, 0 if not said */
	bool lazy;		/* CONFIG_PREEMPT_LAZY=y */
};

/*
 * The config from /boot/config-RELEASE, /lib/modules/RELEASE/config (where
 * Debian's 7.x packages install it) or /proc/config.gz.
 */
static void read_kconfig(const char *release, struct kconfig *kc)
{
	char path[300], line[256];
	FILE *fp;
	bool gz = false;

	memset(kc, 0, sizeof(*kc));
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
		return;
	while (fgets(line, sizeof(line), fp)) {
		kc->found = true;
		if (!kc->hz && sscanf(line, "CONFIG_HZ=%u", &kc->hz) == 1)
			continue;
		if (!strcmp(line, "CONFIG_PREEMPT_LAZY=y\n"))
			kc->lazy = true;
	}
	if (gz)
		pclose(fp);
	else
		fclose(fp);
}

/*
 * Whether this kernel can preempt lazily, said before anything is recorded:
 * a recording of a kernel without it holds no lazy request at all.
 * sched/preempt lists the modes built in ("none voluntary (full) lazy");
 * without it (no PREEMPT_DYNAMIC, or debugfs closed) the config decides.
 */
static void lazy_capability(const char *modes, const char *mode,
			    const struct kconfig *kc, char *out, size_t len,
			    char *token, size_t token_len)
{
	bool listed = modes && strstr(modes, "lazy");

	/* the token goes into the setup line: lazy=STATE[:WHY] (lt-setup.c) */
	if (!strcmp(mode, "lazy")) {
		snprintf(out, len, "lazy preemption: active (preempt=lazy)");
		snprintf(token, token_len, "active");
	} else if (listed || kc->lazy) {
		snprintf(out, len,
			 "lazy preemption: built in but not the current mode%s%s%s: no lazy request will be recorded (boot with preempt=lazy, or write lazy to %s/preempt)",
			 mode[0] ? " (preempt=" : "", mode, mode[0] ? ")" : "",
			 SCHED_DEBUG);
		snprintf(token, token_len, "built_in");
	} else if (modes || kc->found) {
		snprintf(out, len,
			 "lazy preemption: absent from this kernel (%s): every request is eager",
			 modes ? "sched/preempt lists no lazy mode" :
				 "CONFIG_PREEMPT_LAZY is not set");
		snprintf(token, token_len, "absent:%s",
			 modes ? "sched_preempt" : "config");
	} else {
		snprintf(out, len,
			 "lazy preemption: unknown (no %s/preempt and no kernel config to read)",
			 SCHED_DEBUG);
		snprintf(token, token_len, "unknown");
	}
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

void lt_tracefs_setup_line(char *buf, size_t len, char *lazy, size_t lazy_len)
{
	char mode[16], feat[256], token[32];
	struct utsname u;
	bool mounted = mount_debugfs();
	struct kconfig kc = { 0 };
	char *text;
	size_t n;

	n = snprintf(buf, len, "lazytrace-setup:");
	if (!uname(&u)) {
		if (n < len)
			n += snprintf(buf + n, len - n, " release=%s",
				      u.release);
		read_kconfig(u.release, &kc);
	}
	text = slurp(SCHED_DEBUG "/preempt");
	preempt_mode(text, mode, sizeof(mode));
	lazy_capability(text, mode, &kc, lazy, lazy_len, token, sizeof(token));
	free(text);
	if (mode[0] && n < len)
		n += snprintf(buf + n, len - n, " preempt=%s", mode);
	if (kc.hz && n < len)
		n += snprintf(buf + n, len - n, " hz=%u", kc.hz);
	if (n < len)
		n += snprintf(buf + n, len - n, " lazy=%s", token);
	text = slurp(SCHED_DEBUG "/features");
	features(text, feat, sizeof(feat));
	free(text);
	if (feat[0] && n < len)
		snprintf(buf + n, len - n, " sched_features=%s", feat);
	if (mounted)
		umount("/sys/kernel/debug");
}
