#!/bin/sh
# The example programs speak to users: each answers --help with its usage
# and exit status 0, and refuses an unknown option with status 2; none
# runs a shell (system or popen), so no user's string reaches one.
src="${top_srcdir:-.}"
build="${top_builddir:-.}"
status=0
found=0
for c in "$src"/examples/*.c; do
    if grep -n 'system *(\|popen *(' "$c"; then
        echo "FAIL $(basename "$c"): runs a shell"
        status=1
    fi
done
for c in "$src"/examples/*.c; do
    grep -q 'int main' "$c" || continue
    name=$(basename "$c" .c)
    prog="$build/examples/$name"
    [ -x "$prog" ] || { echo "skip $name: not built"; continue; }
    # an MPI build may need its launcher even for --help
    if [ "$name" = sweep ] && grep -q '^#define HAVE_MPI 1' "$build/config.h" 2>/dev/null; then
        echo "skip $name: built with MPI"
        continue
    fi
    found=$((found + 1))
    out=$("$prog" --help 2>&1); rc=$?
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q '^usage: ' || ! echo "$out" | grep -q -e '--help'; then
        echo "FAIL $name --help: status $rc, output:"; echo "$out"; status=1
    fi
    "$prog" --no-such-option >/dev/null 2>&1; rc=$?
    if [ $rc -ne 2 ]; then
        echo "FAIL $name --no-such-option: status $rc, not 2"; status=1
    fi
done
# A tiny run of the chains example: it finishes, reaches its time, and
# writes its pictures (when built with cairo) into the --outdir given.
prog="$build/examples/chains"
if [ -x "$prog" ]; then
    tmp=$(mktemp -d) || exit 1
    out=$("$prog" --count 50 --time 0.01 --cpu 60 --outdir "$tmp/out" 2>&1); rc=$?
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q '^N 50, simulated 10.0000 ms'; then
        echo "FAIL chains --count 50 --time 0.01: status $rc, output:"; echo "$out"; status=1
    elif grep -q '^#define HAVE_CAIRO 1' "$build/config.h" 2>/dev/null &&
         ! { [ -s "$tmp/out/chains_start.png" ] && [ -s "$tmp/out/chains_end.png" ]; }; then
        echo "FAIL chains: no pictures in $tmp/out"; status=1
    fi
    rm -rf "$tmp"
fi
echo "$found example programs answer --help and refuse unknown options; none runs a shell"
exit $status
