//! Directories over the modelled files, listed the way `ls` and `du` list them
//! (opendir/readdir, sorted names, statx of each entry, the access variants), and the
//! host name: exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

#[test]
fn directories_listed_and_statx_like_ls() {
    let src = r#"
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static int list(const char *dir) {
  char *names[16];
  int n = 0;
  long total = 0;
  DIR *d = opendir(dir);
  if (!d) { printf("%s: %s\n", dir, errno == ENOTDIR ? "not a directory" : "missing"); return 1; }
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof names[0], by_name);
  for (int i = 0; i < n; i++) {
    struct statx sx;
    if (statx(AT_FDCWD, names[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) != 0) return 9;
    printf("%s %s %llu\n", names[i], S_ISDIR(sx.stx_mode) ? "dir" : "file",
           (unsigned long long)sx.stx_size);
    total += (long)sx.stx_size;
  }
  printf("total %ld\n", total);
  return 0;
}
int main(void) {
  struct statx sx;
  char c;
  int fd = open("A", O_RDONLY);
  if (fd < 0 || read(fd, &c, 1) != 1) return 8;
  close(fd);
  if (c == 'x' && unlink("B") != 0) return 7;
  if (statx(AT_FDCWD, ".", 0, STATX_BASIC_STATS, &sx) != 0 || !S_ISDIR(sx.stx_mode)) return 6;
  if (euidaccess(".", R_OK) != 0 || euidaccess("A", W_OK) != 0) return 5;
  printf(". %s %u\n", (sx.stx_mode & 0777) == 0755 ? "0755" : "other", sx.stx_nlink);
  list("A");
  list("nope");
  return list(".");
}
"#;
    let r = run_c(src, &["--sym-files", "2", "3"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let got = r.exits_with_stdout();
    let head = ". 0755 2\nA: not a directory\nnope: missing\n";
    assert_eq!(
        got,
        vec![
            (0, format!("{head}A file 3\nB file 3\ntotal 6\n")),
            (0, format!("{head}A file 3\ntotal 3\n")),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn host_name_is_fixed() {
    let src = r#"
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  char name[64], tiny[2];
  if (gethostname(name, sizeof name) != 0) return 1;
  int r = gethostname(tiny, sizeof tiny);
  printf("%s %d %d\n", name, r, r < 0 && errno == ENAMETOOLONG);
  return 0;
}
"#;
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.tests.len(), 1);
    assert_eq!(r.tests[0]["stdout"], "localhost -1 1\n");
}
