#!/bin/sh
# test_reads.sh - rp-report reads each rank file once (doc/performance.md,
# "Post-processing"): with RP_REPORT_READS set it says on stderr how many
# times it read a rank file whole (rpfile_read) and walked one for its job
# header (rpfile_read_job); every view of a report shares one whole read
# of each file (tools/report/rankscan.c) after one job check of each.
# Bounds, for N rank files and a fresh profile.rpm: N job headers; N whole
# reads, plus 1 in prof mode (the busiest rank's profile for the POP loss
# lists), plus N when rp-report merges the files itself (no profile.rpm).
# mkrankfiles' synthetic files, no MPI; under a second.
# Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
for f in "$bindir/rp-report" "$bindir/rp-merge" "$mkrank"; do
    [ -x "$f" ] || { echo "test_reads.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-reads-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# reads NAME MAX_WHOLE MAX_JOB rp-report-args...: the counts within bounds
# and the report made (exit 0); a whole read at least where any is allowed
# (the count works)
reads() {
    name=$1 maxw=$2 maxj=$3
    shift 3
    if ! RP_REPORT_READS=1 "$bindir/rp-report" "$@" >"$work/out" 2>"$work/err"; then
        fail "$name: rp-report $*: exit status not 0: $(tail -3 "$work/err")"
        return
    fi
    line=$(sed -n 's/^rp-report: rank file reads: \([0-9]*\) whole, \([0-9]*\) job headers$/\1 \2/p' \
        "$work/err")
    if [ -z "$line" ]; then
        fail "$name: no read count on stderr: $(tail -3 "$work/err")"
        return
    fi
    set -- $line
    if [ "$1" -ge $((maxw > 0)) ] && [ "$1" -le "$maxw" ] && [ "$2" -le "$maxj" ]; then
        ok "$name: $1 whole reads (at most $maxw), $2 job headers (at most $maxj)"
    else
        fail "$name: $1 whole reads (at most $maxw), $2 job headers (at most $maxj)"
    fi
}

n=48
"$mkrank" "$work/prof" $n --k 5 >/dev/null || { echo "FAIL: mkrankfiles"; exit 1; }
"$mkrank" "$work/pop" 8 --pop 1 >/dev/null || { echo "FAIL: mkrankfiles --pop"; exit 1; }
"$mkrank" "$work/trace" 8 --pop 1 --trace 1 >/dev/null || { echo "FAIL: mkrankfiles --trace"; exit 1; }
"$mkrank" "$work/path" 8 --pop 1 --path 1 >/dev/null || { echo "FAIL: mkrankfiles --path"; exit 1; }
# rp-report merges the files itself when there is no profile.rpm
reads "prof, no profile.rpm, json" $((2 * n + 1)) $n --format json "$work/prof"
for d in prof pop trace path; do
    "$bindir/rp-merge" -q "$work/$d" >/dev/null 2>&1 || fail "rp-merge $d"
done
for fmt in text json html; do
    reads "prof $n ranks, profile.rpm, $fmt" $((n + 1)) $n --format $fmt "$work/prof"
done
reads "pop 8 ranks, json" 9 8 --format json "$work/pop"
for d in trace path; do
    for fmt in text json; do
        reads "$d 8 ranks, $fmt" 8 8 --format $fmt "$work/$d"
    done
done
reads "folded: the job check only" 0 $n --format folded "$work/prof"
reads "--diff" $((n + 8)) $((n + 8)) --diff --format json "$work/prof" "$work/pop"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
exit 0
