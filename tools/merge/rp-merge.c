/* rp-merge - union the per-rank files of an rpprof measurement directory
 * into one symbolised profile, DIR/profile.rpm. */
#include "merge/merge.h"
#include "rpprof.h"   /* RPPROF_VERSION: configure's AC_INIT version */
#include "common/profile.h"
#include "merge/prune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/* --help: a synopsis, one line an option.  The manual page rp-merge(1)
 * (doc/man/rp-merge.1) documents them all; tests/tools/test_man.sh checks
 * that every option parsed below is in both. */
static const char usage_text[] =
    "Usage: rp-merge [OPTION]... DIR\n"
    "Merge the per-rank files DIR/rank-NNNNN.rpp of an rpprof run into one\n"
    "symbolised profile, DIR/profile.rpm, for rp-report.\n"
    "\n"
    "  -o, --output FILE    write the merged profile to FILE (default DIR/profile.rpm)\n"
    "  -q, --quiet          do not list missing ranks one by one\n"
    "      --min-share PCT  fold contexts under PCT % of every column into one\n"
    "                         (default 0.1; 0 keeps every context)\n"
    "      --newest-job     DIR holds rank files of several jobs: merge the newest\n"
    "                         job's, naming the others (default: fail)\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and exit\n"
    "\n"
    "Exit status: 0 if at least one rank was merged and the profile written;\n"
    "1 if no rank could be merged, the rank files belong to several jobs\n"
    "(without --newest-job) or the output could not be written;\n"
    "2 on a usage error.\n"
    "Full documentation: man rp-merge (rp-merge(1)); files: man rpprof (rpprof(7)).\n";

int main(int argc, char **argv)
{
    const char *out = NULL, *dir = NULL;
    rp_merge_opts o = {"rp-merge", 0, RP_PRUNE_DEFAULT_PCT, 0, NULL, 0, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("rp-merge (rpprof) %s\n", RPPROF_VERSION);
            return 0;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--newest-job")) {
            o.newest_job = 1;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc) {
                fprintf(stderr, "rp-merge: %s needs a file name\n", a);
                return 2;
            }
            out = argv[i];
        } else if (!strncmp(a, "--output=", 9)) {
            out = a + 9;
        } else if (!strcmp(a, "--min-share") || !strncmp(a, "--min-share=", 12)) {
            const char *v = a[11] == '=' ? a + 12 : (++i < argc ? argv[i] : NULL);
            char *end = NULL;
            double x = v ? strtod(v, &end) : -1;
            if (!v || end == v || *end || !(x >= 0 && x < 100)) {
                fprintf(stderr, "rp-merge: --min-share needs a percentage in [0, 100), "
                        "got '%s'\n", v ? v : "");
                return 2;
            }
            o.min_share_pct = x;
        } else if (!strcmp(a, "--")) {
            if (i + 1 < argc && !dir)
                dir = argv[++i];
            if (i + 1 < argc) {
                fprintf(stderr, "rp-merge: one directory only (try --help)\n");
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "rp-merge: unknown option '%s' (try --help)\n", a);
            return 2;
        } else if (dir) {
            fprintf(stderr, "rp-merge: one directory only (try --help)\n");
            return 2;
        } else {
            dir = a;
        }
    }
    if (!dir) {
        fprintf(stderr, "rp-merge: no measurement directory given (try --help)\n");
        return 2;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "rp-merge: %s: %s\n", dir,
                stat(dir, &sb) != 0 ? strerror(errno) : "not a directory");
        return 1;
    }
    rp_profile p;
    if (merge_dir(dir, &o, &p) != 0)
        return 1;
    char *def = NULL;
    if (!out) {
        size_t n = strlen(dir) + 16;
        def = malloc(n);
        if (!def) {
            profile_free(&p);
            return 1;
        }
        snprintf(def, n, "%s/profile.rpm", dir);
        out = def;
    }
    int rc = 0;
    if (profile_write(out, &p) != 0) {
        fprintf(stderr, "rp-merge: %s: cannot write: %s\n", out, strerror(errno));
        rc = 1;
    } else {
        fprintf(stderr, "rp-merge: %s: %u of %u ranks, %u contexts, k=%u", out,
                p.ranks_present, p.nranks, p.n_nodes, p.k);
        if (p.n_folded)
            fprintf(stderr, " (%u under %g %% folded)", p.n_folded, p.min_share_pct);
        fputc('\n', stderr);
    }
    profile_free(&p);
    free(def);
    return rc;
}
