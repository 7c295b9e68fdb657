/* pathset.c - a rank's set of up to k paths: maintenance, join, wire format.
 *
 * Wire format of an encoded path-set (version RP_PATHSET_WIRE_VERSION = 1).
 * All integers little-endian (host order: every rank of a job shares one
 * architecture); fields are packed with no padding and read with memcpy,
 * so the buffer needs no alignment.
 *
 *   header, 8 bytes:
 *     off 0  u8   version          = 1
 *     off 1  u8   reserved         = 0 (rejected otherwise)
 *     off 2  u16  n_paths          1 .. k
 *     off 4  u32  total_length     bytes of the whole encoding, header included
 *   then n_paths paths, most costly first, each:
 *     off 0  i64  cost_ns          >= 0, non-increasing from path to path
 *     off 8  u16  n_iv             intervals that follow, 0 .. iv_cap
 *     off 10 u16  flags            RP_PATH_* (only known bits accepted)
 *     off 12 u32  n_evicted        prof mode: intervals lost to "unknown"
 *     off 16      n_iv intervals of 8 bytes each:
 *                   u32 rank, u16 low, u16 high   (low <= high)
 *
 * Size: 8 + sum over paths of (16 + 8 * n_iv); at most
 * pathset_max_wire_bytes(k, iv_cap) = 8 + k * (16 + 8 * iv_cap).
 * A decoder rejects (returns -1, set left empty) a buffer whose length
 * disagrees with total_length, a wrong version, nonzero reserved byte,
 * n_paths of 0 or above its k, n_iv above its iv_cap, unknown flags, a
 * negative cost, low > high, costs not sorted descending, or any read past
 * the end / unread trailing bytes.
 */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "pathset.h"
#include "select.h"
#include "summary.h"

#define RP_PATH_FLAGS_KNOWN RP_PATH_OVERFLOW

int pathset_init(rp_pathset *ps, uint32_t k, uint32_t iv_cap)
{
    memset(ps, 0, sizeof *ps);
    /* n_paths and n_iv travel as u16. */
    if (k == 0 || k > UINT16_MAX || iv_cap > UINT16_MAX)
        return -1;
    ps->p = calloc(k, sizeof *ps->p);
    /* +1 so iv_cap == 0 still gets a valid (unused) allocation. */
    ps->store = calloc((size_t)k * iv_cap + 1, sizeof *ps->store);
    if (!ps->p || !ps->store) {
        pathset_free(ps);
        return -1;
    }
    ps->k_cap = k;
    ps->iv_cap = iv_cap;
    for (uint32_t i = 0; i < k; i++)
        ps->p[i].iv = ps->store + (size_t)i * iv_cap;
    return 0;
}

void pathset_free(rp_pathset *ps)
{
    free(ps->p);
    free(ps->store);
    memset(ps, 0, sizeof *ps);
}

static void path_clear(rp_path *p)
{
    p->cost_ns = 0;
    p->n_iv = 0;
    p->flags = 0;
    p->n_evicted = 0;
}

void pathset_reset(rp_pathset *ps)
{
    path_clear(&ps->p[0]);
    ps->n = 1;
}

void pathset_add_cost(rp_pathset *ps, int64_t cost_ns)
{
    /* Same amount on every path: the cost order is unchanged. */
    for (uint32_t i = 0; i < ps->n; i++)
        ps->p[i].cost_ns += cost_ns;
}

void pathset_extend(rp_pathset *ps, uint32_t rank, uint16_t idx,
                    rp_summary_mode mode, uint64_t *rng)
{
    for (uint32_t i = 0; i < ps->n; i++)
        summary_push(&ps->p[i], ps->iv_cap, rank, idx, mode, rng);
}

/* Copy header and intervals into dst's own storage (dst->iv kept).  n_iv
 * is clamped to the destination's capacity; callers guarantee it fits. */
static void path_copy_into(rp_path *dst, const rp_path *src, uint32_t iv_cap)
{
    rp_interval *iv = dst->iv;
    uint16_t n_iv = src->n_iv <= iv_cap ? src->n_iv : (uint16_t)iv_cap;
    if (n_iv > 0 && iv != src->iv)
        memmove(iv, src->iv, (size_t)n_iv * sizeof *iv);
    *dst = *src;
    dst->iv = iv;
    dst->n_iv = n_iv;
}

void pathset_copy(rp_pathset *dst, const rp_pathset *src)
{
    if (dst == src)
        return;
    uint32_t n = src->n <= dst->k_cap ? src->n : dst->k_cap;
    for (uint32_t i = 0; i < n; i++)
        path_copy_into(&dst->p[i], &src->p[i], dst->iv_cap);
    dst->n = n;
}

/* ---- wire format ---------------------------------------------------- */

size_t pathset_max_wire_bytes(uint32_t k, uint32_t iv_cap)
{
    return RP_PATHSET_HDR_BYTES +
           (size_t)k * (RP_PATH_HDR_BYTES + 8u * (size_t)iv_cap);
}

static size_t encoded_size(const rp_pathset *ps)
{
    size_t sz = RP_PATHSET_HDR_BYTES;
    for (uint32_t i = 0; i < ps->n; i++)
        sz += RP_PATH_HDR_BYTES + 8u * (size_t)ps->p[i].n_iv;
    return sz;
}

static uint8_t *put(uint8_t *w, const void *v, size_t n)
{
    memcpy(w, v, n);
    return w + n;
}

size_t pathset_encode(const rp_pathset *ps, void *buf, size_t cap)
{
    size_t sz = encoded_size(ps);
    if (sz > cap || sz > UINT32_MAX || ps->n > UINT16_MAX)
        return 0;
    uint8_t *w = buf;
    uint8_t version = RP_PATHSET_WIRE_VERSION, reserved = 0;
    uint16_t n_paths = (uint16_t)ps->n;
    uint32_t total = (uint32_t)sz;
    w = put(w, &version, 1);
    w = put(w, &reserved, 1);
    w = put(w, &n_paths, 2);
    w = put(w, &total, 4);
    for (uint32_t i = 0; i < ps->n; i++) {
        const rp_path *p = &ps->p[i];
        w = put(w, &p->cost_ns, 8);
        w = put(w, &p->n_iv, 2);
        w = put(w, &p->flags, 2);
        w = put(w, &p->n_evicted, 4);
        /* rp_interval is laid out exactly as on the wire: one copy. */
        if (p->n_iv)
            w = put(w, p->iv, (size_t)p->n_iv * sizeof *p->iv);
    }
    return sz;
}

/* Bounds-checked reader: every get fails once the cursor would pass end. */
typedef struct rd {
    const uint8_t *p, *end;
} rd;

static int get(rd *r, void *v, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return -1;
    memcpy(v, r->p, n);
    r->p += n;
    return 0;
}

_Static_assert(sizeof(rp_interval) == 8 && offsetof(rp_interval, low) == 4 &&
                   offsetof(rp_interval, high) == 6,
               "rp_interval must match the 8-byte wire interval");

static int decode_path(rd *r, rp_path *p, uint32_t iv_cap)
{
    /* One bounds check for the 16-byte path header. */
    if ((size_t)(r->end - r->p) < RP_PATH_HDR_BYTES)
        return -1;
    memcpy(&p->cost_ns, r->p, 8);
    memcpy(&p->n_iv, r->p + 8, 2);
    memcpy(&p->flags, r->p + 10, 2);
    memcpy(&p->n_evicted, r->p + 12, 4);
    r->p += RP_PATH_HDR_BYTES;
    if (p->cost_ns < 0 || p->n_iv > iv_cap || (p->flags & ~RP_PATH_FLAGS_KNOWN))
        return -1;
    if (p->n_iv && get(r, p->iv, (size_t)p->n_iv * sizeof *p->iv))
        return -1;
    for (uint32_t j = 0; j < p->n_iv; j++)
        if (p->iv[j].low > p->iv[j].high)
            return -1;
    return 0;
}

static int decode_all(rp_pathset *ps, const void *buf, size_t len)
{
    rd r = { buf, (const uint8_t *)buf + len };
    uint8_t version, reserved;
    uint16_t n_paths;
    uint32_t total;
    if (len < RP_PATHSET_HDR_BYTES)
        return -1;
    version = r.p[0];
    reserved = r.p[1];
    memcpy(&n_paths, r.p + 2, 2);
    memcpy(&total, r.p + 4, 4);
    r.p += RP_PATHSET_HDR_BYTES;
    if (version != RP_PATHSET_WIRE_VERSION || reserved != 0 || total != len)
        return -1;
    if (n_paths == 0 || n_paths > ps->k_cap)
        return -1;
    for (uint32_t i = 0; i < n_paths; i++) {
        if (decode_path(&r, &ps->p[i], ps->iv_cap))
            return -1;
        if (i > 0 && ps->p[i].cost_ns > ps->p[i - 1].cost_ns)
            return -1;
    }
    if (r.p != r.end)  /* trailing bytes */
        return -1;
    ps->n = n_paths;
    return 0;
}

int pathset_decode(rp_pathset *ps, const void *buf, size_t len)
{
    ps->n = 0;
    if (buf == NULL || decode_all(ps, buf, len) != 0) {
        ps->n = 0;
        return -1;
    }
    return 0;
}

/* ---- join ----------------------------------------------------------- */

/* Merge two lists, each in select_path_cmp order without duplicates, into
 * cand in that order, dropping exact duplicates (mine's copy is kept).
 * Paths of different cost are ordered by cost alone; the full comparison
 * runs only on equal costs, where duplicates can be. */
static uint32_t merge_unique(rp_path **cand, rp_path *a, uint32_t na,
                             rp_path *b, uint32_t nb)
{
    uint32_t i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        int c = a[i].cost_ns > b[j].cost_ns ? -1
              : a[i].cost_ns < b[j].cost_ns ? 1
              : select_path_cmp(&a[i], &b[j]);
        if (c <= 0) {
            if (c == 0)
                j++;  /* the same path on both sides */
            cand[n++] = &a[i++];
        } else {
            cand[n++] = &b[j++];
        }
    }
    while (i < na)
        cand[n++] = &a[i++];
    while (j < nb)
        cand[n++] = &b[j++];
    return n;
}

/* Any order: gather, then select_k sorts and drops duplicates. */
static uint32_t gather_candidates(rp_path **cand, rp_path *a, uint32_t na,
                                  rp_path *b, uint32_t nb)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < na; i++)
        cand[n++] = &a[i];
    for (uint32_t j = 0; j < nb; j++)
        cand[n++] = &b[j];
    return n;
}

static int from_set(const rp_pathset *ps, const rp_path *p)
{
    uintptr_t a = (uintptr_t)ps->p, x = (uintptr_t)p;
    return x >= a && x < a + (uintptr_t)ps->n * sizeof *ps->p;
}

/* mine <- select_k(mine U in) with no allocation and no interval copies
 * for paths that stay: the interval buffers of mine's k_cap slots are
 * permuted (a buffer follows its path to its new slot), and buffers of
 * dropped or unused slots receive the paths taken from `in`.  Selection
 * keeps at most k_cap paths, so there are always enough free buffers.
 * Cost: O((k + n_in) * iv) compares for the merge plus O(n_in * iv) copies. */
void pathset_join(rp_pathset *mine, const rp_pathset *in, rp_select_mode sel)
{
    if (in == mine || in->n == 0)
        return;  /* joining with itself or nothing changes nothing */
    uint32_t k = mine->k_cap;
    uint32_t nc = mine->n + in->n;
    /* VLAs: k is small (clamped by the runtime to fit the eager limit). */
    rp_path *cand[nc];
    rp_path *pick[nc];
    rp_path newp[k];
    rp_interval *freebuf[k];
    uint8_t kept[k];
    uint32_t m, nfree = 0, f = 0;

    /* Both sets are normally in order already (selection output, decoded
     * sets are cost-checked); summary eviction can reorder equal-cost
     * paths, and then the general sort runs. */
    if (select_sorted_unique(mine->p, mine->n) && select_sorted_unique(in->p, in->n)) {
        nc = merge_unique(cand, mine->p, mine->n, in->p, in->n);
        select_k_sorted(cand, nc, k, sel, pick, &m);
    } else {
        nc = gather_candidates(cand, mine->p, mine->n, in->p, in->n);
        select_k(cand, nc, k, sel, pick, &m);
    }

    memset(kept, 0, sizeof kept);
    for (uint32_t j = 0; j < m; j++)
        if (from_set(mine, pick[j]))
            kept[pick[j] - mine->p] = 1;
    for (uint32_t s = 0; s < k; s++)
        if (!kept[s])
            freebuf[nfree++] = mine->p[s].iv;

    for (uint32_t j = 0; j < m; j++) {
        newp[j] = *pick[j];
        if (from_set(mine, pick[j]))
            continue;  /* keeps its own buffer */
        newp[j].iv = freebuf[f++];
        path_copy_into(&newp[j], pick[j], mine->iv_cap);
    }
    /* Slots m.. get the buffers left over, so every slot still owns a
     * distinct iv_cap-sized region of mine->store. */
    for (uint32_t j = m; j < k; j++) {
        path_clear(&newp[j]);
        newp[j].iv = freebuf[f++];
    }
    memcpy(mine->p, newp, (size_t)k * sizeof *newp);
    mine->n = m;
}

void pathset_percentile_costs(const rp_pathset *ps, uint32_t k, int64_t *out)
{
    for (uint32_t j = 0; j < k; j++)
        out[j] = ps->n ? ps->p[select_nearest(j, k, ps->n)].cost_ns : 0;
}
