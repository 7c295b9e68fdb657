# RP_CHECK_MPI: find an MPI C compiler wrapper and derive MPI_CFLAGS/MPI_LIBS
# from it, so that the runtime (a libtool library) is built with the plain C
# compiler but against the same MPI.  MPICC=... or --with-mpicc=... select
# another MPI (e.g. mpicc.mpich).  Fails with a clear message if none works.
AC_DEFUN([RP_CHECK_MPI], [
  AC_ARG_WITH([mpicc],
    [AS_HELP_STRING([--with-mpicc=PROG], [MPI C compiler wrapper (default: $MPICC or mpicc)])],
    [MPICC="$withval"])
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper used to find MPI (default mpicc)])
  AS_IF([test -z "$MPICC"], [AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich], [])])
  AS_IF([test -z "$MPICC"], [AC_MSG_ERROR([no MPI C compiler found.
  rpprof needs an MPI implementation (Open MPI or MPICH).  On Debian/Ubuntu:
      apt-get install libopenmpi-dev openmpi-bin
  or point configure at one:  ./configure MPICC=/path/to/mpicc])])
  AC_MSG_CHECKING([MPI flavour of $MPICC])
  RP_MPI_FLAVOR=unknown
  AS_IF([$MPICC --showme:compile >/dev/null 2>&1], [
      RP_MPI_FLAVOR=openmpi
      rp_mpi_cflags=`$MPICC --showme:compile`
      rp_mpi_libs=`$MPICC --showme:link`
    ], [basename "$MPICC" | grep -q '^smpicc'], [
      dnl SimGrid's SMPI (doc/smpi.md): no --showme;
      dnl the flags come from MPI_CFLAGS/MPI_LIBS (-I/usr/include/smpi, -lsimgrid).
      RP_MPI_FLAVOR=smpi
      rp_mpi_cflags=-I/usr/include/smpi
      rp_mpi_libs=-lsimgrid
    ], [$MPICC -compile_info >/dev/null 2>&1], [
      RP_MPI_FLAVOR=mpich
      rp_mpi_cflags=`$MPICC -compile_info | $SED -e 's/^[[^ ]]* //' -e 's/ -c / /' | tr ' ' '\n' | grep -E '^-(I|D)' | tr '\n' ' '`
      rp_mpi_libs=`$MPICC -link_info | $SED -e 's/^[[^ ]]* //' | tr ' ' '\n' | grep -E '^-(L|l|Wl)' | tr '\n' ' '`
    ])
  AC_MSG_RESULT([$RP_MPI_FLAVOR])
  MPI_CFLAGS="${MPI_CFLAGS-$rp_mpi_cflags}"
  MPI_LIBS="${MPI_LIBS-$rp_mpi_libs}"
  rp_save_CFLAGS=$CFLAGS; rp_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $MPI_CFLAGS"; LIBS="$MPI_LIBS $LIBS"
  AC_MSG_CHECKING([whether MPI programs link (PMPI_Init)])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                   [[int a=0; char **v=0; return PMPI_Init(&a,&v);]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([cannot link an MPI program with $MPICC (cflags: $MPI_CFLAGS, libs: $MPI_LIBS).
  Install the MPI development package (apt-get install libopenmpi-dev) or set MPICC=.])])
  CFLAGS=$rp_save_CFLAGS; LIBS=$rp_save_LIBS
  MPI_BINDIR=`dirname "$MPICC"`
  AS_IF([test "$RP_MPI_FLAVOR" = mpich], [AC_PATH_PROGS([MPIFC], [mpif90.mpich mpifort.mpich mpif90], [])],
        [AC_PATH_PROGS([MPIFC], [mpifort mpif90 mpifort.openmpi], [])])
  AS_IF([test "$RP_MPI_FLAVOR" = mpich], [AC_PATH_PROGS([MPICXX], [mpicxx.mpich mpicxx], [])],
        [AC_PATH_PROGS([MPICXX], [mpicxx mpic++ mpicxx.openmpi], [])])
  AC_SUBST([MPICC]) AC_SUBST([MPIFC]) AC_SUBST([MPICXX])
  AC_SUBST([MPI_CFLAGS]) AC_SUBST([MPI_LIBS]) AC_SUBST([RP_MPI_FLAVOR]) AC_SUBST([MPI_BINDIR])
  AM_CONDITIONAL([HAVE_MPIFC], [test -n "$MPIFC"])
  AM_CONDITIONAL([HAVE_MPICXX], [test -n "$MPICXX"])
  AC_DEFINE_UNQUOTED([RP_MPI_FLAVOR], ["$RP_MPI_FLAVOR"], [MPI implementation built against])
  dnl Under SMPI every simulated rank is a dlopen'd copy of the program and of
  dnl librpprof in one OS process: the clock is the simulated one
  dnl (lib/core/clock.c) and TLS must be global-dynamic (lib/core/tls.h).
  dnl RP_SMPI is passed as -DRP_SMPI (Makefile.am), not through config.h:
  dnl lib/core has a config.h of its own that "config.h" would find first.
  AM_CONDITIONAL([RP_SMPI], [test "$RP_MPI_FLAVOR" = smpi])
])
