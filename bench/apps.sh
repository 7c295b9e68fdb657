#!/bin/bash
# bench/apps.sh - whole-application overhead of rpprof on the proxy
# applications in bench/apps/ (doc/performance.md).
#
#   bench/apps.sh [BUILDDIR [RESULTDIR]]
#
# BUILDDIR holds lib/.libs/librpprof.so (default: the current directory);
# RESULTDIR (default BUILDDIR/bench-apps) receives runs.csv (one line per
# run) and apps.md (the tables, also printed on stdout).
#
# For every configuration (ranks x work kind) x app x interval, it runs
# APPS_PAIRS rounds of three jobs, in an order that rotates from round to
# round:  plain | LD_PRELOAD=librpprof.so (RP_K=5, default RP_PERIOD) |
# the same with RP_PERIOD=0 (path exchange only, no sampling).  A round's
# ratios are profiled/plain of (a) the app's own loop time (slowest rank,
# barrier after MPI_Init to the end of the last iteration) and (b) the
# wall time of the whole mpirun (start-up, MPI_Init, loop, MPI_Finalize
# with the profile write).  The tables give the median ratio and its
# min-max over the rounds, and the plain run's MPI calls per rank per second.
# Every profiled run's checksum must equal the plain runs' (else: FAIL).
#
# Knobs (environment):
#   APPS_PAIRS      rounds per configuration (default 5)
#   APPS_APPS       apps (default "stencil cg wavefront stencil_f")
#   APPS_INTERVALS  work between MPI events, microseconds (default "10 150 1000 10000")
#   APPS_CONFIGS    NP:cpu or NP:sleep (default "2:cpu 4:sleep 8:sleep"); cpu =
#                   calibrated compute loop, sleep = nanosleep (oversubscribed)
#   APPS_SECONDS    intended loop time of one run (default 0.6); iteration
#                   counts follow from it and the nominal interval only
#   APPS_QUICK=1    APPS_PAIRS=1, APPS_SECONDS=0.2 (a smoke test)
#   APPS_CALLGRIND=1  also count instructions (load-independent): for every
#                   app x interval at 2 ranks (cpu work), rank 0 runs under
#                   valgrind --tool=callgrind, plain, rpprof and RP_PERIOD=0,
#                   with APPS_CG_SECONDS (default 0.1) of nominal loop time;
#                   the table gives instructions of the loop (main minus
#                   MPI_Init and MPI_Finalize) profiled / plain, and the
#                   instructions rpprof adds per MPI call
#   APPS_SKIP_WALL=1  only the callgrind part
#   MPICC, MPIFC, MPIRUN, PYTHON
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$PWD}" && pwd)
results=${2:-$build/bench-apps}
lib=$build/lib/.libs/librpprof.so
MPICC=${MPICC:-mpicc}
MPIFC=${MPIFC:-mpifort}
MPIRUN=${MPIRUN:-mpirun}
PYTHON=${PYTHON:-python3}
pairs=${APPS_PAIRS:-5}
apps=${APPS_APPS:-stencil cg wavefront stencil_f}
intervals=${APPS_INTERVALS:-10 150 1000 10000}
configs=${APPS_CONFIGS:-2:cpu 4:sleep 8:sleep}
seconds=${APPS_SECONDS:-0.6}
if [ "${APPS_QUICK:-0}" = 1 ]; then pairs=1 seconds=0.2; fi
[ -f "$lib" ] || { echo "apps.sh: $lib not built" >&2; exit 1; }
mkdir -p "$results" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-apps.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# ---- build the apps (frame pointers and -g: samples unwind and resolve) ----
CF="-O2 -g -fno-omit-frame-pointer"
for a in stencil cg wavefront; do
    "$MPICC" $CF -o "$work/$a" "$src/bench/apps/$a.c" || exit 1
done
if ! "$MPIFC" $CF -J "$work" -o "$work/stencil_f" "$src/bench/apps/stencil_f.f90"; then
    echo "apps.sh: no Fortran compiler ($MPIFC): stencil_f left out" >&2
    apps=${apps//stencil_f/}
fi

# ---- calibration: once, here; every run gets the same --cal -------------------
cal_of() { # best of three
    local b=0 v i
    for i in 1 2 3; do
        v=$("$1" --calibrate) || return 1
        b=$(awk -v a="$b" -v b="$v" 'BEGIN { print (b > a) ? b : a }')
    done
    echo "$b"
}
cal_c=$(cal_of "$work/stencil") || exit 1
cal_f=$cal_c
[ -x "$work/stencil_f" ] && { cal_f=$(cal_of "$work/stencil_f") || exit 1; }
echo "calibration: C loop $cal_c iterations/us, Fortran loop $cal_f iterations/us" >&2

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset RP_K RP_PERIOD RP_SUMMARY RP_SELECT RP_MODE RP_OUTPUT RP_CLOCK LD_PRELOAD
# waiting ranks yield: without it a rank that spins in MPI starves its peer
# whenever any other process wants a core (2 cores here)
MPIARGS=(--oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
    --mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1)

# time units (multiples of the interval) on the critical path of one iteration
units() { # app np
    local app=$1 np=$2
    case $app in
    stencil | stencil_f)
        case $np in 1) echo 2 ;; 2 | 3) echo 3 ;; 4) echo 4 ;; 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12) echo 5 ;; *) echo 6 ;; esac ;;
    cg) [ "$np" -le 2 ] && echo 4 || echo 5 ;;
    wavefront) echo $((2 * (16 + np - 1) + 1)) ;;
    esac
}

csv=$results/runs.csv
echo "np,kind,app,interval_us,round,variant,iters,loop_s,wall_s,calls_per_rank_s,events_per_rank_s,checksum,rc,load1" >"$csv"
run_one() { # np kind app w iters round variant
    local np=$1 kind=$2 app=$3 w=$4 iters=$5 round=$6 variant=$7
    local cal=$cal_c envs=() sleepopt=() out=$work/out t0 t1 rc
    [ "$app" = stencil_f ] && cal=$cal_f
    [ "$kind" = sleep ] && sleepopt=(--sleep)
    rm -rf "$work/meas"
    local load1
    read -r load1 _ </proc/loadavg
    case $variant in
    prof) envs=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5) ;;
    period0) envs=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_PERIOD=0) ;;
    esac
    t0=$(date +%s.%N)
    timeout -k 5 600 "$MPIRUN" -np "$np" "${MPIARGS[@]}" "${envs[@]}" "$work/$app" \
        --iters "$iters" --work-us "$w" --cal "$cal" "${sleepopt[@]}" >"$out" 2>"$out.err" </dev/null
    rc=$?
    t1=$(date +%s.%N)
    if [ "$rc" != 0 ]; then
        echo "apps.sh: FAIL: rc=$rc: np=$np $kind $app $w us $variant" >&2
        tail -5 "$out.err" >&2
    fi
    awk -v np="$np" -v kind="$kind" -v app="$app" -v w="$w" -v r="$round" -v v="$variant" \
        -v it="$iters" -v t0="$t0" -v t1="$t1" -v rc="$rc" -v load1="$load1" '
        /^checksum / { cs = $3 }
        /^stats / { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] } }
        END { printf "%s,%s,%s,%s,%s,%s,%s,%s,%.4f,%s,%s,%s,%s,%s\n", np, kind, app, w, r, v, it,
              s["loop_s"], t1 - t0, s["calls_per_rank_s"], s["events_per_rank_s"], cs, rc, load1 }' \
        "$out" >>"$csv"
}

t_start=$(date +%s)
echo "load before: $(uptime)" >&2
[ "${APPS_SKIP_WALL:-0}" = 1 ] && configs=
for cfg in $configs; do
    np=${cfg%%:*} kind=${cfg#*:}
    for app in $apps; do
        for w in $intervals; do
            u=$(units "$app" "$np")
            over=2
            [ "$kind" = sleep ] && over=60 # nanosleep's own latency here
            iters=$(awk -v s="$seconds" -v w="$w" -v o="$over" -v u="$u" \
                'BEGIN { n = int(s * 1e6 / ((w + o) * u) + 0.5); print (n < 5) ? 5 : n }')
            echo "np=$np $kind $app interval=${w}us iters=$iters ($(($(date +%s) - t_start)) s)" >&2
            variants=(plain prof period0)
            for ((r = 0; r < pairs; r++)); do
                for ((j = 0; j < 3; j++)); do
                    run_one "$np" "$kind" "$app" "$w" "$iters" "$r" "${variants[$(((r + j) % 3))]}"
                done
            done
        done
    done
done
echo "load after: $(uptime); $(($(date +%s) - t_start)) s" >&2

[ "${APPS_SKIP_WALL:-0}" = 1 ] || "$PYTHON" - "$csv" <<'PYEOF' | tee "$results/apps.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
groups = {}
for r in rows:
    groups.setdefault((int(r["np"]), r["kind"], r["app"], int(r["interval_us"])), []).append(r)
fails = []
print("| ranks | work | app | interval µs | calls/rank/s | events/rank/s | loop: rpprof | loop: RP_PERIOD=0 | job: rpprof | job: RP_PERIOD=0 | load |")
print("|---:|---|---|---:|---:|---:|---|---|---|---|---:|")
def fmt(v):
    if not v:
        return "n/a"
    return "%.3f (%.3f–%.3f)" % (statistics.median(v), min(v), max(v))
for key in sorted(groups, key=lambda k: (k[0], k[1], ["stencil", "cg", "wavefront", "stencil_f"].index(k[2]) if k[2] in ["stencil", "cg", "wavefront", "stencil_f"] else 9, k[3])):
    g = groups[key]
    byround = {}
    for r in g:
        byround.setdefault(r["round"], {})[r["variant"]] = r
    ratios = {("loop", "prof"): [], ("loop", "period0"): [], ("wall", "prof"): [], ("wall", "period0"): []}
    plain_cs = {r["checksum"] for r in g if r["variant"] == "plain"}
    for r in g:
        if r["rc"] != "0" or not r["loop_s"]:
            fails.append("%s: %s run failed (rc %s)" % (key, r["variant"], r["rc"]))
        elif r["variant"] != "plain" and r["checksum"] not in plain_cs:
            fails.append("%s: %s checksum %s differs from plain %s" % (key, r["variant"], r["checksum"], plain_cs))
    for rd in byround.values():
        p = rd.get("plain")
        if not p or not p["loop_s"]:
            continue
        for v in ("prof", "period0"):
            q = rd.get(v)
            if q and q["loop_s"]:
                ratios[("loop", v)].append(float(q["loop_s"]) / float(p["loop_s"]))
                ratios[("wall", v)].append(float(q["wall_s"]) / float(p["wall_s"]))
    rate = [float(r["calls_per_rank_s"]) for r in g if r["variant"] == "plain" and r["calls_per_rank_s"]]
    erate = [float(r["events_per_rank_s"]) for r in g if r["variant"] == "plain" and r["events_per_rank_s"]]
    load = [float(r["load1"]) for r in g if r.get("load1")]
    print("| %d | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
        key[0], key[1], key[2], key[3],
        "%.0f" % statistics.median(rate) if rate else "n/a",
        "%.0f" % statistics.median(erate) if erate else "n/a",
        fmt(ratios[("loop", "prof")]), fmt(ratios[("loop", "period0")]),
        fmt(ratios[("wall", "prof")]), fmt(ratios[("wall", "period0")]),
        "%.1f" % statistics.median(load) if load else "?"))
print()
print("Ratios: profiled / plain, median of %d interleaved rounds (min–max); load: median"
      " 1-minute load average before the runs (2 cores)." % max(len({r["round"] for r in g}) for g in groups.values()))
for f in fails:
    print("FAIL:", f)
PYEOF

# ---- instruction counts under callgrind (rank 0 only) -------------------------
[ "${APPS_CALLGRIND:-0}" = 1 ] || exit 0
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || {
    echo "apps.sh: APPS_CALLGRIND=1 needs valgrind" >&2
    exit 1
}
cat >"$work/vg.sh" <<'VGEOF'
#!/bin/bash
# rank 0 under callgrind, the others as they are
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then
    exec valgrind -q --tool=callgrind --callgrind-out-file="$CG_OUT" "$@"
fi
exec "$@"
VGEOF
chmod +x "$work/vg.sh"
cgsec=${APPS_CG_SECONDS:-0.1}
cgcsv=$results/callgrind.csv
echo "app,interval_us,variant,iters,loop_instr,calls_rank0,stdout_checksum" >"$cgcsv"
# inclusive instructions: main minus MPI_Init and MPI_Finalize (wrapper or library)
loop_instr() {
    callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | awk '
        function num(s) { gsub(",", "", s); return s + 0 }
        / [^ ]*:main \[/ && !m { m = num($1) }
        { l = tolower($0) }
        l ~ /:p?mpi_init(_f08)?_*(\(.*\))? \[/ { v = num($1); if (v > i) i = v }
        l ~ /:p?mpi_finalize(_f08)?_*(\(.*\))? \[/ { v = num($1); if (v > f) f = v }
        END { printf "%.0f\n", m - i - f }'
}
for app in $apps; do
    for w in $intervals; do
        u=$(units "$app" 2)
        iters=$(awk -v s="$cgsec" -v w="$w" -v u="$u" \
            'BEGIN { n = int(s * 1e6 / ((w + 2) * u) + 0.5); print (n < 5) ? 5 : n }')
        cal=$cal_c
        [ "$app" = stencil_f ] && cal=$cal_f
        echo "callgrind: $app interval=${w}us iters=$iters" >&2
        for variant in plain prof period0; do
            envs=(-x CG_OUT="$work/cg.out")
            case $variant in
            prof) envs+=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5) ;;
            period0) envs+=(-x LD_PRELOAD="$lib" -x RP_OUTPUT="$work/meas" -x RP_K=5 -x RP_PERIOD=0) ;;
            esac
            rm -rf "$work/meas" "$work/cg.out"
            timeout -k 5 900 "$MPIRUN" -np 2 "${MPIARGS[@]}" "${envs[@]}" "$work/vg.sh" "$work/$app" \
                --iters "$iters" --work-us "$w" --cal "$cal" >"$work/out" 2>"$work/out.err" </dev/null ||
                { echo "apps.sh: callgrind run failed: $app $w $variant" >&2; tail -5 "$work/out.err" >&2; continue; }
            calls=$(awk '/^stats / { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] } }
                END { print s["calls"] / s["ranks"] }' "$work/out")
            cs=$(awk '/^checksum / { print $3 }' "$work/out")
            echo "$app,$w,$variant,$iters,$(loop_instr "$work/cg.out"),$calls,$cs" >>"$cgcsv"
        done
    done
done
"$PYTHON" - "$cgcsv" <<'PYEOF' | tee "$results/callgrind.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
g = {}
for r in rows:
    g.setdefault((r["app"], int(r["interval_us"])), {})[r["variant"]] = r
print("| app | interval µs | iterations | MPI calls/rank | loop instr plain | rpprof / plain | RP_PERIOD=0 / plain | instr added per MPI call (rpprof, RP_PERIOD=0) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
order = ["stencil", "cg", "wavefront", "stencil_f"]
for (app, w) in sorted(g, key=lambda k: (order.index(k[0]) if k[0] in order else 9, k[1])):
    d = g[(app, w)]
    p = d.get("plain")
    if not p:
        continue
    base = float(p["loop_instr"]); calls = float(p["calls_rank0"])
    def rat(v):
        q = d.get(v)
        return "%.4f" % (float(q["loop_instr"]) / base) if q else "n/a"
    def per(v):
        q = d.get(v)
        return "%.0f" % ((float(q["loop_instr"]) - base) / calls) if q else "n/a"
    bad = [v for v in ("prof", "period0") if v in d and d[v]["stdout_checksum"] != p["stdout_checksum"]]
    print("| %s | %d | %s | %.0f | %.3g | %s | %s | %s, %s |%s" % (app, w, p["iters"], calls, base,
          rat("prof"), rat("period0"), per("prof"), per("period0"),
          " CHECKSUM DIFFERS: " + ",".join(bad) if bad else ""))
PYEOF
