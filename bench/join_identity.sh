#!/bin/sh
# bench/join_identity.sh - is this tree's path-set join bit-identical to
# revision REV's?  Builds bench/join_identity.c against this tree's
# lib/core and REV's lib/core/pathset.c (names prefixed old_), and runs it.
# For rewrites of the join that must not change a result.
#
#   bench/join_identity.sh [REV [ROUNDS [SEED]]]     (defaults HEAD, 20000, fixed)
#
# Only pathset.c comes from REV (select.c, summary.c, wire.c are this
# tree's), so REV must share this tree's lib/core headers.  Run from
# anywhere inside the git work tree.
set -eu
rev=${1:-HEAD}
rounds=${2:-20000}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" show "$rev:lib/core/pathset.c" > "$tmp/old_pathset.c"
defs=""
for f in init free reset add_cost add_sample extend copy join select_from join_wire levels \
         percentile_costs; do
    defs="$defs -Dpathset_$f=old_pathset_$f"
done
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 -I"$top/lib" $defs -c -o "$tmp/old_pathset.o" "$tmp/old_pathset.c"
${CC:-cc} -std=gnu11 -O2 -I"$top/lib" -o "$tmp/join_identity" "$top/bench/join_identity.c" \
    "$top/lib/core/pathset.c" "$top/lib/core/select.c" "$top/lib/core/summary.c" \
    "$top/lib/core/wire.c" "$tmp/old_pathset.o" -lm
"$tmp/join_identity" "$rounds" ${3:+"$3"}
