#!/usr/bin/env python3
"""check_threads.py REPORT.json [options]
Assert what rp-report --format json says about threads (doc/sampling.md,
"Threads"):
  --ranks N --level L        counters.mpi_thread_level == L * N (summed over ranks)
  --worker-fn F              F (run only on OpenMP worker threads) is on the
                             100 % path's profile and in the whole-program
                             hotspots; worker samples were charged to paths
                             (thread_samples_charged > 0) on every rank
                             (threads_sampled >= N)
  --main-fn M                M (the MPI thread's share of the region) is on
                             the 100 % path too
  --other-calls-min X        counters.mpi_calls_other_threads >= X
  --no-threads               no worker timer, no worker sample
  --overflow                 every rank ran out of thread slots (thread_slots_overflow >= N)
Prints one summary line; on failure lines starting with CHECK FAILED, exit 1."""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--level", type=int, required=True)
    ap.add_argument("--worker-fn")
    ap.add_argument("--main-fn")
    ap.add_argument("--other-calls-min", type=int)
    ap.add_argument("--no-threads", action="store_true")
    ap.add_argument("--overflow", action="store_true")
    ap.add_argument("--local-only", type=int,
                    help="expected ranks_paths_local_only (ranks without path exchange)")
    ap.add_argument("--misaligned", type=int,
                    help="expected ranks_phases_misaligned (ranks whose phase count differed)")
    a = ap.parse_args()
    with open(a.report) as f:
        d = json.load(f)
    c = d.get("counters", {})
    errors = []

    def fail(msg):
        errors.append(msg)

    def cnt(name):
        if name not in c:
            fail("counter %s missing" % name)
            return 0
        return c[name]

    if cnt("mpi_thread_level") != a.level * a.ranks:
        fail("mpi_thread_level = %r, expected %d (level %d x %d ranks)"
             % (c.get("mpi_thread_level"), a.level * a.ranks, a.level, a.ranks))
    crit = d["paths"][0]

    def secs(entries, fn):
        return sum(e["seconds"] for e in entries if e["function"] == fn)

    if a.worker_fn:
        w = secs(crit.get("top", []), a.worker_fn)
        if w <= 0:
            fail("%s (worker threads only) is not on the 100 %% path: %r"
                 % (a.worker_fn, crit.get("top")))
        if secs(d.get("hotspots", []), a.worker_fn) <= 0:
            fail("%s missing from the whole-program hotspots" % a.worker_fn)
        if cnt("thread_samples_charged") <= 0:
            fail("thread_samples_charged = 0")
        if cnt("threads_sampled") < a.ranks:
            fail("threads_sampled = %r, expected >= %d" % (c.get("threads_sampled"), a.ranks))
        if cnt("thread_samples") != cnt("thread_samples_charged") + cnt("thread_samples_rank_only"):
            fail("thread_samples != charged + rank_only: %r" % c)
    if a.main_fn and secs(crit.get("top", []), a.main_fn) <= 0:
        fail("%s (MPI thread) is not on the 100 %% path: %r" % (a.main_fn, crit.get("top")))
    if a.misaligned is not None and c.get("ranks_phases_misaligned", 0) != a.misaligned:
        fail("ranks_phases_misaligned = %r, expected %d"
             % (c.get("ranks_phases_misaligned", 0), a.misaligned))
    if a.local_only is not None and c.get("ranks_paths_local_only", 0) != a.local_only:
        fail("ranks_paths_local_only = %r, expected %d"
             % (c.get("ranks_paths_local_only", 0), a.local_only))
    if a.other_calls_min is not None and cnt("mpi_calls_other_threads") < a.other_calls_min:
        fail("mpi_calls_other_threads = %r, expected >= %d"
             % (c.get("mpi_calls_other_threads"), a.other_calls_min))
    if a.no_threads and (cnt("threads_sampled") or cnt("thread_samples")):
        fail("worker threads were sampled: threads_sampled=%r thread_samples=%r"
             % (c.get("threads_sampled"), c.get("thread_samples")))
    if a.overflow and cnt("thread_slots_overflow") < a.ranks:
        fail("thread_slots_overflow = %r, expected >= %d" % (c.get("thread_slots_overflow"), a.ranks))
    print("threads: level=%s other-thread calls=%s threads_sampled=%s samples=%s "
          "charged=%s rank_only=%s dropped=%s overflow=%s; 100%% path %.3f s, worker fn %.3f s, main fn %.3f s"
          % (c.get("mpi_thread_level"), c.get("mpi_calls_other_threads"),
             c.get("threads_sampled"), c.get("thread_samples"), c.get("thread_samples_charged"),
             c.get("thread_samples_rank_only"), c.get("thread_samples_dropped"),
             c.get("thread_slots_overflow"),
             crit["cost_seconds"],
             secs(crit.get("top", []), a.worker_fn) if a.worker_fn else 0,
             secs(crit.get("top", []), a.main_fn) if a.main_fn else 0))
    for e in errors:
        print("CHECK FAILED " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
