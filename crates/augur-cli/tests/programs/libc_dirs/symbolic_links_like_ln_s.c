/* Symbolic links as ln -s, ls -l, readlink, cp -P and rm use them: made, read, stat'ed
 * through and as themselves, listed, followed by open, chdir and the *at calls, renamed
 * and removed; dangling links, loops, O_NOFOLLOW and exclusive creation; owners, times
 * and modes of a link itself. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *err(int r)
{
    if (r >= 0)
        return "ok";
    switch (errno) {
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case EINVAL: return "EINVAL";
    case ELOOP: return "ELOOP";
    case ENOTDIR: return "ENOTDIR";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    default: return "other";
    }
}

static void show_link(const char *path)
{
    char buf[64];
    long n = readlink(path, buf, sizeof buf);
    struct stat st;
    if (n < 0) {
        printf("readlink %s: %s\n", path, err(-1));
        return;
    }
    lstat(path, &st);
    printf("%s -> %.*s (lnk %d mode %o size %ld blocks %ld ino %lu)\n", path, (int)n, buf,
           S_ISLNK(st.st_mode), st.st_mode & 07777, (long)st.st_size, (long)st.st_blocks,
           (unsigned long)st.st_ino);
}

int main(void)
{
    struct stat st, lst;
    char buf[64];
    DIR *d;
    struct dirent *e;
    int fd;

    mkdir("dir", 0755);
    fd = open("dir/file", O_WRONLY | O_CREAT, 0644);
    write(fd, "hello\n", 6);
    close(fd);

    printf("symlink: %s\n", err(symlink("dir/file", "lf")));
    printf("symlink dir: %s\n", err(symlink("dir", "ld")));
    printf("symlink dangling: %s\n", err(symlink("nowhere", "dang")));
    printf("symlink again: %s\n", err(symlink("x", "lf")));
    printf("symlink empty: %s\n", err(symlink("", "empty")));
    printf("symlinkat: %s\n", err(symlinkat("../lf", open("dir", O_RDONLY), "back")));
    show_link("lf");
    show_link("dir/back");
    show_link("dir/file");
    show_link("missing");

    stat("lf", &st);
    lstat("lf", &lst);
    printf("stat through: reg %d size %ld, same file %d, link differs %d\n", S_ISREG(st.st_mode),
           (long)st.st_size, st.st_ino == (stat("dir/file", &lst), lst.st_ino),
           (lstat("lf", &lst), lst.st_ino != st.st_ino));
    printf("stat dangling: %s, lstat dangling: %s\n", err(stat("dang", &st)),
           err(lstat("dang", &st)));
    printf("fstatat nofollow: lnk %d\n",
           (fstatat(AT_FDCWD, "ld", &st, AT_SYMLINK_NOFOLLOW), S_ISLNK(st.st_mode)));

    fd = open("dir/back", O_RDONLY);
    memset(buf, 0, sizeof buf);
    read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("read through two links: %s", buf);
    printf("open nofollow: %s\n", err(open("lf", O_RDONLY | O_NOFOLLOW)));
    printf("open excl: %s\n", err(open("dang", O_WRONLY | O_CREAT | O_EXCL, 0644)));
    fd = open("dang", O_WRONLY | O_CREAT, 0644);
    printf("create through dangling: %s, target now %s\n", err(fd),
           err(stat("nowhere", &st)));
    close(fd);

    printf("symlink loop: %s %s\n", err(symlink("loop2", "loop1")),
           err(symlink("loop1", "loop2")));
    printf("open loop: %s\n", err(open("loop1", O_RDONLY)));
    printf("mkdir on link: %s\n", err(mkdir("ld", 0755)));
    printf("rmdir on link: %s\n", err(rmdir("ld")));
    printf("chown loop: %s, lchown loop: %s\n", err(chown("loop1", -1, -1)),
           err(lchown("loop1", -1, -1)));
    printf("utimensat nofollow: %s, fchmodat nofollow: %s %s\n",
           err(utimensat(AT_FDCWD, "loop1", NULL, AT_SYMLINK_NOFOLLOW)),
           err(fchmodat(AT_FDCWD, "ld", 0700, AT_SYMLINK_NOFOLLOW)),
           err(fchmodat(AT_FDCWD, "dir/file", 0600, AT_SYMLINK_NOFOLLOW)));

    printf("chdir ld: %s\n", err(chdir("ld")));
    printf("cwd %s\n", getcwd(buf, sizeof buf));
    printf("stat ../lf: %s\n", err(stat("../lf", &st)));
    chdir("..");
    printf("stat ld/file: %s, ld/ is dir %d\n", err(stat("ld/file", &st)),
           (stat("ld/", &st), S_ISDIR(st.st_mode)));

    d = opendir(".");
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.')
            printf("%s:%s ", e->d_name,
                   e->d_type == DT_LNK ? "lnk" : e->d_type == DT_DIR ? "dir" : "reg");
    }
    closedir(d);
    printf("\n");

    printf("linkat follow: %s, ", err(linkat(AT_FDCWD, "dir/back", AT_FDCWD, "hard", AT_SYMLINK_FOLLOW)));
    printf("reg %d\n", lstat("hard", &st) == 0 && S_ISREG(st.st_mode));
    printf("rename link: %s\n", err(rename("lf", "lf2")));
    show_link("lf2");
    printf("unlink link: %s, target kept: %s\n", err(unlink("lf2")), err(stat("dir/file", &st)));
    printf("hard link to link: %s\n", err(link("ld", "ld2")));
    show_link("ld2");
    return 0;
}
