"""Rarity of an injected bug: the share of random mutations of its trigger (1 to 4 bytes
set to random values) on which the natively built buggy program aborts.
Usage: rarity.py BINARY TRIGGER.json ARGV_MODE N SEED
ARGV_MODE: "argv:N:LEN" (the afl_main.c encoding) or "bytes" (objects concatenated)."""
import json, random, subprocess, sys

binary, trigger, mode, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
objs = json.load(open(trigger))["objects"]

def encode(objs):
    if mode.startswith("argv:"):
        _, maxn, ln = mode.split(":")
        maxn, ln = int(maxn), int(ln)
        count = next((int.from_bytes(bytes(o["bytes"]), "little") for o in objs if o["name"] == "n_args"), 0)
        args = [o["bytes"] for o in objs if o["name"].startswith("arg")][:count]
        out = bytes([count])
        for a in args:
            out += bytes(a[:ln]).ljust(ln, b"\0")
        return out
    return b"".join(bytes(o["bytes"]) for o in objs if o["name"] not in ("n_args",))

base = bytearray(encode(objs))
rng = random.Random(seed)
def fires(data):
    r = subprocess.run([binary], input=bytes(data), capture_output=True, timeout=10)
    return r.returncode < 0 or r.returncode == 134
assert fires(base), "the trigger must fire"
hits = 0
for _ in range(n):
    m = bytearray(base)
    for _ in range(rng.randint(1, 4)):
        m[rng.randrange(len(m))] = rng.randrange(256)
    hits += fires(m)
print(f"{hits / n:.4f}")
