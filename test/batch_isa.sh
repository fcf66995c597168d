#!/bin/sh
# The batched box tests (overlap_pairs_equals_single in test_sat,
# manifold_pairs_equals_single in test_contact) again on the narrower
# paths: MAGDYN_BATCH_ISA lowers the dispatch of lib/sat_batch.c to AVX2
# and to one pair at a time, so an AVX-512 machine checks all three.
bin="${top_builddir:-.}/test"
status=0
for isa in avx2 none; do
    for t in test_sat test_contact; do
        if MAGDYN_BATCH_ISA=$isa "$bin/$t"; then echo "$t with MAGDYN_BATCH_ISA=$isa: passed"
        else echo "$t with MAGDYN_BATCH_ISA=$isa: FAILED"; status=1; fi
    done
done
exit $status
