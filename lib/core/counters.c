/* counters.c - the table of counters generated from counters.def. */
#include <string.h>
#include "core/counters.h"

const rp_counter_info rp_counter_table[RP_CNT__N] = {
#define RP_COUNTER(id, nm, kd, mn, rm) [RP_CNT_##id] = { .name = nm, .kind = kd, .meaning = mn, .remedy = rm },
#include "core/counters.def"
#undef RP_COUNTER
};

uint64_t rp_counters[RP_CNT__N];

const rp_counter_info *rp_counter_lookup(const char *name)
{
    for (int i = 0; i < RP_CNT__N; i++)
        if (strcmp(rp_counter_table[i].name, name) == 0)
            return &rp_counter_table[i];
    return NULL;
}
