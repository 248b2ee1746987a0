#!/usr/bin/env python3
"""KLEE's test files (.ktest) as augur's tests, so that both tools' tests run through one
native runner (bench/coreutils-report.py) on one gcov build.

A .ktest file (KLEE's lib/Basic/KTest.cpp, format version 1 to 3; big-endian 32-bit
words): the magic "KTEST" (or the older "BOUT\\n"), the version, the number of KLEE's own
command-line arguments and each as a length and its bytes, from version 2 on two words
(sym-argvs, sym-argv-length), then the number of objects and each as a name (length,
bytes) and its bytes (length, bytes).

KLEE's POSIX runtime (runtime/POSIX/klee_init_env.c, fd_init.c) names the objects of
`--sym-args MIN MAX N`: `n_args` (the count KLEE chose), then `arg0`, `arg1`, ... (`arg00`
in later versions), one per argument, N+1 bytes; of `--sym-files 1 N`: `A-data` (file A's
bytes) and `A-data-stat`; of `--sym-stdin N`: `stdin` and `stdin-stat`; and
`model_version`. As augur's test objects they are `n_args`, `argNN`, `file:A` and
`stdin`: the names coreutils-report.py's `environment` reads (the stat objects and the
model version have no native counterpart and are left out).

usage: ktest.py FILE.ktest   (prints the test as augur's JSON)
"""
import json
import re
import struct
import sys

MAGICS = (b"KTEST", b"BOUT\n")


class KTestError(Exception):
    """A file that is not a .ktest file KLEE wrote."""


def read_ktest(path):
    """The objects of the .ktest file PATH, as (name, bytes) pairs in file order."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0

    def take(n):
        nonlocal pos
        if pos + n > len(data):
            raise KTestError(f"{path}: truncated at byte {pos}")
        chunk = data[pos:pos + n]
        pos += n
        return chunk

    def word():
        return struct.unpack(">I", take(4))[0]

    if take(5) not in MAGICS:
        raise KTestError(f"{path}: not a .ktest file (no KTEST magic)")
    version = word()
    if not 1 <= version <= 3:
        raise KTestError(f"{path}: .ktest version {version}, not 1 to 3")
    for _ in range(word()):
        take(word())
    if version >= 2:
        word()
        word()
    objects = []
    for _ in range(word()):
        name = take(word()).decode("utf-8", "replace")
        objects.append((name, take(word())))
    if pos != len(data):
        raise KTestError(f"{path}: {len(data) - pos} bytes after the last object")
    return objects


def as_augur_test(objects):
    """KLEE's objects as an augur test (its `objects` list), under augur's names."""
    out = []
    for name, data in objects:
        if name == "n_args":
            out.append({"name": "n_args", "bytes": list(data)})
        elif m := re.fullmatch(r"arg(\d+)", name):
            out.append({"name": f"arg{int(m.group(1)):02}", "bytes": list(data)})
        elif m := re.fullmatch(r"([A-Z])-data", name):
            out.append({"name": f"file:{m.group(1)}", "bytes": list(data)})
        elif name == "stdin":
            out.append({"name": "stdin", "bytes": list(data)})
    return {"objects": out}


if __name__ == "__main__":
    try:
        print(json.dumps(as_augur_test(read_ktest(sys.argv[1]))))
    except (KTestError, OSError) as e:
        print(f"ktest.py: {e}", file=sys.stderr)
        sys.exit(2)
