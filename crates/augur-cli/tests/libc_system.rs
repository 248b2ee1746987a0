//! The C library beyond augur's models and the system under it: musl's functions over the
//! models' system calls (`runtime/musl`, `runtime/libc/syscall.c`), directories
//! (`augur-env/src/namespace.rs`), the sandbox no other process enters, and glibc's own
//! interfaces; each checked against the native run.

mod common;
use common::*;

#[test]
fn functions_beyond_the_models_run_and_replay() {
    let src = &program("libc_system/functions_beyond_the_models_run_and_replay.c");
    let r = run_c(src, &["--sym-args", "1", "1", "7"]);
    // Every way inet_pton (musl's) reads 7 symbolic bytes, none cut short; the address
    // prints with "%08x", which any address fits: no path of its own per digit count.
    assert_eq!(r.paths(), 71, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0);
    assert_eq!(r.exit_codes(), vec![0; 71], "{}", r.stderr);
    let prefix = "dirname /usr/lib\nstrsignal Terminated\nwcslen 5\ntfind found\n";
    let outputs: Vec<String> = r.exits_with_stdout().into_iter().map(|(_, o)| o).collect();
    assert!(outputs.iter().all(|o| o.starts_with(prefix)), "{outputs:?}");
    assert!(outputs.contains(&format!("{prefix}not an address\n")));
    assert!(outputs.iter().any(|o| o.contains("address 0")));
    r.assert_native_replay_passes();
}

#[test]
fn the_process_is_alone() {
    let src = &program("libc_system/the_process_is_alone.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 1, "{}", r.stderr);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(
            0,
            "fork -1 errno 11\nexecvp -1 errno 2\nexecvp empty -1 errno 2\n\
             execve empty -1 errno 2\nstat /usr/bin -1 errno 2\n\
             execv /usr/bin/ls -1 errno 2\nexecv ./prog -1 errno 13\n\
             execv prog/x -1 errno 20\nexecvp prog in PATH -1 errno 13\n\
             execlp ls in PATH -1 errno 2\nsystem 0 -1\npopen failed\n\
             socket -1 errno 13\nwait -1 errno 10\nkill other -1 errno 3\nkill self 0\n\
             chroot -1 errno 1\nchroot missing -1 errno 2\npclose 0\n\
             cmsg next none next none\n"
                .to_string()
        )]
    );
    r.assert_native_replay_passes();
}

#[test]
fn priority_group_and_host_id() {
    exits_with_and_replays(
        "libc_system/priority_group_and_host_id.c",
        "priority 0\nnice 5\npriority 5\nother -1 errno 3\nsetpgid 0\n\
         group own 1, foreign -1 errno 1\n\
         session 1, other -1 errno 3\nsetsid -1 errno 1\ngroups of root 1: 0\n\
         groups of user in none -1, 1\nsethostname -1 errno 1\nsetdomainname -1 errno 1\n\
         hostid 00000000\n\
         canonical /augur/work\nsynced\n",
    );
}

#[test]
fn sleeps_end_at_once_natively_too() {
    exits_with_and_replays(
        "libc_system/sleeps_end_at_once_natively_too.c",
        "sleep 0\nusleep 0\nnanosleep 0 rest 0\nbad -1\nclock 0\nnow 1704067200\n",
    );
}

#[test]
fn realpath_collapses_a_leading_double_slash_as_glibc() {
    exits_with_and_replays(
        "libc_system/realpath_collapses_a_leading_double_slash_as_glibc.c",
        "// -> /\n//. -> /\n/// -> /\n/ -> /\n//augur/.. -> /\n. -> /augur/work\nmalloced /\n",
    );
}

#[test]
fn getopt_long_only_reads_single_dash_long_options() {
    let src = &program("libc_system/getopt_long_only_reads_single_dash_long_options.c");
    let args = ["--", "-verbose", "-out=a", "-xob", "-o", "c", "-ver", "f"];
    let r = run_c(src, &args);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(0, "v -\no a\nx -\no b\no c\nv -\nrest 1\n".to_string())],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn memory_is_mapped() {
    exits_with_and_replays(
        "libc_system/memory_is_mapped.c",
        "anon anonymous zero 0 page 1\nmprotect 0 munmap 0\nfile hello, mapping\n\
         shared writable failed errno 19\nmincore -1 errno 38\nsigaltstack 0\n",
    );
}

#[test]
fn an_unmodelled_system_call_ends_the_path_by_number() {
    let src = &program("libc_system/an_unmodelled_system_call_ends_the_path_by_number.c");
    let r = run_c(src, &[]);
    let ends = r.errors("unsupported");
    assert_eq!(ends.len(), 1, "{}", r.stderr);
    assert_eq!(
        ends[0]["outcome"]["message"],
        "system call number 163 (x86-64) is not modelled"
    );
    assert_eq!(
        ends[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "UNMODELLED")
    );
    assert_eq!(ends[0]["stdout"], "before\n");
}

#[test]
fn a_signal_with_its_default_action_ends_the_process() {
    let src = &program("libc_system/a_signal_with_its_default_action_ends_the_process.c");
    let r = run_c(src, &["--sym-args", "1", "1", "1"]);
    let mut ends: Vec<String> = r
        .tests
        .iter()
        .map(|t| match t["outcome"]["kind"].as_str().unwrap() {
            "signal" => format!("signal {}", t["outcome"]["signal"]),
            kind => format!("{kind} {}", t["outcome"]["code"]),
        })
        .collect();
    ends.sort();
    assert_eq!(ends, ["exit 0", "signal 15", "signal 3"], "{}", r.stderr);
    assert!(r.tests.iter().all(|t| t["stdout"] == "handled 10, alive\n"));
    r.assert_native_replay_passes();
}

#[test]
fn the_clock_is_fixed_in_replay_too() {
    exits_with_and_replays(
        "libc_system/the_clock_is_fixed_in_replay_too.c",
        "1704067200 1704067200 1704067200 1704067200000000 2024-01-01 00:00:00 UTC -1\n\
         mtime 1704067200 0\n",
    );
}

#[test]
fn the_machine_is_the_models_in_replay_too() {
    exits_with_and_replays(
        "libc_system/the_machine_is_the_models_in_replay_too.c",
        "affinity 0 1\ncpus 1 1\npages 262144 of 4096, open 1024, clock 100\n\
         Linux localhost 6.1.0-augur #1 SMP x86_64\nhost 0 localhost, small -1\n\
         sysinfo 0: up 3600, load 0 0 0, ram 1073741824 free 1073741824 shared 0 buffers 0, \
         swap 0 free 0, 1 processes, high 0 free 0, unit 1\n\
         pages 262144 free 262144, load average -1 errno 2\n",
    );
}

#[test]
fn the_user_is_the_models_in_replay_too() {
    exits_with_and_replays(
        "libc_system/the_user_is_the_models_in_replay_too.c",
        "1000 1000 user /home/user user user 1 1000 owner 1000 1000\n\
         stat owner 1000 1000; root /root\n",
    );
}

#[test]
fn the_environment_starts_empty_and_environ_follows_it() {
    exits_with_and_replays(
        "libc_system/the_environment_starts_empty_and_environ_follows_it.c",
        "start:\nlocale C, HOME unset\nset: A=1 B=2 OWN=1\nchanged: A=4 OWN=5\n\
         replaced: R=1 S=2 T=3\ncleared NULL\nafter: C=6\n",
    );
}

#[test]
fn directories_are_made_entered_renamed_and_removed() {
    exits_with_and_replays(
        "libc_system/directories_are_made_entered_renamed_and_removed.c",
        "mkdir 0\nmkdir again -1 errno 17\nmkdir deep -1 errno 2\nmkdir sub 0\n\
                    chdir 0\ncwd /augur/work/d\n.: . .. f.txt sub\nrmdir busy -1 errno 39\n\
                    rename 0\nchdir up 0\ncwd /augur/work\nstat g 0 size 6 dir 1\n\
                    rename dir 0\ne: . .. sub\nremove dir -1 errno 39\nrmdir sub 0\n\
                    remove dir 0\nrmdir gone -1 errno 2\nchdir file -1 errno 20\n\
                    unlink dir 1\nabs /augur/work\nabsolute stat 0\n",
    );
}

#[test]
fn rand_gives_glibcs_sequence() {
    exits_with_and_replays(
        "libc_system/rand_gives_glibcs_sequence.c",
        "1804289383 846930886\n71876166 708592740\n",
    );
}

#[test]
fn replay_links_the_libraries_the_program_links() {
    let src = &program("libc_system/replay_links_the_libraries_the_program_links.c");
    let r = run_c(src, &[]);
    // musl's crypt under analysis, libcrypt's natively: the same DES hash.
    assert_eq!(
        r.exits_with_stdout(),
        vec![(0, "abMAzPxqPgoWg\n".to_string())]
    );
    let replay = |libs: &[&str]| {
        let o = augur()
            .arg("replay")
            .args(libs)
            .arg(&r.source)
            .arg(&r.out)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    // Without libcrypt the native program does not link (clang 19), or the sanitizers'
    // crypt has nothing to call (clang 14): no test passes.
    let (status, stdout) = replay(&[]);
    assert_ne!(status, Some(0), "{stdout}");
    assert!(!stdout.contains("1 passed"), "{stdout}");
    let (status, stdout) = replay(&["--libs", "-lcrypt"]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
}

#[test]
fn a_pipe_carries_bytes_within_the_process() {
    exits_with_and_replays(
        "libc_system/a_pipe_carries_bytes_within_the_process.c",
        "ends 3 4\nwrite 11\nread 5\ngot hello\nfifo 1\nlseek -1 errno 29\n\
                    wrong end -1 errno 9\nrest 6\neof 0\n",
    );
}

#[test]
fn regular_expressions_have_glibcs_types() {
    exits_with_and_replays(
        "libc_system/regular_expressions_have_glibcs_types.c",
        "regcomp 0 nsub 2\nregexec 0: 2-8 2-5 6-8\nnomatch 1\nhigh byte 0\n\
                    error 7 Unmatched [, [^, [:, [., or [=\n\
         ^* 13\n*a 13\na|+b 13\n(?:a) 13\na$* 13\n{1} 13\n\\(^*\\) 13\n\
         a** 0\na*+ 0\n()* 0\n(^)* 0\n[*]+ 0\n\\* 0\nx{1}* 0\na\\|*b 0\n",
    );
}

#[test]
fn sendfile_copies_between_descriptors() {
    exits_with_and_replays(
        "libc_system/sendfile_copies_between_descriptors.c",
        "hello sendfile\n\n15\nsend\n4\nat 10 offset 15\ndirname //\n",
    );
}

#[test]
fn the_machine_is_linux_on_x86_64() {
    exits_with_and_replays(
        "libc_system/the_machine_is_linux_on_x86_64.c",
        "0 Linux x86_64\n",
    );
}

#[test]
fn files_have_modes_owners_and_a_file_system() {
    let src = &program("libc_system/files_have_modes_owners_and_a_file_system.c");
    let r = run_c(src, &["--sym-files", "1", "2"]);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(
            0,
            "umask was 22\numask was 77\nprivate: file 600\nbox: dir 700\n\
             box/open: dir 755\nA: file 644\nchmod 0\nprivate: file 4751\nfchmod 0\n\
             fstat 604\nchmod missing -1 errno 2\nchmod dir 0\ncrate: dir 700\n\
             crate/open: dir 755\nchown own 0\nchown root -1 errno 1\nfchown own 0\n\
             statfs 0 type ef53 bsize 4096\nfstatfs 0 blocks 262144\n\
             statvfs 0 bavail 131072 flag 1000 namemax 255\nstatfs missing -1 errno 2\n"
                .to_string()
        )],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn names_resolve_in_the_fixed_world() {
    let src = &program("libc_system/names_resolve_in_the_fixed_world.c");
    let r = run_c(src, &["--sym-args", "1", "1", "1"]);
    // argv[1] is one symbolic byte or none: every way the service's one character reads.
    assert_eq!(r.paths(), 14, "{}", r.stderr);
    let prefix = "127.0.0.1 - family 0 socktype 0: [2 1 6 127.0.0.1 0] [2 2 17 127.0.0.1 0] \
                  [2 3 0 127.0.0.1 0]\n\
                  ::1 80 family 0 socktype 1: [10 1 6 ::1 80]\n\
                  localhost 80 family 0 socktype 1: [10 1 6 ::1 80] [2 1 6 127.0.0.1 80]\n\
                  localhost - family 2 socktype 0: [2 1 6 127.0.0.1 0] [2 2 17 127.0.0.1 0] \
                  [2 3 0 127.0.0.1 0]\n\
                  nosuch.example 80 family 0 socktype 1: -2 Name or service not known\n\
                  127.0.0.1 http family 0 socktype 1: -8 Servname not supported for ai_socktype\n\
                  getnameinfo 127.0.0.1 0: 0 localhost 80\n\
                  getnameinfo 127.0.0.1 1: 0 127.0.0.1 80\n\
                  getnameinfo 10.1.2.3 0: 0 10.1.2.3 80\n\
                  getnameinfo 10.1.2.3 8: -2  \n\
                  gethostbyname localhost: localhost 4 127.0.0.1 one\n\
                  gethostbyname nosuch.example: h_errno 1\n";
    let mut kinds = std::collections::BTreeSet::new();
    for (code, out) in r.exits_with_stdout() {
        assert_eq!(code, 0, "{out}");
        let last = out.strip_prefix(prefix).unwrap_or_else(|| panic!("{out}"));
        // An empty service or "*" is none (port 0), a digit is its port, any other
        // character a service name the world does not have.
        let (name, answer) = last
            .strip_prefix("127.0.0.1 ")
            .and_then(|l| l.split_once(" family 2 socktype 1: "))
            .unwrap_or_else(|| panic!("{out}"));
        let expected = match name {
            "" | "*" => "[2 1 6 127.0.0.1 0]\n".to_string(),
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                format!("[2 1 6 127.0.0.1 {d}]\n")
            }
            _ => "-8 Servname not supported for ai_socktype\n".to_string(),
        };
        assert_eq!(answer, expected, "{out}");
        kinds.insert(expected.chars().next());
    }
    assert_eq!(kinds.len(), 2, "ports and unknown services both reached");
    r.assert_native_replay_passes();
}
