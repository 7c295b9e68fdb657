#!/bin/bash
# Scale: 64 ranks (32 under MPICH; oversubscribed, nanosleep work, 10
# barrier phases) over shared memory and TCP.  The paths must be right (100
# % = 10 x 30 ms, 0 % = 10 x 10 ms: rank r works 10 * (1 + r % 3) ms a
# phase), no path-set may be left unreceived (pathset_unmatched = 0 in every
# rank file), and the peak resident set of a rank (counter peak_rss_kb,
# VmHWM at MPI_Finalize) may exceed the unprofiled program's by at most 16
# MB.  (Oversubscribed, one phase's wake-up can be late by a scheduling
# quantum or more: the 100 % path is checked by its median phase.)  256
# ranks: see doc/robustness.md (too slow for make check on 2 cores).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_fault
# MPICH's ranks spin (below), so 64 of them on 2 cores take minutes: the
# MPICH pass runs 32, the Open MPI pass 64.
NP=${RP_SCALE_NP:-64}
[ "$RP_MPI_FLAVOR" = mpich ] && NP=${RP_SCALE_NP:-32}
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report"
# Upper bound on the 100 % path's median phase (30 ms of work).  MPICH's
# waiting ranks poll without ever yielding the CPU (Open MPI's run here uses
# mpi_yield_when_idle), so with 64 ranks on a few cores every wake-up waits
# for a time slice of the spinning ranks: measured 41-52 ms on 2 cores
# (Open MPI: 30-31 ms).  That is real task time, which the profiler reports.
# The same late wake-ups lengthen the 0 % path's ten 10 ms tasks: measured
# 0.117-0.121 s under MPICH (Open MPI: 0.102-0.103 s), so under MPICH the
# 0 % path may be up to 30 ms later than its bound (never earlier).
MED_MAX=0.045
LATE=0
if [ "$RP_MPI_FLAVOR" = mpich ]; then
    MED_MAX=0.070
    LATE=0.030
    echo "note: MPICH: median phase bound ${MED_MAX} s, not 0.045 s; 0 % path may be ${LATE} s late (ranks spin without yielding)"
fi

for net in shm tcp; do
    what="$NP ranks over $net"
    rp_run "$NP" "$net" RPT_RSS=1 -- "$PROG" none 0 10 20
    rp_expect_rc0 "$what (without profiler)" || continue
    base=$(sed -n 's/^max VmHWM \([0-9]*\) kB$/\1/p' "$RP_ERRF")
    rp_prof "$NP" "$net" RP_QUIET=1 -- "$PROG" none 0 10 20
    rp_expect_report "$what" || continue
    if ! out=$("$PYTHON" - "$RP_DIR" "$NP" "${base:-0}" <<'PY'
import glob, os, struct, sys
d, np_, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def counter(data, name):
    key = bytes([len(name)]) + name.encode()
    i = data.find(key)
    return struct.unpack_from("<Q", data, i + len(key))[0] if i >= 0 else None
files = sorted(glob.glob(os.path.join(d, "rank-*.rpp")))
rss, unmatched = [], 0
for f in files:
    data = open(f, "rb").read()
    rss.append(counter(data, "peak_rss_kb") or 0)
    unmatched += counter(data, "pathset_unmatched") or 0
err = []
if len(files) != np_:
    err.append("%d rank files" % len(files))
if unmatched:
    err.append("pathset_unmatched = %d" % unmatched)
over = max(rss) - base
print("peak RSS per rank: max %d kB, mean %d kB; unprofiled max %d kB; "
      "difference %+d kB; pathset_unmatched %d" % (max(rss), sum(rss) / len(rss), base, over,
                                                    unmatched))
if base and over > 16 * 1024:
    err.append("rpprof adds %d kB > 16 MB" % over)
if err:
    print("CHECK FAILED " + "; ".join(err))
    sys.exit(1)
PY
    ); then
        rp_fail "$what: $out"
        continue
    fi
    echo "  $out"
    # Oversubscription (64 ranks on a few cores) can delay a wake-up by
    # hundreds of ms in one phase, so the 100 % path is checked by its
    # median phase (30 ms) and as a lower bound; the 0 % path is exact.
    if ! out=$("$PYTHON" -c 'import json, sys
j = json.load(open(sys.argv[1])); p = j["paths"]
med, tot = p[0]["phase_median_seconds"], p[0]["cost_seconds"]
print("100%% path %.3f s (median phase %.4f s), 0%% path %.3f s" % (tot, med, p[-1]["cost_seconds"]))
sys.exit(0 if 0.028 <= med <= float(sys.argv[2]) and tot >= 0.29 else 1)' "$RP_JSON" "$MED_MAX"); then
        rp_fail "$what: 100 % path wrong: $out"
        continue
    fi
    echo "  $out"
    rp_check_report "$what: paths" --ranks "$NP" --phases 11 --p0 0.1 \
        --rel 0.1 --abs 0.01 --late "$LATE" --clean-counters
done
rp_finish
