#!/bin/bash
# rp-merge and rp-report on hostile measurement directories, with bounded
# memory (ulimit -v): junk everywhere, a 0-byte rank file, a rank file that
# is a directory, a FIFO, a symbolic-link loop, an unreadable file, a huge
# sparse file, and damaged merged profiles (0 bytes, junk, a directory,
# bit flips), also as either run of --diff.  Each reader must answer with a clean error naming the file
# (exit 1) or merge what it can (exit 0) - never crash, hang or blow up.
# (tests/unit/test_rpfile.c and tests/tools/check_tools.py cover truncation, CRC and
# version damage of single files; the fuzzers in tests/robust/fuzz/ the rest.)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
top_src=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_build=${RP_TOP_BUILDDIR:-$top_src}
bindir=${RP_BINDIR:-$top_build/tools}
mkrank=$top_build/tests/mkrankfiles
MERGE=$bindir/rp-merge
REPORT=$bindir/rp-report
for f in "$MERGE" "$REPORT" "$mkrank"; do
    [ -x "$f" ] || { echo "FAIL: $f not built"; exit 1; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/rp-hostile-tools.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT
FAILS=0
MEM_KB=1000000   # 1 GB of address space for every tool run

# Under AddressSanitizer (quickstart.sh's sanitizer pass) the address space
# cannot be limited (the shadow memory alone is terabytes): ASan's own
# allocation limit bounds memory instead.
if ldd "$REPORT" 2>/dev/null | grep -q libasan; then
    MEM_KB=unlimited
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=1000"
fi

# run CMD... with bounded memory and time; sets RC, OUT, ERR
tool() {
    (ulimit -v $MEM_KB; exec timeout -k 2 30 "$@") >"$W/out" 2>"$W/err" </dev/null
    RC=$?
    OUT=$(head -c 4000 "$W/out")
    ERR=$(head -c 4000 "$W/err")
}
pass() { echo "ok: $*"; }
fail() {
    FAILS=$((FAILS + 1))
    echo "FAIL: $*"
    echo "  exit $RC; stderr: $ERR"
}
# the last run ended by itself with RC in the allowed set (no signal, no timeout)
clean_exit() { # WHAT ALLOWED...
    local what=$1 r
    shift
    for r in "$@"; do [ "$RC" = "$r" ] && return 0; done
    fail "$what: exit status $RC (allowed: $*)"
    return 1
}

valid() { # DIR NRANKS: synthetic valid rank files
    rm -rf "$1"
    "$mkrank" "$1" "$2" --k 3 >/dev/null || { echo "mkrankfiles failed"; exit 1; }
}

# ---- 1. a directory of junk ------------------------------------------------
d=$W/junk
mkdir -p "$d"
for r in 0 1 2 3; do head -c $((r * 1000 + 7)) /dev/urandom >"$d/rank-0000$r.rpp"; done
printf 'RPPROF\r\n\001\000\000\000\000\000\000\000' >"$d/rank-00004.rpp"   # header only
head -c 5000 /dev/urandom >"$d/profile.rpm"
head -c 100 /dev/urandom >"$d/rank-.rpp"
: >"$d/rank-00005.rpp.tmp.1234"
tool "$MERGE" "$d"
clean_exit "rp-merge, directory of junk" 1 && [ -n "$ERR" ] && pass "rp-merge, directory of junk: $(echo "$ERR" | tail -1)"
tool "$REPORT" "$d"
clean_exit "rp-report, directory of junk" 1 && pass "rp-report, directory of junk"
tool "$REPORT" --format json "$d/profile.rpm"
clean_exit "rp-report of a junk profile.rpm" 1 && pass "rp-report of a junk profile.rpm: $ERR"
# --diff with junk on either side: refused with the reader's message
valid "$W/ok" 3
for pair in "$d $W/ok" "$W/ok $d" "$d/profile.rpm $W/ok" "$W/ok $d/profile.rpm"; do
    # shellcheck disable=SC2086
    tool "$REPORT" --diff --format json $pair
    clean_exit "rp-report --diff $pair" 1 && pass "rp-report --diff on junk: $(echo "$ERR" | tail -1)"
done

# ---- 2. one bad rank among good ones: named, the rest merged --------------
bad_rank() { # WHAT EXPECTED-MESSAGE SETUP-COMMAND (on $d/rank-00001.rpp)
    local what=$1 msg=$2
    shift 2
    d=$W/one-bad
    valid "$d" 4
    rm -f "$d/rank-00001.rpp"
    "$@" "$d/rank-00001.rpp"
    tool "$MERGE" "$d"
    clean_exit "$what: rp-merge" 0 || return
    local said
    said=$(grep -o "rank-00001.rpp: .*" "$W/err" | head -1)
    if ! grep -q "rank-00001.rpp: .*$msg" "$W/err"; then
        fail "$what: rp-merge did not name rank-00001.rpp with '$msg'"
        return
    fi
    tool "$REPORT" --format json "$d"
    clean_exit "$what: rp-report" 0 || return
    if ! grep -q '"ranks_missing": \[1\]' "$W/out"; then
        fail "$what: the report does not name rank 1 as missing"
        return
    fi
    pass "$what: rank 1 named ($said), ranks 0,2,3 merged"
}
mk_empty() { : >"$1"; }
mk_dir() { mkdir "$1"; }
mk_fifo() { mkfifo "$1"; }
mk_loop() { ln -s "$(basename "$1")" "$1"; }
mk_dangling() { ln -s /nonexistent/rank "$1"; }
mk_huge() { truncate -s 3G "$1"; }
mk_devzero() { ln -s /dev/zero "$1"; }
mk_junk_big() { { printf 'RPPROF\r\n\001\000\000\000\000\000\000\000'; head -c 20000000 /dev/zero; } >"$1"; }
bad_rank "0-byte rank file" "empty file" mk_empty
bad_rank "rank file that is a directory" "not a regular file" mk_dir
bad_rank "rank file that is a FIFO" "not a regular file" mk_fifo
bad_rank "rank file that is a symbolic-link loop" "cannot open" mk_loop
bad_rank "rank file that is a dangling link" "" mk_dangling
bad_rank "rank file that is a link to /dev/zero" "not a regular file" mk_devzero
bad_rank "3 GB sparse rank file under ulimit -v 1 GB" "" mk_huge
bad_rank "20 MB rank file of zeros after a valid header" "" mk_junk_big

# unreadable permissions: root reads anything, so drop to nobody if we can
d=$W/perm
valid "$d" 3
chmod 000 "$d/rank-00002.rpp"
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
        chmod 777 "$W" "$d"
        chmod o+r "$d"/rank-0000[01].rpp
        tool setpriv --reuid=nobody --regid=nogroup --clear-groups "$REPORT" --format json "$d"
        if clean_exit "unreadable rank file (as nobody)" 0 && grep -q 'rank-00002.rpp: .*Permission denied' "$W/err"; then
            pass "unreadable rank file: named (Permission denied), others merged"
        else
            fail "unreadable rank file: not reported as Permission denied"
        fi
    else
        echo "note: running as root without setpriv; unreadable-file case not run"
    fi
else
    tool "$REPORT" --format json "$d"
    if clean_exit "unreadable rank file" 0 && grep -q 'Permission denied' "$W/err"; then
        pass "unreadable rank file: named (Permission denied), others merged"
    else
        fail "unreadable rank file: not reported as Permission denied"
    fi
fi

# ---- 3. damaged merged profiles --------------------------------------------
d=$W/prof
valid "$d" 3
tool "$MERGE" "$d"
clean_exit "rp-merge of a valid directory" 0 || exit 1
cp "$d/profile.rpm" "$W/good.rpm"
size=$(stat -c %s "$W/good.rpm")
prof_case() { # WHAT (profile.rpm already damaged)
    # directly: a clean error; through the directory: fall back to the rank files
    tool "$REPORT" --format json "$d/profile.rpm"
    clean_exit "$1: rp-report FILE" 1 || return
    case $ERR in rp-report:*) ;; *) fail "$1: message does not start with 'rp-report:'"; return ;; esac
    touch "$d"/rank-*.rpp -d '-1 hour'     # the damaged profile is the newest
    tool "$REPORT" --format json "$d"
    clean_exit "$1: rp-report DIR" 0 || return
    grep -q '"ranks": 3' "$W/out" || { fail "$1: rp-report DIR did not merge the rank files"; return; }
    pass "$1"
}
: >"$d/profile.rpm"; prof_case "profile.rpm of 0 bytes"
head -c 3000 /dev/urandom >"$d/profile.rpm"; prof_case "profile.rpm of junk"
{ printf 'RPMERGE\n\001\000\000\000\000\000\000\000'; head -c 20000000 /dev/zero; } >"$d/profile.rpm"
prof_case "profile.rpm: header then 20 MB of zeros"
n=0
for off in 0 7 8 12 16 20 24 40 60 100 $((size / 2)) $((size - 20)) $((size - 5)) $((size - 1)); do
    for bit in 0 7; do
        cp "$W/good.rpm" "$d/profile.rpm"
        "${PYTHON:-python3}" -c 'import sys; p=sys.argv[1]; o=int(sys.argv[2]); b=int(sys.argv[3])
d=bytearray(open(p,"rb").read()); d[o]^=1<<b; open(p,"wb").write(d)' "$d/profile.rpm" "$off" "$bit"
        tool "$REPORT" --format json "$d/profile.rpm"
        if [ "$RC" != 1 ] || [ -z "$ERR" ]; then
            fail "profile.rpm with bit $bit of byte $off flipped: exit $RC"
        else
            n=$((n + 1))
        fi
    done
done
pass "profile.rpm with $n single-bit flips: each one a clean error"
rm -f "$d/profile.rpm"; mkdir "$d/profile.rpm"
tool "$REPORT" --format json "$d"
clean_exit "profile.rpm that is a directory: rp-report DIR" 0 && pass "profile.rpm that is a directory: rp-report merges the rank files"
tool "$MERGE" "$d"
clean_exit "profile.rpm that is a directory: rp-merge" 0 1 && pass "profile.rpm that is a directory: rp-merge exits $RC: $(echo "$ERR" | tail -1)"
rmdir "$d/profile.rpm"
# a read-only measurement directory: rp-report still reports
if [ "$(id -u)" != 0 ]; then
    chmod a-w "$d"
    tool "$REPORT" --format json "$d"
    clean_exit "read-only directory" 0 && pass "read-only measurement directory: report produced"
    chmod u+w "$d"
fi
# the tools on things that are not measurement directories
for x in /nonexistent "$W/good.rpm/x" /dev/null /proc/self/status; do
    tool "$REPORT" --format json "$x"
    clean_exit "rp-report $x" 1 && pass "rp-report $x: $(echo "$ERR" | head -1)"
done

if [ $FAILS -gt 0 ]; then
    echo "$FAILS check(s) failed"
    exit 1
fi
echo "all checks passed"
exit 0
