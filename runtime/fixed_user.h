/* fixed_user.h: the user of augur's fixed world, shared by the libc models
 * (libc/process.c: the ids and the passwd entry; libc/attrs.c: chown's rule) and the
 * native replay runtime (the same chown rule), so that a program asking who it is, or
 * giving a file away, gets the same answer under analysis and in replay: a user who is
 * not root, uid 1000, in its own group 1000. */
#ifndef AUGUR_FIXED_USER_H
#define AUGUR_FIXED_USER_H

#define AUGUR_USER_ID 1000u /* uid, and the gid of the user's one group */

#endif
