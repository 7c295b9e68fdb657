/* tls.h - RP_TLS_IE, the TLS model of the runtime's thread-locals.
 *
 * initial-exec TLS is one load from the thread pointer, and safe in a
 * library loaded at start-up (LD_PRELOAD) or linked into the program.
 * Under SimGrid's SMPI (-DRP_SMPI, from configure MPICC=smpicc) every simulated rank dlopens its
 * own copy of the library (smpi/privatize-libs), and each copy's
 * initial-exec block would come out of glibc's small static TLS reserve,
 * which is gone after a handful of copies ("cannot allocate memory in
 * static TLS block").  global-dynamic TLS is allocated per copy instead;
 * there the cost of __tls_get_addr does not matter (no sampling). */
#ifndef RP_TLS_H
#define RP_TLS_H

#ifdef RP_SMPI
#define RP_TLS_IE __attribute__((tls_model("global-dynamic")))
#else
#define RP_TLS_IE __attribute__((tls_model("initial-exec")))
#endif

#endif
