#!/bin/sh
# make check-repro: builds the library's sources and repro/repro.c with gcc
# and with clang, with the flags the library is built with (-O2,
# -ffp-contract=off), runs both, and requires the same bits from both: a
# pile of magnets, an extended-model snap and an inelastic gas.  Exits 77
# (skipped) when either compiler is missing.
name=check-repro
. "${top_srcdir:-.}/repro/preamble.sh"
status=0
for cc in gcc clang; do
    "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -ffp-contract=off -fvisibility=hidden \
        -I"$build/include" -I"$src/include" -I"$build" -I"$src/lib" -I"$src/examples" \
        "$src/repro/repro.c" "$src/examples/scene.c" "$src"/lib/*.c -lm -o "$tmp/repro-$cc" \
        || { echo "check-repro: $cc failed to build"; exit 1; }
    "$tmp/repro-$cc" >"$tmp/out-$cc" || { echo "check-repro: the $cc build failed to run"; status=1; }
done
if cmp -s "$tmp/out-gcc" "$tmp/out-clang"; then
    echo "check-repro: gcc and clang builds agree to the last bit ($(wc -l <"$tmp/out-gcc") lines of states)"
else
    echo "check-repro: gcc and clang builds differ:"
    diff "$tmp/out-gcc" "$tmp/out-clang" | head -20
    status=1
fi
exit $status
