#!/bin/sh
# Every man page must pass mandoc -Tlint without warnings, and every page
# of section 3 has SYNOPSIS, DESCRIPTION, RETURN VALUES, EXAMPLES, ERRORS and
# SEE ALSO (test/man_examples.sh compiles and runs the EXAMPLES); installed
# headers and pages name no project-internal document.
: "${MANDOC:=mandoc}"
src="${top_srcdir:-.}"
status=0
for f in "$src"/man/man3/*.3 "$src"/man/man7/*.7; do
    [ -f "$f" ] || continue
    out=$("$MANDOC" -Tlint -W warning "$f" 2>&1)
    if [ -n "$out" ]; then echo "$out"; status=1; fi
done
# Every function page has the sections a user looks for.
for f in "$src"/man/man3/*.3; do
    [ -f "$f" ] || continue
    for sec in SYNOPSIS DESCRIPTION "RETURN VALUES" EXAMPLES ERRORS "SEE ALSO"; do
        grep -qx "\.Sh $sec" "$f" || { echo "$(basename "$f"): no $sec section"; status=1; }
    done
done
# What users read speaks of the library alone: no pointers into the
# project's design notes or source documents.
for f in "$src"/include/magdyn/*.h "$src"/include/magdyn.h "$src"/man/man3/*.3 "$src"/man/man7/*.7; do
    [ -f "$f" ] || continue
    if grep -n -i -E "seed [0-9]{3}|seed's|DESIGN\.md|thermosim" "$f"; then
        echo "$(basename "$f"): refers to a project-internal document"
        status=1
    fi
done
[ $status -eq 0 ] && echo "all man pages lint clean and have their sections; headers and pages speak of the library alone"
exit $status
