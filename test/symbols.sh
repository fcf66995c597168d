#!/bin/sh
# Only magdyn_* symbols may be exported from the shared library.
lib="${top_builddir:-.}/lib/.libs/libmagdyn.so"
[ -f "$lib" ] || { echo "no shared library at $lib: skipped"; exit 77; }
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVWi]$/ {print $3}' | grep -v '^magdyn_' | grep -v '^_' )
if [ -n "$bad" ]; then echo "exported symbols outside magdyn_*:"; echo "$bad"; exit 1; fi
n=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVWi]$/' | grep -c ' magdyn_')
echo "$n magdyn_* symbols exported, nothing else"
[ "$n" -gt 0 ]
