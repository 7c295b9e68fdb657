/* dlnext.c - the next definition of a symbol we interpose (dlnext.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include "sampler/dlnext.h"

typedef void *(*next_fn)(const char *);

void *rp_dlnext(const char *name)
{
    static next_fn shim;
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&shim, (next_fn)dlsym(RTLD_DEFAULT, "rpprof_shim_next"), __ATOMIC_RELAXED);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    next_fn f = __atomic_load_n(&shim, __ATOMIC_RELAXED);
    return f ? f(name) : dlsym(RTLD_NEXT, name);
}
