//! What one compiler command line of a build asks for, read as clang's driver reads it:
//! which files are inputs, what the output is, whether it compiles only or links too, and
//! which flags a bitcode compile of the same sources keeps.

use std::path::PathBuf;

/// Options whose value is the next argument when not attached (`-o out`, `-I dir`).
const WITH_VALUE: &[&str] = &[
    "-o",
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-idirafter",
    "-iquote",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-MF",
    "-MT",
    "-MQ",
    "-x",
    "-Xclang",
    "-Xlinker",
    "-Xpreprocessor",
    "-Xassembler",
    "-L",
    "-l",
    "-u",
    "-T",
    "-e",
    "-z",
    "-target",
    "--sysroot",
    "-arch",
    "-aux-info",
];

/// Flags after which nothing is compiled to an object or linked (preprocessing, assembly
/// output, dependency lists, queries).
const NO_OBJECT: &[&str] = &[
    "-E",
    "-S",
    "-M",
    "-MM",
    "-fsyntax-only",
    "-###",
    "--version",
    "-dumpversion",
    "-dumpmachine",
    "-emit-llvm",
];

/// What a compiler command line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Compiles its sources to objects (`-c`).
    Compile,
    /// Compiles (if given sources) and links an executable or shared object.
    Link,
    /// Anything else: preprocessing, assembly output, a query, `-v` alone.
    Other,
}

/// One compiler command line, taken apart.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// The arguments as given.
    pub args: Vec<String>,
    /// What it does.
    pub mode: Mode,
    /// Its input files (sources, objects, archives), in order.
    pub inputs: Vec<PathBuf>,
    /// `-o`'s value.
    pub output: Option<PathBuf>,
    /// The libraries it links (`-lm`, `-l m` as `-lm`), in order.
    pub libs: Vec<String>,
}

/// Is `path` a C source file (by its extension, as clang decides without `-x`)?
pub fn is_c_source(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == "c")
}

impl Invocation {
    /// Read a compiler command line (without the compiler's own name).
    pub fn parse(args: &[String]) -> Invocation {
        let mut inv = Invocation {
            args: args.to_vec(),
            mode: Mode::Link,
            inputs: Vec::new(),
            output: None,
            libs: Vec::new(),
        };
        let mut compile_only = false;
        let mut other = args.is_empty();
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_str();
            let value = args.get(i + 1).cloned();
            if WITH_VALUE.contains(&a) {
                match a {
                    "-o" => inv.output = value.map(PathBuf::from),
                    "-l" => inv.libs.extend(value.map(|v| format!("-l{v}"))),
                    _ => {}
                }
                i += 2;
                continue;
            }
            if a == "-c" {
                compile_only = true;
            } else if NO_OBJECT.contains(&a)
                || a.starts_with("-print-")
                || a == "-v" && args.len() == 1
            {
                other = true;
            } else if let Some(out) = a.strip_prefix("-o") {
                inv.output = Some(PathBuf::from(out));
            } else if a.starts_with("-l") {
                inv.libs.push(a.to_string());
            } else if !a.starts_with('-') || a == "-" {
                inv.inputs.push(PathBuf::from(a));
            }
            i += 1;
        }
        inv.mode = if other || inv.inputs.is_empty() {
            Mode::Other
        } else if compile_only {
            Mode::Compile
        } else {
            Mode::Link
        };
        inv
    }

    /// The C sources among the inputs.
    pub fn c_sources(&self) -> impl Iterator<Item = &PathBuf> {
        self.inputs.iter().filter(|p| is_c_source(p))
    }

    /// The arguments a bitcode compile of one source keeps: the language and preprocessor
    /// flags, without inputs, output, optimisation, debug, dependency-file, linking,
    /// sanitizer, profiling and warnings-as-errors flags (augur's analysis flags replace
    /// them).
    pub fn bitcode_flags(&self) -> Vec<String> {
        let mut kept = Vec::new();
        let mut i = 0;
        while i < self.args.len() {
            let a = self.args[i].as_str();
            if WITH_VALUE.contains(&a) {
                if !matches!(
                    a,
                    "-o" | "-MF"
                        | "-MT"
                        | "-MQ"
                        | "-L"
                        | "-l"
                        | "-Xlinker"
                        | "-u"
                        | "-T"
                        | "-e"
                        | "-z"
                ) {
                    kept.push(a.to_string());
                    kept.extend(self.args.get(i + 1).cloned());
                }
                i += 2;
                continue;
            }
            let dropped = a == "-c"
                || !a.starts_with('-')
                || a == "-"
                || a.starts_with("-o")
                || a.starts_with("-O")
                || a.starts_with("-g")
                || a.starts_with("-M")
                || a.starts_with("-l")
                || a.starts_with("-L")
                || a.starts_with("-Wl,")
                || a.starts_with("-Werror")
                || a.starts_with("-fsanitize")
                || a.starts_with("-fno-sanitize")
                || a.starts_with("-flto")
                || a.starts_with("-fprofile")
                || a.starts_with("-fcoverage")
                || matches!(
                    a,
                    "--coverage"
                        | "-ftest-coverage"
                        | "-shared"
                        | "-static"
                        | "-pie"
                        | "-no-pie"
                        | "-rdynamic"
                        | "-save-temps"
                        | "-pipe"
                        | "-s"
                );
            if !dropped {
                kept.push(a.to_string());
            }
            i += 1;
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Invocation {
        Invocation::parse(&line.split(' ').map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn a_compile_keeps_preprocessor_flags_and_drops_the_rest() {
        let inv =
            parse("-DHAVE_X=1 -I include -O2 -g -MD -MF dep.d -Wall -Werror -c src/a.c -o obj/a.o");
        assert_eq!(inv.mode, Mode::Compile);
        assert_eq!(inv.inputs, vec![PathBuf::from("src/a.c")]);
        assert_eq!(inv.output, Some(PathBuf::from("obj/a.o")));
        assert_eq!(
            inv.bitcode_flags(),
            ["-DHAVE_X=1", "-I", "include", "-Wall"]
        );
    }

    #[test]
    fn a_link_names_its_objects_and_libraries() {
        let inv = parse("-O2 -o prog main.o libutil.a -L/opt/lib -lm -l resolv -Wl,--as-needed");
        assert_eq!(inv.mode, Mode::Link);
        assert_eq!(
            inv.inputs,
            vec![PathBuf::from("main.o"), PathBuf::from("libutil.a")]
        );
        assert_eq!(inv.libs, ["-lm", "-lresolv"]);
        assert_eq!(inv.c_sources().count(), 0);
    }

    #[test]
    fn preprocessing_and_queries_make_nothing() {
        assert_eq!(parse("-E conftest.c").mode, Mode::Other);
        assert_eq!(parse("-MM a.c").mode, Mode::Other);
        assert_eq!(parse("--version").mode, Mode::Other);
        assert_eq!(parse("-print-prog-name=ld").mode, Mode::Other);
        assert_eq!(parse("-v").mode, Mode::Other);
        assert_eq!(parse("-o conftest conftest.c").mode, Mode::Link);
    }
}
