#!/bin/sh
# The slot rule of make check-abi (abi/slot_rule.sh, magdyn(7) ABI POLICY)
# on a small library built twice: a struct that gives a reserved slot a
# meaning passes; one that also changes another member, grows, or reorders
# its members fails.  Skipped (77) without libabigail.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
: "${CC:=cc}"
: "${ABIDIFF:=abidiff}"
: "${ABIDW:=abidw}"
command -v "$ABIDIFF" >/dev/null 2>&1 && command -v "$ABIDW" >/dev/null 2>&1 ||
    { echo "no abidiff/abidw (libabigail): skipped"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

# lib NAME MEMBERS: libNAME.so with struct magdyn_x { MEMBERS }
lib() {
    cat > "$dir/$1.c" <<EOC
#include <magdyn/common.h>
typedef struct { $2 } magdyn_x;
MAGDYN_API int magdyn_x_use(const magdyn_x *x) { return x->reserved[0].i != 0; }
MAGDYN_API magdyn_x magdyn_x_default(void) { magdyn_x x = {0}; return x; }
EOC
    $CC -g -O0 -shared -fPIC -I"$src/include" -I"$bld/include" -Wl,-soname,libx.so.1 \
        -o "$dir/lib$1.so" "$dir/$1.c" || exit 99
}
lib old  'double a; int n; magdyn_reserved reserved[4];'
lib fill 'double a; int n; double b; void (*f)(void); magdyn_reserved reserved[2];'
lib type 'double a; long n; double b; magdyn_reserved reserved[3];'
lib grow 'double a; int n; double b; magdyn_reserved reserved[4];'
lib move 'int n; double a; double b; magdyn_reserved reserved[3];'
"$ABIDW" --no-show-locs --out-file "$dir/old.abi" "$dir/libold.so" || exit 99

status=0
expect() {   # expect RESULT NAME
    if sh "$src/abi/slot_rule.sh" "$dir/old.abi" "$dir/lib$2.so" >"$dir/out" 2>&1; then got=pass; else got=fail; fi
    if [ "$got" = "$1" ]; then echo "slot rule, $2: $got as it should"
    else echo "slot rule, $2: $got, expected $1"; cat "$dir/out"; status=1; fi
}
expect pass old
expect pass fill
expect fail type
expect fail grow
expect fail move
exit $status
