/* json.c - rp-report --format json: one JSON object (SPEC §4). */
#include "report/model.h"
#include "report/warnings.h"
#include "report/precision.h"
#include "common/frames.h"
#include "report/ranks.h"
#include "report/sites.h"
#include "report/phases.h"
#include "report/json.h"
#include "report/popview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string: quotes, backslashes and control characters escaped,
 * invalid UTF-8 replaced by U+FFFD so the output always parses. */
static void jstr(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            p++;
        } else if (c < 0x20) {
            static const char esc[] = "btnvfr";
            if (c >= 8 && c <= 13 && c != 11)
                fprintf(f, "\\%c", esc[c - 8]);
            else
                fprintf(f, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            fputc((int)c, f);
            p++;
        } else {
            /* validate one UTF-8 sequence */
            int len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
            if (c >= 0xF5)
                len = 0;
            int ok = len > 0;
            for (int i = 1; ok && i < len; i++)
                ok = (p[i] & 0xC0) == 0x80;
            if (ok && len == 3) {
                uint32_t cp = (c & 0x0F) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
                ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
            } else if (ok && len == 4) {
                uint32_t cp = (c & 0x07) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 |
                              (p[3] & 0x3Fu);
                ok = cp >= 0x10000 && cp <= 0x10FFFF;
            }
            if (ok) {
                fwrite(p, 1, (size_t)len, f);
                p += len;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
    fputc('"', f);
}

static void jnum(FILE *f, double v)
{
    if (!isfinite(v))
        v = 0;
    fprintf(f, "%.15g", v);
}

static double secs(int64_t ns) { return (double)ns / 1e9; }

static int hot_list(FILE *f, const rp_profile *p, uint32_t col, uint32_t top)
{
    double w = precision_weight_ns(p);
    rp_hot *h;
    int32_t n = report_hot_lines(p, col, &h);
    if (n < 0)
        return -1;
    fputc('[', f);
    for (int32_t i = 0; i < n && (uint32_t)i < top; i++) {
        fputs(i ? ", {\"function\": " : "{\"function\": ", f);
        char name[600];
        report_hot_name(p, &h[i], name, sizeof name);
        jstr(f, name);
        fputs(", \"file\": ", f);
        /* grouped rows (rpprof wrapper, module without symbols) have no
         * line; a module's row names the module as its file */
        jstr(f, h[i].kind == FRAMES_NOSYM ? p->strs[h[i].func]
                : h[i].kind == FRAMES_PROFILER ? "" : p->strs[h[i].file]);
        fprintf(f, ", \"line\": %u, \"seconds\": ", h[i].line);
        jnum(f, secs(h[i].ns));
        fputs(", \"samples\": ", f);
        jnum(f, round(precision_samples(w, h[i].ns)));
        fputc('}', f);
    }
    fputc(']', f);
    free(h);
    return 0;
}

int report_json_counter_warnings(FILE *f, const rp_profile *p)
{
    uint32_t n = p->n_counters;
    rp_warning *w = malloc((n ? n : 1) * sizeof *w);
    if (!w)
        return -1;
    uint32_t m = report_warnings(p->counters, n, w, n);
    if (m > n)
        m = n;
    for (uint32_t i = 0; i < m; i++) {
        char name[sizeof p->counters[0].name + 1];
        snprintf(name, sizeof name, "%.*s", (int)sizeof p->counters[0].name, w[i].counter);
        fputs(i ? ", {\"counter\": " : "{\"counter\": ", f);
        jstr(f, name);
        fprintf(f, ", \"value\": %llu, \"message\": ", (unsigned long long)w[i].value);
        jstr(f, w[i].meaning);
        fputs(", \"remedy\": ", f);
        jstr(f, w[i].remedy);
        fputc('}', f);
    }
    free(w);
    return (int)m;
}

/* "warnings": one object per loss counter (lib/core/counters.def) and per
 * other reason the numbers are incomplete; the same list the text shows. */
static int warnings_json(FILE *f, const rp_profile *p)
{
    int wrote = report_json_counter_warnings(f, p);
    if (wrote < 0)
        return -1;
    int first = wrote == 0;
    if (p->n_missing) {
        fprintf(f, "%s{\"counter\": null, \"value\": %u, \"message\": \"ranks missing or "
                   "unreadable: the profiles cover the other ranks only\", \"remedy\": \"\"}",
                first ? "" : ", ", p->n_missing);
        first = 0;
    }
    if (p->n_left_out) {
        /* rank files of other jobs (tools/common/rankfiles.h), each named */
        size_t cap = 256 + strlen(p->job);
        for (uint32_t i = 0; i < p->n_left_out; i++)
            cap += strlen(p->left_out[i]) + 2;
        char *m = malloc(cap);
        if (!m)
            return -1;
        int n = snprintf(m, cap, "the directory holds rank files of %u jobs; this report is "
                         "the newest, %s; left out, of another job: ", p->n_jobs, p->job);
        for (uint32_t i = 0; n > 0 && (size_t)n < cap && i < p->n_left_out; i++)
            n += snprintf(m + n, cap - (size_t)n, "%s%s", i ? "; " : "", p->left_out[i]);
        fprintf(f, "%s{\"counter\": null, \"value\": %u, \"message\": ", first ? "" : ", ",
                p->n_left_out);
        jstr(f, m);
        fputs(", \"remedy\": \"move the other jobs' rank files out of the directory\"}", f);
        free(m);
        first = 0;
    }
    if (p->last_job[0]) {
        char m[1000];
        snprintf(m, sizeof m, "the last job to use the directory, %s, left no rank file (it "
                 "died before writing one); this report is of an older job, %s", p->last_job,
                 p->job);
        fprintf(f, "%s{\"counter\": null, \"value\": 0, \"message\": ", first ? "" : ", ");
        jstr(f, m);
        fputs(", \"remedy\": \"\"}", f);
        first = 0;
    }
    if (p->stats.nphases == 0)
        fprintf(f, "%s{\"counter\": null, \"value\": 0, \"message\": \"no phase completed; "
                   "path costs are 0\", \"remedy\": \"\"}", first ? "" : ", ");
    return 0;
}

int report_json(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    const rp_phasestats *st = &p->stats;
    double wall = secs(p->wall_ns);
    fputs("{\"program\": ", f);
    jstr(f, p->exe);
    fprintf(f, ", \"ranks\": %u, \"ranks_expected\": %u, \"ranks_missing\": [", p->ranks_present,
            p->nranks);
    for (uint32_t i = 0; i < p->n_missing; i++)
        fprintf(f, i ? ", %u" : "%u", p->missing[i]);
    /* rank files of other jobs left out ("PATH: job ..."; rankfiles.h) */
    fputs("], \"left_out_files\": [", f);
    for (uint32_t i = 0; i < p->n_left_out; i++) {
        if (i)
            fputs(", ", f);
        jstr(f, p->left_out[i]);
    }
    fprintf(f, "], \"k\": %u, \"mode\": ", p->k);
    jstr(f, profile_mode_name(p->mode));
    fputs(", \"select\": ", f);
    jstr(f, profile_select_name(p->select));
    fprintf(f, ", \"phases\": %llu, \"wall_seconds\": ",
            (unsigned long long)(o->path_cost_ns ? o->path_phases : st->nphases));
    jnum(f, wall);
    fprintf(f, ", \"period_us\": %u, \"summary_cap\": %u", p->period_us, p->summary_cap);
    if (p->phase_k)
        fprintf(f, ", \"phase_k\": %u", p->phase_k);
    else
        fputs(", \"phase_k\": null", f);
    fputs(", \"clock\": ", f);
    jstr(f, p->clock == RP_CLOCK_CPU ? "cpu" : "wall");
    /* what the text header says: samples that did not come, ranks sharing
     * CPUs (warnings.h, ranks.h) */
    char line[1024];
    report_sampling_line(p, line, sizeof line);
    fputs(", \"sampling\": ", f);
    jstr(f, line);
    fputs(", \"oversubscribed\": ", f);
    if (report_oversubscribed(o->ranks, o->nranks_rows, line, sizeof line))
        jstr(f, line);
    else
        fputs("null", f);
    fputs(", \"sampled_seconds\": ", f);
    jnum(f, secs(report_total(p, RP_MET_RANK)));
    fputs(", \"mpi_seconds\": ", f);
    jnum(f, secs(report_total(p, RP_MET_MPI)));
    /* sample counts are estimated: time / mean sample weight (precision.h) */
    double w = precision_weight_ns(p);
    fprintf(f, ", \"samples\": %llu, \"sample_weight_seconds\": ",
            (unsigned long long)profile_counter(p, "samples"));
    jnum(f, w / 1e9);
    /* issue 13: a rank file written before MPI_Finalize (checkpoint, kill) */
    fprintf(f, ", \"partial\": %s", report_counter(p, "tail_lost") ? "true" : "false");
    /* issue 16: rp-merge --min-share folded this many contexts */
    fprintf(f, ", \"contexts_folded\": {\"count\": %u, \"min_share_percent\": ", p->n_folded);
    jnum(f, p->min_share_pct);
    fputc('}', f);
    fputs(", \"pop\": ", f);   /* POP factors (doc/report.md), null without rank files */
    popview_json(f, p, o, jstr);
    fputs(", \"counters\": {", f);
    for (uint32_t i = 0; i < p->n_counters; i++) {
        if (i)
            fputs(", ", f);
        jstr(f, p->counters[i].name);
        fprintf(f, ": %llu", (unsigned long long)p->counters[i].value);
    }
    fputs("}, \"warnings\": [", f);
    if (warnings_json(f, p) != 0)
        return -1;
    fputs("], \"paths\": [", f);
    for (uint32_t j = 0; j < p->k; j++) {
        fputs(j ? ", {\"percentile\": " : "{\"percentile\": ", f);
        jnum(f, report_percentile(j, p->k));
        int64_t cost = o->path_cost_ns ? o->path_cost_ns[j] : j < st->k ? st->sum_ns[j] : 0;
        int have = st->nphases > 0 && j < st->k;
        fputs(", \"cost_seconds\": ", f);
        jnum(f, secs(cost));
        char lb[48];
        fputs(", \"level\": ", f);
        jstr(f, report_level_label(p, j, lb, sizeof lb));
        fprintf(f, ", \"exact\": %s", j == 0 || j + 1 == p->k ? "true" : "false");
        /* the accuracy benchmark's measured error of this level, or null */
        rp_level_error le;
        if (report_level_error(p, j, &le))
            fprintf(f, ", \"measured_median_error_pct\": %.1f, \"measured_worst_error_pct\": %.1f"
                       ", \"measured_median_rank_error_pts\": %.1f"
                       ", \"measured_worst_rank_error_pts\": %.1f",
                    le.median, le.worst, le.rank_median, le.rank_worst);
        else
            fputs(", \"measured_median_error_pct\": null, \"measured_worst_error_pct\": null"
                  ", \"measured_median_rank_error_pts\": null"
                  ", \"measured_worst_rank_error_pts\": null", f);
        fputs(", \"pct_of_wall\": ", f);
        jnum(f, p->wall_ns > 0 ? 100.0 * (double)cost / (double)p->wall_ns : 0.0);
        fputs(", \"phase_min_seconds\": ", f);
        jnum(f, have ? secs(st->min_ns[j]) : 0.0);
        fputs(", \"phase_median_seconds\": ", f);
        jnum(f, have ? secs(phasestats_median(st, j)) : 0.0);
        fputs(", \"phase_max_seconds\": ", f);
        jnum(f, have ? secs(st->max_ns[j]) : 0.0);
        /* Located time, then what no sample locates ("<unknown>", by cause;
         * issue 13): located + unknown = cost within sampling error. */
        int64_t unk[RP_UNK_N];
        report_unknown(p, RP_MET_PATH0 + j, unk);
        fputs(", \"sampled_seconds\": ", f);
        jnum(f, secs(report_total(p, RP_MET_PATH0 + j) - unk[RP_UNK_FRAME]));
        fputs(", \"samples\": ", f);
        jnum(f, round(precision_samples(w, report_total(p, RP_MET_PATH0 + j) - unk[RP_UNK_FRAME])));
        fputs(", \"unknown_seconds\": ", f);
        jnum(f, secs(unk[RP_UNK_FRAME]));
        fputs(", \"unknown\": {", f);
        static const char *const ukey[RP_UNK_N] = { "", "not_sampled", "buffer_full",
                                                    "summary_overflow" };
        for (uint32_t c = 1; c < RP_UNK_N; c++) {
            fprintf(f, "%s\"%s\": ", c > 1 ? ", " : "", ukey[c]);
            jnum(f, secs(unk[c]));
        }
        fputc('}', f);
        fputs(", \"top\": ", f);
        if (hot_list(f, p, RP_MET_PATH0 + j, o->top) != 0)
            return -1;
        fputc('}', f);
    }
    fputs("], \"hotspots\": ", f);
    if (hot_list(f, p, RP_MET_RANK, o->top) != 0)
        return -1;
    fputs(", \"mpi_hotspots\": ", f);
    if (hot_list(f, p, RP_MET_MPI, o->top) != 0)
        return -1;
    fputs(", \"mpi_call_sites\": ", f);
    if (sites_json(f, p, o->top, jstr) != 0)
        return -1;
    if (o->ranks) {
        fputs(", \"per_rank\": ", f);
        ranks_json(f, o->ranks, o->nranks_rows);
    }
    if (o->run) {
        fputs(", \"phases_by_spread\": ", f);
        if (phases_json(f, o->run, o->top) != 0)
            return -1;
    }
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}

void report_json_string(FILE *f, const char *s)
{
    jstr(f, s);
}
