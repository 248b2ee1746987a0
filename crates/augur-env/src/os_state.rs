//! The per-path state of the modelled operating system: standard input, files and what was
//! written to them, descriptors, errno, `setjmp` targets. It is the path's [`EnvData`]
//! extension data (`State::ext`): shared between forked paths and copied by the first one
//! that changes it, so a fork costs nothing here and reads never copy.

use augur_engine::{Byte, State};
use augur_ir::FuncId;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The contents of a modelled input (standard input or a file), shared between states.
pub type Contents = Rc<[Byte]>;

/// What an open file descriptor refers to. Reading positions live in
/// [`EnvData::offsets`], one per open file description: descriptors made by `dup` share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Descriptor {
    /// Standard input, at offset number `.0`.
    Stdin(usize),
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
    /// Modelled file number `file`, at offset number `offset`.
    File {
        /// Index in [`EnvData::files`].
        file: usize,
        /// Index in [`EnvData::offsets`].
        offset: usize,
    },
    /// A directory opened for reading (open(2) of a directory, as opendir and `openat`'s
    /// users do), by its absolute name: it stays the same directory across chdir (a later
    /// rename of the directory is not followed).
    Directory(String),
    /// `/dev/null`, opened by name: reads find its end, writes are dropped.
    Null,
    /// One end of pipe number `pipe`.
    Pipe {
        /// Index in [`EnvData::pipes`].
        pipe: usize,
        /// The write end (else the read end).
        write: bool,
    },
}

/// A pipe (pipes.rs): the bytes written and not yet read, and how many descriptors refer
/// to each of its ends.
#[derive(Clone, Debug, Default)]
pub struct Pipe {
    /// Written, not yet read, oldest first.
    pub unread: Vec<Byte>,
    /// Descriptors open on the read end.
    pub readers: usize,
    /// Descriptors open on the write end.
    pub writers: usize,
}

/// The per-path state of the modelled environment.
#[derive(Clone, Debug)]
pub struct EnvData {
    /// Standard input's bytes (empty: immediate end of file).
    pub stdin: Contents,
    /// Modelled files: (name, contents); names are relative to the working directory,
    /// and directories made by mkdir are entries `NAME/` (see namespace.rs).
    pub files: Vec<(String, Contents)>,
    /// The current directory, as a name inside the working directory (`""`: itself).
    pub cwd: String,
    /// Open descriptors, indexed by fd (changed through [`EnvData::set_fd`]).
    pub fds: Vec<Option<Descriptor>>,
    /// Pipes made by pipe(), by number.
    pub pipes: Vec<Pipe>,
    /// The offset of each open file description (standard input's first).
    pub offsets: Vec<u64>,
    /// Address of the path's errno cell, once allocated.
    pub errno_addr: Option<u64>,
    /// `setjmp` targets by jmp_buf address: where `longjmp` resumes.
    pub jump_targets: Vec<JumpTarget>,
    /// The file-mode creation mask (modes.rs).
    pub umask: u32,
    /// Permission bits that are not the default, by entry of `files` (modes.rs).
    pub modes: BTreeMap<usize, u32>,
    /// Entries that are another name of an earlier entry's file (link(), nodes.rs): by
    /// entry, the entry that holds the file's contents and attributes.
    pub links: BTreeMap<usize, usize>,
    /// The file type (`S_IFMT` bits) of entries that are not regular files: the FIFOs
    /// and sockets mknod makes (nodes.rs).
    pub special: BTreeMap<usize, u32>,
    /// The target of each entry that is a symbolic link (symlinks.rs).
    pub symlinks: BTreeMap<usize, Rc<str>>,
}

/// Where a `longjmp` through the jmp_buf at `buf` resumes: the frame of its `setjmp`
/// call (by stack depth) and the instruction after the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTarget {
    /// Address of the jmp_buf.
    pub buf: u64,
    /// Number of frames when `setjmp` was called.
    pub depth: usize,
    /// The function of that frame (a target whose frame is gone is invalid).
    pub func: FuncId,
    /// Index of the instruction after the `setjmp` call.
    pub pc: u32,
}

impl EnvData {
    /// An environment with descriptors 0, 1 and 2 open.
    pub fn new(stdin: Contents, files: Vec<(String, Contents)>) -> Self {
        EnvData {
            stdin,
            files,
            cwd: String::new(),
            fds: vec![
                Some(Descriptor::Stdin(0)),
                Some(Descriptor::Stdout),
                Some(Descriptor::Stderr),
            ],
            pipes: Vec::new(),
            offsets: vec![0],
            errno_addr: None,
            jump_targets: Vec::new(),
            umask: crate::modes::UMASK,
            modes: BTreeMap::new(),
            links: BTreeMap::new(),
            special: BTreeMap::new(),
            symlinks: BTreeMap::new(),
        }
    }

    /// The entry holding the file named `name` (inside the tree): its own, or for a hard
    /// link the entry of the file it names; None if no file has the name.
    pub fn file(&self, name: &str) -> Option<usize> {
        let i = self.files.iter().position(|(f, _)| f == name)?;
        Some(self.links.get(&i).copied().unwrap_or(i))
    }
}

impl EnvData {
    /// Descriptor `fd` now refers to `d` (or is closed), keeping the pipes' counts of
    /// their ends.
    pub fn set_fd(&mut self, fd: usize, d: Option<Descriptor>) {
        if self.fds.len() <= fd {
            self.fds.resize(fd + 1, None);
        }
        for (old, step) in [(self.fds[fd].clone(), -1isize), (d.clone(), 1)] {
            if let Some(Descriptor::Pipe { pipe, write }) = old {
                let p = &mut self.pipes[pipe];
                let count = if write {
                    &mut p.writers
                } else {
                    &mut p.readers
                };
                *count = count.saturating_add_signed(step);
            }
        }
        self.fds[fd] = d;
    }
}

/// Empty standard input, no files, descriptors 0, 1 and 2 open: the world of a path whose
/// environment was never prepared (`augur_env::start` sets one up).
impl Default for EnvData {
    fn default() -> Self {
        EnvData::new(Rc::from(Vec::new()), Vec::new())
    }
}

thread_local! {
    /// What [`env`] reads on a path without an environment (never written).
    static UNPREPARED: &'static EnvData = Box::leak(Box::default());
}

/// The path's environment, for reading.
#[inline]
pub fn env(st: &State) -> &EnvData {
    match st.ext().get::<EnvData>() {
        Some(e) => e,
        None => UNPREPARED.with(|e| *e),
    }
}

/// The path's environment, for writing (copied first if another path shares it).
#[inline]
pub fn env_mut(st: &mut State) -> &mut EnvData {
    st.ext_mut().get_or_default()
}

/// A world of empty files with these names and an empty standard input (for unit tests).
#[cfg(test)]
pub(crate) fn world(files: &[&str]) -> EnvData {
    let files = files
        .iter()
        .map(|f| (f.to_string(), Contents::from(Vec::new())))
        .collect();
    EnvData::new(Contents::from(Vec::new()), files)
}
