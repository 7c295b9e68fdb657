#!/bin/sh
# test_tools.sh - end-to-end test of rp-merge and rp-report on synthetic
# rank files (tests/mkrankfiles), checked by tests/tools/check_tools.py.
# Exit 0 pass, 1 fail (a missing prerequisite is a failure, not a skip).
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
py=${PYTHON:-python3}
case $py in ''|none|:) py=python3 ;; esac

for f in "$bindir/rp-merge" "$bindir/rp-report" "$mkrank"; do
    if [ ! -x "$f" ]; then
        echo "test_tools.sh: $f not built" >&2
        exit 1
    fi
done
if ! command -v "$py" >/dev/null 2>&1; then
    echo "test_tools.sh: python3 needed to check the JSON output" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rp-tools-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
if "$py" "$top_src/tests/tools/check_tools.py" "$bindir" "$mkrank" \
        "$top_src/tests/tools/mkrankfiles.c" "$work"; then
    exit 0
fi
exit 1
