/* export.c - hand the sampler's calling-context tree to the rank file at
 * MPI_Finalize (normal context, may allocate): program counters become
 * (module, offset) pairs with the module's path and GNU build id, MPI
 * pseudo-frames become indices into the MPI name table.  Split out of
 * sample.c; it reads only what it is given.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cct.h"
#include "core/vocab.h"
#include "core/warn.h"
#include "sampler/sample.h"
#include "sampler/export.h"


typedef struct mod_info {
    char     *path;        /* resolved only if the tree references it */
    const char *name;      /* dlpi_name (valid while the module is loaded) */
    uintptr_t base;
    uintptr_t seg_lo[16], seg_hi[16];
    int       nseg;
    uint8_t   build_id[64];
    uint32_t  build_id_len;
    uint32_t  out_index;   /* UINT32_MAX until referenced */
} mod_info;

typedef struct mod_list {
    mod_info *m;
    size_t    n, cap;
    int       oom;
} mod_list;

static void read_build_id(const struct dl_phdr_info *info, mod_info *mi)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        size_t align = ph->p_align == 8 ? 8 : 4;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            size_t nsz = (nh->n_namesz + align - 1) & ~(align - 1);
            size_t dsz = (nh->n_descsz + align - 1) & ~(align - 1);
            const char *name = p + sizeof *nh;
            const char *desc = name + nsz;
            if (desc + nh->n_descsz > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0 && nh->n_descsz > 0) {
                uint32_t len = nh->n_descsz < 64 ? nh->n_descsz : 64;
                memcpy(mi->build_id, desc, len);
                mi->build_id_len = len;
                return;
            }
            p = desc + dsz;
        }
    }
}

static int export_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    mod_list *ml = data;
    if (ml->n == ml->cap) {
        size_t nc = ml->cap ? ml->cap * 2 : 32;
        mod_info *nm = realloc(ml->m, nc * sizeof *nm);
        if (!nm) {
            ml->oom = 1;
            return 1;
        }
        ml->m = nm;
        ml->cap = nc;
    }
    mod_info *mi = &ml->m[ml->n];
    memset(mi, 0, sizeof *mi);
    mi->out_index = UINT32_MAX;
    mi->base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum && mi->nseg < 16; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        mi->seg_lo[mi->nseg] = info->dlpi_addr + ph->p_vaddr;
        mi->seg_hi[mi->nseg] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        mi->nseg++;
    }
    if (mi->nseg == 0)
        return 0;
    /* The path is resolved later, only for the modules the tree
     * references (mod_resolve): a process may have loaded many more (under
     * SMPI every simulated rank's copy of the program, 2n objects a rank,
     * and realpath for all of them was O(n^2) over the job). */
    mi->name = info->dlpi_name ? info->dlpi_name : "";
    read_build_id(info, mi);
    ml->n++;
    return 0;
}

/* The path of a module the tree references: the program's own (empty
 * name) from /proc/self/exe, a library's with its links resolved, else
 * its name as the loader has it (e.g. linux-vdso.so.1).  0, or -1 without
 * memory. */
static int mod_resolve(mod_info *mi)
{
    char rp[PATH_MAX];
    if (mi->name[0] == '\0') {
        ssize_t k = readlink("/proc/self/exe", rp, sizeof rp - 1);
        if (k > 0) {
            rp[k] = '\0';
            mi->path = strdup(rp);
        } else {
            mi->path = strdup("[main]");
        }
    } else if (realpath(mi->name, rp)) {
        mi->path = strdup(rp);
    } else {
        mi->path = strdup(mi->name);
    }
    return mi->path ? 0 : -1;
}

static mod_info *find_mod(mod_list *ml, uintptr_t pc)
{
    for (size_t i = 0; i < ml->n; i++)
        for (int s = 0; s < ml->m[i].nseg; s++)
            if (pc >= ml->m[i].seg_lo[s] && pc < ml->m[i].seg_hi[s])
                return &ml->m[i];
    return NULL;
}


int sample_export_cct(const rp_cct *cct, rp_cct_export *d, uint32_t k,
                      const char *(*fn_name)(int), int fn_count)
{
    int rc = -1;
    mod_list ml = { 0 };
    uint32_t n_nodes = cct ? cct_count(cct) : 1;
    uint32_t n_met = cct ? cct->n_metrics : RP_MET_PATH0 + (k ? k : 1);

    d->nodes = calloc(n_nodes, sizeof *d->nodes);
    d->metrics = calloc((size_t)n_nodes * n_met, sizeof *d->metrics);
    if (!d->nodes || !d->metrics)
        goto fail;
    d->n_nodes = n_nodes;
    d->n_metrics = n_met;
    d->nodes[0].parent = UINT32_MAX;
    d->nodes[0].module = RP_MOD_ROOT;
    d->nodes[0].offset = 0;

    dl_iterate_phdr(export_cb, &ml);
    if (ml.oom)
        goto fail;

    int nf = fn_name ? fn_count : 0;
    if (nf < 0)
        nf = 0;

    uint32_t n_used = 0;
    for (uint32_t i = 1; i < n_nodes; i++) {
        const rp_cct_node *cn = &cct->nodes[i];
        rp_cctnode *dn = &d->nodes[i];
        dn->parent = cn->parent;
        if (cn->pc & CCT_PSEUDO_BIT) {
            uint64_t fn = cn->pc & ~CCT_PSEUDO_BIT;
            if (fn >= RP_UNK_PSEUDO && fn < RP_UNK_PSEUDO + RP_UNK_N) {
                dn->module = RP_MOD_UNKNOWN;   /* "<unknown>" and its causes */
                dn->offset = fn - RP_UNK_PSEUDO;
            } else if (fn < (uint64_t)nf) {
                dn->module = RP_MOD_MPI;
                dn->offset = fn;
            } else {   /* cur_fn was not a valid id */
                dn->module = RP_MOD_UNKNOWN;
                dn->offset = 0;
            }
            continue;
        }
        mod_info *mi = find_mod(&ml, cn->pc);
        if (!mi && cn->pc > 0)
            mi = find_mod(&ml, cn->pc - 1);   /* return address past the end */
        if (!mi) {
            dn->module = RP_MOD_UNKNOWN;      /* unloaded module */
            dn->offset = cn->pc;
            continue;
        }
        if (mi->out_index == UINT32_MAX)
            mi->out_index = n_used++;
        dn->module = mi->out_index;
        dn->offset = cn->pc - mi->base;
    }
    if (cct)
        memcpy(d->metrics, cct->metrics, (size_t)n_nodes * n_met * sizeof(int64_t));

    d->modules = calloc(n_used ? n_used : 1, sizeof *d->modules);
    if (!d->modules)
        goto fail;
    for (size_t i = 0; i < ml.n; i++) {
        mod_info *mi = &ml.m[i];
        if (mi->out_index == UINT32_MAX)
            continue;
        if (!mi->path && mod_resolve(mi) != 0)
            goto fail;
        rp_module *m = &d->modules[mi->out_index];
        m->path = mi->path;
        mi->path = NULL;
        memcpy(m->build_id, mi->build_id, sizeof m->build_id);
        m->build_id_len = mi->build_id_len;
    }
    d->n_modules = n_used;

    d->mpi_names = calloc(nf ? (size_t)nf : 1, sizeof *d->mpi_names);
    if (!d->mpi_names)
        goto fail;
    for (int i = 0; i < nf; i++) {
        const char *s = fn_name(i);
        d->mpi_names[i] = strdup(s ? s : "?");
        if (!d->mpi_names[i])
            goto fail;
    }
    d->n_mpi_names = (uint32_t)nf;

    rc = 0;
fail:
    for (size_t i = 0; i < ml.n; i++)
        free(ml.m[i].path);
    free(ml.m);
    if (rc != 0)
        rp_warn(1, "cannot export the calling-context tree: out of memory");
    return rc;
}
