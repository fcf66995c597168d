#!/bin/sh
# fuzz/run.sh - build and run the libFuzzer targets (clang, ASan + UBSan).
# Usage: fuzz/run.sh [seconds per target] [target ...]
#   targets: collide field kinetics world gas pile (default: all)
# Run from anywhere; builds into $FUZZ_OUT (default /tmp/magdyn-fuzz).
# Needs config.h and include/magdyn/version.h: run `autoreconf -fi && ./configure`
# in the source tree first, or set BUILD_DIR to a configured VPATH build dir.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
secs=${1:-240}
[ $# -gt 0 ] && shift
targets=${*:-collide field kinetics world gas pile}
out=${FUZZ_OUT:-/tmp/magdyn-fuzz}
build=${BUILD_DIR:-$top}
CC=${CC:-clang}
mkdir -p "$out"
[ -d "$here/corpus/pile" ] || python3 "$here/gen_corpus.py"
for t in $targets; do
    "$CC" -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -I"$top/include" -I"$build/include" -I"$build" "$here/fuzz_$t.c" "$top"/lib/*.c -lm -o "$out/fuzz_$t"
    mkdir -p "$out/corpus_$t"
    # a pile of 8 snapping magnets takes ~0.2 s for its 3 ms optimised, ~2 s
    # under the sanitizers; a world of extended cuboids up to its 200-step
    # budget up to 1 s optimised and 5 s under the sanitizers (boxes
    # snapping edge first, whose forces cost ~1 ms each): work, not a hang,
    # so these get 20 s; a gas's slowest inputs of the last campaigns take
    # 0.16 s optimised; the kinetics' slowest inputs of an hour take 0.15 s
    # optimised, over 1 s under the sanitizers and load; a cuboid force of
    # boxes touching edge to edge may spend its whole budget of regions,
    # 0.2-0.6 s optimised (fuzz_field, a one-hour campaign)
    tmo=1
    case $t in pile | world) tmo=20 ;; gas | field) tmo=10 ;; kinetics) tmo=5 ;; esac
    (cd "$out" && ./fuzz_$t -max_total_time="$secs" -timeout=$tmo -rss_limit_mb=1024 \
        -print_final_stats=1 "corpus_$t" "$here/corpus/$t")
done
