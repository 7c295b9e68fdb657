/* html.c - rp-report --format html (html.h).
 *
 * The page carries its data as JSON in <script type="application/json">
 * blocks and draws itself with the inline script in report_html_js.h:
 *   rpdata   the JSON report (report_json: paths, hotspots, warnings,
 *            per_rank, mpi_call_sites, phases_by_spread)
 *   rptree   the view tree: [parent, name, inclusive ns per path...]
 *   rpphases per phase, the k path costs (path and trace modes)
 * Every '<' of the JSON is written as \u003c, so no name can end the
 * script block.  Nothing is fetched: the file works copied anywhere. */
#include "report/html.h"

#include <stdlib.h>
#include <string.h>
#include "common/frames.h"
#include "common/names.h"
#include "common/paths.h"
#include "report/html_js.h"
#include "report/json.h"

/* JSON from report_json, made safe to sit inside <script>. */
static int put_json_block(FILE *f, const char *id, const char *json, size_t n)
{
    fprintf(f, "<script type=\"application/json\" id=\"%s\">", id);
    for (size_t i = 0; i < n; i++) {
        if (json[i] == '<')
            fputs("\\u003c", f);
        else
            fputc(json[i], f);
    }
    fputs("</script>\n", f);
    return 0;
}

/* a JSON string with the same escaping as report_json's (ASCII control
 * characters, quotes, backslashes; '<' by put_json_block) */
static void js(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The view tree, nodes whose largest inclusive path time reaches `cut`,
 * at most max_nodes of them (breadth-first by the order of the view). */
static int tree_json(FILE *f, const rp_profile *p, uint64_t max_nodes)
{
    rp_view v;
    if (report_view(p, &v) != 0)
        return -1;
    uint32_t *id = malloc((size_t)(v.n ? v.n : 1) * sizeof *id);
    if (!id) {
        report_view_free(&v);
        return -1;
    }
    int64_t crit = v.incl[RP_MET_PATH0];
    int64_t cut = crit / 1000;   /* 0.1 % of the critical path */
    fputs("[", f);
    uint64_t out = 0;
    for (uint32_t i = 0; i < v.n; i++) {
        id[i] = UINT32_MAX;
        if (i > 0 && id[v.nodes[i].parent] == UINT32_MAX)
            continue;   /* parent not shown */
        int64_t best = 0;
        for (uint32_t c = 0; c < v.nm; c++)
            if (c != RP_MET_MPI && v.incl[(size_t)i * v.nm + c] > best)
                best = v.incl[(size_t)i * v.nm + c];
        if (i > 0 && (best <= cut || best == 0 || out >= max_nodes))
            continue;
        id[i] = (uint32_t)out++;
        char name[1200] = "<program>";
        if (i > 0) {
            uint32_t sym = v.nodes[i].sym;
            const rp_psym *y = &p->syms[sym];
            uint32_t kind = frames_kind(p, sym);
            const rp_pframe *in = &p->frames[y->first + y->n - 1];
            if (kind != FRAMES_CODE)
                frames_display(name, sizeof name, kind, p->strs[p->frames[y->first].func],
                               p->strs[y->module]);
            else
                names_label(name, sizeof name, p->strs[in->func], p->strs[in->file], in->line, 0);
        }
        fprintf(f, "%s[%d,", out > 1 ? ",\n" : "",
                i == 0 ? -1 : (int)id[v.nodes[i].parent]);
        js(f, name);
        for (uint32_t c = 0; c < v.nm; c++)
            fprintf(f, ",%lld", (long long)v.incl[(size_t)i * v.nm + c]);
        fputc(']', f);
    }
    fputs("]", f);
    free(id);
    report_view_free(&v);
    return 0;
}

static void phases_json_all(FILE *f, const rp_run *run, uint64_t max_phases)
{
    fputc('[', f);
    uint64_t n = run->nphases < max_phases ? run->nphases : max_phases;
    for (uint64_t q = 0; q < n; q++) {
        fputs(q ? ",[" : "[", f);
        uint32_t np = run_npaths(run, q);
        for (uint32_t j = 0; j < np; j++) {
            const rp_pathsum *ps = run_pathsum(run, q, j);
            fprintf(f, "%s%lld", j ? "," : "", ps ? (long long)ps->cost_ns : 0LL);
        }
        fputc(']', f);
    }
    fputc(']', f);
}

int report_html(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    char *json = NULL, *tree = NULL;
    size_t nj = 0, nt = 0;
    FILE *m = open_memstream(&json, &nj);
    if (!m)
        return -1;
    int rc = report_json(m, p, o);
    if (fclose(m) != 0 || rc != 0) {
        free(json);
        return -1;
    }
    m = open_memstream(&tree, &nt);
    if (!m) {
        free(json);
        return -1;
    }
    rc = tree_json(m, p, 20000);
    if (fclose(m) != 0 || rc != 0) {
        free(json);
        free(tree);
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width\">\n<title>rpprof: ", f);
    for (const char *s = p->exe; *s; s++)   /* text content: escape markup */
        fputs(*s == '<' ? "&lt;" : *s == '&' ? "&amp;" : (char[2]){*s, 0}, f);
    fputs("</title>\n<style>", f);
    fputs(rp_html_css, f);
    fputs("</style></head>\n<body data-errors=\"0\">\n<div id=\"app\">loading&hellip;</div>\n", f);
    put_json_block(f, "rpdata", json, nj);
    put_json_block(f, "rptree", tree, nt);
    if (o->run) {
        char *ph = NULL;
        size_t np = 0;
        m = open_memstream(&ph, &np);
        if (m) {
            phases_json_all(m, o->run, 100000);
            if (fclose(m) == 0)
                put_json_block(f, "rpphases", ph, np);
            free(ph);
        }
    }
    fputs("<script>", f);
    fputs(rp_html_js, f);
    fputs("</script>\n</body></html>\n", f);
    free(json);
    free(tree);
    return ferror(f) ? -1 : 0;
}
