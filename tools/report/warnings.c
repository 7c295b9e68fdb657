/* warnings.c - warnings generated from the counter table (warnings.h). */
#include "report/warnings.h"
#include "report/model.h"

#include <stdlib.h>
#include <string.h>
#include "core/counters.h"
#include "core/config.h"   /* RP_MAX_SUMMARY */
#include <stdio.h>

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

void report_sampling_line(const rp_profile *p, char *buf, size_t n)
{
    if (!p->period_us) {
        snprintf(buf, n, "sampling off");
        return;
    }
    const char *clk = p->clock == RP_CLOCK_CPU ? "cpu" : "wall";
    uint64_t samples = report_counter(p, "samples");
    uint64_t blocked = report_counter(p, "sigprof_blocked_us");
    uint64_t took = report_counter(p, "sampling_lost_app_sigprof");
    const char *why = blocked ? "SIGPROF blocked or ignored by the program (sigprof_blocked_us)"
                      : took  ? "the program took SIGPROF over (sampling_lost_app_sigprof)"
                              : NULL;
    /* the ranks' time together, to weigh the blocked time against */
    double all = (double)p->wall_ns / 1e9 * (p->ranks_present ? p->ranks_present : 1);
    double off = (double)blocked / 1e6;
    if (off > all)   /* an ignored SIGPROF counts until the file is written */
        off = all;
    if (samples == 0 && (why || p->wall_ns > 10 * (int64_t)p->period_us * 1000))
        snprintf(buf, n, "sampling every %u us requested (%s clock), 0 samples%s%s", p->period_us,
                 clk, why ? ": " : "", why ? why : "");
    else if (blocked && off >= 0.5 * all)
        snprintf(buf, n, "sampling every %u us requested (%s clock), %llu samples: %s for "
                 "%.3f s of the ranks' %.3f s", p->period_us, clk, (unsigned long long)samples,
                 why, off, all);
    else if (blocked)
        snprintf(buf, n, "sampling every %u us (%s clock) except for %.3f s of the ranks' "
                 "%.3f s: %s", p->period_us, clk, off, all, why);
    else if (took)
        snprintf(buf, n, "sampling every %u us (%s clock) until %s", p->period_us, clk, why);
    else
        snprintf(buf, n, "sampling every %u us (%s clock)", p->period_us, clk);
}
