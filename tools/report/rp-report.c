/* rp-report - print what an rpprof run measured: the path-length
 * distribution, hotspots overall and on the paths, and the paths'
 * calling-context trees (text), or the same as JSON, or folded stacks. */
#include "merge/merge.h"
#include "common/oracle.h"   /* RP_ORACLE_BINS_ASK_MIN/_MAX: --check-bins */
#include "merge/prune.h"
#include "rpprof.h"   /* RPPROF_VERSION: configure's AC_INIT version */
#include "common/paths.h"
#include "common/profile.h"
#include "report/model.h"
#include "report/critpath.h"
#include "report/check.h"
#include "report/dot.h"
#include "report/phases.h"
#include "report/html.h"
#include "report/ranks.h"
#include "report/rankscan.h"
#include "report/speedscope.h"
#include "common/rankfiles.h"
#include "report/warnings.h"
#include "core/show.h"
#include "report/whatif.h"
#include "report/popview.h"
#include "report/poploss.h"
#include "report/text.h"
#include "report/json.h"
#include "report/folded.h"
#include "report/diffview.h"
#include "report/diffhtml.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/* --help: a synopsis, one line an option.  The manual page rp-report(1)
 * (doc/man/rp-report.1) documents them all; tests/tools/test_man.sh checks
 * that every option parsed below is in both. */
static const char usage_text[] =
    "Usage: rp-report [OPTION]... DIR|PROFILE\n"
    "Report the representative paths of an rpprof measurement directory DIR\n"
    "(its rank files, or DIR/profile.rpm if up to date) or of a merged PROFILE.\n"
    "\n"
    "  -f, --format FMT   text (default), json, html, speedscope, folded,\n"
    "                       critpath or dot\n"
    "  -o, --output FILE  write the report to FILE instead of standard output\n"
    "  -p, --path N       the path to follow: 0 = critical (default) .. k-1;\n"
    "                       folded also 'rank' or 'mpi'\n"
    "  -n, --top N        entries per hotspot list (default 10)\n"
    "  -t, --threshold P  text tree: hide contexts under P % (default 1)\n"
    "  -c, --check        check the online paths against the task graph (trace)\n"
    "                       or their tasks (path mode); exit 1 if they differ\n"
    "      --diff BEFORE AFTER  compare two runs: what changed, beyond noise\n";

/* --check-bins' line: its range from oracle.h */
static const char usage_bins[] =
    "      --check-bins N --check: histogram bins per phase (%u..%u)\n";

static const char usage_tail[] =
    "      --what-if FUNCTION=PERCENT, --what-if FILE:LINE=PERCENT\n"
    "                     estimate the critical path if that code were faster\n"
    "      --what-if network, --what-if balance\n"
    "                     predict the runtime with a perfect network or perfect\n"
    "                       load balance (POP factors; needs DIR)\n"
    "      --digits N     critpath: task seconds with N decimals (0..9)\n"
    "      --phase N      dot: only phase N\n"
    "      --min-share P  when merging rank files: fold contexts under P %\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the version and exit\n"
    "\n"
    "Exit status: 0 on success; 1 if the data cannot be read; 2 on a usage\n"
    "error (--check: 1 if the paths disagree, 3 if partly rebuilt).\n"
    "Full documentation: man rp-report (rp-report(1)); settings, counters and\n"
    "files: man rpprof (rpprof(7)).\n";

static int parse_u32(const char *s, uint32_t *v)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (errno || end == s || *end || x > UINT32_MAX || s[0] == '-')
        return -1;
    *v = (uint32_t)x;
    return 0;
}

/* Newer-than check: profile.rpm is fresh if no rank file is newer.  scan:
 * DIR's rank files listed and their job chosen already (rankscan_list),
 * or NULL to list them here. */
static int load(const char *arg, double min_share, const rp_rankscan *scan, rp_profile *p)
{
    struct stat sb;
    char err[256], shown[RP_SHOW_LEN];   /* arg as messages show it (core/show.h) */
    rp_show(shown, sizeof shown, arg);
    if (stat(arg, &sb) != 0) {
        fprintf(stderr, "rp-report: %s: %s\n", shown, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (profile_read(arg, p, err, sizeof err) != 0) {
            fprintf(stderr, "rp-report: %s: %s\n", shown, err);
            return -1;
        }
        return 0;
    }
    uint32_t nrank;
    int64_t newest = rankfiles_newest(arg, &nrank);
    if (newest < 0) {
        fprintf(stderr, "rp-report: %s: %s\n", shown, strerror(errno));
        return -1;
    }
    size_t n = strlen(arg) + 16;
    char *prof = malloc(n);
    if (!prof)
        return -1;
    snprintf(prof, n, "%s/profile.rpm", arg);
    int have = stat(prof, &sb) == 0;
    int64_t t = have ? (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec : 0;
    /* Rank files of several jobs: merge the newest job's in memory, so the
     * report names what it leaves out (profile.rpm does not record it). */
    uint32_t *jr, nj = 0;
    char **jp;
    rp_jobpick pick;
    int mixed = 0;
    if (have && nrank && scan) {
        mixed = scan->pick.n_left > 0 || scan->pick.stale;
    } else if (have && nrank && rankfiles_list_job(arg, &jr, &jp, &nj, &pick) == 0) {
        mixed = pick.n_left > 0 || pick.stale;
        rankfiles_pick_free(&pick);
        rankfiles_free(jr, jp, nj);
    }
    if (have && mixed) {
        fprintf(stderr, "rp-report: %s: the rank files are not all of the last job; merging "
                        "the newest job's in memory\n", arg);
    } else if (have && t >= newest) {
        if (profile_read(prof, p, err, sizeof err) == 0) {
            free(prof);
            return 0;
        }
        fprintf(stderr, "rp-report: %s/profile.rpm: %s%s\n", shown, err,
                nrank ? "; merging the rank files instead" : "");
        if (!nrank) {
            free(prof);
            return -1;
        }
    } else if (have && nrank) {
        fprintf(stderr, "rp-report: %s/profile.rpm is older than the rank files; merging them "
                "in memory\n", shown);
    }
    free(prof);
    rp_merge_opts o = {"rp-report", 0, min_share, 1, NULL, 0, NULL};
    if (scan)
        return merge_list(arg, &o, &scan->pick, scan->ranks, scan->paths, scan->n, p);
    return merge_dir(arg, &o, p);
}

/* poploss's subsets merged from DIR (ctx) when it could not be listed
 * once for all (rankscan.h). */
static int dir_subset(void *ctx, const uint8_t *mask, uint32_t nranks, rp_profile *sub)
{
    rp_merge_opts o = {"rp-report", 1, 0.0, 1, mask, nranks, NULL};
    return merge_dir(ctx, &o, sub);
}

/* RP_REPORT_READS set: how many times rank files were opened, on stderr
 * at exit, so a test can check that each is read once. */
static void say_reads(void)
{
    uint64_t full, job;
    rpfile_read_counts(&full, &job);
    fprintf(stderr, "rp-report: rank file reads: %llu whole, %llu job headers\n",
            (unsigned long long)full, (unsigned long long)job);
}

/* --what-if: one estimate per target (whatif.h).  0; 3 if a target has no
 * located time on any path (the functions on the critical path are
 * listed); -1 on error. */
static int what_if(FILE *out, const rp_profile *p, const rp_run *run, const rp_whatif *w, int n)
{
    report_warnings_print(out, "", p->counters, p->n_counters);
    uint64_t nph = 0;
    int64_t *pc = run && run->k == p->k ? whatif_phase_costs(run, p->k, &nph) : NULL;
    int rc = 0;
    for (int i = 0; i < n && rc >= 0; i++) {
        rp_whatif_result r;
        int c = whatif_compute(p, &w[i], pc, nph, &r);
        if (c == 0) {
            if (i)
                fputc('\n', out);
            rc = whatif_text(out, p, &w[i], &r);
        } else if (c == 1) {
            fprintf(stderr, "rp-report: --what-if: no time located in '%s%s%.0u' on any path; "
                    "functions with the most time on the critical path:", w[i].target,
                    w[i].line ? ":" : "", w[i].line);
            rp_hot *h;
            int32_t nh = report_hot_funcs(p, RP_MET_PATH0, &h);
            for (int32_t j = 0; j < nh && j < 8; j++) {
                char nm[512];
                report_hot_name(p, &h[j], nm, sizeof nm);
                fprintf(stderr, "%s %s", j ? "," : "", nm);
            }
            fputc('\n', stderr);
            if (nh >= 0)
                free(h);
            rc = 3;
        } else {
            rc = -1;
        }
        whatif_free(&r);
    }
    free(pc);
    return rc;
}

/* One run of --diff: its profile, path costs per slot and per-rank rows. */
typedef struct diffload {
    rp_profile p;
    int64_t   *cost;
    rp_rankrow *rows;
    int32_t    nrows;
} diffload;

/* The per-rank rows and, when run is not NULL (path and trace modes), the
 * run: from one read of each rank file when DIR was listed (scan), else
 * from DIR itself (ranks.h, paths.h).  te: also merge the critical path's
 * ranks for the POP loss lists (rankscan_read).  Returns the rows' count
 * (-1: none); *run_rc is 0 when the run was read. */
static int32_t read_ranks(const char *dir, rp_rankscan *scan, uint32_t nranks, rp_run *run,
                          int *run_rc, int te, rp_rankrow **rows)
{
    *rows = NULL;
    *run_rc = -1;
    if (!scan) {
        if (run)
            *run_rc = run_load(dir, "rp-report", run);
        return ranks_load(dir, nranks, rows);
    }
    if (rankscan_read(scan, nranks, run, run_rc, te) != 0 && !scan->rows)
        return -1;
    *rows = scan->rows;
    scan->rows = NULL;
    return (int32_t)scan->nrows;
}

static int diff_load(const char *arg, double min_share, diffload *d)
{
    *d = (diffload){0};
    struct stat sb;
    int isdir = stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode);
    rp_rankscan scan;
    int have_scan = isdir && rankscan_list(arg, &scan) == 0;
    if (load(arg, min_share, have_scan ? &scan : NULL, &d->p) != 0) {
        if (have_scan)
            rankscan_free(&scan);
        return -1;
    }
    d->cost = calloc(d->p.k ? d->p.k : 1, sizeof *d->cost);
    if (!d->cost) {
        profile_free(&d->p);
        if (have_scan)
            rankscan_free(&scan);
        return -1;
    }
    /* the costs the report's path table shows: the path summaries' in
     * path and trace modes, the phase statistics' otherwise; and the rows,
     * from one read of each rank file */
    rp_run run;
    int from_run = 0, run_rc = -1, want_run = isdir && d->p.mode != RP_MODE_PROF;
    if (isdir)
        d->nrows = read_ranks(arg, have_scan ? &scan : NULL, d->p.nranks,
                              want_run ? &run : NULL, &run_rc, 0, &d->rows);
    if (want_run && run_rc == 0) {
        if (run.k == d->p.k && run.nphases > 0) {
            run_slot_costs(&run, d->cost);
            from_run = 1;
        }
        run_free(&run);
    }
    for (uint32_t j = 0; !from_run && j < d->p.k && j < d->p.stats.k; j++)
        d->cost[j] = d->p.stats.sum_ns[j];
    if (have_scan)
        rankscan_free(&scan);
    if (d->nrows <= 0) {
        free(d->rows);
        d->rows = NULL;
        d->nrows = 0;
    }
    return 0;
}

static void diff_unload(diffload *d)
{
    profile_free(&d->p);
    free(d->cost);
    free(d->rows);
}

/* --diff BEFORE AFTER in text or JSON (diffview.h) */
static int diff_main(const char *a, const char *b, const char *fmt, const char *outfile,
                     uint32_t top, double min_share)
{
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "html")) {
        fprintf(stderr, "rp-report: --diff prints text, json or html, not %s\n", fmt);
        return 2;
    }
    diffload x, y;
    if (diff_load(a, min_share, &x) != 0)
        return 1;
    if (diff_load(b, min_share, &y) != 0) {
        diff_unload(&x);
        return 1;
    }
    FILE *out = stdout;
    if (outfile && !(out = fopen(outfile, "w"))) {
        fprintf(stderr, "rp-report: %s: %s\n", outfile, strerror(errno));
        diff_unload(&x);
        diff_unload(&y);
        return 1;
    }
    rp_diffrun ra = {{&x.p, x.cost, x.rows, (uint32_t)x.nrows}, a};
    rp_diffrun rb = {{&y.p, y.cost, y.rows, (uint32_t)y.nrows}, b};
    int rc = !strcmp(fmt, "json")   ? diffview_json(out, &ra, &rb, top, report_json_string)
             : !strcmp(fmt, "html") ? diffview_html(out, &ra, &rb)
                                    : diffview_text(out, &ra, &rb, top);
    diff_unload(&x);
    diff_unload(&y);
    if (fflush(out) != 0 || rc != 0 || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "rp-report: error writing the report: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *fmt = "text", *arg = NULL, *path_s = NULL, *outfile = NULL;
    int check = 0, digits_set = 0;
    uint32_t digits = 0, check_bins = 0;
    int64_t phase = -1;
    rp_whatif whatif[8];
    int nwhatif = 0, pop_network = 0, pop_balance = 0;
    rp_report_opts o = {.top = 10, .path = 0, .path_col = -1, .threshold = 1.0};
    double min_share = RP_PRUNE_DEFAULT_PCT;
    const char *arg2 = NULL;   /* --diff: BEFORE is arg, AFTER arg2 */
    int diff = 0;
    if (getenv("RP_REPORT_READS"))
        atexit(say_reads);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        /* options with a value: "-f json", "--format json", "--format=json" */
        static const char *const withval[][2] = {{"-f", "--format"}, {"-p", "--path"},
                                                 {"-n", "--top"}, {"-t", "--threshold"},
                                                 {"-o", "--output"}, {"--digits", "--digits"},
                                                 {"--phase", "--phase"},
                                                 {"--what-if", "--what-if"},
                                                 {"--min-share", "--min-share"},
                                                 {"--check-bins", "--check-bins"}};
        int opt = -1;
        for (int k = 0; k < (int)(sizeof withval / sizeof *withval) && opt < 0; k++) {
            size_t ll = strlen(withval[k][1]);
            if (!strcmp(a, withval[k][0]) || !strcmp(a, withval[k][1])) {
                if (++i >= argc) {
                    fprintf(stderr, "rp-report: %s needs a value (try --help)\n", a);
                    return 2;
                }
                val = argv[i];
                opt = k;
            } else if (!strncmp(a, withval[k][1], ll) && a[ll] == '=') {
                val = a + ll + 1;
                opt = k;
            }
        }
        if (opt == 0) {
            fmt = val;
        } else if (opt == 1) {
            path_s = val;
        } else if (opt == 2) {
            if (parse_u32(val, &o.top) != 0 || o.top == 0) {
                fprintf(stderr, "rp-report: --top wants a positive integer, not '%s'\n", val);
                return 2;
            }
        } else if (opt == 3) {
            char *end;
            o.threshold = strtod(val, &end);
            if (end == val || *end || !(o.threshold >= 0 && o.threshold <= 100)) {
                fprintf(stderr, "rp-report: --threshold wants a percentage 0..100, not '%s'\n",
                        val);
                return 2;
            }
        } else if (opt == 4) {
            outfile = val;
        } else if (opt == 5) {
            if (parse_u32(val, &digits) != 0 || digits > 9) {
                fprintf(stderr, "rp-report: --digits wants 0..9, not '%s'\n", val);
                return 2;
            }
            digits_set = 1;
        } else if (opt == 6) {
            uint32_t ph;
            if (parse_u32(val, &ph) != 0) {
                fprintf(stderr, "rp-report: --phase wants a phase number (0, 1, ...), not '%s'\n",
                        val);
                return 2;
            }
            phase = ph;
        } else if (opt == 7) {
            char err[300];
            if (!strcmp(val, "network") || !strcmp(val, "balance")) {   /* POP predictions */
                *(!strcmp(val, "network") ? &pop_network : &pop_balance) = 1;
                continue;
            }
            if (nwhatif == 8) {
                fprintf(stderr, "rp-report: at most 8 --what-if\n");
                return 2;
            }
            if (whatif_parse(val, &whatif[nwhatif], err, sizeof err) != 0) {
                fprintf(stderr, "rp-report: %s\n", err);
                return 2;
            }
            nwhatif++;
        } else if (opt == 8) {
            char *end;
            min_share = strtod(val, &end);
            if (end == val || *end || !(min_share >= 0 && min_share < 100)) {
                fprintf(stderr, "rp-report: --min-share wants a percentage in [0, 100), not "
                        "'%s'\n", val);
                return 2;
            }
        } else if (opt == 9) {
            if (parse_u32(val, &check_bins) != 0 || check_bins < RP_ORACLE_BINS_ASK_MIN ||
                check_bins > RP_ORACLE_BINS_ASK_MAX) {
                fprintf(stderr, "rp-report: --check-bins wants %u..%u, not '%s'\n",
                        RP_ORACLE_BINS_ASK_MIN, RP_ORACLE_BINS_ASK_MAX, val);
                return 2;
            }
        } else if (!strcmp(a, "--diff")) {
            diff = 1;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            printf(usage_bins, RP_ORACLE_BINS_ASK_MIN, RP_ORACLE_BINS_ASK_MAX);
            fputs(usage_tail, stdout);
            return 0;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("rp-report (rpprof) %s\n", RPPROF_VERSION);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "rp-report: unknown option '%s' (try --help)\n", a);
            return 2;
        } else if (arg && !arg2) {
            arg2 = a;   /* --diff's AFTER; an error without --diff (below) */
        } else if (arg) {
            fprintf(stderr, "rp-report: %s (try --help)\n", diff ? "--diff compares two runs, "
                    "not more" : "one directory or profile only");
            return 2;
        } else {
            arg = a;
        }
    }
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "folded") &&
        strcmp(fmt, "critpath") && strcmp(fmt, "dot") && strcmp(fmt, "html") &&
        strcmp(fmt, "speedscope")) {
        fprintf(stderr, "rp-report: unknown format '%s' (text, json, html, speedscope, folded, "
                "critpath or dot)\n", fmt);
        return 2;
    }
    if (path_s && strcmp(path_s, "rank") && strcmp(path_s, "mpi") &&
        parse_u32(path_s, &o.path) != 0) {
        fprintf(stderr, "rp-report: --path wants a path number 0..k-1%s, not '%s'\n",
                strcmp(fmt, "folded") ? "" : ", 'rank' or 'mpi'", path_s);
        return 2;
    }
    if (path_s && (!strcmp(path_s, "rank") || !strcmp(path_s, "mpi"))) {
        if (strcmp(fmt, "folded")) {
            fprintf(stderr, "rp-report: --path %s is for --format folded only\n", path_s);
            return 2;
        }
        o.path_col = !strcmp(path_s, "rank") ? (int)RP_MET_RANK : (int)RP_MET_MPI;
    }
    if (digits_set && strcmp(fmt, "critpath")) {
        fprintf(stderr, "rp-report: --digits is for --format critpath only\n");
        return 2;
    }
    if (phase >= 0 && strcmp(fmt, "dot")) {
        fprintf(stderr, "rp-report: --phase is for --format dot only\n");
        return 2;
    }
    if (check_bins && !check) {
        fprintf(stderr, "rp-report: --check-bins only applies to --check\n");
        return 2;
    }
    if (check && strcmp(fmt, "text") && strcmp(fmt, "json")) {
        fprintf(stderr, "rp-report: --check prints a table (text) or one JSON object "
                "(--format json), not %s\n", fmt);
        return 2;
    }
    int any_whatif = nwhatif || pop_network || pop_balance;
    if (any_whatif && (strcmp(fmt, "text") || check || path_s)) {
        fprintf(stderr, "rp-report: --what-if prints its own text; no --format, --check or "
                "--path with it\n");
        return 2;
    }
    if (arg2 && !diff) {
        fprintf(stderr, "rp-report: one directory or profile only (try --help)\n");
        return 2;
    }
    if (diff) {
        if (!arg2) {
            fprintf(stderr, "rp-report: --diff needs two runs, BEFORE and AFTER (try --help)\n");
            return 2;
        }
        if (check || any_whatif || path_s || digits_set || phase >= 0) {
            fprintf(stderr, "rp-report: --diff takes its two runs and --format, --output, "
                    "--top, --min-share only\n");
            return 2;
        }
        return diff_main(arg, arg2, fmt, outfile, o.top, min_share);
    }
    if (!arg) {
        fprintf(stderr, "rp-report: no measurement directory or profile given (try --help)\n");
        return 2;
    }
    FILE *out = stdout;
    if (outfile && !(out = fopen(outfile, "w"))) {
        fprintf(stderr, "rp-report: %s: %s\n", outfile, strerror(errno));
        return 1;
    }
    struct stat sb;
    int isdir = stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (check || !strcmp(fmt, "critpath") || !strcmp(fmt, "dot")) {
        /* full paths live in the rank files only */
        if (!isdir) {
            fprintf(stderr, "rp-report: %s needs the measurement directory (rank files), "
                    "not a merged profile\n", check ? "--check" : fmt);
            return 2;
        }
        rp_run run;
        if (run_load(arg, "rp-report", &run) != 0)
            return 1;
        /* the loss counters of the rank files: on stderr (critpath and
         * --check have fixed line formats), and as DOT comments in dot */
        rp_counter *ctr = NULL;
        int32_t nctr = report_sum_counters(run.rd, run.present, run.nranks, &ctr);
        if (nctr > 0) {
            report_warnings_print(stderr, "rp-report: ", ctr, (uint32_t)nctr);
            if (!strcmp(fmt, "dot") && !check)
                report_warnings_print(out, "// ", ctr, (uint32_t)nctr);
        }
        free(ctr);
        int rc = check ? report_check(out, &run, 1000, !strcmp(fmt, "json"), check_bins)
                 : !strcmp(fmt, "critpath") ? report_critpath_digits(out, &run, digits)
                                            : report_dot_phase(out, &run, phase);
        run_free(&run);
        if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
            fprintf(stderr, "rp-report: error writing the report: %s\n", strerror(errno));
            return 1;
        }
        /* --check: 3 = everything checked agrees, but part of a path could
         * not be rebuilt (path mode, summary overflow; doc/paths.md) */
        return rc == 0 ? 0 : check && rc == 3 ? 3 : 1;
    }
    /* DIR's rank files: listed, their job chosen and (below) each read once
     * for every view (rankscan.h) */
    rp_rankscan scan;
    int have_scan = isdir && rankscan_list(arg, &scan) == 0;
    rp_profile p;
    if (load(arg, min_share, have_scan ? &scan : NULL, &p) != 0) {
        if (have_scan)
            rankscan_free(&scan);
        return 1;
    }
    /* path and trace modes: path costs from the path summaries, and (text)
     * the task sequences; per-rank rows (text and JSON); the POP loss
     * lists' critical-path ranks (prof mode) */
    int want_rows = isdir && strcmp(fmt, "folded");
    int want_run = want_rows && p.mode != RP_MODE_PROF;
    int want_te = want_rows && p.mode == RP_MODE_PROF && !any_whatif &&
                  (!strcmp(fmt, "text") || !strcmp(fmt, "json") || !strcmp(fmt, "html"));
    rp_rankrow *rows = NULL;
    int32_t nrows = -1;
    rp_run run;
    int have_run = 0, run_rc = -1;
    if (want_rows)
        nrows = read_ranks(arg, have_scan ? &scan : NULL, p.nranks, want_run ? &run : NULL,
                           &run_rc, want_te, &rows);
    int64_t *slot = NULL;
    if (want_run && run_rc == 0) {
        have_run = 1;
        slot = calloc(run.k, sizeof *slot);
        o.run = &run;
        if (slot && run.nphases > 0 && run.k == p.k) {
            run_slot_costs(&run, slot);
            o.path_cost_ns = slot;
            o.path_phases = run.nphases;
        }
    }
    if (nrows > 0) {
        o.ranks = rows;
        o.nranks_rows = (uint32_t)nrows;
    }
    if (o.path >= p.k) {
        fprintf(stderr, "rp-report: --path %u out of range: this profile has k=%u paths (0..%u)\n",
                o.path, p.k, p.k - 1);
        profile_free(&p);
        free(rows);
        if (have_scan)
            rankscan_free(&scan);
        return 2;
    }
    /* the code behind each POP factor's loss: profiles of the busiest rank
     * and of the critical path's ranks, merged from their files */
    rp_poploss ploss;
    int have_ploss = 0;
    if (isdir && rows && (!strcmp(fmt, "text") || !strcmp(fmt, "json") || !strcmp(fmt, "html")) &&
        !any_whatif) {
        rp_popin pin;
        popview_inputs(&p, &o, &pin);
        uint32_t *rk = malloc((o.nranks_rows + 1) * sizeof *rk);
        int64_t *p0 = malloc((o.nranks_rows + 1) * sizeof *p0);
        for (uint32_t i = 0; rk && p0 && i < o.nranks_rows; i++) {
            rk[i] = rows[i].rank;
            p0[i] = rows[i].path0_ns;
        }
        if (pin.ok && rk && p0 && p.mode == RP_MODE_PROF &&
            poploss_compute(have_scan ? rankscan_subset : dir_subset,
                            have_scan ? (void *)&scan : (void *)arg, &p, &pin.pop, rk, p0,
                            o.nranks_rows, 5, &ploss) == 0) {
            have_ploss = 1;
            o.poploss = &ploss;
        }
        free(rk);
        free(p0);
    }
    int rc;
    if (any_whatif) {
        /* the code targets first: what_if prints the warnings ahead of all */
        rc = nwhatif ? what_if(out, &p, have_run ? &run : NULL, whatif, nwhatif) : 0;
        if (rc == 0 && (pop_network || pop_balance)) {
            if (nwhatif)
                fputc('\n', out);
            else
                report_warnings_print(out, "", p.counters, p.n_counters);
            rc = popview_whatif_text(out, &p, &o, pop_network, pop_balance) ? 3 : 0;
        }
    }
    else if (!strcmp(fmt, "json"))
        rc = report_json(out, &p, &o);
    else if (!strcmp(fmt, "html"))
        rc = report_html(out, &p, &o);
    else if (!strcmp(fmt, "speedscope")) {
        /* speedscope's format has no place for them: warnings on stderr */
        report_warnings_print(stderr, "rp-report: ", p.counters, p.n_counters);
        rc = report_speedscope(out, &p, &o);
    } else if (!strcmp(fmt, "folded")) {
        /* folded lines are "stack VALUE" only (flamegraph.pl, speedscope):
         * the warnings go to stderr */
        report_warnings_print(stderr, "rp-report: ", p.counters, p.n_counters);
        if (p.mode != RP_MODE_PROF)   /* nothing to fold: say so, not a silent empty file */
            fprintf(stderr, "rp-report: note: a %s-mode run records tasks, not samples: no "
                    "calling contexts to fold (RP_MODE=prof samples them; --format critpath "
                    "or dot shows this run's paths)\n", p.mode == RP_MODE_PATH ? "path" : "trace");
        rc = report_folded(out, &p, o.path_col >= 0 ? (uint32_t)o.path_col
                                                    : RP_MET_PATH0 + o.path);
    } else {
        rc = report_text(out, &p, &o);
        if (rc == 0 && have_run)
            rc = phases_text(out, &run, o.top);
        if (rc == 0 && have_run)
            rc = report_paths_text(out, &run, 24, 20);
    }
    profile_free(&p);
    free(rows);
    free(slot);
    if (have_ploss)
        poploss_free(&ploss);
    if (have_run)
        run_free(&run);
    if (have_scan)
        rankscan_free(&scan);
    if (rc == 3)   /* --what-if: a target not found (said on stderr) */
        return 1;
    if (fflush(out) != 0 || rc != 0 || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "rp-report: error writing the report: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
