"""The invocations of a coreutils program by coreutils' own test suite, as a test pool for
`augur inject --pool` (bench/inject-coreutils.sh).

Usage: coreutils_pool.py SRC PROG OUT MAX_ARGS ARG_LEN STDIN_LEN

SRC is coreutils' source tree. Every Perl test script of tests/ that runs PROG
(`my $prog = 'PROG'`) is run with stand-ins for its test modules (coreutils_pool/), which
print its tests instead of running them. A test's argument strings go through the shell's
word splitting, as run_tests gives them to the shell; its input (IN_PIPE, or IN read through
'<', as triple_test's variants read it) is standard input. A test becomes a pool test when it
fits the bench's symbolic inputs (`--sym-args 0 MAX_ARGS ARG_LEN --sym-stdin STDIN_LEN`): at
most MAX_ARGS arguments of at most ARG_LEN bytes, at most STDIN_LEN bytes of input (padded
with NULs, as a symbolic input of that size has them), no environment, no named or extra
files, no redirection but '<'. The pool is OUT/NNNN.json (a test's `objects` only); the
counts go to standard error."""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHELL_OPERATORS = re.compile(r"^[0-9]*[<>|&;]|[|&;]$")


def scripts(src, prog):
    """The Perl test scripts of tests/ that run prog."""
    mine = re.compile(r"""^my \$prog\s*=\s*['"]%s['"]\s*;""" % re.escape(prog), re.M)
    for path in sorted(glob.glob(os.path.join(src, "tests", "**", "*.pl"), recursive=True)):
        with open(path, errors="replace") as f:
            if mine.search(f.read()):
                yield path


def listed(src, script):
    """The tests a script lists, one dict each (empty when it does not run here); the
    test modules are loaded as the test suite loads them (perl -M)."""
    env = dict(os.environ, srcdir=src, built_programs="", LC_ALL="C")
    r = subprocess.run(
        ["perl", "-I", os.path.join(HERE, "coreutils_pool"), "-MCoreutils", "-MCuSkip",
         "-MCuTmpdir", "-w", script],
        capture_output=True, text=True, env=env, cwd=os.path.dirname(script))
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def invocation(test):
    """(argv, stdin) of a test, or the reason it cannot be one of the pool's."""
    try:
        words = shlex.split(" ".join(test["args"]))
    except ValueError:
        return "unbalanced quotes"
    inputs = [v for t, v in test["specs"] if t in ("IN", "IN_PIPE")]
    if any(t not in ("IN", "IN_PIPE") for t, _ in test["specs"]):
        return "environment or extra files"
    if len(inputs) > 1 or "named" in inputs:
        return "named input files"
    if "<" in words:
        words.remove("<")
    elif any(t == "IN" for t, _ in test["specs"]):
        return "input file arguments"
    if any(SHELL_OPERATORS.search(w) for w in words):
        return "shell redirection"
    return words, (inputs[0] if inputs else "")


def objects(argv, stdin, max_args, arg_len, stdin_len):
    """The symbolic inputs' bytes for argv and stdin, or None when they do not fit."""
    args = [a.encode("latin-1", "replace") for a in argv]
    data = stdin.encode("latin-1", "replace")
    if len(args) > max_args or any(len(a) > arg_len for a in args) or len(data) > stdin_len:
        return None
    objs = [{"name": "n_args", "bytes": list(len(args).to_bytes(4, "little"))}]
    for i in range(max_args):
        a = args[i] if i < len(args) else b""
        objs.append({"name": f"arg{i:02}", "bytes": list(a.ljust(arg_len + 1, b"\0"))})
    objs.append({"name": "stdin", "bytes": list(data.ljust(stdin_len, b"\0"))})
    return objs


def main():
    src, prog, out = sys.argv[1:4]
    max_args, arg_len, stdin_len = map(int, sys.argv[4:7])
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "*.json")):
        os.remove(old)
    kept, seen, why = set(), 0, {}
    for script in scripts(src, prog):
        for test in listed(src, script):
            seen += 1
            inv = invocation(test)
            objs = inv if isinstance(inv, str) else objects(*inv, max_args, arg_len, stdin_len)
            if isinstance(objs, str) or objs is None:
                reason = objs or "larger than the symbolic inputs"
                why[reason] = why.get(reason, 0) + 1
                continue
            kept.add(json.dumps(objs))
    for i, objs in enumerate(sorted(kept)):
        with open(os.path.join(out, f"{i:04}.json"), "w") as f:
            f.write('{"objects": %s}\n' % objs)
    left = ", ".join(f"{n} {r}" for r, n in sorted(why.items()))
    print(f"{prog}: {len(kept)} distinct pool tests from {seen} test-suite tests"
          f"{' (left out: ' + left + ')' if left else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
