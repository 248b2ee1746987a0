/* fixed_user.h: the user of augur's fixed world, shared by the libc models
 * (libc/process.c: the ids and the passwd and group entries; libc/attrs.c: chown's rule)
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

#endif
