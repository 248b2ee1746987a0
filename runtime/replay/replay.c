/* replay.c: augur's replay runtime. Linked into a natively compiled program by
 * `augur replay`, it feeds the program the inputs of one test: each call that made
 * something symbolic during `augur run` returns, in order, the bytes of the next object of
 * the `.ktest` file named by the environment variable AUGUR_REPLAY_KTEST.
 *
 * Environment objects (`n_args`, `n_args_K`, `argNN`, `stdin`, `file:NAME`, KLEE's
 * `model_version`) are skipped here: augur replay turns them into argv, standard input and files before the
 * program starts. The `fail:KIND` objects of `augur run --max-fail` make the same system
 * calls fail natively (see "Failing system calls" below).
 *
 * Exit statuses with a meaning:
 *   96  the test has no object left for a symbolic input (the test does not fit the program)
 *   97  an assumption is false on this input (augur reports that as invalid-assume)
 *   98  reach_error() / __VERIFIER_error() was called
 *
 * The program is compiled with -Dreach_error=augur_replay_reach_error (and the same for
 * __VERIFIER_error). The definition below is weak: when the program defines reach_error
 * itself, its own (renamed) definition wins and its body runs instead (in SV-COMP programs
 * typically __assert_fail, so the run ends with SIGABRT rather than status 98). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ucontext's register names */
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <grp.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pwd.h>
#include <ucontext.h>
#include <unistd.h>

#include "../fixed_machine.h"
#include "../fixed_names.h"
#include "../fixed_random.h"
#include "../fixed_time.h"
#include "../fixed_user.h"
#include "../fixed_volume.h"

#define REPLAY_EXIT_NO_OBJECT 96
#define REPLAY_EXIT_ASSUME 97
#define REPLAY_EXIT_REACH_ERROR 98

struct replay_object {
  char *name;
  unsigned char *bytes;
  uint32_t size;
};

static struct replay_object *objects;
static uint32_t n_objects;
static uint32_t next_object;
static int loaded;

static void replay_die(const char *what) {
  fprintf(stderr, "augur-replay: %s\n", what);
  exit(REPLAY_EXIT_NO_OBJECT);
}

static uint32_t read_u32(FILE *f) {
  unsigned char b[4];
  if (fread(b, 1, 4, f) != 4)
    replay_die("truncated .ktest file");
  return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

/* A length-prefixed blob, NUL-terminated for convenience. */
static unsigned char *read_blob(FILE *f, uint32_t *size) {
  uint32_t n = read_u32(f);
  unsigned char *b = malloc((size_t)n + 1);
  if (!b)
    replay_die("out of memory reading the .ktest file");
  if (n && fread(b, 1, n, f) != n)
    replay_die("truncated .ktest file");
  b[n] = 0;
  if (size)
    *size = n;
  return b;
}

/* The objects of the .ktest file at `path` (named by the environment variable `var`);
 * their number in *count. */
static struct replay_object *read_ktest(const char *path, const char *var, uint32_t *count) {
  char magic[5], msg[128];
  FILE *f;
  uint32_t version, i, n;
  struct replay_object *read;
  if (!path) {
    snprintf(msg, sizeof msg, "%s is not set", var);
    replay_die(msg);
  }
  f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, sizeof msg, "cannot open the .ktest file named by %s", var);
    replay_die(msg);
  }
  if (fread(magic, 1, 5, f) != 5 ||
      (memcmp(magic, "KTEST", 5) != 0 && memcmp(magic, "BOUT\n", 5) != 0))
    replay_die("not a .ktest file");
  version = read_u32(f);
  if (version < 1 || version > 3)
    replay_die("unsupported .ktest version");
  n = read_u32(f); /* program arguments: not needed here */
  for (i = 0; i < n; i++)
    free(read_blob(f, 0));
  if (version >= 2) {
    read_u32(f); /* sym_argvs */
    read_u32(f); /* sym_argv_len */
  }
  *count = read_u32(f);
  read = calloc(*count ? *count : 1, sizeof *read);
  if (!read)
    replay_die("out of memory reading the .ktest file");
  for (i = 0; i < *count; i++) {
    read[i].name = (char *)read_blob(f, 0);
    read[i].bytes = read_blob(f, &read[i].size);
  }
  fclose(f);
  return read;
}

/* augur replay's settings, from the environment variables of the same names, read
 * before main: under augur replay main then starts with an empty environment (the
 * strings themselves stay where they are). */
static const char *setting_ktest, *setting_argv, *setting_outputs, *setting_revision;

__attribute__((constructor(101))) static void keep_settings(void) {
  setting_ktest = getenv("AUGUR_REPLAY_KTEST");
  setting_argv = getenv("AUGUR_REPLAY_ARGV");
  setting_outputs = getenv("AUGUR_OUTPUTS");
  setting_revision = getenv("AUGUR_REVISION");
}

static void load_ktest(void) {
  loaded = 1;
  objects = read_ktest(setting_ktest, "AUGUR_REPLAY_KTEST", &n_objects);
}

/* The program's main, entered through __wrap_main (linked with -Wl,--wrap=main). */
int __real_main(int argc, char **argv, char **envp);

/* argv as the analysis laid it out: each string in a heap block of its own, of the size
 * the analysis gave it (the objects of the .ktest file named by AUGUR_REPLAY_ARGV:
 * argv[0] and the concrete arguments with their NUL, each symbolic argument's whole
 * object), and the pointer array in one of argc + 1 pointers. A read past an argument is
 * then an AddressSanitizer report, as it is an out-of-bounds error in the analysis
 * (natively the strings lie back to back on the stack, where no sanitizer sees past one).
 * Without AUGUR_REPLAY_ARGV (the program run by hand) argv is the process's own. The
 * strings are read by a constructor that runs before the others, so before any system
 * call of the program may fail (the seccomp filter of --max-fail tests). */
static char **laid_out;
static int laid_out_count;

__attribute__((constructor(102))) static void lay_out_argv(void) {
  const char *path = setting_argv;
  uint32_t n, i;
  struct replay_object *strings;
  if (!path)
    return;
  strings = read_ktest(path, "AUGUR_REPLAY_ARGV", &n);
  laid_out = malloc(((size_t)n + 1) * sizeof *laid_out);
  if (!laid_out)
    replay_die("out of memory laying out argv");
  for (i = 0; i < n; i++) {
    laid_out[i] = malloc(strings[i].size ? strings[i].size : 1);
    if (!laid_out[i])
      replay_die("out of memory laying out argv");
    memcpy(laid_out[i], strings[i].bytes, strings[i].size);
    free(strings[i].name);
    free(strings[i].bytes);
  }
  laid_out[n] = NULL;
  laid_out_count = (int)n;
  free(strings);
}

/* Under augur replay (argv laid out) main starts with an empty environment, as the
 * analysed program does (runtime/libc/stdlib.c): what the program reads or prints of it
 * agrees, and so does setlocale(LC_ALL, ""), which gives "C" with no LANG or LC_*. */
int __wrap_main(int argc, char **argv, char **envp) {
  static char *no_variables[1];
  if (laid_out) {
    environ = no_variables;
    return __real_main(laid_out_count, laid_out, no_variables);
  }
  return __real_main(argc, argv, envp);
}

static int is_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

/* Objects that describe the environment, not a symbolic input of the program. */
static int is_environment(const char *name) {
  return strcmp(name, "n_args") == 0 ||
         (strncmp(name, "n_args_", 7) == 0 && is_digits(name + 7)) || strcmp(name, "stdin") == 0 ||
         strcmp(name, "model_version") == 0 || strncmp(name, "file:", 5) == 0 ||
         strncmp(name, "fail:", 5) == 0 ||
         (strncmp(name, "arg", 3) == 0 && strlen(name) >= 5 && is_digits(name + 3));
}

static struct replay_object *next_input(const char *want) {
  char msg[256];
  if (!loaded)
    load_ktest();
  while (next_object < n_objects && is_environment(objects[next_object].name))
    next_object++;
  if (next_object >= n_objects) {
    snprintf(msg, sizeof msg, "the test has no object left for symbolic input `%s`",
             want ? want : "?");
    replay_die(msg);
  }
  return &objects[next_object++];
}

/* Copy the next object into the `size` bytes at `addr`. */
static void fill(void *addr, size_t size, const char *name) {
  struct replay_object *o = next_input(name);
  size_t n = o->size < size ? o->size : size;
  if (o->size != size)
    fprintf(stderr,
            "augur-replay: warning: object `%s` has %u bytes, the program asks for %zu "
            "(`%s`); copying %zu\n",
            o->name, o->size, size, name ? name : "?", n);
  memcpy(addr, o->bytes, n);
  if (n < size)
    memset((char *)addr + n, 0, size - n);
}

static void assume(long cond) {
  if (!cond) {
    fprintf(stderr, "augur-replay: assumption false on replay\n");
    exit(REPLAY_EXIT_ASSUME);
  }
}

void augur_make_symbolic(void *addr, size_t size, const char *name) { fill(addr, size, name); }
void klee_make_symbolic(void *addr, size_t size, const char *name) { fill(addr, size, name); }
void augur_assume(long cond) { assume(cond); }
void klee_assume(uintptr_t cond) { assume(cond != 0); }
void __VERIFIER_assume(int cond) { assume(cond); }

void augur_assert(long cond) {
  if (!cond) {
    fprintf(stderr, "augur_assert failed\n");
    abort();
  }
}

int augur_int(const char *name) {
  int x;
  fill(&x, sizeof x, name);
  return x;
}
int klee_int(const char *name) { return augur_int(name); }

int augur_range(int lo, int hi, const char *name) {
  int x;
  fill(&x, sizeof x, name);
  assume(lo <= x && x < hi);
  return x;
}
int klee_range(int lo, int hi, const char *name) { return augur_range(lo, hi, name); }

unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}
static int in_runtime; /* the runtime's own system calls are not the program's */

static void append_output(const char *path, const char *name, const void *addr, size_t size) {
  FILE *f = fopen(path, "a");
  if (!f)
    return;
  fprintf(f, "%s ", name);
  for (size_t i = 0; i < size; i++)
    fprintf(f, "%02x", ((const unsigned char *)addr)[i]);
  fputc('\n', f);
  fclose(f);
}

/* Named outputs go, one line each (`name hexbytes`), to the file AUGUR_OUTPUTS names. */
void augur_output(const char *name, const void *addr, size_t size) {
  const char *path = setting_outputs;
  if (!path || !*path)
    return;
  in_runtime = 1;
  append_output(path, name, addr, size);
  in_runtime = 0;
}
/* A hand-written meta program runs the revision AUGUR_REVISION names (0: the base). */
int augur_meta(int site) {
  (void)site;
  const char *r = setting_revision;
  return r ? atoi(r) : 0;
}
/* aligned_alloc as augur's model and glibc serve it: any size for a power-of-two
 * alignment. AddressSanitizer's own rejects a size that is not a multiple of the alignment
 * (coreutils' cat asks 4096-aligned 0x20001 bytes), so the replay build routes the
 * program's calls here (-Wl,--wrap=aligned_alloc). */
void *__wrap_aligned_alloc(size_t align, size_t size) {
  if (align == 0 || (align & (align - 1)) != 0) {
    errno = EINVAL;
    return NULL;
  }
  void *p = NULL;
  int e = posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size);
  if (e != 0) {
    errno = e;
    return NULL;
  }
  return p;
}

/* The fixed world's random bytes, as augur's models give them (-Wl,--wrap=getrandom and
 * getentropy): the program reads the same bytes natively as under analysis. */
ssize_t __wrap_getrandom(void *buf, size_t len, unsigned int flags) {
  (void)flags;
  return augur_fixed_getrandom(buf, len);
}
int __wrap_getentropy(void *buf, size_t len) {
  int r = augur_fixed_getentropy(buf, len);
  if (r < 0)
    errno = EIO;
  return r;
}

void klee_warning(const char *message) { (void)message; }
void klee_warning_once(const char *message) { (void)message; }
void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}
void klee_print_expr(const char *msg, ...) { (void)msg; }
void klee_silent_exit(int status) { exit(status); }
void klee_abort(void) { abort(); }
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  fprintf(stderr, "%s:%d: %s (%s)\n", file, line, message, suffix);
  abort();
}

__attribute__((weak)) void augur_replay_reach_error(void) {
  fprintf(stderr, "reach_error() called\n");
  exit(REPLAY_EXIT_REACH_ERROR);
}

#define NONDET(suffix, type)                                                              \
  type __VERIFIER_nondet_##suffix(void) {                                                 \
    type x;                                                                               \
    fill(&x, sizeof x, "nondet");                                                         \
    return x;                                                                             \
  }

_Bool __VERIFIER_nondet_bool(void) {
  unsigned char b;
  fill(&b, 1, "nondet");
  return b & 1;
}
NONDET(char, char)
NONDET(uchar, unsigned char)
NONDET(short, short)
NONDET(ushort, unsigned short)
NONDET(int, int)
NONDET(uint, unsigned int)
NONDET(long, long)
NONDET(ulong, unsigned long)
NONDET(longlong, long long)
NONDET(ulonglong, unsigned long long)
NONDET(float, float)
NONDET(double, double)
NONDET(pointer, void *)
NONDET(size_t, size_t)
NONDET(unsigned, unsigned)

/* ---- Failing system calls (`augur run --max-fail`) ------------------------------------
 *
 * Object `fail:KIND` holds the number (from 1; 0: none) of the call of that kind that
 * fails, counted as augur's libc models count them: each modelled system call is one
 * call. Natively every system call of the process is seen, glibc's own included, through
 * a seccomp filter that traps the calls of those kinds (SIGSYS); the handler counts them,
 * fails the chosen one with the errno augur used, and makes the others itself from the
 * one `syscall` instruction the filter lets through. The standard streams are made to
 * call the system as augur's models do: standard output unbuffered (glibc's standard
 * error already is), standard input through a buffer of 128 bytes (stdio.c's RBUF_SIZE),
 * given by the runtime so that glibc makes no fstat to size one; and so are the streams
 * the program opens (fopen, fopen64, fdopen: read-only ones read through such a buffer,
 * the others unbuffered), whatever the program asks of setvbuf. Only tests with a
 * failing call are run this way. */

#define FAIL_KINDS 7
static const char *const fail_names[FAIL_KINDS] = {"read",  "write", "open",     "close",
                                                   "lseek", "stat",  "ftruncate"};
/* The errno of each kind: the same as augur-env/src/failures.rs. */
static const int fail_errnos[FAIL_KINDS] = {EIO, ENOSPC, EACCES, EIO, ESPIPE, ENOMEM, EIO};
static uint32_t fail_at[FAIL_KINDS], fail_calls[FAIL_KINDS];
static int armed; /* some call fails: the streams are aligned, the filter installed */
#define MODEL_READ_BUFFER 128

/* Kind of the calls the models do not make: they fail with ENOSYS (fd.c's copy_file_range,
 * after which coreutils' copy falls back to read and write, counted). */
#define NOT_MODELLED (-1)

/* The system calls of each kind (x86-64), as glibc makes them for the modelled functions. */
static const struct {
  int nr, kind;
} fail_syscalls[] = {
    {SYS_read, 0},       {SYS_pread64, 0},  {SYS_write, 1}, {SYS_pwrite64, 1}, {SYS_open, 2},
    {SYS_openat, 2},     {SYS_creat, 2},    {SYS_close, 3}, {SYS_lseek, 4},    {SYS_stat, 5},
    {SYS_fstat, 5},      {SYS_lstat, 5},    {SYS_newfstatat, 5}, {SYS_ftruncate, 6},
    /* dir.c's statx, readlink and access variants are one stat each in the models */
    {SYS_statx, 5},      {SYS_readlink, 5}, {SYS_readlinkat, 5}, {SYS_access, 5},
    {SYS_faccessat, 5},  {SYS_faccessat2, 5},
    {SYS_copy_file_range, NOT_MODELLED},
};
#define N_FAIL_SYSCALLS (sizeof fail_syscalls / sizeof fail_syscalls[0])

/* raw_syscall(nr, a1..a6): the one system call instruction the filter lets through. */
long augur_replay_raw_syscall(long nr, long a, long b, long c, long d, long e, long f);
extern const char augur_replay_syscall_end[];
__asm__(".text\n"
        ".globl augur_replay_raw_syscall\n"
        ".hidden augur_replay_raw_syscall\n"
        ".type augur_replay_raw_syscall, @function\n"
        "augur_replay_raw_syscall:\n"
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  movq %rdx, %rsi\n"
        "  movq %rcx, %rdx\n"
        "  movq %r8, %r10\n"
        "  movq %r9, %r8\n"
        "  movq 8(%rsp), %r9\n"
        "  syscall\n"
        ".globl augur_replay_syscall_end\n"
        ".hidden augur_replay_syscall_end\n"
        "augur_replay_syscall_end:\n"
        "  ret\n");

/* The executable's code: the program's, and the sanitizers' runtime, whose own system
 * calls (reports) are made there, not through glibc as the program's are. */
extern const char __executable_start[], etext[];

static void on_sigsys(int sig, siginfo_t *info, void *context) {
  greg_t *r = ((ucontext_t *)context)->uc_mcontext.gregs;
  long nr = info->si_syscall;
  const char *at = info->si_call_addr;
  int counted = !in_runtime && !(at >= __executable_start && at < etext);
  size_t i;
  (void)sig;
  for (i = 0; i < N_FAIL_SYSCALLS; i++) {
    int k = fail_syscalls[i].kind;
    if (fail_syscalls[i].nr == nr && k == NOT_MODELLED) {
      r[REG_RAX] = -ENOSYS;
      return;
    }
    if (fail_syscalls[i].nr == nr && counted && ++fail_calls[k] == fail_at[k]) {
      r[REG_RAX] = -fail_errnos[k];
      return;
    }
  }
  r[REG_RAX] = augur_replay_raw_syscall(nr, r[REG_RDI], r[REG_RSI], r[REG_RDX], r[REG_R10],
                                        r[REG_R8], r[REG_R9]);
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))
#define LOAD(field) STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define LOAD_HIGH(field) STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field) + 4)
#define IF_EQ(k, jt, jf) JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, jt, jf)
#define RETURN(k) STMT(BPF_RET | BPF_K, k)

/* Trap the calls of fail_syscalls made anywhere but at augur_replay_syscall_end. */
static void install_filter(void) {
  struct sock_filter prog[9 + N_FAIL_SYSCALLS + 2];
  uint64_t ip = (uint64_t)(uintptr_t)augur_replay_syscall_end;
  size_t n = 0, i;
  struct sock_fprog fprog;
  struct sigaction sa;
  prog[n++] = LOAD(arch);
  prog[n++] = IF_EQ(AUDIT_ARCH_X86_64, 1, 0);
  prog[n++] = RETURN(SECCOMP_RET_ALLOW);
  prog[n++] = LOAD(instruction_pointer);
  prog[n++] = IF_EQ((uint32_t)ip, 0, 3);
  prog[n++] = LOAD_HIGH(instruction_pointer);
  prog[n++] = IF_EQ((uint32_t)(ip >> 32), 0, 1);
  prog[n++] = RETURN(SECCOMP_RET_ALLOW);
  prog[n++] = LOAD(nr);
  for (i = 0; i < N_FAIL_SYSCALLS; i++) /* to the trap, past the rest and the allow */
    prog[n++] = IF_EQ((uint32_t)fail_syscalls[i].nr, (uint8_t)(N_FAIL_SYSCALLS - i), 0);
  prog[n++] = RETURN(SECCOMP_RET_ALLOW);
  prog[n++] = RETURN(SECCOMP_RET_TRAP);
  fprog.len = (unsigned short)n;
  fprog.filter = prog;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  if (sigaction(SIGSYS, &sa, NULL) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) != 0)
    replay_die("cannot make system calls fail (the seccomp filter was refused)");
}

/* glibc's definition of `name`, behind this one. */
static void *real(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f)
    replay_die("cannot find glibc's definition of a function replay wraps");
  return f;
}

/* glibc's setvbuf (the program's calls go to the one below). */
static int set_buffering(FILE *f, char *buffer, int mode, size_t size) {
  static int (*glibc)(FILE *, char *, int, size_t);
  if (!glibc)
    glibc = (int (*)(FILE *, char *, int, size_t))real("setvbuf");
  return glibc(f, buffer, mode, size);
}

/* Before main: read the test's `fail:KIND` objects; if one names a call, align the
 * standard streams and install the filter. */
__attribute__((constructor)) static void fail_as_the_test_says(void) {
  static char stdin_buffer[MODEL_READ_BUFFER];
  const char *path = setting_ktest;
  uint32_t i;
  int k;
  if (!path || access(path, R_OK) != 0)
    return;
  load_ktest();
  for (i = 0; i < n_objects; i++)
    for (k = 0; k < FAIL_KINDS; k++)
      if (strncmp(objects[i].name, "fail:", 5) == 0 &&
          strcmp(objects[i].name + 5, fail_names[k]) == 0 && objects[i].size == 4) {
        const unsigned char *b = objects[i].bytes;
        fail_at[k] = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        armed |= fail_at[k] != 0;
      }
  if (!armed)
    return;
  set_buffering(stdin, stdin_buffer, _IOFBF, sizeof stdin_buffer);
  set_buffering(stdout, NULL, _IONBF, 0);
  install_filter();
}

/* A stream the program opened, buffered as augur's models buffer it. */
static FILE *aligned(FILE *f, const char *mode) {
  char *buffer;
  if (!f || !armed)
    return f;
  buffer = mode[0] == 'r' && !strchr(mode, '+') ? malloc(MODEL_READ_BUFFER) : NULL;
  if (buffer)
    set_buffering(f, buffer, _IOFBF, MODEL_READ_BUFFER);
  else
    set_buffering(f, NULL, _IONBF, 0);
  return f;
}

/* Is `path` in /proc or /sys, the kernel's views of the machine (then errno is ENOENT)?
 * The fixed world has neither: no mount table (df: "cannot read table of mounted file
 * systems"), no /proc/uptime (uptime: "couldn't get boot time"), no CPU list (BusyBox's
 * `nproc --all` counts /sys/devices/system/cpu). The native run keeps the kernel's, which
 * the sanitizers read, but the program's own fopen, open and opendir find nothing there.
 * /etc is absent from the native run's root already. */
static int in_kernel_view(const char *path) {
  static const char *const views[] = {"/proc", "/sys"};
  size_t i, n;
  for (i = 0; i < sizeof views / sizeof *views; i++) {
    n = strlen(views[i]);
    if (strncmp(path, views[i], n) == 0 && (path[n] == '\0' || path[n] == '/')) {
      errno = ENOENT;
      return 1;
    }
  }
  return 0;
}

/* `name(path, mode)`, glibc's, behind it, finding nothing in /proc or /sys, its stream `done`
 * (`f`, opened with `mode`). fopen and fopen64 buffer theirs as the models do. setmntent
 * opens its file with glibc's own fopen, out of those wrappers' reach (BusyBox's df reads
 * /proc/mounts so): it is wrapped too. */
#define OPENED_OUT_OF_VIEWS(name, done)                                                  \
  FILE *name(const char *path, const char *mode) {                                       \
    static FILE *(*glibc)(const char *, const char *);                                   \
    FILE *f;                                                                             \
    if (!glibc)                                                                          \
      glibc = (FILE * (*)(const char *, const char *)) real(#name);                      \
    if (in_kernel_view(path))                                                            \
      return NULL;                                                                       \
    f = glibc(path, mode);                                                               \
    return done;                                                                         \
  }
OPENED_OUT_OF_VIEWS(fopen, aligned(f, mode))
OPENED_OUT_OF_VIEWS(fopen64, aligned(f, mode))
OPENED_OUT_OF_VIEWS(setmntent, f)

/* The body of an open of `path` (open, open64: dirfd AT_FDCWD) by glibc's `glibc_name`
 * (openat, openat64), finding nothing in /proc or /sys; its mode is read only when it creates. */
#define OPENED_BY_FD_OUT_OF_VIEWS(glibc_name, dirfd)                                     \
  static int (*glibc)(int, const char *, int, ...);                                      \
  mode_t mode = 0;                                                                       \
  if (!glibc)                                                                            \
    glibc = (int (*)(int, const char *, int, ...))real(glibc_name);                      \
  if (flags & (O_CREAT | __O_TMPFILE)) {                                                 \
    va_list ap;                                                                          \
    va_start(ap, flags);                                                                 \
    mode = va_arg(ap, mode_t);                                                           \
    va_end(ap);                                                                          \
  }                                                                                      \
  if (in_kernel_view(path))                                                              \
    return -1;                                                                           \
  return glibc(dirfd, path, flags, mode)
int open(const char *path, int flags, ...) { OPENED_BY_FD_OUT_OF_VIEWS("openat", AT_FDCWD); }
int open64(const char *path, int flags, ...) {
  OPENED_BY_FD_OUT_OF_VIEWS("openat64", AT_FDCWD);
}
int openat(int dirfd, const char *path, int flags, ...) {
  OPENED_BY_FD_OUT_OF_VIEWS("openat", dirfd);
}
int openat64(int dirfd, const char *path, int flags, ...) {
  OPENED_BY_FD_OUT_OF_VIEWS("openat64", dirfd);
}
DIR *opendir(const char *path) {
  static DIR *(*glibc)(const char *);
  if (!glibc)
    glibc = (DIR * (*)(const char *)) real("opendir");
  if (in_kernel_view(path))
    return NULL;
  return glibc(path);
}

FILE *fdopen(int fd, const char *mode) {
  static FILE *(*glibc)(int, const char *);
  if (!glibc)
    glibc = (FILE * (*)(int, const char *)) real("fdopen");
  return aligned(glibc(fd, mode), mode);
}

/* The program's setvbuf: as augur's models, it leaves the buffering alone when some call
 * fails (wc line-buffers its output: glibc would then split one printf's write in two). */
int setvbuf(FILE *f, char *buffer, int mode, size_t size) {
  if (!armed)
    return set_buffering(f, buffer, mode, size);
  if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF) {
    errno = EINVAL;
    return EOF;
  }
  return 0;
}

/* ---- The sandbox ------------------------------------------------------------------------
 *
 * The analysed process is alone (augur's runtime/libc/sandbox.c and syscall.c): a new
 * process or program cannot be started (EAGAIN; exec: EACCES, ENOENT for a program that
 * is not there), system(NULL) finds no
 * shell, sockets are refused (EACCES), and kill reaches only the process itself. The
 * native program's calls fail the same way, so that its run agrees with the test. */

static int refused(int err) {
  errno = err;
  return -1;
}

pid_t fork(void) { return refused(EAGAIN); }
pid_t vfork(void) { return refused(EAGAIN); }
/* The kernel looks the program up before refusing to run it: a path naming nothing is
 * ENOENT (ENOTDIR, ...), as in the analysis, whose world has no program to find (the
 * native root has no /usr/bin, crates/augur-env/src/replay/private_root.rs). */
int execve(const char *path, char *const argv[], char *const envp[]) {
  (void)argv, (void)envp;
  return access(path, F_OK) == 0 ? refused(EACCES) : -1;
}
/* execvp's search of PATH as musl's, which the analysis runs: a name with a slash is
 * run as it is; else it is looked for in each directory of PATH (unset: musl's
 * default; an empty one is the working directory) until a lookup fails for another
 * reason than a missing file; EACCES if one was found (and refused), else ENOENT. */
static int exec_search(const char *file) {
  if (!*file)
    return refused(ENOENT);
  if (strchr(file, '/'))
    return execve(file, NULL, NULL);
  size_t k = strnlen(file, NAME_MAX + 1);
  if (k > NAME_MAX)
    return refused(ENAMETOOLONG);
  const char *path = getenv("PATH");
  if (path == NULL)
    path = "/usr/local/bin:/bin:/usr/bin";
  int found = 0;
  char candidate[PATH_MAX];
  for (const char *dir = path;; dir++) {
    const char *end = dir + strcspn(dir, ":");
    size_t n = (size_t)(end - dir);
    if (n + 1 + k < sizeof candidate) {
      memcpy(candidate, dir, n);
      candidate[n] = '/';
      memcpy(candidate + n + (n > 0), file, k + 1);
      execve(candidate, NULL, NULL);
      if (errno == EACCES)
        found = 1;
      else if (errno != ENOENT && errno != ENOTDIR)
        return -1;
    }
    if (*end == '\0')
      break;
    dir = end;
  }
  return refused(found ? EACCES : ENOENT);
}
int execv(const char *path, char *const argv[]) { return execve(path, argv, NULL); }
int execvp(const char *file, char *const argv[]) {
  (void)argv;
  return exec_search(file);
}
int execvpe(const char *file, char *const argv[], char *const envp[]) {
  (void)argv, (void)envp;
  return exec_search(file);
}
int fexecve(int fd, char *const argv[], char *const envp[]) {
  (void)fd, (void)argv, (void)envp;
  return refused(EACCES);
}
int execl(const char *path, const char *arg, ...) {
  (void)arg;
  return execve(path, NULL, NULL);
}
int execlp(const char *file, const char *arg, ...) {
  (void)arg;
  return exec_search(file);
}
int execle(const char *path, const char *arg, ...) {
  (void)arg;
  return execve(path, NULL, NULL);
}
int system(const char *command) { return command == NULL ? 0 : refused(EAGAIN); }
/* The analysis' user is not root: chroot looks the path up, then is refused. */
int chroot(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return -1;
  return refused(S_ISDIR(st.st_mode) ? EPERM : ENOTDIR);
}
FILE *popen(const char *command, const char *mode) {
  (void)command, (void)mode;
  errno = EAGAIN;
  return NULL;
}
int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
  (void)pid, (void)path, (void)actions, (void)attr, (void)argv, (void)envp;
  return EAGAIN;
}
int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                 const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
  return posix_spawn(pid, file, actions, attr, argv, envp);
}

/* The nice value as the analysis sees it: 0 at start, whatever the replay itself runs at
 * (natively the values count from the one the process started with), raised as any user
 * may, never lowered (EACCES, as for a user without CAP_SYS_NICE, even when replaying as
 * root); no other process exists for it (ESRCH), as for kill. */
static int start_nice;

/* The process's nice value as the kernel has it. */
static int kernel_nice(void) {
  long raw = syscall(SYS_getpriority, PRIO_PROCESS, 0);
  return raw < 0 ? 0 : 20 - (int)raw;
}
__attribute__((constructor)) static void remember_start_nice(void) { start_nice = kernel_nice(); }
static int own_nice(void) { return kernel_nice() - start_nice; }

/* Whether `pid` names this process (0 does, as for the kernel). */
static int is_own_pid(pid_t pid) { return pid == 0 || pid == getpid(); }
static int is_self(int which, id_t who) {
  return which == PRIO_PROCESS && is_own_pid((pid_t)who);
}
int getpriority(__priority_which_t which, id_t who) {
  if ((int)which < 0 || (int)which > 2)
    return refused(EINVAL);
  return is_self((int)which, who) ? own_nice() : refused(ESRCH);
}
int setpriority(__priority_which_t which, id_t who, int value) {
  int now;
  if ((int)which < 0 || (int)which > 2)
    return refused(EINVAL);
  if (!is_self((int)which, who))
    return refused(ESRCH);
  now = own_nice();
  if (value > 19)
    value = 19;
  if (value < now)
    return refused(EACCES);
  return syscall(SYS_setpriority, PRIO_PROCESS, 0, start_nice + value) == 0 ? 0 : -1;
}
int nice(int inc) {
  if (setpriority(PRIO_PROCESS, 0, own_nice() + inc) != 0)
    return -1;
  return own_nice();
}

/* The host id of augur's world, musl's: 0 (glibc's derives one from the host's name). */
long gethostid(void) { return 0; }

/* The process leads its own group and session, as in the analysis; no other process
 * exists for it (ESRCH), and it cannot start another session. The native group is left alone, so the terminal's Ctrl-C still
 * reaches the replayed program. Its user is not root, so naming the host or the domain is
 * refused (EPERM) even when the replay runs as root, and never renames the machine the
 * replay runs on. */
pid_t getsid(pid_t pid) { return is_own_pid(pid) ? getpid() : refused(ESRCH); }
pid_t getpgid(pid_t pid) { return is_own_pid(pid) ? getpid() : refused(ESRCH); }
pid_t getpgrp(void) { return getpid(); }
/* A group leader cannot start a session (Linux: EPERM). */
pid_t setsid(void) { return refused(EPERM); }
int setpgid(pid_t pid, pid_t pgid) {
  if (pgid < 0)
    return refused(EINVAL);
  if (!is_own_pid(pid))
    return refused(ESRCH);
  return is_own_pid(pgid) ? 0 : refused(EPERM);
}
int sethostname(const char *name, size_t len) {
  (void)name, (void)len;
  return refused(EPERM);
}
int setdomainname(const char *name, size_t len) {
  (void)name, (void)len;
  return refused(EPERM);
}

int socket(int domain, int type, int protocol) {
  (void)domain, (void)type, (void)protocol;
  return refused(EACCES);
}
int socketpair(int domain, int type, int protocol, int sv[2]) {
  (void)domain, (void)type, (void)protocol, (void)sv;
  return refused(EACCES);
}
int kill(pid_t pid, int sig) {
  pid_t self = getpid();
  if (sig < 0 || sig > 64)
    return refused(EINVAL);
  if (pid != self && pid != 0 && pid != -1 && pid != -self)
    return refused(ESRCH);
  return sig == 0 ? 0 : raise(sig);
}

/* ---- The modelled machine (runtime/libc/attrs.c) ----------------------------------
 *
 * The analysis runs the program with umask 022, as a user who is not root (1000, group
 * 1000), on one ext4 volume of 1 GiB, half free. The native run is made the same: the
 * mask is set before main, chown to another owner or group fails with EPERM whoever
 * runs the replay, and statfs describes that volume for any path or descriptor that
 * exists. */

__attribute__((constructor)) static void modelled_umask(void) { umask(022); }

/* The analysis starts the program with every signal's default action and none blocked. A
 * native run may inherit ignored signals and a mask (a shell runs a background job with
 * SIGINT and SIGQUIT ignored): they are undone before main. Handlers installed by then
 * (the sanitizers') stay. */
__attribute__((constructor)) static void modelled_signals(void) {
  sigset_t none;
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      signal(sig, SIG_DFL);
  }
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The analysis' user may keep a file's owner and group (each -1 or the user's): the
 * answer of a chown whose lookup of the file (`found`, a stat's result) is done. */
static int owners_kept(int found, uid_t uid, gid_t gid) {
  if (found != 0)
    return -1;
  if ((uid != (uid_t)-1 && uid != AUGUR_USER_ID) || (gid != (gid_t)-1 && gid != AUGUR_USER_ID))
    return refused(EPERM);
  return 0;
}
int chown(const char *path, uid_t uid, gid_t gid) {
  struct stat st;
  return owners_kept(stat(path, &st), uid, gid);
}
/* The link itself, not what it names. */
int lchown(const char *path, uid_t uid, gid_t gid) {
  struct stat st;
  return owners_kept(lstat(path, &st), uid, gid);
}
int fchown(int fd, uid_t uid, gid_t gid) {
  struct stat st;
  return owners_kept(fstat(fd, &st), uid, gid);
}
int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags) {
  struct stat st;
  return owners_kept(fstatat(dirfd, path, &st, flags), uid, gid);
}

/* ---- Who the process is (runtime/libc/process.c) ----------------------------------
 *
 * The analysed process runs as the user "user" (uid 1000, its one group 1000), beside
 * root. The native run answers the same whoever runs the replay: the ids, the passwd
 * and group entries of the two, and the owner of the files that the user running the
 * replay owns (the program's own files) is the modelled user. */

uid_t getuid(void) { return AUGUR_USER_ID; }
uid_t geteuid(void) { return AUGUR_USER_ID; }
gid_t getgid(void) { return AUGUR_USER_ID; }
gid_t getegid(void) { return AUGUR_USER_ID; }
int getresuid(uid_t *r, uid_t *e, uid_t *s) {
  *r = *e = *s = AUGUR_USER_ID;
  return 0;
}
int getresgid(gid_t *r, gid_t *e, gid_t *s) {
  *r = *e = *s = AUGUR_USER_ID;
  return 0;
}
int getgroups(int size, gid_t list[]) {
  if (size == 0)
    return 1;
  if (size < 0)
    return refused(EINVAL);
  list[0] = AUGUR_USER_ID;
  return 1;
}

static char root_name[] = "root", user_name[] = AUGUR_USER_NAME, x_pw[] = "x";
static char root_home[] = AUGUR_ROOT_HOME, user_home[] = AUGUR_USER_HOME, shell[] = AUGUR_SHELL;
static char *no_members[] = {NULL}, *user_members[] = {user_name, NULL};
static struct passwd users[] = {
    {root_name, x_pw, 0, 0, root_name, root_home, shell},
    {user_name, x_pw, AUGUR_USER_ID, AUGUR_USER_ID, user_name, user_home, shell},
};
static struct group groups[] = {
    {root_name, x_pw, 0, no_members},
    {user_name, x_pw, AUGUR_USER_ID, user_members},
};

/* The index of the user (and group) named `name`, when not NULL, or numbered `id`. */
static int user_entry(const char *name, unsigned id) {
  int i;
  for (i = 0; i < 2; i++)
    if (name ? strcmp(users[i].pw_name, name) == 0 : users[i].pw_uid == id)
      return i;
  return -1;
}
struct passwd *getpwuid(uid_t uid) {
  int i = user_entry(NULL, uid);
  return i < 0 ? NULL : &users[i];
}
struct passwd *getpwnam(const char *name) {
  int i = user_entry(name, 0);
  return i < 0 ? NULL : &users[i];
}
struct group *getgrgid(gid_t gid) {
  int i = user_entry(NULL, gid);
  return i < 0 ? NULL : &groups[i];
}
struct group *getgrnam(const char *name) {
  int i = user_entry(name, 0);
  return i < 0 ? NULL : &groups[i];
}

/* The same groups as under analysis (the native run has no /etc/group either). */
int getgrouplist(const char *user, gid_t group, gid_t *list, int *ngroups) {
  return augur_fixed_getgrouplist(user, group, list, ngroups);
}

/* The ids of the user running the replay, whose files are the modelled user's. */
static uid_t native_uid;
static gid_t native_gid;
__attribute__((constructor(101))) static void remember_native_ids(void) {
  native_uid = (uid_t)syscall(SYS_getuid);
  native_gid = (gid_t)syscall(SYS_getgid);
}

/* The analysis answers `/` as `/augur` (runtime/libc/dir.c: both are the working
 * directory's parent, passed through, never listed). The native root is another
 * directory (a mount point per directory of the machine: its link count theirs), so an
 * answer about it is /augur's, as the run found it when it started (in a root of its
 * own, where /augur is the run's volume's; else, in the machine's root, nothing is
 * changed). Before the other constructors: the seccomp filter of --max-fail tests counts
 * the program's stat calls. */
static struct stat native_root, augur_dir;
static struct statx augur_dir_x;
static int root_is_augur;
__attribute__((constructor(101))) static void remember_the_root(void) {
  root_is_augur = syscall(SYS_newfstatat, AT_FDCWD, "/", &native_root, 0) == 0 &&
                  syscall(SYS_newfstatat, AT_FDCWD, "/augur", &augur_dir, 0) == 0 &&
                  syscall(SYS_statx, AT_FDCWD, "/augur", 0, STATX_BASIC_STATS, &augur_dir_x) ==
                      0 &&
                  (native_root.st_dev != augur_dir.st_dev || native_root.st_ino != augur_dir.st_ino);
}
/* Whether (dev, ino) is the native root's, to be answered as /augur. */
static int is_native_root(dev_t dev, ino_t ino) {
  return root_is_augur && dev == native_root.st_dev && ino == native_root.st_ino;
}
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "one stat layout (x86-64)");

/* Whether a stat answer `r` is of a file the replaying user owns (`*uid`): then shown as
 * the modelled user's (its group too, when the replaying user's). */
static int owned_file(int r, unsigned *uid, unsigned *gid) {
  if (r != 0 || *uid != native_uid)
    return 0;
  *uid = AUGUR_USER_ID;
  if (*gid == native_gid)
    *gid = AUGUR_USER_ID;
  return 1;
}

/* `name(params)` as glibc's, behind it, answers, with a file of the replaying user shown
 * as the model shows every file: the modelled user's, its times the fixed clock's, its
 * device, blocks and (a directory's) size the fixed volume's; its inode number is the run's
 * own volume's, numbered as the model numbers them (fixed_volume.h). `st` is the answer,
 * `times` what sets those. Both forms: programs built for large files (coreutils) call
 * the ...64 names. */
#define MODELLED_STAT(name, params, args, uid, gid, as_root, times)                      \
  int name params {                                                                      \
    static int(*glibc) params;                                                           \
    int r;                                                                               \
    if (!glibc)                                                                          \
      glibc = (int(*) params)real(#name);                                                \
    r = glibc args;                                                                      \
    if (r == 0) {                                                                        \
      as_root;                                                                           \
    }                                                                                    \
    if (owned_file(r, &st->uid, &st->gid)) {                                             \
      times;                                                                             \
    }                                                                                    \
    return r;                                                                            \
  }
/* The blocks the fixed volume gives a file of `mode` and `size`: a directory's, a symbolic
 * link's (its target's length), any other file's. */
#define FIXED_BLOCKS(mode, size)                                                         \
  (S_ISDIR(mode)   ? AUGUR_FIXED_DIR_BLOCKS                                              \
   : S_ISLNK(mode) ? AUGUR_FIXED_LINK_BLOCKS(size)                                       \
                   : AUGUR_FIXED_BLOCKS(size))
#define FIXED_ATTRS(st)                                                                    \
  ((st)->st_atim.tv_sec = (st)->st_mtim.tv_sec = (st)->st_ctim.tv_sec = AUGUR_FIXED_TIME, \
   (st)->st_atim.tv_nsec = (st)->st_mtim.tv_nsec = (st)->st_ctim.tv_nsec = 0,             \
   (st)->st_dev = AUGUR_FIXED_DEV,                                                        \
   (st)->st_size = S_ISDIR((st)->st_mode) ? AUGUR_FIXED_DIR_SIZE : (st)->st_size,         \
   (st)->st_blocks = FIXED_BLOCKS((st)->st_mode, (st)->st_size))
/* A stat answer about the native root becomes /augur's. */
#define ROOT_AS_AUGUR(st)                                                                \
  if (is_native_root((st)->st_dev, (st)->st_ino))                                        \
  memcpy((st), &augur_dir, sizeof augur_dir)
#define STAT_FORMS(name, params, args)                                                   \
  MODELLED_STAT(name, params, args, st_uid, st_gid, ROOT_AS_AUGUR(st), FIXED_ATTRS(st))
STAT_FORMS(stat, (const char *path, struct stat *st), (path, st))
STAT_FORMS(stat64, (const char *path, struct stat64 *st), (path, st))
STAT_FORMS(lstat, (const char *path, struct stat *st), (path, st))
STAT_FORMS(lstat64, (const char *path, struct stat64 *st), (path, st))
STAT_FORMS(fstat, (int fd, struct stat *st), (fd, st))
STAT_FORMS(fstat64, (int fd, struct stat64 *st), (fd, st))
STAT_FORMS(fstatat, (int dirfd, const char *path, struct stat *st, int flags), (dirfd, path, st, flags))
STAT_FORMS(fstatat64, (int dirfd, const char *path, struct stat64 *st, int flags),
           (dirfd, path, st, flags))
/* The model's statx knows the basic fields only (no birth time). */
MODELLED_STAT(statx, (int dirfd, const char *path, int flags, unsigned mask, struct statx *st),
              (dirfd, path, flags, mask, st), stx_uid, stx_gid,
              if (is_native_root(makedev(st->stx_dev_major, st->stx_dev_minor), st->stx_ino))
                  *st = augur_dir_x,
              (st->stx_atime.tv_sec = st->stx_mtime.tv_sec = st->stx_ctime.tv_sec =
                   AUGUR_FIXED_TIME,
               st->stx_atime.tv_nsec = st->stx_mtime.tv_nsec = st->stx_ctime.tv_nsec = 0,
               st->stx_dev_major = AUGUR_FIXED_DEV >> 8, st->stx_dev_minor = AUGUR_FIXED_DEV & 0xff,
               st->stx_size = S_ISDIR(st->stx_mode) ? AUGUR_FIXED_DIR_SIZE : st->stx_size,
               st->stx_blocks = FIXED_BLOCKS(st->stx_mode, st->stx_size),
               st->stx_mask &= STATX_BASIC_STATS, memset(&st->stx_btime, 0, sizeof st->stx_btime)))

/* ---- The order of a directory's entries (runtime/libc/dir.c) -------------------------
 *
 * A directory lists ".", "..", then its other entries in byte order of their names, as
 * the analysis lists them, whatever the file system's order (`ls -f` and `ls -U` print
 * it). Each stream is read whole at its first readdir; telldir and seekdir are glibc's. */

/* The listing of one open stream. */
struct listing {
  DIR *dir;
  struct dirent64 *entries;
  size_t count, next;
  int error; /* errno of the read that ended the listing, 0 at its end */
  struct listing *later;
};
static struct listing *listings;

/* "." first, ".." second, then byte order. */
static int dot_rank(const char *name) {
  return strcmp(name, ".") == 0 ? 0 : strcmp(name, "..") == 0 ? 1 : 2;
}
static int entry_order(const void *a, const void *b) {
  const char *x = ((const struct dirent64 *)a)->d_name;
  const char *y = ((const struct dirent64 *)b)->d_name;
  return dot_rank(x) != dot_rank(y) ? dot_rank(x) - dot_rank(y) : strcmp(x, y);
}

/* glibc's readdir64. */
static struct dirent64 *glibc_readdir64(DIR *d) {
  static struct dirent64 *(*glibc)(DIR *);
  if (!glibc)
    glibc = (struct dirent64 * (*)(DIR *)) real("readdir64");
  return glibc(d);
}

/* d's listing, read whole on first use; NULL when memory runs out. */
static struct listing *listing_of(DIR *d) {
  struct listing *l;
  struct dirent64 *e;
  size_t cap = 0;
  int saved = errno;
  for (l = listings; l; l = l->later)
    if (l->dir == d)
      return l;
  if (!(l = calloc(1, sizeof *l)))
    return NULL;
  l->dir = d;
  errno = 0;
  while ((e = glibc_readdir64(d)) != NULL) {
    struct dirent64 *copy;
    if (l->count == cap) {
      struct dirent64 *more = realloc(l->entries, (cap = cap ? 2 * cap : 16) * sizeof *more);
      if (!more) {
        free(l->entries);
        free(l);
        return NULL;
      }
      l->entries = more;
    }
    /* Field by field: glibc's record may end before sizeof (struct dirent64). */
    copy = &l->entries[l->count++];
    copy->d_ino = e->d_ino;
    copy->d_off = e->d_off;
    copy->d_reclen = e->d_reclen;
    copy->d_type = e->d_type;
    snprintf(copy->d_name, sizeof copy->d_name, "%s", e->d_name);
  }
  l->error = errno;
  errno = saved;
  if (l->count > 1)
    qsort(l->entries, l->count, sizeof *l->entries, entry_order);
  l->later = listings;
  listings = l;
  return l;
}

/* Forget d's listing (closedir, rewinddir). */
static void forget_listing(DIR *d) {
  struct listing **at = &listings;
  while (*at && (*at)->dir != d)
    at = &(*at)->later;
  if (*at) {
    struct listing *l = *at;
    *at = l->later;
    free(l->entries);
    free(l);
  }
}

struct dirent64 *readdir64(DIR *d) {
  struct listing *l = listing_of(d);
  if (!l)
    return glibc_readdir64(d);
  if (l->next < l->count)
    return &l->entries[l->next++];
  if (l->error)
    errno = l->error;
  return NULL;
}

_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "one layout on x86-64");
struct dirent *readdir(DIR *d) { return (struct dirent *)readdir64(d); }

int closedir(DIR *d) {
  static int (*glibc)(DIR *);
  if (!glibc)
    glibc = (int (*)(DIR *))real("closedir");
  forget_listing(d);
  return glibc(d);
}

void rewinddir(DIR *d) {
  static void (*glibc)(DIR *);
  if (!glibc)
    glibc = (void (*)(DIR *))real("rewinddir");
  forget_listing(d);
  glibc(d);
}

/* ---- The machine (runtime/fixed_machine.h) -------------------------------------------
 *
 * One CPU and 1 GiB of memory, and sysconf's other answers as the analysis gives them
 * (glibc answers the names the models do not); its names (uname, gethostname); its
 * uptime, load and memory (sysinfo, get_phys_pages; getloadavg fails as glibc's does
 * without /proc). */

/* glibc's own sysconf, under its other exported name (no dlsym: see below). */
extern long __sysconf(int name);
/* The sanitizers' start-up asks sysconf before their runtime is ready: no instrumentation
 * may run in it then (MemorySanitizer's would crash). */
AUGUR_UNINSTRUMENTED long sysconf(int name) {
  long v = augur_fixed_sysconf(name);
  return v != AUGUR_SYSCONF_UNKNOWN ? v : __sysconf(name);
}
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask) {
  (void)pid;
  if (size < sizeof(unsigned long))
    return refused(EINVAL);
  memset(mask, 0, size);
  CPU_SET_S(0, size, mask);
  return 0;
}
int get_nprocs(void) { return AUGUR_CPUS; }
int uname(struct utsname *u) {
  static const char *const fields[6] = AUGUR_UNAME_FIELDS;
  char *out[6] = {u->sysname, u->nodename, u->release, u->version, u->machine, u->domainname};
  int i;
  for (i = 0; i < 6; i++)
    snprintf(out[i], sizeof u->sysname, "%s", fields[i]);
  return 0;
}
int gethostname(char *name, size_t len) {
  return augur_fixed_hostname(name, len) == 0 ? 0 : refused(ENAMETOOLONG);
}
int get_nprocs_conf(void) { return AUGUR_CPUS; }
int sysinfo(struct sysinfo *info) {
  AUGUR_FIXED_SYSINFO(info);
  return 0;
}
/* glibc asks these of its own sysinfo, and getloadavg opens /proc/loadavg with its own
 * open: neither reaches the wrappers above, so they go through them here. */
long get_phys_pages(void) { return sysconf(_SC_PHYS_PAGES); }
long get_avphys_pages(void) { return sysconf(_SC_AVPHYS_PAGES); }
int getloadavg(double *loads, int n) {
  (void)loads;
  (void)n;
  return refused(ENOENT);
}

/* ---- The name service (runtime/fixed_names.h) ----------------------------------------
 *
 * No network, no DNS, no hosts or services file: localhost, the host's own name and
 * numeric addresses resolve, any other name is unknown, every service is a number (no
 * service has a name). glibc's
 * resolver would ask the replaying host's files and network; these definitions answer
 * instead, as the models do. A list from this getaddrinfo is freed by this freeaddrinfo
 * (the program's call lands here too). */

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                struct addrinfo **res) {
  return augur_fixed_getaddrinfo(node, service, hints, res);
}
void freeaddrinfo(struct addrinfo *list) { augur_fixed_freeaddrinfo(list); }
const char *gai_strerror(int code) { return augur_fixed_gai_strerror(code); }
int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen,
                char *serv, socklen_t servlen, int flags) {
  return augur_fixed_getnameinfo(sa, salen, host, hostlen, serv, servlen, flags);
}
struct hostent *gethostbyname(const char *name) {
  return augur_fixed_gethostbyname2(name, AF_INET);
}
struct hostent *gethostbyname2(const char *name, int af) {
  return augur_fixed_gethostbyname2(name, af);
}
int gethostbyname_r(const char *name, struct hostent *ret, char *buf, size_t len,
                    struct hostent **result, int *h_errnop) {
  return augur_fixed_gethostbyname2_r(name, AF_INET, ret, buf, len, result, h_errnop);
}
int gethostbyname2_r(const char *name, int af, struct hostent *ret, char *buf, size_t len,
                     struct hostent **result, int *h_errnop) {
  return augur_fixed_gethostbyname2_r(name, af, ret, buf, len, result, h_errnop);
}
struct hostent *gethostbyaddr(const void *addr, socklen_t len, int type) {
  return augur_fixed_gethostbyaddr(addr, len, type);
}
int gethostbyaddr_r(const void *addr, socklen_t len, int type, struct hostent *ret, char *buf,
                    size_t buflen, struct hostent **result, int *h_errnop) {
  return augur_fixed_gethostbyaddr_r(addr, len, type, ret, buf, buflen, result, h_errnop);
}
/* No services: what glibc answers for one it does not know. */
struct servent *getservbyname(const char *name, const char *proto) {
  (void)name, (void)proto;
  return NULL;
}
struct servent *getservbyport(int port, const char *proto) {
  (void)port, (void)proto;
  return NULL;
}
int getservbyname_r(const char *name, const char *proto, struct servent *ret, char *buf,
                    size_t len, struct servent **result) {
  (void)name, (void)proto, (void)ret, (void)buf, (void)len;
  return augur_fixed_getservby_r(result);
}
int getservbyport_r(int port, const char *proto, struct servent *ret, char *buf, size_t len,
                    struct servent **result) {
  (void)port, (void)proto, (void)ret, (void)buf, (void)len;
  return augur_fixed_getservby_r(result);
}

/* ---- The fixed clock (runtime/libc/time.c) -------------------------------------------
 *
 * Every clock of the analysis reads 2024-01-01 00:00:00 UTC and no time passes: so do
 * the native run's (clock() as musl derives it from the process's CPU clock), and its
 * sleeps end at once. */

time_t time(time_t *t) {
  if (t)
    *t = AUGUR_FIXED_TIME;
  return AUGUR_FIXED_TIME;
}
int clock_gettime(clockid_t clock, struct timespec *ts) {
  if (clock < 0 || clock >= AUGUR_CLOCKS)
    return refused(EINVAL);
  ts->tv_sec = AUGUR_FIXED_TIME;
  ts->tv_nsec = 0;
  return 0;
}
int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  if (tv) {
    tv->tv_sec = AUGUR_FIXED_TIME;
    tv->tv_usec = 0;
  }
  return 0;
}
int timespec_get(struct timespec *ts, int base) {
  return base == TIME_UTC && clock_gettime(CLOCK_REALTIME, ts) == 0 ? base : 0;
}
clock_t clock(void) { return (clock_t)AUGUR_FIXED_TIME * 1000000; }
/* Sleeping: no time passes, so a sleep returns at once, as the models' (runtime/libc/fd.c
 * and syscall.c); natively `usleep 99999999` ran past replay's time limit. */
int nanosleep(const struct timespec *req, struct timespec *rem) {
  if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec > 999999999)
    return refused(EINVAL);
  if (rem)
    rem->tv_sec = rem->tv_nsec = 0;
  return 0;
}
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                    struct timespec *rem) {
  (void)clock;
  if (flags & TIMER_ABSTIME)
    return 0;
  return nanosleep(req, rem) == 0 ? 0 : errno;
}
unsigned int sleep(unsigned int seconds) {
  (void)seconds;
  return 0;
}
int usleep(useconds_t usec) {
  (void)usec;
  return 0;
}

/* The modelled volume, as statfs and as statvfs give it. */
static int model_volume(struct statfs *out) {
  AUGUR_FIXED_VOLUME(out);
  return 0;
}
static int model_volume_vfs(struct statvfs *out) {
  struct statfs fs;
  model_volume(&fs);
  AUGUR_VOLUME_AS_VFS(&fs, out);
  return 0;
}
/* Memory mappings as the models make them (runtime/libc/syscall.c): no fixed addresses,
 * no shared writable mapping of a file, and no page residency to ask about. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  if ((flags & MAP_FIXED) || (!(flags & MAP_ANONYMOUS) && (flags & MAP_SHARED) &&
                              (prot & PROT_WRITE))) {
    errno = flags & MAP_FIXED ? ENOMEM : ENODEV;
    return MAP_FAILED;
  }
  return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  return mmap(addr, len, prot, flags, fd, offset);
}
int mincore(void *addr, size_t len, unsigned char *vec) {
  (void)addr, (void)len, (void)vec;
  return refused(ENOSYS);
}

int statfs(const char *path, struct statfs *out) {
  struct stat st;
  return stat(path, &st) != 0 ? -1 : model_volume(out);
}
int fstatfs(int fd, struct statfs *out) {
  struct stat st;
  return fstat(fd, &st) != 0 ? -1 : model_volume(out);
}
int statvfs(const char *path, struct statvfs *out) {
  struct stat st;
  return stat(path, &st) != 0 ? -1 : model_volume_vfs(out);
}
int fstatvfs(int fd, struct statvfs *out) {
  struct stat st;
  return fstat(fd, &st) != 0 ? -1 : model_volume_vfs(out);
}
