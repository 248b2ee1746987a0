/* record.c: augur's recording runtime (SymCrash). Linked into the binary `augur record`
 * builds, it keeps a compact binary log of what the program's hard-to-resolve functions
 * returned, and writes it when the program ends: normal exit, abort, a fatal signal, or a
 * sanitizer report. The log holds only those results (return values and bytes written
 * through pointer parameters), never the program's input.
 *
 * The wrappers `augur record` generates (one per hard function) call:
 *   augur_rec_enter()/augur_rec_leave()  around every call; only the outermost hard call
 *                                        is logged (a nested one never runs when the
 *                                        outer one's result is substituted);
 *   augur_rec_begin(fid), augur_rec_part(slot, bytes, len), augur_rec_end()
 *                                        to log one call (slot 0: the return value,
 *                                        k >= 1: parameter k-1's pointee; len -1: NULL);
 *   augur_rec_next(fid), augur_rec_get(slot, out, max), augur_rec_get_string(slot)
 *                                        to substitute logged results instead of calling
 *                                        the function, when AUGUR_LOG_REPLAY names a log
 *                                        (the "with-log" reproduction of `augur repro`).
 *
 * The log goes to $AUGUR_LOG, else to the binary's path + ".augurlog".
 *
 * Format (little endian): "AUGURLOG", u16 version (1), 32-byte build id, u16 number of
 * functions, per function (u8 name length, name, u8 result kind, u8 result size); then per
 * call: u16 function, parts (u8 slot, u16 length or 0xFFFF for NULL, bytes), u8 0xFF;
 * then the end marker: u16 0xFFFF, u32 calls logged, u32 calls dropped (log full). A log
 * without the end marker is truncated. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Provided by the generated wrappers. */
struct augur_rec_fn {
  const char *name;
  char kind; /* 'i' integer, 'f' float, 'd' double, 's' string, 'v' nothing */
  unsigned char size;
};
extern const unsigned char augur_rec_build_id[32];
extern const struct augur_rec_fn augur_rec_functions[];
extern const unsigned augur_rec_nfunctions;

#define LOG_CAPACITY (1 << 16)
#define END_MARK 0xFFFFu

static unsigned char buf[LOG_CAPACITY];
static size_t used;            /* bytes of complete calls */
static size_t pos;             /* write position of the call being logged */
static int overflow;           /* the call being logged does not fit */
static uint32_t calls, dropped;
static int depth;
static volatile sig_atomic_t flushed;

static void put(const void *p, size_t n) {
  if (overflow || pos + n > LOG_CAPACITY - 16) {
    overflow = 1;
    return;
  }
  memcpy(buf + pos, p, n);
  pos += n;
}

static void put_u16(unsigned v) {
  unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
  put(b, 2);
}

int augur_rec_enter(void) { return depth++ == 0; }
void augur_rec_leave(void) { depth--; }

void augur_rec_begin(unsigned fid) {
  pos = used;
  overflow = 0;
  put_u16(fid);
}

void augur_rec_part(unsigned slot, const void *bytes, int len) {
  unsigned char s = (unsigned char)slot;
  put(&s, 1);
  if (len < 0) {
    put_u16(END_MARK);
    return;
  }
  put_u16((unsigned)len);
  put(bytes, (size_t)len);
}

void augur_rec_end(void) {
  unsigned char end = 0xFF;
  put(&end, 1);
  if (overflow) {
    dropped++;
  } else {
    used = pos;
    calls++;
  }
}

static int write_all(int fd, const void *p, size_t n) {
  const unsigned char *b = p;
  while (n > 0) {
    ssize_t w = write(fd, b, n);
    if (w <= 0)
      return -1;
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

/* AUGUR_LOG and AUGUR_LOG_REPLAY, read before main (augur replay's runtime empties the
 * environment main starts with; the strings themselves stay). */
static const char *setting_log, *setting_log_replay;

/* Before every constructor of the program's too (which may call a logged function). */
__attribute__((constructor(101))) static void keep_settings(void) {
  setting_log = getenv("AUGUR_LOG");
  setting_log_replay = getenv("AUGUR_LOG_REPLAY");
}

static void log_path(char *out, size_t cap) {
  const char *env = setting_log;
  ssize_t n;
  if (env && *env) {
    strncpy(out, env, cap - 1);
    out[cap - 1] = 0;
    return;
  }
  n = readlink("/proc/self/exe", out, cap - 10);
  if (n < 0)
    n = 0;
  memcpy(out + n, ".augurlog", 10);
}

/* Write the log once (async-signal-safe: open, write, close). */
static void flush_log(void) {
  char path[4096];
  unsigned char head[8 + 2 + 32 + 2], tail[10];
  unsigned i;
  int fd;
  if (flushed || setting_log_replay)
    return;
  flushed = 1;
  log_path(path, sizeof path);
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return;
  memcpy(head, "AUGURLOG", 8);
  head[8] = 1, head[9] = 0;
  memcpy(head + 10, augur_rec_build_id, 32);
  head[42] = (unsigned char)augur_rec_nfunctions;
  head[43] = (unsigned char)(augur_rec_nfunctions >> 8);
  write_all(fd, head, sizeof head);
  for (i = 0; i < augur_rec_nfunctions; i++) {
    const struct augur_rec_fn *f = &augur_rec_functions[i];
    unsigned char n = (unsigned char)strlen(f->name);
    unsigned char meta[2] = {(unsigned char)f->kind, f->size};
    write_all(fd, &n, 1);
    write_all(fd, f->name, n);
    write_all(fd, meta, 2);
  }
  write_all(fd, buf, used);
  tail[0] = 0xFF, tail[1] = 0xFF;
  for (i = 0; i < 4; i++) {
    tail[2 + i] = (unsigned char)(calls >> (8 * i));
    tail[6 + i] = (unsigned char)(dropped >> (8 * i));
  }
  write_all(fd, tail, sizeof tail);
  close(fd);
}

static void on_fatal_signal(int sig) {
  flush_log();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* SIGABRT's handler before ours: the sanitizer's when it reports aborts (handle_abort). */
static struct sigaction previous_abort;

/* An abort flushes the log, then goes on as it would have without the recording: to the
 * previous handler (the sanitizer's report of the abort and its stack), else to the
 * default action. */
static void on_abort(int sig, siginfo_t *info, void *context) {
  flush_log();
  if (previous_abort.sa_flags & SA_SIGINFO) {
    if (previous_abort.sa_sigaction) {
      previous_abort.sa_sigaction(sig, info, context);
      return;
    }
  } else if (previous_abort.sa_handler != SIG_DFL && previous_abort.sa_handler != SIG_IGN) {
    previous_abort.sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

/* The sanitizers' hook run before they end the program (weak: absent without them). */
extern void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

__attribute__((constructor)) static void augur_rec_init(void) {
  static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
  struct sigaction abort_action;
  unsigned i;
  atexit(flush_log);
  /* Chained, not replaced: the sanitizer installed its handler before this constructor
   * runs (same flags, so that it still runs on its alternate stack). */
  sigaction(SIGABRT, NULL, &previous_abort);
  memset(&abort_action, 0, sizeof abort_action);
  abort_action.sa_sigaction = on_abort;
  abort_action.sa_mask = previous_abort.sa_mask;
  abort_action.sa_flags = (previous_abort.sa_flags & (SA_ONSTACK | SA_NODEFER)) | SA_SIGINFO;
  sigaction(SIGABRT, &abort_action, NULL);
  if (__sanitizer_set_death_callback) {
    /* The sanitizer handles the fatal signals (and reports them): flush when it dies. */
    __sanitizer_set_death_callback(flush_log);
  } else {
    for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
      signal(fatal[i], on_fatal_signal);
  }
}

/* ---- Substitution: return logged results instead of calling the functions. ---- */

static unsigned char *replay_data;
static size_t replay_len;
static size_t *cursor;       /* per function: offset of the next call to look at */
static size_t current;       /* offset of the parts of the call being substituted */
static int replay_loaded;

static unsigned u16_at(size_t at) { return replay_data[at] | (replay_data[at + 1] << 8); }

static void replay_die(const char *what) {
  static const char pre[] = "augur-record: ";
  write_all(2, pre, sizeof pre - 1);
  write_all(2, what, strlen(what));
  write_all(2, "\n", 1);
  _exit(95);
}

/* Offset of the first call record, after the function table. */
static size_t skip_header(void) {
  size_t at = 44;
  unsigned i, n;
  if (replay_len < 44 || memcmp(replay_data, "AUGURLOG", 8) != 0)
    replay_die("AUGUR_LOG_REPLAY: not an augur log");
  if (memcmp(replay_data + 10, augur_rec_build_id, 32) != 0)
    replay_die("AUGUR_LOG_REPLAY: the log is of another build of the program");
  n = u16_at(42);
  for (i = 0; i < n; i++) {
    if (at >= replay_len)
      replay_die("AUGUR_LOG_REPLAY: truncated log");
    at += 1 + replay_data[at] + 2;
  }
  return at;
}

/* Offset after the call record at `at` (its parts and the 0xFF closing it). */
static size_t skip_call(size_t at) {
  at += 2;
  while (at < replay_len && replay_data[at] != 0xFF) {
    unsigned len = u16_at(at + 1);
    at += 3 + (len == END_MARK ? 0 : len);
  }
  return at + 1;
}

static void load_replay(void) {
  const char *path = setting_log_replay;
  size_t cap = 4096, start;
  ssize_t n;
  unsigned i;
  int fd;
  replay_loaded = 1;
  if (!path)
    return;
  fd = open(path, O_RDONLY);
  if (fd < 0)
    replay_die("AUGUR_LOG_REPLAY: cannot open the log");
  replay_data = malloc(cap);
  while (replay_data && (n = read(fd, replay_data + replay_len, cap - replay_len)) > 0) {
    replay_len += (size_t)n;
    if (replay_len == cap)
      replay_data = realloc(replay_data, cap *= 2);
  }
  close(fd);
  if (!replay_data)
    replay_die("out of memory reading the log");
  start = skip_header();
  cursor = malloc(sizeof(size_t) * (augur_rec_nfunctions + 1));
  for (i = 0; i < augur_rec_nfunctions; i++)
    cursor[i] = start;
}

int augur_rec_next(unsigned fid) {
  size_t at;
  if (!replay_loaded)
    load_replay();
  if (!replay_data)
    return 0;
  for (at = cursor[fid]; at + 2 <= replay_len && u16_at(at) != END_MARK; at = skip_call(at)) {
    if (u16_at(at) == fid) {
      current = at + 2;
      cursor[fid] = skip_call(at);
      return 1;
    }
  }
  cursor[fid] = at;
  return 0;
}

/* The part `slot` of the call being substituted: its offset and length (-1: NULL,
 * -2: absent). */
static long find_part(unsigned slot, size_t *at_out) {
  size_t at = current;
  while (at < replay_len && replay_data[at] != 0xFF) {
    unsigned len = u16_at(at + 1);
    if (replay_data[at] == slot) {
      *at_out = at + 3;
      return len == END_MARK ? -1 : (long)len;
    }
    at += 3 + (len == END_MARK ? 0 : len);
  }
  return -2;
}

int augur_rec_get(unsigned slot, void *out, int max) {
  size_t at;
  long len = find_part(slot, &at);
  if (len > 0 && out)
    memcpy(out, replay_data + at, (size_t)(len < max ? len : max));
  return (int)len;
}

char *augur_rec_get_string(unsigned slot) {
  size_t at;
  long len = find_part(slot, &at);
  char *s;
  if (len < 0)
    return NULL;
  s = malloc((size_t)len + 1);
  memcpy(s, replay_data + at, (size_t)len);
  s[len] = 0;
  return s;
}

/* A field crash report is only useful with its stack: UBSan prints one by default in a
 * recorded binary, and AddressSanitizer reports aborts (`abort`, failed `assert`) with
 * theirs (UBSAN_OPTIONS and ASAN_OPTIONS still override these). */
const char *__ubsan_default_options(void) { return "print_stacktrace=1"; }
const char *__asan_default_options(void) { return "handle_abort=1"; }
