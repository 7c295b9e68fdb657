#!/bin/bash
# librpprof.so preloaded by hand into a program of the other MPI (this build
# for Open MPI, the program MPICH's, or the reverse): rpprof steps aside
# (lib/mpi/shim.c; doc/robustness.md, "Another MPI than the one rpprof was
# built for").  C, C++ and the three Fortran bindings (mpif.h, use mpi,
# use mpi_f08), built with the other MPI's compilers and run by its launcher
# at 2 ranks, with and without LD_BIND_NOW=1: exit 0, the same output as
# without librpprof.so, exactly one "rpprof:" line (launcher rank 0), no
# measurement directory.  librpprof.so itself needs no MPI library.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
lib=${RP_LIB:?RP_LIB not set}
flavor=${RP_MPI_FLAVOR:-openmpi}
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/rp_wrong_mpi.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader

if [ -L "$lib" ]; then
    # configure --disable-shim, or a CPU without trampolines: librpprof.so
    # is librpprof-mpi.so, linked with the MPI (Makefile.am)
    echo "SKIP: $lib is a link to $(readlink "$lib") (no trampolines in this build)"
    exit 77
fi

# librpprof.so is linked with no MPI; every undefined symbol it has is libc's
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case $needed in
    *libmpi*) fail "librpprof.so needs an MPI library: $needed" ;;
    *) pass "librpprof.so needs no MPI library ($needed)" ;;
esac

case $flavor in
    mpich) suf=openmpi
           launch=(mpirun.openmpi --oversubscribe -n 2)
           envflag() { printf '%s\n' -x "$1=$2"; } ;;
    *)     suf=mpich
           launch=(mpiexec.mpich -n 2)
           envflag() { printf '%s\n' -genv "$1" "$2"; } ;;
esac
for t in mpicc.$suf mpicxx.$suf mpif90.$suf; do
    command -v "$t" >/dev/null 2>&1 ||
        { fail "$t not found: this test needs both MPIs (quickstart.sh installs them)"; exit 1; }
done

cat >"$work/c.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int r, s, x, y = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    MPI_Allreduce(&r, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % s, 7, &y, 1, MPI_INT, (r + s - 1) % s, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("c %d %d %d\n", r, x, y);
    MPI_Finalize();
    return 0;
}
C
cp "$work/c.c" "$work/cxx.cc"
sed -i 's/printf("c /printf("cxx /' "$work/cxx.cc"
# fortran NAME HEADER-LINE: the same in Fortran (mpif.h and use mpi)
fortran() {
    cat >"$work/$1.f90" <<F
program t
$2
implicit none
$3
integer :: ierr, r, s, x, y, st(MPI_STATUS_SIZE)
call MPI_INIT(ierr)
call MPI_COMM_RANK(MPI_COMM_WORLD, r, ierr)
call MPI_COMM_SIZE(MPI_COMM_WORLD, s, ierr)
call MPI_ALLREDUCE(r, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
call MPI_SENDRECV(r, 1, MPI_INTEGER, mod(r + 1, s), 7, y, 1, MPI_INTEGER, mod(r + s - 1, s), 7, &
                  MPI_COMM_WORLD, st, ierr)
print '(A,1X,I0,1X,I0,1X,I0)', '$1', r, x, y
call MPI_FINALIZE(ierr)
end program
F
}
fortran fh "" "include 'mpif.h'"
fortran fmod "use mpi" ""
cat >"$work/f08.f90" <<'F'
program t
use mpi_f08
implicit none
integer :: r, s, x, y
type(MPI_Status) :: st
call MPI_Init()
call MPI_Comm_rank(MPI_COMM_WORLD, r)
call MPI_Comm_size(MPI_COMM_WORLD, s)
call MPI_Allreduce(r, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
call MPI_Sendrecv(r, 1, MPI_INTEGER, mod(r + 1, s), 7, y, 1, MPI_INTEGER, mod(r + s - 1, s), 7, &
                  MPI_COMM_WORLD, st)
print '(A,1X,I0,1X,I0,1X,I0)', 'f08', r, x, y
call MPI_Finalize()
end program
F
progs=
build() {   # NAME COMPILER SOURCE
    if "$2" "$work/$3" -o "$work/$1" >"$work/build-$1.log" 2>&1; then
        progs="$progs $1"
    else
        fail "$2 $3: $(cat "$work/build-$1.log")"
    fi
}
build c mpicc.$suf c.c
build cxx mpicxx.$suf cxx.cc
build fh mpif90.$suf fh.f90
build fmod mpif90.$suf fmod.f90
build f08 mpif90.$suf f08.f90

for p in $progs; do
    timeout 120 "${launch[@]}" "$work/$p" >"$work/$p.want" 2>"$work/$p.want.err"
    rc=$?
    if [ $rc -ne 0 ] || [ "$(wc -l <"$work/$p.want")" != 2 ]; then
        fail "$p without librpprof.so: exit $rc, $(cat "$work/$p.want" "$work/$p.want.err")"
        continue
    fi
    for bind in "" 1; do
        what="$p (${suf}) with librpprof.so${bind:+, LD_BIND_NOW=1}"
        meas=$work/meas-$p$bind
        envs=()
        while read -r a; do envs+=("$a"); done < <(envflag LD_PRELOAD "$lib"; envflag RP_OUTPUT "$meas"
                                                   [ -n "$bind" ] && envflag LD_BIND_NOW 1)
        timeout 120 "${launch[@]}" "${envs[@]}" "$work/$p" >"$work/$p.out" 2>"$work/$p.err"
        rc=$?
        n=$(grep -c "^rpprof" "$work/$p.err")
        if [ $rc -ne 0 ]; then
            fail "$what: exit $rc: $(head -c 1500 "$work/$p.err")"
        elif [ "$(sort "$work/$p.out")" != "$(sort "$work/$p.want")" ]; then
            fail "$what: output '$(cat "$work/$p.out")', without it '$(cat "$work/$p.want")'"
        elif [ "$n" != 1 ] || ! grep -q "^rpprof: this librpprof.so was built for .* rpprof is disabled for this run" "$work/$p.err"; then
            fail "$what: $n rpprof lines, expected the one step-aside line: $(cat "$work/$p.err")"
        elif [ -e "$meas" ]; then
            fail "$what: made the measurement directory $meas: $(ls -A "$meas" | tr '\n' ' ')"
        else
            pass "$what: same output, one line, no measurement directory"
        fi
    done
done

# a program without MPI, all symbols bound at load
out=$(LD_PRELOAD="$lib" LD_BIND_NOW=1 sh -c 'echo hi' 2>"$work/nonmpi.err")
if [ $? -eq 0 ] && [ "$out" = hi ] && [ ! -s "$work/nonmpi.err" ]; then
    pass "sh -c 'echo hi' with librpprof.so and LD_BIND_NOW=1"
else
    fail "sh -c 'echo hi' with librpprof.so and LD_BIND_NOW=1: '$out', $(cat "$work/nonmpi.err")"
fi
[ $fails -eq 0 ]
