//! The C library's stdio variants and descriptor layer, used the way GNU coreutils uses
//! them (close_stdout, fstat before reading, posix_fadvise, files written then read
//! back): exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

#[test]
fn stdio_unlocked_variants_and_close_stdout_like_coreutils() {
    let headers =
        &program("libc_files/stdio_unlocked_variants_and_close_stdout_like_coreutils_headers.c");
    let body =
        &program("libc_files/stdio_unlocked_variants_and_close_stdout_like_coreutils_body.c");
    let src = [headers, CLOSE_STDOUT_C, body].concat();
    let r = run_c(&src, &["--sym-stdin", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.exit_codes().iter().all(|c| *c == 0),
        "{:?}",
        r.exit_codes()
    );
    let outs: std::collections::BTreeSet<String> = r
        .tests
        .iter()
        .map(|t| t["stdout"].as_str().unwrap().to_string())
        .collect();
    // Per byte: newline, 'u', or another byte.
    let want: std::collections::BTreeSet<String> = [
        "lines none\n0 2\n",
        "Ulines none\n0 2\n",
        "UUlines none\n0 2\n",
        "lines some\n1 2\n",
        "Ulines some\n1 2\n",
        "lines some\n2 2\n",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(outs, want);
    assert_eq!(r.tests.len(), 9);
    r.assert_native_replay_passes();
}

#[test]
fn fstat_fadvise_and_descriptor_calls_behave_like_linux() {
    let src = &program("libc_files/fstat_fadvise_and_descriptor_calls_behave_like_linux.c");
    let r = run_c(src, &["--sym-file", "input.txt:5"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0]);
    assert_eq!(r.tests[0]["stdout"], "size 5 end 3\n");
    r.assert_native_replay_passes();
    let none = run_c(src, &[]);
    assert_eq!(none.exit_codes(), vec![2]);
    assert_eq!(none.tests[0]["stdout"], "no file 1\n");
    none.assert_native_replay_passes();
}

#[test]
fn a_new_file_is_not_standard_input() {
    let src = &program("libc_files/a_new_file_is_not_standard_input.c");
    for options in [
        &["--sym-stdin", "2"][..],
        &["--sym-files", "1", "2", "--sym-stdin", "2"],
    ] {
        let r = run_c(src, options);
        assert_eq!(
            r.exits_with_stdout(),
            vec![(
                0,
                "stdin is xaa 0, xaa is xab 0, xaa is xaa 1\n".to_string()
            )],
            "{options:?}: {}",
            r.stderr
        );
        r.assert_native_replay_passes();
    }
}

#[test]
fn the_empty_path_names_nothing() {
    exits_with_and_replays("libc_files/the_empty_path_names_nothing.c", "done\n");
}

#[test]
fn hard_links_fifos_and_times_like_ln_mkfifo_touch() {
    exits_with_and_replays(
        "libc_files/hard_links_fifos_and_times_like_ln_mkfifo_touch.c",
        concat!(
            "link 0 0\n",
            "link exists -1 17\n",
            "link dir -1 1\n",
            "link missing -1 2\n",
            "link no parent -1 2\n",
            "linkat 0 0\n",
            "linkat flags -1 22\n",
            "write 3 0\n",
            "same 1 size 3 mode 600\n",
            "chmod 0 0\n",
            "mode 640\n",
            "rename same file 0 0\n",
            "unlink 0 0\n",
            "read 3 0\n",
            "hey\n",
            "mkfifo 0 0\n",
            "mkfifo exists -1 17\n",
            "mknod socket 0 0\n",
            "mknod file 0 0\n",
            "mknod device exists -1 17\n",
            "mknod dir -1 1\n",
            "fifo 1 644\n",
            "socket 1\n",
            "file 1 600\n",
            "open socket -1 6\n",
            "open fifo for writing -1 6\n",
            "entries 0 1 2\n",
            "utimensat 0 0\n",
            "utimensat missing -1 2\n",
            "utimensat omit missing 0 0\n",
            "utimensat bad -1 22\n",
            "utimensat dir 0 0\n",
            "utimensat not dir -1 20\n",
            "futimens 0 0\n",
            "futimens closed -1 9\n",
        ),
    );
}

#[test]
fn a_standard_stream_closed_twice() {
    exits_with_and_replays(
        "libc_files/a_standard_stream_closed_twice.c",
        "0 -1 0 -1 9\n",
    );
}

#[test]
fn files_written_are_read_back_on_the_same_path() {
    let src = &program("libc_files/files_written_are_read_back_on_the_same_path.c");
    let r = run_c(src, &["--sym-stdin", "3"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut codes = r.exit_codes();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, vec![0, 42]);
    let hit = r
        .tests
        .iter()
        .find(|t| t["outcome"]["code"] == 42)
        .expect("the path reading back \"abc\"");
    assert_eq!(hit["stdout"], "9 [>bc!\ntail]\n");
    r.assert_native_replay_passes();
}

#[test]
fn temporary_file_unlinked_while_open_is_read_back_like_tac() {
    let src = &program("libc_files/temporary_file_unlinked_while_open_is_read_back_like_tac.c");
    let r = run_c(src, &["--sym-stdin", "3"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0]);
    // The first two bytes reversed (ftruncate dropped the third), whatever they are.
    let t = &r.tests[0];
    let stdin = object_bytes(t, "stdin");
    let want: Vec<u8> = stdin[..2].iter().rev().copied().collect();
    assert_eq!(t["stdout"].as_str().unwrap().as_bytes(), &want[..]);
    r.assert_native_replay_passes();
}

#[test]
fn dev_null_opens_reads_empty_and_swallows_writes() {
    exits_with_and_replays(
        "libc_files/dev_null_opens_reads_empty_and_swallows_writes.c",
        "fd 0 read 0\nwrite 3 lseek 0\nstat 0 chr 1 fstat 0 chr 1\nexcl -1 errno 17\n\
         fopen 1 fputs 1\nvia link write 1 stat chr 1 lstat link 1 access 0\n",
    );
}

#[test]
fn a_file_larger_than_the_model_holds_ends_the_path_unsupported() {
    let src = &program("libc_files/a_file_larger_than_the_model_holds_ends_the_path_unsupported.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0]);
    assert_eq!(r.tests.len(), 3);
    let unsupported = r.errors("unsupported");
    let mut messages: Vec<&str> = unsupported
        .iter()
        .map(|t| t["outcome"]["message"].as_str().unwrap())
        .collect();
    messages.sort();
    let limit = "the OS model holds files of at most 16777216 bytes";
    assert_eq!(
        messages,
        vec![
            format!("ftruncate to 3000000000 bytes: {limit}"),
            format!("write of 1 bytes at offset 3000000000: {limit}"),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn aligned_buffer_of_any_size_like_cat_replays_natively() {
    // cat asks a page-aligned buffer of 128 KiB + 1 bytes: glibc and augur's model serve any
    // size; the native replay build must too (AddressSanitizer's own aligned_alloc rejects
    // it), or every test of such a program fails natively.
    let src = &program("libc_files/aligned_buffer_of_any_size_like_cat_replays_natively.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0, 0]);
    r.assert_native_replay_passes();
}

#[test]
fn random_bytes_are_the_fixed_worlds_and_replay_natively() {
    // sort -R seeds its hash from getrandom: the models give a fixed stream (continued
    // across calls), and the native replay build gives the same bytes, so the output a
    // test predicts is the one the real program prints.
    let src = &program("libc_files/random_bytes_are_the_fixed_worlds_and_replay_natively.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0, 0]);
    let outs: std::collections::BTreeSet<&str> = r
        .tests
        .iter()
        .map(|t| t["stdout"].as_str().unwrap())
        .collect();
    assert_eq!(outs.len(), 2, "{outs:?}");
    let words: std::collections::BTreeSet<String> = outs
        .iter()
        .map(|o| o.rsplit_once(' ').unwrap().0.to_string())
        .collect();
    assert_eq!(words.len(), 1, "both paths read the same bytes: {outs:?}");
    r.assert_native_replay_passes();
}

#[test]
fn blocks_are_the_fixed_volumes_like_du() {
    // du and ls -s print st_blocks: whole 4 KiB blocks (8 of 512 bytes per started 4 KiB)
    // in the model, and the native replay shows its own files the same way, whatever its
    // file system allocates.
    let src = &program("libc_files/blocks_are_the_fixed_volumes_like_du.c");
    let r = run_c(src, &["--sym-files", "1", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut got = r.exits_with_stdout();
    got.sort();
    let empty = "empty 0 blocks\n";
    assert_eq!(
        got,
        vec![
            (0, format!("A 1 bytes 8 blocks of 4096\n{empty}")),
            (0, format!("A 5001 bytes 16 blocks of 4096\n{empty}")),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn inode_numbers_are_the_fixed_volumes_like_stat() {
    // stat, ls -i and du print inode numbers and devices. The model numbers files in the
    // order they are made, from the test's files on, as the native run's own volume (a
    // fresh tmpfs) does; both show the fixed volume's device, 8:1.
    let src = &program("libc_files/inode_numbers_are_the_fixed_volumes_like_stat.c");
    let r = run_c(src, &["--sym-files", "2", "1", "--sym-stdin", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let rest = "/tmp: 801 5 2\nA: 801 6 1\nB: 801 7 1\nd: 801 8 2\nd/new: 801 9 1\n\
                /tmp/t: 801 10 1\nd/A2: 801 6 1\nentry . 8\nentry .. 4\nentry A2 6\n\
                entry new 9\n";
    let mut got = r.exits_with_stdout();
    got.sort();
    assert_eq!(
        got,
        vec![
            (0, format!(".: 801 4 2\n..: 801 3 3\nstdin: 801 2\n{rest}")),
            (0, rest.to_string()),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn files_in_subdirectories_number_after_their_directories() {
    // `--sym-file d/f:N` puts a file in a subdirectory: the native run makes `d`, then
    // `d/f`; the model numbers them in that order, and a directory only named by a file's
    // path (`d/e`) is numbered where the native run makes it, before that file.
    let src = &program("libc_files/files_in_subdirectories_number_after_their_directories.c");
    let files = [
        "--sym-file",
        "d/f:2",
        "--sym-file",
        "g:1",
        "--sym-file",
        "d/e/h:1",
    ];
    let r = run_c(src, &files);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let expected = "d 6 40755 nlink 3\nd/f 7 100644 nlink 1\ng 8 100644 nlink 1\n\
                    d/e 9 40755 nlink 2\nd/e/h 10 100644 nlink 1\nmade 11 40755 nlink 2\n";
    assert_eq!(r.exits_with_stdout(), vec![(0, expected.to_string())]);
    r.assert_native_replay_passes();
}

#[test]
fn the_root_stats_as_the_work_directorys_parent() {
    // `ls -ld /` (coreutils' vdir printed the native root's 22 links, owner root and
    // today's date): `/` is `/augur` in the analysis and natively alike.
    let parent = "801 3 3 40111 1000 1000 1704067200 4096";
    exits_with_and_replays(
        "libc_files/the_root_stats_as_the_work_directorys_parent.c",
        &format!(
            "/: {parent}\nlstat /: {parent}\n/augur: {parent}\n../..: {parent}\n\
             at /: {parent}\nopen / -1\nfstat / (O_PATH): {parent}\n\
             statx /: 8:1 3 3 40111 1000\n"
        ),
    );
}
