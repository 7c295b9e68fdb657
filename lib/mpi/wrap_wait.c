/* wrap_wait.c - the Wait/Test families.  Each call is an event (the task
 * ends on entry); every tracked receive it completes joins its sender's
 * path-set.  Handles are copied before the call because MPI resets
 * completed non-persistent requests to MPI_REQUEST_NULL. */
#include <stdlib.h>
#include <mpi.h>
#include "mpi/hooks.h"
#include "exchange/reqtab.h"
#include "mpi/fortran.h"

/* Scratch arrays, grown on demand; owned by this file, main thread only. */
static MPI_Request *hcopy;
static MPI_Status  *stscratch;
static int          scratch_cap;

static int scratch_reserve(int n)
{
    if (n <= scratch_cap)
        return 0;
    int ncap = scratch_cap ? scratch_cap : 64;
    while (ncap < n)
        ncap *= 2;
    MPI_Request *h = realloc(hcopy, (size_t)ncap * sizeof *h);
    if (!h)
        return -1;
    hcopy = h;
    MPI_Status *s = realloc(stscratch, (size_t)ncap * sizeof *s);
    if (!s)
        return -1;
    stscratch = s;
    scratch_cap = ncap;
    return 0;
}

/* Copy the handles; 1 if any is a tracked request (then hcopy is valid). */
static int snapshot(int count, const MPI_Request reqs[])
{
    if (!reqtab_count() || count <= 0 || scratch_reserve(count) != 0)
        return 0;
    int any = 0;
    for (int i = 0; i < count; i++) {
        hcopy[i] = reqs[i];
        any |= reqtab_find(reqs[i]) != NULL;
    }
    return any;
}

static void complete_handle(MPI_Request h, MPI_Status *st)
{
    rp_req *e = reqtab_find(h);
    if (e)
        rp_req_completed(e, st);
}

/* The Fortran Wait/Test family (lib/mpi/fortran.c): the snapshot holds the C
 * handles of Fortran requests, converted before the call. */
int rp_wait_snapshot_f(int count, const MPI_Fint freqs[])
{
    if (!reqtab_count() || count <= 0 || scratch_reserve(count) != 0)
        return 0;
    int any = 0;
    for (int i = 0; i < count; i++) {
        hcopy[i] = PMPI_Request_f2c(freqs[i]);
        any |= reqtab_find(hcopy[i]) != NULL;
    }
    return any;
}

void rp_wait_complete(int i, MPI_Status *st)
{
    complete_handle(hcopy[i], st);
}

RP_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!rp_active())
        return PMPI_Wait(request, status);
    MPI_Request h = *request;
    rp_req *e = reqtab_count() ? reqtab_find(h) : NULL;
    MPI_Status stbuf, *st = (e && status == MPI_STATUS_IGNORE) ? &stbuf : status;
    rp_enter(RP_FN_MPI_Wait);
    int rc = PMPI_Wait(request, st);
    if (e && rc == MPI_SUCCESS)
        rp_req_completed(e, st);
    rp_leave();
    return rc;
}

RP_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!rp_active())
        return PMPI_Test(request, flag, status);
    MPI_Request h = *request;
    rp_req *e = reqtab_count() ? reqtab_find(h) : NULL;
    MPI_Status stbuf, *st = (e && status == MPI_STATUS_IGNORE) ? &stbuf : status;
    rp_enter(RP_FN_MPI_Test);
    int rc = PMPI_Test(request, flag, st);
    if (e && rc == MPI_SUCCESS && *flag)
        rp_req_completed(e, st);
    rp_leave();
    return rc;
}

/* After a successful (or MPI_ERR_IN_STATUS) all-completion. */
static void complete_all(int count, MPI_Status *sts, int rc)
{
    for (int i = 0; i < count; i++) {
        if (rc == MPI_ERR_IN_STATUS && sts[i].MPI_ERROR != MPI_SUCCESS)
            continue;
        complete_handle(hcopy[i], &sts[i]);
    }
}

RP_EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[],
                          MPI_Status array_of_statuses[])
{
    if (!rp_active())
        return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    int tracked = snapshot(count, array_of_requests);
    MPI_Status *sts = (tracked && array_of_statuses == MPI_STATUSES_IGNORE)
                          ? stscratch : array_of_statuses;
    rp_enter(RP_FN_MPI_Waitall);
    int rc = PMPI_Waitall(count, array_of_requests, sts);
    if (tracked && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS))
        complete_all(count, sts, rc);
    rp_leave();
    return rc;
}

RP_EXPORT int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                          MPI_Status array_of_statuses[])
{
    if (!rp_active())
        return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    int tracked = snapshot(count, array_of_requests);
    MPI_Status *sts = (tracked && array_of_statuses == MPI_STATUSES_IGNORE)
                          ? stscratch : array_of_statuses;
    rp_enter(RP_FN_MPI_Testall);
    int rc = PMPI_Testall(count, array_of_requests, flag, sts);
    if (tracked && *flag && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS))
        complete_all(count, sts, rc);
    rp_leave();
    return rc;
}

RP_EXPORT int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index,
                          MPI_Status *status)
{
    if (!rp_active())
        return PMPI_Waitany(count, array_of_requests, index, status);
    int tracked = snapshot(count, array_of_requests);
    MPI_Status stbuf, *st = (tracked && status == MPI_STATUS_IGNORE) ? &stbuf : status;
    rp_enter(RP_FN_MPI_Waitany);
    int rc = PMPI_Waitany(count, array_of_requests, index, st);
    if (tracked && rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
        complete_handle(hcopy[*index], st);
    rp_leave();
    return rc;
}

RP_EXPORT int MPI_Testany(int count, MPI_Request array_of_requests[], int *index,
                          int *flag, MPI_Status *status)
{
    if (!rp_active())
        return PMPI_Testany(count, array_of_requests, index, flag, status);
    int tracked = snapshot(count, array_of_requests);
    MPI_Status stbuf, *st = (tracked && status == MPI_STATUS_IGNORE) ? &stbuf : status;
    rp_enter(RP_FN_MPI_Testany);
    int rc = PMPI_Testany(count, array_of_requests, index, flag, st);
    if (tracked && rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
        complete_handle(hcopy[*index], st);
    rp_leave();
    return rc;
}

/* After Waitsome/Testsome: statuses are in completion order. */
static void complete_some(int outcount, const int indices[], MPI_Status *sts, int rc)
{
    for (int i = 0; i < outcount; i++) {
        if (rc == MPI_ERR_IN_STATUS && sts[i].MPI_ERROR != MPI_SUCCESS)
            continue;
        complete_handle(hcopy[indices[i]], &sts[i]);
    }
}

RP_EXPORT int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                           int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (!rp_active())
        return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    int tracked = snapshot(incount, array_of_requests);
    MPI_Status *sts = (tracked && array_of_statuses == MPI_STATUSES_IGNORE)
                          ? stscratch : array_of_statuses;
    rp_enter(RP_FN_MPI_Waitsome);
    int rc = PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, sts);
    if (tracked && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED)
        complete_some(*outcount, array_of_indices, sts, rc);
    rp_leave();
    return rc;
}

RP_EXPORT int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                           int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (!rp_active())
        return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    int tracked = snapshot(incount, array_of_requests);
    MPI_Status *sts = (tracked && array_of_statuses == MPI_STATUSES_IGNORE)
                          ? stscratch : array_of_statuses;
    rp_enter(RP_FN_MPI_Testsome);
    int rc = PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, sts);
    if (tracked && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED)
        complete_some(*outcount, array_of_indices, sts, rc);
    rp_leave();
    return rc;
}
