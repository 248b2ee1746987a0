/* fixed_user.h: the user of augur's fixed world, shared by the libc models
 * (libc/process.c: the ids, the passwd and group entries and getgrouplist; libc/attrs.c:
 * chown's rule)
 * and the native replay runtime (the same ids, entries and chown rule, and the files the
 * process makes are the user's), so that a program asking who it is, or giving a file
 * away, gets the same answer under analysis and in replay: a user who is not root, uid
 * 1000, in its own group 1000, beside root. */
#ifndef AUGUR_FIXED_USER_H
#define AUGUR_FIXED_USER_H

#define AUGUR_USER_ID 1000u /* uid, and the gid of the user's one group */
#define AUGUR_USER_NAME "user" /* the user's name and its group's */
#define AUGUR_USER_HOME "/home/user"
#define AUGUR_ROOT_HOME "/root"
#define AUGUR_SHELL "/bin/sh" /* every user's login shell */

/* getgrouplist(user, group, list, ngroups) in this world, as glibc answers it: `group`
 * first, then the groups listing `user` as a member that are not `group` (only the
 * user's own group lists the user); -1 with *ngroups the count when more than
 * *ngroups. The includer has strcmp. */
static inline int augur_fixed_getgrouplist(const char *user, unsigned group,
                                           unsigned *list, int *ngroups)
{
    unsigned found[2];
    int n = 0, i;
    found[n++] = group;
    if (strcmp(user, AUGUR_USER_NAME) == 0 && group != AUGUR_USER_ID)
        found[n++] = AUGUR_USER_ID;
    for (i = 0; i < n && i < *ngroups; i++)
        list[i] = found[i];
    i = n <= *ngroups ? n : -1;
    *ngroups = n;
    return i;
}

#endif
