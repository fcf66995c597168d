#!/bin/sh
# make check-bitstable: builds the library's sources with MAGDYN_BITSTABLE
# (what ./configure --enable-bitstable defines) with gcc -O2, clang -O2 and
# gcc -O0, and runs test/test_bitstable (the committed hash of a pile, an
# extended-model snap and a gas), test/test_detmath (the library's own
# elementary functions against libm) and test/test_detmath_batch (the
# batched log and atan2, their committed hash) in each: the same bits whatever the
# compiler and optimisation (magdyn(7), REPRODUCIBILITY).  Exits 77
# (skipped) when a compiler or check is missing.
checkflags=$(pkg-config --cflags --libs check 2>/dev/null) || { echo "check-bitstable: check not found, skipped"; exit 77; }
name=check-bitstable
. "${top_srcdir:-.}/repro/preamble.sh"
status=0
for variant in "gcc -O2" "clang -O2" "gcc -O0"; do
    set -- $variant
    cc=$1 opt=$2 tag="$1$2"
    for t in test_bitstable test_detmath test_detmath_batch; do
        # shellcheck disable=SC2086
        "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -DMAGDYN_BITSTABLE=1 $opt -ffp-contract=off -fvisibility=hidden \
            -I"$build/include" -I"$src/include" -I"$src/lib" -I"$src/test" "$src/test/$t.c" "$src/test/testutil.c" "$src"/lib/*.c \
            $checkflags -lm -o "$tmp/$t-$tag" >"$tmp/cc.log" 2>&1 \
            || { echo "check-bitstable: $t failed to build with $variant:"; tail -20 "$tmp/cc.log"; exit 1; }
        if CK_FORK=no "$tmp/$t-$tag" >"$tmp/$t-$tag.out" 2>&1; then
            echo "check-bitstable: $t passed ($variant)"
        else
            echo "check-bitstable: $t FAILED ($variant):"
            tail -5 "$tmp/$t-$tag.out"
            status=1
        fi
    done
done
exit $status
