#!/bin/bash
# Fortran bindings (doc/fortran.md): the ring + allreduce program written
# with mpif.h (tests/fortran/mpi_ring_f77.f), `use mpi` (mpi_ring_f90.f90) and
# `use mpi_f08` (mpi_ring_f08.f90), against the same program in C
# (mpi_ringar_c.c), at 2 and 4 ranks.  For each Fortran variant:
#   - the output is byte-identical with and without the profiler, and the
#     same as the C program's (ring, Irecv/Isend/Waitall with
#     MPI_STATUSES_IGNORE, a wildcard Irecv + Wait, wildcard Irecvs completed
#     by Wait with MPI_STATUS_IGNORE and Waitall with MPI_STATUSES_IGNORE,
#     Sendrecv, persistent Send_init/Recv_init with Startall, Start and
#     Request_free, Test, Testall, Waitany, Testany, Bcast, Reduce and Gather
#     with MPI_IN_PLACE);
#   - the report is valid: NITER+1 phases, 100 % path = NITER*(P*T + (P-1)*T/P);
#   - it matches the C program's report: same phases, every percentile's
#     cost within 5 % + 20 ms, and the same path-set traffic (messages sent
#     and received, collective joins: a call counted twice, or missed, by the
#     Fortran layer changes them); no decode errors, unmatched path-sets or
#     unsupported calls.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/../mpi/mpirun.sh"

T_MS=30
NITER=3
CPROG=$RP_TESTS_BIN/mpi_ringar_c
FPROGS=(mpi_ring_f77 mpi_ring_f90 mpi_ring_f08)
rp_require "$CPROG" "$RP_LIB" "$RP_BINDIR/rp-report"
for f in "${FPROGS[@]}"; do rp_require "$RP_TESTS_BIN/$f"; done

# run_pair NAME NP: plain and profiled run of NAME; leaves $RP_TMP/NAME-NP.out
# (plain output) and $RP_TMP/NAME-NP.json (report); 1 on failure.
run_pair() {
    local name=$1 np=$2 prog what ref
    if [ "$name" = c ]; then prog=$CPROG; else prog=$RP_TESTS_BIN/$name; fi
    what="$name np=$np"
    ref=$RP_TMP/$name-$np.out
    rp_run "$np" shm -- "$prog" "$T_MS" "$NITER"
    rp_expect_rc0 "$what (without profiler)" || return 1
    rp_stdout_filtered "$RP_OUTF" >"$ref"
    if [ "$(grep -c '^ring ' "$ref")" != "$NITER" ] || ! grep -q '^gather' "$ref"; then
        rp_fail "$what (without profiler): incomplete output"
        return 1
    fi
    rp_prof "$np" shm -- "$prog" "$T_MS" "$NITER"
    rp_expect_report "$what (profiled)" || return 1
    if ! diff -u "$ref" <(rp_stdout_filtered "$RP_OUTF") >"$RP_RUNDIR/diff"; then
        rp_fail "$what: output differs with the profiler (- without, + with)"
        rp_show diff "$RP_RUNDIR/diff"
        return 1
    fi
    cp "$RP_JSON" "$RP_TMP/$name-$np.json"
    local p100
    p100=$(awk -v t="$T_MS" -v n="$np" -v it="$NITER" \
        'BEGIN { printf "%.4f", it * (n * t + (n - 1) * t / n) / 1000 }')
    rp_check_report "$what: report" --ranks "$np" --phases $((NITER + 1)) --k 5 \
        --mode prof --p100 "$p100" --rel 0.05 --abs 0.020 --clean-counters
}

# compare NAME NP: NAME's report and output against the C program's
compare() {
    local name=$1 np=$2 out
    local what="$name np=$np vs C"
    if ! diff -u "$RP_TMP/c-$np.out" "$RP_TMP/$name-$np.out" >"$RP_TMP/$name-$np.diff"; then
        rp_fail "$what: output differs from the C program's (- C, + Fortran)"
        rp_show diff "$RP_TMP/$name-$np.diff"
        return 1
    fi
    if out=$("$PYTHON" - "$RP_TMP/c-$np.json" "$RP_TMP/$name-$np.json" <<'PYEOF' 2>&1
import json, sys
c = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
bad = []
if c["phases"] != f["phases"]:
    bad.append("phases %r, C has %r" % (f["phases"], c["phases"]))
cp = [(p["percentile"], p["cost_seconds"]) for p in c["paths"]]
fp = [(p["percentile"], p["cost_seconds"]) for p in f["paths"]]
if len(cp) != len(fp):
    bad.append("%d paths, C has %d" % (len(fp), len(cp)))
for (qc, xc), (qf, xf) in zip(cp, fp):
    if abs(qc - qf) > 0.01:
        bad.append("percentile %r, C has %r" % (qf, qc))
    elif abs(xf - xc) > 0.05 * xc + 0.020:
        bad.append("%g%% path costs %.4f s, C %.4f s" % (qf, xf, xc))
cc, fc = c.get("counters", {}), f.get("counters", {})
for k in ("pathset_msgs_sent", "pathset_msgs_received", "collective_joins"):
    if cc.get(k) != fc.get(k):
        bad.append("counter %s = %r, C has %r" % (k, fc.get(k), cc.get(k)))
for k in ("pathset_decode_errors", "pathset_unmatched", "unsupported_calls"):
    if fc.get(k, 0):
        bad.append("counter %s = %r" % (k, fc[k]))
print("C: %s" % " ".join("%g%%=%.4f" % q for q in cp))
print("F: %s  (msgs %s/%s, joins %s)" % (" ".join("%g%%=%.4f" % q for q in fp),
      fc.get("pathset_msgs_sent"), fc.get("pathset_msgs_received"), fc.get("collective_joins")))
for b in bad:
    print("CHECK FAILED " + b)
sys.exit(1 if bad else 0)
PYEOF
    ); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what"
    else
        rp_fail "$what: $(echo "$out" | grep -m1 '^CHECK FAILED' || echo "$out" | tail -1)"
        echo "$out" | sed 's/^/  compare: /'
    fi
}

# a pair with its comparison; retried once as a whole if timing fails
pair_and_compare() { # NAME NP
    run_pair "$1" "$2" && compare "$1" "$2"
}
for np in 2 4; do
    before=$RP_FAILS
    rp_timed run_pair c "$np"
    if [ "$RP_FAILS" -gt "$before" ]; then
        rp_fail "C reference np=$np failed; its Fortran comparisons are failures too"
        continue
    fi
    for f in "${FPROGS[@]}"; do
        rp_timed pair_and_compare "$f" "$np"
    done
done
rp_finish
