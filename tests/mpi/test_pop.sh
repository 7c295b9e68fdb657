#!/bin/bash
# The POP factors on MPI runs whose factors are known by construction
# (work is wall-clock sleep, rptest.h, so oversubscribed cores keep it):
#  * mpi_bsp (rank r works base*(1+r), then MPI_Allreduce): at 4 ranks
#    mean/max computation = 2.5/4, LB = 0.625, and the critical path is
#    rank 3's work: SerE = 1;
#  * mpi_wavefront SWEEPS NB B (a pipeline down and up a chain of P ranks,
#    blocks of B and 1.5 B, rank 0 B more a sweep): rank 0 computes
#    B + 2.5 B NB a sweep while the critical path, filling and draining the
#    pipeline, costs B + 2.5 B (NB + P - 1): SerE = 26 / 33.5 = 0.776 at
#    NB = 10, P = 4.
# Each within 0.04, computation exact, and the loss lists filled: the
# wavefront's transfer list names MPI_Recv.  In trace mode (every task
# recorded) mpi_bsp's factors per phase: LB 0.625 and SerE 1 in each
# iteration's phase.  In path mode (each rank's computation per phase
# recorded, PCMP) the same with the work rotating round the ranks
# (mpi_bsp ... 1): phase i's busiest rank is (P - 1 - i) % P, so each
# phase's factors are checked to be that phase's (one phase of 8 may be
# off: a late wake-up on the loaded cores); over the whole run every rank
# works as much (LB 1), which only the per-phase factors show.  The
# phases' computation adds up to the ranks' task time (counter
# task_time_ns) within 1 us: both sum the same task costs.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

BSP=$RP_TESTS_BIN/mpi_bsp
WAVE=$RP_TESTS_BIN/mpi_wavefront
rp_require "$BSP" "$WAVE" "$RP_LIB" "$RP_BINDIR/rp-report"

pop_case() { # WHAT PY-CHECKS [VAR=VAL ...] -- PROG ARGS
    local what=$1 checks=$2
    shift 2
    rp_prof "${POP_NP:-4}" shm "$@"
    rp_expect_report "$what" || return
    local out
    if out=$("$PYTHON" - "$RP_JSON" "$checks" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pop = doc["pop"]
bad = []
if pop is None:
    print("no pop object"); sys.exit(1)
if pop["computation"] != "exact":
    bad.append("computation is " + pop["computation"])
lc = pop["loss_code"]
for c in sys.argv[2].split(";"):
    if c.startswith("phases,"):   # every iteration phase (critical path >= 10 ms)
        # phases,KEY,WANT,TOL[,N]: all but at most N phases within TOL
        _, key, want, tol, *n = c.split(",")
        n = int(n[0]) if n else 0
        ph = [x for x in (pop["per_phase"] or []) if x["critical_path_seconds"] >= 0.01]
        off = [x for x in ph if abs(x[key] - float(want)) > float(tol)]
        ok = len(ph) >= 8 and len(off) <= n
        print(("ok" if ok else "BAD") + f": {len(ph)} phases' {key} within {tol} of {want}"
              + (f" but at most {n}" if n else "") + (f"; off: {off}" if off else ""))
        if not ok:
            bad.append("per-phase " + key)
        continue
    if c.startswith("rotate,"):   # phase i's busiest rank is (P - 1 - i) % P
        # rotate,P[,N]: in all but at most N phases
        _, p, *n = c.split(",")
        p, n = int(p), int(n[0]) if n else 0
        ph = [x for x in (pop["per_phase"] or []) if x["critical_path_seconds"] >= 0.01]
        off = [(x["phase"], x["busiest_rank"]) for x in ph
               if x["busiest_rank"] != (p - 1 - x["phase"]) % p]
        ok = len(ph) >= 8 and len(off) <= n
        print(("ok" if ok else "BAD") + f": {len(ph)} phases' busiest rank (P-1-phase)%{p}"
              + (f" but at most {n}" if n else "") + (f"; off (phase, busiest): {off}" if off else ""))
        if not ok:
            bad.append("per-phase busiest rank")
        continue
    if c == "phase_sum":   # the phases' computation adds up to the ranks' task time, exactly
        ph = pop["per_phase"] or []
        got = sum(x["mean_computation_seconds"] for x in ph) * pop["ranks"]
        want = sum(x["task_seconds"] for x in doc["per_rank"])
        ok = len(ph) == doc["phases"] and abs(got - want) < 1e-6
        print(("ok" if ok else "BAD") + f": {len(ph)} of {doc['phases']} phases' computation "
              f"{got:.9f} s = the ranks' task time {want:.9f} s")
        if not ok:
            bad.append("per-phase computation sum")
        continue
    if c.startswith("te_top,"):   # the transfer list's first MPI call
        call = c.split(",")[1]
        top = lc["transfer_efficiency"][0]["name"] if lc and lc["transfer_efficiency"] else ""
        print(("ok" if top.startswith(call) else "BAD") + f": transfer list top {top!r}")
        if not top.startswith(call):
            bad.append("transfer list top")
        continue
    key, want, tol = c.split(",")
    got = pop[key]
    ok = got is not None and abs(got - float(want)) <= float(tol)
    print(("ok" if ok else "BAD") + f": {key} = {got} (want {want} +- {tol})")
    if not ok:
        bad.append(key)
if "phases," in sys.argv[2]:
    if lc is not None:
        bad.append("trace mode has no sampled loss lists")
elif lc is None or not lc["load_balance"] or not lc["transfer_efficiency"]:
    bad.append("no loss lists")
sys.exit(1 if bad else 0)
PY
    ); then
        rp_pass "$what: $(echo "$out" | tr '\n' ' ')"
    else
        rp_fail "$what: $out"
    fi
}

rp_timed pop_case "bsp np=4: LB 0.625, SerE 1" \
    "load_balance,0.625,0.04;serialisation_efficiency,1.0,0.04" -- "$BSP" 8 20
# MPICH's waiting ranks poll without yielding the CPU, so with 4 ranks on
# 2 cores every wake-up of the pipeline waits for a spinning rank's time
# slice, which lengthens the critical path (SerE 0.68 measured): under
# MPICH the pipeline runs on 2 ranks (P = 2: SerE = 26 / 28.5 = 0.912,
# LB = 25.5 / 26 = 0.981).  Even so, under make -j2 a third process takes a
# core now and then and a late wake-up lengthens the path (SerE 0.796
# measured in CI), and contention can only lower SerE: the check is that
# serialisation is found (SerE between 0.65 and 0.95) and blamed on MPI_Recv;
# the exact value is checked under Open MPI, whose waiting ranks yield.
if [ "$RP_MPI_FLAVOR" = mpich ]; then
    POP_NP=2 rp_timed pop_case "wavefront np=2: SerE 0.912 or lower" \
        "serialisation_efficiency,0.80,0.15;load_balance,0.981,0.04;te_top,MPI_Recv" -- "$WAVE" 4 10 2000
else
    rp_timed pop_case "wavefront np=4: SerE 0.776" \
        "serialisation_efficiency,0.776,0.04;load_balance,0.971,0.04;te_top,MPI_Recv" -- "$WAVE" 4 10 2000
fi
# trace mode: the same per phase (each iteration a phase: LB 0.625, SerE 1;
# one phase of the 8 may be off, as in path mode below)
rp_timed pop_case "bsp np=4 trace: per phase LB 0.625, SerE 1" \
    "load_balance,0.625,0.04;phases,load_balance,0.625,0.04,1;phases,serialisation_efficiency,1.0,0.04,1" \
    RP_MODE=trace -- "$BSP" 8 20
# path mode: the same from each rank's computation per phase (PCMP), the
# work rotating round the ranks (LB 0.625 and SerE 1 in every phase).  A
# rank waking late from its sleep on the loaded 2 cores lengthens its
# phase (280 ms once, at a load of 16): one phase of the 8 may be off.
# The whole run is balanced (LB 1 by construction), but one late wake-up
# moves that by as much, so it is not checked.  The phases' computation
# (all 9 listed, --top 10) adds up to the ranks' exact task time.
rp_timed pop_case "bsp np=4 path, rotating: per phase LB 0.625, SerE 1, busiest (3-phase)%4" \
    "phases,load_balance,0.625,0.04,1;phases,serialisation_efficiency,1.0,0.04,1;rotate,4,1;phase_sum" \
    RP_MODE=path -- "$BSP" 8 20 1
rp_finish
