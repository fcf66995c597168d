#!/bin/sh
# The include graph of lib/ points down the layers (the table below, as
# magdyn(7) lists them):
# every #include of a library header from lib/ names a header of the
# file's own layer or a lower one, and the private headers include each
# other without a cycle.  Prints the graph's edges that cross layers.
src="${top_srcdir:-.}"
layer() {
    case "$1" in
    vec.* | ode.* | status.* | common.* | reserved.* | kernel_clones.* | version.* | detmath.* | detmath_batch.* | detmath_lanes.* | detvec.* | bitstable.* | gauss_kronrod.* | big_alloc.*) echo 0 ;;
    dipole* | cuboid_* | sat.* | sat_batch* | broadphase.* | obb_core.* | lanes4.* | kinetics* | magnets.*) echo 1 ;;
    contact* | narrow_phase.* | body.* | toi.* | gas*) echo 2 ;;
    impulse* | island.*) echo 3 ;;
    world* | abi_layout.* | magdyn.h) echo 4 ;;
    *) echo unknown ;;
    esac
}
status=0
edges=0
for f in "$src"/lib/*.c "$src"/lib/*.h; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    lf=$(layer "$name")
    if [ "$lf" = unknown ]; then echo "FAIL $name: in no layer (test/layers.sh)"; status=1; continue; fi
    for inc in $(sed -n 's/^#[ ]*include[ ]*[<"]\(magdyn\/\)\{0,1\}\([a-z0-9_]*\.h\)[>"].*/\2/p' "$f"); do
        # system headers: only the library's own count
        [ -f "$src/lib/$inc" ] || [ -f "$src/include/magdyn/$inc" ] || [ "$inc" = magdyn.h ] \
            || [ "$inc" = version.h ] || continue
        li=$(layer "$inc")
        edges=$((edges + 1))
        if [ "$li" = unknown ] || [ "$li" -gt "$lf" ]; then
            echo "FAIL $name (layer $lf) includes $inc (layer $li)"
            status=1
        fi
    done
done
# cycles among the private headers: repeatedly drop headers that include
# no remaining private header; what is left lies on a cycle
left=$(echo $(cd "$src/lib" && ls *.h))
while :; do
    next=""
    for h in $left; do
        deps=$(sed -n 's/^#[ ]*include[ ]*"\([a-z0-9_]*\.h\)".*/\1/p' "$src/lib/$h")
        keep=0
        for d in $deps; do
            case " $left " in *" $d "*) keep=1 ;; esac
        done
        [ $keep -eq 1 ] && next="$next $h"
    done
    [ "$(echo $next)" = "$(echo $left)" ] && break
    left=$(echo $next)
done
if [ -n "$(echo $left)" ]; then
    echo "FAIL include cycle among:$left"
    status=1
fi
[ $status -eq 0 ] && echo "lib/: $edges includes of library headers, all pointing down the layers, no cycle"
exit $status
