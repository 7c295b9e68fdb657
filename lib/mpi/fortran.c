/* fortran.c - the Fortran layer's run time (doc/fortran.md): finding the
 * real Fortran bindings, the status sentinels, and the hand-written bodies
 * of the table's `custom` functions (init/finalize, persistent start,
 * request free/cancel, the Wait/Test families).  The entry points
 * themselves (mpi_x_, mpi_x__, mpi_x, MPI_X, mpi_x_f08_) are generated into
 * gen_fortran.c by lib/mpi/gen_fortran.py.
 *
 * Open MPI's Fortran bindings call PMPI_* directly, so the C wrappers never
 * see a Fortran call; an MPI whose bindings call MPI_* instead reaches our C
 * wrapper from inside a Fortran one, where rp_active() is false (in_mpi is
 * raised): the call passes straight through and counts once. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "mpi/hooks.h"
#include "runtime/runtime_int.h"
#include "exchange/reqtab.h"
#include "mpi/fortran.h"
#include "mpi/gen_fortran.h"
#include "sampler/dlnext.h"

/* ---- the real bindings ---------------------------------------------------- */

static void *rpf_tab[RPF_NABI][RP_FN__COUNT];

static void *sym_next(const char *name)
{
    return rp_dlnext(name);
}

/* Candidates, best first: the profiling entry of the binding in each
 * mangling, then the binding itself (the next definition of the name we
 * interpose): forwarding to it is just as correct, as its own calls go to
 * PMPI_* or, failing that, to our C wrapper that passes them through. */
static void *resolve(int fn, int abi)
{
    const char *b = rpf_names[fn];          /* "mpi_send" */
    char up[96], nm[112];
    size_t n = strlen(b);
    if (n + 1 > sizeof up)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        up[i] = (b[i] >= 'a' && b[i] <= 'z') ? (char)(b[i] - 'a' + 'A') : b[i];
    void *p = NULL;
    if (abi == RPF_F08) {
        snprintf(nm, sizeof nm, "p%s_f08_", b);
        if (!(p = sym_next(nm))) {
            snprintf(nm, sizeof nm, "%s_f08_", b);
            p = sym_next(nm);
        }
        return p;
    }
    static const char *const fmt[] = { "p%s_", "p%s__", "p%s", "P%s", "%s_", "%s__", "%s", "%s" };
    for (int i = 0; i < 8 && !p; i++) {
        int upper = (i == 3 || i == 7);
        snprintf(nm, sizeof nm, fmt[i], upper ? up : b);
        p = sym_next(nm);
    }
    return p;
}

void *rpf_real(int fn, int abi)
{
    void *p = __atomic_load_n(&rpf_tab[abi][fn], __ATOMIC_ACQUIRE);
    if (p)
        return p;
    p = resolve(fn, abi);
    if (!p) {
        /* A program that calls this entry point was linked against a
         * binding that provides it; we get here only when librpprof itself
         * was linked in place of the MPI Fortran library. */
        char msg[256];
        int len = snprintf(msg, sizeof msg,
                           "rpprof: no Fortran MPI binding found for %s%s (is the MPI "
                           "Fortran library loaded?); aborting\n",
                           rpf_names[fn], abi == RPF_F08 ? "_f08_" : "_");
        if (len > 0 && write(2, msg, (size_t)len) < 0)
            len = 0;
        abort();
    }
    __atomic_store_n(&rpf_tab[abi][fn], p, __ATOMIC_RELEASE);
    return p;
}

/* Resolve the whole table for the binding the program uses, at MPI_Init
 * (before the first task starts), so that no task pays for dlsym.  A name
 * the MPI lacks stays unresolved until (unless) it is called. */
static void resolve_all(int abi)
{
    for (int fn = 0; fn < RP_FN__COUNT; fn++)
        if (rpf_names[fn] && !rpf_tab[abi][fn]) {   /* NULL: no Fortran wrapper */
            void *p = resolve(fn, abi);
            if (p)
                __atomic_store_n(&rpf_tab[abi][fn], p, __ATOMIC_RELEASE);
        }
}

/* ---- status sentinels ----------------------------------------------------- */

/* MPI_F_STATUS(ES)_IGNORE from mpi.h are the Fortran sentinels.  Open MPI
 * also accepts its common blocks in the other manglings; a program built
 * with one of those passes that address instead.  MPICH's `use mpi_f08`
 * passes its own objects, MPIR_F08_MPI_STATUS(ES)_IGNORE_OBJ (the targets of
 * MPI 4's MPI_F08_STATUS(ES)_IGNORE), to the mpi_x_f08_ names we interpose
 * (mpi_wait_f08_, ...). */
#define RPF_NSENT 6
static const MPI_Fint *st_ign[RPF_NSENT], *sts_ign[RPF_NSENT];
static int sent_ready;

static void sentinels_init(void)
{
    static const char *const st_names[] = {
        "mpi_fortran_status_ignore_", "mpi_fortran_status_ignore__",
        "mpi_fortran_status_ignore", "MPI_FORTRAN_STATUS_IGNORE",
        "MPIR_F08_MPI_STATUS_IGNORE_OBJ" };
    static const char *const sts_names[] = {
        "mpi_fortran_statuses_ignore_", "mpi_fortran_statuses_ignore__",
        "mpi_fortran_statuses_ignore", "MPI_FORTRAN_STATUSES_IGNORE",
        "MPIR_F08_MPI_STATUSES_IGNORE_OBJ" };
    st_ign[0] = MPI_F_STATUS_IGNORE;
    sts_ign[0] = MPI_F_STATUSES_IGNORE;
    for (int i = 0; i < RPF_NSENT - 1; i++) {
        st_ign[i + 1] = dlsym(RTLD_DEFAULT, st_names[i]);
        sts_ign[i + 1] = dlsym(RTLD_DEFAULT, sts_names[i]);
    }
    sent_ready = 1;
}

static int is_sentinel(const MPI_Fint *p, const MPI_Fint *const tab[])
{
    if (!sent_ready)
        sentinels_init();
    for (int i = 0; i < RPF_NSENT; i++)
        if (tab[i] && p == tab[i])
            return 1;
    return 0;
}

int rpf_status_ignore(const MPI_Fint *st) { return is_sentinel(st, st_ign); }
int rpf_statuses_ignore(const MPI_Fint *sts) { return is_sentinel(sts, sts_ign); }

/* Fortran statuses for calls made with MPI_STATUSES_IGNORE while a tracked
 * request is involved (main thread only). */
static MPI_Fint *fst_scratch;
static size_t fst_cap;

static MPI_Fint *fstatus_scratch(int n)
{
    size_t need = (size_t)(n > 0 ? n : 1) * RPF_STATUS_SIZE;
    if (need > fst_cap) {
        MPI_Fint *p = realloc(fst_scratch, need * sizeof *p);
        if (!p)
            return NULL;
        fst_scratch = p;
        fst_cap = need;
    }
    return fst_scratch;
}

/* The C status of Fortran status i of an array. */
static void fstatus_c(const MPI_Fint *fsts, int i, MPI_Status *c)
{
    PMPI_Status_f2c((MPI_Fint *)(fsts + (size_t)i * RPF_STATUS_SIZE), c);  /* SMPI: not const */
}

/* ---- init and finalize ---------------------------------------------------- */

/* Start the runtime after a successful Fortran MPI_Init[_thread], unless it
 * has started on this thread already (an MPI whose Fortran init calls the C
 * MPI_Init, which our C wrapper started it in): rp_start sets rp_tls_main. */
static void fortran_started(int abi)
{
    if (rp_tls_main || !rp_mpi_matches())
        return;
    resolve_all(abi);
    sentinels_init();
    rp_start(&rp_mpi_self);
}

void rpf_MPI_Init(int abi, MPI_Fint *ierror)
{
    rpf_t_MPI_Init *real = (rpf_t_MPI_Init *)rpf_real(RP_FN_MPI_Init, abi);
    MPI_Fint err = MPI_SUCCESS;
    real(&err);
    if (err == MPI_SUCCESS)
        fortran_started(abi);
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Init_thread(int abi, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    rpf_t_MPI_Init_thread *real = (rpf_t_MPI_Init_thread *)rpf_real(RP_FN_MPI_Init_thread, abi);
    MPI_Fint err = MPI_SUCCESS;
    real(required, provided, &err);
    if (err == MPI_SUCCESS && !rp_tls_main) {
        fortran_started(abi);
        if (*provided == MPI_THREAD_MULTIPLE && rp_rt.active)
            rp_warn(0, "MPI_THREAD_MULTIPLE: only the thread that initialised MPI is profiled");
    }
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Finalize(int abi, MPI_Fint *ierror)
{
    rpf_t_MPI_Finalize *real = (rpf_t_MPI_Finalize *)rpf_real(RP_FN_MPI_Finalize, abi);
    MPI_Fint err = MPI_SUCCESS;
    if (rp_active()) {
        rp_enter(RP_FN_MPI_Finalize);
        rp_finish();
        rp_rt.in_mpi = 0;
    }
    real(&err);
    rpf_set_ierror(ierror, err);
}

/* ---- point-to-point --------------------------------------------------------- */

/* Fortran handles as C ones, for the binding-neutral bodies (wrap_p2p.c). */
static MPI_Request handle_f(const void *reqs, int i)
{
    return PMPI_Request_f2c(((const MPI_Fint *)reqs)[i]);
}

void rpf_MPI_Start(int abi, MPI_Fint *request, MPI_Fint *ierror)
{
    rpf_t_MPI_Start *real = (rpf_t_MPI_Start *)rpf_real(RP_FN_MPI_Start, abi);
    MPI_Fint err = MPI_SUCCESS;
    if (!rp_active()) {
        real(request, &err);
        rpf_set_ierror(ierror, err);
        return;
    }
    int ev = rp_start_enter(RP_FN_MPI_Start, 1, request, handle_f);
    real(request, &err);
    rp_start_leave(ev, err == MPI_SUCCESS, 1, request, handle_f);
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Startall(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *ierror)
{
    rpf_t_MPI_Startall *real = (rpf_t_MPI_Startall *)rpf_real(RP_FN_MPI_Startall, abi);
    MPI_Fint err = MPI_SUCCESS;
    if (!rp_active()) {
        real(count, array_of_requests, &err);
        rpf_set_ierror(ierror, err);
        return;
    }
    int n = *count;
    int ev = rp_start_enter(RP_FN_MPI_Startall, n, array_of_requests, handle_f);
    real(count, array_of_requests, &err);
    rp_start_leave(ev, err == MPI_SUCCESS, n, array_of_requests, handle_f);
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Request_free(int abi, MPI_Fint *request, MPI_Fint *ierror)
{
    rpf_t_MPI_Request_free *real = (rpf_t_MPI_Request_free *)rpf_real(RP_FN_MPI_Request_free, abi);
    MPI_Fint err = MPI_SUCCESS;
    if (!rp_active()) {
        real(request, &err);
        rpf_set_ierror(ierror, err);
        return;
    }
    rp_request_free_enter(PMPI_Request_f2c(*request));
    real(request, &err);
    rp_leave_local();
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Cancel(int abi, MPI_Fint *request, MPI_Fint *ierror)
{
    /* As in C: the completion sees the cancellation in the status. */
    rpf_t_MPI_Cancel *real = (rpf_t_MPI_Cancel *)rpf_real(RP_FN_MPI_Cancel, abi);
    MPI_Fint err = MPI_SUCCESS;
    real(request, &err);
    rpf_set_ierror(ierror, err);
}

/* ---- Wait / Test ---------------------------------------------------------- */
/* Handles are converted to C (f2c) before the call: completion frees them.
 * The snapshot and the per-request completion are wrap_wait.c's. */

static rp_req *find_f(const MPI_Fint *request)
{
    return reqtab_count() ? reqtab_find(PMPI_Request_f2c(*request)) : NULL;
}

static void complete_one(rp_req *e, const MPI_Fint *fst)
{
    MPI_Status cst;
    PMPI_Status_f2c((MPI_Fint *)fst, &cst);  /* SMPI: not const */
    rp_req_completed(e, &cst);
}

/* Wait and Test (flag == NULL: Wait) share one body: an event that joins the
 * request when it completes. */
static void one_common(int abi, MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status,
                       MPI_Fint *ierror)
{
    rpf_t_MPI_Wait *wait = flag ? NULL : (rpf_t_MPI_Wait *)rpf_real(RP_FN_MPI_Wait, abi);
    rpf_t_MPI_Test *test = flag ? (rpf_t_MPI_Test *)rpf_real(RP_FN_MPI_Test, abi) : NULL;
    MPI_Fint err = MPI_SUCCESS;
    int active = rp_active();
    rp_req *e = active ? find_f(request) : NULL;
    MPI_Fint stbuf[RPF_STATUS_MAX];
    MPI_Fint *st = (e && rpf_status_ignore(status)) ? stbuf : status;
    if (active)
        rp_enter(flag ? RP_FN_MPI_Test : RP_FN_MPI_Wait);
    if (flag)
        test(request, flag, st, &err);
    else
        wait(request, st, &err);
    if (e && err == MPI_SUCCESS && (!flag || *flag))
        complete_one(e, st);
    if (active)
        rp_leave();
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Wait(int abi, MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror)
{
    one_common(abi, request, NULL, status, ierror);
}

void rpf_MPI_Test(int abi, MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    one_common(abi, request, flag, status, ierror);
}

/* Statuses to pass for count requests: the user's, or ours when the user
 * ignores them and a tracked request is involved (*tracked cleared if we
 * have no memory for them: those joins are lost, the call goes on). */
static MPI_Fint *statuses_for(int *tracked, int count, MPI_Fint *user)
{
    if (!*tracked || !rpf_statuses_ignore(user))
        return user;
    MPI_Fint *s = fstatus_scratch(count);
    if (!s) {
        *tracked = 0;
        return user;
    }
    return s;
}

/* After a successful (or MPI_ERR_IN_STATUS) all-completion. */
static void complete_all(int count, const MPI_Fint *fsts, MPI_Fint err)
{
    for (int i = 0; i < count; i++) {
        MPI_Status cst;
        fstatus_c(fsts, i, &cst);
        if (err == MPI_ERR_IN_STATUS && cst.MPI_ERROR != MPI_SUCCESS)
            continue;
        rp_wait_complete(i, &cst);
    }
}

/* ---- indices returned by Waitany/Testany/Waitsome/Testsome -------------- */

/* Fortran indices are 1-based by the standard, but MPICH 4.0.2's `use
 * mpi_f08` bindings return 0-based ones (the program sees them too, without
 * the profiler; tests/conform/test_conform_f.sh).  Trusting base 1 there completed
 * the wrong snapshot entry (or read before the snapshot) and left the
 * completed receive in the request table: its handle, reused by a later
 * request, then made that request's completion wait for a path-set that
 * never comes.  The base is learned per ABI from the first unambiguous
 * evidence: an index 0 (base 0) or `count` (base 1), or which one of the two
 * candidate entries the call turned into MPI_REQUEST_NULL; until then it is
 * the standard's 1.  An index outside the array completes nothing. */
static int idx_base[RPF_NABI] = { -1, -1 };
static MPI_Fint *freq_before;
static size_t freq_cap;

/* keep the Fortran handles before the call (0 on allocation failure) */
static int freq_save(int n, const MPI_Fint *reqs)
{
    if (n <= 0)
        return 0;
    if ((size_t)n > freq_cap) {
        MPI_Fint *p = realloc(freq_before, (size_t)n * sizeof *p);
        if (!p)
            return 0;
        freq_before = p;
        freq_cap = (size_t)n;
    }
    memcpy(freq_before, reqs, (size_t)n * sizeof *reqs);
    return 1;
}

static int freq_nulled(int i, const MPI_Fint *after)
{
    return freq_before[i] != after[i] && PMPI_Request_f2c(after[i]) == MPI_REQUEST_NULL &&
           PMPI_Request_f2c(freq_before[i]) != MPI_REQUEST_NULL;
}

static void idx_learn(int abi, int saved, int n, const MPI_Fint *idx, int nidx,
                      const MPI_Fint *after)
{
    if (idx_base[abi] >= 0)
        return;
    for (int j = 0; j < nidx; j++) {
        if (idx[j] == 0) {
            idx_base[abi] = 0;
            return;
        }
        if (idx[j] == n) {
            idx_base[abi] = 1;
            return;
        }
    }
    if (!saved)
        return;
    for (int j = 0; j < nidx; j++) {
        int k = idx[j];
        if (k < 1 || k >= n)
            continue;
        int n1 = freq_nulled(k - 1, after), n0 = freq_nulled(k, after);
        if (n1 != n0) {
            idx_base[abi] = n0 ? 0 : 1;
            return;
        }
    }
}

/* the snapshot entry of returned index k, or -1 */
static int idx_entry(int abi, MPI_Fint k, int n)
{
    int i = k - (idx_base[abi] >= 0 ? idx_base[abi] : 1);
    return i >= 0 && i < n ? i : -1;
}

/* After Waitsome/Testsome: statuses in completion order, indices in the
 * binding's base (idx_entry). */
static void complete_some(int abi, int n, int outcount, const MPI_Fint *indices,
                          const MPI_Fint *fsts, MPI_Fint err)
{
    for (int i = 0; i < outcount; i++) {
        MPI_Status cst;
        int e = idx_entry(abi, indices[i], n);
        fstatus_c(fsts, i, &cst);
        if (e < 0 || (err == MPI_ERR_IN_STATUS && cst.MPI_ERROR != MPI_SUCCESS))
            continue;
        rp_wait_complete(e, &cst);
    }
}

/* Waitall and Testall (flag == NULL: Waitall): an event that joins every
 * tracked request once all completed. */
static void all_common(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *flag,
                       MPI_Fint *array_of_statuses, MPI_Fint *ierror)
{
    rpf_t_MPI_Waitall *wait = flag ? NULL : (rpf_t_MPI_Waitall *)rpf_real(RP_FN_MPI_Waitall, abi);
    rpf_t_MPI_Testall *test = flag ? (rpf_t_MPI_Testall *)rpf_real(RP_FN_MPI_Testall, abi) : NULL;
    MPI_Fint err = MPI_SUCCESS;
    int active = rp_active(), n = *count, tracked = 0;
    MPI_Fint *sts = array_of_statuses;
    if (active) {
        tracked = rp_wait_snapshot_f(n, array_of_requests);
        sts = statuses_for(&tracked, n, array_of_statuses);
        rp_enter(flag ? RP_FN_MPI_Testall : RP_FN_MPI_Waitall);
    }
    if (flag)
        test(count, array_of_requests, flag, sts, &err);
    else
        wait(count, array_of_requests, sts, &err);
    if (tracked && (!flag || *flag) && (err == MPI_SUCCESS || err == MPI_ERR_IN_STATUS))
        complete_all(n, sts, err);
    if (active)
        rp_leave();
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Waitall(int abi, MPI_Fint *count, MPI_Fint *array_of_requests,
                     MPI_Fint *array_of_statuses, MPI_Fint *ierror)
{
    all_common(abi, count, array_of_requests, NULL, array_of_statuses, ierror);
}

void rpf_MPI_Testall(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *flag,
                     MPI_Fint *array_of_statuses, MPI_Fint *ierror)
{
    all_common(abi, count, array_of_requests, flag, array_of_statuses, ierror);
}

/* Waitany/Testany reported request *index (Fortran numbering) complete
 * with status st: learn the binding's index base, then join it. */
static void any_completed(int abi, int saved, int n, MPI_Fint *index, MPI_Fint *st,
                          MPI_Fint *array_of_requests)
{
    MPI_Status cst;
    idx_learn(abi, saved, n, index, 1, array_of_requests);
    int e = idx_entry(abi, *index, n);
    PMPI_Status_f2c(st, &cst);
    if (e >= 0)
        rp_wait_complete(e, &cst);
}

/* Waitany and Testany (flag == NULL: Waitany). */
static void any_common(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *index,
                       MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    rpf_t_MPI_Waitany *wait = flag ? NULL : (rpf_t_MPI_Waitany *)rpf_real(RP_FN_MPI_Waitany, abi);
    rpf_t_MPI_Testany *test = flag ? (rpf_t_MPI_Testany *)rpf_real(RP_FN_MPI_Testany, abi) : NULL;
    MPI_Fint err = MPI_SUCCESS;
    int active = rp_active(), n = *count, tracked = 0, saved = 0;
    MPI_Fint stbuf[RPF_STATUS_MAX];
    MPI_Fint *st = status;
    if (active) {
        tracked = rp_wait_snapshot_f(n, array_of_requests);
        saved = tracked && freq_save(n, array_of_requests);
        if (tracked && rpf_status_ignore(status))
            st = stbuf;
        rp_enter(flag ? RP_FN_MPI_Testany : RP_FN_MPI_Waitany);
    }
    if (flag)
        test(count, array_of_requests, index, flag, st, &err);
    else
        wait(count, array_of_requests, index, st, &err);
    if (tracked && err == MPI_SUCCESS && (!flag || *flag) && *index != MPI_UNDEFINED)
        any_completed(abi, saved, n, index, st, array_of_requests);
    if (active)
        rp_leave();
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Waitany(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *index,
                     MPI_Fint *status, MPI_Fint *ierror)
{
    any_common(abi, count, array_of_requests, index, NULL, status, ierror);
}

void rpf_MPI_Testany(int abi, MPI_Fint *count, MPI_Fint *array_of_requests, MPI_Fint *index,
                     MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    any_common(abi, count, array_of_requests, index, flag, status, ierror);
}

/* Waitsome and Testsome have one signature and one behaviour: an event
 * that joins each request it reports completed. */
static void some_common(int abi, int fn, rpf_t_MPI_Waitsome *real, MPI_Fint *incount,
                        MPI_Fint *array_of_requests, MPI_Fint *outcount,
                        MPI_Fint *array_of_indices, MPI_Fint *array_of_statuses,
                        MPI_Fint *ierror)
{
    MPI_Fint err = MPI_SUCCESS;
    if (!rp_active()) {
        real(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, &err);
        rpf_set_ierror(ierror, err);
        return;
    }
    int n = *incount;
    int tracked = rp_wait_snapshot_f(n, array_of_requests);
    MPI_Fint *sts = statuses_for(&tracked, n, array_of_statuses);
    int saved = tracked && freq_save(n, array_of_requests);
    rp_enter(fn);
    real(incount, array_of_requests, outcount, array_of_indices, sts, &err);
    if (tracked && (err == MPI_SUCCESS || err == MPI_ERR_IN_STATUS) &&
        *outcount != MPI_UNDEFINED) {
        idx_learn(abi, saved, n, array_of_indices, *outcount, array_of_requests);
        complete_some(abi, n, *outcount, array_of_indices, sts, err);
    }
    rp_leave();
    rpf_set_ierror(ierror, err);
}

void rpf_MPI_Waitsome(int abi, MPI_Fint *incount, MPI_Fint *array_of_requests,
                      MPI_Fint *outcount, MPI_Fint *array_of_indices,
                      MPI_Fint *array_of_statuses, MPI_Fint *ierror)
{
    some_common(abi, RP_FN_MPI_Waitsome, (rpf_t_MPI_Waitsome *)rpf_real(RP_FN_MPI_Waitsome, abi),
                incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                ierror);
}

void rpf_MPI_Testsome(int abi, MPI_Fint *incount, MPI_Fint *array_of_requests,
                      MPI_Fint *outcount, MPI_Fint *array_of_indices,
                      MPI_Fint *array_of_statuses, MPI_Fint *ierror)
{
    /* same signature as Waitsome (both typedefs are generated from the table) */
    some_common(abi, RP_FN_MPI_Testsome, (rpf_t_MPI_Waitsome *)rpf_real(RP_FN_MPI_Testsome, abi),
                incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                ierror);
}
