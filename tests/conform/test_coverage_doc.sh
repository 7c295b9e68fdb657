#!/bin/sh
# doc/coverage.md must be what lib/mpi/gen_coverage.py makes of the current
# lib/mpi/mpi_functions.def (the list of wrapped functions never goes stale).
top=${RP_TOP_SRCDIR:-$(dirname "$0")/../..}
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
if ! ${PYTHON:-python3} "$top/lib/mpi/gen_coverage.py" "$top/lib/mpi/mpi_functions.def" >"$tmp"; then
    echo "FAIL: gen_coverage.py failed"
    exit 1
fi
if ! diff -u "$top/doc/coverage.md" "$tmp"; then
    echo "FAIL: doc/coverage.md is stale; run: python3 lib/mpi/gen_coverage.py lib/mpi/mpi_functions.def > doc/coverage.md"
    exit 1
fi
echo "ok: doc/coverage.md lists the $(grep -c '^| `MPI_' "$tmp") wrapped functions"
exit 0
