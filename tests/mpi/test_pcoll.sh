#!/bin/bash
# MPI-4 persistent collectives, partitioned communication and sessions
# (doc/coverage.md, "MPI-4"): tests/mpi/mpi_pcoll.c sets up every persistent collective (int
# and large-count forms) and a partitioned ring, starts each request three
# times with other data and completes it by Wait, a Test loop and Waitall.
# Their synchronisation is not followed, so every start must be counted:
#   - semantics: identical output with and without the profiler, 1-5 ranks,
#     shared memory and TCP (a wrapper that passed on a wrong argument, or a
#     start left waiting for a path-set, would show here);
#   - counted: unfollowed_starts = 131 a rank at 3 ranks (95 collective
#     starts, 30 neighbourhood, 6 partitioned), with its warning in the text
#     report, and no other loss;
#   - trace mode: rp-report --check;
#   - tests/mpi/mpi_session.c starts MPI by MPI_Session_init alone: its
#     result unchanged, no profile, and one line on stderr saying why.
# Under an MPI-3 library (Open MPI 4.1) the functions do not exist: the
# program says so and only that is compared.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/mpirun.sh"

B=$RP_TESTS_BIN
rp_semantic "$B/mpi_pcoll" shm:1 shm:2 tcp:3 shm:4 tcp:5
if grep -q 'no persistent collectives' "$RP_OUTF"; then
    echo "note: $(rp_stdout_filtered "$RP_OUTF" | head -1) ($RP_MPI_FLAVOR): nothing more to test here"
    rp_finish
fi

rp_prof 3 shm -- "$B/mpi_pcoll"
if rp_expect_report "mpi_pcoll np=3 shm"; then
    if "$PYTHON" -c 'import json, sys
c = json.load(open(sys.argv[1]))["counters"]
loss = {k: v for k, v in c.items() if v and k in ("unsupported_calls", "pathset_unmatched",
                                                   "pathset_decode_errors", "items_dropped")}
sys.exit(not (c.get("unfollowed_starts") == 3 * 131 and not loss))' "$RP_JSON"; then
        rp_pass "mpi_pcoll np=3: every start counted (unfollowed_starts = 393), no other loss"
    else
        rp_fail "mpi_pcoll np=3: expected unfollowed_starts = 393 and no other loss"
        rp_show json "$RP_JSON"
    fi
    if "$RP_BINDIR/rp-report" "$RP_DIR" 2>&1 | grep -q 'warning: unfollowed_starts = 393 ('; then
        rp_pass "mpi_pcoll np=3: the text report warns of the unfollowed starts"
    else
        rp_fail "mpi_pcoll np=3: no unfollowed_starts warning in the text report"
    fi
fi

rp_prof 3 tcp RP_MODE=trace -- "$B/mpi_pcoll"
if rp_expect_report "mpi_pcoll trace np=3 tcp"; then
    rp_expect_check "mpi_pcoll trace np=3 tcp"
fi

rp_prof 3 shm -- "$B/mpi_session"
if ! rp_expect_rc0 "mpi_session np=3"; then
    :
elif ! grep -q '^mpi_session: 3 ranks, sum 6$' "$RP_OUTF"; then
    rp_fail "mpi_session np=3: wrong output under the profiler"
elif [ -n "$(ls -A "$RP_DIR" 2>/dev/null)" ]; then
    rp_fail "mpi_session np=3: a profile was written for a sessions-only program"
elif [ "$(grep -c 'rpprof: MPI_Session_init: MPI-4 sessions are not profiled' "$RP_ERRF")" != 1 ]; then
    rp_fail "mpi_session np=3: expected one line on stderr saying sessions are not profiled"
else
    rp_pass "mpi_session np=3: result unchanged, no profile, one line saying sessions are not profiled"
fi
rp_finish
