/* config.c - RP_* environment variables.  Every value is validated; a bad
 * one never stops the job: rank 0 says once what was wrong and which value
 * is used instead. */
#include "core/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/pathset.h"
#include "core/wire.h"
#include "core/vocab.h"
#include "core/cct.h"
#include "core/itembuf.h"
#include "core/warn.h"
#include "core/show.h"

int config_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    if (!s || !*s)
        return -1;
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;             /* no sign, no spaces, no suffixes */
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static void get_u32(const char *var, uint32_t lo, uint32_t hi, uint32_t def,
                    const char *extra, uint32_t *out, int verbose)
{
    const char *s = getenv(var);
    *out = def;
    if (!s)
        return;
    if (config_parse_u32(s, lo, hi, out) != 0) {
        *out = def;
        char v[RP_SHOW_LEN];   /* a long value elided: the range and the value used stay */
        if (verbose)
            rp_warn(0, "%s='%s' is not valid (expected an integer %u..%u%s); using %u",
                    var, rp_show(v, sizeof v, s), lo, hi, extra, def);
    }
}

static int get_word(const char *var, const char *const *words, int nwords,
                    int def, int verbose)
{
    const char *s = getenv(var);
    if (!s)
        return def;
    for (int i = 0; i < nwords; i++)
        if (words[i] && strcmp(s, words[i]) == 0)
            return i;
    if (verbose) {
        char list[128] = "";
        for (int i = 0; i < nwords; i++) {
            if (!words[i])
                continue;
            if (list[0])
                strncat(list, "|", sizeof list - strlen(list) - 1);
            strncat(list, words[i], sizeof list - strlen(list) - 1);
        }
        char v[RP_SHOW_LEN];
        rp_warn(0, "%s='%s' is not valid (expected %s); using %s", var,
                rp_show(v, sizeof v, s), list, words[def]);
    }
    return def;
}

void config_load(rp_config *cfg, int verbose)
{
    memset(cfg, 0, sizeof *cfg);
    get_u32("RP_K", 1, RP_MAX_K, RP_DEFAULT_K, "", &cfg->k_asked, verbose);
    get_u32("RP_SUMMARY", 1, RP_MAX_SUMMARY, RP_DEFAULT_SUMMARY, "", &cfg->summary, verbose);
    get_u32("RP_PERIOD", 0, 10000000, RP_DEFAULT_PERIOD, ", 0 = no sampling", &cfg->period_us, verbose);
    if (cfg->period_us > 0 && cfg->period_us < 100) {
        if (verbose)
            rp_warn(0, "RP_PERIOD=%u is below the 100 us minimum; using 100", cfg->period_us);
        cfg->period_us = 100;
    }
    get_u32("RP_CHAIN", 0, 1u << 28, 1u << 22,
            ", path mode: intervals of chains a rank keeps a phase, 0 = the paper's overflow rule",
            &cfg->chain, verbose);
    get_u32("RP_EAGER_LIMIT", 256, 1u << 20, RP_DEFAULT_EAGER, "", &cfg->eager_limit, verbose);

    get_u32("RP_THREADS", 0, 1, 1, ", 0 = sample the MPI thread only", &cfg->threads, verbose);
    get_u32("RP_CHECKPOINT", 0, RP_MAX_CHECKPOINT_S, RP_DEFAULT_CHECKPOINT_S,
            ", seconds between checkpoints, 0 = only at MPI_Finalize", &cfg->checkpoint_s, verbose);
    get_u32("RP_JOBFILE", 0, UINT32_MAX, RP_DEFAULT_JOBFILE,
            ", ranks from which one job file is written, 0 = a file per rank", &cfg->jobfile,
            verbose);
    static const char *const jio[] = { [RP_JOBFILE_MPIIO] = "mpiio", [RP_JOBFILE_GATHER] = "gather" };
    cfg->jobfile_io = (uint32_t)get_word("RP_JOBFILE_IO", jio, 2, RP_DEFAULT_JOBFILE_IO, verbose);
    get_u32("RP_CCT_NODES", 2, CCT_MAX_CAP, CCT_DEFAULT_CAP, ", calling-context tree nodes", &cfg->cct_nodes, verbose);
    get_u32("RP_MAILBOX", 0, 1, 1, ", 0 = path-sets as MPI messages between all ranks",
            &cfg->mailbox, verbose);
    get_u32("RP_MAILBOX_BYTES", 0, 1u << 24, 0, ", bytes of ring per sender, 0 = automatic",
            &cfg->mailbox_bytes, verbose);
    get_u32("RP_MAILBOX_NODE", 0, 1u << 24, 0, ", ranks per mailbox group, 0 = the node",
            &cfg->mailbox_node, verbose);
    static const char *const refs[] = { "0", "1", "all" };   /* rp_mbox_refs */
    cfg->mailbox_refs = (uint32_t)get_word("RP_MAILBOX_REFS", refs, 3, 1, verbose);
    static const char *const multiple[] = { "local", "main" };
    cfg->multiple = (uint32_t)get_word("RP_MULTIPLE", multiple, 2, 0, verbose);

    static const char *const sel[] = { "repr", "topk", "paper" };   /* rp_select_mode */
    cfg->select = (uint32_t)get_word("RP_SELECT", sel, 3, 0, verbose);
    static const char *const clk[] = { "wall", "cpu" };
    cfg->clock = (uint32_t)get_word("RP_CLOCK", clk, 2, 0, verbose);
    static const char *const tsc[] = { "0", "1" };
    cfg->tsc = (uint32_t)get_word("RP_TSC", tsc, 2, 1, verbose);

    static const char *const modes[] = { [RP_MODE_PROF] = "prof", [RP_MODE_PATH] = "path",
                                          [RP_MODE_TRACE] = "trace" };
    cfg->mode = (uint32_t)get_word("RP_MODE", modes, 3, RP_MODE_PROF, verbose);
    /* RP_BUFFER: prof mode's samples a phase (16-bit indices); path
     * mode's tasks a rank a phase, by default all its summaries can name
     * (RP_TASKBUF_MAX, mapped as a phase needs them: itembuf.h); trace
     * mode commits every task at once and keeps the old range. */
    if (cfg->mode == RP_MODE_PATH)
        get_u32("RP_BUFFER", 256, RP_TASKBUF_MAX, RP_TASKBUF_MAX,
                ", path mode: tasks a rank a phase", &cfg->buffer, verbose);
    else
        get_u32("RP_BUFFER", 256, RP_ITEMBUF_MAX,
                cfg->mode == RP_MODE_PROF ? RP_DEFAULT_BUFFER : RP_ITEMBUF_MAX, "",
                &cfg->buffer, verbose);
    if (cfg->mode != RP_MODE_PROF) {
        /* Path and trace modes record tasks, not samples: the item buffer
         * holds tasks, and a path summary as long as the eager limit
         * allows (set below). */
        if (cfg->period_us && getenv("RP_PERIOD") && verbose)
            rp_warn(0, "RP_PERIOD is ignored in RP_MODE=%s (tasks are recorded, not samples)",
                    modes[cfg->mode]);
        cfg->period_us = 0;
    }

    const char *o = getenv("RP_OUTPUT");
    if (o && *o) {
        if (strlen(o) >= sizeof cfg->output - 32) {
            char v[RP_SHOW_LEN];
            if (verbose)
                rp_warn(0, "RP_OUTPUT='%s' is longer than %zu characters; using the default "
                           "directory (rpprof-PROGRAM-JOB in the working directory)",
                        rp_show(v, sizeof v, o), sizeof cfg->output - 33);
        } else {
            strcpy(cfg->output, o);
        }
    } else if (o && verbose) {
        rp_warn(0, "RP_OUTPUT is empty; using the default directory");
    }

    /* The largest path-set must travel eagerly: clamp the summary first
     * (paths matter more than resolution), then k. */
    cfg->k = cfg->k_asked;
    if (cfg->mode == RP_MODE_PATH && !getenv("RP_SUMMARY")) {
        /* Full paths need every hop: take the longest summary that fits. */
        cfg->summary = RP_MAX_SUMMARY;
        while (pathset_max_wire_bytes(cfg->k, cfg->summary) > cfg->eager_limit && cfg->summary > 1)
            cfg->summary--;
    }
    uint32_t summary_asked = cfg->summary;
    while (pathset_max_wire_bytes(cfg->k, cfg->summary) > cfg->eager_limit && cfg->summary > 1)
        cfg->summary--;
    while (pathset_max_wire_bytes(cfg->k, cfg->summary) > cfg->eager_limit && cfg->k > 1)
        cfg->k--;
    if ((cfg->k != cfg->k_asked || cfg->summary != summary_asked) && verbose)
        rp_warn(0, "RP_K=%u x RP_SUMMARY=%u exceeds the %u-byte eager limit (RP_EAGER_LIMIT); "
                   "using k=%u with %u intervals per path", cfg->k_asked, summary_asked,
                cfg->eager_limit, cfg->k, cfg->summary);

    /* The phase-end exchange's wide set (weighted selection only: the
     * paper's rule and topk keep their own definitions).  Its messages go
     * by MPI_Sendrecv, so the eager limit does not bound them.  A value of
     * k or less turns it off (documented: RP_PHASE_K=1). */
    get_u32("RP_PHASE_K", 1, RP_MAX_K, config_phase_k_default(cfg->k),
            ", paths kept inside a phase-end exchange", &cfg->phase_k, verbose);
    if (cfg->phase_k < cfg->k || cfg->select != RP_SELECT_REPR)
        cfg->phase_k = cfg->k;
    /* Phase ends exchanged several at once (lib/runtime/phasebatch.c); the
     * runtime keeps 1 where the mode cannot defer its booking. */
    get_u32("RP_PHASE_BATCH", 1, RP_MAX_PHASE_BATCH, RP_DEFAULT_PHASE_BATCH,
            ", phases per phase-end exchange", &cfg->phase_batch, verbose);
}

uint32_t config_phase_k_default(uint32_t k)
{
    uint32_t wide = RP_PHASE_K_MULT * (k ? k - 1 : 0) + 1;
    return wide > RP_MAX_K ? RP_MAX_K : wide;
}

int config_threads_wanted(void)
{
    uint32_t v;
    const char *s;
    if ((s = getenv("RP_THREADS")) && config_parse_u32(s, 0, 1, &v) == 0 && v == 0)
        return 0;
    if ((s = getenv("RP_PERIOD")) && config_parse_u32(s, 0, 10000000, &v) == 0 && v == 0)
        return 0;
    if ((s = getenv("RP_MODE")) && (strcmp(s, "path") == 0 || strcmp(s, "trace") == 0))
        return 0;
    return 1;
}
