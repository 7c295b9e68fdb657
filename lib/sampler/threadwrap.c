/* threadwrap.c - pthread_create interposer: threads the application creates
 * (plain pthreads, OpenMP's libgomp pool) start through a trampoline that
 * registers them for worker sampling (threads.c) and retires them at exit
 * (a pthread key destructor runs on return and on pthread_exit alike).
 *
 * Passed straight through, unchanged: RP_THREADS=0, RP_PERIOD=0, RP_MODE
 * other than prof (decided from the environment at the first call, since
 * threads may start before MPI_Init), fork children, threads whose start
 * routine lies in an MPI-stack library (Open MPI's progress/PMIx/libevent
 * threads are not the application's work), and any failure to allocate the
 * trampoline's argument.  The program's thread runs its start routine with
 * its argument and returns its value either way. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "sampler/threads.h"
#include "sampler/unwind.h"
#include "sampler/dlnext.h"
#include "sampler/sample.h"

#define RP_EXPORT_SYM __attribute__((visibility("default")))

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* Resolved once (racing first calls store the same value). */
static create_fn g_real_create;
/* -1 undecided, 0 pass through, 1 wrap (first call decides; idempotent). */
static int g_wrap = -1;
/* Retires the slot when the thread ends. */
static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static int g_key_ok;

static void on_thread_exit(void *p)
{
    (void)p;
    threads_retire_self();
}

static void make_key(void)
{
    g_key_ok = pthread_key_create(&g_key, on_thread_exit) == 0;
}

static int decide(void)
{
    int w = __atomic_load_n(&g_wrap, __ATOMIC_ACQUIRE);
    if (w >= 0)
        return w;
    w = config_threads_wanted();
    __atomic_store_n(&g_wrap, w, __ATOMIC_RELEASE);
    return w;
}

typedef struct tramp {
    void *(*fn)(void *);
    void *arg;
} tramp;

static void *tramp_start(void *p)
{
    tramp t = *(tramp *)p;
    free(p);
    if (threads_register_self() == 0 && g_key_ok)
        pthread_setspecific(g_key, (void *)1);   /* non-NULL: destructor runs */
    sample_warm_thread();
    return t.fn(t.arg);
}

RP_EXPORT_SYM int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                                 void *(*fn)(void *), void *arg)
{
    create_fn real = __atomic_load_n(&g_real_create, __ATOMIC_ACQUIRE);
    if (!real) {
        real = (create_fn)rp_dlnext("pthread_create");
        if (!real)
            return EAGAIN;
        __atomic_store_n(&g_real_create, real, __ATOMIC_RELEASE);
    }
    if (!decide() || sample_forked())
        return real(th, attr, fn, arg);
    Dl_info di;
    if (dladdr((void *)fn, &di) && di.dli_fname && sample_is_mpi_lib(di.dli_fname))
        return real(th, attr, fn, arg);
    pthread_once(&g_key_once, make_key);
    tramp *t = malloc(sizeof *t);
    if (!t)
        return real(th, attr, fn, arg);
    t->fn = fn;
    t->arg = arg;
    int rc = real(th, attr, tramp_start, t);
    if (rc != 0)
        free(t);
    return rc;
}
