/* warnings.c - warnings generated from the counter table (warnings.h). */
#include "report/warnings.h"

#include <stdlib.h>
#include <string.h>
#include "core/counters.h"

/* Counters from another version of rpprof are not in our table: fall back
 * to what their names say. */
static int sounds_like_loss(const char *name)
{
    static const char *const bad[] = {"drop", "overflow", "evict", "clamp", "lost", "fail",
                                      "trunc", "error", "full", "unmatched", "unsupported"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strstr(name, bad[i]))
            return 1;
    return 0;
}

uint32_t report_warnings(const rp_counter *c, uint32_t n, rp_warning *out, uint32_t max)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!c[i].value)
            continue;
        char name[sizeof c[i].name + 1];
        memcpy(name, c[i].name, sizeof c[i].name);
        name[sizeof c[i].name] = 0;
        const rp_counter_info *row = rp_counter_lookup(name);
        rp_warning x = {c[i].name, c[i].value, NULL, ""};
        if (row) {
            if (row->kind != RP_CK_LOSS)
                continue;
            x.meaning = row->meaning;
            x.remedy = row->remedy;
        } else {
            if (!sounds_like_loss(name))
                continue;
            x.meaning = "a counter this version of rp-report does not know (the rank files "
                        "come from another version); its name says data was lost";
        }
        if (w < max)
            out[w] = x;
        w++;
    }
    return w;
}

uint32_t report_warnings_print(FILE *f, const char *prefix, const rp_counter *c, uint32_t n)
{
    rp_warning *w = malloc((n ? n : 1) * sizeof *w);
    if (!w) {   /* no memory for the list: still say that something was lost */
        fprintf(f, "%swarning: out of memory listing the loss counters\n", prefix);
        return 1;
    }
    uint32_t m = report_warnings(c, n, w, n);
    for (uint32_t i = 0; i < m; i++)
        fprintf(f, "%swarning: %.48s = %llu (summed over ranks): %s%s%s\n", prefix, w[i].counter,
                (unsigned long long)w[i].value, w[i].meaning, *w[i].remedy ? "; " : "",
                w[i].remedy);
    free(w);
    return m;
}

int32_t report_sum_counters(const rp_rankdata *rd, const uint8_t *present, uint32_t nranks,
                            rp_counter **out)
{
    uint32_t n = 0, cap = 0;
    rp_counter *c = NULL;
    for (uint32_t r = 0; r < nranks; r++) {
        if (present && !present[r])
            continue;
        for (uint32_t i = 0; i < rd[r].n_counters; i++) {
            const rp_counter *x = &rd[r].counters[i];
            uint32_t j = 0;
            while (j < n && strncmp(c[j].name, x->name, sizeof c[j].name))
                j++;
            if (j == n) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 64;
                    rp_counter *g = realloc(c, cap * sizeof *c);
                    if (!g) {
                        free(c);
                        return -1;
                    }
                    c = g;
                }
                c[n] = *x;
                c[n++].value = 0;
            }
            c[j].value += x->value;
        }
    }
    *out = c;
    return (int32_t)n;
}
