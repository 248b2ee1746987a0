//! The C library's locale, multibyte, process and option-parsing functions, used the way GNU
//! coreutils uses them: exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

/// Count of tests per (exit code, stdout, stderr).
fn outcomes(r: &Run) -> std::collections::BTreeMap<(i64, String, String), usize> {
    let mut m = std::collections::BTreeMap::new();
    for t in &r.tests {
        let key = (
            t["outcome"]["code"].as_i64().unwrap_or(-1),
            t["stdout"].as_str().unwrap_or_default().to_string(),
            t["stderr"].as_str().unwrap_or_default().to_string(),
        );
        *m.entry(key).or_default() += 1;
    }
    m
}

#[test]
fn c_locale_multibyte_scan_of_stdin_is_exact_and_replays() {
    let src = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#define _(s) gettext(s)
int main(int argc, char **argv) {
  (void)argc;
  program_invocation_name = argv[0];
  if (!setlocale(LC_ALL, "")) return 9;
  bindtextdomain("coreutils", "/usr/share/locale");
  textdomain("coreutils");
  printf("%s %s %zu\n", setlocale(LC_ALL, NULL), nl_langinfo(CODESET), MB_CUR_MAX);
  char buf[4];
  size_t n = fread(buf, 1, 3, stdin);
  mbstate_t st;
  memset(&st, 0, sizeof st);
  int printable = 0, invalid = 0;
  for (size_t i = 0; i < n; i++) {
    wchar_t wc;
    size_t r = mbrtowc(&wc, buf + i, n - i, &st);
    if (r == (size_t)-1) { invalid++; memset(&st, 0, sizeof st); continue; }
    if (iswprint(wc) && wcwidth(wc) == 1 && btowc(buf[i]) == (wint_t)wc) printable++;
  }
  if (!mbsinit(&st)) abort();
  if (invalid) error(0, EILSEQ, _("%d invalid"), invalid);
  printf(ngettext("%d printable byte\n", "%d printable bytes\n", printable), printable);
  return invalid;
}
"#;
    let r = run_c(src, &["--sym-stdin", "3"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Per byte: invalid (>= 0x80), printable, or not: every combination of 3 bytes.
    let o = outcomes(&r);
    let head = "C ANSI_X3.4-1968 1\n";
    let bad =
        |k: i64| format!("prog: {k} invalid: Invalid or incomplete multibyte or wide character\n");
    let count = |code: i64, printable: &str, stderr: String| {
        o.get(&(code, format!("{head}{printable}\n"), stderr))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(count(0, "3 printable bytes", String::new()), 1);
    assert_eq!(count(3, "0 printable bytes", bad(3)), 1);
    assert_eq!(count(1, "2 printable bytes", bad(1)), 3);
    assert_eq!(count(2, "1 printable byte", bad(2)), 3);
    assert_eq!(o.len(), 10, "{o:?}");
    assert_eq!(r.tests.len(), 64);
    assert!(r.errors("abort").is_empty());
    r.assert_native_replay_passes();
}

#[test]
fn error_names_the_program_from_argv0_like_glibc() {
    let src = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  printf("%s|%s\n", program_invocation_name, program_invocation_short_name);
  if (argc > 1 && strcmp(argv[1], "-q") == 0)
    error_at_line(0, 0, "in.txt", 7, "quiet %s", argv[1]);
  error(4, ENOENT, "%s", "missing");
  return 0;
}
"#;
    let r = run_c(src, &["--sym-args", "0", "1", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let o = outcomes(&r);
    let stderr = "prog: missing: No such file or directory\n";
    assert_eq!(
        o.get(&(4, "prog|prog\n".into(), stderr.into())).copied(),
        Some(r.tests.len() - 1),
        "{o:?}"
    );
    let quiet = format!("prog:in.txt:7: quiet -q\n{stderr}");
    assert_eq!(
        o.get(&(4, "prog|prog\n".into(), quiet)).copied(),
        Some(1),
        "{o:?}"
    );
    r.assert_native_replay_passes();
}

#[test]
fn coreutils_style_wc_runs_without_false_alarms() {
    // The calls GNU wc makes first (setlocale, bindtextdomain, textdomain,
    // atexit(close_stdout), getopt_long, fstat, posix_fadvise, read, mbrtowc, iswspace,
    // iswprint, __fpending, fclose, error), on symbolic options and input.
    let headers = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <getopt.h>
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>
#define _(s) gettext(s)
"#;
    let body = r#"
static struct option const longopts[] = {
  {"bytes", no_argument, NULL, 'c'}, {"lines", no_argument, NULL, 'l'},
  {"words", no_argument, NULL, 'w'}, {NULL, 0, NULL, 0}};
int main(int argc, char **argv) {
  setlocale(LC_ALL, "");
  bindtextdomain("coreutils", "/usr/share/locale");
  textdomain("coreutils");
  atexit(close_stdout);
  int c, pl = 0, pw = 0, pc = 0;
  while ((c = getopt_long(argc, argv, "clw", longopts, NULL)) != -1) {
    switch (c) {
    case 'c': pc = 1; break;
    case 'l': pl = 1; break;
    case 'w': pw = 1; break;
    default: error(EXIT_FAILURE, 0, _("Try '%s --help' for more information."), program_invocation_short_name);
    }
  }
  if (!pl && !pw && !pc) pl = pw = pc = 1;
  struct stat st;
  if (fstat(STDIN_FILENO, &st) != 0) error(EXIT_FAILURE, errno, "-");
  posix_fadvise(STDIN_FILENO, 0, 0, POSIX_FADV_SEQUENTIAL);
  char buf[16];
  long lines = 0, words = 0, bytes = 0;
  int in_word = 0;
  ssize_t n;
  mbstate_t state = {0};
  while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0) {
    bytes += n;
    for (ssize_t i = 0; i < n;) {
      wchar_t wc;
      size_t len = mbrtowc(&wc, buf + i, n - i, &state);
      if (len == (size_t)-1 || len == (size_t)-2) { memset(&state, 0, sizeof state); i++; continue; }
      if (len == 0) len = 1;
      if (wc == L'\n') lines++;
      if (iswspace(wc)) in_word = 0;
      else if (iswprint(wc) && !in_word) { in_word = 1; words++; }
      i += len;
    }
  }
  if (n < 0) error(EXIT_FAILURE, errno, _("read error"));
  if (pl) printf("%ld ", lines);
  if (pw) printf("%ld ", words);
  if (pc) printf("%ld", bytes);
  putchar('\n');
  return EXIT_SUCCESS;
}
"#;
    let src = [headers, CLOSE_STDOUT_C, body].concat();
    let r = run_c(&src, &["--sym-args", "0", "1", "2", "--sym-stdin", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.tests.len(), 570);
    assert!(
        r.tests.iter().all(|t| t["outcome"]["kind"] == "exit"),
        "no errors: {}",
        r.stderr
    );
    let mut codes = r.exit_codes();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, vec![0, 1]);
    // An unknown option names the program as error() does.
    assert!(r.tests.iter().any(|t| t["stderr"]
        .as_str()
        .unwrap()
        .ends_with("prog: Try 'prog --help' for more information.\n")));
    r.assert_native_replay_passes();
}

#[test]
fn getopt_long_permutes_operands_like_glibc() {
    let src = r#"
#include <getopt.h>
#include <stdio.h>
int main(int argc, char **argv) {
  static struct option const longopts[] = {{"lines", no_argument, NULL, 'l'}, {NULL, 0, NULL, 0}};
  int c, lines = 0;
  while ((c = getopt_long(argc, argv, "l", longopts, NULL)) != -1)
    if (c == 'l') lines++; else return 1;
  printf("lines=%d operands:", lines);
  for (int i = optind; i < argc; i++) printf(" %s", argv[i]);
  putchar('\n');
  return 0;
}
"#;
    let r = run_c(src, &["--", "a", "-l", "b", "--lines", "--", "-l"]);
    assert_eq!(r.exit_codes(), vec![0]);
    assert_eq!(r.tests[0]["stdout"], "lines=2 operands: a b -l\n");
    r.assert_native_replay_passes();
}
