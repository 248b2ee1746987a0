/*
 * sandbox.c - the analysed process is alone: the functions that would start
 * another program fail as they do when the system refuses a new process
 * (EAGAIN). system(NULL) says there is no shell (0). fork, vfork, the exec
 * family and wait come from musl, whose system calls fail the same way
 * (syscall.c); these are here because musl's versions need pipes and clone.
 * `augur replay` makes the native program's calls fail alike
 * (runtime/replay/replay.c). pclose is fclose, as glibc's.
 */
#include "libc_internal.h"

#define EAGAIN 11


int system(const char *command)
{
    if (command == NULL)
        return 0;
    errno = EAGAIN;
    return -1;
}

FILE *popen(const char *command, const char *mode)
{
    (void)command;
    (void)mode;
    errno = EAGAIN;
    return NULL;
}

/* glibc's pclose closes whatever stream it is given as fclose does; popen gave none. */
int pclose(FILE *f)
{
    return fclose(f);
}

int posix_spawn(int *pid, const char *path, const void *actions, const void *attr,
                char *const argv[], char *const envp[])
{
    (void)pid, (void)path, (void)actions, (void)attr, (void)argv, (void)envp;
    return EAGAIN;
}

int posix_spawnp(int *pid, const char *file, const void *actions, const void *attr,
                 char *const argv[], char *const envp[])
{
    return posix_spawn(pid, file, actions, attr, argv, envp);
}
