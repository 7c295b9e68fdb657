/* idtab.h - the tools' one hash index: open addressing with linear probing
 * over ids (slot = id + 1, 0 empty), load <= 1/2.  The caller owns the
 * records and says how to hash and compare them, so one probe loop serves
 * the string table, the hotspot sums and the view tree. */
#ifndef RP_IDTAB_H
#define RP_IDTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t *slots;
    uint32_t  nslots;  /* a power of two */
    uint32_t  n;       /* ids stored */
} rp_idtab;

/* Does record id equal the key being looked up? */
typedef int (*rp_idtab_eq)(const void *ctx, uint32_t id);
/* Hash of record id (for growing). */
typedef uint64_t (*rp_idtab_hash)(const void *ctx, uint32_t id);

/* An empty index with room for at least n ids before it must grow; -1 on ENOMEM. */
int idtab_init(rp_idtab *t, uint32_t n);
void idtab_free(rp_idtab *t);
/* The id equal to the key with this hash, or UINT32_MAX. */
uint32_t idtab_find(const rp_idtab *t, uint64_t hash, rp_idtab_eq eq, const void *ctx);
/* The id equal to the key, else `id` stored for it and returned.  The index
 * never grows here: call idtab_reserve first when ids are added without
 * bound. */
uint32_t idtab_intern(rp_idtab *t, uint64_t hash, rp_idtab_eq eq, const void *ctx, uint32_t id);
/* Room for one more id at load <= 1/2, rehashing every stored id with
 * hash(); -1 on ENOMEM (the index is unchanged). */
int idtab_reserve(rp_idtab *t, rp_idtab_hash hash, const void *ctx);

/* FNV-1a, 64-bit, with a seed to chain fields: simple, good enough for
 * names and small keys. */
uint64_t rp_hash_bytes(const void *p, size_t n, uint64_t seed);

#endif
