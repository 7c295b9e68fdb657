#!/bin/sh
# bench/smpi/run.sh - rpprof's cost at scale, simulated on SimGrid's SMPI.
#
# Runs the CG-shaped proxy cgsim.c (an 8-byte MPI_Allreduce after every
# WORK_US of simulated computation) on the fat tree of cluster.xml, with and
# without rpprof, and prints the simulated times and their ratio against the
# rank count n.  The simulated time does not depend on the host's load; the
# wall time and memory columns are the host's.
#
#   bench/smpi/run.sh [RANKS...]          (default: 64 256 1024)
#   BUILD=_build-smpi ITERS=200 WORK="100 1000" COMPUTE=yes bench/smpi/run.sh
#   BCAST=ompi bench/smpi/run.sh 256      (SMPI's ompi bcast; see cfg below)
#   OP=bcast bench/smpi/run.sh 64         (an 8-byte MPI_Bcast instead of the
#                                          allreduce: cgsim's CGSIM_OP)
#   PLATFORM=cluster16k.xml bench/smpi/run.sh 16384
#                                         (the 16 384-node fat tree)
#   PROXY=halosim SHAPE=lulesh bench/smpi/run.sh 64
#                                         (halosim.c: LULESH's or, SHAPE=hpcg,
#                                          HPCG's halo exchanges and allreduces
#                                          a step; WORK: us before each exchange)
#
# BUILD is a build directory configured for SMPI (doc/smpi.md).
# COMPUTE=yes charges each rank's host CPU time between
# its MPI calls, the profiler's included, as simulated computation on a node
# as fast as this machine (smpi/host-speed = the platform's 1 Gflop/s);
# COMPUTE=no leaves only what the profiler adds to the network.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/_build-smpi}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
ITERS=${ITERS:-200}
WORK=${WORK:-"100 1000"}
COMPUTE=${COMPUTE:-yes}
RANKS=${*:-"64 256 1024"}
BCAST=${BCAST:-binomial_tree}
export CGSIM_OP=${OP:-allreduce}
PROXY=${PROXY:-cgsim}
export HALOSIM_SHAPE=${SHAPE:-lulesh}
[ -n "${SIDE:-}" ] && export HALOSIM_SIDE=$SIDE
case $PROXY in cgsim|halosim) ;; *) echo "run.sh: PROXY is cgsim or halosim" >&2; exit 2 ;; esac
lib=$BUILD/lib/.libs
[ -f "$lib/librpprof-mpi.so" ] || { echo "run.sh: no $lib/librpprof-mpi.so; build for SMPI first" >&2; exit 2; }
command -v smpirun >/dev/null || { echo "run.sh: smpirun not found (apt-get install libsimgrid-dev)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/rp-smpi.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
smpicc -O2 -o "$tmp/cgsim" "$here/$PROXY.c"
# smpirun bypasses LD_PRELOAD, so the profiler is linked into the program.
# With lib/librpprof-smpi.a (make lib/librpprof-smpi.la) it is linked in
# whole: SMPI's privatization of the program then gives each simulated rank
# its own profiler (its globals are per rank).  Without it the program links
# librpprof-mpi.so and smpi/privatize-libs copies that per rank, which costs
# a sed and a file copy per rank (slow beyond 256 ranks).  Debug info is
# stripped: SMPI copies the program once per rank.
if [ -f "$lib/librpprof-smpi.a" ]; then
    deps=$(sed -n "s/^dependency_libs='\(.*\)'$/\1/p" "$BUILD/lib/librpprof-mpi.la")
    smpicc -O2 -Wl,--strip-debug -o "$tmp/cgsim-rp" "$here/$PROXY.c" \
        -Wl,--whole-archive "$lib/librpprof-smpi.a" -Wl,--no-whole-archive $deps
    privatize=
else
    smpicc -O2 -o "$tmp/cgsim-rp" "$here/$PROXY.c" -L"$lib" -Wl,--no-as-needed -lrpprof-mpi
    privatize=--cfg=smpi/privatize-libs:librpprof-mpi.so
fi
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# RP_JOBFILE (JOBFILE, default 0: a file per rank; 1: one job file, which a
# build for SMPI gathers to rank 0, since SMPI's MPI-IO stores nothing).
# KEEP=DIR: the profiled run's measurement directory is moved to DIR/n<N>
# (else it is removed with the rest).  smpi/wtime:0: reading the clock (the profiler does at every call) adds no
# simulated sleep.  smpi/test:0 and smpi/iprobe:0: by default SMPI charges
# every MPI_Test and MPI_Iprobe 100 us of simulated time (a model of
# polling loops); the profiler's MPI_Finalize waits for its last sends
# with them, which a real MPI answers in well under 1 us (charged, rank
# 0's MPI_Finalize took 6.6 ms at 64 ranks, against 24 us).  coll-selector ompi: Open MPI's choice of algorithms,
# except for MPI_Bcast (BCAST, default binomial_tree): for small messages
# the ompi selector picks an SMP-aware algorithm whose first call on a
# communicator runs SMPI's Comm::init_smp, a ring allgather over all its
# ranks (n-1 steps, n(n-1) messages) plus O(n^2) host work in each rank:
# host time grows as n^3 (124 s at 1 024 ranks against 0.8 s) and the
# first allreduce takes n-1 extra simulated steps.  BCAST=ompi restores it.
cfg="--cfg=smpi/host-speed:1Gf --cfg=smpi/coll-selector:ompi --cfg=smpi/bcast:$BCAST --cfg=smpi/wtime:0
     --cfg=smpi/test:0 --cfg=smpi/iprobe:0
     --cfg=smpi/simulate-computation:$COMPUTE --cfg=smpi/tmpdir:$tmp"

# one N BINARY [extra smpirun args]: one launch, every WORK; leaves in
# $tmp/res.$1: "init fin wall_s maxrss_kb" then "work loop" lines
one() {
    n=$1 bin=$2 tag=$3; shift 3
    i=0; : > "$tmp/hosts"
    while [ $i -lt "$n" ]; do echo "node-$i" >> "$tmp/hosts"; i=$((i + 1)); done
    rm -rf "$tmp/out"
    /usr/bin/time -f "TIME %e %M" -o "$tmp/time" \
        env RP_PERIOD=0 RP_MAILBOX=0 RP_JOBFILE="${JOBFILE:-0}" RP_OUTPUT="$tmp/out" \
        smpirun -np "$n" -platform "$here/${PLATFORM:-cluster.xml}" -hostfile "$tmp/hosts" \
        $cfg "$@" "$bin" "$ITERS" $WORK > "$tmp/log" 2>&1 || { tail -5 "$tmp/log" >&2; return 1; }
    { sed -n 's/^cgsim n=.* init_s=\([^ ]*\)$/\1/p' "$tmp/log" | tr '\n' ' '
      sed -n 's/^cgsim finalize_s=//p' "$tmp/log" | tr '\n' ' '
      sed -n 's/^TIME //p' "$tmp/time"
      sed -n 's/^cgsim work_us=\([^ ]*\) loop_s=\([^ ]*\) .*/\1 \2/p' "$tmp/log"; } > "$tmp/res.$tag"
    if [ -n "${KEEP:-}" ] && [ "$tag" = rp ]; then
        mkdir -p "$KEEP" && rm -rf "$KEEP/n$n" && mv "$tmp/out" "$KEEP/n$n"
    fi
}

label=$PROXY; [ "$PROXY" = halosim ] && label="halosim shape=$HALOSIM_SHAPE"
echo "# $label, $ITERS iterations, simulate-computation=$COMPUTE; times in simulated ms; wall in host s (one launch, all WORK), rss in MB"
printf '%6s %7s | %10s | %8s %10s %8s | %7s %7s | %7s %7s %6s %6s\n' \
    n work_us plain_loop rp_init rp_loop rp_fin loop_x all_x plain_wall rp_wall plainMB rpMB
for n in $RANKS; do
    one "$n" "$tmp/cgsim" plain
    one "$n" "$tmp/cgsim-rp" rp $privatize
    paste -d' ' "$tmp/res.plain" "$tmp/res.rp" | awk -v n="$n" '
        NR == 1 { pi = $1; pf = $2; pw = $3; pm = $4; ri = $5; rf = $6; rw = $7; rm = $8; next }
        { pl = $2; rl = $4
          printf "%6d %7d | %10.3f | %8.3f %10.3f %8.3f | %7.3f %7.3f | %7.1f %7.1f %6d %6d\n",
              n, $1, pl * 1e3, ri * 1e3, rl * 1e3, rf * 1e3, rl / pl,
              (ri + rl + rf) / (pi + pl + pf), pw, rw, pm / 1024, rm / 1024 }'
done
