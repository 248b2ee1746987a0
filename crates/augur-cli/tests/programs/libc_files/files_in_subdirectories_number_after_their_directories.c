/* A test's files in subdirectories: each directory is numbered before the files in it,
 * as the native run makes them (directory, then file), then what the program makes. */
#include <stdio.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
int main(void)
{
    const char *names[] = {"d", "d/f", "g", "d/e", "d/e/h", "made"};
    struct stat st;
    int i;
    mkdir("made", 0755);
    for (i = 0; i < 6; i++) {
        if (stat(names[i], &st) == 0)
            printf("%s %lu %o nlink %lu\n", names[i], (unsigned long)st.st_ino, st.st_mode, (unsigned long)st.st_nlink);
        else
            printf("%s missing\n", names[i]);
    }
    return 0;
}
