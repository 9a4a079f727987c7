/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files private to the invoking user, and the user record's
 * command runs as (cli/private.c).
 */
#ifndef _LT_PRIVATE_H
#define _LT_PRIVATE_H

#include <stdbool.h>
#include <sys/types.h>

/* Under sudo (root with SUDO_UID/SUDO_GID): the invoking user's ids. */
bool sudo_user(uid_t *uid, gid_t *gid);

/*
 * A new file next to @path (*tmp, to pass to private_commit() or
 * private_abort()), mode 0600 or with @world_readable 0644 less the
 * umask, owned by the sudo user where there is one. Returns its
 * descriptor, or -1 with errno set.
 */
int private_create(const char *path, bool world_readable, char **tmp);

/* Rename *tmp to @path (replacing, never following, a link); frees @tmp. */
int private_commit(char *tmp, const char *path);

/* Remove and free what private_create() made; NULL is fine. */
void private_abort(char *tmp);

/* The user a command runs as; inactive: as lazytrace itself. */
struct run_as {
	bool active;
	uid_t uid;
	gid_t gid;
	char *name;
	char *home;
	char *shell;
	gid_t *groups;
	int nr_groups;
};

/*
 * Look up @user (a name or a uid; NULL: the sudo user, if any) before
 * the fork. Prints one line and returns -1 for an unknown user or when
 * not root; says so on stderr when the sudo user is taken by default.
 */
int run_as_lookup(struct run_as *ra, const char *user, const char *who);

/*
 * In the child, before exec: supplementary groups, gid, uid, then HOME,
 * USER, LOGNAME and SHELL as runuser sets them (PATH is kept).
 */
int run_as_drop(const struct run_as *ra);

void run_as_free(struct run_as *ra);

#endif
