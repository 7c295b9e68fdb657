#!/bin/bash
# bench/tutorial.sh - the getting-started walk of doc/tutorial.md on a public
# code: fetch and build LULESH 2.0 (LLNL's shock-hydrodynamics proxy), run it
# under rpprof, and write every view the tutorial reads.
#
#   bench/tutorial.sh [WORKDIR]          WORKDIR defaults to ./rpprof-tutorial
#
# Leaves in WORKDIR: lulesh2.0 (built with -g), meas/ (the measurement
# directory), report.txt, report.json, report.html, crit.folded (the
# critical path's folded stacks), whatif.txt, and report.png (a screenshot
# of report.html by headless Chromium, when chromium is installed).
#
# Environment:
#   LULESH_SRC   an existing LULESH checkout (else it is cloned into
#                WORKDIR/LULESH from LULESH_GIT, default
#                https://github.com/LLNL/LULESH.git)
#   NP           ranks (8: LULESH needs a cube, 1, 8, 27, ...)
#   SIZE ITERS   LULESH's -s and -i (12 and 100: ~10 s on 8 ranks of a
#                2-core machine, ~2 s on 8 cores)
#   PERIOD       rpprof's sampling period in us (1000)
#   MPICXX MPIRUN  the MPI C++ compiler and launcher (mpicxx, mpirun); they
#                must be the MPI rpprof was built for
#   rp-run, rp-report and librpprof.so are taken from PATH (an installed
#   rpprof: `make install`, PATH=$prefix/bin:$PATH).
set -euo pipefail
work=${1:-./rpprof-tutorial}
NP=${NP:-8} SIZE=${SIZE:-12} ITERS=${ITERS:-100} PERIOD=${PERIOD:-1000}
MPICXX=${MPICXX:-mpicxx} MPIRUN=${MPIRUN:-mpirun}
say() { printf '\n==> %s\n' "$*"; }
die() { printf 'tutorial.sh: %s\n' "$*" >&2; exit 1; }
for t in rp-run rp-report "$MPICXX" "$MPIRUN"; do
    command -v "$t" >/dev/null 2>&1 || die "$t not found (install rpprof and put its bin/ on PATH; MPI's compilers)"
done
mkdir -p "$work"
work=$(cd "$work" && pwd)

# ---- 1. the code ---------------------------------------------------------------
src=${LULESH_SRC:-$work/LULESH}
if [ ! -f "$src/lulesh.cc" ]; then
    say "git clone ${LULESH_GIT:-https://github.com/LLNL/LULESH.git} $src"
    git clone --depth 1 "${LULESH_GIT:-https://github.com/LLNL/LULESH.git}" "$src" ||
        die "cannot clone LULESH; set LULESH_SRC to a checkout"
fi

# ---- 2. build: MPI, no OpenMP (one thread a rank), -g for source lines ----------
if [ ! -x "$work/lulesh2.0" ] || [ "$src/lulesh.cc" -nt "$work/lulesh2.0" ]; then
    say "$MPICXX -DUSE_MPI=1 -g -O2 -o $work/lulesh2.0 lulesh*.cc"
    (cd "$src" && "$MPICXX" -DUSE_MPI=1 -g -O2 -I. -o "$work/lulesh2.0" \
        lulesh.cc lulesh-comm.cc lulesh-viz.cc lulesh-util.cc lulesh-init.cc -lm)
fi

# ---- 3. run under the profiler --------------------------------------------------
launch=()
if "$MPIRUN" --version 2>&1 | grep -q -e 'Open MPI' -e OpenRTE; then
    launch=(--oversubscribe)    # more ranks than cores is fine for a walk-through
    [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
rm -rf "$work/meas"
say "$MPIRUN -np $NP rp-run --period $PERIOD -o $work/meas $work/lulesh2.0 -s $SIZE -i $ITERS"
(cd "$work" && "$MPIRUN" -np "$NP" "${launch[@]}" rp-run --period "$PERIOD" -o "$work/meas" \
    ./lulesh2.0 -s "$SIZE" -i "$ITERS") | tee "$work/lulesh.out"

# ---- 4. the views ---------------------------------------------------------------
say "rp-report $work/meas > report.txt (and json, html, folded, what-if)"
rp-report "$work/meas" >"$work/report.txt"
rp-report --format json "$work/meas" >"$work/report.json"
rp-report --format html -o "$work/report.html" "$work/meas"
rp-report --format folded --path 0 "$work/meas" >"$work/crit.folded"
# the function with the most time on the critical path, 50 % faster
top=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["paths"][0]["top"][0]["function"])' \
      "$work/report.json" 2>/dev/null || echo "")
if [ -n "$top" ]; then
    rp-report --what-if "$top=50" "$work/meas" >"$work/whatif.txt" || true
fi
sed -n '1,/^Samples:/p' "$work/report.txt"

# ---- 5. a screenshot of the HTML page -------------------------------------------
browser=${CHROMIUM:-chromium}
if command -v "$browser" >/dev/null 2>&1; then
    "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
        --user-data-dir="$work/.chromium" --window-size=1280,1800 --virtual-time-budget=10000 \
        --screenshot="$work/report.png" "file://$work/report.html" >/dev/null 2>&1 &&
        say "screenshot: $work/report.png"
fi
say "done: $work/report.txt, report.html${top:+, whatif.txt ($top 50 % faster)}"
