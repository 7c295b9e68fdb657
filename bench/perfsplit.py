#!/usr/bin/env python3
"""perfsplit.py PERF.DATA COMM [HZ] - where a profiled job's CPU time goes, from
`perf record -e cpu-clock` of the whole mpirun (issue 16, doc/performance.md
"Sampling at its cost").  Groups the samples of processes named COMM:

  app        the program's own binary
  mpi        libmpi, libopen-pal, the mca_* components
  kernel     [kernel.kallsyms] (in a VM, not the hypervisor's timer work)
  libc       libc.so
  rp:sampler the SIGPROF handler: on_sigprof, unwinding (libunwind too),
             the CCT, item pushes, summary extension
  rp:commit  phase end: commit, phase statistics, period reset
  rp:clock   rp_now_ns
  rp:paths   everything else in librpprof.so: wrappers, path-set encode,
             decode, join, the protocol
and prints each as CPU milliseconds (samples / HZ, the -F of perf record,
default 4999) and as a share of COMM's samples."""
import subprocess
import sys

SAMPLER = ("on_sigprof", "unwind", "cct_", "push_task_sample", "pathset_extend", "summary_",
           "itembuf_push", "pathset_add_sample", "adapt_period", "set_period", "sample_")
COMMIT = ("commit", "phasestats", "prof_phase_end", "rp_phase_end", "sample_phase_reset")


def group(dso, sym):
    if dso.startswith("libunwind"):
        return "rp:sampler"
    if dso == "librpprof.so":
        if sym == "rp_now_ns":
            return "rp:clock"
        if any(sym.startswith(p) or p in sym for p in COMMIT):
            return "rp:commit"
        if any(sym.startswith(p) for p in SAMPLER):
            return "rp:sampler"
        return "rp:paths"
    if dso.startswith("[kernel"):
        return "kernel"
    if dso.startswith("libc.so"):
        return "libc"
    if dso.startswith(("libmpi", "mca_", "libopen-pal", "libopen-rte", "libpmix", "libevent")):
        return "mpi"
    return "app" if dso == sys.argv[2] else "other"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: perfsplit.py PERF.DATA COMM [HZ]")
    hz = float(sys.argv[3]) if len(sys.argv) == 4 else 4999.0
    out = subprocess.run(["perf", "report", "-i", sys.argv[1], "--comm", sys.argv[2], "-n",
                          "--sort", "dso,sym", "--stdio", "--field-separator", "\t"],
                         capture_output=True, text=True, check=True).stdout
    tot = {}
    for line in out.splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 4:
            continue
        n = int(f[1].strip())
        sym = f[3].strip()
        sym = sym.split("] ", 1)[1] if "] " in sym else sym
        g = group(f[2].strip(), sym)
        tot[g] = tot.get(g, 0) + n
    all_n = sum(tot.values()) or 1
    for g in ("app", "mpi", "kernel", "libc", "rp:sampler", "rp:commit", "rp:clock", "rp:paths",
              "other"):
        print("%-11s %8.1f ms %6.2f %%" % (g, 1000.0 * tot.get(g, 0) / hz,
                                           100.0 * tot.get(g, 0) / all_n))
    print("%-11s %8.1f ms" % ("total", 1000.0 * all_n / hz))


if __name__ == "__main__":
    main()
