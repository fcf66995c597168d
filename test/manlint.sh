#!/bin/sh
# Every man page must pass mandoc -Tlint without warnings.
: "${MANDOC:=mandoc}"
src="${top_srcdir:-.}"
status=0
for f in "$src"/man/man3/*.3 "$src"/man/man7/*.7; do
    [ -f "$f" ] || continue
    out=$("$MANDOC" -Tlint -W warning "$f" 2>&1)
    if [ -n "$out" ]; then echo "$out"; status=1; fi
done
[ $status -eq 0 ] && echo "all man pages lint clean"
exit $status
