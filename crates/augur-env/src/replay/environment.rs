//! The environment a test describes through objects with reserved names: the symbolic
//! arguments (`n_args`, `arg00`, `arg01`, ...), standard input (`stdin`) and files
//! (`file:NAME`).

/// Argv, stdin and files of one test, built from its environment objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// The symbolic arguments' whole objects, in order, as the analysis laid each out in
    /// memory as its `argv[i]` string: the text, its NUL and any bytes after it (the text
    /// alone: [`Environment::args`]).
    pub arg_objects: Vec<Vec<u8>>,
    /// Standard input; `None` when the test has no `stdin` object (then it is empty).
    pub stdin: Option<Vec<u8>>,
    /// (relative path, contents) of every file the test describes.
    pub files: Vec<(String, Vec<u8>)>,
}

/// Whether `name` is `arg` followed by at least two digits (`arg00`, `arg01`, ...).
pub fn is_arg_name(name: &str) -> bool {
    name.strip_prefix("arg")
        .is_some_and(|d| d.len() >= 2 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `name` is an argument count: `n_args`, or `n_args_K` for the K-th further
/// `--sym-args` group (KLEE names them all `n_args`).
pub fn is_count_name(name: &str) -> bool {
    name.strip_prefix("n_args").is_some_and(|rest| {
        rest.is_empty()
            || rest
                .strip_prefix('_')
                .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// The little-endian int of an `n_args` object (negative counts as 0).
fn count_of(bytes: &[u8]) -> usize {
    let mut b = [0u8; 4];
    for (d, s) in b.iter_mut().zip(bytes) {
        *d = *s;
    }
    i32::from_le_bytes(b).max(0) as usize
}

/// The bytes of an argument object up to its first NUL.
fn arg_text(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len())]
}

impl Environment {
    /// The symbolic arguments, in order, each up to its first NUL byte.
    pub fn args(&self) -> Vec<&[u8]> {
        self.arg_objects.iter().map(|a| arg_text(a)).collect()
    }
}

/// Build the environment of a test from its objects. An `n_args` object keeps only that
/// many of the `argNN` objects that follow it; an `argNN` with no `n_args` before it (from
/// `--sym-arg N`) is always an argument.
pub fn environment(objects: &[(String, Vec<u8>)]) -> Environment {
    let mut env = Environment::default();
    let mut budget: Option<usize> = None;
    for (name, bytes) in objects {
        if is_count_name(name) {
            budget = Some(count_of(bytes));
        } else if is_arg_name(name) {
            match budget {
                Some(0) => {}
                Some(ref mut n) => {
                    *n -= 1;
                    env.arg_objects.push(bytes.clone());
                }
                None => env.arg_objects.push(bytes.clone()),
            }
        } else if name == "stdin" {
            env.stdin = Some(bytes.clone());
        } else if let Some(file) = name.strip_prefix("file:") {
            env.files.push((file.to_string(), bytes.clone()));
        }
    }
    env
}

/// Check that a file name from a test stays inside the directory it is written to.
pub fn check_file_name(name: &str) -> Result<(), String> {
    let path = std::path::Path::new(name);
    use std::path::Component::{CurDir, Normal};
    let inside = path.is_relative()
        && matches!(path.components().next_back(), Some(Normal(_)))
        && path.components().all(|c| matches!(c, Normal(_) | CurDir));
    if inside {
        Ok(())
    } else {
        Err(format!(
            "file object `file:{name}` does not name a relative path inside the working directory"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
        (name.to_string(), bytes.to_vec())
    }

    #[test]
    fn n_args_keeps_only_that_many_arguments() {
        let objs = [
            obj("x", &[1, 0, 0, 0]),
            obj("n_args", &[2, 0, 0, 0]),
            obj("arg00", b"ab\0\0"),
            obj("arg01", b"\0zz\0"),
            obj("arg02", b"cde\0"),
        ];
        let env = environment(&objs);
        assert_eq!(env.args(), [&b"ab"[..], b""]);
        assert_eq!(
            env.arg_objects,
            vec![b"ab\0\0".to_vec(), b"\0zz\0".to_vec()]
        );
        assert_eq!(env.stdin, None);
        assert!(env.files.is_empty());
    }

    #[test]
    fn each_group_count_keeps_its_own_arguments() {
        let env = environment(&[
            obj("arg00", b"a\0"),
            obj("n_args", &[0, 0, 0, 0]),
            obj("arg01", b"b\0"),
            obj("n_args_1", &[1, 0, 0, 0]),
            obj("arg02", b"c\0"),
            obj("arg03", b"d\0"),
        ]);
        assert_eq!(env.args(), [&b"a"[..], b"c"]);
        assert!(!is_count_name("n_args_"));
        assert!(!is_count_name("n_argsx"));
    }

    #[test]
    fn sym_arg_without_n_args_is_one_argument() {
        let env = environment(&[obj("arg00", b"hi\0")]);
        assert_eq!(env.args(), [&b"hi"[..]]);
        let none = environment(&[obj("n_args", &[0, 0, 0, 0]), obj("arg00", b"x\0")]);
        assert!(none.args().is_empty());
    }

    #[test]
    fn stdin_and_files() {
        let env = environment(&[
            obj("stdin", b"in\xff"),
            obj("file:data.txt", b"hello"),
            obj("file:dir/b", b""),
        ]);
        assert_eq!(env.stdin.as_deref(), Some(&b"in\xff"[..]));
        assert_eq!(
            env.files,
            vec![
                ("data.txt".to_string(), b"hello".to_vec()),
                ("dir/b".to_string(), vec![])
            ]
        );
    }

    #[test]
    fn argument_names() {
        for n in ["arg00", "arg17", "arg123"] {
            assert!(is_arg_name(n), "{n}");
        }
        for n in ["arg", "arg0", "argv", "args00", "arg0x"] {
            assert!(!is_arg_name(n), "{n}");
        }
    }

    #[test]
    fn file_names_stay_inside() {
        assert!(check_file_name("a.txt").is_ok());
        assert!(check_file_name("d/a.txt").is_ok());
        assert!(check_file_name("./a").is_ok());
        for bad in ["", ".", "/etc/passwd", "../x", "a/../../x"] {
            assert!(check_file_name(bad).is_err(), "{bad}");
        }
    }
}
