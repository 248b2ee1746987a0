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

/* The blocks of a symbolic link whose target is `len` bytes long: none for a target ext4
 * keeps in the inode itself (a "fast" link, under 60 bytes), else one 4 KiB block. */
#define AUGUR_FIXED_LINK_BLOCKS(len) ((long)(len) < 60 ? 0L : 8L)

/* The volume's device (stat's st_dev): 8:1, a first disk's first partition. */
#define AUGUR_FIXED_DEV 0x801
/* Its inode numbers, given in the order files are made, as a fresh tmpfs gives them (the
 * replay's native runs have one: augur-env's replay/private_root.rs): its root, unseen, is
 * 1, standard input (when a file) 2, /augur 3, the working directory /augur/work 4, /tmp
 * 5, then each file and directory the analysis knows, by its entry number `i` (the test's
 * files in order, then each one made, mkdir's included). */
#define AUGUR_FIXED_INO_STDIN 2
#define AUGUR_FIXED_INO_PARENT 3
#define AUGUR_FIXED_INO_WORK 4
#define AUGUR_FIXED_INO_TMP 5
#define AUGUR_FIXED_INO(i) (6 + (unsigned long)(i))
/* The size and blocks of a directory, as ext4 gives an empty one (tmpfs's vary with the
 * entries; the replay shows its own directories so). */
#define AUGUR_FIXED_DIR_SIZE 4096
#define AUGUR_FIXED_DIR_BLOCKS 8

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
