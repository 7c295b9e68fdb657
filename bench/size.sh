#!/bin/bash
# size.sh BUILDDIR [SCALES] - the merged profile's size against the run's
# length (issue 16, doc/performance.md "Profile size").
#
# Builds the HPCG- and LULESH-shaped proxies (bench/apps/, the
# configurations of bench/cost.sh), runs each profiled with the default
# settings (RP_K=5, default sampling) at every scale of SCALES (default
# "1 3 10": multiples of cost.sh's iterations), and merges each
# measurement twice with BUILDDIR's rp-merge: --min-share 0 (every context)
# and the default (contexts under 0.1 % of every column folded).  Prints
# one Markdown row per configuration: bytes of profile.rpm at each scale,
# both ways, the contexts kept, and the 10x/1x ratios.  Environment:
# SIZE_CONFIGS (default "hpcg2 lulesh8 lulesh8cpu"), SIZE_KEEP (a directory
# to keep the measurements in), MPICC, MPIRUN.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: size.sh BUILDDIR [SCALES]}" && pwd)
scales=${2:-1 3 10}
lib=$build/lib/.libs/librpprof.so
merge=$build/tools/rp-merge
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
configs=${SIZE_CONFIGS:-hpcg2 lulesh8 lulesh8cpu}
[ -f "$lib" ] && [ -x "$merge" ] || { echo "size.sh: $build is not built" >&2; exit 1; }
work=${SIZE_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/rp-size.XXXXXX")} || exit 1
mkdir -p "$work" || exit 1
[ -n "${SIZE_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
for a in hpcg lulesh; do
    "$MPICC" -O2 -g -fno-omit-frame-pointer -o "$work/$a" "$src/bench/apps/$a.c" || exit 1
done
cal=$("$work/hpcg" --calibrate) || exit 1
# shellcheck source=bench/proxies.sh
. "$src/bench/proxies.sh"
conf() { proxy_conf "$1" "$2" "$cal"; }   # config scale
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset RP_K RP_PERIOD RP_SUMMARY RP_SELECT RP_MODE RP_OUTPUT RP_CLOCK LD_PRELOAD
contexts() { # rp-merge's summary line -> contexts kept
    sed -n 's/.* ranks, \([0-9]*\) contexts.*/\1/p'
}
hdr="| proxy |"
sep="|---|"
for s in $scales; do hdr+=" ${s}x all | ${s}x folded |"; sep+="---|---|"; done
echo "$hdr 10x/1x all | 10x/1x folded |"
echo "$sep---|---|"
for c in $configs; do
    row="| $c |"
    first_a="" first_f="" last_a="" last_f=""
    for s in $scales; do
        read -r np app args <<<"$(conf "$c" "$s")"
        m=$work/$c-x$s
        rm -rf "$m"
        # shellcheck disable=SC2086
        timeout -k 5 900 "$MPIRUN" -np "$np" --oversubscribe --bind-to none \
            --mca mpi_yield_when_idle 1 -x LD_PRELOAD="$lib" -x RP_OUTPUT="$m" -x RP_K=5 \
            -x RP_QUIET=1 "$work/$app" $args >"$m.out" 2>&1 </dev/null ||
            { echo "size.sh: FAIL: $c x$s (see $m.out)" >&2; row+=" - | - |"; continue; }
        na=$("$merge" --min-share 0 -o "$m/all.rpm" "$m" 2>&1 | contexts)
        nf=$("$merge" -o "$m/profile.rpm" "$m" 2>&1 | contexts)
        ba=$(stat -c %s "$m/all.rpm")
        bf=$(stat -c %s "$m/profile.rpm")
        row+=" $ba ($na) | $bf ($nf) |"
        [ -z "$first_a" ] && first_a=$ba && first_f=$bf
        last_a=$ba
        last_f=$bf
    done
    ra=$(awk -v a="$last_a" -v b="$first_a" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
    rf=$(awk -v a="$last_f" -v b="$first_f" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
    echo "$row $ra | $rf |"
done
