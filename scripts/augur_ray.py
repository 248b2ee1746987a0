#!/usr/bin/env python3
"""Spread one `augur run` over a Ray cluster (or the local machine): split the exploration
into shards, run one Ray task per shard (`augur run ... --shard FILE`), merge the outputs.

    scripts/augur_ray.py [--address ADDR] [--shards N] -o OUT -- PROGRAM.c [augur run options]

Everything after the first `--` is given to every `augur run` as is (program arguments after
a second `--`). Without --address, Ray starts on this machine (`ray.init()`); with it, the
tasks run on that cluster, whose nodes must see the same paths (a shared file system, as
with Slurm) and have augur installed. Ray does the scheduling: one task per shard, one CPU
each. `--max-time` in the augur options applies to each shard.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys

import ray


@ray.remote(num_cpus=1)
def run_shard(augur, run_args, shard, out):
    """Run the paths of one shard into `out`; returns (shard, exit status, stderr tail)."""
    cmd = [augur, "run"] + with_options(run_args, ["--shard", shard, "-o", out])
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return shard, done.returncode, done.stderr[-2000:]


def with_options(run_args, options):
    """`augur run` arguments with `options` added before the program's own arguments."""
    if "--" in run_args:
        i = run_args.index("--")
        return run_args[:i] + options + run_args[i:]
    return run_args + options


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: augur_ray.py [options] -o OUT -- PROGRAM [augur run options]")
    split_at = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output-dir", required=True, help="merged output directory")
    parser.add_argument("--address", help="Ray cluster to use (default: start one here)")
    parser.add_argument("--num-cpus", type=int, help="CPUs of a local Ray instance")
    parser.add_argument("--shards", type=int, default=64, help="number of shards (default 64)")
    parser.add_argument("--augur", default=shutil.which("augur") or "augur",
                        help="the augur binary (default: augur on PATH)")
    opts = parser.parse_args(argv[:split_at])
    run_args = argv[split_at + 1:]
    augur = os.path.abspath(opts.augur) if os.path.exists(opts.augur) else opts.augur
    out = os.path.abspath(opts.output_dir)
    scratch = os.path.join(out, ".shards")
    shutil.rmtree(scratch, ignore_errors=True)
    split_out = os.path.join(scratch, "split")
    shards_dir = os.path.join(scratch, "shards")

    split = [augur, "run"] + with_options(
        run_args, ["--split", str(opts.shards), "--shards-dir", shards_dir, "-o", split_out])
    subprocess.run(split, check=True, stderr=subprocess.DEVNULL)
    shards = sorted(glob.glob(os.path.join(shards_dir, "shard-*.json")))

    if opts.address:
        ray.init(address=opts.address)
    else:
        ray.init(num_cpus=opts.num_cpus)
    parts = [os.path.join(scratch, "part-" + os.path.basename(s)[len("shard-"):-len(".json")])
             for s in shards]
    tasks = [run_shard.remote(augur, run_args, s, p) for s, p in zip(shards, parts)]
    failed = [(s, code, err) for s, code, err in ray.get(tasks) if code != 0]
    ray.shutdown()
    for shard, code, err in failed:
        print(f"augur_ray: {shard}: exit status {code}\n{err}", file=sys.stderr)

    # A shard whose task died still gives what it wrote; one never started gives nothing.
    parts = [split_out] + [p for p in parts if os.path.isdir(p)]
    subprocess.run([augur, "merge"] + parts + ["-o", out], check=True)
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"augur_ray: {len(shards)} shards, {len(failed)} failed, merged into {out}",
          file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
