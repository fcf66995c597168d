#!/bin/sh
# make check-abi: compares the built libmagdyn.so with the ABI baseline
# (abi/README says what is checked and how the baseline is made).
#   check.sh BASELINE LIBRARY [SUPPRESSIONS]
# Exit 0 when the library keeps every interface of the baseline (changes
# that only give reserved slots a meaning included, abi/slot_rule.sh), or
# when its SONAME differs from the baseline's (a declared break); 1 otherwise.
base=$1 lib=$2 suppr=${3:-}
: "${ABIDIFF:=abidiff}"
: "${READELF:=readelf}"

command -v "$ABIDIFF" >/dev/null 2>&1 ||
    { echo "check-abi: abidiff not found (libabigail; Debian: apt-get install abigail-tools)"; exit 1; }
[ -f "$base" ] || { echo "check-abi: no baseline at $base"; exit 1; }
[ -f "$lib" ] || { echo "check-abi: no shared library at $lib (configure without --disable-shared)"; exit 1; }
"$READELF" -S "$lib" | grep -q '\.debug_info' ||
    { echo "check-abi: $lib has no debug information, so no types to compare: build it with -g"; exit 1; }

# The baseline comes from a gcc build; clang's debug information differs in
# details (it does not mark the inline functions of vec.h as declared inline)
# that abidiff reports as changes.
if "$READELF" -p .comment "$lib" 2>/dev/null | grep -q clang; then
    echo "check-abi: note: $lib was built by clang, the baseline by gcc; compare a gcc build"
fi
old=$(sed -n "s/^<abi-corpus .* soname='\([^']*\)'.*/\1/p" "$base" | head -n 1)
new=$("$READELF" -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
# The baseline holds the public types alone (the handles' insides are
# declarations only), so changes inside an opaque handle are not reported.
set --
[ -n "$suppr" ] && [ -f "$suppr" ] && set -- "$@" --suppressions "$suppr"

# The whole report, additions included, for the reader (when there is
# something to report).
report=$("$ABIDIFF" "$@" "$base" "$lib" 2>&1) || echo "$report"
# The verdict: anything reported but additions (functions, variables) breaks
# a program built against the baseline.  abidiff's status is a bit mask:
# 1 error, 2 usage error, 4 a change, 8 an incompatible change.
"$ABIDIFF" "$@" --no-added-syms "$base" "$lib" >/dev/null 2>&1
rc=$?
if [ $((rc & 3)) -ne 0 ]; then
    echo "check-abi: abidiff failed (status $rc)"; exit 1
fi
if [ $((rc & 12)) -eq 0 ]; then
    echo "check-abi: $new keeps the ABI of the baseline $old (additions aside)"
    exit 0
fi
if [ "$old" != "$new" ]; then
    echo "check-abi: incompatible changes, and the SONAME moved from $old to $new: allowed."
    echo "  Record the new ABI: make abi-baseline, and commit abi/libmagdyn.abi."
    exit 0
fi
# The ABI policy's slot rule: members that take the place of reserved
# slots, the struct's size and its other members unchanged, are compatible.
if ABIDIFF="$ABIDIFF" sh "$(dirname "$0")/slot_rule.sh" "$base" "$lib" "$suppr"; then
    echo "check-abi: $new keeps the ABI of the baseline $old: the changes above only give"
    echo "  reserved slots a meaning (magdyn(7), ABI POLICY)"
    exit 0
fi
echo "check-abi: FAILED: changes above break programs built against $old, and the SONAME is unchanged."
echo "  Keep the old interface, or bump the libtool current in configure.ac (MAGDYN_LT_VERSION,"
echo "  current+1:0:0 gives a new SONAME), then make abi-baseline.  abi/README has the policy."
exit 1
