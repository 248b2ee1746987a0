"""Checks an `augur inject` corpus without augur: each bug's trigger is run on independent
native builds (clang-14 and gcc at -O0 and -O2 with ASan and UBSan, clang-14 -O0 with
MSan), and every test of a pool is run on the original and on each buggy program (gcc
-O2, no sanitizer): how many fire the bug, how many behave differently without firing
it (collateral differences). Prints one line per bug.
Usage: independent.py CORPUS SOURCE.c POOL_DIR RUNTIME_DIR"""
import glob, json, os, struct, subprocess, sys, tempfile

corpus, source, pool_dir, runtime = sys.argv[1:5]
name = os.path.basename(source)
tmp = tempfile.mkdtemp()
link = ["-Wl,--wrap=aligned_alloc,--wrap=getrandom,--wrap=getentropy"]
common = ["-g", "-w", "-mlong-double-64", "-fno-sanitize-recover=all"]
flavours = [
    ("clang-14 -O0", ["clang-14", "-O0", "-fsanitize=address,undefined"]),
    ("clang-14 -O2", ["clang-14", "-O2", "-fsanitize=address,undefined"]),
    ("gcc -O0", ["gcc", "-O0", "-fsanitize=address,undefined"]),
    ("gcc -O2", ["gcc", "-O2", "-fsanitize=address,undefined"]),
    ("clang-14 -O0 MSan", ["clang-14", "-O0", "-fsanitize=memory"]),
]


def build(src, flags, out):
    cc, *rest = flags
    subprocess.run([cc, *common, *rest, "-I", runtime, src,
                    os.path.join(runtime, "replay", "replay.c"), *link, "-o", out],
                   check=True, capture_output=True)
    return out


def ktest(objects, path):
    data = b"KTEST" + struct.pack(">III", 3, 1, 4) + b"prog" + struct.pack(">III", 0, 0, len(objects))
    for o in objects:
        n = o["name"].encode()
        data += struct.pack(">I", len(n)) + n + struct.pack(">I", len(o["bytes"])) + bytes(o["bytes"])
    with open(path, "wb") as f:
        f.write(data)
    return path


def run(binary, kt):
    env = dict(os.environ, AUGUR_REPLAY_KTEST=kt, ASAN_OPTIONS="detect_leaks=0", LC_ALL="C")
    r = subprocess.run([binary], env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=10, cwd=tmp)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


def fired(result, bug):
    code, _, err = result
    return code in (-6, 134) and f"augur-inject bug {bug}'" in err


pool = [ktest(json.load(open(f))["objects"], os.path.join(tmp, f"pool{i}.ktest"))
        for i, f in enumerate(sorted(glob.glob(os.path.join(pool_dir, "*.json"))))]
original = build(source, ["gcc", "-O2"], os.path.join(tmp, "original"))
expected = [run(original, kt)[:2] for kt in pool]
for bugdir in sorted(glob.glob(os.path.join(corpus, "bug*"))):
    bug = int(os.path.basename(bugdir)[3:])
    src = os.path.join(bugdir, name)
    trigger = ktest(json.load(open(os.path.join(bugdir, "trigger.json")))["objects"],
                    os.path.join(tmp, "trigger.ktest"))
    fires = []
    for label, flags in flavours:
        b = build(src, flags, os.path.join(tmp, "b"))
        fires.append(label if fired(run(b, trigger), bug) else f"NOT {label}")
    buggy = build(src, ["gcc", "-O2"], os.path.join(tmp, "buggy"))
    hit = collateral = 0
    for kt, want in zip(pool, expected):
        got = run(buggy, kt)
        if fired(got, bug):
            hit += 1
        elif got[:2] != want:
            collateral += 1
    ok = sum(not f.startswith("NOT") for f in fires)
    print(f"bug{bug:03} trigger fires on {ok}/{len(flavours)} builds [{', '.join(fires)}]; "
          f"pool: fires on {hit}/{len(pool)}, collateral differences {collateral}")
