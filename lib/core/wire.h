/* wire.h - the path-set wire format: the one codec (wire.c), used by the
 * point-to-point protocol, the collectives and the join from received bytes
 * (pathset_join_wire).  Layout: doc/formats.md and wire.c's top comment.
 * Pure C. */
#ifndef RP_WIRE_H
#define RP_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "core/pathset.h"

/* Wire format version of an encoded path-set (doc/formats.md). */
#define RP_PATHSET_WIRE_VERSION 9
#define RP_PATHSET_HDR_BYTES    12u

/* Largest encoded size for a set of k paths with iv_cap intervals each
 * (and k - 1 sketch points), whatever its costs and fields. */
size_t pathset_max_wire_bytes(uint32_t k, uint32_t iv_cap);
/* Encode only the used intervals.  Returns bytes written, or 0 if cap is
 * too small. */
size_t pathset_encode(const rp_pathset *ps, void *buf, size_t cap);

/* Summaries by reference.  A carrier through which both ranks can read
 * something both hold (the mailbox's shared memory) may carry a named
 * path's summary (rp_path.sid) as its name and a locator instead of the
 * fields and intervals: the receiver takes them from a path of its own of
 * that name if it has one, else from where the locator points.  The wire
 * marks such a path REF (doc/formats.md); a reader without a resolver
 * rejects it, so files and MPI messages never hold one. */
typedef struct rp_wire_refs {
    /* sender: make path p's summary (p->sid != 0) readable by the receiver
     * until it has taken this set; 0 and its locator in *ref, or -1 (then
     * the summary travels in the set) */
    int (*place)(void *ctx, const rp_path *p, uint32_t *ref);
    /* receiver: fill hdr's n_iv, flags, n_evicted, sampled_us, dropped_us
     * and iv (read-only, valid until the join is over) for the summary
     * named sid at locator ref; 0, or -1 if it cannot (malformed) */
    int (*resolve)(void *ctx, uint64_t sid, uint32_t ref, rp_path *hdr);
    void *ctx;
    /* 0: only summaries whose REF entry is shorter than their fields and
     * intervals (the encoding is then never longer than pathset_encode's);
     * 1: every named summary with intervals (tests: RP_MAILBOX_REFS=all) */
    int always;
} rp_wire_refs;
/* pathset_encode, with named summaries placed by refs->place where it can
 * (refs NULL: pathset_encode); at most pathset_max_wire_bytes. */
size_t pathset_encode_refs(const rp_pathset *ps, void *buf, size_t cap, const rp_wire_refs *refs);
/* Decode into ps (whose capacities bound what is accepted).  Returns 0, or
 * -1 on a malformed/truncated/oversized buffer (ps then holds 0 paths). */
int    pathset_decode(rp_pathset *ps, const void *buf, size_t len);

/* What pathset_wire_parse reads: the caller's arrays (room for k_cap
 * entries each) and the counts. */
typedef struct rp_wire_set {
    rp_path *hdr;       /* path headers; hdr[i].iv points into the buffer */
    int64_t *sk_cost;   /* sketch points */
    float   *sk_w;
    uint32_t n;         /* paths */
    int32_t  wexp;      /* the weights' power of two */
    uint32_t n_sk;      /* sketch points */
    const rp_wire_refs *refs;   /* resolver for REF paths; NULL: they are malformed */
} rp_wire_set;

/* Check an encoding (the same checks as pathset_decode) and read its path
 * headers and sketch points into ws; ws->hdr[i].iv points at path i's
 * intervals inside buf, which are 4-byte aligned only if buf is (then they
 * may be read in place).  0, or -1 for a malformed buffer. */
int pathset_wire_parse(const void *buf, size_t len, uint32_t k_cap, uint32_t iv_cap,
                       rp_wire_set *ws);
/* The total_length field of an encoding's header (buf holds >= 8 bytes). */
uint32_t pathset_wire_len(const void *buf);
/* The cost of an encoding's most critical path; 0, or -1 if too short. */
int pathset_wire_top_cost(const void *buf, size_t len, int64_t *cost);

#endif
