#!/bin/sh
# bench/ablate.sh - where the profiled point-to-point time goes (a diagnostic
# for lib/ developers; not part of `make bench`).
#
#   bench/ablate.sh [ROUNDS]
#
# Copies the source tree to a temporary directory and builds librpprof.so
# four times (autotools, out of tree),
# each variant removing one more piece of the per-message work:
#   v0  as is
#   v1  no join: proto_join_buffer() returns at once (no decode, no select_k)
#   v2  v1 + no encode: proto_branch() sends 8 + 16k unencoded bytes
#   v3  v2 + no clock: rp_now_ns() returns 0 (no clock_gettime per event)
# then runs bench/pingpong (plain, floor, prof and the Isend variants,
# RP_PERIOD=0) under each, ROUNDS (default 5) rounds alternating variants,
# and prints the median added time per message over plain.  The patches match
# source text in lib/exchange/proto.c and lib/runtime/runtime.c; if those change, a variant
# fails to build and is reported as such.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
rounds=${1:-5}
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-python3}
if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
w=$(mktemp -d /tmp/rpablate.XXXXXX)
trap 'rm -rf "$w"' EXIT
# A private copy of the source tree, configured once; each variant patches
# lib/ there and rebuilds only lib/librpprof.la.
mkdir -p "$w/src" "$w/build"
(cd "$top" && tar cf - --exclude=.git --exclude=bench-results --exclude=autom4te.cache .) |
    (cd "$w/src" && tar xf -)
[ -f "$w/src/configure" ] || (cd "$w/src" && autoreconf -fi >/dev/null 2>&1)
(cd "$w/build" && "$w/src/configure" --quiet > /dev/null && { make -j2 > /dev/null 2>&1 || true; } && make -j2 lib/librpprof.la > /dev/null)
"$MPICC" -O2 -g -o "$w/pingpong" "$here/pingpong.c"

for v in 0 1 2 3; do
    "$PYTHON" - "$w/src/lib" "$v" <<'EOF2'
import sys
d, v = sys.argv[1], int(sys.argv[2])
def sub(f, old, new):
    p = d + "/" + f
    s = open(p).read()
    if old not in s:
        sys.exit("ablate: lib/%s changed; cannot build variant %d" % (f, v))
    open(p, "w").write(s.replace(old, new, 1))
# cumulative: variant v adds one patch to v-1's tree
if v == 1:
    sub("proto.c", "void proto_join_buffer(const uint8_t *buf, int len, int replace)\n{",
        "void proto_join_buffer(const uint8_t *buf, int len, int replace)\n{\n    if (!replace) return;")
if v == 2:   # the first pathset_encode(...) call inside proto_branch()
    import re
    p = d + "/proto.c"
    s = open(p).read()
    i = s.find("void proto_branch(")
    m = re.compile(r"pathset_encode\(&rp_rt\.ps,[^;]*\)").search(s, i) if i >= 0 else None
    if not m:
        sys.exit("ablate: lib/exchange/proto.c changed; cannot build variant 2")
    open(p, "w").write(s[:m.start()] + "(size_t)(8 + 16 * rp_rt.cfg.k)" + s[m.end():])
if v == 3:
    sub("runtime.c", "    struct timespec ts;\n    clock_gettime(CLOCK_MONOTONIC, &ts);\n"
        "    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;", "    return 0;")
EOF2
    (cd "$w/build" && make -j2 lib/librpprof.la > /dev/null)
    cp "$w/build/lib/.libs/librpprof.so" "$w/librpprof$v.so"
done

r=1
while [ $r -le "$rounds" ]; do
    for v in 0 1 2 3; do
        $MPIRUN -np 2 --bind-to none -x LD_PRELOAD="$w/librpprof$v.so" -x RP_PERIOD=0 \
            -x RP_QUIET=1 -x RP_OUTPUT="$w/o$v.$r" "$w/pingpong" \
            -m plain,floor,prof,iplain,ifloor,iprof < /dev/null |
            awk -v v=$v '$1 == "MODE" { split($7, a, "="); m[$2] = a[2] }
                END { print v, m["plain"], m["floor"] - m["plain"], m["prof"] - m["plain"],
                      m["iplain"], m["ifloor"] - m["iplain"], m["iprof"] - m["iplain"] }' \
            >> "$w/res"
    done
    r=$((r + 1))
done
"$PYTHON" - "$w/res" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append([int(x) for x in f[1:]])
names = {"0": "as is", "1": "no join", "2": "no join, no encode", "3": "no join/encode/clock"}
print("| variant | plain ns | floor added | rpprof added | ratio | Isend plain | floor added | rpprof added | ratio |")
print("|---|---|---|---|---|---|---|---|---|")
for v in sorted(rows):
    c = list(zip(*rows[v]))
    med = [statistics.median(x) for x in c]
    rb = statistics.median([p / f for f, p in zip(c[1], c[2]) if f > 0] or [0])
    ri = statistics.median([p / f for f, p in zip(c[4], c[5]) if f > 0] or [0])
    print("| v%s %s | %.0f | %.0f | %.0f | %.2f | %.0f | %.0f | %.0f | %.2f |" % (
        v, names[v], med[0], med[1], med[2], rb, med[3], med[4], med[5], ri))
EOF
