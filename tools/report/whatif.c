/* whatif.c - rp-report --what-if (whatif.h). */
#include "report/whatif.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/select.h"
#include "core/vocab.h"
#include "common/names.h"
#include "common/paths.h"
#include "report/precision.h"
#include "report/model.h"

int whatif_parse(const char *arg, rp_whatif *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    const char *eq = strrchr(arg, '=');
    if (!eq || eq == arg) {
        snprintf(err, errlen, "--what-if wants FUNCTION=PERCENT or FILE:LINE=PERCENT, not '%s'",
                 arg);
        return -1;
    }
    char *end;
    errno = 0;
    double pc = strtod(eq + 1, &end);
    if (*end == '%')
        end++;
    if (errno || end == eq + 1 || *end || !(pc > 0 && pc <= 100)) {
        snprintf(err, errlen, "--what-if: PERCENT must be a number in (0, 100], not '%s'", eq + 1);
        return -1;
    }
    size_t n = (size_t)(eq - arg);
    if (n >= sizeof w->target) {
        snprintf(err, errlen, "--what-if: the name is too long (%zu characters)", n);
        return -1;
    }
    memcpy(w->target, arg, n);
    w->target[n] = 0;
    w->percent = pc;
    /* FILE:LINE: a colon followed by digits only (C++'s "a::b" is a name) */
    char *colon = strrchr(w->target, ':');
    if (colon && colon > w->target && colon[1] && colon[-1] != ':' &&
        strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        unsigned long line = strtoul(colon + 1, NULL, 10);
        if (line == 0 || line > UINT32_MAX) {
            snprintf(err, errlen, "--what-if: bad line number in '%s'", w->target);
            return -1;
        }
        w->line = (uint32_t)line;
        *colon = 0;
    }
    return 0;
}

int64_t *whatif_phase_costs(const rp_run *run, uint32_t k, uint64_t *nphases)
{
    *nphases = 0;
    if (!run || run->nphases == 0 || k == 0)
        return NULL;
    int64_t *c = calloc(run->nphases * k, sizeof *c);
    if (!c)
        return NULL;
    uint64_t m = 0;
    for (uint64_t q = 0; q < run->nphases; q++) {
        uint32_t n = run_npaths(run, q);
        if (n == 0)
            continue;   /* a phase without paths (none kept): nothing to scale */
        for (uint32_t j = 0; j < k; j++) {
            const rp_pathsum *ps = run_pathsum(run, q, run_level_path(run, q, j));
            c[m * k + j] = ps ? ps->cost_ns : 0;
        }
        m++;
    }
    *nphases = m;
    return c;
}

/* Does hotspot h name the target?  A function: its full name, the name
 * before its parameter list, or the name with template arguments elided.
 * A line: the same line in a file whose path is the target or ends in
 * "/target". */
static int matches(const rp_profile *p, const rp_hot *h, const rp_whatif *w)
{
    if (w->line) {
        if (h->line != w->line)
            return 0;
        const char *file = p->strs[h->file];
        size_t fl = strlen(file), tl = strlen(w->target);
        return !strcmp(file, w->target) ||
               (fl > tl && file[fl - tl - 1] == '/' && !strcmp(file + fl - tl, w->target));
    }
    char name[1024], el[1024];
    report_hot_name(p, h, name, sizeof name);
    names_elide_templates(el, sizeof el, name);
    const char *cand[2] = {name, el};
    size_t tl = strlen(w->target);
    for (int i = 0; i < 2; i++) {
        const char *paren = strchr(cand[i], '(');
        if (!strcmp(cand[i], w->target) ||
            (paren && (size_t)(paren - cand[i]) == tl && !strncmp(cand[i], w->target, tl)))
            return 1;
    }
    return 0;
}

static void add_matched(rp_whatif_result *r, const char *s)
{
    if (strstr(r->matched, s))
        return;
    size_t n = strlen(r->matched);
    snprintf(r->matched + n, sizeof r->matched - n, "%s%s", n ? "; " : "", s);
}

/* Located time of the target in column col. */
static int located(const rp_profile *p, const rp_whatif *w, uint32_t col, int64_t *ns,
                   rp_whatif_result *r)
{
    rp_hot *h;
    int32_t n = w->line ? report_hot_lines(p, col, &h) : report_hot_funcs(p, col, &h);
    if (n < 0)
        return -1;
    *ns = 0;
    for (int32_t i = 0; i < n; i++) {
        if (!matches(p, &h[i], w))
            continue;
        *ns += h[i].ns;
        char nm[1024];
        if (w->line)
            names_label(nm, sizeof nm, p->strs[h[i].func], p->strs[h[i].file], h[i].line, 0);
        else
            report_hot_name(p, &h[i], nm, sizeof nm);
        add_matched(r, nm);
    }
    free(h);
    return 0;
}

void whatif_free(rp_whatif_result *r)
{
    free(r->in_ns);
    free(r->cost_ns);
    free(r->base_ns);
    free(r->frac);
    memset(r, 0, sizeof *r);
}

int whatif_compute(const rp_profile *p, const rp_whatif *w, const int64_t *phase_cost,
                   uint64_t nphases, rp_whatif_result *r)
{
    memset(r, 0, sizeof *r);
    uint32_t k = p->k;
    r->k = k;
    r->in_ns = calloc(k ? k : 1, sizeof *r->in_ns);
    r->cost_ns = calloc(k ? k : 1, sizeof *r->cost_ns);
    r->base_ns = calloc(k ? k : 1, sizeof *r->base_ns);
    r->frac = calloc(k ? k : 1, sizeof *r->frac);
    if (!r->in_ns || !r->cost_ns || !r->base_ns || !r->frac)
        return -1;
    double s = w->percent / 100.0;
    int64_t any = 0;
    for (uint32_t j = 0; j < k; j++) {
        if (located(p, w, RP_MET_PATH0 + j, &r->in_ns[j], r) != 0)
            return -1;
        any += r->in_ns[j];
        if (phase_cost) {
            for (uint64_t q = 0; q < nphases; q++)
                r->cost_ns[j] += phase_cost[q * k + j];
        } else {
            r->cost_ns[j] = j < p->stats.k ? p->stats.sum_ns[j] : 0;
        }
        /* time not located on the path (the part of its cost no sample
         * fell on) stays unchanged: the share is of the larger of the two */
        int64_t col = report_total(p, RP_MET_PATH0 + j);
        r->base_ns[j] = col > r->cost_ns[j] ? col : r->cost_ns[j];
        r->frac[j] = r->base_ns[j] > 0 ? (double)r->in_ns[j] / (double)r->base_ns[j] : 0;
        if (r->frac[j] > 1)
            r->frac[j] = 1;
    }
    int64_t unk[RP_UNK_N];
    report_unknown(p, RP_MET_PATH0, unk);
    r->unknown0_ns = unk[RP_UNK_FRAME];
    if (any == 0)
        return 1;
    if (phase_cost) {
        r->per_phase = 1;
        r->nphases = nphases;
        for (uint64_t q = 0; q < nphases; q++) {
            const int64_t *c = phase_cost + q * k;
            double best = -1;
            uint32_t old = 0, neu = 0;
            for (uint32_t j = 0; j < k; j++) {
                double after = (double)c[j] * (1 - s * r->frac[j]);
                if (after > best) {
                    best = after;
                    neu = j;
                }
                if (c[j] > c[old])
                    old = j;
            }
            r->now_ns += c[old];
            r->est_ns += (int64_t)llround(best);
            r->changed += neu != old;
        }
    } else {
        r->nphases = p->stats.nphases;
        r->now_ns = r->cost_ns[0];
        double lo = 0, fmin = 1;
        for (uint32_t j = 0; j < k; j++) {
            double after = (double)r->cost_ns[j] * (1 - s * r->frac[j]);
            if (after > lo)
                lo = after;
            if (r->frac[j] < fmin)
                fmin = r->frac[j];
        }
        r->lo_ns = (int64_t)llround(lo);
        r->hi_ns = (int64_t)llround((double)r->now_ns * (1 - s * fmin));
    }
    return 0;
}

static double pct(int64_t a, int64_t b) { return b ? 100.0 * (double)(a - b) / (double)b : 0; }

int whatif_text(FILE *f, const rp_profile *p, const rp_whatif *w, const rp_whatif_result *r)
{
    char tgt[600];
    if (w->line)
        snprintf(tgt, sizeof tgt, "line %s:%u", w->target, w->line);
    else
        snprintf(tgt, sizeof tgt, "%s", w->target);
    fprintf(f, "What if %s took %g%% less time (its exclusive time, on every path)?\n", tgt,
            w->percent);
    fprintf(f, "  matched: %s\n", r->matched[0] ? r->matched : "(nothing)");
    double wt = precision_weight_ns(p);
    fprintf(f, "  %10s %14s %14s %8s %9s %16s\n", "path", "cost [s]", "in target [s]", "share",
            "samples", "cost after [s]");
    for (uint32_t j = 0; j < r->k; j++) {
        double after = (double)r->cost_ns[j] * (1 - w->percent / 100.0 * r->frac[j]);
        fprintf(f, "  %9.4g%% %14.6f %14.6f %7.2f%% %9.0f %16.6f\n", report_percentile(j, r->k),
                (double)r->cost_ns[j] / 1e9, (double)r->in_ns[j] / 1e9, 100 * r->frac[j],
                precision_samples(wt, r->in_ns[j]), after / 1e9);
    }
    fprintf(f, "  (share: the path's time in the target over its cost, whole run; \"cost after\" "
               "scales the path's summed cost)\n");
    fprintf(f, "critical path now: %.6f s (sum over %llu phases of each phase's longest kept "
               "path)\n", (double)r->now_ns / 1e9, (unsigned long long)r->nphases);
    if (r->per_phase) {
        fprintf(f, "estimate:          %.6f s (%+.2f%%): per phase, the longest of the k=%u "
                   "kept paths after the change\n",
                (double)r->est_ns / 1e9, pct(r->est_ns, r->now_ns), r->k);
        fprintf(f, "  another kept path becomes the longest in %llu of %llu phases\n",
                (unsigned long long)r->changed, (unsigned long long)r->nphases);
    } else {
        fprintf(f, "estimate:          %.6f s (%+.2f%%) if the phases are alike (each phase's "
                   "paths in the proportions of their sums over phases)\n"
                   "at most:           %.6f s (%+.2f%%) whatever the phases (prof mode keeps each "
                   "path's cost summed over phases, not per phase)\n",
                (double)r->lo_ns / 1e9, pct(r->lo_ns, r->now_ns), (double)r->hi_ns / 1e9,
                pct(r->hi_ns, r->now_ns));
    }
    fprintf(f,
            "Limits of this estimate:\n"
            "  * only time located in the target counts: sampled time (estimated sample counts "
            "above; few samples, large error)\n"
            "  * each path's share is its share over the whole run (contexts are summed over "
            "phases); a target whose share differs between phases is spread evenly\n"
            "  * only the k=%u kept paths of each phase are considered: a path that was not kept "
            "cannot become critical, so the estimate can be too low (raise RP_K)\n"
            "  * time not located on a path is unchanged (%.6f s of the critical path is under "
            "<unknown>)\n"
            "  * waiting is assumed unchanged: time in MPI and the messages' timing are not "
            "re-simulated\n",
            r->k, (double)r->unknown0_ns / 1e9);
    return ferror(f) ? -1 : 0;
}
