/* speedscope.c - rp-report --format speedscope (speedscope.h).
 *
 * Layout of the file (speedscope's FileFormat.File):
 *   {"$schema": ..., "exporter": "rpprof X", "name": ..., "activeProfileIndex": 0,
 *    "shared": {"frames": [{"name", "file"}...]},
 *    "profiles": [{"type": "sampled", "name", "unit": "seconds",
 *                  "startValue": 0, "endValue": total,
 *                  "samples": [[frame, ...] outermost first, ...],
 *                  "weights": [seconds, ...]}, ...]}
 * Frames are interned by (name, file) so a function called from many
 * contexts is one frame (speedscope's sandwich view sums it). */
#include "report/speedscope.h"

#include <stdlib.h>
#include <string.h>
#include "common/frames.h"
#include "common/names.h"
#include "rpprof.h"
#include "common/strtab.h"
#include "report/json.h"

#define SS_SCHEMA "https://www.speedscope.app/file-format-schema.json"
/* separates name and file in an interned frame key (never in a name) */
#define SS_SEP '\x1f'

/* The frames of each view node: ids[first[i] .. first[i] + count[i]). */
typedef struct ss_frames {
    rp_strtab keys;        /* "name<SEP>file"; frame id = key id - 1 */
    uint32_t *first, *count;
    uint32_t *ids;
    size_t    nids, cap;
} ss_frames;

static int add_frame(ss_frames *fr, const char *name, const char *file)
{
    char key[1200];
    snprintf(key, sizeof key, "%s%c%s", name, SS_SEP, file);
    uint32_t id = strtab_intern(&fr->keys, key);
    if (id == UINT32_MAX)
        return -1;
    if (fr->nids == fr->cap) {
        size_t nc = fr->cap ? 2 * fr->cap : 1024;
        uint32_t *x = realloc(fr->ids, nc * sizeof *x);
        if (!x)
            return -1;
        fr->ids = x;
        fr->cap = nc;
    }
    fr->ids[fr->nids++] = id - 1;
    return 0;
}

/* The frames node i shows, outermost first: an rpprof wrapper or a module
 * without symbols is one frame (frames_display), code is one frame per
 * source-level function (inlined ones included). */
static int node_frames(ss_frames *fr, const rp_profile *p, const rp_view *v, uint32_t i)
{
    uint32_t sym = v->nodes[i].sym;
    const rp_psym *y = &p->syms[sym];
    uint32_t kind = frames_kind(p, sym);
    char nm[1024];
    fr->first[i] = (uint32_t)fr->nids;
    if (kind != FRAMES_CODE) {
        frames_display(nm, sizeof nm, kind, p->strs[p->frames[y->first].func],
                       p->strs[y->module]);
        if (add_frame(fr, nm, kind == FRAMES_NOSYM ? p->strs[y->module] : "") != 0)
            return -1;
    } else {
        for (uint32_t k = 0; k < y->n; k++) {
            const rp_pframe *pf = &p->frames[y->first + k];
            /* template arguments elided in code only: "<unknown>" stays */
            if (y->kind == RP_SYM_FRAME)
                names_elide_templates(nm, sizeof nm, p->strs[pf->func]);
            else
                snprintf(nm, sizeof nm, "%s", p->strs[pf->func]);
            if (add_frame(fr, nm, p->strs[pf->file]) != 0)
                return -1;
        }
    }
    fr->count[i] = (uint32_t)fr->nids - fr->first[i];
    return 0;
}

/* JSON string (report_json's escaping: always valid JSON, UTF-8 checked). */
#define jstr report_json_string

static void put_frames(FILE *f, const ss_frames *fr)
{
    fputs("\"shared\":{\"frames\":[", f);
    for (uint32_t id = 1; id < fr->keys.n; id++) {
        const char *key = fr->keys.strs[id];
        const char *sep = strchr(key, SS_SEP);
        char name[1024];
        size_t nl = sep ? (size_t)(sep - key) : strlen(key);
        if (nl >= sizeof name)
            nl = sizeof name - 1;
        memcpy(name, key, nl);
        name[nl] = 0;
        fputs(id > 1 ? ",\n{\"name\":" : "\n{\"name\":", f);
        jstr(f, name);
        if (sep && sep[1]) {
            fputs(",\"file\":", f);
            jstr(f, sep + 1);
        }
        fputc('}', f);
    }
    fputs("]}", f);
}

/* One sampled profile of column col. */
static void put_profile(FILE *f, const rp_view *v, const ss_frames *fr,
                        uint32_t col, const char *name, uint32_t *chain)
{
    int64_t total = 0;
    for (uint32_t i = 1; i < v->n; i++)
        if (v->excl[(size_t)i * v->nm + col] > 0)
            total += v->excl[(size_t)i * v->nm + col];
    fputs("{\"type\":\"sampled\",\"name\":", f);
    jstr(f, name);
    fprintf(f, ",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":%.9f,\n\"samples\":[",
            (double)total / 1e9);
    int first = 1;
    for (uint32_t i = 1; i < v->n; i++) {
        if (v->excl[(size_t)i * v->nm + col] <= 0)
            continue;
        uint32_t d = 0;
        for (uint32_t n = i; n != 0 && n != UINT32_MAX; n = v->nodes[n].parent)
            chain[d++] = n;
        fputs(first ? "[" : ",\n[", f);
        first = 0;
        int ff = 1;
        while (d-- > 0) {
            uint32_t n = chain[d];
            for (uint32_t k = 0; k < fr->count[n]; k++) {
                fprintf(f, ff ? "%u" : ",%u", fr->ids[fr->first[n] + k]);
                ff = 0;
            }
        }
        fputc(']', f);
    }
    fputs("],\n\"weights\":[", f);
    first = 1;
    for (uint32_t i = 1; i < v->n; i++) {
        int64_t ns = v->excl[(size_t)i * v->nm + col];
        if (ns <= 0)
            continue;
        fprintf(f, first ? "%.9f" : ",%.9f", (double)ns / 1e9);
        first = 0;
    }
    fputs("]}", f);
}

int report_speedscope(FILE *f, const rp_profile *p, const rp_report_opts *o)
{
    rp_view v;
    if (report_view(p, &v) != 0)
        return -1;
    ss_frames fr = {0};
    uint32_t nn = v.n ? v.n : 1;
    uint32_t *chain = malloc((size_t)nn * sizeof *chain);
    fr.first = calloc(nn, sizeof *fr.first);
    fr.count = calloc(nn, sizeof *fr.count);
    int rc = -1;
    if (!chain || !fr.first || !fr.count || strtab_init(&fr.keys) != 0)
        goto out;
    /* frames of the nodes that carry time in some column, and of their
     * ancestors (a node's parent has a smaller index: mark bottom-up) */
    uint8_t *used = calloc(nn, 1);
    if (!used)
        goto out;
    for (uint32_t i = v.n; i-- > 1;) {
        int any = used[i];
        for (uint32_t c = 0; c < v.nm && !any; c++)
            any = v.excl[(size_t)i * v.nm + c] > 0;
        if (any) {
            used[i] = 1;
            uint32_t par = v.nodes[i].parent;
            if (par != UINT32_MAX)
                used[par] = 1;
        }
    }
    for (uint32_t i = 1; i < v.n; i++)
        if (used[i] && node_frames(&fr, p, &v, i) != 0) {
            free(used);
            goto out;
        }
    free(used);

    fputs("{\"$schema\":\"" SS_SCHEMA "\",\n\"exporter\":\"rpprof " RPPROF_VERSION "\",\n"
          "\"name\":", f);
    char name[400];
    snprintf(name, sizeof name, "rpprof: %s, %u ranks, k=%u, %s mode", p->exe, p->nranks, p->k,
             profile_mode_name(p->mode));
    jstr(f, name);
    fputs(",\n\"activeProfileIndex\":0,\n", f);
    put_frames(f, &fr);
    fputs(",\n\"profiles\":[\n", f);
    const rp_phasestats *st = &p->stats;
    for (uint32_t j = 0; j < p->k; j++) {
        int64_t cost = o && o->path_cost_ns ? o->path_cost_ns[j] : j < st->k ? st->sum_ns[j] : 0;
        char lb[48];
        snprintf(name, sizeof name, "path %g%% (%s)%s: cost %.6f s (task time, summed over phases)",
                 report_percentile(j, p->k), report_level_label(p, j, lb, sizeof lb),
                 j == 0 ? ", the critical path" : "", (double)cost / 1e9);
        put_profile(f, &v, &fr, RP_MET_PATH0 + j, name, chain);
        fputs(",\n", f);
    }
    put_profile(f, &v, &fr, RP_MET_RANK,
                "whole program: computation (every sample of every rank)", chain);
    fputs(",\n", f);
    put_profile(f, &v, &fr, RP_MET_MPI, "whole program: inside MPI (every rank)", chain);
    fputs("\n]}\n", f);
    rc = ferror(f) ? -1 : 0;
out:
    free(chain);
    free(fr.first);
    free(fr.count);
    free(fr.ids);
    strtab_free(&fr.keys);
    report_view_free(&v);
    return rc;
}
