/* wire.c - the one codec of the path-set wire format (doc/formats.md).
 *
 * Wire format of an encoded path-set (version RP_PATHSET_WIRE_VERSION = 9).
 * All integers little-endian (host order: every rank of a job shares one
 * architecture); fields are packed with no padding except before the
 * intervals, and read with memcpy, so the buffer needs no alignment.
 * Version 9 gives bits 24..30 of a (non-link) interval's rank the task
 * index's epoch (path mode, pathset.h rp_iv_key), else version 8's bytes.
 * Version 8 adds the link interval (a path's first; path mode's chains),
 * else version 7's bytes.
 * Version 7 adds the REF path entry (mask 0x40: a summary named, not
 * carried; only between ranks of a node, wire.h), else version 6's bytes.
 * Version 6 has version 5's layout; its sketch points are the mean cost and
 * weight of the paths a join dropped in a gap between two kept paths, at
 * most one a gap (pathset.c), where version 5's were points at the odd
 * weighted quantiles.
 * Version 5 is compact: a field that is zero in the common case is left
 * out (a bit of the path's mask says it is there), and costs travel as
 * differences that fit 4 bytes unless they pass 2^32 ns.  A full set of
 * k = 5 paths without intervals is 89 bytes (version 4: 204), under every
 * transport's inline-send size (issue 16); the join reads the same path
 * headers out of it (pathset_wire_parse).
 *
 *   header, 12 bytes:
 *     off 0  u8   version          = 9
 *     off 1  u8   n_paths          1 .. k
 *     off 2  u8   n_sketch         sketch points, 0 .. k - 1
 *     off 3  u8   set flags        0x01 SK_WIDE: sketch deltas are 8 bytes
 *                                  (only when one is >= 2^32); others 0
 *     off 4  u32  total_length     bytes of the whole encoding, header included
 *     off 8  i32  wexp             the weights are w * 2^wexp (|wexp| <= 2^30)
 *   then n_paths path entries, most costly first, each:
 *     u8   mask     0x01 WIDE (the cost field is 8 bytes, else 4), 0x02 n_iv,
 *                   0x04 flags, 0x08 n_evicted, 0x10 sampled_us,
 *                   0x20 dropped_us are present; 0x40 REF; 0x80 must be 0
 *     u32|u64 cost  path 0: cost_ns; path i > 0: cost_ns of path i - 1
 *                   minus its own (>= 0: the costs never rise)
 *     REF entry (mask 0x40, with at most WIDE beside it): then
 *       u64 sid, nonzero (the summary's name, pathset.h), u32 ref (where
 *       the carrier keeps it), f32 w; its summary fields and intervals are
 *       not in the encoding (the reader's resolver supplies them)
 *     else:
 *     [u16 n_iv]    intervals of this path (1 .. iv_cap)      absent: 0
 *     [u16 flags]   RP_PATH_* (only known bits)               absent: 0
 *     [u32 n_evicted]  prof mode: intervals opened, not kept    absent: 0
 *     [u32 sampled_us] prof mode: sample weight on the path     absent: 0
 *     [u32 dropped_us] prof mode: ... refused by a full buffer  absent: 0
 *     f32  w        how many paths it stands for, / 2^wexp (finite, >= 0)
 *   then n_sketch sketch points (RP_SELECT=repr; pathset.h: at most one
 *   in each gap between two paths, at the mean of the weight it holds), each:
 *     u32|u64 delta the previous point's cost (the first: path 0's) minus
 *                   its own; the cost lies within the paths' cost range
 *     f32  w        as a path's
 *   then, if any path has intervals, 0-3 zero bytes up to a multiple of 4
 *   from the start of the encoding, and every path's intervals in path
 *   order, 8 bytes each: u32 rank, u16 low, u16 high (low <= high; rank
 *   bits 0..23 the rank, 24..30 the epoch: tasks e * 65536 + low .. high,
 *   pathset.h rp_iv_key; epoch 0 and the whole rank in prof mode and in
 *   worlds of more than 2^24 ranks), or,
 *   only as a path's first interval, a link (path mode): rank with bit 31
 *   set, low | high << 16 a segment number (pathset.h RP_IV_LINK, chain.c).
 *   (At the end, 4-aligned: the join reads them in place from an aligned
 *   buffer.)
 *
 * The encoding is canonical: a present field is nonzero and a wide cost or
 * delta is >= 2^32, so decode + encode gives back the same bytes.
 * Size: 12 + sum over paths of (1 + 4 + 4, + 4 if wide, + 2, 2, 4, 4, 4 for
 * the present fields) + (4 or 8 + 4) per sketch point + pad + 8 per interval;
 * at most pathset_max_wire_bytes(k, iv_cap) = 12 + 29 k + 12 (k - 1) + 3 +
 * 8 k iv_cap.  A REF entry is 1 + 4|8 + 8 + 4 + 4 bytes (at most 25).  (Version 4 had fixed 28-byte path headers, 12-byte sketch
 * points and a 16-byte header; 3 no sketch; 2 no weights; 1 no
 * sampled_us/dropped_us.)
 * A decoder rejects (returns -1, set left empty) a buffer whose length
 * disagrees with total_length, a wrong version, unknown mask or set-flag
 * bits, a non-canonical field, n_paths of 0 or above its k, n_iv above its
 * iv_cap, unknown path flags, a cost above INT64_MAX, a difference that
 * would make a cost negative, a weight that is negative or not finite,
 * |wexp| > 2^30, low > high (not a link), a link not first, more than k - 1 sketch points or one outside
 * the paths' cost range, nonzero padding, or any read past the end /
 * unread trailing bytes; and a REF entry when it has no resolver, with
 * any bit beside WIDE, a zero sid, or one its resolver refuses.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "core/wire.h"

#define RP_PATH_FLAGS_KNOWN RP_PATH_OVERFLOW

/* path entry mask bits and set flags (above) */
enum {
    M_WIDE = 0x01, M_IV = 0x02, M_FLAGS = 0x04, M_EVICT = 0x08, M_SAMPLED = 0x10,
    M_DROPPED = 0x20, M_KNOWN = 0x3f, M_REF = 0x40,
    S_SK_WIDE = 0x01, S_KNOWN = 0x01,
};
#define PATH_MAX_BYTES 29u   /* mask, 8-byte cost, every optional field, w */
#define SK_MAX_BYTES   12u
#define WIDE(v)        ((uint64_t)(v) > UINT32_MAX)

size_t pathset_max_wire_bytes(uint32_t k, uint32_t iv_cap)
{
    return RP_PATHSET_HDR_BYTES + (size_t)k * PATH_MAX_BYTES +
           (size_t)(k ? k - 1 : 0) * SK_MAX_BYTES + (iv_cap ? 3u : 0u) +
           8u * (size_t)k * (size_t)iv_cap;
}

/* Bytes of a path entry's optional fields, by mask >> 1 (n_iv, flags,
 * n_evicted, sampled_us, dropped_us). */
static const uint8_t opt_bytes[32] = {
#define OB(x) (((x) & 1) * 2 + ((x) >> 1 & 1) * 2 + ((x) >> 2 & 1) * 4 + ((x) >> 3 & 1) * 4 + \
               ((x) >> 4 & 1) * 4)
    OB(0), OB(1), OB(2), OB(3), OB(4), OB(5), OB(6), OB(7), OB(8), OB(9), OB(10), OB(11),
    OB(12), OB(13), OB(14), OB(15), OB(16), OB(17), OB(18), OB(19), OB(20), OB(21), OB(22),
    OB(23), OB(24), OB(25), OB(26), OB(27), OB(28), OB(29), OB(30), OB(31)
#undef OB
};

/* What path i's cost field carries: its cost (path 0) or the step down
 * from the path before. */
static uint64_t cost_field(const rp_pathset *ps, uint32_t i)
{
    return i ? (uint64_t)(ps->p[i - 1].cost_ns - ps->p[i].cost_ns) : (uint64_t)ps->p[0].cost_ns;
}

/* The mask of path p whose cost field is c, and its entry's bytes. */
static uint32_t path_mask(const rp_path *p, uint64_t c, size_t *bytes)
{
    uint32_t m = WIDE(c) ? M_WIDE : 0;
    if (p->n_iv)       m |= M_IV;
    if (p->flags)      m |= M_FLAGS;
    if (p->n_evicted)  m |= M_EVICT;
    if (p->sampled_us) m |= M_SAMPLED;
    if (p->dropped_us) m |= M_DROPPED;
    *bytes = 1 + ((m & M_WIDE) ? 8 : 4) + opt_bytes[m >> 1] + 4;
    return m;
}

/* S_SK_WIDE if a sketch point lies 2^32 ns or more below the one before
 * (the first: below path 0), else 0. */
static uint8_t sketch_flags(const rp_pathset *ps)
{
    int64_t prev = ps->p[0].cost_ns;
    for (uint32_t i = 0; i < ps->n_sk; prev = ps->sk_cost[i++])
        if (WIDE(prev - ps->sk_cost[i]))
            return S_SK_WIDE;
    return 0;
}

static uint8_t *put(uint8_t *w, const void *v, size_t n)
{
    memcpy(w, v, n);
    return w + n;
}

/* a cost or difference, 4 or 8 bytes */
static uint8_t *put_cost(uint8_t *w, uint64_t c, int wide)
{
    if (wide)
        return put(w, &c, 8);
    uint32_t c32 = (uint32_t)c;
    return put(w, &c32, 4);
}

/* The exact size of ps's encoding; sflags its sketch_flags, refd the
 * paths written as REF entries (bit i: path i). */
static size_t encoded_size(const rp_pathset *ps, uint8_t sflags, uint64_t refd)
{
    size_t sz = RP_PATHSET_HDR_BYTES, n_iv = 0, b;
    for (uint32_t i = 0; i < ps->n; i++) {
        if (refd >> i & 1) {
            sz += 1 + (WIDE(cost_field(ps, i)) ? 8 : 4) + 16;
            continue;
        }
        path_mask(&ps->p[i], cost_field(ps, i), &b);
        sz += b;
        n_iv += ps->p[i].n_iv;
    }
    sz += (size_t)ps->n_sk * (sflags ? 12u : 8u);
    return sz + (n_iv ? ((0u - sz) & 3u) + 8u * n_iv : 0);
}

size_t pathset_encode(const rp_pathset *ps, void *buf, size_t cap)
{
    return pathset_encode_refs(ps, buf, cap, NULL);
}

size_t pathset_encode_refs(const rp_pathset *ps, void *buf, size_t cap, const rp_wire_refs *refs)
{
    if (ps->n == 0 || ps->n > UINT8_MAX || ps->n_sk > UINT8_MAX)
        return 0;
    /* Which summaries go by reference (placed first: placing has effects
     * the size must see). */
    uint64_t refd = 0;
    uint32_t ref[RP_PATHSET_MAX_K];
    if (refs && ps->n <= RP_PATHSET_MAX_K)
        for (uint32_t i = 0; i < ps->n; i++) {
            const rp_path *p = &ps->p[i];
            if (!p->sid || !p->n_iv)
                continue;
            uint64_t c = cost_field(ps, i);
            size_t b, refb = 1 + (WIDE(c) ? 8 : 4) + 16;
            path_mask(p, c, &b);
            /* only where it is shorter, padding included: never longer */
            if ((refs->always || b + 8u * p->n_iv >= refb + 3) &&
                refs->place(refs->ctx, p, &ref[i]) == 0)
                refd |= 1ull << i;
        }
    /* The runtime's buffers hold any set of its capacities: then one pass,
     * which learns the size as it writes; else measure first. */
    uint8_t sflags = sketch_flags(ps);
    if (cap < pathset_max_wire_bytes(ps->n_sk >= ps->n ? ps->n_sk + 1 : ps->n, ps->iv_cap) &&
        encoded_size(ps, sflags, refd) > cap)
        return 0;
    uint8_t *w = buf, *start = buf;
    uint8_t h[4] = { RP_PATHSET_WIRE_VERSION, (uint8_t)ps->n, (uint8_t)ps->n_sk, sflags };
    w = put(w, h, 4);
    w += 4;   /* total_length, below */
    w = put(w, &ps->wexp, 4);
    size_t n_iv = 0, b;
    for (uint32_t i = 0; i < ps->n; i++) {
        const rp_path *p = &ps->p[i];
        uint64_t c = cost_field(ps, i);
        if (refd && (refd >> i & 1)) {   /* the name and where it is kept */
            *w++ = (uint8_t)(M_REF | (WIDE(c) ? M_WIDE : 0));
            w = put_cost(w, c, WIDE(c));
            w = put(w, &p->sid, 8);
            w = put(w, &ref[i], 4);
            w = put(w, &p->w, 4);
            continue;
        }
        if (!(p->n_iv | p->flags | p->n_evicted | p->sampled_us | p->dropped_us)) {
            *w++ = WIDE(c) ? M_WIDE : 0;   /* the usual entry, kept short: 8 -> 18 ns */
            w = put_cost(w, c, WIDE(c));
            w = put(w, &p->w, 4);
            continue;
        }
        uint32_t m = path_mask(p, c, &b);
        *w++ = (uint8_t)m;
        w = put_cost(w, c, m & M_WIDE);
        if (m & M_IV)      w = put(w, &p->n_iv, 2);
        if (m & M_FLAGS)   w = put(w, &p->flags, 2);
        if (m & M_EVICT)   w = put(w, &p->n_evicted, 4);
        if (m & M_SAMPLED) w = put(w, &p->sampled_us, 4);
        if (m & M_DROPPED) w = put(w, &p->dropped_us, 4);
        w = put(w, &p->w, 4);
        n_iv += p->n_iv;
    }
    int64_t prev = ps->p[0].cost_ns;
    for (uint32_t i = 0; i < ps->n_sk; prev = ps->sk_cost[i++]) {
        w = put_cost(w, (uint64_t)(prev - ps->sk_cost[i]), sflags);
        w = put(w, &ps->sk_w[i], 4);
    }
    if (n_iv) {
        while ((size_t)(w - start) & 3u)
            *w++ = 0;
        /* rp_interval is laid out exactly as on the wire: one copy a path */
        for (uint32_t i = 0; i < ps->n; i++)
            if (ps->p[i].n_iv && !(refd >> i & 1))
                w = put(w, ps->p[i].iv, (size_t)ps->p[i].n_iv * sizeof(rp_interval));
    }
    uint32_t total = (uint32_t)(w - start);
    memcpy(start + 4, &total, 4);
    return total;
}

_Static_assert(sizeof(rp_interval) == 8 && offsetof(rp_interval, low) == 4 &&
                   offsetof(rp_interval, high) == 6,
               "rp_interval must match the 8-byte wire interval");


/* A cost or difference of 4 or 8 bytes at r; -1 if the width is not the
 * canonical one. */
static int get_cost(const uint8_t *r, int wide, uint64_t *c)
{
    if (wide) {
        memcpy(c, r, 8);
        return WIDE(*c) ? 0 : -1;
    }
    uint32_t c32;
    memcpy(&c32, r, 4);
    *c = c32;
    return 0;
}

/* An optional field of n bytes: read into dst if present (the cursor
 * moves past it), else 0.  A present field must be nonzero (canonical):
 * *bad says otherwise. */
static const uint8_t *opt_field(const uint8_t *r, uint32_t present, void *dst, size_t n, int *bad)
{
    static const uint8_t zero[4];
    memcpy(dst, present ? r : zero, n);
    *bad |= present && memcmp(dst, zero, n) == 0;
    return present ? r + n : r;
}

int pathset_wire_parse(const void *buf, size_t len, uint32_t k_cap, uint32_t iv_cap,
                       rp_wire_set *ws)
{
    const uint8_t *b = buf;
    uint32_t total;
    int32_t wexp;
    ws->n = ws->n_sk = 0;
    if (b == NULL || len < RP_PATHSET_HDR_BYTES)
        return -1;
    uint32_t n_in = b[1], n_sk = b[2], sflags = b[3];
    memcpy(&total, b + 4, 4);
    memcpy(&wexp, b + 8, 4);
    if (b[0] != RP_PATHSET_WIRE_VERSION || (sflags & ~S_KNOWN) || total != len ||
        n_in == 0 || n_in > k_cap || n_sk >= k_cap || wexp > (1 << 30) || wexp < -(1 << 30))
        return -1;
    const uint8_t *r = b + RP_PATHSET_HDR_BYTES, *end = b + len;
    rp_path *hdr = ws->hdr;
    size_t n_iv = 0;
    uint64_t refd = 0;   /* paths whose summary the resolver supplied */
    uint64_t prev = INT64_MAX;   /* path 0's cost may be anything up to it */
    for (uint32_t i = 0; i < n_in; i++) {
        rp_path *p = &hdr[i];
        if (r == end)
            return -1;
        uint32_t m = *r;
        if (m == 0 && (size_t)(end - r) >= 9) {
            /* the usual entry, cost and weight only (as encode writes it
             * short): the same checks as below, without the optional
             * fields' copies (decode 37 -> 29 ns at k = 5 on the session-12 VM) */
            uint32_t c32;
            memcpy(&c32, r + 1, 4);
            memcpy(&p->w, r + 5, 4);
            r += 9;
            if ((uint64_t)c32 > prev || !isfinite(p->w) || p->w < 0)
                return -1;
            prev = i ? prev - c32 : c32;
            p->cost_ns = (int64_t)prev;
            p->sid = 0;
            p->n_iv = p->flags = 0;
            p->n_evicted = p->sampled_us = p->dropped_us = 0;
            continue;
        }
        if (m & M_REF) {   /* a summary by name (wire.h) */
            size_t need = 1 + ((m & M_WIDE) ? 8 : 4) + 16;
            uint64_t c;
            if ((m & ~(M_REF | M_WIDE)) || (size_t)(end - r) < need || !ws->refs ||
                get_cost(r + 1, m & M_WIDE, &c) != 0 || c > prev)
                return -1;
            r += (m & M_WIDE) ? 9 : 5;
            prev = i ? prev - c : c;
            p->cost_ns = (int64_t)prev;
            uint32_t ref;
            memcpy(&p->sid, r, 8);
            memcpy(&ref, r + 8, 4);
            memcpy(&p->w, r + 12, 4);
            r += 16;
            if (p->sid == 0 || !isfinite(p->w) || p->w < 0 ||
                ws->refs->resolve(ws->refs->ctx, p->sid, ref, p) != 0 || p->n_iv > iv_cap ||
                (p->flags & ~RP_PATH_FLAGS_KNOWN))
                return -1;
            refd |= 1ull << i;
            continue;
        }
        /* one bounds check for the whole entry */
        size_t need = 1 + ((m & M_WIDE) ? 8 : 4) + opt_bytes[(m >> 1) & 31] + 4;
        if ((m & ~M_KNOWN) || (size_t)(end - r) < need)
            return -1;
        uint64_t c;
        if (get_cost(r + 1, m & M_WIDE, &c) != 0)
            return -1;
        r += (m & M_WIDE) ? 9 : 5;
        if (c > prev)   /* above INT64_MAX, or a difference below 0 */
            return -1;
        prev = i ? prev - c : c;
        p->cost_ns = (int64_t)prev;
        p->sid = 0;
        int bad = 0;
        r = opt_field(r, m & M_IV, &p->n_iv, 2, &bad);
        r = opt_field(r, m & M_FLAGS, &p->flags, 2, &bad);
        r = opt_field(r, m & M_EVICT, &p->n_evicted, 4, &bad);
        r = opt_field(r, m & M_SAMPLED, &p->sampled_us, 4, &bad);
        r = opt_field(r, m & M_DROPPED, &p->dropped_us, 4, &bad);
        memcpy(&p->w, r, 4);
        r += 4;
        if (bad || !isfinite(p->w) || p->w < 0 || p->n_iv > iv_cap ||
            (p->flags & ~RP_PATH_FLAGS_KNOWN))
            return -1;
        n_iv += p->n_iv;
    }
    int64_t lo_cost = hdr[n_in - 1].cost_ns;
    size_t skb = (sflags & S_SK_WIDE) ? 12 : 8;
    if ((size_t)(end - r) < (size_t)n_sk * skb)
        return -1;
    uint64_t sprev = (uint64_t)hdr[0].cost_ns;
    int any_wide = 0;
    for (uint32_t i = 0; i < n_sk; i++, r += skb) {
        uint64_t d;
        float w;
        memcpy(&w, r + skb - 4, 4);
        if (skb == 12) {
            memcpy(&d, r, 8);
            any_wide |= WIDE(d);
        } else {
            get_cost(r, 0, &d);
        }
        if (d > sprev - (uint64_t)lo_cost || !isfinite(w) || w < 0)   /* below the shortest */
            return -1;
        sprev -= d;
        ws->sk_cost[i] = (int64_t)sprev;
        ws->sk_w[i] = w;
    }
    if (skb == 12 && !any_wide)   /* SK_WIDE without a wide delta: not canonical */
        return -1;
    if (n_iv) {
        size_t pad = (0u - (size_t)(r - b)) & 3u;
        if ((size_t)(end - r) < pad)
            return -1;
        for (size_t q = 0; q < pad; q++)
            if (*r++ != 0)
                return -1;
    }
    if ((size_t)(end - r) != 8u * n_iv)   /* short or trailing */
        return -1;
    for (uint32_t i = 0; i < n_in; i++) {
        rp_path *p = &hdr[i];
        if (refd >> i & 1)
            continue;   /* the resolver's */
        p->iv = (rp_interval *)(uintptr_t)r;   /* the caller copies or reads in place */
        for (uint32_t q = 0; q < p->n_iv; q++, r += 8) {
            rp_interval iv;
            memcpy(&iv, r, sizeof iv);
            if (!rp_iv_ok(&iv, q))
                return -1;
        }
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
    rp_wire_set ws = { hdr, skc, skw, 0, 0, 0, NULL };
    if (pathset_wire_parse(buf, len, ps->k_cap, ps->iv_cap, &ws) != 0)
        return -1;
    ps->wexp = ws.wexp;
    for (uint32_t i = 0; i < ws.n; i++) {
        rp_path *p = &ps->p[i];
        p->cost_ns = hdr[i].cost_ns;
        p->sid = hdr[i].sid;
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
    const uint8_t *b = buf;
    uint64_t c;
    if (len < RP_PATHSET_HDR_BYTES + 9)
        return -1;
    get_cost(b + RP_PATHSET_HDR_BYTES + 1, b[RP_PATHSET_HDR_BYTES] & M_WIDE, &c);   /* path 0's */
    *cost = (int64_t)c;
    return 0;
}
