/* fixed_volume.h: the one file system of augur's fixed world (statfs and statvfs), shared
 * by the libc models (libc/attrs.c) and the native replay runtime, so that a program
 * asking about its volume gets the same answer under analysis and in replay: ext4, 1 GiB
 * in 4 KiB blocks, half free. Each macro fills a `struct statfs` (or `struct statvfs`)
 * whose fields have the kernel's names, as glibc's and the models' do. */
#ifndef AUGUR_FIXED_VOLUME_H
#define AUGUR_FIXED_VOLUME_H

#define AUGUR_STATFS_VALID 0x20     /* Linux's ST_VALID: the flags are set */
#define AUGUR_STATFS_RELATIME 0x1000 /* ST_RELATIME */

/* The 512-byte blocks (stat's st_blocks) a file of `size` bytes takes on the volume: whole
 * 4 KiB blocks, as ext4 allocates them (a byte takes 8). The replay shows its own files
 * so, whatever its file system allocates. */
#define AUGUR_FIXED_BLOCKS(size) ((((long)(size) + 4095) / 4096) * 8)

/* The volume as statfs gives it. */
#define AUGUR_FIXED_VOLUME(out)                                                           \
  do {                                                                                    \
    memset((out), 0, sizeof *(out));                                                      \
    (out)->f_type = 0xEF53; /* ext4 */                                                    \
    (out)->f_bsize = (out)->f_frsize = 4096;                                              \
    (out)->f_blocks = 262144;                                                             \
    (out)->f_bfree = (out)->f_bavail = 131072;                                            \
    (out)->f_files = 65536;                                                               \
    (out)->f_ffree = 32768;                                                               \
    (out)->f_namelen = 255;                                                               \
    (out)->f_flags = AUGUR_STATFS_VALID | AUGUR_STATFS_RELATIME;                          \
  } while (0)

/* statvfs `out` from statfs `fs`, as glibc derives it (ST_VALID dropped). */
#define AUGUR_VOLUME_AS_VFS(fs, out)                                                      \
  do {                                                                                    \
    memset((out), 0, sizeof *(out));                                                      \
    (out)->f_bsize = (fs)->f_bsize;                                                       \
    (out)->f_frsize = (fs)->f_frsize;                                                     \
    (out)->f_blocks = (fs)->f_blocks;                                                     \
    (out)->f_bfree = (fs)->f_bfree;                                                       \
    (out)->f_bavail = (fs)->f_bavail;                                                     \
    (out)->f_files = (fs)->f_files;                                                       \
    (out)->f_ffree = (out)->f_favail = (fs)->f_ffree;                                     \
    (out)->f_namemax = (fs)->f_namelen;                                                   \
    (out)->f_flag = (fs)->f_flags & ~AUGUR_STATFS_VALID;                                  \
  } while (0)

#endif
