# repro/preamble.sh - sourced by repro/check.sh and repro/bitstable.sh after
# they set name (their make target): the source and build directories,
# gcc and clang present (else exit 77, skipped), and a scratch directory
# $tmp removed on exit.
src="${top_srcdir:-.}"
build="${top_builddir:-.}"
tmp="${TMPDIR:-/tmp}/magdyn-${name#check-}.$$"
for cc in gcc clang; do
    command -v "$cc" >/dev/null 2>&1 || { echo "$name: $cc not found, skipped"; exit 77; }
done
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
