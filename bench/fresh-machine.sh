#!/usr/bin/env bash
# The README's two set-up commands on a fresh Debian 12 that has only one LLVM (run by hand
# as root, not in CI): debootstrap a minimal Debian 12 into DIR, copy this machine's Rust
# toolchain into it (a fresh machine has one; no other can be fetched here), install only
# clang-N and llvm-N-dev, clone this repository, then run `./scripts/example.sh` and
# `./scripts/test.sh` inside it, as a user would. Prints each command's exit status and how
# long it took; the logs stay in DIR/root (example.log, test.log).
#
#   bench/fresh-machine.sh 19 /work/chroot19   # only LLVM 19: the suite runs on it alone
#   bench/fresh-machine.sh 14 /work/chroot14   # only LLVM 14: test.sh adds LLVM 19's part
set -euo pipefail
llvm=${1:?usage: bench/fresh-machine.sh 14|19 DIR}
dir=${2:?usage: bench/fresh-machine.sh 14|19 DIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
root=$dir/root
[ "$(id -u)" = 0 ] || { echo "fresh-machine.sh: run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null ||
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap >/dev/null
if [ ! -e "$root/etc/debian_version" ]; then
    echo "debootstrap: Debian 12 (minbase) into $root" >&2
    debootstrap --variant=minbase --include=ca-certificates,git,python3,gcc,libc6-dev,make \
        bookworm "$root" http://deb.debian.org/debian >"$dir.debootstrap.log" 2>&1
fi
for fs in proc dev sys; do
    mountpoint -q "$root/$fs" || mount --bind "/$fs" "$root/$fs"
done
cp /etc/resolv.conf "$root/etc/"
# This machine's apt sources (Debian's archive, with deb-src for musl's source).
rm -f "$root/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
[ -d "$root/root/.rustup" ] || cp -a "$HOME/.rustup" "$HOME/.cargo" "$root/root/"
rm -rf "$root/root/augur"
git clone -q "$repo" "$root/root/augur"
chroot "$root" env DEBIAN_FRONTEND=noninteractive sh -c \
    "apt-get update -qq && apt-get install -y -qq clang-$llvm llvm-$llvm-dev >/dev/null"
for step in example test; do
    start=$SECONDS
    status=0
    chroot "$root" env HOME=/root PATH=/root/.cargo/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        sh -c "cd /root/augur && ./scripts/$step.sh" >"$root/root/$step.log" 2>&1 || status=$?
    echo "scripts/$step.sh: exit $status in $((SECONDS - start)) s (log: $root/root/$step.log)"
    tail -3 "$root/root/$step.log"
done
