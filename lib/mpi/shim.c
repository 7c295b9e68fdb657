/* shim.c - librpprof.so itself: the library the user preloads.  It is not
 * linked with any MPI.  It exports one trampoline (lib/mpi/gen_shim.S,
 * generated from the exports of librpprof-mpi.so) for every function that
 * the profiler proper, librpprof-mpi.so, exports: the MPI C and Fortran
 * entry points and the libc calls it interposes.  A trampoline jumps through
 * its slot and touches no argument register, so a call passes on intact
 * whatever the width of the running MPI's handles.
 *
 * Before any MPI call (in its constructor, or at the first call through a
 * trampoline when no MPI was loaded yet) it looks at what the process has
 * loaded: a symbol only Open MPI's libmpi defines (ompi_mpi_comm_world) or
 * one only MPICH's (and its derivatives') defines (MPIR_Err_return_comm).
 *   - the MPI rpprof was built for: it loads librpprof-mpi.so (next to
 *     itself) and points every slot at that library's function;
 *   - the other MPI: it points every slot at the next definition in the
 *     process (dlsym RTLD_NEXT: the program's own MPI, or libc), says so in
 *     one line on the launcher's rank 0, and never loads the profiler, so
 *     nothing else happens: no second MPI in the process, no measurement
 *     directory, the job runs as without rpprof;
 *   - no MPI at all (mpirun, a shell, a non-MPI program): nothing is
 *     decided; libc calls go to libc; the first MPI call decides for good
 *     (an MPI loaded later, with dlopen), and if still no MPI can be told it
 *     loads librpprof-mpi.so, which checks again at MPI_Init
 *     (wrap_init.c rp_mpi_matches). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "mpi/launcher.h"

#ifndef RP_SHIM_BUILT
#define RP_SHIM_BUILT "unknown"
#endif
#define RP_SHIM_HIDDEN __attribute__((visibility("hidden")))

/* gen_shim.S: the slots, the number of trampolines and their names (one
 * NUL-terminated string after the other, in slot order). */
extern void *rp_shim_slot[] RP_SHIM_HIDDEN;
extern const unsigned rp_shim_n RP_SHIM_HIDDEN;
extern const char rp_shim_names[] RP_SHIM_HIDDEN;
void *rp_shim_resolve(unsigned i) RP_SHIM_HIDDEN;

enum { FAM_NONE, FAM_OPENMPI, FAM_MPICH };
static const char *const fam_name[] = {"an unknown MPI", "Open MPI", "MPICH"};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_decided;                /* under g_mu; read atomically outside */
static __thread int g_deciding;      /* this thread is in decide() */

static const char *name_at(unsigned i)
{
    const char *p = rp_shim_names;
    while (i--)
        p += strlen(p) + 1;
    return p;
}

static int built_family(void)
{
    if (!strcmp(RP_SHIM_BUILT, "openmpi"))
        return FAM_OPENMPI;
    if (!strcmp(RP_SHIM_BUILT, "mpich"))
        return FAM_MPICH;
    return FAM_NONE;
}

/* The MPI family the process has loaded, and the file that defines it. */
static int loaded_family(const char **file)
{
    void *o = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
    void *m = dlsym(RTLD_DEFAULT, "MPIR_Err_return_comm");
    int fam = FAM_NONE;
    if (o && !m)
        fam = FAM_OPENMPI;
    else if (m && !o)
        fam = FAM_MPICH;
    else if (o && m)   /* both: the one rpprof was built for is there */
        fam = built_family();
    Dl_info di;
    *file = "";
    if (fam != FAM_NONE && dladdr(fam == FAM_OPENMPI ? o : m, &di) && di.dli_fname)
        *file = di.dli_fname;
    return fam;
}

/* A function that only rpprof defines was called in a process that runs
 * without it (cannot happen for a program linked with its MPI alone). */
static void missing(void)
{
    static const char m[] = "rpprof: a function the running MPI does not define was called; "
                            "stopping (remove librpprof.so from LD_PRELOAD)\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    abort();
}

static void set_slot(unsigned i, void *f)
{
    __atomic_store_n(&rp_shim_slot[i], f ? f : (void *)missing, __ATOMIC_RELEASE);
}

/* Every slot to the next definition: rpprof steps aside. */
static void fill_next(void)
{
    const char *p = rp_shim_names;
    for (unsigned i = 0; i < rp_shim_n; i++, p += strlen(p) + 1)
        set_slot(i, dlsym(RTLD_NEXT, p));
}

static void say(const char *fmt, const char *a, const char *b, const char *c)
{
    if (!rp_launcher_rank0())
        return;
    fprintf(stderr, fmt, a, b, c);
    fflush(stderr);
}

/* Every slot to librpprof-mpi.so, which lies next to this library; when it
 * cannot be loaded rpprof steps aside. */
static void load_profiler(void)
{
    Dl_info di;
    char path[4096];
    const char *dir_end = NULL;
    if (dladdr((void *)rp_shim_resolve, &di) && di.dli_fname)
        dir_end = strrchr(di.dli_fname, '/');
    if (dir_end)
        snprintf(path, sizeof path, "%.*s/librpprof-mpi.so", (int)(dir_end - di.dli_fname),
                 di.dli_fname);
    else
        snprintf(path, sizeof path, "librpprof-mpi.so");
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        say("rpprof: cannot load %s (%s)%s; rpprof is disabled for this run\n", path,
            e ? e : "?", "");
        fill_next();
        return;
    }
    const char *p = rp_shim_names;
    for (unsigned i = 0; i < rp_shim_n; i++, p += strlen(p) + 1) {
        void *f = dlsym(h, p);
        set_slot(i, f ? f : dlsym(RTLD_NEXT, p));
    }
}

/* Decide once which way the calls go.  final: an MPI call is waiting, so
 * decide even if no MPI can be told apart.  Returns whether decided. */
static int decide(int final)
{
    pthread_mutex_lock(&g_mu);
    if (!g_decided) {
        g_deciding = 1;
        const char *file;
        int fam = loaded_family(&file);
        int built = built_family();
        if (fam == FAM_NONE && !final) {
            /* nothing to go by yet */
        } else if (fam == FAM_NONE || built == FAM_NONE || fam == built) {
            load_profiler();
            __atomic_store_n(&g_decided, 1, __ATOMIC_RELEASE);
        } else {
            fill_next();
            __atomic_store_n(&g_decided, 1, __ATOMIC_RELEASE);
            say("rpprof: this librpprof.so was built for %s but the program runs %s (%s); "
                "rpprof is disabled for this run (build rpprof with the program's MPI: "
                "configure MPICC=...)\n", fam_name[built], fam_name[fam], file);
        }
        g_deciding = 0;
    }
    int d = g_decided;
    pthread_mutex_unlock(&g_mu);
    return d;
}

static int is_mpi_name(const char *n)
{
    return !strncasecmp(n, "mpi_", 4) || !strncasecmp(n, "pmpi_", 5);
}

/* gen_shim.S rp_shim_lazy: the target of trampoline i, whose slot is empty. */
void *rp_shim_resolve(unsigned i)
{
    void *f = __atomic_load_n(&rp_shim_slot[i], __ATOMIC_ACQUIRE);
    if (f)
        return f;
    const char *name = name_at(i);
    if (!g_deciding && decide(is_mpi_name(name)))
        return __atomic_load_n(&rp_shim_slot[i], __ATOMIC_ACQUIRE);
    /* Undecided (no MPI in the process yet), or called while deciding (the
     * profiler's constructors): the next definition, libc's; kept in the
     * slot while nothing is decided (a decision rewrites every slot). */
    f = dlsym(RTLD_NEXT, name);
    if (!f)
        return (void *)missing;
    if (!g_deciding) {
        pthread_mutex_lock(&g_mu);
        if (!g_decided)
            set_slot(i, f);
        pthread_mutex_unlock(&g_mu);
    }
    return f;
}

/* The next definition after librpprof.so in the program's search order, for
 * librpprof-mpi.so, whose own RTLD_NEXT sees only its dependencies
 * (lib/sampler/dlnext.c).  Takes no lock: called while deciding. */
__attribute__((visibility("default"))) void *rpprof_shim_next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    /* no tail call: RTLD_NEXT is relative to the object dlsym returns to */
    __asm__ volatile("" ::: "memory");
    return f;
}

__attribute__((constructor)) static void shim_init(void)
{
    decide(0);
}
