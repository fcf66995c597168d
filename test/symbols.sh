#!/bin/sh
# Only magdyn_* symbols may leave the shared library (nm -D --defined-only
# lists nothing else), and each exported function must be documented:
# named by .Nm in some page of man/man3.
lib="${top_builddir:-.}/lib/.libs/libmagdyn.so"
src="${top_srcdir:-.}"
[ -f "$lib" ] || { echo "no shared library at $lib: skipped"; exit 77; }
# every defined dynamic symbol but version nodes (type A, from a version script)
syms=$(nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}')
bad=$(echo "$syms" | grep -v '^magdyn_')
if [ -n "$bad" ]; then echo "exported symbols outside magdyn_*:"; echo "$bad"; exit 1; fi
documented=$(cat "$src"/man/man3/*.3 | awk '$1 == ".Nm" {print $2}' | sort -u)
missing=$(echo "$syms" | sort -u | while read -r s; do
    echo "$documented" | grep -qx "$s" || echo "$s"; done)
if [ -n "$missing" ]; then echo "exported but named in no man page (.Nm):"; echo "$missing"; exit 1; fi
n=$(echo "$syms" | grep -c '^magdyn_')
echo "$n magdyn_* symbols exported, nothing else; every one has a man page"
[ "$n" -gt 0 ]
