#!/bin/bash
# What is said, and where (doc/robustness.md, "What is said, and where"):
#  1. a program that blocks or ignores SIGPROF: a stderr line, the loss
#     counter sigprof_blocked_us warned in text, JSON and HTML, a header that
#     does not claim a sampling rate that did not happen, no "lower RP_PERIOD"
#  2. a 10 000-character RP_K and a 4 000-character RP_OUTPUT: whole lines,
#     each ending with a newline, the range and the value used in them
#  3. an RP_OUTPUT with a newline, a space and '$': escaped on stderr, quoted
#     in the command line offered, and the report still reads it
#  4. path mode at the largest RP_SUMMARY (chains off): never "raise RP_SUMMARY"
#  5. more ranks than CPUs on the host: the header of every view says so
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

S=$RP_TESTS_BIN/mpi_sigblock
C=$RP_TESTS_BIN/mpi_cgp2p
rp_require "$S" "$C" "$RP_LIB" "$RP_BINDIR/rp-report"
R=$RP_BINDIR/rp-report

# ---- 1. SIGPROF blocked or ignored -------------------------------------------
sig_case() { # HOW STDERR_PATTERN
    local how=$1 pat=$2 what="SIGPROF $1" txt=$RP_TMP/sig-$1.txt html=$RP_TMP/sig-$1.html
    rp_prof 2 shm -- "$S" "$how"
    rp_expect_report "$what" || return
    if ! grep -q -e "$pat" "$RP_ERRF"; then
        rp_fail "$what: no stderr line matching /$pat/"
        return
    fi
    "$R" "$RP_DIR" >"$txt" 2>&1
    "$R" --format html "$RP_DIR" >"$html" 2>&1
    if ! grep -q 'warning: sigprof_blocked_us = ' "$txt" ||
        ! grep -q '"counter": *"sigprof_blocked_us"' "$RP_JSON" ||
        ! grep -q 'sigprof_blocked_us' "$html"; then
        rp_fail "$what: the loss counter sigprof_blocked_us is not warned in text, JSON and HTML"
        head -20 "$txt"
        return
    fi
    if grep -q 'lower RP_PERIOD' "$txt"; then
        rp_fail "$what: the report advises lower RP_PERIOD"
        head -20 "$txt"
        return
    fi
    # no samples, or a few taken before the program ignored SIGPROF
    if ! sed -n 2p "$txt" | grep -q -e 'requested (wall clock), [0-9]* samples: SIGPROF blocked' ||
        ! grep -q '"sampling": *"[^"]*requested[^"]*[0-9] samples: SIGPROF blocked' "$RP_JSON"; then
        rp_fail "$what: the header does not say that no samples came and why"
        head -5 "$txt"
        return
    fi
    echo "  stderr: $(grep -m1 -e "$pat" "$RP_ERRF")"
    echo "  header: $(sed -n 2p "$txt" | cut -c1-200)"
    rp_pass "$what: said on stderr, warned in every view, header and advice fit"
}
sig_case block 'blocks SIGPROF (sigprocmask)'
sig_case pthread 'blocks SIGPROF (pthread_sigmask)'
sig_case ignore 'ignores SIGPROF'
# the reference: nothing said
rp_prof 2 shm -- "$S" none
if rp_expect_report "SIGPROF untouched"; then
    if grep -q 'SIGPROF' "$RP_ERRF" || grep -q sigprof_blocked_us <("$R" "$RP_DIR" 2>&1); then
        rp_fail "SIGPROF untouched: a SIGPROF warning without cause"
    else
        rp_pass "SIGPROF untouched: no SIGPROF warning"
    fi
fi

# ---- 2. long values ----------------------------------------------------------
long_k=$(head -c 10000 /dev/zero | tr '\0' 7)
long_out=$RP_TMP/$(head -c 3990 /dev/zero | tr '\0' d)
rp_prof 2 shm "RP_K=$long_k" "RP_OUTPUT=$long_out" -- "$S" none
if rp_expect_rc0 "long values"; then
    ok=1
    # every stderr line whole: the file ends with a newline, no line runs
    # past the prefix into another rank's or setting's line
    if [ -s "$RP_ERRF" ] && [ "$(tail -c 1 "$RP_ERRF" | od -An -c | tr -d ' ')" != '\n' ]; then
        rp_fail "long values: stderr does not end with a newline"; ok=0
    fi
    kl=$(grep -e 'RP_K=' "$RP_ERRF")
    if [ "$(grep -c -e 'RP_K=' "$RP_ERRF")" != 1 ] || ! echo "$kl" | grep -q '1\.\.64' ||
        ! echo "$kl" | grep -q 'using [0-9]' || ! echo "$kl" | grep -q '(10000 characters)' ||
        [ "$(grep -c 'rpprof\[' <<<"$kl")" != 1 ] || [ ${#kl} -gt 600 ]; then
        rp_fail "long values: the RP_K line is not one whole line with the range and the value used"
        ok=0
    fi
    ol=$(grep -e 'RP_OUTPUT\|measurement' "$RP_ERRF" | head -1)
    if [ -z "$ol" ] || ! echo "$ol" | grep -q 'characters)' || [ ${#ol} -gt 800 ] ||
        [ "$(grep -o 'rpprof\[' <<<"$ol" | wc -l)" != 1 ]; then
        rp_fail "long values: the RP_OUTPUT line is not one whole, elided line"
        ok=0
    fi
    if [ $ok = 1 ]; then
        echo "  $(echo "$kl" | cut -c1-60)...$(echo "$kl" | tail -c 90)"
        echo "  $(echo "$ol" | cut -c1-60)...$(echo "$ol" | tail -c 110)"
        rp_pass "long values: whole lines, elided in the middle, range and value used kept"
    fi
    rm -rf rpprof-mpi_sigblock-* 2>/dev/null
fi

# ---- 3. odd characters in a path ---------------------------------------------
odd="$RP_TMP/odd
dir \$HOME"
rp_prof 2 shm "RP_OUTPUT=$odd" -- "$S" none
if rp_expect_rc0 "odd path"; then
    line=$(grep -e 'profile written to' "$RP_ERRF")
    if [ ! -d "$odd" ]; then
        rp_fail "odd path: the launcher did not pass the value (no directory with a newline)"
    elif [ "$(grep -c -e 'profile written to' "$RP_ERRF")" != 1 ] ||
        ! grep -q -F -e 'odd\ndir $HOME/' <<<"$line" ||
        ! grep -q -F -e "(rp-report \$'$RP_TMP/odd\\ndir \$HOME')" <<<"$line"; then
        rp_fail "odd path: 'profile written to' not escaped and quoted: $line"
    elif ! "$R" "$odd" >"$RP_TMP/odd.txt" 2>&1; then
        rp_fail "odd path: rp-report failed on it"
    elif "$R" "$odd/none" >/dev/null 2>"$RP_TMP/odd.err" ||
        ! grep -q -F -e 'odd\ndir $HOME/none: ' "$RP_TMP/odd.err"; then
        rp_fail "odd path: rp-report's message does not escape the path: $(cat "$RP_TMP/odd.err")"
    else
        # the command line offered works as printed
        cmd=${line#*(rp-report }
        cmd=${cmd%)}
        if ! (cd / && eval "set -- $cmd" && [ $# = 1 ] && "$R" "$1" >/dev/null 2>&1); then
            rp_fail "odd path: the command line offered does not run: $cmd"
        else
            echo "  $line"
            rp_pass "odd path: escaped, quoted, and the command offered runs"
        fi
    fi
fi

# ---- 4. path mode at the largest RP_SUMMARY, chains off -------------------------
# The summary overflows (RP_CHAIN=0: the paper's rule); the advice is what
# helps (RP_CHAIN, RP_BUFFER or trace mode), never "raise RP_SUMMARY".
rp_prof 2 shm RP_MODE=path RP_SUMMARY=1024 RP_K=3 RP_EAGER_LIMIT=1048576 RP_CHAIN=0 -- "$C" 1500 20
if rp_expect_report "path mode, RP_SUMMARY=1024"; then
    "$R" "$RP_DIR" >"$RP_TMP/path.txt" 2>&1
    "$R" --format critpath "$RP_DIR" >/dev/null 2>"$RP_TMP/path.crit"
    if ! grep -q 'summary_cap": *1024' "$RP_JSON" ||
        ! grep -q 'warning: paths_summary_full' "$RP_TMP/path.txt"; then
        rp_fail "path mode, RP_SUMMARY=1024, RP_CHAIN=0: no summary overflowed (the case tests nothing)"
    elif cat "$RP_TMP/path.txt" "$RP_JSON" "$RP_TMP/path.crit" "$RP_ERRF" | grep -q 'raise RP_SUMMARY'; then
        rp_fail "path mode, RP_SUMMARY=1024: advises raising RP_SUMMARY"
        grep 'raise RP_SUMMARY' "$RP_TMP/path.txt" "$RP_TMP/path.crit" | head -3
    elif ! grep 'paths_summary_full' "$RP_TMP/path.txt" | grep -q 'raise RP_CHAIN' ||
        ! grep -q 'raise RP_CHAIN' "$RP_TMP/path.crit"; then
        rp_fail "path mode, RP_SUMMARY=1024: the overflow warning does not say what helps"
    else
        echo "  $(grep -m1 'paths_summary_full' "$RP_TMP/path.txt" | grep -o 'raise RP_CHAIN.*')"
        rp_pass "path mode, RP_SUMMARY=1024, RP_CHAIN=0: overflow warned without 'raise RP_SUMMARY'"
    fi
fi

# ---- 5. more ranks than CPUs -----------------------------------------------------
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
if [ "${cpus:-64}" -gt 8 ]; then
    echo "SKIP: oversubscription: $cpus CPUs online, the test runs cpus + 1 ranks only up to 8"
else
    np=$((cpus + 1))
    [ $np -lt 4 ] && np=4
    rp_prof $np shm -- "$S" none
    if rp_expect_report "oversubscribed ($np ranks, $cpus CPUs)"; then
        "$R" "$RP_DIR" >"$RP_TMP/over.txt" 2>&1
        "$R" --format html "$RP_DIR" >"$RP_TMP/over.html" 2>&1
        if ! sed -n '1,4p' "$RP_TMP/over.txt" | grep -q "OVERSUBSCRIBED: $np ranks on $cpus CPU" ||
            ! grep -q "\"oversubscribed\": *\"$np ranks on $cpus CPU" "$RP_JSON" ||
            ! grep -q "\"oversubscribed\": *\"$np ranks on $cpus CPU" "$RP_TMP/over.html"; then
            rp_fail "oversubscribed: the header of text, JSON and HTML does not say so"
            head -5 "$RP_TMP/over.txt"
        else
            echo "  $(grep -m1 OVERSUBSCRIBED "$RP_TMP/over.txt" | cut -c1-160)..."
            rp_pass "oversubscribed ($np ranks, $cpus CPUs): said in the header of every view"
        fi
    fi
fi
rp_finish
