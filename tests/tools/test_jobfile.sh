#!/bin/sh
# test_jobfile.sh - the job file (job.rpj, doc/formats.md "Job file") at the
# tools (no MPI): mkrankfiles' rank files packed into a job file by
# tests/tools/jobfile.py (written from the document, not from
# lib/format/rpjob.c) give the same rp-report JSON and the same merged
# profile as the rank files themselves, also with a rank file of the same
# job beside it (the job file's entry wins); a job file damaged in its
# header, its index or by truncation is refused with a message naming
# job.rpj and what is wrong, and a non-zero exit, never a crash; a damaged
# entry is named and left out like a damaged rank file.
# Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=${MKRANKFILES:-$top_build/tests/mkrankfiles}
jobpy=$top_src/tests/tools/jobfile.py
for f in "$bindir/rp-report" "$bindir/rp-merge" "$mkrank"; do
    [ -x "$f" ] || { echo "test_jobfile.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-jobfile-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# DIR -> DIR.job: the same rank files as one job file, none beside it
to_job() {
    mkdir "$1.job" && python3 "$jobpy" pack "$1" "$1.job/job.rpj"
}

report() { # DIR OUT: rp-report --format json, fresh (no cached profile.rpm)
    rm -f "$1/profile.rpm"
    "$bindir/rp-report" --format json --top 100 "$1" >"$2" 2>"$2.err"
}

for args in "4" "3 --trace 1" "1" "5 --pop 1"; do
    name=s$(echo "$args" | tr -cd '0-9a-z')
    # shellcheck disable=SC2086
    "$mkrank" "$work/$name" $args >/dev/null || { fail "mkrankfiles $args"; continue; }
    to_job "$work/$name" || { fail "pack $args"; continue; }
    if ! report "$work/$name" "$work/$name.a.json"; then
        fail "rp-report rank files ($args): $(cat "$work/$name.a.json.err")"
        continue
    fi
    if ! report "$work/$name.job" "$work/$name.b.json"; then
        fail "rp-report job file ($args): $(cat "$work/$name.b.json.err")"
        continue
    fi
    if cmp -s "$work/$name.a.json" "$work/$name.b.json"; then
        ok "mkrankfiles $args: job file reports as its rank files"
    else
        fail "mkrankfiles $args: reports differ"
        diff "$work/$name.a.json" "$work/$name.b.json" | head -20
    fi
    # rp-merge: the same profile, byte for byte
    if "$bindir/rp-merge" -o "$work/$name.a.rpm" "$work/$name" >/dev/null 2>&1 &&
        "$bindir/rp-merge" -o "$work/$name.b.rpm" "$work/$name.job" >/dev/null 2>"$work/err" &&
        cmp -s "$work/$name.a.rpm" "$work/$name.b.rpm"; then
        ok "mkrankfiles $args: rp-merge of the job file = of the rank files"
    else
        fail "mkrankfiles $args: rp-merge differs or failed: $(cat "$work/err")"
    fi
done

# a rank file of the same job beside the job file: not counted twice
cp "$work/s4/rank-00002.rpp" "$work/s4.job/"
if report "$work/s4.job" "$work/both.json" && cmp -s "$work/s4.a.json" "$work/both.json"; then
    ok "job file and a rank file of the same job: the job file's entry is kept"
else
    fail "job file + rank file: report differs: $(cat "$work/both.json.err")"
fi
rm -f "$work/s4.job/rank-00002.rpp"

# damage: every kind refused with a clear message and a non-zero exit
damaged() { # KIND EXPECTED-MESSAGE-REGEX
    rm -rf "$work/d" && cp -r "$work/s4.job" "$work/d" && rm -f "$work/d/profile.rpm" &&
        python3 "$jobpy" corrupt "$work/d/job.rpj" "$1" || { fail "corrupt $1"; return; }
    for tool in rp-report rp-merge; do
        if [ $tool = rp-merge ]; then
            "$bindir/rp-merge" -o "$work/d.rpm" "$work/d" >"$work/out" 2>"$work/err"
        else
            "$bindir/rp-report" "$work/d" >"$work/out" 2>"$work/err"
        fi
        rc=$?
        if [ $rc = 0 ] || [ $rc -ge 128 ]; then
            fail "$1: $tool exit $rc (expected a refusal, 1..127)"
            sed 's/^/  /' "$work/err"
        elif ! grep -q "job\.rpj" "$work/err" || ! grep -Eq "$2" "$work/err"; then
            fail "$1: $tool: no message naming job.rpj and /$2/"
            sed 's/^/  /' "$work/err"
        else
            ok "$1: $tool refuses: $(grep -m1 -E "$2" "$work/err")"
        fi
    done
}
damaged truncate 'truncated job file'
damaged magic 'wrong magic'
damaged header 'CRC mismatch|corrupt job file header'
damaged index 'index entry [0-9]+ out of range'
# a damaged entry is a damaged rank file: named, left out, the rest merged
# (as rp-merge does with a corrupt rank-00003.rpp)
rm -rf "$work/d" && cp -r "$work/s4.job" "$work/d" && rm -f "$work/d/profile.rpm" &&
    python3 "$jobpy" corrupt "$work/d/job.rpj" entry || fail "corrupt entry"
"$bindir/rp-merge" -o "$work/d.rpm" "$work/d" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -lt 128 ] && grep -q 'job\.rpj#3: job file entry 3: CRC mismatch' "$work/err" &&
    grep -q '1 of 4 ranks missing or unreadable' "$work/err"; then
    ok "entry: rp-merge names job.rpj#3 and merges the other ranks (exit $rc)"
else
    fail "entry: rp-merge exit $rc, not the damaged-rank-file behaviour"
    sed 's/^/  /' "$work/err"
fi

if [ "$fails" -gt 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
exit 0
