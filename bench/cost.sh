#!/bin/bash
# bench/cost.sh - what the default configuration costs on HPCG- and
# LULESH-shaped runs (issue 16; doc/performance.md "Sampling at its cost").
#
#   bench/cost.sh [BUILDDIR [RESULTDIR]]
#
# BUILDDIR holds lib/.libs/librpprof.so and tools/rp-merge (default: the
# current directory).  Builds bench/apps/hpcg.c and bench/apps/lulesh.c and,
# for every configuration, runs COST_ROUNDS rounds of three jobs in an order
# rotated every round:
#   plain    no profiler
#   default  LD_PRELOAD=librpprof.so, RP_K=5, default RP_PERIOD (sampling on)
#   p0       the same with RP_PERIOD=0 (path exchange only)
# and prints, per configuration, the median over rounds (and min-max) of the
# ratio to the same round's plain run of (a) the app's loop time (slowest
# rank), (b) the whole mpirun's wall time and (c) the job's CPU time
# (user + sys of mpirun and its children).  For the profiled runs it also
# gives the rank files' counters (path-set bytes per message, samples, the
# share of them inside MPI, timer overruns) and the size of rp-merge's
# merged profile.  Every profiled run's checksum must equal the plain
# run's (else FAIL).  The machine is usually shared: read the spread.
#
# Knobs (environment):
#   COST_ROUNDS   rounds (default 5)
#   COST_SCALE    iteration multiplier (default 1; the size table uses 1 3 10)
#   COST_CONFIGS  default "hpcg2 lulesh8 lulesh2 lulesh8cpu" (see conf() below)
#   COST_ENV      extra -x VAR=VALUE settings for both profiled variants
#   COST_BASE_LIB another librpprof.so (e.g. a build before a change): adds
#                 the variants "base" and "base_p0" (the same two settings with
#                 it) to every round, so before and after share the rounds
#   COST_VARIANTS the variants to run (default "plain default p0", plus the
#                 base ones); the size table needs only "default p0"
#   COST_KEEP     a directory: keep each profiled run's measurement directory
#                 (rank files and profile.rpm) there as CONFIG-xSCALE-VARIANT-ROUND
#   MPICC, MPIRUN, PYTHON
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$PWD}" && pwd)
results=${2:-$build/bench-cost}
lib=$build/lib/.libs/librpprof.so
merge=$build/tools/rp-merge
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-python3}
rounds=${COST_ROUNDS:-5}
scale=${COST_SCALE:-1}
configs=${COST_CONFIGS:-hpcg2 lulesh8 lulesh2 lulesh8cpu}
[ -f "$lib" ] || { echo "cost.sh: $lib not built" >&2; exit 1; }
mkdir -p "$results" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-cost.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
CF="-O2 -g -fno-omit-frame-pointer"
for a in hpcg lulesh; do
    "$MPICC" $CF -o "$work/$a" "$src/bench/apps/$a.c" || exit 1
done
cal=$("$work/hpcg" --calibrate) || exit 1

# conf NAME -> "NP APP ARGS...": the proxies' call rates (doc/performance.md)
# shellcheck source=bench/proxies.sh
. "$src/bench/proxies.sh"
conf() { proxy_conf "$1" "$scale" "$cal"; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset RP_K RP_PERIOD RP_SUMMARY RP_SELECT RP_MODE RP_OUTPUT RP_CLOCK LD_PRELOAD
read -r -a extra <<<"${COST_ENV:-}"
xenv=()
for e in "${extra[@]}"; do xenv+=(-x "$e"); done

csv=$results/runs.csv
echo "config,round,variant,loop_s,wall_s,cpu_s,calls_per_rank_s,checksum,rc,load1,bytes_per_msg,samples,samples_mpi,overruns,doublings,merged_bytes,rankfile_bytes" >"$csv"
run_one() { # config round variant
    local c=$1 r=$2 v=$3 spec np app envs=() out=$work/out t0 t1 rc load1
    spec=$(conf "$c") || exit 1
    read -r np app args <<<"$spec"
    rm -rf "$work/meas"
    read -r load1 _ </proc/loadavg
    case $v in
    default) envs=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_QUIET=1 "${xenv[@]}") ;;
    p0) envs=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_QUIET=1 -x RP_PERIOD=0 "${xenv[@]}") ;;
    base) envs=(-x LD_PRELOAD="$COST_BASE_LIB" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_QUIET=1 "${xenv[@]}") ;;
    base_p0) envs=(-x LD_PRELOAD="$COST_BASE_LIB" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_QUIET=1 -x RP_PERIOD=0 "${xenv[@]}") ;;
    esac
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    # waiting ranks yield (as bench/apps.sh): on a shared 2-core machine a rank
    # spinning in MPI otherwise starves its peer whenever another job runs
    /usr/bin/time -f "%U %S" -o "$work/cpu" timeout -k 5 600 "$MPIRUN" -np "$np" --oversubscribe \
        --bind-to none --mca mpi_yield_when_idle 1 "${envs[@]}" "$work/$app" $args >"$out" 2>"$out.err" </dev/null
    rc=$?
    t1=$(date +%s.%N)
    [ "$rc" = 0 ] || { echo "cost.sh: FAIL: rc=$rc: $c $v" >&2; tail -5 "$out.err" >&2; }
    local cnt="" mb="" rb=""
    if [ "$v" != plain ] && [ -d "$work/meas" ]; then
        cnt=$("$PYTHON" "$src/bench/rpcounters.py" "$work/meas")
        "$merge" -q "$work/meas" >/dev/null 2>&1 && mb=$(stat -c %s "$work/meas/profile.rpm")
        rb=$(cat "$work/meas"/rank-*.rpp | wc -c)
        [ -n "${COST_KEEP:-}" ] && mkdir -p "$COST_KEEP" &&
            rm -rf "$COST_KEEP/$c-x$scale-$v-$r" && cp -r "$work/meas" "$COST_KEEP/$c-x$scale-$v-$r"
    fi
    awk -v c="$c" -v r="$r" -v v="$v" -v t0="$t0" -v t1="$t1" -v rc="$rc" -v l="$load1" \
        -v cnt="$cnt" -v mb="$mb" -v rb="$rb" -v cpuf="$work/cpu" '
        BEGIN { n = split(cnt, a, "\n"); for (i = 1; i <= n; i++) { split(a[i], kv, " "); k[kv[1]] = kv[2] }
                getline line < cpuf; split(line, u, " "); cpu = u[1] + u[2] }
        /^checksum / { cs = $3 }
        /^stats / { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] } }
        END { printf "%s,%s,%s,%s,%.4f,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", c, r, v,
              s["loop_s"], t1 - t0, cpu, s["calls_per_rank_s"], cs, rc, l,
              k["pathset_bytes_per_msg"], k["samples"], k["samples_mpi"],
              k["timer_overruns"], k["period_doublings"], mb, rb }' "$out" >>"$csv"
}

echo "load before: $(uptime)" >&2
variants=(plain default p0)
[ -n "${COST_BASE_LIB:-}" ] && variants+=(base base_p0)
[ -n "${COST_VARIANTS:-}" ] && read -r -a variants <<<"$COST_VARIANTS"
nv=${#variants[@]}
for c in $configs; do
    for ((r = 0; r < rounds; r++)); do
        for ((j = 0; j < nv; j++)); do
            run_one "$c" "$r" "${variants[$(((r + j) % nv))]}"
        done
    done
done
echo "load after: $(uptime)" >&2
"$PYTHON" - "$csv" <<'PY' | tee "$results/cost.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(r["config"], {}).setdefault(r["round"], {})[r["variant"]] = r
fail = 0
print("| proxy | calls/rank/s | variant | loop ratio | wall ratio | CPU ratio | B/msg | samples (in MPI) | overruns | merged profile |")
print("|---|---|---|---|---|---|---|---|---|---|")
def med(xs):
    return "%.3f (%.3f-%.3f)" % (statistics.median(xs), min(xs), max(xs)) if xs else "-"
for c, rs in by.items():
    calls = statistics.median([float(r["plain"]["calls_per_rank_s"]) for r in rs.values() if "plain" in r] or [0])
    for v in ("default", "p0", "base", "base_p0"):
        lr, wr, cr, bpm, smp, smi, ovr, mb = [], [], [], [], [], [], [], []
        for r in rs.values():
            if "plain" not in r or v not in r:
                continue
            p, x = r["plain"], r[v]
            if x["checksum"] != p["checksum"] or x["rc"] != "0":
                print("cost.sh: FAIL: %s %s round %s: checksum %s != %s or rc %s"
                      % (c, v, x["round"], x["checksum"], p["checksum"], x["rc"]), file=sys.stderr)
                fail = 1
                continue
            lr.append(float(x["loop_s"]) / float(p["loop_s"]))
            wr.append(float(x["wall_s"]) / float(p["wall_s"]))
            cr.append(float(x["cpu_s"]) / max(float(p["cpu_s"]), 1e-9))
            if x["bytes_per_msg"]: bpm.append(float(x["bytes_per_msg"]))
            if x["samples"]: smp.append(int(x["samples"])); smi.append(int(x["samples_mpi"] or 0))
            if x["overruns"]: ovr.append(int(x["overruns"]))
            if x["merged_bytes"]: mb.append(int(x["merged_bytes"]))
        if not lr:
            continue
        sm = "%d (%d %%)" % (statistics.median(smp), 100 * statistics.median(smi) / max(statistics.median(smp), 1)) if smp else "-"
        print("| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c, calls, v, med(lr), med(wr), med(cr),
            "%.0f" % statistics.median(bpm) if bpm else "-", sm,
            "%d" % statistics.median(ovr) if ovr else "-",
            "%.1f KB" % (statistics.median(mb) / 1000) if mb else "-"))
sys.exit(fail)
PY
