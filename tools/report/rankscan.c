/* rankscan.c - one read of each rank file for all of rp-report's views
 * (rankscan.h).
 *
 * Memory: a row (ranks.h, about 150 bytes) and the listing's path and rank
 * (about 60 bytes with malloc's overhead) per rank; the files' trees live
 * only while each is read, and the critical-path merge holds the merged
 * tree, the size of the program's calling contexts, not of the ranks. */
#define _GNU_SOURCE
#include "report/rankscan.h"

#include <stdlib.h>
#include <string.h>

int rankscan_list(const char *dir, rp_rankscan *s)
{
    memset(s, 0, sizeof *s);
    s->dir = dir;
    if (rankfiles_list_job(dir, &s->ranks, &s->paths, &s->n, &s->pick) != 0)
        return -1;
    for (uint32_t i = 1; i < s->n; i++)
        s->dup_ranks |= s->ranks[i] == s->ranks[i - 1];
    return 0;
}

/* The merge poploss.c's transfer list asks for (its merge_subset): the
 * ranks with critical-path time, quiet, unpruned, into a memory log. */
static int te_begin(rp_rankscan *s, uint32_t nranks)
{
    s->te_mask = calloc(nranks / 8 + 1, 1);
    s->te_logf = open_memstream(&s->te_log, &s->te_loglen);
    s->te_opts = (rp_merge_opts){"rp-report", 1, 0.0, 1, s->te_mask, nranks, s->te_logf};
    if (!s->te_mask || !s->te_logf)
        return -1;
    s->te = merger_new(&s->te_opts);
    return s->te ? 0 : -1;   /* rankscan_free frees what was made */
}

int rankscan_read(rp_rankscan *s, uint32_t nranks, rp_run *run, int *run_rc, int te)
{
    s->rows = calloc(s->n ? s->n : 1, sizeof *s->rows);
    if (!s->rows)
        return -1;
    /* Two files of one rank: poploss's subset takes both when either has
     * critical-path time, which is known only once both are read; merge
     * that subset from the files afterwards instead. */
    int feed = te && !s->dup_ranks;
    if (feed && te_begin(s, nranks) != 0)
        feed = 0;   /* rankscan_subset merges from the files instead */
    if (run)
        run_begin(run, "rp-report");
    int rc = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        rp_rankdata d;
        char err[256];
        if (rpfile_read(s->paths[i], &d, err, sizeof err) != 0) {
            /* unreadable: the merge has said so (the run says it below) */
            if (run)
                run_bad(run, s->paths[i], err);
            continue;
        }
        if (d.rank == s->ranks[i] && d.rank < nranks) {
            rp_rankrow *x = &s->rows[s->nrows++];
            ranks_row(&d, x);
            if (feed && x->path0_ns > 0) {
                s->te_mask[d.rank / 8] |= (uint8_t)(1u << (d.rank % 8));
                if (merger_add(s->te, s->paths[i], s->ranks[i], &d) != 0)
                    feed = 0;   /* out of memory: said when finished */
            }
        }
        if (run && run_add(run, s->paths[i], s->ranks[i], &d) != 0)
            rc = -1;
        rpfile_free(&d);   /* zeroed by run_add when the run took it */
    }
    if (run)
        *run_rc = run_finish(run, s->dir, s->n);
    return rc;
}

int rankscan_subset(void *scan, const uint8_t *mask, uint32_t nranks, rp_profile *sub)
{
    rp_rankscan *s = scan;
    if (s->te && nranks == s->te_opts.only_n &&
        memcmp(mask, s->te_mask, nranks / 8 + 1) == 0) {
        rp_merger *m = s->te;
        s->te = NULL;
        /* the messages of its files now, where merging them would have
         * printed them; the rest (finishing, symbolising) straight out */
        fflush(s->te_logf);
        if (s->te_loglen)
            fwrite(s->te_log, 1, s->te_loglen, stderr);
        s->te_opts.log = NULL;
        return merger_finish(m, s->dir, &s->pick, s->ranks, s->n, sub);
    }
    rp_merge_opts o = {"rp-report", 1, 0.0, 1, mask, nranks, NULL};
    return merge_list(s->dir, &o, &s->pick, s->ranks, s->paths, s->n, sub);
}

void rankscan_free(rp_rankscan *s)
{
    merger_free(s->te);
    if (s->te_logf)
        fclose(s->te_logf);
    free(s->te_log);
    free(s->te_mask);
    free(s->rows);
    rankfiles_pick_free(&s->pick);
    rankfiles_free(s->ranks, s->paths, s->n);
    memset(s, 0, sizeof *s);
}
