#!/bin/bash
# tests/smpi/test_smpi.sh - the SimGrid/SMPI port (doc/smpi.md) stays alive:
# tests/smpi/smpi_mix.c on 8 simulated ranks of bench/smpi/cluster.xml,
# plain, then with rpprof in prof mode (linked in as lib/librpprof-smpi.a,
# and as librpprof-mpi.so with smpi/privatize-libs), then in trace mode.
#
#   tests/smpi/test_smpi.sh SMPI_BUILD RP_REPORT
#
# SMPI_BUILD: a build directory configured with MPICC=smpicc (doc/smpi.md)
# holding lib/.libs/librpprof-mpi.so and librpprof-smpi.a; RP_REPORT: rp-report of a normal build
# (the tools need a real MPI).  quickstart.sh test runs it after the Open MPI
# pass.  Checks, each of which fails if the port breaks:
#   - every rank writes its file and rp-report reads the job (8 ranks, one
#     phase per world collective, plus the last);
#   - the clock is the simulated one: the computation of every rank equals
#     what smpi_mix.c executes (work(r, i), exact to 1 ns per task), and
#     the runtime is the simulated loop's order, not the host's seconds;
#   - trace mode's online paths equal the offline oracle's (--check exits 0);
#   - RP_JOBFILE=1 writes one job file (gathered to rank 0: SMPI's MPI-IO
#     stores nothing) whose report has the same paths as the rank files';
#   - what rpprof adds to the simulated loop is positive and bounded: the
#     path exchange of each collective costs simulated network time (about
#     9 us an iteration at 8 ranks; the bound is 40 us), and never makes
#     the loop shorter.
set -u
SMPI_BUILD=${1:?usage: test_smpi.sh SMPI_BUILD RP_REPORT}
REPORT=${2:?usage: test_smpi.sh SMPI_BUILD RP_REPORT}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lib=$SMPI_BUILD/lib/.libs
N=8 ITERS=20
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$lib/librpprof-mpi.so" ] || fail "no $lib/librpprof-mpi.so (configure MPICC=smpicc; make lib/librpprof-mpi.la)"
command -v smpicc >/dev/null && command -v smpirun >/dev/null || fail "smpicc/smpirun not found (apt-get install libsimgrid-dev)"
[ -x "$REPORT" ] || fail "no rp-report at $REPORT"

tmp=$(mktemp -d /tmp/rp-test-smpi.XXXXXX)
# RP_KEEP_TMP=1 keeps the runs' files
[ -n "${RP_KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
[ -f "$lib/librpprof-smpi.a" ] || fail "no $lib/librpprof-smpi.a (make lib/librpprof-smpi.la)"
smpicc -O2 -o "$tmp/mix" "$here/smpi_mix.c" || fail "smpicc (plain)"
# the two ways doc/smpi.md gives: the archive linked in whole (SMPI's copy
# of the program per rank carries the profiler), and the shared library
# with smpi/privatize-libs
deps=$(sed -n "s/^dependency_libs='\(.*\)'$/\1/p" "$SMPI_BUILD/lib/librpprof-mpi.la")
# shellcheck disable=SC2086
smpicc -O2 -o "$tmp/mix-rp" "$here/smpi_mix.c" -Wl,--whole-archive "$lib/librpprof-smpi.a" \
    -Wl,--no-whole-archive $deps || fail "smpicc (linked with librpprof-smpi.a)"
smpicc -O2 -o "$tmp/mix-so" "$here/smpi_mix.c" -L"$lib" -Wl,--no-as-needed -lrpprof-mpi ||
    fail "smpicc (linked with librpprof-mpi.so)"
for i in $(seq 0 $((N - 1))); do echo "node-$i"; done > "$tmp/hosts"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# smpi/test:0: SMPI charges every MPI_Test a simulated 100 us by default
# (growing when repeated), for programs that poll; rpprof releases its
# path-set sends with MPI_Test, which a real MPI takes well under 1 us for
cfg="--cfg=smpi/host-speed:1Gf --cfg=smpi/coll-selector:ompi --cfg=smpi/wtime:0
     --cfg=smpi/test:0 --cfg=smpi/simulate-computation:no --cfg=smpi/tmpdir:$tmp"

# sim TAG BINARY [smpirun args]: one launch; its output in $tmp/TAG.log
sim() {
    local tag=$1 bin=$2; shift 2
    # shellcheck disable=SC2086
    timeout 120 smpirun -np $N -platform "$top/bench/smpi/cluster.xml" -hostfile "$tmp/hosts" \
        $cfg "$@" "$bin" $ITERS > "$tmp/$tag.log" 2>&1 || { tail -20 "$tmp/$tag.log"; fail "$tag run"; }
    grep -q '^smpi_mix ' "$tmp/$tag.log" || { tail -20 "$tmp/$tag.log"; fail "$tag: no result line"; }
}
sim plain "$tmp/mix"
RP_PERIOD=0 RP_MAILBOX=0 RP_JOBFILE=0 RP_OUTPUT="$tmp/prof" sim prof "$tmp/mix-rp"
RP_PERIOD=0 RP_MAILBOX=0 RP_JOBFILE=0 RP_OUTPUT="$tmp/profso" sim profso "$tmp/mix-so" \
    --cfg=smpi/privatize-libs:librpprof-mpi.so
RP_MODE=trace RP_PERIOD=0 RP_MAILBOX=0 RP_JOBFILE=0 RP_OUTPUT="$tmp/trace" sim trace "$tmp/mix-rp"
# phase ends exchanged one by one, and in batches of 4 (the default batch
# holds all of this run's phases): the same paths, to the nanosecond (a
# path's cost is simulated computation, whatever the exchange costs)
for b in 1 4; do
    RP_PHASE_BATCH=$b RP_PERIOD=0 RP_MAILBOX=0 RP_JOBFILE=0 RP_OUTPUT="$tmp/batch$b" \
        sim batch$b "$tmp/mix-rp"
    "$REPORT" --format json "$tmp/batch$b" > "$tmp/batch$b.json" || fail "rp-report batch$b"
done

loop() { sed -n 's/^smpi_mix .* loop_s=\([^ ]*\) .*/\1/p' "$tmp/$1.log"; }
for run in prof profso; do
nfiles=$(find "$tmp/$run" -name 'rank-*.rpp' | wc -l)
[ "$nfiles" = $N ] || fail "$run: $nfiles rank files, want $N"
"$REPORT" --format json "$tmp/$run" > "$tmp/$run.json" 2> "$tmp/$run.err" || { cat "$tmp/$run.err"; fail "rp-report $run"; }
echo "-- $run"
python3 - "$tmp/$run.json" "$(loop plain)" "$(loop $run)" $N $ITERS <<'EOF' || fail "$run report"
import json, sys
d = json.load(open(sys.argv[1]))
plain, prof, n, iters = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
bad = []
def want(ok, what):
    print(("ok   " if ok else "BAD  ") + what)
    if not ok:
        bad.append(what)
want(d["ranks"] == n and d["ranks_missing"] in (0, [], None), "ranks %s of %d" % (d["ranks"], n))
# a phase ends at each all-to-all world collective (2 barriers, iters
# allreduces; a broadcast is an edge within a phase); then the last phase
phases = 2 + iters + 1
want(d["phases"] == phases, "phases %s, want %d" % (d["phases"], phases))
def w(r, i):   # smpi_mix.c's work_us(), in seconds
    return (20.0 * (1 + (r * 7 + i * 3) % 5) + 5.0 * r) * 1e-6
work = [sum(w(r, i) for i in range(iters)) for r in range(n)]
# an iteration's phase: each rank's computation, then messages and zero-cost
# tasks: its longest path is its longest computation
crit = sum(max(w(r, i) for r in range(n)) for i in range(iters))
pop = d["pop"]
comp = {int(x["rank"]): x for x in d["per_rank"]}
for r in range(n):
    c = comp[r]["task_seconds"]
    want(abs(c - work[r]) < 1e-9 * iters * 4, "rank %d computation %.9f s, executed %.9f s" % (r, c, work[r]))
want(abs(pop["max_computation_seconds"] - max(work)) < 1e-8, "max computation %.9f, want %.9f" % (pop["max_computation_seconds"], max(work)))
want(abs(pop["load_balance"] - sum(work) / n / max(work)) < 1e-6, "LB %.6f, want %.6f" % (pop["load_balance"], sum(work) / n / max(work)))
want(abs(pop["critical_path_seconds"] - crit) < 1e-8, "critical path %.9f s, want %.9f" % (pop["critical_path_seconds"], crit))
want(prof <= d["wall_seconds"] < prof + 0.01, "runtime %.6f s is simulated (loop %.6f s)" % (d["wall_seconds"], prof))
added = (prof - plain) / iters
want(0 < added < 40e-6, "rpprof adds %.2f us an iteration (plain loop %.6f s, profiled %.6f s)" % (added * 1e6, plain, prof))
sys.exit(1 if bad else 0)
EOF
done
echo "-- phase-end exchanges in batches"
python3 - "$tmp/prof.json" "$tmp/batch4.json" "$tmp/batch1.json" "$(loop prof)" "$(loop batch1)" <<'EOF' || fail "batches"
import json, sys
runs = [json.load(open(f)) for f in sys.argv[1:4]]
bad = []
def want(ok, what):
    print(("ok   " if ok else "BAD  ") + what)
    if not ok:
        bad.append(what)
c = [r["counters"] for r in runs]
n, phases = runs[0]["ranks"], runs[0]["phases"]
# the first phase alone, then (its phases are far shorter than the 100 ms
# a batch may span) batches of b, the last at MPI_Finalize; a batch of
# one phase is not counted
def batches(b):
    rest = phases - 1
    return sum(1 for i in range(0, rest, b) if min(b, rest - i) > 1)
for r, b in zip(c, (16, 4)):
    want(r["phase_batches"] == n * batches(b), "RP_PHASE_BATCH=%d: %d batched exchanges, want %d" % (b, r["phase_batches"], n * batches(b)))
want(c[2]["phase_batches"] == 0, "RP_PHASE_BATCH=1: %d, want 0" % c[2]["phase_batches"])
def paths(r):   # all but the share of the run's wall time, which batching shortens
    return [{k: v for k, v in p.items() if k != "pct_of_wall"} for p in r["paths"]]
for r, name in zip(runs, ("default", "4")):
    want(r["phases"] == runs[2]["phases"], "%s: %d phases" % (name, r["phases"]))
    want(paths(r) == paths(runs[2]), "%s: the same paths and phase statistics as one by one" % name)
    want(r["pop"]["critical_path_seconds"] == runs[2]["pop"]["critical_path_seconds"], "%s: the same critical path" % name)
    want(r["counters"]["phases_unbooked"] == 0, "%s: nothing left unbooked" % name)
batched, single = float(sys.argv[4]), float(sys.argv[5])
want(batched < single, "batched loop %.6f s < one by one %.6f s" % (batched, single))
sys.exit(1 if bad else 0)
EOF
# one job file (RP_JOBFILE=1; SMPI's MPI-IO stores nothing, so a build for
# SMPI gathers the parts to rank 0, which writes it): job.rpj alone, and
# its report has the paths of the run with rank files (the simulation is
# deterministic)
RP_JOBFILE=1 RP_PERIOD=0 RP_MAILBOX=0 RP_OUTPUT="$tmp/job" sim job "$tmp/mix-rp"
echo "-- one job file"
[ -f "$tmp/job/job.rpj" ] && [ -z "$(find "$tmp/job" -name 'rank-*.rpp')" ] ||
    fail "RP_JOBFILE=1: want job.rpj and no rank file: $(ls "$tmp/job")"
grep -q 'profile written to .*/job.rpj (gathered by rank 0; ' "$tmp/job.log" ||
    fail "RP_JOBFILE=1: rank 0 does not say it gathered job.rpj"
"$REPORT" --format json "$tmp/job" > "$tmp/job.json" 2> "$tmp/job.err" || { cat "$tmp/job.err"; fail "rp-report job.rpj"; }
python3 - "$tmp/job.json" "$tmp/prof.json" <<'EOF' || fail "job file report"
import json, sys
j, p = (json.load(open(f)) for f in sys.argv[1:3])
same = lambda r: ([{k: v for k, v in x.items() if k != "pct_of_wall"} for x in r["paths"]], r["ranks"], r["phases"])
if same(j) != same(p):
    sys.exit("the job file's report differs from the rank files' (paths, ranks, phases)")
print("ok   job.rpj: %d ranks, %d phases, the same paths as with rank files" % (j["ranks"], j["phases"]))
EOF
"$REPORT" --check "$tmp/trace" > "$tmp/check.out" 2>&1 || { tail -30 "$tmp/check.out"; fail "trace --check"; }
grep '^check passed' "$tmp/check.out" || fail "trace --check: no 'check passed' line"
echo "PASS: SMPI, $N simulated ranks"
