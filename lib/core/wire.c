/* wire.c - the one codec of the path-set wire format (doc/formats.md).
 *
 * Wire format of an encoded path-set (version RP_PATHSET_WIRE_VERSION = 4).
 * All integers little-endian (host order: every rank of a job shares one
 * architecture); fields are packed with no padding and read with memcpy,
 * so the buffer needs no alignment.
 *
 *   header, 16 bytes:
 *     off 0  u8   version          = 4
 *     off 1  u8   reserved         = 0 (rejected otherwise)
 *     off 2  u16  n_paths          1 .. k
 *     off 4  u32  total_length     bytes of the whole encoding, header included
 *     off 8  i32  wexp             the weights are w * 2^wexp (|wexp| <= 2^30)
 *     off 12 u16  n_sketch         sketch points after the paths, 0 .. k - 1
 *     off 14 u16  reserved         = 0
 *   then n_paths paths, most costly first, each:
 *     off 0  i64  cost_ns          >= 0, non-increasing from path to path
 *     off 8  u16  n_iv             intervals that follow, 0 .. iv_cap
 *     off 10 u16  flags            RP_PATH_* (only known bits accepted)
 *     off 12 u32  n_evicted        prof mode: intervals opened, not kept
 *     off 16 u32  sampled_us       prof mode: sample weight taken on the path
 *     off 20 u32  dropped_us       prof mode: ... of it refused by a full buffer
 *     off 24 f32  w                how many paths it stands for, / 2^wexp
 *                                  (finite, >= 0)
 *     off 28      n_iv intervals of 8 bytes each:
 *                   u32 rank, u16 low, u16 high   (low <= high)
 *   then n_sketch sketch points (RP_SELECT=repr; pathset.h), each 12 bytes:
 *     off 0  i64  cost_ns          non-increasing, between the last and the
 *                                  first path's cost
 *     off 8  f32  w                as a path's (finite, >= 0)
 *
 * Size: 16 + sum over paths of (28 + 8 * n_iv) + 12 * n_sketch; at most
 * pathset_max_wire_bytes(k, iv_cap) = 16 + k * (28 + 8 * iv_cap) + 12 (k - 1).
 * (Version 1 had no sampled_us/dropped_us: 16-byte path headers; version
 * 2 no weights: an 8-byte header and 24-byte path headers; version 3 no
 * sketch: a 12-byte header.)
 * A decoder rejects (returns -1, set left empty) a buffer whose length
 * disagrees with total_length, a wrong version, nonzero reserved byte,
 * n_paths of 0 or above its k, n_iv above its iv_cap, unknown flags, a
 * negative cost, a weight that is negative or not finite, |wexp| > 2^30,
 * low > high, costs not sorted descending, more than k - 1 sketch points
 * or one outside the paths' cost range, or any read past
 * the end / unread trailing bytes.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "core/wire.h"

#define RP_PATH_FLAGS_KNOWN RP_PATH_OVERFLOW


size_t pathset_max_wire_bytes(uint32_t k, uint32_t iv_cap)
{
    return RP_PATHSET_HDR_BYTES +
           (size_t)k * (RP_PATH_HDR_BYTES + 8u * (size_t)iv_cap) +
           (size_t)(k ? k - 1 : 0) * RP_SKETCH_PT_BYTES;
}

static size_t encoded_size(const rp_pathset *ps)
{
    size_t sz = RP_PATHSET_HDR_BYTES;
    for (uint32_t i = 0; i < ps->n; i++)
        sz += RP_PATH_HDR_BYTES + 8u * (size_t)ps->p[i].n_iv;
    return sz + (size_t)ps->n_sk * RP_SKETCH_PT_BYTES;
}

static uint8_t *put(uint8_t *w, const void *v, size_t n)
{
    memcpy(w, v, n);
    return w + n;
}

size_t pathset_encode(const rp_pathset *ps, void *buf, size_t cap)
{
    size_t sz = encoded_size(ps);
    if (sz > cap || sz > UINT32_MAX || ps->n > UINT16_MAX || ps->n_sk > UINT16_MAX)
        return 0;
    uint8_t *w = buf;
    uint8_t version = RP_PATHSET_WIRE_VERSION, reserved = 0;
    uint16_t n_paths = (uint16_t)ps->n;
    uint32_t total = (uint32_t)sz;
    w = put(w, &version, 1);
    w = put(w, &reserved, 1);
    w = put(w, &n_paths, 2);
    w = put(w, &total, 4);
    w = put(w, &ps->wexp, 4);
    uint16_t n_sk = (uint16_t)ps->n_sk, reserved2 = 0;
    w = put(w, &n_sk, 2);
    w = put(w, &reserved2, 2);
    for (uint32_t i = 0; i < ps->n; i++) {
        const rp_path *p = &ps->p[i];
        w = put(w, p, RP_PATH_HDR_BYTES);   /* the wire's path header: same layout
                                              * (the assertion below); the reader
                                              * copies field by field, which
                                              * measured faster (store forwarding) */
        /* rp_interval is laid out exactly as on the wire: one copy. */
        if (p->n_iv)
            w = put(w, p->iv, (size_t)p->n_iv * sizeof *p->iv);
    }
    for (uint32_t i = 0; i < ps->n_sk; i++) {
        w = put(w, &ps->sk_cost[i], 8);
        w = put(w, &ps->sk_w[i], 4);
    }
    return sz;
}

/* Bounds-checked reader: every get fails once the cursor would pass end. */
typedef struct rd {
    const uint8_t *p, *end;
} rd;


_Static_assert(sizeof(rp_interval) == 8 && offsetof(rp_interval, low) == 4 &&
                   offsetof(rp_interval, high) == 6,
               "rp_interval must match the 8-byte wire interval");
_Static_assert(RP_PATH_HDR_BYTES == 28 && offsetof(rp_path, n_iv) == 8 &&
                   offsetof(rp_path, flags) == 10 && offsetof(rp_path, n_evicted) == 12 &&
                   offsetof(rp_path, sampled_us) == 16 && offsetof(rp_path, dropped_us) == 20 &&
                   offsetof(rp_path, w) == 24,
               "rp_path's first 28 bytes must match the wire's path header");

int pathset_wire_parse(const void *buf, size_t len, uint32_t k_cap, uint32_t iv_cap,
                       rp_wire_set *ws)
{
    const uint8_t *b = buf;
    uint16_t n_in, n_sk, reserved2;
    uint32_t total;
    int32_t wexp;
    ws->n = ws->n_sk = 0;
    if (b == NULL || len < RP_PATHSET_HDR_BYTES)
        return -1;
    memcpy(&n_in, b + 2, 2);
    memcpy(&total, b + 4, 4);
    memcpy(&wexp, b + 8, 4);
    memcpy(&n_sk, b + 12, 2);
    memcpy(&reserved2, b + 14, 2);
    if (b[0] != RP_PATHSET_WIRE_VERSION || b[1] != 0 || reserved2 != 0 || total != len ||
        n_in == 0 || n_in > k_cap || n_sk >= k_cap || wexp > (1 << 30) || wexp < -(1 << 30))
        return -1;
    rd r = { b + RP_PATHSET_HDR_BYTES, b + len };
    rp_path *hdr = ws->hdr;
    for (uint32_t i = 0; i < n_in; i++) {
        rp_path *p = &hdr[i];
        /* One bounds check for the path header. */
        if ((size_t)(r.end - r.p) < RP_PATH_HDR_BYTES)
            return -1;
        memcpy(&p->cost_ns, r.p, 8);
        memcpy(&p->n_iv, r.p + 8, 2);
        memcpy(&p->flags, r.p + 10, 2);
        memcpy(&p->n_evicted, r.p + 12, 4);
        memcpy(&p->sampled_us, r.p + 16, 4);
        memcpy(&p->dropped_us, r.p + 20, 4);
        memcpy(&p->w, r.p + 24, 4);
        r.p += RP_PATH_HDR_BYTES;
        size_t bytes = (size_t)p->n_iv * sizeof(rp_interval);
        if (p->cost_ns < 0 || !isfinite(p->w) || p->w < 0 || p->n_iv > iv_cap ||
            (p->flags & ~RP_PATH_FLAGS_KNOWN) ||
            (size_t)(r.end - r.p) < bytes)
            return -1;
        if (i > 0 && p->cost_ns > p[-1].cost_ns)
            return -1;
        p->iv = (rp_interval *)(uintptr_t)r.p;   /* the caller copies or reads in place */
        for (uint32_t q = 0; q < p->n_iv; q++) {
            uint16_t lo, hi;
            memcpy(&lo, r.p + 8 * q + 4, 2);
            memcpy(&hi, r.p + 8 * q + 6, 2);
            if (lo > hi)
                return -1;
        }
        r.p += bytes;
    }
    if ((size_t)(r.end - r.p) != (size_t)n_sk * RP_SKETCH_PT_BYTES)   /* short or trailing */
        return -1;
    int64_t hi_cost = hdr[0].cost_ns, lo_cost = hdr[n_in - 1].cost_ns;
    for (uint32_t i = 0; i < n_sk; i++, r.p += RP_SKETCH_PT_BYTES) {
        int64_t c;
        float w;
        memcpy(&c, r.p, 8);
        memcpy(&w, r.p + 8, 4);
        if (c > hi_cost || c < lo_cost || (i > 0 && c > ws->sk_cost[i - 1]) || !isfinite(w) ||
            w < 0)
            return -1;
        ws->sk_cost[i] = c;
        ws->sk_w[i] = w;
    }
    ws->n = n_in;
    ws->n_sk = n_sk;
    ws->wexp = wexp;
    return 0;
}

int pathset_decode(rp_pathset *ps, const void *buf, size_t len)
{
    ps->n = 0;
    uint32_t kc = ps->k_cap ? ps->k_cap : 1;
    rp_path hdr[kc];
    int64_t skc[kc];
    float skw[kc];
    rp_wire_set ws = { hdr, skc, skw, 0, 0, 0 };
    if (pathset_wire_parse(buf, len, ps->k_cap, ps->iv_cap, &ws) != 0)
        return -1;
    ps->wexp = ws.wexp;
    for (uint32_t i = 0; i < ws.n; i++) {
        rp_path *p = &ps->p[i];
        p->cost_ns = hdr[i].cost_ns;
        p->n_iv = hdr[i].n_iv;
        p->flags = hdr[i].flags;
        p->n_evicted = hdr[i].n_evicted;
        p->sampled_us = hdr[i].sampled_us;
        p->dropped_us = hdr[i].dropped_us;
        p->w = hdr[i].w;
        if (p->n_iv)   /* memcpy: the buffer need not be aligned */
            memcpy(p->iv, (const void *)hdr[i].iv, (size_t)p->n_iv * sizeof *p->iv);
    }
    memcpy(ps->sk_cost, skc, (size_t)ws.n_sk * sizeof *skc);
    memcpy(ps->sk_w, skw, (size_t)ws.n_sk * sizeof *skw);
    ps->n_sk = ws.n_sk;
    ps->n = ws.n;
    return 0;
}

uint32_t pathset_wire_len(const void *buf)
{
    uint32_t len;
    memcpy(&len, (const uint8_t *)buf + 4, 4);   /* total_length */
    return len;
}

int pathset_wire_top_cost(const void *buf, size_t len, int64_t *cost)
{
    if (len < RP_PATHSET_HDR_BYTES + 8)
        return -1;
    memcpy(cost, (const uint8_t *)buf + RP_PATHSET_HDR_BYTES, 8);   /* path 0's cost_ns */
    return 0;
}
