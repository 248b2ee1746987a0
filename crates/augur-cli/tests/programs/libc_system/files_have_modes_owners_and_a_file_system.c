/* Modes through the creation mask, chmod and fchmod; owners only the user's;
 * statfs and statvfs of the one volume; an input file's mode. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void show(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        printf("%s: errno %d\n", path, errno);
    else
        printf("%s: %s %o\n", path, S_ISDIR(st.st_mode) ? "dir" : "file", st.st_mode & 07777);
}

int main(void)
{
    struct statfs fs;
    struct statvfs vfs;
    struct stat st;
    int fd;

    printf("umask was %o\n", umask(077));
    fd = open("private", O_CREAT | O_WRONLY, 0666);
    mkdir("box", 0777);
    printf("umask was %o\n", umask(022));
    mkdir("box/open", 0777);
    show("private");
    show("box");
    show("box/open");
    show("A");
    printf("chmod %d\n", chmod("private", 04751));
    show("private");
    printf("fchmod %d\n", fchmod(fd, 0604));
    fstat(fd, &st);
    printf("fstat %o\n", st.st_mode & 07777);
    printf("chmod missing %d errno %d\n", chmod("missing", 0600), errno);
    printf("chmod dir %d\n", chmod("box", 0700));
    rename("box", "crate");
    show("crate");
    show("crate/open");
    printf("chown own %d\n", chown("private", 1000, (gid_t)-1));
    printf("chown root %d errno %d\n", chown("private", 0, 0), errno);
    printf("fchown own %d\n", fchown(fd, (uid_t)-1, 1000));
    printf("statfs %d type %lx bsize %ld\n", statfs(".", &fs), (long)fs.f_type, (long)fs.f_bsize);
    printf("fstatfs %d blocks %lu\n", fstatfs(fd, &fs), (unsigned long)fs.f_blocks);
    printf("statvfs %d bavail %lu flag %lx namemax %lu\n", statvfs("crate", &vfs),
           (unsigned long)vfs.f_bavail, (unsigned long)vfs.f_flag, (unsigned long)vfs.f_namemax);
    printf("statfs missing %d errno %d\n", statfs("missing", &fs), errno);
    return 0;
}
