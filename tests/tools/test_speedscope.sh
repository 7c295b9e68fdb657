#!/bin/sh
# test_speedscope.sh - rp-report --format speedscope, read by speedscope
# itself: the file is validated against the JSON schema speedscope ships
# (dist/release/file-format-schema.json, with python3-jsonschema), then
# loaded by speedscope's own importer - its release page in headless
# chromium, the way its command-line tool opens a file - and the page is
# checked: the import succeeded (title, no "Failed to load format"), one
# profile per path plus the two whole-program ones with the totals of the
# file, and the sandwich view's self and total time of every function shown
# equal to what rp-report --format folded (an independent writer) gives.
# A deliberately broken copy must be rejected by the same checks, so the
# test cannot pass by checking nothing.  A screenshot of the left-heavy
# flame graph is taken (tests/speedscope_*.png in the build tree).
#
# speedscope is an npm package: quickstart.sh installs it into
# $top_src/_npm (npm install --prefix _npm speedscope); SPEEDSCOPE_DIR
# names another copy (the directory holding its package.json).  Missing
# prerequisites are a failure, never a skip.  Exit 0 pass, 1 fail.
. "$(dirname "$0")/browser_env.sh"
ss=${SPEEDSCOPE_DIR:-}
if [ -z "$ss" ]; then
    for d in "$top_src/_npm/node_modules/speedscope" \
             "$(npm root -g 2>/dev/null)/speedscope"; do
        [ -f "$d/dist/release/index.html" ] && { ss=$d; break; }
    done
fi
[ -n "$ss" ] && [ -f "$ss/dist/release/index.html" ] && [ -f "$ss/dist/release/file-format-schema.json" ] ||
    { echo "FAIL: speedscope not found (bash quickstart.sh test installs it: npm install --prefix $top_src/_npm speedscope; or set SPEEDSCOPE_DIR)"; exit 1; }
command -v "$browser" >/dev/null 2>&1 ||
    { echo "FAIL: $browser not found (apt-get install chromium; quickstart.sh installs it)"; exit 1; }
python3 -c 'import jsonschema' 2>/dev/null ||
    { echo "FAIL: python3 with jsonschema needed (apt-get install python3-jsonschema)"; exit 1; }
echo "speedscope: $ss ($(sed -n 's/^ *"version": *"\(.*\)",*$/\1/p' "$ss/package.json" | head -1))"
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-speedscope-test.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT INT TERM
fails=0

# load NAME VIEW: speedscope's page loads $work/NAME.json (through the
# localProfilePath hook its CLI uses); DOM to NAME.dom, log to NAME.log
load() {
    python3 - "$work/$1.json" <<'PY' || return 1
import base64, json, sys
src = open(sys.argv[1], "rb").read()
open(sys.argv[1] + ".js", "w").write("speedscope.loadFileFromBase64(%s, %s)" % (
    json.dumps("rpprof.speedscope.json"), json.dumps(base64.b64encode(src).decode())))
PY
    url="file://$ss/dist/release/index.html#localProfilePath=$work/$1.json.js&view=$2"
    timeout 120 "$browser" --headless --no-sandbox --no-first-run \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
        --virtual-time-budget=10000 --dump-dom "$url" >"$work/$1.dom" 2>"$work/$1.log" ||
        { echo "FAIL: $1: $browser --dump-dom exit $?"; return 1; }
}
shot() {
    rm -f "$top_build/tests/speedscope_$1.png"
    timeout 120 "$browser" --headless --no-sandbox --no-first-run \
        --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,800 \
        --virtual-time-budget=10000 --screenshot="$top_build/tests/speedscope_$1.png" \
        "file://$ss/dist/release/index.html#localProfilePath=$work/$1.json.js&view=left-heavy" \
        >/dev/null 2>&1 || { echo "FAIL: $1: $browser --screenshot exit $?"; return 1; }
}

# prof mode with every counter of the table (warnings on stderr), and trace mode
"$mkrank" "$work/m" 4 --all-counters 1 >/dev/null || exit 1
mkdir "$work/t" && "$mkpath" assign-trace "$work/t" || exit 1
for n in m t; do
    "$bindir/rp-report" --format speedscope -o "$work/$n.json" "$work/$n" 2>"$work/$n.err" ||
        { echo "FAIL: rp-report --format speedscope $n"; cat "$work/$n.err"; exit 1; }
    "$bindir/rp-report" --format json "$work/$n" >"$work/$n.report" 2>/dev/null || exit 1
    k=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["k"])' "$work/$n.report")
    j=0
    while [ $j -lt "$k" ]; do
        "$bindir/rp-report" --format folded --path $j "$work/$n" >"$work/$n.folded$j" 2>/dev/null || exit 1
        j=$((j + 1))
    done
    "$bindir/rp-report" --format folded --path rank "$work/$n" >"$work/$n.folded$k" 2>/dev/null || exit 1
    "$bindir/rp-report" --format folded --path mpi "$work/$n" >"$work/$n.folded$((k + 1))" 2>/dev/null || exit 1
done
grep -q 'warning' "$work/m.err" || { echo "FAIL: prof: loss counters not warned about on stderr"; fails=$((fails + 1)); }
# a broken copy: a sample naming a frame that does not exist
python3 - "$work" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1] + "/m.json"))
d["profiles"][0]["samples"][0] = [len(d["shared"]["frames"])]
json.dump(d, open(sys.argv[1] + "/bad.json", "w"))
PY
cp "$work/m.report" "$work/bad.report"
for j in 0 1 2 3 4 5 6 7 8; do
    [ -f "$work/m.folded$j" ] && cp "$work/m.folded$j" "$work/bad.folded$j"
done
for n in m t bad; do
    load "$n" sandwich || fails=$((fails + 1))
done
shot m || fails=$((fails + 1))

# check NAME: 0 if everything holds
cat >"$work/check.py" <<'PY'
import html, json, re, sys
import jsonschema
w, n, schema_path = sys.argv[1], sys.argv[2], sys.argv[3]
bad = 0
def check(ok, what):
    global bad
    print(("ok: " if ok else "FAIL: ") + n + ": " + what)
    bad += not ok
d = json.load(open(f"{w}/{n}.json"))
rep = json.load(open(f"{w}/{n}.report"))
k = rep["k"]
try:
    jsonschema.validate(d, json.load(open(schema_path)))
    check(True, "valid against speedscope's file-format-schema.json")
except jsonschema.ValidationError as e:
    check(False, "schema: " + e.message[:200])
frames = d["shared"]["frames"]
profs = d["profiles"]
check(len(profs) == k + 2, f"{len(profs)} profiles = k + 2 = {k + 2}")
check(all(0 <= i < len(frames) for p in profs for s in p["samples"] for i in s),
      "every sample names existing frames")
# the profiles against the folded stacks of the same columns (us, rounded)
def name(fi): return frames[fi]["name"].replace(";", ":") if 0 <= fi < len(frames) else "?"
for j, p in enumerate(profs):
    fold = {}
    for line in open(f"{w}/{n}.folded{j}"):
        st, v = line.rstrip("\n").rsplit(" ", 1)
        fold[st] = fold.get(st, 0) + int(v)
    mine = {}
    for s, wt in zip(p["samples"], p["weights"]):
        st = ";".join(name(i) for i in s)
        mine[st] = mine.get(st, 0) + wt
    same = set(fold) == {s for s, v in mine.items() if (round(v * 1e9) + 500) // 1000 > 0} and \
        all(abs(mine[s] * 1e6 - fold[s]) <= 1 for s in fold)
    check(same, f"profile {j} ({p['name'][:40]}) = folded column: {len(fold)} stacks")
    check(abs(p["endValue"] - sum(p["weights"])) < 1e-6, f"profile {j} endValue = sum of weights")
for j in range(k):
    check(("%g%%" % rep["paths"][j]["percentile"]) in profs[j]["name"] and
          ("%.6f s" % rep["paths"][j]["cost_seconds"]) in profs[j]["name"] and
          ("(%s)" % rep["paths"][j]["level"]) in profs[j]["name"],
          f"profile {j} named by its percentile, what it is and cost {rep['paths'][j]['cost_seconds']}")

# what speedscope's importer made of it
dom = open(f"{w}/{n}.dom", encoding="utf-8").read()
log = open(f"{w}/{n}.log", encoding="utf-8", errors="replace").read()
check("Importing as speedscope json file" in log, "speedscope's importer recognised the file")
check("Failed to load format" not in log and "Unrecognized format" not in log,
      "the import did not fail" + "".join("; " + l[-200:] for l in log.splitlines()
                                          if "CONSOLE" in l and "Failed to load" in l))
t = re.search(r"<title>(.*?)</title>", dom, re.S)
check(t is not None and html.unescape(t.group(1)) == d["name"] + " - speedscope",
      "page title is the file's name")
check(f"(1/{k + 2})" in dom, f"speedscope lists {k + 2} profiles")
UNIT = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}
def secs(txt):
    m = re.match(r"\s*([0-9.]+)\s*(ns|µs|us|ms|s|min|h)\b", html.unescape(txt))
    return float(m.group(1)) * UNIT[m.group(2)] if m else None
def close(a, b): return a is not None and abs(a - b) <= 0.006 * b + 1e-9
# profile list: name and total weight of each profile
plist = re.findall(r'<tr title="([^"]*)"[^>]*><td[^>]*>\d+</td><td[^>]*><span>[^<]*</span></td><td[^>]*>([^<]*)</td></tr>', dom)
check(len(plist) == k + 2 and all(html.unescape(t) == p["name"] and close(secs(v), p["endValue"])
                                  for (t, v), p in zip(plist, profs)),
      f"profile list: names and totals ({len(plist)} rows)")
# sandwich view of the first profile: self and total per function
self_t, tot_t = {}, {}
for s, wt in zip(profs[0]["samples"], profs[0]["weights"]):
    f0 = frames[s[-1]]["name"]
    self_t[f0] = self_t.get(f0, 0) + wt
    for fn in {frames[i]["name"] for i in s}:
        tot_t[fn] = tot_t.get(fn, 0) + wt
rows = re.findall(r'<tr class="[^"]*"><td[^>]*>([^<]*)<div.*?</td><td[^>]*>([^<]*)<div.*?</td>'
                  r'<td[^>]*><span[^>]*></span>([^<]*)</td></tr>', dom)
check(len(rows) >= min(3, len(self_t)), f"sandwich view: {len(rows)} function rows")
for tot, slf, fn in rows:
    fn = html.unescape(fn)
    ok = fn in tot_t and close(secs(tot), tot_t[fn]) and close(secs(slf), self_t.get(fn, 0))
    check(ok, f"sandwich: {fn} total {html.unescape(tot)} self {html.unescape(slf)}")
sys.exit(1 if bad else 0)
PY
for n in m t; do
    python3 "$work/check.py" "$work" "$n" "$ss/dist/release/file-format-schema.json" || fails=$((fails + 1))
done
# the broken copy must fail these checks, speedscope's importer included
python3 "$work/check.py" "$work" bad "$ss/dist/release/file-format-schema.json" >"$work/bad.out" 2>&1
if grep -q '^FAIL: bad: the import did not fail' "$work/bad.out" &&
   grep -q '^FAIL: bad: every sample names existing frames' "$work/bad.out"; then
    echo "ok: the broken copy is rejected by speedscope's importer and by the checks ($(grep -c '^FAIL' "$work/bad.out") checks fail)"
else
    echo "FAIL: a file with a sample naming a missing frame was not rejected:"; cat "$work/bad.out"
    fails=$((fails + 1))
fi
png="$top_build/tests/speedscope_m.png"
if [ -f "$png" ] && [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = "211PNG" ] && [ "$(wc -c <"$png")" -gt 10000 ]; then
    echo "ok: screenshot $png"
else
    echo "FAIL: screenshot $png"; fails=$((fails + 1))
fi
[ $fails -eq 0 ]
