//! A program given as a source tree and its build command (`--project DIR --build CMD`).
//! Every build happens in a scratch copy of the tree, configured and built once with its
//! own compiler (`CC`, `CFLAGS`, `LDFLAGS` in the build's environment): one with `augur
//! cc`, whose bitcode augur analyses, and one per independent build; a bug's files are
//! then patched into each copy, the copy rebuilt by the project's own command, the
//! executable taken, and the originals put back. Each source's compile command comes
//! from the bitcode (the `augur cc` build adds `-frecord-command-line`), so the probe
//! compile sees the build's include paths and macros. A bug is also given as a unified
//! diff against the original tree.

use crate::builds::{Build, Flavour, INDEPENDENT};
use crate::embed::{self, Probe};
use augur_engine::Progress;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A source tree and how it builds.
#[derive(Clone, Debug)]
pub struct Project {
    /// The tree (never written: every build is in a copy).
    pub root: PathBuf,
    /// Run once in each copy before its first build (`./configure`), if any.
    pub configure: Option<String>,
    /// Builds the program (`make`); run again after each patch.
    pub build: String,
    /// The built executable, relative to the tree.
    pub program: PathBuf,
}

/// The compiler a copy's build gets.
#[derive(Clone, Debug)]
struct Compiler {
    /// `CC`.
    cc: String,
    /// `CFLAGS` (and `LDFLAGS`: sanitizers must be linked too).
    flags: Vec<String>,
}

impl Compiler {
    /// Its name in messages.
    fn describe(&self) -> String {
        format!("CC='{}' CFLAGS='{}'", self.cc, self.flags.join(" "))
    }
}

/// A scratch copy of the project, configured and built with one compiler.
struct Tree {
    _dir: tempfile::TempDir,
    path: PathBuf,
    compiler: Compiler,
    project: Project,
}

/// The last line of `stderr` that says "error" (else its last line).
fn last_error(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines
        .iter()
        .rfind(|l| l.contains("error"))
        .or(lines.last())
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| "no message".into())
}

impl Tree {
    /// Copy the project and configure and build it with `compiler`.
    fn new(project: &Project, compiler: Compiler) -> Result<Tree, String> {
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let path = dir.path().join("tree");
        let o = Command::new("cp")
            .arg("-a")
            .arg(&project.root)
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run cp: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "{}: cannot copy: {}",
                project.root.display(),
                last_error(&o.stderr)
            ));
        }
        let tree = Tree {
            _dir: dir,
            path,
            compiler,
            project: project.clone(),
        };
        if let Some(c) = &project.configure {
            tree.sh(c)?;
        }
        tree.build()?;
        Ok(tree)
    }

    /// Run the shell command `cmd` in the copy with its compiler in the environment.
    fn sh(&self, cmd: &str) -> Result<(), String> {
        let flags = self.compiler.flags.join(" ");
        let o = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .current_dir(&self.path)
            .env("CC", &self.compiler.cc)
            .env("CFLAGS", &flags)
            .env("LDFLAGS", &flags)
            .output()
            .map_err(|e| format!("cannot run sh: {e}"))?;
        if o.status.success() {
            return Ok(());
        }
        Err(format!(
            "{}: `{cmd}` fails with {}: {}",
            self.project.root.display(),
            self.compiler.describe(),
            last_error(&o.stderr)
        ))
    }

    /// Build the program; its executable.
    fn build(&self) -> Result<PathBuf, String> {
        self.sh(&self.project.build)?;
        let exe = self.path.join(&self.project.program);
        if !exe.is_file() {
            return Err(format!(
                "{}: `{}` made no {}",
                self.project.root.display(),
                self.project.build,
                self.project.program.display()
            ));
        }
        Ok(exe)
    }

    /// Write `files` (path relative to the tree, text) into the copy, rebuild, hand the
    /// executable to `with`, and put the original files back, whatever happened.
    fn patched<T>(
        &self,
        files: &[(PathBuf, String)],
        with: impl FnOnce(&Path) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut saved = Vec::new();
        let mut result = Ok(());
        for (rel, text) in files {
            let p = self.path.join(rel);
            match std::fs::read(&p) {
                Ok(old) => saved.push((p.clone(), old)),
                Err(e) => {
                    result = Err(format!("{}: cannot read: {e}", p.display()));
                    break;
                }
            }
            if let Err(e) = std::fs::write(&p, text) {
                result = Err(format!("{}: cannot write: {e}", p.display()));
                break;
            }
        }
        let out = result
            .and_then(|()| self.build())
            .and_then(|exe| with(&exe));
        for (p, old) in saved {
            std::fs::write(&p, old).map_err(|e| format!("{}: cannot restore: {e}", p.display()))?;
        }
        out
    }
}

/// How one source of the program was compiled.
#[derive(Clone, Debug)]
struct CompileCommand {
    /// The directory the compiler ran in.
    dir: PathBuf,
    /// The source as the command line names it.
    source: String,
    /// The other arguments, without compiler, source, `-c`, `-emit-llvm` and `-o`.
    flags: Vec<String>,
}

/// Decode the escapes (`\XX`, hexadecimal) of a string in LLVM's textual IR.
fn ir_string(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 1..i + 3).and_then(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        });
        match (b[i], hex) {
            (b'\\', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Split a command line as `-frecord-command-line` writes it (spaces between arguments,
/// a backslash before a space or backslash inside one).
fn split_command_line(s: &str) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => args.last_mut().expect("one").extend(chars.next()),
            ' ' => args.push(String::new()),
            c => args.last_mut().expect("one").push(c),
        }
    }
    args.retain(|a| !a.is_empty());
    args
}

/// The quoted value after `key: "` in a line of textual IR.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("{key}: \""))? + key.len() + 3;
    let rest = &line[start..];
    let mut end = 0;
    let bytes = rest.as_bytes();
    while end < bytes.len() && bytes[end] != b'"' {
        end += 1;
    }
    Some(&rest[..end])
}

/// The metadata id a line defines (`!12 = ...`) and the rest of the line.
fn definition(line: &str) -> Option<(&str, &str)> {
    let (id, rest) = line.split_once(" = ")?;
    id.starts_with('!').then_some((id, rest))
}

/// The compile command of every compile unit of the textual IR `ir` whose command line
/// was recorded, with the absolute path of its source.
fn compile_commands(ir: &str) -> Vec<(PathBuf, CompileCommand)> {
    let mut files: FxHashMap<&str, (String, String)> = FxHashMap::default();
    let mut strings: FxHashMap<&str, String> = FxHashMap::default();
    let mut units = Vec::new();
    let mut lines_of_commands = Vec::new();
    for line in ir.lines() {
        if let Some(list) = line.strip_prefix("!llvm.commandline = !{") {
            lines_of_commands = list
                .trim_end_matches('}')
                .split(", ")
                .map(str::to_string)
                .collect();
            continue;
        }
        let Some((id, rest)) = definition(line) else {
            continue;
        };
        if rest.starts_with("!DIFile(") {
            if let (Some(f), Some(d)) = (field(rest, "filename"), field(rest, "directory")) {
                files.insert(id, (ir_string(f), ir_string(d)));
            }
        } else if rest.starts_with("distinct !DICompileUnit(") {
            if let Some(f) = rest.split("file: ").nth(1) {
                units.push(f.split([',', ')']).next().unwrap_or("").to_string());
            }
        } else if let Some(s) = rest.strip_prefix("!{!\"") {
            strings.insert(id, ir_string(s.trim_end_matches("\"}")));
        }
    }
    let units: Vec<&(String, String)> =
        units.iter().filter_map(|u| files.get(u.as_str())).collect();
    let mut out: Vec<(PathBuf, CompileCommand)> = Vec::new();
    for id in &lines_of_commands {
        let Some(line) = strings.get(id.as_str()) else {
            continue;
        };
        let args = split_command_line(line);
        let Some((file, dir)) = units
            .iter()
            .find(|(f, _)| args.iter().skip(1).any(|a| a == f))
        else {
            continue;
        };
        let mut flags = Vec::new();
        let mut i = 1;
        while i < args.len() {
            match args[i].as_str() {
                "-o" => i += 1,
                "-c" | "-emit-llvm" => {}
                a if a == file => {}
                a => flags.push(a.to_string()),
            }
            i += 1;
        }
        let path = Path::new(dir).join(file);
        if !out.iter().any(|(p, _)| *p == path) {
            let cmd = CompileCommand {
                dir: PathBuf::from(dir),
                source: file.clone(),
                flags,
            };
            out.push((path, cmd));
        }
    }
    out
}

/// The project built: the `augur cc` copy with the program's bitcode, the independent
/// copies, and each source's compile command.
pub struct Built {
    project: Project,
    cc: Tree,
    _bc_dir: tempfile::TempDir,
    bc: PathBuf,
    independent: Vec<(Flavour, Result<Tree, String>)>,
    /// The original program's executable of each independent copy (the copy's program
    /// is a buggy one once a bug is built there), named by its index in `independent`.
    originals: tempfile::TempDir,
    commands: Vec<(PathBuf, CompileCommand)>,
}

/// The buggy program's builds: augur replay's and the independent ones.
pub type BuggyBuilds = (Build, Vec<(Flavour, Result<Build, String>)>);

impl Built {
    /// Build `project` with `augur cc` (`augur` is augur's executable) and extract the
    /// program's bitcode, then build it with each independent compiler (a copy that does
    /// not build says why in every bug's verification).
    pub fn new(project: &Project, augur: &Path, progress: &dyn Progress) -> Result<Built, String> {
        let cc = Compiler {
            cc: format!("{} cc", augur.display()),
            flags: vec!["-frecord-command-line".into()],
        };
        progress.message(&format!(
            "building {} with augur cc",
            project.root.display()
        ));
        let cc = Tree::new(project, cc)?;
        let bc_dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let bc = bc_dir.path().join(format!("{}.bc", program_name(project)));
        augur_env::project::extract(&cc.path.join(&project.program), &bc)?;
        let commands = compile_commands(&augur_ir::llvm::disassemble(&bc)?)
            .into_iter()
            .filter(|(p, _)| p.starts_with(&cc.path) && p.is_file())
            .collect::<Vec<_>>();
        if commands.is_empty() {
            return Err(format!(
                "{}: no C source of {} has a recorded compile command (does the build pass CFLAGS to the compiler?)",
                project.root.display(),
                project.program.display()
            ));
        }
        let mut independent = Vec::new();
        let originals =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        for (i, f) in INDEPENDENT.into_iter().enumerate() {
            let (cc, flags) = f.compiler_and_flags().expect("an independent build");
            progress.message(&format!(
                "building {} as {}",
                project.root.display(),
                f.name()
            ));
            let tree = Tree::new(project, Compiler { cc, flags });
            if let Ok(t) = &tree {
                let exe = t.path.join(&project.program);
                std::fs::copy(&exe, originals.path().join(i.to_string()))
                    .map_err(|e| format!("{}: cannot copy: {e}", exe.display()))?;
            }
            independent.push((f, tree));
        }
        Ok(Built {
            project: project.clone(),
            cc,
            _bc_dir: bc_dir,
            bc,
            independent,
            originals,
            commands,
        })
    }

    /// The program's bitcode (its file stem is the program's name).
    pub fn bitcode(&self) -> &Path {
        &self.bc
    }

    /// The program's C sources in the `augur cc` copy (as its debug info names them).
    pub fn sources(&self) -> Vec<PathBuf> {
        self.commands.iter().map(|(p, _)| p.clone()).collect()
    }

    /// `source` (in the `augur cc` copy) relative to the tree.
    pub fn relative(&self, source: &Path) -> PathBuf {
        source
            .strip_prefix(&self.cc.path)
            .unwrap_or(source)
            .to_path_buf()
    }

    /// The probe compile ([`embed::probe`]) of each source by its own compile command, in
    /// its own directory, the probe copy beside the source (so its quoted includes
    /// resolve as the source's do).
    pub fn probe(
        &self,
        texts: &[String],
        wanted: &FxHashMap<(usize, u32), Vec<String>>,
    ) -> Result<Probe, String> {
        let mut probe = Probe::default();
        let clang = augur_ir::llvm::clang();
        for (i, (path, cmd)) in self.commands.iter().enumerate() {
            if !wanted.keys().any(|(s, _)| *s == i) {
                continue;
            }
            let name = format!(".augur-probe.{}", embed::file_name(path));
            let copy = path.with_file_name(&name);
            let given = Path::new(&cmd.source).with_file_name(&name);
            std::fs::write(&copy, embed::probe_text(i, &texts[i], wanted))
                .map_err(|e| format!("{}: {e}", copy.display()))?;
            let o = augur_ir::llvm::clang_command()
                .args(&cmd.flags)
                .args(["-fsyntax-only", "-ferror-limit=0", "-w"])
                .arg(&given)
                .current_dir(&cmd.dir)
                .output();
            let _ = std::fs::remove_file(&copy);
            let o = o.map_err(|e| augur_ir::llvm::cannot_run(&clang, &e))?;
            embed::read_probe_errors(&o.stderr, &[(i, given)], &mut probe);
        }
        Ok(probe)
    }

    /// augur replay's build of the original program.
    pub fn original(&self, args: &[String], timeout: Duration) -> Result<Build, String> {
        Build::of_bitcode(&self.bc, args, timeout)
    }

    /// The original program's independent build as `flavour`, run as the program with
    /// the concrete `args`.
    pub fn original_independent(
        &self,
        flavour: Flavour,
        args: &[String],
        timeout: Duration,
    ) -> Result<Build, String> {
        let Some(i) = self.independent.iter().position(|(f, _)| *f == flavour) else {
            return Err(format!("no build as {}", flavour.name()));
        };
        self.independent[i].1.as_ref().map_err(String::clone)?;
        let exe = self.originals.path().join(i.to_string());
        Build::of_executable(&exe, &program_name(&self.project), args, timeout, flavour)
    }

    /// The program with `files` (paths in the `augur cc` copy, buggy texts) patched in,
    /// rebuilt by the project's build in every copy: augur replay's build of its bitcode
    /// and each independent build.
    pub fn buggy(
        &self,
        files: &[(PathBuf, String)],
        args: &[String],
        timeout: Duration,
    ) -> Result<BuggyBuilds, String> {
        let files = self.relative_files(files);
        let name = program_name(&self.project);
        let replay = self.replay_relative(&files, args, timeout)?;
        let independent = self
            .independent
            .iter()
            .map(|(f, tree)| {
                let b = tree.as_ref().map_err(String::clone).and_then(|t| {
                    t.patched(&files, |exe| {
                        Build::of_executable(exe, &name, args, timeout, *f)
                    })
                });
                (*f, b)
            })
            .collect();
        Ok((replay, independent))
    }

    /// The program with `files` (paths in the `augur cc` copy, texts) patched in and
    /// rebuilt in the `augur cc` copy alone: augur replay's build of its bitcode.
    pub fn replay(
        &self,
        files: &[(PathBuf, String)],
        args: &[String],
        timeout: Duration,
    ) -> Result<Build, String> {
        self.replay_relative(&self.relative_files(files), args, timeout)
    }

    /// `files` (paths in the `augur cc` copy, texts) by their paths relative to the tree.
    fn relative_files(&self, files: &[(PathBuf, String)]) -> Vec<(PathBuf, String)> {
        files
            .iter()
            .map(|(p, t)| (self.relative(p), t.clone()))
            .collect()
    }

    /// [`Built::replay`] of `files` given by their paths relative to the tree.
    fn replay_relative(
        &self,
        files: &[(PathBuf, String)],
        args: &[String],
        timeout: Duration,
    ) -> Result<Build, String> {
        let name = program_name(&self.project);
        self.cc.patched(files, |exe| {
            let dir = tempfile::tempdir()
                .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
            let bc = dir.path().join(format!("{name}.bc"));
            augur_env::project::extract(exe, &bc)?;
            Build::of_bitcode(&bc, args, timeout)
        })
    }

    /// A unified diff (`patch -p1` applies it in the tree) from the sources' `original`
    /// texts to `buggy` (same order as [`Built::sources`]; unchanged files are left out).
    pub fn patch(&self, original: &[String], buggy: &[String]) -> Result<String, String> {
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let mut out = String::new();
        for (i, (path, _)) in self.commands.iter().enumerate() {
            if original[i] == buggy[i] {
                continue;
            }
            let (a, b) = (dir.path().join("a"), dir.path().join("b"));
            std::fs::write(&a, &original[i]).map_err(|e| format!("{}: {e}", a.display()))?;
            std::fs::write(&b, &buggy[i]).map_err(|e| format!("{}: {e}", b.display()))?;
            let rel = self.relative(path).display().to_string();
            let o = Command::new("diff")
                .args(["-u", "--label"])
                .arg(format!("a/{rel}"))
                .arg("--label")
                .arg(format!("b/{rel}"))
                .arg(&a)
                .arg(&b)
                .output()
                .map_err(|e| format!("cannot run diff: {e}"))?;
            if o.status.code() != Some(1) {
                return Err(format!("diff of {rel}: {}", last_error(&o.stderr)));
            }
            out.push_str(&String::from_utf8_lossy(&o.stdout));
        }
        Ok(out)
    }
}

/// The program's name (argv[0]): its executable's file name.
fn program_name(project: &Project) -> String {
    embed::file_name(&project.program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_commands_from_ir() {
        let ir = r#"!llvm.commandline = !{!11, !12}
!3 = !DIFile(filename: "lib/u til.c", directory: "/t")
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "clang")
!11 = !{!"/usr/bin/clang -I lib -D G=\22a\22 -c -emit-llvm -g lib/u\5C til.c -o lib/.u.o.bc"}
!12 = !{!"/usr/bin/clang -c other.c -o other.bc"}
"#;
        let c = compile_commands(ir);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, PathBuf::from("/t/lib/u til.c"));
        assert_eq!(c[0].1.source, "lib/u til.c");
        assert_eq!(c[0].1.flags, ["-I", "lib", "-D", "G=\"a\"", "-g"]);
    }
}
