/* dlnext.h - the next definition of a symbol we interpose. */
#ifndef RP_DLNEXT_H
#define RP_DLNEXT_H

/* The definition of NAME that a call would reach without rpprof: when
 * librpprof.so is the trampolines of lib/mpi/shim.c (this code then lives in
 * librpprof-mpi.so, loaded with dlopen and RTLD_LOCAL, whose own RTLD_NEXT
 * sees only its dependencies, not the program's Fortran MPI library nor
 * other preloads), the next after librpprof.so in the program's search
 * order; otherwise dlsym(RTLD_NEXT).  NULL if there is none. */
void *rp_dlnext(const char *name);

#endif
