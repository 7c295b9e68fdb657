#!/bin/sh
# test_html.sh - rp-report --format html in a real headless browser
# (Debian's chromium): the page is one file that fetches nothing, loads with
# no console error and no uncaught exception, and its DOM holds the
# expected elements and numbers (warnings from the counter table, the path
# costs of the JSON report, a flame graph per path and the differential,
# per-rank bars, the POP factor table with its bars and loss lists and,
# in path mode, its per-phase rows, the
# per-phase timeline in trace mode, the collapsible tree), and the --diff
# page (two distributions, the differential flame graph, the tables).
# A screenshot of each page is taken (tests/html_report_*.png in the build
# tree).  Exit 0 pass, 1 fail (a missing prerequisite is a failure).
. "$(dirname "$0")/browser_env.sh"
command -v "$browser" >/dev/null 2>&1 ||
    { echo "test_html.sh: $browser not found (apt-get install chromium; quickstart.sh installs it)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "test_html.sh: python3 needed" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-html-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0

# load FILE NAME: DOM to $work/NAME.dom, browser log to $work/NAME.log,
# screenshot to $top_build/tests/html_report_NAME.png
load() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
        --virtual-time-budget=10000 --dump-dom "file://$1" >"$work/$2.dom" 2>"$work/$2.log" ||
        { echo "FAIL: $2: $browser --dump-dom exit $?"; return 1; }
    rm -f "$top_build/tests/html_report_$2.png"
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,2400 \
        --virtual-time-budget=10000 --screenshot="$top_build/tests/html_report_$2.png" \
        "file://$1" >/dev/null 2>&1 ||
        { echo "FAIL: $2: $browser --screenshot exit $?"; return 1; }
}

# prof mode, with every counter of the table set (warnings)
"$mkrank" "$work/m" 4 --k 5 --skip 2 --all-counters 1 >/dev/null || exit 1
"$bindir/rp-report" --format html -o "$work/prof.html" "$work/m" 2>/dev/null || { echo "FAIL: rp-report html (prof)"; exit 1; }
"$bindir/rp-report" --format json "$work/m" >"$work/prof.json" 2>/dev/null || exit 1
# trace mode: per-phase costs (two phases)
mkdir "$work/t" && "$mkpath" assign-trace "$work/t" || exit 1
"$bindir/rp-report" --format html -o "$work/trace.html" "$work/t" 2>/dev/null || { echo "FAIL: rp-report html (trace)"; exit 1; }
"$bindir/rp-report" --format json "$work/t" >"$work/trace.json" 2>/dev/null || exit 1
# path mode with each rank's computation per phase: the per-phase POP table
"$mkrank" "$work/pp" 4 --pop 1 --trace 0 --path 1 >/dev/null || exit 1
"$bindir/rp-report" --format html -o "$work/popphase.html" "$work/pp" 2>/dev/null ||
    { echo "FAIL: rp-report html (path, per phase)"; exit 1; }
"$bindir/rp-report" --format json "$work/pp" >"$work/popphase.json" 2>/dev/null || exit 1

# --diff: the page of two runs (the second with extra contexts)
"$mkrank" "$work/m2" 4 --k 5 --extra 5 >/dev/null || exit 1
"$bindir/rp-report" --diff --format html -o "$work/diff.html" "$work/m" "$work/m2" 2>/dev/null ||
    { echo "FAIL: rp-report --diff html"; exit 1; }
"$bindir/rp-report" --diff --format json --top 100000 "$work/m" "$work/m2" >"$work/diff.json" \
    2>/dev/null || exit 1
for n in prof trace diff popphase; do
    load "$work/$n.html" "$n" || fails=$((fails + 1))
done
python3 - "$work" "$top_build/tests" <<'PY' || fails=$((fails + 1))
import json, re, sys, os
w, shots = sys.argv[1], sys.argv[2]
bad = 0
def check(ok, what):
    global bad
    print(("ok: " if ok else "FAIL: ") + what)
    bad += not ok
def count(dom, pat): return len(re.findall(pat, dom))
# the --diff page: no error, the two distributions, the differential flame
# graph of the critical path (a box per frame of its contexts), the tables
dd = open(f"{w}/diff.dom", encoding="utf-8").read()
dj = json.load(open(f"{w}/diff.json"))
check('data-errors="0"' in dd and 'data-ready="1"' in dd, "diff: drawn without a script error")
check(count(dd, r'<rect[^>]*class="before"') == len(dj["levels"]) and
      count(dd, r'<rect[^>]*class="after"') == len(dj["levels"]), "diff: a bar per level and run")
frames = {f for c in dj["critical_path"]["contexts"] for f in c["context"].split(" > ")}
check(count(dd, r'class="fr (grew|shrank|same)"') >= len(frames) > 0,
      f"diff: flame boxes for the critical path's {len(frames)} frames")
check('id="levels"' in dd and 'id="pop-table"' in dd and 'id="contexts-critical_path"' in dd
      and 'id="rank-table"' in dd and 'id="site-table"' in dd, "diff: the tables")
png = f"{shots}/html_report_diff.png"
check(os.path.exists(png) and os.path.getsize(png) > 10000, f"diff: screenshot {png}")
for n in ("prof", "trace"):
    html = open(f"{w}/{n}.html", encoding="utf-8").read()
    dom = open(f"{w}/{n}.dom", encoding="utf-8").read()
    log = open(f"{w}/{n}.log", encoding="utf-8", errors="replace").read()
    j = json.load(open(f"{w}/{n}.json"))
    k = j["k"]
    # self-contained: nothing to fetch
    check(not re.search(r'\b(src|href)\s*=|url\(|@import|fetch\(|XMLHttpRequest', html),
          f"{n}: the file references nothing outside itself")
    check("CONSOLE" not in log, f"{n}: no console messages: " +
          "; ".join(l for l in log.splitlines() if "CONSOLE" in l)[:500])
    check('data-errors="0"' in dom and 'data-ready="1"' in dom, f"{n}: script ran to the end, no uncaught error")
    # numbers from the JSON report in the DOM
    costs = re.findall(r'<td class="cost">([0-9.]+)</td>', dom)
    check(costs == ["%.6f" % p["cost_seconds"] for p in j["paths"]],
          f"{n}: distribution costs {costs} = JSON")
    levels = re.findall(r'<td class="level">([^<]*)</td>', dom)
    check(levels == [p["level"] for p in j["paths"]],
          f"{n}: each level says what it is (exact / estimated) as in the JSON: {levels}")
    meds = [p["measured_median_error_pct"] for p in j["paths"] if p["measured_median_error_pct"] is not None]
    note = re.search(r'<p[^>]*id="accuracy-note"[^>]*>([^<]*)</p>', dom)
    rmeds = [p["measured_median_rank_error_pts"] for p in j["paths"]
             if p["measured_median_rank_error_pts"] is not None]
    check(note is not None and (("median ≤ %.1f%%" % max(meds)) in note.group(1) and
                                ("within %.1f percentile points" % max(rmeds)) in note.group(1)
                                if meds else "measured error" not in note.group(1)),
          f"{n}: the distribution states the measured error of its estimates as the JSON does")
    check(count(dom, r'<li class="warn">') == len(j["warnings"]),
          f"{n}: {len(j['warnings'])} warnings listed")
    for x in j["warnings"]:
        if x["counter"]:
            check((x["counter"] + " = " + str(x["value"]) + ": ") in dom, f"{n}: warning {x['counter']} shown")
    for j2 in range(k):
        check(re.search(r'id="flame-%d"' % j2, dom) is not None, f"{n}: flame graph of path {j2}")
    if k > 1:
        check('id="flame-diff"' in dom, f"{n}: differential flame graph")
    check(count(dom, r'class="rank-row"') == len(j.get("per_rank", [])) > 0, f"{n}: one bar per rank")
    check(count(dom, r'<details') >= 1 or j["sampled_seconds"] == 0, f"{n}: collapsible tree")
    png = f"{shots}/html_report_{n}.png"
    ok = os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(png) > 10000
    check(ok, f"{n}: screenshot {png}")
# prof: the flame graph of the critical path has boxes, every path names the warnings of the table
prof = open(f"{w}/prof.dom").read()
pj = json.load(open(f"{w}/prof.json"))
check(len([x for x in pj["warnings"] if x["counter"]]) >= 10, "prof: the table's loss counters reach the page")
m = re.search(r'id="flame-0".*?</div></div>', prof, re.S)
check(count(prof, r'class="fr"') > 3, "prof: flame boxes drawn")
check("rp_test_compute" in prof, "prof: function names in the page")
# the POP factor table: the JSON's five factors, each with a bar, and the loss lists
pop = pj["pop"]
vals = re.findall(r'<td class="pop-value">([^<]*)</td>', prof)
want = ["%.3f" % pop[x] for x in ("parallel_efficiency", "load_balance", "communication_efficiency",
                                  "serialisation_efficiency", "transfer_efficiency")]
check(vals == want, f"prof: POP factors {vals} = JSON {want}")
check(count(prof, r'<tr class="pop-row"[^>]*><td[^>]*>[^<]*</td><td class="pop-value">[^<]*</td>'
                  r'<td class="l"><span class="bar"') == 5, "prof: a bar per POP factor")
check(count(prof, r'<table class="pop-loss"') == 3, "prof: the three loss lists")
# trace: the per-phase timeline, one line per path, and the phases table
tr = open(f"{w}/trace.dom").read()
tj = json.load(open(f"{w}/trace.json"))
check('id="timeline-svg"' in tr and count(tr, r'<polyline') == tj["k"], "trace: timeline with one line per path")
check([int(x) for x in re.findall(r'<table id="phase-table">.*?</table>', tr, re.S) and
       re.findall(r'<tr><td>(\d+)</td>', re.findall(r'<table id="phase-table">.*?</table>', tr, re.S)[0])]
      == [p["phase"] for p in tj["phases_by_spread"]], "trace: phases by spread in the page")
# path mode: the per-phase POP table holds the JSON's pop.per_phase, in its order,
# a bar per LB and SerE; the whole-run page (prof) has no such table
pp = open(f"{w}/popphase.dom").read()
ppj = json.load(open(f"{w}/popphase.json"))["pop"]["per_phase"]
rows = re.findall(r'<tr class="pop-phase-row" data-phase="(\d+)"><td>\d+</td>'
                  r'<td class="pop-phase-lb">([^<]*)</td><td class="l"><span class="bar"[^>]*></span></td>'
                  r'<td class="pop-phase-sere">([^<]*)</td><td class="l"><span class="bar"', pp)
want = [(str(r["phase"]), "%.3f" % r["load_balance"], "%.3f" % r["serialisation_efficiency"]) for r in ppj]
check('data-errors="0"' in pp and 'data-ready="1"' in pp, "popphase: drawn without a script error")
check(len(want) == 3 and rows == want, f"popphase: per-phase LB and SerE {rows} = JSON {want}")
check('id="pop-phase-table"' not in prof and 'id="pop-phase-none"' not in prof,
      "prof: no per-phase table (prof mode keeps no per-phase computation)")
sys.exit(1 if bad else 0)
PY
[ $fails -eq 0 ]
