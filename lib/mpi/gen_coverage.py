#!/usr/bin/env python3
"""Write doc/coverage.md: every wrapped MPI function and how it branches or
joins paths, from lib/mpi/mpi_functions.def (the table the C and Fortran
wrappers are generated from).  Usage: gen_coverage.py TABLE > doc/coverage.md"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True     # srcdir may be read-only (distcheck)
from gen_wrappers import parse, mpi4_only  # noqa: E402

KIND = {
    "event": "event (the task ends); no path exchange",
    "send": "event; **branch**: my path-set to `dest` (Isend on the p2p shadow, payload's tag) before the payload (after it when the arguments might make the call fail)",
    "isend": "event; **branch** (non-blocking, pooled Isend) before the payload call (after it when the arguments might make the call fail)",
    "sendrecv": "event; **branch** to `dest` (set before the join), then **join** with `status`'s sender",
    "pcoll_init": "not an event (set-up); the synchronisation of a persistent collective is not followed: each `MPI_Start` of the request is counted (`unfollowed_starts`, warned in every report view), its Wait is MPI time",
    "part_init": "not an event (set-up); partitioned communication is not followed: each `MPI_Start` of the request is counted (`unfollowed_starts`, warned in every report view), its Wait is MPI time",
    "isendrecv": "event; **branch** to `dest` now; the receive's path-set is pre-posted and **joined** when a Wait/Test completes it; with a wildcard source or tag not joined (counted as `unsupported_calls`: MPICH 4.0.2's status of an `MPI_Isendrecv` names source 0 and tag 0 whatever came)",
    "recv": "event; **join** with the path-set of `status.MPI_SOURCE`/`MPI_TAG` (known source and tag, C, prof mode: received and joined while the payload is in transit)",
    "irecv": "not an event; path-set receive pre-posted when source and tag are known; **join** when a Wait/Test completes it",
    "mprobe": "event; no path exchange; the matched message's communicator, source and tag are kept (at most 64 unreceived at a time: past that its join is lost, counted as `unsupported_calls`) for its matched receive",
    "mrecv": "event; **join** with the path-set of the message's sender (the probe's communicator, `status.MPI_SOURCE`/`MPI_TAG`)",
    "imrecv": "not an event; path-set receive pre-posted for the probe's source and tag; **join** when a Wait/Test completes it",
    "psend_init": "not an event; **branches** at every `MPI_Start`",
    "precv_init": "not an event; pre-posts at every `MPI_Start`, **joins** at every completion",
    "coll_all": "event; **all join all**: butterfly (n = 2^m) or dissemination + broadcast on the coll shadow; ends a phase over all of `MPI_COMM_WORLD`",
    "barrier": "event; **all join all**, as the all-to-all collectives; on an intracommunicator of more than one member the exchange is the barrier (no `PMPI_Barrier`: every member leaves only after every member's set reached it); ends a phase over all of `MPI_COMM_WORLD`",
    "bcast": "event; **members join root's**: with at most 1 KiB of data (C binding, Open MPI) one broadcast carries the data packed and root's set (counted: `bcasts_carried`); larger data as `coll_out`",
    "coll_in": "event; **root joins all**: gather of path-sets to root (n <= 4: one message per member, sent before the call)",
    "coll_out": "event; **members join root's**: broadcast of root's set (n <= 4: one message per member, sent before the call)",
    "coll_scan": "event; **rank r joins 0..r**: Hillis-Steele prefix exchange",
    "comm_new": "event; the new communicator gets its two shadow duplicates",
    "comm_free": "event; its shadows are freed",
    "nbc_all": "event; non-blocking Iallgather of path-sets started; **all join all** at completion (never ends a phase)",
    "nbc_in": "event; non-blocking Igather started; **root joins all** at completion",
    "nbc_out": "event; non-blocking Ibcast started; **members join root's** at completion",
    "nbc_scan": "event; non-blocking Iallgather started; **rank r joins 0..r** at completion",
    "neighbor": "event; **joins its in-neighbours'** sets (sources of the cartesian/graph/dist-graph topology): neighbourhood allgather on the coll shadow (which keeps the topology); not joined in trace mode (counted)",
    "nbc_neighbor": "event; non-blocking Ineighbor_allgather started; **joins its in-neighbours'** sets at completion; not joined in trace mode (counted)",
    "win_new": "event; the window gets a shadow (one duplicate of `comm`, made here: creation is collective)",
    "win_free": "event; the window's shadow is freed",
    "win_fence": "event; **all join all** over the window's group (path-allreduce on its shadow); a window whose creation was not seen passes through (counted, one warning); never ends a phase",
    "rma_sync": "event; no path exchange: the ordering it imposes between ranks is not followed (counted: `rma_sync_unfollowed`, warned in every report view)",
    "local": "not an event: local MPI time (its request, if any, is an ordinary untracked one)",
    "file_open": "event; the file gets a shadow (one duplicate of `comm`, made here: opening is collective), and **all join all** over its group",
    "file_close": "event; **all join all** over the file's group (whatever the call returned), then its shadow is freed",
    "file_coll": "event; **all join all** over the file's group (path-allreduce on its shadow, whatever the call returned: a file's errors return by default, maybe on some members only); a file whose opening was not seen passes through (counted, one warning); never ends a phase",
    "file_nbc": "event; non-blocking Iallgather of path-sets on the file's shadow started; **all join all** at completion (never ends a phase)",
}
CUSTOM = {
    "MPI_Init": "not an event; starts the runtime after PMPI_Init (first task starts at return)",
    "MPI_Init_thread": "as MPI_Init; only the calling thread is profiled",
    "MPI_Finalize": "event; last path-allreduce over `MPI_COMM_WORLD` (ends the last phase), drain, rank file written",
    "MPI_Start": "event and **branch** for a persistent send; not an event for a receive (pre-post)",
    "MPI_Startall": "as MPI_Start, per request",
    "MPI_Request_free": "not an event; an active receive loses its join (counted)",
    "MPI_Cancel": "not an event; a cancelled receive withdraws its path-set receive at completion",
    "MPI_Wait": "event; **joins** a completed receive / non-blocking collective",
    "MPI_Waitall": "event; **joins** every completed receive / non-blocking collective",
    "MPI_Waitany": "event; **joins** the completed one",
    "MPI_Waitsome": "event; **joins** each completed one",
    "MPI_Test": "event; **joins** if it completed",
    "MPI_Testall": "event; **joins** all if all completed",
    "MPI_Testany": "event; **joins** the completed one",
    "MPI_Testsome": "event; **joins** each completed one",
    "MPI_Abort": "writes the rank file (completed phases), then PMPI_Abort",
    "MPI_Session_init": "not an event; passes through, and rank 0 says once on stderr that MPI-4 sessions are not profiled (the runtime starts in MPI_Init or MPI_Init_thread; a program without either writes no profile)",
    "MPI_Pcontrol": "not an event; level 0 pauses sampling attribution, any other level resumes it (path costs stay exact; counter `samples_paused`)",
}


def main():
    funcs = parse(sys.argv[1])
    out = sys.stdout
    out.write("# Wrapped MPI functions\n\n"
              "Generated by `lib/mpi/gen_coverage.py` from `lib/mpi/mpi_functions.def` (the table\n"
              "the C and Fortran wrappers are generated from; `make check` fails if this\n"
              "file is stale). Each function is intercepted in C and in Fortran\n"
              "(`mpif.h`/`use mpi`: `mpi_x_`, `mpi_x__`, `mpi_x`, `MPI_X`; `use mpi_f08`:\n"
              "`mpi_x_f08_`; see doc/fortran.md). *Event*: the running task ends at entry\n"
              "and the next starts at return. *Branch*: the rank's path-set goes to the\n"
              "destination. *Join*: the rank keeps select_k(mine ∪ incoming). Details:\n"
              "doc/design.md. Every function is called, from C and from Fortran, by a\n"
              "program run with and without the profiler: doc/conformance.md.\n\n"
              "Functions not listed pass through untouched; communicators they create\n"
              "are not followed (counter `unsupported_calls`): among them\n"
              "`MPI_Comm_spawn[_multiple]`, `MPI_Comm_get_parent` and `MPI_Comm_join`,\n"
              "whose intercommunicators are deliberately not shadowed (the other side\n"
              "may run without the profiler; design.md, \"Spawn\"). Likewise any new\n"
              "communicator, `MPI_Comm_accept`/`connect`'s included, with a member\n"
              "outside `MPI_COMM_WORLD`.\n"
              "MPI-IO is followed as one-sided communication is: a file gets a\n"
              "shadow when it is opened, its collective operations join all members\n"
              "there, independent accesses are events (their time is MPI time) and\n"
              "their non-blocking forms local calls; the local queries (`get_*`,\n"
              "`MPI_File_seek`, error handlers) pass through (their time is task time).\n"
              "MPI-4 (rows marked *C, MPI-4*): the large-count forms `MPI_X_c` of every\n"
              "wrapped call, `MPI_Isendrecv[_replace]`, the persistent collectives\n"
              "(`MPI_Bcast_init`, ...) and the set-up of partitioned communication are\n"
              "wrapped in C where the library has them (configure links it to see;\n"
              "MPICH 4 here, not Open MPI 4.1; Open MPI 5 has `MPI_Isendrecv` under\n"
              "`MPI_VERSION` 3): a receive matches a send of either form, so a\n"
              "large-count send passing through would leave its receiver waiting for\n"
              "a path-set. Their Fortran bindings reach these C wrappers under MPICH.\n"
              "The synchronisation of persistent collectives and partitioned\n"
              "communication is not followed: each start is counted\n"
              "(`unfollowed_starts`; an exchange started at each `MPI_Start` crashed\n"
              "MPICH 4.0.2, design.md \"MPI-4\"), and their partners are of the same\n"
              "form, so nothing waits for a path-set. Sessions are not followed: a\n"
              "program that never calls `MPI_Init` is not profiled, and\n"
              "`MPI_Session_init` says so on stderr.\n"
              "Collectives on an intercommunicator created by `MPI_Intercomm_create`\n"
              "join on a merged shadow: **all join all** across both groups (rooted ones\n"
              "over-approximated), not in trace mode.\n\n"
              "| function | kind | paths |\n|---|---|---|\n")
    for kind, name, _, _ in funcs:
        what = CUSTOM.get(name) if kind == "custom" else KIND[kind]
        if what is None:
            sys.exit("gen_coverage.py: no description for custom function " + name)
        if mpi4_only(name):
            kind += " (C, MPI-4)"
        out.write("| `%s` | %s | %s |\n" % (name, kind, what))
    out.write("\n%d functions.\n" % len(funcs))


if __name__ == "__main__":
    main()
