//! Directories over the modelled files, listed the way `ls` and `du` list them
//! (opendir/readdir, sorted names, statx of each entry, the access variants), and the
//! host name: exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

#[test]
fn directories_listed_and_statx_like_ls() {
    let src = &program("libc_dirs/directories_listed_and_statx_like_ls.c");
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
    let src = &program("libc_dirs/host_name_is_fixed.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.tests.len(), 1);
    assert_eq!(r.tests[0]["stdout"], "localhost -1 1\n");
}

/// A directory opens as a descriptor, as `mkdir -p`, `rm -r` and fts use one: names
/// made, stat'ed and removed relative to it (`*at`), fchdir into it and back, listed
/// through fdopendir; reading it is EISDIR, opening it for writing EISDIR, a file as a
/// directory ENOTDIR. Both paths (with and without a subdirectory) replay natively.
#[test]
fn directory_descriptors_like_mkdir_p_and_fts() {
    let src = &program("libc_dirs/directory_descriptors_like_mkdir_p_and_fts.c");
    let r = run_c(src, &["--sym-files", "1", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let head = "dot dir\nread EISDIR\nwrite-open EISDIR\nfile as dir ENOTDIR\n\
                file as dirfd ENOTDIR\nf 3\nin top\nf here yes\n";
    let mut got = r.exits_with_stdout();
    got.sort();
    assert_eq!(
        got,
        vec![
            (0, format!("{head}lists f (dirfd same)\nrmdir ok\n")),
            (0, format!("{head}lists f sub (dirfd same)\nrmdir ok\n")),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

/// A directory lists ".", "..", then its entries by name (bytes), whatever order they
/// were made in: the fixed world's order, which the native replay imposes on the real
/// file system's; rewinddir lists the directory again as it is now.
#[test]
fn directory_order_is_by_name_like_ls_f() {
    let src = &program("libc_dirs/directory_order_is_by_name_like_ls_f.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(
            0,
            ". .. Mid alpha b10 b2 dir zeta \n. .. Mid again alpha b10 b2 dir zeta \n".into()
        )]
    );
    r.assert_native_replay_passes();
}
