/* ranks.c - per-rank table (ranks.h). */
#define _GNU_SOURCE   /* qsort_r */
#include "report/ranks.h"

#include <stdlib.h>
#include <string.h>
#include "format/rpfile.h"
#include "common/rankfiles.h"
#include "core/show.h"

static int64_t col_total(const rp_rankdata *d, uint32_t col)
{
    int64_t t = 0;
    if (col >= d->n_metrics)
        return 0;
    for (uint32_t i = 0; i < d->n_nodes; i++)
        t += d->metrics[(size_t)i * d->n_metrics + col];
    return t;
}

void ranks_row(const rp_rankdata *d, rp_rankrow *x)
{
    memset(x, 0, sizeof *x);
    x->rank = d->rank;
    snprintf(x->host, sizeof x->host, "%.63s", d->host);
    x->wall_ns = d->wall_ns;
    x->task_ns = col_total(d, RP_MET_RANK);
    x->mpi_ns = col_total(d, RP_MET_MPI);
    x->path0_ns = col_total(d, RP_MET_PATH0);   /* 0 when the column is absent */
    for (uint32_t c = 0; c < d->n_counters; c++) {
        const rp_counter *ct = &d->counters[c];
        if (!strncmp(ct->name, "samples", sizeof ct->name))
            x->samples = ct->value;
        else if (!strncmp(ct->name, "main_thread_cpu_us", sizeof ct->name)) {
            x->has_cpu = 1;
            x->cpu_ns = (int64_t)ct->value * 1000;
        } else if (!strncmp(ct->name, "host_cpus_online", sizeof ct->name)) {
            x->host_cpus = ct->value > UINT32_MAX ? UINT32_MAX : (uint32_t)ct->value;
        } else if (!strncmp(ct->name, "main_thread_involuntary_switches", sizeof ct->name)) {
            x->invol_csw = ct->value;
        } else if (!strncmp(ct->name, "task_time_ns", sizeof ct->name) && ct->value > 0 &&
                   (int64_t)ct->value <= d->wall_ns + d->wall_ns / 100 + 1000000) {
            /* exact: the rank measured every task; the rest of its
             * wall time was inside MPI (a partial file's tail may
             * pass its wall time by a little: clamped) */
            x->exact = 1;
            x->task_ns = (int64_t)ct->value < d->wall_ns ? (int64_t)ct->value : d->wall_ns;
            x->mpi_ns = d->wall_ns - x->task_ns;
        }
    }
}

int32_t ranks_load(const char *dir, uint32_t nranks, rp_rankrow **out)
{
    *out = NULL;
    uint32_t *rk, nf;
    char **paths;
    if (rankfiles_list(dir, &rk, &paths, &nf) != 0)
        return -1;
    rp_rankrow *v = calloc(nf ? nf : 1, sizeof *v);
    if (!v) {
        rankfiles_free(rk, paths, nf);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < nf; i++) {
        rp_rankdata d;
        char err[256];
        /* unreadable or foreign files: the merge has said so already */
        if (rpfile_read(paths[i], &d, err, sizeof err) != 0 || d.rank != rk[i] ||
            d.rank >= nranks) {
            rpfile_free(&d);
            continue;
        }
        ranks_row(&d, &v[n++]);
        rpfile_free(&d);
    }
    rankfiles_free(rk, paths, nf);
    *out = v;
    return (int32_t)n;
}

static int by_task_desc(const void *a, const void *b)
{
    const rp_rankrow *x = a, *y = b;
    if (x->task_ns != y->task_ns)
        return x->task_ns > y->task_ns ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static double secs(int64_t ns) { return (double)ns / 1e9; }

/* CPU time over wall time (the CPU column) */
static double cpu_share(const rp_rankrow *x)
{
    return x->has_cpu && x->wall_ns > 0 ? (double)x->cpu_ns / (double)x->wall_ns : 1.0;
}

/* descheduled while computing: less CPU time than RP_RANK_CPU_LOW x task time */
static int descheduled(const rp_rankrow *x)
{
    return x->has_cpu && (double)x->cpu_ns < RP_RANK_CPU_LOW * (double)x->task_ns;
}

static void row(FILE *f, const rp_rankrow *x)
{
    int64_t tot = x->task_ns + x->mpi_ns;
    char cpu[32] = "     -", csw[32] = "        -";
    if (x->has_cpu) {
        snprintf(cpu, sizeof cpu, "%5.0f%%", 100.0 * cpu_share(x));
        snprintf(csw, sizeof csw, "%9llu", (unsigned long long)x->invol_csw);
    }
    fprintf(f, "  %6u %-16.16s %10.3f %10.3f %6.1f%% %9llu %10.3f %s %s%s\n", x->rank, x->host,
            secs(x->task_ns), secs(x->mpi_ns), tot > 0 ? 100.0 * (double)x->mpi_ns / (double)tot : 0.0,
            (unsigned long long)x->samples, secs(x->wall_ns), cpu, csw,
            descheduled(x) ? "  descheduled" : "");
}

/* One host of the rows: its first row, its rows and the most CPUs any of
 * them saw online. */
typedef struct hostgrp {
    uint32_t first, on, cpus;
} hostgrp;

/* row indices by (host, row); ctx: the rows */
static int by_host(const void *a, const void *b, void *ctx)
{
    const rp_rankrow *r = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strncmp(r[x].host, r[y].host, sizeof r[x].host);
    return c ? c : x < y ? -1 : x > y;
}

static int by_first(const void *a, const void *b)
{
    const hostgrp *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The rows' hosts in the order of their first rows (sorted by name, not
 * compared row against row: 100 000 ranks on 25 000 hosts took seconds).
 * NULL on ENOMEM. */
static hostgrp *host_groups(const rp_rankrow *r, uint32_t n, uint32_t *ng)
{
    uint32_t *ix = malloc(n * sizeof *ix);
    hostgrp *g = malloc(n * sizeof *g);
    *ng = 0;
    if (!ix || !g) {
        free(ix);
        free(g);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        ix[i] = i;
    qsort_r(ix, n, sizeof *ix, by_host, (void *)r);
    for (uint32_t i = 0; i < n; i++) {
        const rp_rankrow *x = &r[ix[i]];
        if (i == 0 || strncmp(r[ix[i - 1]].host, x->host, sizeof x->host) != 0)
            g[(*ng)++] = (hostgrp){ix[i], 0, 0};   /* lowest row first: (host, row) order */
        hostgrp *h = &g[*ng - 1];
        h->on++;
        if (x->host_cpus > h->cpus)
            h->cpus = x->host_cpus;
    }
    free(ix);
    qsort(g, *ng, sizeof *g, by_first);
    return g;
}

int report_oversubscribed(const rp_rankrow *r, uint32_t n, char *buf, size_t len)
{
    if (!r || n == 0 || len == 0)
        return 0;
    /* hosts with more ranks than CPUs: the worst one named */
    uint32_t hosts_over = 0, ranks_over = 0, hosts = 0, worst = UINT32_MAX, worst_n = 0;
    uint32_t worst_cpus = 0, desched = 0;
    for (uint32_t i = 0; i < n; i++)
        desched += descheduled(&r[i]);
    hostgrp *g = host_groups(r, n, &hosts);
    if (!g)
        return 0;
    for (uint32_t k = 0; k < hosts; k++) {
        uint32_t i = g[k].first, on = g[k].on, cpus = g[k].cpus;
        /* compared with the worst host's first row's CPUs, as always */
        if (cpus && on > cpus) {
            hosts_over++;
            ranks_over += on;
            if (worst == UINT32_MAX ||
                (double)on / cpus > (double)worst_n / r[worst].host_cpus) {
                worst = i;
                worst_n = on;
                worst_cpus = cpus;
            }
        }
    }
    free(g);
    if (!hosts_over && !desched)
        return 0;
    size_t w = 0;
    char host[RP_SHOW_MIN];
    if (hosts_over) {
        uint32_t cpus = worst_cpus;
        char h[sizeof r[worst].host + 1];
        snprintf(h, sizeof h, "%.*s", (int)sizeof r[worst].host, r[worst].host);
        rp_show(host, sizeof host, h);
        if (hosts == 1)
            w += (size_t)snprintf(buf + w, len - w, "%u ranks on %u CPU%s of host %s", worst_n,
                                  cpus, cpus == 1 ? "" : "s", host);
        else
            w += (size_t)snprintf(buf + w, len - w, "%u of %u hosts have more ranks than CPUs "
                                  "(%u ranks on them; worst: %u ranks on %u CPU%s of host %s)",
                                  hosts_over, hosts, ranks_over, worst_n, cpus,
                                  cpus == 1 ? "" : "s", host);
    }
    if (desched && w < len)
        w += (size_t)snprintf(buf + w, len - w, "%s%u of %u rank%s had less CPU time than "
                              "%.0f%% of %s task time", w ? "; " : "", desched, n,
                              n == 1 ? "" : "s", 100.0 * RP_RANK_CPU_LOW,
                              desched == 1 ? "its" : "their");
    if (w < len)
        snprintf(buf + w, len - w, ": ranks waited for a CPU, so task times, path costs "
                 "and imbalance include that waiting, and a polling MPI's waits took CPU "
                 "from the ranks computing (the critical path's share of wall is not what "
                 "a core per rank would give); the per-rank CPU column shows each rank");
    return 1;
}

void ranks_text(FILE *f, const rp_rankrow *r, uint32_t n, uint32_t top)
{
    if (n == 0)
        return;
    rp_rankrow *s = malloc(n * sizeof *s);
    if (!s)
        return;
    memcpy(s, r, n * sizeof *s);
    qsort(s, n, sizeof *s, by_task_desc);
    int exact = 1, any = 0;
    for (uint32_t i = 0; i < n; i++) {
        exact &= r[i].exact;
        any |= r[i].exact;
    }
    if (exact)
        fprintf(f, "\nPer rank (exact, MPI_Init to MPI_Finalize: task = time outside MPI calls, "
                   "MPI = time inside them, waiting included)\n");
    else
        fprintf(f, "\nPer rank (%s: task = time outside MPI, MPI = time inside MPI calls, "
                   "waiting included; from samples, so short calls and tasks are mostly "
                   "missed)\n", any ? "partly sampled" : "sampled");
    fprintf(f, "  %6s %-16s %10s %10s %7s %9s %10s %6s %9s\n", "rank", "host", "task [s]",
            "MPI [s]", "MPI %", "samples", "wall [s]", "CPU", "inv.sw");
    uint32_t head = 2 * top >= n ? n : top;
    for (uint32_t i = 0; i < head; i++)
        row(f, &s[i]);
    if (head < n) {
        fprintf(f, "  %6s ... %u ranks ...\n", "", n - 2 * top);
        for (uint32_t i = n - top; i < n; i++)
            row(f, &s[i]);
    }
    fprintf(f, "  task time over ranks: max %.3f s, median %.3f s, min %.3f s (max/median %.2f)\n",
            secs(s[0].task_ns), secs(s[n / 2].task_ns), secs(s[n - 1].task_ns),
            s[n / 2].task_ns > 0 ? (double)s[0].task_ns / (double)s[n / 2].task_ns : 0.0);
    uint32_t low = 0;
    for (uint32_t i = 0; i < n; i++)
        low += descheduled(&s[i]);
    if (low)
        fprintf(f, "  warning: %u rank%s had less CPU time than %.0f%% of %s task time: "
                   "descheduled while computing\n  (oversubscribed or shared node); that task "
                   "time, and any imbalance it shows, is partly waiting for a CPU\n",
                low, low == 1 ? "" : "s", 100.0 * RP_RANK_CPU_LOW, low == 1 ? "its" : "their");
    free(s);
}

void ranks_json(FILE *f, const rp_rankrow *r, uint32_t n)
{
    fputc('[', f);
    for (uint32_t i = 0; i < n; i++)
    {
        fprintf(f, "%s{\"rank\": %u, \"task_seconds\": %.9g, \"mpi_seconds\": %.9g, "
                   "\"times\": \"%s\", \"samples\": %llu, \"wall_seconds\": %.9g",
                i ? ", " : "", r[i].rank, secs(r[i].task_ns), secs(r[i].mpi_ns),
                r[i].exact ? "exact" : "sampled", (unsigned long long)r[i].samples,
                secs(r[i].wall_ns));
        if (r[i].has_cpu)
            fprintf(f, ", \"cpu_seconds\": %.9g, \"involuntary_switches\": %llu, "
                       "\"descheduled\": %s",
                    secs(r[i].cpu_ns), (unsigned long long)r[i].invol_csw,
                    descheduled(&r[i]) ? "true" : "false");
        fputc('}', f);
    }
    fputc(']', f);
}
