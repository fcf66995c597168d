#!/bin/sh
# The slot rule of the ABI policy (magdyn(7), ABI POLICY; abi/README):
#   slot_rule.sh BASELINE LIBRARY [SUPPRESSIONS]
# Exit 0 when every change abidiff reports between BASELINE and LIBRARY
# (added functions aside) is a public struct that gave reserved slots a
# meaning: members inserted where its `reserved` array was, that array
# shortened by as much, the struct's size and every other member as they
# were.  Exit 1 otherwise, printing the first line that breaks the rule.
base=$1 lib=$2 suppr=${3:-}
here=$(dirname "$0")
: "${ABIDIFF:=abidiff}"
set --
[ -n "$suppr" ] && [ -f "$suppr" ] && set -- --suppressions "$suppr"

# 1. Every change lies in a magdyn_ struct, with insertions only inside
#    the old reserved range (libabigail's has_data_member_inserted_between).
"$ABIDIFF" "$@" --suppressions "$here/slots.suppr" --no-added-syms "$base" "$lib" >/dev/null 2>&1
rc=$?
[ $((rc & 15)) -eq 0 ] || { echo "slot rule: changes outside the reserved slots"; exit 1; }

# 2. The report holds nothing but such insertions: no size change, no
#    deletion, no other member changed (the suppression above would hide
#    those in a struct that also fills a slot).
"$ABIDIFF" "$@" --no-added-syms "$base" "$lib" 2>&1 | awk '
    { sub(/^[ \t]+/, "") }
    /^$/ || /changes summary:/ || /with some indirect sub-type change/ { next }
    /^\[C\] .* has some indirect sub-type changes:$/ { next }
    /^parameter [0-9]+ of type .* has sub-type changes:$/ { next }
    /^return type changed:$/ || /^in pointed to type / || /^in referenced type / { next }
    /^in unqualified underlying type / || /^underlying type .* changed:$/ { next }
    /^type size hasn.t changed$/ { next }
    /^[0-9]+ data member insertions?:$/ { ins = 1; res = 0; next }
    ins && /^.*, at offset [0-9]+ \(in bits\)/ { next }
    /^[0-9]+ data member changes?:$/ { ins = 0; res = 0; next }
    /^type of .magdyn_reserved reserved\[[0-9]+\]. changed:$/ { ins = 0; res = 1; next }
    res && /^type name changed from .magdyn_reserved\[[0-9]+\]. to .magdyn_reserved\[[0-9]+\].$/ { next }
    res && /^array type size changed from [0-9]+ to [0-9]+$/ { next }
    res && /^array type subrange [0-9]+ changed length from [0-9]+ to [0-9]+$/ { next }
    res && /^and offset changed from [0-9]+ to [0-9]+ \(in bits\)/ { next }
    { print "slot rule: not a slot insertion: " $0; bad = 1; exit }
    END { exit bad }'
