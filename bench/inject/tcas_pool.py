"""A test pool for tcas (bench/inject-tcas.sh): N inputs with a fixed seed, each of the
twelve values drawn from the range tcas' test pools use (altitudes 1..6000, rates
0..620, separations 399..741 around the four thresholds, flags 0/1, Alt_Layer_Value
0..3, Other_RAC 0..2, Other_Capability 1..2), written as augur tests (testNNNNNN.json) into DIR.
Usage: tcas_pool.py DIR N SEED"""
import json, os, random, sys

out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
seps = [t + d for t in (400, 500, 640, 740) for d in (-1, 0, 1)]
fields = [
    ("Cur_Vertical_Sep", lambda: rng.randint(500, 1000)),
    ("High_Confidence", lambda: rng.randint(0, 1)),
    ("Two_of_Three_Reports_Valid", lambda: rng.randint(0, 1)),
    ("Own_Tracked_Alt", lambda: rng.randint(1, 6000)),
    ("Own_Tracked_Alt_Rate", lambda: rng.randint(0, 620)),
    ("Other_Tracked_Alt", lambda: rng.randint(1, 6000)),
    ("Alt_Layer_Value", lambda: rng.randint(0, 3)),
    ("Up_Separation", lambda: rng.choice(seps)),
    ("Down_Separation", lambda: rng.choice(seps)),
    ("Other_RAC", lambda: rng.randint(0, 2)),
    ("Other_Capability", lambda: rng.randint(1, 2)),
    ("Climb_Inhibit", lambda: rng.randint(0, 1)),
]
os.makedirs(out, exist_ok=True)
for i in range(n):
    objects = [{"name": name, "bytes": list(draw().to_bytes(4, "little", signed=True))}
               for name, draw in fields]
    with open(os.path.join(out, f"test{i + 1:06}.json"), "w") as f:
        json.dump({"objects": objects}, f)
