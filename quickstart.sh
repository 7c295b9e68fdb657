#!/bin/bash
# quickstart.sh - build rpprof from this checkout and try it, on a fresh
# Debian 12 (or Ubuntu) machine.
#
#   bash quickstart.sh demo   install what is missing (apt-get, as root),
#                             build into ./_build, install into ./_inst, run
#                             examples/imbalance on 4 ranks under the profiler
#                             and print its report
#   bash quickstart.sh test   the same set-up (and speedscope from npm into
#                             ./_npm, for its test), then `make check`, then the
#                             non-MPI tests again with the core and tools built
#                             under -fsanitize=address,undefined in ./_build-asan,
#                             then the profiler built for SimGrid's SMPI in
#                             ./_build-smpi and tests/smpi/test_smpi.sh (8
#                             simulated ranks; doc/smpi.md),
#                             then the whole `make check` against MPICH
#                             (MPICC=mpicc.mpich) in ./_build-mpich; prints the
#                             logs of failing tests and ends with the line
#                             "N passed, N failed" covering all passes (exit
#                             status 1 if any failed)
#
# Environment: JOBS (parallel make jobs, default 2), NP (demo ranks, default
# 4), CONFIGURE_FLAGS (extra ./configure arguments), SKIP_APT=1 (never call
# apt-get), MPICH=0 (test: no MPICH pass; said so in the summary).  apt-get is
# only used when a package is missing, so a machine that has everything
# works offline.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=$ROOT/_build
SAN_BUILD=$ROOT/_build-asan
SMPI_BUILD=$ROOT/_build-smpi
MPICH_BUILD=$ROOT/_build-mpich
PREFIX=$ROOT/_inst
JOBS=${JOBS:-2}
NP=${NP:-4}

PACKAGES="build-essential autoconf automake libtool pkg-config openmpi-bin libopenmpi-dev
libunwind-dev libdw-dev libelf-dev python3 gfortran graphviz valgrind mpich libmpich-dev
chromium python3-jsonschema man-db elfutils libsimgrid-dev"   # chromium: the headless-browser tests of --format html and
                               # speedscope; python3-jsonschema: speedscope's schema;
                               # man-db (groff): tests/tools/test_man.sh renders the pages;
                               # elfutils (eu-stack): a hung test run's stacks in its log
# speedscope (npm; Debian has no package): its own importer reads
# rp-report --format speedscope in tests/tools/test_speedscope.sh.  Pinned:
# the test reads speedscope's page, whose markup may change between versions.
SPEEDSCOPE_PKG=speedscope@1.25.0

say() { printf '\n==> [%s] %s\n' "$(date +%T)" "$*"; }   # the time: where CI's minutes go
die() { printf 'quickstart: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 2
}

# ---- 1. dependencies ------------------------------------------------------
install_deps() {
    local missing=() p
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian-like system: not installing packages (see doc/dependencies.md)"
        return 0
    fi
    for p in $PACKAGES; do
        if [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | cut -c2)" != i ]; then
            missing+=("$p")
        fi
    done
    # npm: Debian's package, unless an npm is already there (e.g. NodeSource's nodejs)
    command -v npm >/dev/null 2>&1 || missing+=(npm)
    if [ ${#missing[@]} -eq 0 ]; then
        say "all build dependencies are installed"
        return 0
    fi
    say "installing: ${missing[*]}"
    if [ "${SKIP_APT:-0}" = 1 ]; then
        echo "SKIP_APT=1: not installing; the build may fail"
        return 0
    fi
    local sudo=
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "missing packages (${missing[*]}); run as root or install them"
        sudo=sudo
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q || echo "apt-get update failed; trying the install anyway"
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" ||
        die "apt-get install failed (offline?); install these packages: ${missing[*]}"
}

# speedscope into $ROOT/_npm for tests/tools/test_speedscope.sh (needs the
# network once; an existing copy is kept, so later runs work offline)
install_speedscope() {
    if [ -f "$ROOT/_npm/node_modules/speedscope/dist/release/index.html" ]; then
        say "speedscope is installed in $ROOT/_npm"
        return 0
    fi
    say "npm install --prefix $ROOT/_npm $SPEEDSCOPE_PKG (for tests/tools/test_speedscope.sh)"
    command -v npm >/dev/null 2>&1 || { echo "npm not found: test_speedscope.sh will fail"; return 0; }
    npm install --prefix "$ROOT/_npm" --no-audit --no-fund "$SPEEDSCOPE_PKG" ||
        echo "npm install failed (offline?): test_speedscope.sh will fail"
}

# ---- 2. build and install -------------------------------------------------
build() {
    cd "$ROOT"
    say "autoreconf -fi"
    autoreconf -fi
    say "configure (build directory $BUILD, prefix $PREFIX)"
    mkdir -p "$BUILD"
    cd "$BUILD"
    # shellcheck disable=SC2086
    "$ROOT/configure" --prefix="$PREFIX" ${CONFIGURE_FLAGS:-}
    say "make -j$JOBS install"
    make -j"$JOBS"
    make -j"$JOBS" install
}

# Open MPI in a container, as root, with more ranks than cores
mpi_env() {
    MPIRUN_FLAGS=()
    if mpirun --version 2>&1 | grep -q -e 'Open MPI' -e OpenRTE; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_MCA_btl_vader_single_copy_mechanism=none
        export OMPI_MCA_btl_base_warn_component_unused=0
        MPIRUN_FLAGS=(--oversubscribe)
    fi
}

# ---- demo -------------------------------------------------------------------
demo() {
    install_deps
    build
    mpi_env
    local dir=$BUILD/rpprof-demo
    rm -rf "$dir"
    cd "$BUILD/examples"
    say "the demo: examples/imbalance, a 1-D stencil whose rank 0 does 4x the work of the others"
    echo "    every iteration; look at the path-length distribution (the 100 % path runs through"
    echo "    heavy() on rank 0, the 0 % path has none of it) and the 100-0% column of the tree."
    say "mpirun -np $NP $PREFIX/bin/rp-run --period 1000 ./imbalance    (RP_OUTPUT=$dir)"
    RP_OUTPUT=$dir mpirun -np "$NP" "${MPIRUN_FLAGS[@]}" -x RP_OUTPUT "$PREFIX/bin/rp-run" --period 1000 ./imbalance
    say "$PREFIX/bin/rp-report $dir"
    "$PREFIX/bin/rp-report" "$dir"
    "$PREFIX/bin/rp-report" --format html -o "$dir/report.html" "$dir" &&
        say "HTML report (one file, open it in any browser): $dir/report.html"
    "$PREFIX/bin/rp-report" --format speedscope -o "$dir/report.speedscope.json" "$dir" &&
        say "speedscope profiles (open in https://www.speedscope.app or \`npx speedscope\`): $dir/report.speedscope.json"
    say "done.  Also try: $PREFIX/bin/rp-report --format json $dir"
}

# ---- test -------------------------------------------------------------------
count_results() { # prints "pass fail skip" from the .trs files under the given build directories
    find "$@" -name '*.trs' -exec grep -h '^:test-result:' {} + 2>/dev/null |
        awk '{ r = $2 }
             r == "PASS" || r == "XFAIL" { p++ }
             r == "FAIL" || r == "ERROR" || r == "XPASS" { f++ }
             r == "SKIP" { s++ }
             END { printf "%d %d %d\n", p, f, s }'
}

# Sanitizer pass: the core and the tools under ASan/UBSan, in a second build
# directory, running the tests that need no mpirun.  (The preloaded runtime
# cannot run under ASan - the ASan runtime must be the first library of the
# process - so MPI jobs are checked under valgrind instead,
# tests/robust/test_fault_valgrind.sh.)
SAN_TESTS="tests/unit_select tests/unit_summary tests/unit_chain tests/unit_pathset tests/unit_commit
tests/unit_phasestats tests/unit_cct tests/test_rpfile tests/test_rpjob tests/test_fold tests/test_prune tests/test_pop
tests/test_diff_units tests/tools/test_diff.sh tests/tools/test_jobfile.sh
tests/tools/test_tools.sh tests/robust/test_hostile_tools.sh"
sanitize() {
    local san='-fsanitize=address,undefined'
    say "sanitizer pass: configure in $SAN_BUILD with $san"
    mkdir -p "$SAN_BUILD"
    cd "$SAN_BUILD"
    find "$SAN_BUILD" -name '*.trs' -delete 2>/dev/null || true
    # shellcheck disable=SC2086
    "$ROOT/configure" -q CFLAGS="-O1 -g $san -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
        LDFLAGS="$san" ${CONFIGURE_FLAGS:-} || return 1
    say "sanitizer pass: make check (non-MPI tests)"
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        make -j"$JOBS" check TESTS="$(echo $SAN_TESTS)"
}

# SMPI pass: the profiler built against SimGrid's SMPI (doc/smpi.md), so the
# port that measures rpprof's cost at thousands of simulated ranks cannot
# rot.  Only the library is built (the tools and the other tests need a real
# MPI); its one test runs through automake's test driver, so it is counted
# like the others.
smpi_pass() {
    say "SMPI pass: configure in $SMPI_BUILD with MPICC=smpicc"
    if ! command -v smpicc >/dev/null 2>&1; then
        echo "smpicc not found: install libsimgrid-dev"
        return 1
    fi
    mkdir -p "$SMPI_BUILD/tests/smpi"
    cd "$SMPI_BUILD"
    find "$SMPI_BUILD" -name '*.trs' -delete 2>/dev/null || true
    # shellcheck disable=SC2086
    "$ROOT/configure" -q MPICC=smpicc MPI_CFLAGS=-I/usr/include/smpi MPI_LIBS=-lsimgrid \
        --disable-shim ${CONFIGURE_FLAGS:-} || return 1
    make -j"$JOBS" lib/librpprof-mpi.la lib/librpprof-smpi.la || return 1
    say "SMPI pass: tests/smpi/test_smpi.sh"
    "$ROOT/build-aux/test-driver" --test-name tests/smpi/test_smpi.sh \
        --log-file tests/smpi/test_smpi.log --trs-file tests/smpi/test_smpi.trs \
        --color-tests no --enable-hard-errors yes --expect-failure no -- \
        bash "$ROOT/tests/smpi/test_smpi.sh" "$SMPI_BUILD" "$BUILD/tools/rp-report"
}

# MPICH pass: the whole suite once more, built against MPICH (Debian's
# side-by-side mpicc.mpich / mpiexec.mpich; Open MPI stays the default
# mpicc/mpirun).  What differs is in doc/mpich.md.
mpich_pass() {
    say "MPICH pass: configure in $MPICH_BUILD with MPICC=mpicc.mpich"
    if ! command -v mpicc.mpich >/dev/null 2>&1; then
        echo "mpicc.mpich not found: install mpich libmpich-dev, or run with MPICH=0"
        return 1
    fi
    mkdir -p "$MPICH_BUILD"
    cd "$MPICH_BUILD"
    find "$MPICH_BUILD" -name '*.trs' -delete 2>/dev/null || true
    # shellcheck disable=SC2086
    "$ROOT/configure" -q MPICC=mpicc.mpich ${CONFIGURE_FLAGS:-} || return 1
    grep -E '^(MPIRUN|MPIFC|MPICXX|RP_MPI_FLAVOR) =' Makefile
    say "MPICH pass: make check"
    make -j"$JOBS" || return 1
    make -j"$JOBS" check
}

# The ten longest tests of all passes (a log's birth to its result file;
# a timing test's wait for the lock included): where CI's minutes go.
# Silent where the file system keeps no birth time.
slowest_tests() {
    local trs log born
    while IFS= read -r trs; do
        log=${trs%.trs}.log
        born=$(stat -c %W "$log" 2>/dev/null) || continue
        [ "${born:-0}" -gt 0 ] 2>/dev/null || continue
        echo "$(( $(stat -c %Y "$trs") - born )) ${trs#"$ROOT"/}"
    done < <(find "$@" -name '*.trs' 2>/dev/null) | sort -rn | head -10 |
        awk 'NR == 1 { print "\nlongest tests (seconds):" } { printf "  %5d  %s\n", $1, $2 }'
}

run_tests() {
    install_deps
    install_speedscope
    build
    mpi_env
    # installing MPICH beside Open MPI must not have changed the default
    if ! mpicc --showme:compile >/dev/null 2>&1; then
        echo "note: the default mpicc is not Open MPI; the main pass tests $(command -v mpicc)"
    fi
    cd "$BUILD"
    find "$BUILD" -name '*.trs' -delete 2>/dev/null || true
    say "make -j$JOBS check"
    local rc=0
    make -j"$JOBS" check || rc=$?
    sanitize || rc=$?
    smpi_pass || rc=$?
    local dirs=("$BUILD" "$SAN_BUILD" "$SMPI_BUILD") mpich_note=
    if [ "${MPICH:-1}" = 0 ]; then
        mpich_note="MPICH pass not run (MPICH=0)"
    else
        mpich_pass || rc=$?
        dirs+=("$MPICH_BUILD")
    fi
    local pass fail skip trs d p f s
    for d in "${dirs[@]}"; do
        read -r p f s < <(count_results "$d")
        printf '%-40s %d passed, %d failed%s\n' "${d#"$ROOT"/}:" "$p" "$f" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
    done
    [ -n "$mpich_note" ] && echo "$mpich_note"
    read -r pass fail skip < <(count_results "${dirs[@]}")
    if [ "$fail" -gt 0 ] || [ "$rc" != 0 ]; then
        say "failing tests"
        while IFS= read -r trs; do
            if grep -q -E '^:test-result: (FAIL|ERROR|XPASS)' "$trs"; then
                echo "================ ${trs%.trs}.log ================"
                cat "${trs%.trs}.log" 2>/dev/null || echo "(no log)"
            fi
        done < <(find "${dirs[@]}" -name '*.trs' 2>/dev/null | sort)
        if [ "$rc" != 0 ] && [ "$fail" -eq 0 ]; then
            echo "make check failed (exit $rc) before any test failed: see the build output above"
            fail=1
        fi
    fi
    slowest_tests "${dirs[@]}" || true   # informative only: never the verdict
    [ "$skip" -gt 0 ] && echo "$skip skipped"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

case ${1:-} in
demo) demo ;;
test) run_tests ;;
*) usage ;;
esac
