#!/bin/bash
# The shared-memory mailbox (lib/exchange/mailbox.c) and each of its
# fallbacks to side messages, on the random MPI program in its "full" style
# (wildcards, probes and matched probes, persistent, synchronous and
# buffered sends, Sendrecv, Waitany/Testall, sub-communicators):
#   - default: every point-to-point path-set between ranks goes through
#     the mailbox (one node), none falls back;
#   - RP_MAILBOX_NODE=2: ranks grouped in pretend nodes of 2, so pairs
#     across groups use side messages (the "other node" fallback) beside
#     mailbox pairs;
#   - RP_MAILBOX_BYTES=1024 on tests/mpi/mpi_p2p.c (bursts of Isends received
#     in another order, wildcards, probes): rings of a few sets, so sets fall
#     back when a ring is full and the pair stays on side messages until
#     they are consumed (the mixing the mailbox's ordering rule is about;
#     mailbox.h);
#   - RP_MAILBOX=0: side messages only;
#   - MPI_THREAD_MULTIPLE (tests/mpi/mpi_threads.c, RP_MULTIPLE=main): the
#     mailbox stays off, path-sets still travel;
#   - summaries by name (RP_MAILBOX_REFS, the arena beside each ring):
#     forced in path mode (RP_MAILBOX_REFS=all: every summary changes at
#     every task, so each set writes records and the arena fills and
#     recycles), with 8 KiB rings and arenas too (sets that do not fit
#     travel as side messages); and in prof mode with sampling on a wavefront, where the
#     receiver mostly holds what a set names already (and with a sample
#     every 100 us and 4 KiB arenas, where every set names new summaries).  (Names that the
#     receiver holds are joined without a copy: tests/unit/unit_pathset.c
#     checks that join against the one from the plain bytes.)
# In trace mode each run must pass rp-report --check (the online longest
# and shortest paths equal the task graph's, offline), and the replay of
# the trace (the runtime's joins redone offline in trace order) must give
# every middle level the run's own cost: a set joined with the wrong
# payload changes the paths and fails both.  The program's output must not
# change, no set may be left unconsumed, and the counters must show which
# road the sets took.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/../mpi/mpirun.sh"

PROG=$RP_TESTS_BIN/mpi_random
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report" "$RP_TESTS_BIN/mpi_threads" \
    "$RP_TESTS_BIN/mpi_wavefront"
ROUNDS=${RP_RANDOM_ROUNDS:-120}

# COND: a Python expression over the counters c (summed over ranks)
counters_ok() { # WHAT COND
    local out
    if out=$("$PYTHON" -c 'import json, sys
c = json.load(open(sys.argv[1])).get("counters", {})
g = lambda k: c.get(k, 0)
s = ("sets %d (mailbox %d, fallbacks %d), received %d, unmatched %d, mailbox ranks %d; "
     "summaries by name %d (records %d, held %d)") % (
    g("pathset_msgs_sent"), g("pathset_mailbox_sets"), g("pathset_mailbox_fallbacks"),
    g("pathset_msgs_received"), g("pathset_unmatched"), g("mailbox_ranks"),
    g("pathset_mailbox_refs"), g("pathset_mailbox_records"), g("pathset_mailbox_held"))
ok = eval(sys.argv[2]) and g("pathset_unmatched") == 0 and g("pathset_decode_errors") == 0
print(s)
sys.exit(0 if ok else 1)' "$RP_JSON" "$2" 2>&1); then
        rp_pass "$1: $out"
    else
        rp_fail "$1: counters not as expected ($2): $out"
    fi
}

replay_agrees() { # DIR K
    "$RP_BINDIR/rp-report" --check --format json "$1" >"$RP_RUNDIR/check.json" 2>/dev/null ||
        return 1
    "$RP_TOP_BUILDDIR/bench/accuracy/replay" "$1" "$2" 2>&1 |
        "$PYTHON" "$RP_TOP_SRCDIR/bench/accuracy/replay_agrees.py" "$RP_RUNDIR/check.json"
}

declare -A REF=()   # the program's output by program and rank count
RANDOM_ARGS=("$PROG" 41 "$ROUNDS" full)
P2P_ARGS=("$RP_TESTS_BIN/mpi_p2p")
mb_case() { # NP NET ARGS-ARRAY-NAME COND SETTINGS...
    local np=$1 net=$2 cond=$4 agree out key="$3:$1"
    local -n args=$3
    shift 4
    local what="${args[0]##*/} ${args[*]:1} np=$np $net $*"
    rp_prof "$np" "$net" RP_MODE=trace RP_K=3 RP_PERIOD=0 "$@" -- "${args[@]}"
    rp_expect_report "$what" || return
    out=$(rp_stdout_filtered "$RP_OUTF")
    if [ -z "${REF[$key]:-}" ]; then
        REF[$key]=$out
    elif [ "$out" != "${REF[$key]}" ]; then
        rp_fail "$what: program output differs from the first run's"
        return
    fi
    rp_expect_check "$what" || return
    if ! agree=$(replay_agrees "$RP_DIR" 3); then
        rp_fail "$what: the replay differs from the run (levels equal, of all: ${agree:-none})"
        return
    fi
    counters_ok "$what" "$cond"
}

mb_case 4 shm RANDOM_ARGS 'g("pathset_mailbox_sets") == g("pathset_msgs_sent") > 0 and g("mailbox_ranks") == 4'
mb_case 4 shm RANDOM_ARGS 'g("pathset_msgs_sent") > g("pathset_mailbox_sets") > 0' RP_MAILBOX_NODE=2
mb_case 4 shm RANDOM_ARGS 'g("pathset_mailbox_sets") == 0 and g("mailbox_ranks") == 0 and g("pathset_msgs_sent") > 0' \
    RP_MAILBOX=0
# mpi_p2p: bursts of five Isends a round, received in another order, with
# wildcards and probes; 1 KiB rings hold a few of its sets
mb_case 4 shm P2P_ARGS 'g("pathset_mailbox_fallbacks") > 0 and g("pathset_mailbox_sets") > 0' \
    RP_MAILBOX_BYTES=1024 RP_SUMMARY=12
# over TCP some sets take side messages: fallbacks under Open MPI, and under
# MPICH (MPIR_CVAR_NOLOCAL=1) every rank is a node of its own
mb_case 3 tcp P2P_ARGS 'g("pathset_mailbox_sets") < g("pathset_msgs_sent")' \
    RP_MAILBOX_BYTES=1024 RP_SUMMARY=12
mb_case 4 shm P2P_ARGS 'g("pathset_mailbox_sets") == g("pathset_msgs_sent") > 0 and g("pathset_mailbox_refs") == 0'
# summaries by name, forced in path mode (trace mode's paths carry no
# intervals): the paths' tasks, read back through the names, must add up to
# each path's cost (rp-report --check; mpi_p2p's paths overflow even the
# longest summary, issue 35, so there it says PARTIAL, exit 3: each rebuilt
# prefix agrees with its cost, a wrong summary would not), output unchanged
pm_case() { # NP ARGS-ARRAY-NAME COND SETTINGS...
    local np=$1 cond=$3 out key="$2:$1"
    local -n args=$2
    shift 3
    local what="${args[0]##*/} ${args[*]:1} np=$np shm path $*"
    rp_prof "$np" shm RP_MODE=path RP_K=3 RP_MAILBOX_REFS=all "$@" -- "${args[@]}"
    rp_expect_report "$what" || return
    out=$(rp_stdout_filtered "$RP_OUTF")
    if [ -n "${REF[$key]:-}" ] && [ "$out" != "${REF[$key]}" ]; then
        rp_fail "$what: program output differs from the first run's"
        return
    fi
    local rc=0
    "$RP_BINDIR/rp-report" --check "$RP_DIR" >"$RP_RUNDIR/check" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        rp_fail "$what: rp-report --check failed (exit $rc)"
        rp_show check "$RP_RUNDIR/check"
        return
    fi
    rp_pass "$what: rp-report --check exit $rc ($(tail -1 "$RP_RUNDIR/check" | cut -c1-90))"
    counters_ok "$what" "$cond"
}
pm_case 4 RANDOM_ARGS 'g("pathset_mailbox_refs") > 0 and g("pathset_mailbox_records") > 0'
# 8 KiB rings and arenas: sets fall back, records recycle thousands of times
pm_case 4 P2P_ARGS 'g("pathset_mailbox_records") > 1000 and g("pathset_mailbox_fallbacks") > 0' \
    RP_MAILBOX_BYTES=8192

# prof mode, sampling (the default road of summaries by name): tasks of
# 300 us, so samples land on the paths; most names are held already
what="mpi_wavefront np=4 shm prof"
rp_prof 4 shm -- "$RP_TESTS_BIN/mpi_wavefront" 20 40 300
if rp_expect_report "$what"; then
    counters_ok "$what" 'g("pathset_mailbox_records") < g("pathset_mailbox_refs") and g("pathset_mailbox_held") > 0'
fi
what="mpi_wavefront np=4 shm prof RP_PERIOD=100 RP_MAILBOX_BYTES=4096"
rp_prof 4 shm RP_PERIOD=100 RP_MAILBOX_BYTES=4096 -- "$RP_TESTS_BIN/mpi_wavefront" 20 40 300
if rp_expect_report "$what"; then
    counters_ok "$what" 'g("pathset_mailbox_refs") > 0'
fi

# MPI_THREAD_MULTIPLE: side messages only (mailbox.h)
rp_prof 2 shm RP_MULTIPLE=main RP_PERIOD=0 -- "$RP_TESTS_BIN/mpi_threads" 40 2 1 0
if grep -q "not provided" "$RP_OUTF"; then
    rp_note "mpi_threads: MPI_THREAD_MULTIPLE not provided; that case is not run"
elif rp_expect_report "mpi_threads np=2 RP_MULTIPLE=main"; then
    counters_ok "mpi_threads np=2 RP_MULTIPLE=main" \
        'g("mailbox_ranks") == 0 and g("pathset_mailbox_sets") == 0 and g("pathset_msgs_received") > 0'
fi
rp_finish
