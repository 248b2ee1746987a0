//! Starting a native run in its own root without copying augur's memory.
//!
//! A child that must make system calls between fork and exec (to enter its root) rules
//! out `posix_spawn`, and `fork` copies the page tables of augur's whole address space:
//! on the 2-core VM a fork of a 150 MiB process took 13–16 ms, more than the run itself.
//! So the child is made as `posix_spawn` makes it: `clone(CLONE_VM | CLONE_VFORK)`, on a
//! stack of its own, sharing augur's memory while augur waits for its `execve`. It only
//! makes system calls (all it needs is prepared before), resets the signal handlers, and
//! reports a failure through the shared memory.

use super::private_root::PrivateRoot;
use std::ffi::{CStr, CString};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The child's stack: `enter` and its file copies need a few KiB.
const STACK_SIZE: usize = 256 * 1024;

/// Why a run could not start.
#[derive(Debug)]
pub enum LaunchError {
    /// The kernel refused the run its own root (unshare, the maps, a mount): runs can
    /// share the machine's root instead.
    Refused(std::io::Error),
    /// Anything else (clone, the streams, exec).
    Failed(std::io::Error),
}

/// What the child needs, prepared by the parent.
struct Launch<'a> {
    program: &'a CStr,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    stdio: [RawFd; 3],
    jail: &'a PrivateRoot,
    /// The parent's signal mask, which the program gets.
    mask: libc::sigset_t,
    /// The errno of the step that failed, 0 while none has.
    error: AtomicI32,
    /// Whether that step was entering the root.
    refused: AtomicBool,
}

/// Start `program` with `argv` and `envp` (`NAME=value`), standard input, output and error
/// `stdio`, in the root `jail`. Returns its pid, or the error of the step that failed.
pub fn launch(
    program: &CStr,
    argv: &[CString],
    envp: &[CString],
    stdio: [RawFd; 3],
    jail: &PrivateRoot,
) -> Result<libc::pid_t, LaunchError> {
    let nul_ended = |v: &[CString]| {
        v.iter()
            .map(|s| s.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect()
    };
    // SAFETY: sigset_t is plain data; sigfillset and pthread_sigmask only write it.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    let mut launch = Launch {
        program,
        argv: nul_ended(argv),
        envp: nul_ended(envp),
        stdio,
        jail,
        // SAFETY: as above.
        mask: unsafe { std::mem::zeroed() },
        error: AtomicI32::new(0),
        refused: AtomicBool::new(false),
    };
    let mut stack = vec![0u8; STACK_SIZE];
    // The stack grows down: its top, 16-byte aligned.
    let top = (stack.as_mut_ptr() as usize + STACK_SIZE) & !15;
    // SAFETY: signals are blocked while the child shares this memory (a handler run in it
    // would run on augur's data); `child` only makes system calls on `launch`, which
    // outlives it (CLONE_VFORK: clone returns once the child has exec'd or exited), on a
    // stack of its own.
    let pid = unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut launch.mask);
        let pid = libc::clone(
            child,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&launch as *const Launch).cast_mut().cast(),
        );
        libc::pthread_sigmask(libc::SIG_SETMASK, &launch.mask, std::ptr::null_mut());
        pid
    };
    if pid < 0 {
        return Err(LaunchError::Failed(std::io::Error::last_os_error()));
    }
    match launch.error.load(Ordering::SeqCst) {
        0 => Ok(pid),
        errno => {
            // SAFETY: reaping the child that failed.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            let e = std::io::Error::from_raw_os_error(errno);
            match launch.refused.load(Ordering::SeqCst) {
                true => Err(LaunchError::Refused(e)),
                false => Err(LaunchError::Failed(e)),
            }
        }
    }
}

/// The child: default signal handlers, the standard streams, the root, the parent's
/// signal mask, then the program.
extern "C" fn child(data: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `data` is the parent's `Launch`, alive until this child execs or exits.
    let launch = unsafe { &*(data as *const Launch) };
    let fail = |e: std::io::Error| -> libc::c_int {
        launch
            .error
            .store(e.raw_os_error().unwrap_or(libc::EIO), Ordering::SeqCst);
        // SAFETY: _exit ends this child only.
        unsafe { libc::_exit(127) }
    };
    // SAFETY: system calls on this child's own state and on `launch`'s C strings.
    unsafe {
        for sig in 1..libc::SIGRTMAX() {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction != libc::SIG_IGN
                && old.sa_sigaction != libc::SIG_DFL
            {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &default, std::ptr::null_mut());
            }
        }
        for (to, &from) in launch.stdio.iter().enumerate() {
            if libc::dup2(from, to as libc::c_int) < 0 {
                return fail(std::io::Error::last_os_error());
            }
        }
        if let Err(e) = launch.jail.enter() {
            launch.refused.store(true, Ordering::SeqCst);
            return fail(e);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &launch.mask, std::ptr::null_mut());
        libc::execve(
            launch.program.as_ptr(),
            launch.argv.as_ptr(),
            launch.envp.as_ptr(),
        );
        fail(std::io::Error::last_os_error())
    }
}
