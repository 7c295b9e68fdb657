/* collpaths.c - the collective path algorithms (doc/design.md,
 * "Collectives"; paper §4.3): the all-to-all path-allreduce in
 * ceil(log2 n) rounds - a butterfly for a power of two, after which every
 * member holds the identical set; otherwise dissemination (send to me+2^d,
 * receive from me-2^d, mod n) and then (repr selection is not associative)
 * a broadcast of rank 0's set - and the broadcast of one set.  All traffic
 * uses the communicator's second shadow (`coll`), never a user tag. */
#include <string.h>
#include <mpi.h>
#include "core/counters.h"
#include "core/pathset.h"
#include "core/wire.h"
#include "exchange/collpaths.h"
#include "exchange/proto.h"

static rp_state *g_st;

void collpaths_init(rp_state *st) { g_st = st; }

/* Broadcasts go in two pieces: a first chunk that the shared-memory
 * transport sends inline (k = 5 with a few intervals fits), and the rest
 * only when the header says so. */
#define BCAST_CHUNK 248u


/* Broadcast root's set over c->coll; members replace or join. */
void coll_bcast_set(rp_comm *c, int root, int replace)
{
    uint8_t *buf = proto_sendbuf();
    uint32_t cap = g_st->max_wire;
    uint32_t chunk = cap < BCAST_CHUNK ? cap : BCAST_CHUNK;
    if (c->rank == root)
        pathset_encode(&g_st->ps, buf, cap);
    PMPI_Bcast(buf, (int)chunk, MPI_BYTE, root, c->coll);
    uint32_t len = pathset_wire_len(buf);
    if (len > cap) {             /* corrupt: everyone saw the same header */
        rp_counters[RP_CNT_PS_DECODE_ERRORS]++;
        return;
    }
    if (len > chunk)
        PMPI_Bcast(buf + chunk, (int)(len - chunk), MPI_BYTE, root, c->coll);
    if (c->rank != root)
        proto_join_buffer(buf, (int)len, replace);
}

void coll_exchange(rp_comm *c, int dst, int src)
{
    uint8_t *sbuf = proto_sendbuf(), *rbuf = proto_recvbuf();
    MPI_Status st;
    int len = 0;
    size_t slen = pathset_encode(&g_st->ps, sbuf, g_st->max_wire);
    PMPI_Sendrecv(sbuf, (int)slen, MPI_BYTE, dst, RP_TAG_COLL, rbuf, (int)g_st->max_wire,
                  MPI_BYTE, src, RP_TAG_COLL, c->coll, &st);
    if (src == MPI_PROC_NULL)
        return;
    PMPI_Get_count(&st, MPI_BYTE, &len);
    proto_join_buffer(rbuf, len, 0);
}

/* Rounds from_d, 2*from_d, ... of the all-to-all exchange (from_d = 1: all
 * of them), then the broadcast where one is needed. */
void coll_allreduce_paths_from(rp_comm *c, int from_d)
{
    int n = c->size, me = c->rank;
    if ((n & (n - 1)) == 0) {
        /* Power of two: butterfly.  Partners join the same two sets, and a
         * join is a deterministic function of the union, so after each
         * round partners are identical, and after the last all members
         * are: no broadcast needed. */
        for (int d = from_d; d < n; d <<= 1)
            coll_exchange(c, me ^ d, me ^ d);
    } else {
        for (int d = from_d; d < n; d <<= 1)
            coll_exchange(c, (me + d) % n, (me - d + n) % n);
        if (g_st->cfg.select != RP_SELECT_TOPK)   /* not associative */
            coll_bcast_set(c, 0, 1);
    }
    rp_counters[RP_CNT_COLL_JOINS]++;
}

void coll_allreduce_paths(rp_comm *c)
{
    coll_allreduce_paths_from(c, 1);
}

