/* comm.c - map from user communicators to their shadows.  Open addressing
 * (linear probing) keyed by the handle's bits (a pointer in Open MPI, an
 * int in MPICH), with MPI_COMM_WORLD checked first because most traffic
 * uses it.  A freed communicator leaves the table at once (backward-shift
 * deletion, no tombstones); its entry lives on while anything holds a
 * reference (comm.h, "Lifetime"). */
#include "exchange/comm.h"

#include <stdlib.h>
#include <string.h>
#include "core/counters.h"
#include "core/vocab.h"
#include "core/warn.h"

#ifdef RP_SMPI
/* SimGrid's SMPI charges a rank's host CPU time between two of its MPI
 * calls as simulated computation (smpi/simulate-computation), but its
 * PMPI_Comm_dup and PMPI_Intercomm_merge block in internal collectives
 * without stopping that rank's timer: the CPU time of every other simulated
 * rank that runs meanwhile (all run on one OS thread) is charged to this
 * one, O(n) simulated time per rank and per shadow communicator (start-up
 * 1.5 ms at 1 rank, 127 ms at 64).  Stop the timer around them, as SMPI's
 * own communication calls do. */
static int shadow_dup(MPI_Comm comm, MPI_Comm *out)
{
    smpi_bench_end();
    int rc = PMPI_Comm_dup(comm, out);
    smpi_bench_begin();
    return rc;
}
static int shadow_merge(MPI_Comm comm, int high, MPI_Comm *out)
{
    smpi_bench_end();
    int rc = PMPI_Intercomm_merge(comm, high, out);
    smpi_bench_begin();
    return rc;
}
#else
#define shadow_dup PMPI_Comm_dup
#define shadow_merge PMPI_Intercomm_merge
#endif

/* Owned by this file; touched only by the profiled (main) thread. */
static rp_comm **table;
static uint32_t  table_cap, table_used;
static rp_comm  *world;
static uint32_t  created;   /* uids this rank handed out (comms and windows) */
static rp_comm_opts g_opt;  /* comm_init */

void comm_init(const rp_comm_opts *opt) { g_opt = *opt; }
void comm_set_mbox_keys(int on) { g_opt.mbox_keys = on; }

static uint64_t comm_key(MPI_Comm c)
{
    uint64_t k = 0;
    memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

static int same_comm(MPI_Comm a, MPI_Comm b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The slot where the search for comm starts. */
static uint32_t home(MPI_Comm comm) { return (uint32_t)comm_key(comm) & (table_cap - 1); }

static int table_grow(void)
{
    uint32_t ncap = table_cap ? table_cap * 2 : 64;
    rp_comm **nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return -1;
    for (uint32_t i = 0; i < table_cap; i++) {
        rp_comm *e = table[i];
        if (!e)
            continue;
        uint32_t h = (uint32_t)comm_key(e->user) & (ncap - 1);
        while (nt[h])
            h = (h + 1) & (ncap - 1);
        nt[h] = e;
    }
    free(table);
    table = nt;
    table_cap = ncap;
    return 0;
}

/* Take entry e out of the table (not there: nothing).  The entries after
 * it in its run move up into the hole unless their own search starts
 * after it, so every search still finds its entry before an empty slot. */
static void table_remove(const rp_comm *e)
{
    if (!table_cap)
        return;
    uint32_t mask = table_cap - 1, i = home(e->user), n = 0;
    while (n++ < table_cap && table[i] && table[i] != e)
        i = (i + 1) & mask;
    if (!table[i] || table[i] != e)
        return;
    table[i] = NULL;
    table_used--;
    for (uint32_t j = (i + 1) & mask; table[j]; j = (j + 1) & mask) {
        uint32_t h = home(table[j]->user);
        /* table[j] stays where it is if h lies cyclically in (i, j] */
        int stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
        if (!stays) {
            table[i] = table[j];
            table[j] = NULL;
            i = j;
        }
    }
}

void comm_hold(rp_comm *c)
{
    if (c)
        c->refs++;
}

void comm_put(rp_comm *c)
{
    if (!c || !c->refs || --c->refs)
        return;
    free(c->world);
    free(c);
}

/* c's communicators are about to be freed (the user's too, for a table
 * entry: this runs before the real MPI_Comm_free).  Holders that outlive
 * the free may still ask for world ranks (a pre-posted receive's join, a
 * non-blocking collective's record), which need the communicator's group:
 * read them now. */
static void retire(rp_comm *c)
{
    if (c->refs > 1 && c != world)
        (void)comm_world_rank(c, 0);
    c->live = 0;
}

rp_comm *comm_lookup(MPI_Comm comm)
{
    if (world && same_comm(comm, world->user))
        return world;
    if (!table_cap)
        return NULL;
    uint32_t h = home(comm);
    for (uint32_t n = 0; n < table_cap && table[h]; n++, h = (h + 1) & (table_cap - 1))
        if (same_comm(table[h]->user, comm))
            return table[h];
    return NULL;
}

rp_comm *comm_world(void) { return world; }

/* 1 if every process of comm (both groups of an intercommunicator) is in
 * our MPI_COMM_WORLD.  A communicator reaching into another job (a spawned
 * one, a port peer, or anything made from their communicators) may have
 * members without the profiler, and a shadow duplicate that only one side
 * makes waits forever.  Every member decides the same way: each sees at
 * least one process outside its own world. */
static int within_world(MPI_Comm comm)
{
    int inter = 0, ok = 1;
    MPI_Group wg, g[2];
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Comm_group(comm, &g[0]);
    if (inter)
        PMPI_Comm_remote_group(comm, &g[1]);
    for (int i = 0; i <= inter && ok; i++) {
        int n = 0;
        PMPI_Group_size(g[i], &n);
        int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
        if (!in || !out) {
            ok = 0;              /* cannot tell: do not risk a hang */
        } else {
            for (int r = 0; r < n; r++)
                in[r] = r;
            PMPI_Group_translate_ranks(g[i], n, in, wg, out);
            for (int r = 0; r < n && ok; r++)
                ok = out[r] != MPI_UNDEFINED;
        }
        free(in);
        free(out);
    }
    for (int i = 0; i <= inter; i++)
        PMPI_Group_free(&g[i]);
    PMPI_Group_free(&wg);
    return ok;
}

int comm_register(MPI_Comm comm)
{
    if (same_comm(comm, MPI_COMM_NULL))
        return 0;
    if (!same_comm(comm, MPI_COMM_WORLD) && !within_world(comm)) {
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return 1;
    }
    rp_comm *e = calloc(1, sizeof *e);
    if (!e)
        return -1;
    e->user = comm;
    PMPI_Comm_test_inter(comm, &e->inter);
    PMPI_Comm_size(comm, &e->size);
    PMPI_Comm_rank(comm, &e->rank);
    if (shadow_dup(comm, &e->p2p) != MPI_SUCCESS ||
        shadow_dup(comm, &e->coll) != MPI_SUCCESS) {
        free(e);
        rp_counters[RP_CNT_UNSUPPORTED]++;
        return -1;
    }
    /* Our own traffic must never abort the job: errors come back to us. */
    PMPI_Comm_set_errhandler(e->p2p, MPI_ERRORS_RETURN);
    PMPI_Comm_set_errhandler(e->coll, MPI_ERRORS_RETURN);
    /* Trace mode names each communicator the same way on all members so the
     * checker can match collective instances. */
    uint64_t key = ((uint64_t)g_opt.rank << 32) | created++;
    if (same_comm(comm, MPI_COMM_WORLD)) {
        key = 0;           /* rank 0's: the first it registers */
        e->mbkey_ok = 1;
    } else if (!e->inter && e->size == 1) {
        e->mbkey_ok = 1;   /* one member: nothing to agree on */
    } else if (!e->inter && (g_opt.uniform_uids || g_opt.mbox_keys)) {
        e->mbkey_ok = PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, e->coll) == MPI_SUCCESS;
    }
    e->mbkey = key;
    e->uid = (uint32_t)((key >> 32) << 12) | (uint32_t)(key & 0xfffu);
    e->spans_world = !e->inter && (uint32_t)e->size == g_opt.nranks;
    /* Intercommunicator collectives involve both groups, and so does the
     * merge (made here, where both groups are creating the communicator
     * anyway): their joins run on the merged intracommunicator.  Trace
     * mode has no intercommunicator edges: not joined there. */
    if (e->inter && g_opt.merge_inter) {
        MPI_Comm m;
        if (shadow_merge(e->coll, 0, &m) == MPI_SUCCESS)
            e->merged = comm_shadow_take(m);
    }
    e->live = 1;
    e->refs = 1;   /* the table's */
    if ((table_used + 1) * 2 > table_cap && table_grow() != 0)
        return -1;
    uint32_t h = home(comm);
    while (table[h])
        h = (h + 1) & (table_cap - 1);
    table[h] = e;
    table_used++;
    if (same_comm(comm, MPI_COMM_WORLD))
        world = e;
    return 0;
}

void comm_unregister(MPI_Comm comm)
{
    rp_comm *e = comm_lookup(comm);
    if (!e || e == world)
        return;
    table_remove(e);
    retire(e);
    PMPI_Comm_free(&e->p2p);
    PMPI_Comm_free(&e->coll);
    comm_shadow_free(e->merged);
    e->merged = NULL;
    comm_put(e);   /* the table's reference; in-flight holders keep it */
}

void comm_foreach(void (*fn)(rp_comm *c))
{
    for (uint32_t i = 0; i < table_cap; i++)
        if (table[i])
            fn(table[i]);
}

void comm_shutdown(void)
{
    for (uint32_t i = 0; i < table_cap; i++) {
        rp_comm *e = table[i];
        if (!e)
            continue;
        table[i] = NULL;
        PMPI_Comm_free(&e->p2p);
        PMPI_Comm_free(&e->coll);
        comm_shadow_free(e->merged);
        e->merged = NULL;
        e->live = 0;
        comm_put(e);
    }
    free(table);
    table = NULL;
    table_cap = table_used = 0;
    world = NULL;
}

/* PMPI_Comm_dup(comm) with its errors returned to us: the user's
 * communicator keeps its own handler (often MPI_ERRORS_ARE_FATAL), and a
 * duplicate of ours that fails (communicator ids run out) must not abort
 * a job that runs without it. */
static int dup_returning(MPI_Comm comm, MPI_Comm *dup)
{
    MPI_Errhandler eh;
    int have = PMPI_Comm_get_errhandler(comm, &eh) == MPI_SUCCESS;
    if (have)
        PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int rc = shadow_dup(comm, dup);
    if (have) {
        PMPI_Comm_set_errhandler(comm, eh);
        PMPI_Errhandler_free(&eh);
    }
    return rc;
}

rp_comm *comm_shadow_new(MPI_Comm comm)
{
    MPI_Comm dup;
    if (dup_returning(comm, &dup) != MPI_SUCCESS)
        return NULL;          /* a failed dup fails on every member */
    return comm_shadow_take(dup);
}

/* Do all members of our duplicate dup keep it (each passes ok)?  If not,
 * it is freed (0). */
static int all_keep(MPI_Comm dup, int ok)
{
    int all = 0;
    PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, dup) != MPI_SUCCESS || !all) {
        PMPI_Comm_free(&dup);
        return 0;
    }
    return 1;
}

void comm_shadow_refuse(MPI_Comm comm)
{
    MPI_Comm dup;
    if (dup_returning(comm, &dup) == MPI_SUCCESS)
        all_keep(dup, 0);
}

rp_comm *comm_shadow_take(MPI_Comm dup)
{
    rp_comm *e = calloc(1, sizeof *e);
    if (!all_keep(dup, e != NULL)) {
        free(e);
        return NULL;
    }
    e->user = dup;
    e->coll = dup;
    e->p2p = MPI_COMM_NULL;
    PMPI_Comm_size(dup, &e->size);
    PMPI_Comm_rank(dup, &e->rank);
    e->uid = (g_opt.rank << 12) | (created++ & 0xfffu);
    if (g_opt.uniform_uids)
        PMPI_Bcast(&e->uid, 1, MPI_UINT32_T, 0, dup);
    e->spans_world = (uint32_t)e->size == g_opt.nranks;
    e->live = 1;
    e->refs = 1;   /* the owner's */
    return e;
}

void comm_shadow_free(rp_comm *c)
{
    if (!c)
        return;
    if (c->live) {
        retire(c);
        PMPI_Comm_free(&c->coll);
    }
    comm_put(c);   /* the owner's reference */
}


uint32_t comm_world_rank(rp_comm *c, int r)
{
    if (c == world || r < 0)
        return r < 0 ? RP_NO_RANK : (uint32_t)r;
    if (!c->world) {
        MPI_Group g, wg;
        int n = 0;
        if (c->inter)
            PMPI_Comm_remote_group(c->user, &g);
        else
            PMPI_Comm_group(c->user, &g);
        PMPI_Group_size(g, &n);
        PMPI_Comm_group(MPI_COMM_WORLD, &wg);
        int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
        if (in && out) {
            for (int i = 0; i < n; i++)
                in[i] = i;
            PMPI_Group_translate_ranks(g, n, in, wg, out);
            c->world = out;
            c->world_n = n;
            out = NULL;
        }
        free(in);
        free(out);
        PMPI_Group_free(&g);
        PMPI_Group_free(&wg);
    }
    if (!c->world || r >= c->world_n || c->world[r] == MPI_UNDEFINED)
        return RP_NO_RANK;
    return (uint32_t)c->world[r];
}
