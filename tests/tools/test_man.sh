#!/bin/sh
# test_man.sh - the manual pages (doc/man/) against the code they describe,
# so that a page cannot drift from its tool or from the library:
#  1. options: every option a tool's parser accepts (rp-report.c's and
#     rp-merge.c's string literals in main(), rp-run.in's case patterns) is
#     tagged in its page's OPTIONS section and listed by its --help; every
#     option the page or --help tags is accepted (run with it, the tool
#     does not say "unknown option"); --help points at the page.
#  2. every page renders without a warning (man --warnings, groff -ww) and
#     has the sections a page of its section needs; lexgrog reads its NAME.
#  3. rpprof(7): every RP_* variable the library reads (lib/core/config.c and
#     every getenv in lib/) and every counter of lib/core/counters.def is
#     tagged, every RP_* tagged is read; and the generated blocks (settings
#     from doc/environment.md, counters from counters.def) are fresh
#     (doc/man/gen_man.py --check).
# Exit 0 pass, 1 fail.
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
py=${PYTHON:-python3}
man_dir=$top_src/doc/man
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "PASS: $*"; }
for f in "$bindir/rp-run" "$bindir/rp-report" "$bindir/rp-merge"; do
    [ -e "$f" ] || { echo "test_man.sh: $f not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/rp-man-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# runtool TOOL ARGS...: the tool from the build tree (rp-run is a script)
runtool() {
    t=$1; shift
    if [ "$t" = rp-run ]; then sh "$bindir/rp-run" "$@"; else "$bindir/$t" "$@"; fi
}

# ---- 1. options -------------------------------------------------------------
# options.py KIND FILE: one option a line
cat >"$work/options.py" <<'PY'
import re, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
opts = set()
if kind == "c":          # string literals "-x", "--long", "--long=" in main()
    body = text[text.index("int main("):]
    opts = {m.group(1) for m in re.finditer(r'"(--?[A-Za-z][A-Za-z0-9-]*)=?"', body)}
elif kind == "sh":       # the case patterns of the option loop
    body = text[text.index("while [ $# -gt 0 ]; do"):]
    body = body[:body.index("\ndone")]
    for m in re.finditer(r'^\s*(-[^)\s]*)\)', body, re.M):
        opts |= {w for w in m.group(1).split("|") if re.match(r"--?[A-Za-z]", w)}
elif kind == "man":      # the tags (the line after .TP) of the OPTIONS section
    m = re.search(r'^\.SH OPTIONS\n(.*?)(?=^\.SH )', text, re.S | re.M)
    if m:
        lines = m.group(1).split("\n")
        for i, l in enumerate(lines[:-1]):
            if l.startswith(".TP"):
                tag = lines[i + 1].replace("\\-", "-")
                opts |= set(re.findall(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)', tag))
elif kind == "help":     # the option column of --help: lines that start with spaces and a dash
    for l in text.split("\n"):
        if re.match(r'^ {1,8}-', l):
            opts |= set(re.findall(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)', l))
print("\n".join(sorted(opts)))
PY
opts() { "$py" "$work/options.py" "$@" | sort -u; }

for t in rp-run rp-report rp-merge; do
    page=$man_dir/$t.1
    case $t in
        rp-run) opts sh "$top_src/tools/run/rp-run.in" >"$work/$t.parser" ;;
        rp-report) opts c "$top_src/tools/report/rp-report.c" >"$work/$t.parser" ;;
        rp-merge) opts c "$top_src/tools/merge/rp-merge.c" >"$work/$t.parser" ;;
    esac
    opts man "$page" >"$work/$t.man"
    runtool "$t" --help >"$work/$t.help.txt" 2>&1 || fail "$t --help: exit status $?"
    opts help "$work/$t.help.txt" >"$work/$t.help"
    n=$(wc -l <"$work/$t.parser")
    [ "$n" -ge 6 ] || fail "$t: only $n options found in its parser (the test's reader is out of date)"
    for o in $(cat "$work/$t.parser"); do
        grep -qx -- "$o" "$work/$t.man" || fail "$t: option $o is accepted but not documented in doc/man/$t.1 (OPTIONS)"
        grep -qx -- "$o" "$work/$t.help" || fail "$t: option $o is accepted but not listed by $t --help"
    done
    # every option the page or --help shows is accepted by the tool itself
    for o in $(cat "$work/$t.man" "$work/$t.help" | sort -u); do
        grep -qx -- "$o" "$work/$t.parser" || fail "$t: $o is documented but not in the parser"
        runtool "$t" "$o" /nonexistent-rp-man-test >/dev/null 2>"$work/err" </dev/null
        if grep -qi "unknown option" "$work/err"; then
            fail "$t: documented option $o is refused: $(head -n 1 "$work/err")"
        fi
    done
    # a short synopsis that points at the page
    lines=$(wc -l <"$work/$t.help.txt")
    [ "$lines" -le 30 ] || fail "$t --help: $lines lines; a synopsis is at most 30 (the details go to doc/man/$t.1)"
    grep -q "$t(1)" "$work/$t.help.txt" || fail "$t --help does not point at $t(1)"
    pass "$t: $n options, each in --help and in $t(1); each documented one accepted"
done

# rp-report --help prints --check-bins' range from tools/common/oracle.h: the
# page must state the same
range=$(sed -n 's/.*--check-bins N.*(\([0-9]*\.\.[0-9]*\)).*/\1/p' "$work/rp-report.help.txt")
if [ -z "$range" ]; then
    fail "rp-report --help: no range for --check-bins"
elif ! grep -A10 'check\\-bins " ' "$man_dir/rp-report.1" | grep -q "($range;"; then
    fail "rp-report.1: --check-bins is not documented with the range $range of rp-report --help"
fi

# ---- 2. rendering ------------------------------------------------------------
have_man=0
command -v man >/dev/null 2>&1 && have_man=1
have_groff=0
command -v groff >/dev/null 2>&1 && have_groff=1
[ $have_man = 1 ] || [ $have_groff = 1 ] || fail "neither man nor groff: cannot render the pages"
for page in "$man_dir"/rp-run.1 "$man_dir"/rp-report.1 "$man_dir"/rp-merge.1 "$man_dir"/rpprof.7; do
    name=$(basename "$page")
    if [ $have_man = 1 ]; then
        LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -l "$page" >"$work/out" 2>"$work/err"
        rc=$?
        if [ $rc -ne 0 ] || [ -s "$work/err" ] || [ ! -s "$work/out" ]; then
            fail "$name: man --warnings -l: exit $rc: $(head -n 5 "$work/err")"
        fi
    fi
    if [ $have_groff = 1 ]; then
        groff -man -k -ww -z "$page" >"$work/out" 2>"$work/err"
        rc=$?
        [ $rc -eq 0 ] && [ ! -s "$work/err" ] || fail "$name: groff -man -ww: exit $rc: $(head -n 5 "$work/err")"
    fi
    case $name in
        *.1) secs="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS EXAMPLES SEE_ALSO" ;;
        *) secs="NAME SYNOPSIS DESCRIPTION SETTINGS COUNTERS MEASUREMENT_DIRECTORY SEE_ALSO" ;;
    esac
    for s in $secs; do
        s=$(echo "$s" | tr _ ' ')
        grep -qx "\\.SH $s" "$page" || fail "$name: no section $s"
    done
    # the NAME line as whatis/apropos read it
    if command -v lexgrog >/dev/null 2>&1; then
        lexgrog "$page" >"$work/out" 2>&1 || fail "$name: lexgrog cannot parse NAME: $(cat "$work/out")"
    fi
    grep -q '[^ -~]' "$page" && fail "$name: not plain ASCII (use roff escapes)"
    pass "$name renders without warnings"
done

# ---- 3. rpprof(7): variables and counters ------------------------------------
page=$man_dir/rpprof.7
# tags SECTION: the tags of that section of rpprof(7), the first word after
# .B/.BR on the line after .TP
tags() {
    awk -v want=".SH $1" '/^\.SH / { sec = $0 }
        sec == want && prev ~ /^\.TP/ && /^\.BR? / { print $2 } { prev = $0 }' "$page" |
        tr -d '"' | sort -u
}
tags SETTINGS >"$work/settings"
tags COUNTERS >"$work/counter_tags"
{
    grep -o '"RP_[A-Z0-9_]*"' "$top_src/lib/core/config.c"
    find "$top_src/lib" -name '*.c' -exec grep -ho 'getenv("RP_[A-Z0-9_]*")' {} +
} | grep -o 'RP_[A-Z0-9_]*' | sort -u >"$work/vars"
[ "$(wc -l <"$work/vars")" -ge 10 ] || fail "only $(wc -l <"$work/vars") RP_ variables found in lib/ (the test's reader is out of date)"
for v in $(cat "$work/vars"); do
    grep -qx "$v" "$work/settings" || fail "rpprof.7: $v is read by the library but not documented (SETTINGS; doc/environment.md's table, then doc/man/gen_man.py)"
done
for v in $(cat "$work/settings"); do
    grep -qx "$v" "$work/vars" || fail "rpprof.7: $v is documented but the library does not read it"
done
sed -n 's/^RP_COUNTER([^,]*, *"\([^"]*\)".*/\1/p' "$top_src/lib/core/counters.def" >"$work/counters"
[ "$(wc -l <"$work/counters")" -ge 10 ] || fail "only $(wc -l <"$work/counters") counters read from counters.def"
for c in $(cat "$work/counters"); do
    grep -qx "$c" "$work/counter_tags" || fail "rpprof.7: counter $c of lib/core/counters.def is not documented (run doc/man/gen_man.py)"
done
"$py" "$man_dir/gen_man.py" --check "$top_src" >"$work/out" 2>&1 || fail "$(cat "$work/out")"
pass "rpprof.7: $(wc -l <"$work/vars") RP_ variables, $(wc -l <"$work/counters") counters; generated blocks fresh"

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
