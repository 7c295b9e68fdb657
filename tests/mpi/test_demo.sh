#!/bin/bash
# The quick start's demo (quickstart.sh demo: examples/imbalance with its
# defaults on 4 ranks, rp-run --period 1000) is the first report a newcomer
# reads: every path's profile must locate its cost well (no row flagged
# LOW in the text report), the 100 % path must run through heavy() and
# the 0 % path must not.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"

P=$RP_TOP_BUILDDIR/examples/imbalance
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report" "$RP_BINDIR/rp-run"

demo_case() {
    local what="demo: imbalance np=4 (rp-run --period 1000)" text=$RP_TMP/demo.txt
    rp_prun 4 any -- --period 1000 "$P"
    rp_expect_report "$what" || return
    "$RP_BINDIR/rp-report" "$RP_DIR" >"$text" 2>&1
    if grep -q "LOW:" "$text"; then
        rp_fail "$what: a path is flagged LOW"
        sed -n '/located/,/^$/p' "$text"
        return
    fi
    # heavy() on the critical path, not on the 0 % path (folded stacks:
    # inclusive, whatever the compiler inlined below it)
    local crit least
    crit=$("$RP_BINDIR/rp-report" --format folded --path 0 "$RP_DIR" | grep -c ';heavy')
    least=$("$RP_BINDIR/rp-report" --format folded --path 4 "$RP_DIR" | grep -c ';heavy')
    if [ "$crit" -eq 0 ] || [ "$least" -ne 0 ]; then
        rp_fail "$what: heavy() in $crit stacks of the 100 % path (want > 0), $least of the 0 % path (want 0)"
        return
    fi
    local out="heavy() in $crit stacks of the 100 % path, none of the 0 % path"
    rp_pass "$what: no LOW row; $out"
}
rp_timed demo_case
rp_finish
