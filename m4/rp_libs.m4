# RP_CHECK_LIBUNWIND / RP_CHECK_LIBDW: the sampler unwinds with libunwind's
# unw_backtrace; rp-merge symbolises with elfutils' libdw.  Both are
# required: fail with the Debian package name if missing.
AC_DEFUN([RP_CHECK_LIBUNWIND], [
  PKG_CHECK_MODULES([UNWIND], [libunwind], [],
    [rp_save_LIBS=$LIBS
     AC_CHECK_HEADER([libunwind.h], [], [AC_MSG_ERROR([libunwind.h not found.
  rpprof samples call stacks with libunwind:  apt-get install libunwind-dev])])
     AC_CHECK_LIB([unwind], [unw_backtrace], [UNWIND_LIBS=-lunwind], [AC_MSG_ERROR([libunwind (unw_backtrace) not found.
  apt-get install libunwind-dev])])
     LIBS=$rp_save_LIBS])
  AC_SUBST([UNWIND_CFLAGS]) AC_SUBST([UNWIND_LIBS])
])
AC_DEFUN([RP_CHECK_LIBDW], [
  PKG_CHECK_MODULES([DW], [libdw], [],
    [AC_CHECK_HEADER([elfutils/libdwfl.h], [], [AC_MSG_ERROR([elfutils/libdwfl.h not found.
  rp-merge symbolises with elfutils' libdw:  apt-get install libdw-dev libelf-dev])])
     AC_CHECK_LIB([dw], [dwfl_begin], [DW_LIBS="-ldw -lelf"], [AC_MSG_ERROR([libdw not found.
  apt-get install libdw-dev libelf-dev])])])
  AC_SUBST([DW_CFLAGS]) AC_SUBST([DW_LIBS])
])
