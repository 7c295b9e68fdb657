/* rankfiles.c - finding a measurement directory's rank files
 * (rank-<digits>.rpp), for rp-merge, rp-report and the full-path reader. */
#define _GNU_SOURCE
#include "common/rankfiles.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


typedef struct rankfile {
    uint32_t rank;
    char    *name;
} rankfile;

/* "rank-<digits>.rpp" exactly; other files (profile.rpm, *.tmp.*) ignored. */
static int parse_rank_name(const char *s, uint32_t *rank)
{
    if (strncmp(s, "rank-", 5) != 0)
        return 0;
    const char *p = s + 5;
    uint64_t v = 0;
    int nd = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX)
            return 0;
        p++;
        nd++;
    }
    if (nd == 0 || strcmp(p, ".rpp") != 0)
        return 0;
    *rank = (uint32_t)v;
    return 1;
}

static int cmp_rankfile(const void *a, const void *b)
{
    const rankfile *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int list_rankfiles(const char *dir, rankfile **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    rankfile *v = NULL;
    uint32_t cnt = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        uint32_t r;
        if (!parse_rank_name(e->d_name, &r))
            continue;
        if (cnt == cap) {
            cap = cap ? cap * 2 : 64;
            rankfile *nv = realloc(v, cap * sizeof *nv);
            if (!nv)
                goto oom;
            v = nv;
        }
        v[cnt].rank = r;
        v[cnt].name = strdup(e->d_name);
        if (!v[cnt].name)
            goto oom;
        cnt++;
    }
    closedir(d);
    if (cnt > 1)
        qsort(v, cnt, sizeof *v, cmp_rankfile);
    *out = v;
    *n = cnt;
    return 0;
oom:
    closedir(d);
    for (uint32_t i = 0; i < cnt; i++)
        free(v[i].name);
    free(v);
    errno = ENOMEM;
    return -1;
}

int rankfiles_list(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n)
{
    rankfile *v;
    uint32_t cnt;
    *ranks = NULL;
    *paths = NULL;
    *n = 0;
    if (list_rankfiles(dir, &v, &cnt) != 0)
        return -1;
    uint32_t *r = malloc((cnt ? cnt : 1) * sizeof *r);
    char **p = calloc(cnt ? cnt : 1, sizeof *p);
    int ok = r && p;
    for (uint32_t i = 0; i < cnt; i++) {
        if (ok) {
            r[i] = v[i].rank;
            ok = asprintf(&p[i], "%s/%s", dir, v[i].name) >= 0;
            if (!ok)
                p[i] = NULL;
        }
        free(v[i].name);
    }
    free(v);
    if (!ok) {
        for (uint32_t i = 0; p && i < cnt; i++)
            free(p[i]);
        free(p);
        free(r);
        errno = ENOMEM;
        return -1;
    }
    *ranks = r;
    *paths = p;
    *n = cnt;
    return 0;
}

int64_t rankfiles_newest(const char *dir, uint32_t *count)
{
    rankfile *v;
    uint32_t n;
    *count = 0;
    if (list_rankfiles(dir, &v, &n) != 0)
        return -1;
    int64_t newest = 0;
    for (uint32_t i = 0; i < n; i++) {
        char *path;
        struct stat sb;
        if (asprintf(&path, "%s/%s", dir, v[i].name) >= 0) {
            if (stat(path, &sb) == 0) {
                int64_t t = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
                if (t > newest)
                    newest = t;
            }
            free(path);
        }
        free(v[i].name);
    }
    free(v);
    *count = n;
    return newest;
}


void rankfiles_free(uint32_t *ranks, char **paths, uint32_t n)
{
    for (uint32_t i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
    free(ranks);
}
