#!/bin/sh
# The programs in the EXAMPLES sections of the man pages compile and run.
#
# Every `.Bd -literal` ... `.Ed` block inside a page's EXAMPLES section is a
# complete C program: it is extracted, its mdoc escapes turned back into C,
# compiled against the built library with -std=c11 -Wall -Wextra -Wpedantic
# -Werror, linked, and run; it must exit with status 0.  A page without an
# EXAMPLES section, or an EXAMPLES section without such a block, fails.
#
# Environment (set by make check, defaults for a run from the build tree):
#   top_srcdir, top_builddir  the source and build trees
#   EX_CC, EX_CFLAGS, EX_LDFLAGS  the compiler and flags the library was built
#                             with (default: $CC or cc, none)
#   MAN_EXAMPLES_PAGES        pages to check (default: man/man3/*.3 man/man7/*.7)
src="${top_srcdir:-.}"
build="${top_builddir:-.}"
cc="${EX_CC:-${CC:-cc}}"
la="$build/lib/libmagdyn.la"
[ -f "$la" ] || { echo "no library at $la: skipped"; exit 77; }
libtool="$(cd "$build" && pwd)/libtool"
[ -x "$libtool" ] || { echo "no libtool script at $libtool: skipped"; exit 77; }
pages=${MAN_EXAMPLES_PAGES:-"$src/man/man3/*.3 $src/man/man7/*.7"}

work=$(mktemp -d "${TMPDIR:-/tmp}/man_examples.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM

# Print block k (1-based) of the EXAMPLES section of a page, with the mdoc
# escapes the pages use turned back into C: \e is a backslash, \- a minus,
# \(aq an apostrophe, \& a zero-width guard.
block() {
    awk -v want="$2" '
        $1 == ".Sh" { ex = ($2 == "EXAMPLES"); next }
        ex && $1 == ".Bd" && $2 == "-literal" { n++; on = (n == want); next }
        ex && $1 == ".Ed" { on = 0; next }
        on {
            gsub(/\\e/, "\001"); gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047");
            gsub(/\\&/, ""); gsub(/\001/, "\\"); print
        }' "$1"
}

count() {
    awk '$1 == ".Sh" { ex = ($2 == "EXAMPLES"); next }
         ex && $1 == ".Bd" && $2 == "-literal" { n++ }
         END { print n + 0 }' "$1"
}

status=0
programs=0
for page in $pages; do
    [ -f "$page" ] || continue
    name=$(basename "$page")
    n=$(count "$page")
    if [ "$n" -eq 0 ]; then
        echo "FAIL $name: no .Bd -literal program in an EXAMPLES section"
        status=1
        continue
    fi
    k=1
    while [ "$k" -le "$n" ]; do
        id="$name.$k"
        c="$work/$id.c"
        block "$page" "$k" > "$c"
        if ! grep -q 'int main(' "$c"; then
            echo "FAIL $id: the example is not a complete program (no main)"
            status=1
        elif ! "$libtool" --quiet --mode=link $cc -std=c11 -Wall -Wextra \
                -Wpedantic -Werror $EX_CFLAGS -I"$src/include" -I"$build/include" \
                $EX_LDFLAGS -o "$work/$id" "$c" "$la" -lm > "$work/$id.log" 2>&1; then
            echo "FAIL $id: does not compile"
            cat -n "$c"
            cat "$work/$id.log"
            status=1
        elif ! (cd "$work" && "$libtool" --mode=execute "./$id") \
                > "$work/$id.out" 2>&1; then
            echo "FAIL $id: exits with a non-zero status; its output:"
            cat "$work/$id.out"
            status=1
        else
            echo "ok   $id"
            programs=$((programs + 1))
        fi
        k=$((k + 1))
    done
done
echo "$programs example programs compiled and ran"
exit $status
