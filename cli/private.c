// SPDX-License-Identifier: GPL-2.0
/*
 * Least privilege for record, live and export: output files that hold
 * kernel addresses are private to the user who asked for them, and the
 * command record starts runs as that user, not as root.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "private.h"

/* A decimal id from the environment, or -1. */
static long env_id(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long id;

	if (!v || !*v)
		return -1;
	errno = 0;
	id = strtol(v, &end, 10);
	if (errno || *end || id < 0 || id >= INT_MAX)
		return -1;
	return id;
}

bool sudo_user(uid_t *uid, gid_t *gid)
{
	long u, g;

	if (geteuid() != 0)
		return false;
	u = env_id("SUDO_UID");
	g = env_id("SUDO_GID");
	if (u <= 0 || g < 0)
		return false;
	*uid = u;
	*gid = g;
	return true;
}

/* A private file is 0600; a world-readable one follows the umask. */
static mode_t file_mode(bool world_readable)
{
	mode_t mask;

	if (!world_readable)
		return 0600;
	mask = umask(0);
	umask(mask);
	return 0644 & ~mask;
}

int private_create(const char *path, bool world_readable, char **tmp)
{
	uid_t uid;
	gid_t gid;
	int fd, err;

	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return -1;
	}
	/*
	 * A new name (O_EXCL, 0600 from the start), renamed over @path at
	 * the end: a link planted at @path or at a fixed temporary name
	 * is replaced, never followed.
	 */
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd >= 0 && !fchmod(fd, file_mode(world_readable)) &&
	    (!sudo_user(&uid, &gid) || !fchown(fd, uid, gid)))
		return fd;
	err = errno;
	if (fd >= 0) {
		close(fd);
		unlink(*tmp);
	}
	free(*tmp);
	*tmp = NULL;
	errno = err;
	return -1;
}

int private_commit(char *tmp, const char *path)
{
	int ret = rename(tmp, path), err = errno;

	if (ret)
		unlink(tmp);
	free(tmp);
	errno = err;
	return ret;
}

void private_abort(char *tmp)
{
	if (tmp)
		unlink(tmp);
	free(tmp);
}

int run_as_lookup(struct run_as *ra, const char *user, const char *who)
{
	struct passwd *pw;
	uid_t sudo_uid;
	gid_t sudo_gid;
	bool from_sudo = false;
	char *end;
	long id;

	memset(ra, 0, sizeof(*ra));
	if (!user) {
		if (!sudo_user(&sudo_uid, &sudo_gid))
			return 0;
		from_sudo = true;
		errno = 0;
		pw = getpwuid(sudo_uid);
	} else {
		errno = 0;
		pw = getpwnam(user);
		id = strtol(user, &end, 10);
		if (!pw && *user && !*end && id >= 0 && id < INT_MAX) {
			errno = 0;
			pw = getpwuid(id);
		}
	}
	if (!pw) {
		if (from_sudo)
			fprintf(stderr, "lazytrace %s: SUDO_UID %u is no user in the password database\n",
				who, sudo_uid);
		else
			fprintf(stderr, "lazytrace %s: no such user '%s'\n",
				who, user);
		return -1;
	}
	ra->uid = pw->pw_uid;
	ra->gid = from_sudo ? sudo_gid : pw->pw_gid;
	if (ra->uid == geteuid() && !from_sudo && ra->uid != 0 &&
	    ra->gid == getegid())
		return 0;	/* already that user: nothing to drop */
	if (geteuid() != 0) {
		fprintf(stderr, "lazytrace %s: -u %s: only root can run the command as another user\n",
			who, user);
		return -1;
	}
	if (ra->uid == 0 && ra->gid == 0 && !from_sudo)
		return 0;	/* -u root: stays root */
	/* Everything the child needs, looked up before the fork. */
	ra->name = strdup(pw->pw_name);
	ra->home = strdup(pw->pw_dir);
	ra->shell = strdup(pw->pw_shell && *pw->pw_shell ? pw->pw_shell :
			   "/bin/sh");
	ra->nr_groups = 64;
	for (;;) {
		ra->groups = realloc(ra->groups,
				     ra->nr_groups * sizeof(*ra->groups));
		if (!ra->groups)
			break;
		if (getgrouplist(pw->pw_name, ra->gid, ra->groups,
				 &ra->nr_groups) >= 0)
			break;
		if (ra->nr_groups > 65536) {
			free(ra->groups);
			ra->groups = NULL;
			break;
		}
	}
	if (!ra->name || !ra->home || !ra->shell || !ra->groups) {
		fprintf(stderr, "lazytrace %s: out of memory\n", who);
		run_as_free(ra);
		return -1;
	}
	ra->active = true;
	if (from_sudo)
		fprintf(stderr, "lazytrace %s: running the command as %s (uid %u, gid %u from SUDO_UID/SUDO_GID); -u root runs it as root\n",
			who, ra->name, (unsigned int)ra->uid,
			(unsigned int)ra->gid);
	return 0;
}

int run_as_drop(const struct run_as *ra)
{
	if (!ra->active)
		return 0;
	/* The order runuser takes: groups, then gid, then uid. */
	if (setgroups(ra->nr_groups, ra->groups) || setgid(ra->gid) ||
	    setuid(ra->uid))
		return -1;
	/* Root again would mean the drop did not take. */
	if (ra->uid != 0 && (setuid(0) == 0 || geteuid() == 0)) {
		errno = EPERM;
		return -1;
	}
	if (setenv("HOME", ra->home, 1) || setenv("USER", ra->name, 1) ||
	    setenv("LOGNAME", ra->name, 1) || setenv("SHELL", ra->shell, 1))
		return -1;
	return 0;
}

void run_as_free(struct run_as *ra)
{
	free(ra->name);
	free(ra->home);
	free(ra->shell);
	free(ra->groups);
	memset(ra, 0, sizeof(*ra));
}
