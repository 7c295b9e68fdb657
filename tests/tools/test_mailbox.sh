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
#     mailbox stays off, path-sets still travel.
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
rp_require "$PROG" "$RP_LIB" "$RP_BINDIR/rp-report" "$RP_TESTS_BIN/mpi_threads"
ROUNDS=${RP_RANDOM_ROUNDS:-120}

# COND: a Python expression over the counters c (summed over ranks)
counters_ok() { # WHAT COND
    local out
    if out=$("$PYTHON" -c 'import json, sys
c = json.load(open(sys.argv[1])).get("counters", {})
g = lambda k: c.get(k, 0)
s = "sets %d (mailbox %d, fallbacks %d), received %d, unmatched %d, mailbox ranks %d" % (
    g("pathset_msgs_sent"), g("pathset_mailbox_sets"), g("pathset_mailbox_fallbacks"),
    g("pathset_msgs_received"), g("pathset_unmatched"), g("mailbox_ranks"))
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
mb_case 4 shm P2P_ARGS 'g("pathset_mailbox_sets") == g("pathset_msgs_sent") > 0'

# MPI_THREAD_MULTIPLE: side messages only (mailbox.h)
rp_prof 2 shm RP_MULTIPLE=main RP_PERIOD=0 -- "$RP_TESTS_BIN/mpi_threads" 40 2 1 0
if grep -q "not provided" "$RP_OUTF"; then
    rp_note "mpi_threads: MPI_THREAD_MULTIPLE not provided; that case is not run"
elif rp_expect_report "mpi_threads np=2 RP_MULTIPLE=main"; then
    counters_ok "mpi_threads np=2 RP_MULTIPLE=main" \
        'g("mailbox_ranks") == 0 and g("pathset_mailbox_sets") == 0 and g("pathset_msgs_received") > 0'
fi
rp_finish
