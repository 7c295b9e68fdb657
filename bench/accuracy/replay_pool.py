#!/usr/bin/env python3
"""replay_pool.py - pool bench/accuracy/replay outputs over runs (doc/accuracy.md).

    replay_pool.py LABEL=FILE [LABEL=FILE ...]

FILE is what `replay DIR K PHASE_K RULE` printed for one run; runs with the
same LABEL are one program.  Per level: the median over programs of each
program's median |cost error| (% of a phase's range), their range, the
worst phase, phases past 10 %, the mean signed error, and the median over
programs of the median rank error (percentile points)."""
import collections
import statistics as st
import sys


def main(args):
    if not args or any('=' not in a for a in args):
        sys.exit(__doc__)
    data = collections.defaultdict(list)      # (label, pct) -> [(cost, rank)]
    for a in args:
        label, path = a.split('=', 1)
        with open(path) as f:
            for line in f:
                if line.startswith('#') or not line.strip():
                    continue
                q, j, pct, rep, ex, ce, re_, lp = line.split()
                data[(label, float(pct))].append((float(ce), float(re_)))
    pcts = sorted({p for (_, p) in data}, reverse=True)
    print('| level | cost error: median over programs (range) | worst phase | phases > 10 % '
          '| mean signed | rank error: median (worst program) |')
    print('|---|---|---|---|---|---|')
    for p in pcts:
        labels = sorted(l for (l, pp) in data if pp == p)
        meds = [st.median(abs(c) for c, _ in data[(l, p)]) for l in labels]
        ranks = [st.median(r for _, r in data[(l, p)] if r == r) for l in labels]
        allc = [c for l in labels for c, _ in data[(l, p)]]
        print('| %.1f %% | %.2f (%.2f-%.2f) | %.2f | %d of %d | %+.2f | %.2f (%.2f) |' % (
            p, st.median(meds), min(meds), max(meds), max(abs(c) for c in allc),
            sum(1 for c in allc if abs(c) > 10), len(allc), st.mean(allc),
            st.median(ranks), max(ranks)))


if __name__ == '__main__':
    main(sys.argv[1:])
