/* counters.h - the one table of counters (counters.def): ids, names, kinds,
 * and the runtime's storage.  Pure C. */
#ifndef RP_COUNTERS_H
#define RP_COUNTERS_H

#include <stdint.h>

typedef enum { RP_CK_INFO = 0, RP_CK_LOSS = 1 } rp_counter_kind;

enum {
#define RP_COUNTER(id, name, kind, meaning, remedy) RP_CNT_##id,
#include "core/counters.def"
#undef RP_COUNTER
    RP_CNT__N
};

typedef struct rp_counter_info {
    const char     *name;     /* as written into the rank file */
    rp_counter_kind kind;
    const char     *meaning;  /* one line, for warnings and doc/environment.md */
    const char     *remedy;   /* the setting that helps, "" if none */
} rp_counter_info;

extern const rp_counter_info rp_counter_table[RP_CNT__N];

/* The row named `name`, or NULL (a counter from another version). */
const rp_counter_info *rp_counter_lookup(const char *name);

/* The runtime's values, indexed by RP_CNT_*.  Written by the main thread
 * only, except RP_CNT_OTHER_THREAD_CALLS (atomic). */
extern uint64_t rp_counters[RP_CNT__N];

#endif
