#!/bin/bash
# bench/join_profile.sh [repr|paper] - where a ping-pong message's
# path-set instructions go, by function: bench/join_loop.c built with
# -fno-inline (so the static helpers of lib/core/pathset.c and wire.c show
# as themselves) and run under callgrind.  Prints the instructions a
# message and each function's share.  Instruction counts, not time: they
# hold on a noisy machine (doc/performance.md, "Per message").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
sel=${1:-repr}
iters=20000
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
command -v valgrind >/dev/null || { echo "join_profile: valgrind is not installed" >&2; exit 2; }
${CC:-cc} -std=gnu11 -O2 -g -fno-inline -I"$top/lib" -o "$out/join_loop" "$here/join_loop.c" \
    "$top/lib/core/pathset.c" "$top/lib/core/wire.c" "$top/lib/core/select.c" "$top/lib/core/summary.c" -lm
valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$out/join_loop" "$iters" "$sel" >/dev/null 2>&1
# 15 repetitions of iters messages (join_loop.c)
callgrind_annotate --auto=no --inclusive=no "$out/cg" 2>/dev/null | awk -v msgs=$((15 * iters)) '
    /PROGRAM TOTALS/ { gsub(",", "", $1); tot = $1; printf "%d instructions a message (-fno-inline)\n", tot / msgs }
    /:[a-zA-Z_]/ && tot && $2 ~ /^\(/ {
        gsub(",", "", $1); n = split($0, f, ":"); fn = f[n]; sub(/ .*/, "", fn)
        if ($1 / tot >= 0.01) printf "  %5.1f %%  %s\n", 100 * $1 / tot, fn }'
