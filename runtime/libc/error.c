/*
 * error.c - error messages: strerror, perror, and glibc's error() and
 * error_at_line() with program_invocation_name.
 *
 * glibc sets program_invocation_name (argv[0]) and
 * program_invocation_short_name (its last component) before main; here the
 * engine writes them at the program's entry when it defines them (see
 * README.md); programs using gnulib's set_program_name also assign them.
 */
#include "libc_internal.h"

char *program_invocation_name;
char *program_invocation_short_name;

/* error()'s GNU hooks and counters. */
void (*error_print_progname)(void);
unsigned int error_message_count;
int error_one_per_line;

/* glibc 2.36 strerror() messages for errno 0..133 (Linux); NULL: unassigned. */
static const char *const error_messages[] = {
    "Success", /* 0 */
    "Operation not permitted", /* 1 */
    "No such file or directory", /* 2 */
    "No such process", /* 3 */
    "Interrupted system call", /* 4 */
    "Input/output error", /* 5 */
    "No such device or address", /* 6 */
    "Argument list too long", /* 7 */
    "Exec format error", /* 8 */
    "Bad file descriptor", /* 9 */
    "No child processes", /* 10 */
    "Resource temporarily unavailable", /* 11 */
    "Cannot allocate memory", /* 12 */
    "Permission denied", /* 13 */
    "Bad address", /* 14 */
    "Block device required", /* 15 */
    "Device or resource busy", /* 16 */
    "File exists", /* 17 */
    "Invalid cross-device link", /* 18 */
    "No such device", /* 19 */
    "Not a directory", /* 20 */
    "Is a directory", /* 21 */
    "Invalid argument", /* 22 */
    "Too many open files in system", /* 23 */
    "Too many open files", /* 24 */
    "Inappropriate ioctl for device", /* 25 */
    "Text file busy", /* 26 */
    "File too large", /* 27 */
    "No space left on device", /* 28 */
    "Illegal seek", /* 29 */
    "Read-only file system", /* 30 */
    "Too many links", /* 31 */
    "Broken pipe", /* 32 */
    "Numerical argument out of domain", /* 33 */
    "Numerical result out of range", /* 34 */
    "Resource deadlock avoided", /* 35 */
    "File name too long", /* 36 */
    "No locks available", /* 37 */
    "Function not implemented", /* 38 */
    "Directory not empty", /* 39 */
    "Too many levels of symbolic links", /* 40 */
    NULL, /* 41: unassigned */
    "No message of desired type", /* 42 */
    "Identifier removed", /* 43 */
    "Channel number out of range", /* 44 */
    "Level 2 not synchronized", /* 45 */
    "Level 3 halted", /* 46 */
    "Level 3 reset", /* 47 */
    "Link number out of range", /* 48 */
    "Protocol driver not attached", /* 49 */
    "No CSI structure available", /* 50 */
    "Level 2 halted", /* 51 */
    "Invalid exchange", /* 52 */
    "Invalid request descriptor", /* 53 */
    "Exchange full", /* 54 */
    "No anode", /* 55 */
    "Invalid request code", /* 56 */
    "Invalid slot", /* 57 */
    NULL, /* 58: unassigned */
    "Bad font file format", /* 59 */
    "Device not a stream", /* 60 */
    "No data available", /* 61 */
    "Timer expired", /* 62 */
    "Out of streams resources", /* 63 */
    "Machine is not on the network", /* 64 */
    "Package not installed", /* 65 */
    "Object is remote", /* 66 */
    "Link has been severed", /* 67 */
    "Advertise error", /* 68 */
    "Srmount error", /* 69 */
    "Communication error on send", /* 70 */
    "Protocol error", /* 71 */
    "Multihop attempted", /* 72 */
    "RFS specific error", /* 73 */
    "Bad message", /* 74 */
    "Value too large for defined data type", /* 75 */
    "Name not unique on network", /* 76 */
    "File descriptor in bad state", /* 77 */
    "Remote address changed", /* 78 */
    "Can not access a needed shared library", /* 79 */
    "Accessing a corrupted shared library", /* 80 */
    ".lib section in a.out corrupted", /* 81 */
    "Attempting to link in too many shared libraries", /* 82 */
    "Cannot exec a shared library directly", /* 83 */
    "Invalid or incomplete multibyte or wide character", /* 84 */
    "Interrupted system call should be restarted", /* 85 */
    "Streams pipe error", /* 86 */
    "Too many users", /* 87 */
    "Socket operation on non-socket", /* 88 */
    "Destination address required", /* 89 */
    "Message too long", /* 90 */
    "Protocol wrong type for socket", /* 91 */
    "Protocol not available", /* 92 */
    "Protocol not supported", /* 93 */
    "Socket type not supported", /* 94 */
    "Operation not supported", /* 95 */
    "Protocol family not supported", /* 96 */
    "Address family not supported by protocol", /* 97 */
    "Address already in use", /* 98 */
    "Cannot assign requested address", /* 99 */
    "Network is down", /* 100 */
    "Network is unreachable", /* 101 */
    "Network dropped connection on reset", /* 102 */
    "Software caused connection abort", /* 103 */
    "Connection reset by peer", /* 104 */
    "No buffer space available", /* 105 */
    "Transport endpoint is already connected", /* 106 */
    "Transport endpoint is not connected", /* 107 */
    "Cannot send after transport endpoint shutdown", /* 108 */
    "Too many references: cannot splice", /* 109 */
    "Connection timed out", /* 110 */
    "Connection refused", /* 111 */
    "Host is down", /* 112 */
    "No route to host", /* 113 */
    "Operation already in progress", /* 114 */
    "Operation now in progress", /* 115 */
    "Stale file handle", /* 116 */
    "Structure needs cleaning", /* 117 */
    "Not a XENIX named type file", /* 118 */
    "No XENIX semaphores available", /* 119 */
    "Is a named type file", /* 120 */
    "Remote I/O error", /* 121 */
    "Disk quota exceeded", /* 122 */
    "No medium found", /* 123 */
    "Wrong medium type", /* 124 */
    "Operation canceled", /* 125 */
    "Required key not available", /* 126 */
    "Key has expired", /* 127 */
    "Key has been revoked", /* 128 */
    "Key was rejected by service", /* 129 */
    "Owner died", /* 130 */
    "State not recoverable", /* 131 */
    "Operation not possible due to RF-kill", /* 132 */
    "Memory page has hardware error", /* 133 */
};

#define N_MESSAGES (sizeof error_messages / sizeof error_messages[0])

static char unknown_buf[32];

/* Write glibc's message for errnum into buf (size n); returns buf or the
 * static message. */
static const char *message_of(int errnum, char *buf, size_t n)
{
    if (errnum >= 0 && (size_t)errnum < N_MESSAGES && error_messages[errnum] != NULL)
        return error_messages[errnum];
    snprintf(buf, n, "Unknown error %d", errnum);
    return buf;
}

char *strerror(int errnum)
{
    return (char *)message_of(errnum, unknown_buf, sizeof unknown_buf);
}

/* glibc's signal descriptions (x86-64), by number. */
static const char *const signal_messages[] = {
    NULL, "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap",
    "Aborted", "Bus error", "Floating point exception", "Killed", "User defined signal 1",
    "Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
    "Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped",
    "Stopped (tty input)", "Stopped (tty output)", "Urgent I/O condition",
    "CPU time limit exceeded", "File size limit exceeded", "Virtual timer expired",
    "Profiling timer expired", "Window changed", "I/O possible", "Power failure",
    "Bad system call"};

/* glibc's real-time signals: 32 and 33 are its threads' own (musl reserves 34 too). */
#define SIGRTMIN_ 34
#define SIGRTMAX_ 64

int __libc_current_sigrtmin(void) { return SIGRTMIN_; }
int __libc_current_sigrtmax(void) { return SIGRTMAX_; }

/* glibc's strsignal: its description, "Real-time signal N" (N from SIGRTMIN) or
 * "Unknown signal N". */
char *strsignal(int sig)
{
    static char buf[40];
    if (sig > 0 && sig < (int)(sizeof signal_messages / sizeof signal_messages[0]))
        return (char *)signal_messages[sig];
    if (sig >= SIGRTMIN_ && sig <= SIGRTMAX_)
        snprintf(buf, sizeof buf, "Real-time signal %d", sig - SIGRTMIN_);
    else
        snprintf(buf, sizeof buf, "Unknown signal %d", sig);
    return buf;
}

/* The GNU strerror_r (what <string.h> declares under _GNU_SOURCE). */
char *strerror_r(int errnum, char *buf, size_t n)
{
    return (char *)message_of(errnum, buf, n);
}

/* The XSI strerror_r (<string.h> without _GNU_SOURCE maps to this name). */
int __xpg_strerror_r(int errnum, char *buf, size_t n)
{
    const char *m = message_of(errnum, buf, n);
    size_t len = strlen(m);
    if (n == 0)
        return ERANGE;
    if (m != buf) {
        size_t k = len < n - 1 ? len : n - 1;
        memcpy(buf, m, k);
        buf[k] = '\0';
    }
    if (m == buf)
        return EINVAL; /* an unknown error number */
    return len >= n ? ERANGE : 0;
}

void perror(const char *s)
{
    const char *m = strerror(errno);
    if (s != NULL && *s != '\0')
        fprintf(stderr, "%s: %s\n", s, m);
    else
        fprintf(stderr, "%s\n", m);
}

/* Flush stdout, then print the program's name followed by sep (or call the hook). */
static void print_progname(const char *sep)
{
    fflush(stdout);
    if (error_print_progname != NULL)
        error_print_progname();
    else
        fprintf(stderr, "%s%s", program_invocation_name, sep);
}

static void print_rest(int status, int errnum, const char *fmt, va_list ap)
{
    vfprintf(stderr, fmt, ap);
    error_message_count++;
    if (errnum != 0)
        fprintf(stderr, ": %s", strerror(errnum));
    fputc('\n', stderr);
    fflush(stderr);
    if (status != 0)
        exit(status);
}

void error(int status, int errnum, const char *fmt, ...)
{
    va_list ap;
    print_progname(": ");
    va_start(ap, fmt);
    print_rest(status, errnum, fmt, ap);
    va_end(ap);
}

void error_at_line(int status, int errnum, const char *file, unsigned int line,
                   const char *fmt, ...)
{
    static const char *last_file;
    static unsigned int last_line;
    va_list ap;
    if (error_one_per_line) {
        if (last_line == line && last_file != NULL && file != NULL
            && (last_file == file || strcmp(last_file, file) == 0))
            return; /* glibc skips a repeat without exiting */
        last_file = file;
        last_line = line;
    }
    print_progname(":");
    fprintf(stderr, file != NULL ? "%s:%u: " : " ", file, line);
    va_start(ap, fmt);
    print_rest(status, errnum, fmt, ap);
    va_end(ap);
}
