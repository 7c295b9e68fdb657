/* poploss.c - the code behind each POP factor's loss (poploss.h).
 *
 * The merged profile sums every rank, so the busiest rank's own profile,
 * and the MPI time of the ranks on the critical path, come from merging
 * those ranks' files alone (merge.h, rp_merge_opts.only), as the caller's
 * merge_subset makes them (rp-report: rankscan.h, which has merged the
 * critical path's ranks while reading each file once).  Source lines
 * are matched between profiles by their strings (each profile has its own
 * string table). */
#include "report/poploss.h"
#include "common/frames.h"
#include "common/names.h"
#include "report/model.h"
#include "report/precision.h"
#include "report/sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a line of one profile: its key (function, full file, line, kind) and label */
typedef struct entry {
    char   *key, *name;
    int64_t ns;
    int     side;   /* 0: a, 1: b */
} entry;

static int add_lines(const rp_profile *p, uint32_t col, int side, entry **v, uint32_t *n)
{
    rp_hot *h;
    int32_t nh = report_hot_lines(p, col, &h);
    if (nh < 0)
        return -1;
    entry *w = realloc(*v, (*n + (uint32_t)nh + 1) * sizeof *w);
    if (!w) {
        free(h);
        return -1;
    }
    *v = w;
    for (int32_t i = 0; i < nh; i++) {
        char name[1024], key[2048];
        if (h[i].kind == FRAMES_CODE)
            names_label(name, sizeof name, p->strs[h[i].func], p->strs[h[i].file], h[i].line, 0);
        else
            report_hot_name(p, &h[i], name, sizeof name);
        snprintf(key, sizeof key, "%s\x1f%s\x1f%u\x1f%u", p->strs[h[i].func],
                 p->strs[h[i].file], h[i].line, h[i].kind);
        entry *e = &w[(*n)++];
        e->key = strdup(key);
        e->name = strdup(name);
        e->ns = h[i].ns;
        e->side = side;
        if (!e->key || !e->name) {
            free(h);
            return -1;
        }
    }
    free(h);
    return 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

static int by_diff(const void *a, const void *b)
{
    const rp_lossrow *x = a, *y = b;
    if (x->diff_ns != y->diff_ns)
        return x->diff_ns > y->diff_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* rows = lines of a (scaled by sa) minus lines of b (scaled by sb), the
 * positive differences, largest first, at most top.  w: the sample weight;
 * samples of the b side are those of the unscaled time (a mean over ranks
 * is as precise as the sum it is taken from). */
static int diff_lines(const rp_profile *pa, uint32_t ca, const rp_profile *pb, uint32_t cb,
                      double sb, double w, uint32_t top, rp_lossrow **out, uint32_t *nout)
{
    entry *v = NULL;
    uint32_t n = 0;
    int rc = -1;
    rp_lossrow *r = NULL;
    uint32_t nr = 0;
    if (add_lines(pa, ca, 0, &v, &n) != 0 || add_lines(pb, cb, 1, &v, &n) != 0)
        goto out;
    qsort(v, n, sizeof *v, by_key);
    r = calloc(n + 1, sizeof *r);
    if (!r)
        goto out;
    for (uint32_t i = 0; i < n;) {
        int64_t a = 0, braw = 0;
        const char *name = v[i].name;
        uint32_t j = i;
        for (; j < n && !strcmp(v[j].key, v[i].key); j++) {
            if (v[j].side == 0)
                a += v[j].ns;
            else
                braw += v[j].ns;
        }
        int64_t b = (int64_t)((double)braw * sb + 0.5);
        if (a - b > 0) {
            rp_lossrow *x = &r[nr++];
            x->name = strdup(name);
            if (!x->name)
                goto out;
            x->a_ns = a;
            x->b_ns = b;
            x->diff_ns = a - b;
            x->a_samples = precision_samples(w, a);
            x->b_samples = precision_samples(w, braw);
            x->noise = w > 0 && precision_within_noise((double)a, x->a_samples, (double)b,
                                                       x->b_samples);
        }
        i = j;
    }
    qsort(r, nr, sizeof *r, by_diff);
    for (uint32_t i = top; i < nr; i++)
        free(r[i].name);
    *out = r;
    *nout = nr < top ? nr : top;
    r = NULL;
    rc = 0;
out:
    if (r) {
        for (uint32_t i = 0; i < nr; i++)
            free(r[i].name);
        free(r);
    }
    for (uint32_t i = 0; i < n; i++) {
        free(v[i].key);
        free(v[i].name);
    }
    free(v);
    return rc;
}

static int transfer(rp_subset_fn merge_subset, void *ctx, const rp_profile *p, const uint32_t *rank,
                    const int64_t *path0_ns, uint32_t n, uint32_t top, rp_poploss *l)
{
    uint8_t *mask = calloc(p->nranks / 8 + 1, 1);
    if (!mask)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (path0_ns[i] > 0 && rank[i] < p->nranks) {
            mask[rank[i] / 8] |= (uint8_t)(1u << (rank[i] % 8));
            l->te_ranks++;
        }
    rp_profile sub;
    int rc = 0;
    if (l->te_ranks == 0 || merge_subset(ctx, mask, p->nranks, &sub) != 0) {
        free(mask);
        return l->te_ranks == 0 ? 0 : -1;
    }
    free(mask);
    rp_site *s;
    int32_t ns = sites_collect(&sub, &s);
    if (ns < 0) {
        profile_free(&sub);
        return -1;
    }
    double w = precision_weight_ns(p);
    l->te_mpi_ns = report_total(&sub, RP_MET_MPI);
    uint32_t m = (uint32_t)ns < top ? (uint32_t)ns : top;
    l->te = calloc(m + 1, sizeof *l->te);
    for (uint32_t i = 0; l->te && i < m; i++) {
        char site[1024], name[1200];
        if (s[i].func)
            names_label(site, sizeof site, sub.strs[s[i].func], sub.strs[s[i].file], s[i].line,
                        0);
        else
            snprintf(site, sizeof site, "(unknown caller)");
        snprintf(name, sizeof name, "%s at %s", sub.strs[s[i].mpi], site);
        rp_lossrow *x = &l->te[l->n_te];
        if (!(x->name = strdup(name))) {
            rc = -1;
            break;
        }
        x->a_ns = x->diff_ns = s[i].ns;
        x->a_samples = precision_samples(w, s[i].ns);
        l->n_te++;
    }
    if (!l->te)
        rc = -1;
    free(s);
    profile_free(&sub);
    return rc;
}

int poploss_compute(rp_subset_fn merge_subset, void *ctx, const rp_profile *p, const rp_pop *q,
                    const uint32_t *rank, const int64_t *path0_ns, uint32_t n, uint32_t top,
                    rp_poploss *out)
{
    memset(out, 0, sizeof *out);
    out->busiest = q->busiest;
    if (q->busiest >= p->nranks || q->nranks == 0)
        return -1;
    uint8_t *mask = calloc(p->nranks / 8 + 1, 1);
    if (!mask)
        return -1;
    mask[q->busiest / 8] = (uint8_t)(1u << (q->busiest % 8));
    rp_profile one;
    int rc = merge_subset(ctx, mask, p->nranks, &one);
    free(mask);
    if (rc != 0)
        return -1;
    double w = precision_weight_ns(p);
    /* load balance: the busiest rank's lines minus the mean rank's (the
     * whole profile / ranks present) */
    rc = diff_lines(&one, RP_MET_RANK, p, RP_MET_RANK, 1.0 / p->ranks_present, w, top, &out->lb,
                    &out->n_lb);
    /* serialisation: the critical path's lines minus the busiest rank's */
    if (rc == 0)
        rc = diff_lines(p, RP_MET_PATH0, &one, RP_MET_RANK, 1.0, w, top, &out->ser,
                        &out->n_ser);
    profile_free(&one);
    if (rc == 0)
        rc = transfer(merge_subset, ctx, p, rank, path0_ns, n, top, out);
    if (rc != 0)
        poploss_free(out);
    return rc;
}

void poploss_free(rp_poploss *l)
{
    rp_lossrow *v[3] = {l->lb, l->ser, l->te};
    uint32_t c[3] = {l->n_lb, l->n_ser, l->n_te};
    for (int k = 0; k < 3; k++) {
        for (uint32_t i = 0; i < c[k]; i++)
            free(v[k][i].name);
        free(v[k]);
    }
    memset(l, 0, sizeof *l);
}
