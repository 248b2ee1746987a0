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

/// Symbolic links as `ln -s`, `ls -l`, `readlink`, `cp -P` and `rm` use them: made (and
/// refused: a taken name, an empty target), read, stat'ed through and as themselves
/// (mode 0777, the target's length, ext4's blocks, a number of their own), followed by
/// open, chdir and the `*at` calls from their own directory, listed as links, renamed,
/// removed and hard-linked as themselves; a dangling link creates its target, a loop is
/// ELOOP. The test replays natively, where the kernel's links give the same answers.
#[test]
fn symbolic_links_like_ln_s() {
    let src = &program("libc_dirs/symbolic_links_like_ln_s.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let expected = concat!(
        "symlink: ok\n",
        "symlink dir: ok\n",
        "symlink dangling: ok\n",
        "symlink again: EEXIST\n",
        "symlink empty: ENOENT\n",
        "symlinkat: ok\n",
        "lf -> dir/file (lnk 1 mode 777 size 8 blocks 0 ino 8)\n",
        "dir/back -> ../lf (lnk 1 mode 777 size 5 blocks 0 ino 11)\n",
        "readlink dir/file: EINVAL\n",
        "readlink missing: ENOENT\n",
        "stat through: reg 1 size 6, same file 1, link differs 1\n",
        "stat dangling: ENOENT, lstat dangling: ok\n",
        "fstatat nofollow: lnk 1\n",
        "read through two links: hello\n",
        "open nofollow: ELOOP\n",
        "open excl: EEXIST\n",
        "create through dangling: ok, target now ok\n",
        "symlink loop: ok ok\n",
        "open loop: ELOOP\n",
        "mkdir on link: EEXIST\n",
        "rmdir on link: ENOTDIR\n",
        "chown loop: ELOOP, lchown loop: ok\n",
        "utimensat nofollow: ok, fchmodat nofollow: EOPNOTSUPP ok\n",
        "chdir ld: ok\n",
        "cwd /augur/work/dir\n",
        "stat ../lf: ok\n",
        "stat ld/file: ok, ld/ is dir 1\n",
        "dang:lnk dir:dir ld:lnk lf:lnk loop1:lnk loop2:lnk nowhere:reg \n",
        "linkat follow: ok, reg 1\n",
        "rename link: ok\n",
        "lf2 -> dir/file (lnk 1 mode 777 size 8 blocks 0 ino 8)\n",
        "unlink link: ok, target kept: ok\n",
        "hard link to link: ok\n",
        "ld2 -> dir (lnk 1 mode 777 size 3 blocks 0 ino 9)\n",
    );
    assert_eq!(r.exits_with_stdout(), vec![(0, expected.to_string())]);
    r.assert_native_replay_passes();
}
