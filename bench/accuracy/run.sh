#!/bin/bash
# bench/accuracy/run.sh - how close the middle paths are to true percentiles
# (issue 14; doc/accuracy.md).
#
#   bench/accuracy/run.sh BUILD_DIR [OUT_DIR]
#
# Runs bench/accuracy/acc.c (random exponential task times, slept, 20 phases)
# as a 1-D halo, a 2-D stencil and a master-worker with MPI_ANY_SOURCE at
# ACC_RANKS ranks (default "8 16", oversubscribed), in trace mode, for every
# k in ACC_KS (default "3 5 9") and RP_SELECT in ACC_SELECTS (default "paper
# repr"), and reads `rp-report --check`: the exact percentiles of all paths of
# each phase (tools/common/oracle.c) against the online paths, error as % of the
# phase's longest - shortest.  Prints one markdown table (also OUT_DIR/table.md):
# per program, k and selection, the median over phases and the worst phase,
# per middle level.  Accuracy does not depend on load: any machine will do.
#
# ACC_SHAPES (default "halo1d stencil2d master"; also halo3d, LULESH-like:
# acc.c) picks the programs.  ACC_SEED (default 1) seeds the task times.
# ACC_RUNS=N (default 1) repeats the whole suite with seeds
# ACC_SEED .. ACC_SEED+N-1 into OUT_DIR/run-SEED
# and then pools every phase of every run (bench/accuracy/pool.py):
# OUT_DIR/pooled.md.  One run is 21 phases a program, so its worst phase
# and its medians move from run to run; doc/accuracy.md's tables pool 8.
# ACC_ENV="VAR=VALUE ..." passes more settings to every rank, e.g.
# ACC_ENV=RP_PHASE_K=1 for the narrow phase-end exchange (k paths).
set -eu
build=$(cd "${1:?usage: run.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=${2:-$build/bench-accuracy}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
runs=${ACC_RUNS:-1}
seed=${ACC_SEED:-1}
if [ "$runs" -gt 1 ]; then
    dirs=()
    for r in $(seq "$seed" $((seed + runs - 1))); do
        ACC_RUNS=1 ACC_SEED=$r bash "$here/run.sh" "$build" "$out/run-$r" >/dev/null
        dirs+=("$out/run-$r")
    done
    "${PYTHON:-python3}" "$here/pool.py" "$build/tools/rp-report" "${dirs[@]}" | tee "$out/pooled.md"
    exit "${PIPESTATUS[0]}"
fi
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$MPICC" -O2 -o "$out/acc" "$here/acc.c" -lm
lib=$build/lib/.libs/librpprof.so
report=$build/tools/rp-report
flags=()
ompi=0
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
    flags=(--oversubscribe)
    ompi=1
fi
extra=()   # ACC_ENV, as each launcher takes it
for kv in ${ACC_ENV:-}; do
    export "${kv?}"
    if [ $ompi = 1 ]; then extra+=(-x "${kv%%=*}"); else extra+=(-genv "${kv%%=*}" "${kv#*=}"); fi
done
{
printf '| program | ranks | k | RP_SELECT | phases | paths a phase (median) | median error by level (%% of range) | worst phase by level |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for shape in ${ACC_SHAPES:-halo1d stencil2d master}; do
  for np in ${ACC_RANKS:-8 16}; do
    for k in ${ACC_KS:-3 5 9}; do
      for sel in ${ACC_SELECTS:-paper repr}; do
        d=$out/$shape-$np-$k-$sel
        rm -rf "$d"
        if [ "${flags[*]:-}" ]; then
            env RP_MODE=trace RP_K="$k" RP_SELECT="$sel" RP_PERIOD=0 RP_OUTPUT="$d" \
                LD_PRELOAD="$lib" "$MPIRUN" "${flags[@]}" -np "$np" \
                -x RP_MODE -x RP_K -x RP_SELECT -x RP_PERIOD -x RP_OUTPUT -x LD_PRELOAD ${extra[@]+"${extra[@]}"} \
                "$out/acc" "$shape" "${ACC_PHASES:-20}" "${ACC_STEPS:-10}" "${ACC_MEAN_US:-300}" "$seed" \
                >"$d.out" 2>&1
        else
            "$MPIRUN" -np "$np" -genv RP_MODE trace -genv RP_K "$k" -genv RP_SELECT "$sel" \
                -genv RP_PERIOD 0 -genv RP_OUTPUT "$d" -genv LD_PRELOAD "$lib" ${extra[@]+"${extra[@]}"} \
                "$out/acc" "$shape" "${ACC_PHASES:-20}" "${ACC_STEPS:-10}" "${ACC_MEAN_US:-300}" "$seed" \
                >"$d.out" 2>&1
        fi
        "$report" --check "$d" >"$d.check" 2>&1 || true
        awk -v shape="$shape" -v np="$np" -v k="$k" -v sel="$sel" '
            /^percentiles of all paths/ {
                for (i = 1; i <= NF; i++) {
                    if ($i == "phase(s),") ph = $(i - 1)
                    if ($i == "median" && $(i + 1) ~ /^2\^/) { p = $(i + 1); sub(/^2\^/, "", p) }
                }
                on = 1; next }
            on && $1 ~ /^[0-9.]+$/ && $NF == "estimate" { med = med sep $1 "%:" $2; wst = wst sep $1 "%:" $3; sep = " " }
            END {
                if (!on) { printf "| %s | %s | %s | %s | - | - | (check failed: see %s.check) | |\n", shape, np, k, sel, shape "-" np "-" k "-" sel; exit }
                printf "| %s | %s | %s | %s | %s | 2^%s | %s | %s |\n", shape, np, k, sel, ph, p, med, wst
            }' "$d.check"
      done
    done
  done
done
} | tee "$out/table.md"
