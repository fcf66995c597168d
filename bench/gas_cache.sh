#!/bin/sh
# bench/gas_cache.sh - instructions, data references and cache misses per
# collision of the event-driven gas (bench/gas_hot, packing 0.5), counted
# by valgrind's cache simulator, for N = 10^3 ... 10^6; this virtual
# machine has no hardware counters (perf stat sees none).
#
# The simulated caches are this machine's per core: L1d 48 KiB 12-way and
# L2 2 MiB 16-way, both 64-byte lines; cachegrind calls the last level it
# simulates "LL", here the L2.  The machine's L3 (480 MiB, shared) holds
# even N = 10^6 (about 220 MB), so an L2 miss is what a random read costs.
# Each point is run twice, to C1 and C2 collisions after the same warm-up,
# and the counts per collision are the differences over C2 - C1, which
# leave out the setup and the warm-up.
#
# Rows: lattice (discs added row by row, the library's renumbering on) and
# shuffled (discs added in a random order, never renumbered while running).
# From 4096 discs the gas sorts them along the cells' z-order when it
# starts, so the shuffled row checks that the order of insertion costs
# nothing; it does not show a layout without that sort.  The windows are
# short (about one collision per disc at N = 10^6), so the drift of the
# discs from their memory neighbours over a long run is not in them either.
# About 10 minutes in all (cachegrind runs ~50x slower).
#
# Usage (after make bench): bench/gas_cache.sh [N ...]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v valgrind >/dev/null || { echo "gas_cache: valgrind not found (Debian: valgrind)"; exit 0; }
[ -x bench/gas_hot ] || { echo "gas_cache: run make bench first"; exit 1; }
sizes=${*:-1000 10000 100000 1000000}
c1=200000
c2=1200000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count N eta collisions reorder shuffle -> "collisions Ir Dr D1mr LLdm"
count() {
    ./libtool --mode=execute valgrind --tool=cachegrind --cache-sim=yes \
        --D1=49152,12,64 --LL=2097152,16,64 --cachegrind-out-file=/dev/null \
        bench/gas_hot "$1" "$2" "$3" 1 "$4" "$5" >"$tmp/out" 2>"$tmp/err"
    coll=$(sed -n 's/.*coll=\([0-9]*\).*/\1/p' "$tmp/out")
    num() { grep "$1" "$tmp/err" | head -1 | sed 's/.*: *\([0-9,]*\).*/\1/' | tr -d ,; }
    echo "$coll $(num 'I *refs:') $(num 'D *refs:') $(num 'D1 *misses:') $(num 'LLd *misses:')"
}

printf '%-9s %9s %10s %10s %12s %12s %10s\n' layout N instr/coll drefs/coll L1d-miss/coll L2-miss/coll L2-miss%
for n in $sizes; do
    for layout in lattice shuffled; do
        if [ $layout = lattice ]; then args="0 0"; else args="-1 1"; fi
        set -- $(count "$n" 0.5 $c1 $args) $(count "$n" 0.5 $c2 $args)
        awk -v l=$layout -v n="$n" -v c1="$1" -v i1="$2" -v d1="$3" -v m1="$4" -v l1="$5" \
            -v c2="$6" -v i2="$7" -v d2="$8" -v m2="$9" -v l2="${10}" 'BEGIN {
            dc = c2 - c1
            printf "%-9s %9d %10.0f %10.0f %12.2f %12.2f %9.2f%%\n", l, n, (i2 - i1) / dc,
                   (d2 - d1) / dc, (m2 - m1) / dc, (l2 - l1) / dc, 100 * (l2 - l1) / (d2 - d1)
        }'
    done
done
