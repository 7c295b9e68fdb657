#!/usr/bin/env python3
"""bench/accuracy/pool.py - pool the phases of repeated accuracy runs
(bench/accuracy/run.sh with ACC_RUNS > 1; doc/accuracy.md).

    pool.py RP_REPORT RUN_DIR...

Reads `rp-report --check --format json` of every program directory
(SHAPE-RANKS-K-SELECT) under the run directories and prints one markdown
table per selection: for each k and middle level, the median over programs
of each program's median error (the range of those medians; the worst single
phase of all), the mean signed error and how many phases were off by more
than 10 % of their range.  Errors are |online - exact| as % of the phase's
longest - shortest path (tools/common/oracle.c).  The rank error is the distance,
in percentile points, from the level to where the online path sits among
all paths of its phase (the same statistics: median over programs of each
program's median, their range, the worst phase).
"""
import collections
import glob
import json
import os
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: pool.py RP_REPORT RUN_DIR...")
    report, runs = sys.argv[1], sys.argv[2:]
    err = collections.defaultdict(list)      # (sel, k, level, program) -> |errors|
    signed = collections.defaultdict(list)   # (sel, k, level) -> errors
    rank = collections.defaultdict(list)     # (sel, k, level, program) -> rank errors
    bad = []
    for run in runs:
        for d in sorted(glob.glob(os.path.join(run, '*-*-*-*'))):
            if not os.path.isdir(d):
                continue
            shape, ranks, k, sel = os.path.basename(d).split('-')
            out = subprocess.run([report, '--check', '--format', 'json', d],
                                 capture_output=True, text=True).stdout
            try:
                phases = json.loads(out)['percentiles']['by_phase']
            except (ValueError, KeyError, TypeError):
                bad.append(d)
                continue
            for ph in phases:
                for lv in ph['levels']:
                    q = lv['percentile']
                    if q in (0, 100) or lv.get('error_pct') is None:
                        continue
                    err[(sel, int(k), q, shape + ranks)].append(abs(lv['error_pct']))
                    signed[(sel, int(k), q)].append(lv['error_pct'])
                    if lv.get('rank_error_pts') is not None:
                        rank[(sel, int(k), q, shape + ranks)].append(lv['rank_error_pts'])
    for sel in sorted({key[0] for key in err}):
        print('RP_SELECT=%s, %d run(s) pooled\n' % (sel, len(runs)))
        print('| k | level | median (range; worst) | mean signed | phases > 10 % '
              '| rank error, points: median (range; worst) |')
        print('|---|---|---|---|---|---|')
        for k in sorted({key[1] for key in err if key[0] == sel}):
            for q in sorted({key[2] for key in err if key[:2] == (sel, k)}, reverse=True):
                progs = {key[3]: v for key, v in err.items() if key[:3] == (sel, k, q)}
                meds = [statistics.median(v) for v in progs.values()]
                every = [x for v in progs.values() for x in v]
                rprogs = [v for key, v in rank.items() if key[:3] == (sel, k, q)]
                rmeds = [statistics.median(v) for v in rprogs]
                rtxt = ('%.1f (%.1f-%.1f; worst %.1f)' % (
                    statistics.median(rmeds), min(rmeds), max(rmeds),
                    max(x for v in rprogs for x in v)) if rmeds else 'n/a')
                print('| %d | %g %% | %.1f (%.1f-%.1f; worst %.1f) | %+.2f | %d of %d | %s |' % (
                    k, q, statistics.median(meds), min(meds), max(meds), max(every),
                    statistics.mean(signed[(sel, k, q)]), sum(x > 10 for x in every), len(every),
                    rtxt))
        print()
        for k in sorted({key[1] for key in err if key[0] == sel}):
            q = max(key[2] for key in err if key[:2] == (sel, k))
            progs = {key[3]: statistics.median(v) for key, v in err.items() if key[:3] == (sel, k, q)}
            print('k = %d, %g %%, by program: %s\n' % (
                k, q, ', '.join('%s %.2f' % (p, progs[p]) for p in sorted(progs))))
    for d in bad:
        print('no --check result: %s' % d, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
