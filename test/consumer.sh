#!/bin/sh
# An outside program against an installed libmagdyn, as a user builds it:
# the compile and link flags come from pkg-config alone.
#   consumer.sh DESTDIR PREFIX HOST.c
# DESTDIR is where `make install DESTDIR=...` staged the tree configured
# for PREFIX.  HOST.c is built twice, against the shared library and fully
# static (pkg-config --static, which must bring libm: Libs.private), and
# both programs run.
set -eu
stage=$1 prefix=$2 src=$3
: "${CC:=cc}"
out=$(dirname "$src")
# Only the staged magdyn.pc, its paths seen through the stage.
PKG_CONFIG_LIBDIR="$stage$prefix/lib/pkgconfig"
PKG_CONFIG_SYSROOT_DIR="$stage"
export PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
unset PKG_CONFIG_PATH

pcprefix=$(PKG_CONFIG_SYSROOT_DIR='' pkg-config --variable=prefix magdyn)
echo "magdyn.pc: version $(pkg-config --modversion magdyn), prefix $pcprefix"
[ "$pcprefix" = "$prefix" ] || { echo "magdyn.pc does not point at the prefix $prefix"; exit 1; }
case " $(pkg-config --static --libs magdyn) " in
    *" -lm "*) ;;
    *) echo "pkg-config --static --libs magdyn lacks -lm (Libs.private)"; exit 1 ;;
esac

cflags=$(pkg-config --cflags magdyn)
libs=$(pkg-config --libs magdyn)
echo "shared: $CC $cflags $src $libs"
# shellcheck disable=SC2086
$CC -std=c11 -Wall -Werror $cflags "$src" $libs -o "$out/host-shared"
LD_LIBRARY_PATH="$stage$prefix/lib" ldd "$out/host-shared" | grep -q "$stage$prefix/lib/libmagdyn.so" ||
    { echo "host-shared does not load the staged libmagdyn.so"; exit 1; }
LD_LIBRARY_PATH="$stage$prefix/lib" "$out/host-shared"

libs=$(pkg-config --static --libs magdyn)
echo "static: $CC -static $cflags $src $libs"
# shellcheck disable=SC2086
$CC -std=c11 -Wall -Werror -static $cflags "$src" $libs -o "$out/host-static"
if ldd "$out/host-static" >/dev/null 2>&1; then
    echo "host-static is dynamically linked"; exit 1
fi
"$out/host-static"
echo "consumer: shared and static host programs built with pkg-config alone, and ran"
